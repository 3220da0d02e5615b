#!/bin/sh
# isolated.sh CMD...: runs CMD (a ctest, a lab) in a network and mount namespace of its own:
# its own /run/netns, /etc/netns, lab state and iptables, so two checkouts' suites on one
# machine never meet, and a /sys of its own (sysfs shows the network namespace of whoever
# mounted it: without it /sys/class/net lists the host's links, and `lab down` misses a link
# leaked into this namespace). Root only. Example: scripts/isolated.sh ctest --test-dir build/asan -R lab_
set -eu
[ "$#" -gt 0 ] || { echo "usage: $0 CMD [ARG...]" >&2; exit 2; }
exec unshare --mount --net --propagation private sh -c '
	set -e
	for d in /run/netns /run/ncclcheck /etc/netns; do mkdir -p "$d"; mount -t tmpfs tmpfs "$d"; done
	# the cgroup mounts under /sys stay what they were
	mkdir /run/ncclcheck/.cgroup && mount --rbind /sys/fs/cgroup /run/ncclcheck/.cgroup
	mount -t sysfs sysfs /sys
	mount --move /run/ncclcheck/.cgroup /sys/fs/cgroup && rmdir /run/ncclcheck/.cgroup
	ip link set lo up
	exec "$@"' isolated "$@"
