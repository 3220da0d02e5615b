# shellcheck shell=bash
# Shared helpers for the lab tests (sourced after lib.sh). Every test names its labs with
# lab_prefix TAG: the test's tag and its own pid, so tests run side by side and so do two suites
# on one machine (two checkouts, a second ctest beside the first); each removes its lab on exit.
. "$SRCDIR/tests/integration/lib.sh"

need_root
for t in ip tc; do
	command -v "$t" >/dev/null || { echo "SKIP: '$t' missing (scripts/deps.sh installs it)"; exit 77; }
done
command -v iptables >/dev/null || command -v iptables-legacy >/dev/null ||
	{ echo "SKIP: iptables missing (scripts/deps.sh installs it)"; exit 77; }
IPTABLES=$(command -v iptables || command -v iptables-legacy) # what the lab uses
export IPTABLES
PY=$(command -v /usr/bin/python3 || command -v python3) || { echo "SKIP: no python3"; exit 77; }
LABNET=$SRCDIR/tests/integration/labnet.py
LAB_TMP=$(mktemp -d)
LAB_PIDS=""

lab_cleanup() {
	for p in $LAB_PIDS; do kill "$p" 2>/dev/null; done
	[ -n "${LAB_PREFIX:-}" ] && "$NCCLCHECK" lab down --prefix "$LAB_PREFIX" >/dev/null 2>&1
	rm -rf "$LAB_TMP"
}

# lab_prefix TAG and lab_sweep TAG: scripts/lab_prefix.sh, shared with bench/ and tests/gpu/
. "$SRCDIR/scripts/lab_prefix.sh"

# lab_use TAG: LAB_PREFIX is this run's prefix for TAG (lab_prefix), the lab this test works on;
# it is removed on exit, whatever happens.
lab_use() {
	LAB_PREFIX=$(lab_prefix "$1") || exit 2
	trap lab_cleanup EXIT
	trap 'exit 130' INT TERM
	lab_sweep "$1"
	"$NCCLCHECK" lab down --prefix "$LAB_PREFIX" >/dev/null 2>&1
}

# lx NODE CMD...: CMD on node NODE (n0, n1, rtr...) of this test's lab.
lx() {
	local node=$1; shift
	"$NCCLCHECK" lab exec "$LAB_PREFIX-$node" -- "$@"
}

# lab_cluster N SECONDS ARGS...: nodes n0..n(N-1) of this test's lab run `cluster --no-python
# ARGS` at once, each bounded by SECONDS; outputs in $LAB_TMP/n<i>.out (.err), exit codes in .rc.
lab_cluster() {
	local n=$1 secs=$2 w="" i; shift 2
	for i in $(seq 1 $((n - 1))); do
		( timeout "$secs" "$NCCLCHECK" lab exec "$LAB_PREFIX-n$i" -- "$NCCLCHECK" cluster \
			--no-python "$@" >"$LAB_TMP/n$i.out" 2>"$LAB_TMP/n$i.err"; echo $? >"$LAB_TMP/n$i.rc" ) &
		w="$w $!"
	done
	timeout "$secs" "$NCCLCHECK" lab exec "$LAB_PREFIX-n0" -- "$NCCLCHECK" cluster --no-python "$@" \
		>"$LAB_TMP/n0.out" 2>"$LAB_TMP/n0.err"; echo $? >"$LAB_TMP/n0.rc"
	# shellcheck disable=SC2086
	wait $w
}

# serve NODE PORT...: background listeners on NODE; returns once they listen.
serve() {
	local node=$1; shift
	local ready="$LAB_TMP/ready.$node.$$.$RANDOM"
	lx "$node" "$PY" "$LABNET" serve "$ready" "$@" >/dev/null 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
	for _ in $(seq 100); do [ -e "$ready" ] && return 0; sleep 0.05; done
	fail "listeners on $node ($*) did not start"
	return 1
}

probe() { lx "$1" "$PY" "$LABNET" "${@:2}"; }

# lab_gone PREFIX: nothing of the lab is left anywhere.
lab_gone() {
	local p=$1 left
	left=$(ip netns list | awk '{print $1}' | grep -E "^$p-(hub|rtr|core|n[0-9]+)$")
	[ -z "$left" ] || { fail "namespaces left: $left"; return; }
	left=$(ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' |
		grep -E "^$p-(pub|priv|wan|wanc|n[0-9]+(e0|e1|rt))$")
	[ -z "$left" ] || { fail "root links left: $left"; return; }
	left=$(ls -d /etc/netns/"$p"-* 2>/dev/null)
	[ -z "$left" ] || { fail "/etc/netns left: $left"; return; }
	[ ! -e "/run/ncclcheck/lab/$p" ] || { fail "state left: /run/ncclcheck/lab/$p"; return; }
	pass "nothing of lab '$p' is left (namespaces, links, /etc/netns, state)"
}
