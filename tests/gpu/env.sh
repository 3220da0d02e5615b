# Sourced by every tests/gpu/*.sh script on the GPU machine (Ubuntu 24.04, no package registry).
# What travels with the working tree in the ignored folder .gpu/ (see tests/gpu/README.md):
#   .gpu/debs/*.deb   iproute2, iptables and their libraries, jansson and hwloc runtimes (Debian 12)
#   .gpu/bin/ncclcheck   a release build made on the CI-like machine (glibc 2.36 runs on 2.39)
# They are unpacked into $GPU_TOOLS, never into /, so nothing on the machine changes.
: "${GPU_TOOLS:=/tmp/gputools}"
REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
if [ ! -x "$GPU_TOOLS/bin/ip" ] && [ -d "$REPO/.gpu/debs" ]; then
	mkdir -p "$GPU_TOOLS"
	for d in "$REPO"/.gpu/debs/*.deb; do dpkg -x "$d" "$GPU_TOOLS"; done
fi
export GPU_TOOLS
# Debian's iptables comes through update-alternatives, which a bare dpkg -x does not run.
mkdir -p "$GPU_TOOLS/alt"
for t in iptables ip6tables; do
	for v in "" -save -restore; do	# iptables-save -> iptables-legacy-save
		[ -e "$GPU_TOOLS/usr/sbin/$t-legacy$v" ] && ln -sf "$GPU_TOOLS/usr/sbin/$t-legacy$v" "$GPU_TOOLS/alt/$t$v"
	done
done
export PATH="$GPU_TOOLS/alt:$GPU_TOOLS/bin:$GPU_TOOLS/sbin:$GPU_TOOLS/usr/sbin:$GPU_TOOLS/usr/bin:$PATH"
export LD_LIBRARY_PATH="$GPU_TOOLS/usr/lib/x86_64-linux-gnu:$GPU_TOOLS/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export XTABLES_LIBDIR="$GPU_TOOLS/usr/lib/x86_64-linux-gnu/xtables"
IP=${IP:-$GPU_TOOLS/bin/ip}
[ -x "$IP" ] || IP=$GPU_TOOLS/sbin/ip
IPTABLES=${IPTABLES:-$GPU_TOOLS/usr/sbin/iptables-legacy}
export IP IPTABLES
: "${NCCLCHECK:=$REPO/.gpu/bin/ncclcheck}"
export NCCLCHECK
# Never let NCCL use NVLink multicast on a shared host (KINDS.md), whatever a script sets later.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
: "${OUT:=/tmp/gpu-out}"
mkdir -p "$OUT"
