#!/bin/sh
# Installs what building, testing and the lab need, from Debian/Ubuntu packages.
# Idempotent: a package already present costs nothing. Needs root (or sudo).
set -eu

build="build-essential cmake pkg-config git libjansson-dev libhwloc-dev libssl-dev"
test="libcmocka-dev clang llvm libclang-rt-dev python3 python3-torch python3-yaml shellcheck time jq"
lab="iproute2 iptables nftables iperf3 procps netcat-openbsd kmod iputils-ping util-linux"
launchers="slurm-wlm munge openmpi-bin"
extra="libibverbs-dev gettext file"
# scripts/release.sh and the package tests: the wheel (Debian's build tools, offline), man pages,
# the old-Debian chroot
packaging="python3-build python3-setuptools python3-wheel python3-venv help2man debootstrap"

pkgs="$build $test $lab $launchers $extra $packaging"

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && { echo "deps: all present"; exit 0; }

SUDO=""
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { echo "deps: need root to install:$missing" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
echo "deps: installing:$missing"
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "deps: done"
