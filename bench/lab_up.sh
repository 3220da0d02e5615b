#!/bin/bash
# How fast `ncclcheck lab` builds and removes a 16-node lab (median of RUNS runs), against the
# target (up in under 10 s on the 2-core CI machine) and against a naive shell script that builds
# the same topology the usual way: one `ip` (or sysctl) process per setting, node after node.
#   sudo bench/lab_up.sh            NODES=16 RUNS=5 NCCLCHECK=build/release/ncclcheck by default
set -euo pipefail
cd "$(dirname "$0")/.."
NODES=${NODES:-16}
RUNS=${RUNS:-5}
TARGET_S=10
if [ -z "${NCCLCHECK:-}" ]; then
	for b in build/release/ncclcheck build/debug/ncclcheck; do
		[ -x "$b" ] && { NCCLCHECK=$PWD/$b; break; }
	done
fi
[ -x "${NCCLCHECK:-}" ] || { echo "bench: build ncclcheck first (cmake --preset release && cmake --build --preset release)" >&2; exit 3; }
[ "$(id -u)" = 0 ] || { echo "bench: needs root (network namespaces); run: sudo $0" >&2; exit 3; }

# this run's own labs: a second run or a test suite on the machine never shares them
. scripts/lab_prefix.sh
P=$(lab_prefix lu)   # ncclcheck's lab
Q=$(lab_prefix lq)   # the naive script's lab
lab_sweep lu

naive_up() {
	local i
	ip netns add $Q-hub
	for ((i = 0; i < NODES; i++)); do ip netns add $Q-n$i; done
	ip -n $Q-hub link add $Q-pub type bridge
	ip -n $Q-hub link set $Q-pub up
	ip -n $Q-hub link add $Q-priv type bridge
	ip -n $Q-hub link set $Q-priv up
	mkdir -p /etc/netns
	for ((i = 0; i < NODES; i++)); do
		ip -n $Q-hub link add $Q-n${i}e0 type veth peer name eth0 netns $Q-n$i
		ip -n $Q-hub link set $Q-n${i}e0 master $Q-pub
		ip -n $Q-hub link set $Q-n${i}e0 up
		ip -n $Q-hub link add $Q-n${i}e1 type veth peer name eth1 netns $Q-n$i
		ip -n $Q-hub link set $Q-n${i}e1 master $Q-priv
		ip -n $Q-hub link set $Q-n${i}e1 up
		ip -n $Q-n$i link set lo up
		ip -n $Q-n$i addr add 203.0.113.$((10 + i))/24 dev eth0
		ip -n $Q-n$i link set eth0 up
		ip -n $Q-n$i addr add 10.10.0.$((10 + i))/24 dev eth1
		ip -n $Q-n$i link set eth1 up
		ip netns exec $Q-n$i sysctl -q -w net.ipv4.ip_local_port_range="32768 60999"
		mkdir -p /etc/netns/$Q-n$i
		{ echo "127.0.0.1 localhost"; for ((j = 0; j < NODES; j++)); do echo "10.10.0.$((10 + j)) $Q-n$j"; done; } \
			> /etc/netns/$Q-n$i/hosts
	done
}

naive_down() {
	local i
	for ((i = 0; i < NODES; i++)); do ip netns del $Q-n$i 2>/dev/null || true; rm -rf /etc/netns/$Q-n$i; done
	ip netns del $Q-hub 2>/dev/null || true
}

cleanup() {
	"$NCCLCHECK" lab down --prefix $P >/dev/null 2>&1 || true
	naive_down
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cleanup

ms() { echo $(($(date +%s%N) / 1000000)); }
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

up_t="" down_t="" nup_t="" ndown_t=""
for ((r = 0; r < RUNS; r++)); do
	t=$(ms); "$NCCLCHECK" lab up --nodes "$NODES" --scenario healthy --prefix $P >/dev/null; up_t="$up_t $(($(ms) - t))"
	# the lab works: the last node reaches the first over both segments
	"$NCCLCHECK" lab exec $P-n$((NODES - 1)) -- ping -c 1 -W 2 10.10.0.10 >/dev/null 2>&1 ||
		{ echo "bench: the ${NODES}-node lab does not work" >&2; exit 1; }
	t=$(ms); "$NCCLCHECK" lab down --prefix $P >/dev/null; down_t="$down_t $(($(ms) - t))"
	t=$(ms); naive_up; nup_t="$nup_t $(($(ms) - t))"
	t=$(ms); naive_down; ndown_t="$ndown_t $(($(ms) - t))"
done

up=$(echo $up_t | tr ' ' '\n' | median)
down=$(echo $down_t | tr ' ' '\n' | median)
nup=$(echo $nup_t | tr ' ' '\n' | median)
ndown=$(echo $ndown_t | tr ' ' '\n' | median)
verdict=$(awk -v u="$up" -v t="$TARGET_S" 'BEGIN { print (u / 1000 < t) ? "met" : "MISSED" }')
echo "lab up/down, $NODES nodes, scenario healthy, median of $RUNS runs on $(nproc) cores"
printf '  ncclcheck lab up     %7.3f s   (target < %d s: %s)\n' "$(awk -v v="$up" 'BEGIN{print v/1000}')" "$TARGET_S" "$verdict"
printf '  ncclcheck lab down   %7.3f s\n' "$(awk -v v="$down" 'BEGIN{print v/1000}')"
printf '  naive script up      %7.3f s   (one ip/sysctl process per setting)\n' "$(awk -v v="$nup" 'BEGIN{print v/1000}')"
printf '  naive script down    %7.3f s\n' "$(awk -v v="$ndown" 'BEGIN{print v/1000}')"
printf '  ratio naive / ncclcheck: up %.1fx, down %.1fx\n' \
	"$(awk -v a="$nup" -v b="$up" 'BEGIN{print a / (b ? b : 1)}')" \
	"$(awk -v a="$ndown" -v b="$down" 'BEGIN{print a / (b ? b : 1)}')"
[ "$verdict" = met ]
