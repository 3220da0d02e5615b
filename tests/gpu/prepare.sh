#!/bin/sh
# Fills the ignored folder .gpu/ with what the GPU machine lacks (it has no package registry):
# Debian 12 .debs of iproute2, iptables, iperf3 and the runtime libraries of ncclcheck, and a
# release build of ncclcheck. Run it on the CI-like machine, then carry .gpu with the device
# command (carry: [".gpu"]); tests/gpu/env.sh unpacks it under /tmp on the GPU machine.
set -eu
cd "$(dirname "$0")/../.."
mkdir -p .gpu/debs .gpu/bin
pkgs="iproute2 iptables libbpf1 libelf1 libmnl0 libcap2 libxtables12 libip4tc2 libip6tc2
libnetfilter-conntrack3 libnfnetlink0 libnftnl11 libjansson4 libhwloc15 iperf3 libiperf0 libsctp1"
# shellcheck disable=SC2086
(cd .gpu/debs && apt-get download $pkgs >/dev/null 2>&1 || { apt-get update -qq && apt-get download $pkgs; })
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target ncclcheck >/dev/null
cp build/release/ncclcheck .gpu/bin/ncclcheck
# the wheel users install (wheel_check.sh): scripts/release.sh's, from the portable build
if [ "${NCCLCHECK_GPU_WHEEL:-1}" = 1 ]; then
	sh scripts/release.sh >/dev/null
	mkdir -p .gpu/dist && rm -f .gpu/dist/*.whl && cp dist/ncclcheck-*_x86_64.whl .gpu/dist/
fi
du -sh .gpu
