#!/bin/sh
# isolated.sh CMD...: runs CMD (a ctest, a lab) in a network and mount namespace of its own:
# its own /run/netns, lab state and iptables, so two checkouts' suites on one machine never
# meet. Root only. Example: scripts/isolated.sh ctest --test-dir build/asan -R lab_
set -eu
[ "$#" -gt 0 ] || { echo "usage: $0 CMD [ARG...]" >&2; exit 2; }
exec unshare --mount --net --propagation private sh -c '
	set -e
	for d in /run/netns /run/ncclcheck; do mkdir -p "$d"; mount -t tmpfs tmpfs "$d"; done
	ip link set lo up
	exec "$@"' isolated "$@"
