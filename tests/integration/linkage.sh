#!/bin/bash
# NVML, the CUDA driver, NCCL and libibverbs must be dlopen'ed, never linked: the binary has to run
# on machines without them (a CPU-only login node, a container without the driver mounted).
set -u
. "$SRCDIR/tests/integration/lib.sh"
command -v readelf >/dev/null || { echo "SKIP: readelf missing"; exit 77; }
needed=$(readelf -d "$NCCLCHECK" | awk '/NEEDED/ {print $NF}')
[ -n "$needed" ] || fail "readelf printed no NEEDED entries"
for lib in libcuda libnvidia-ml libnccl libibverbs libcudart; do
	expect_no_match "$needed" "$lib" "not linked against $lib"
done
finish
