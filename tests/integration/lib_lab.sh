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

# lab_prefix TAG: prints this test run's prefix for TAG (at most 4 characters, [a-z][a-z0-9]*):
# TAG and this shell's pid in base 36, 5 digits (pid_max is at most 2^22 < 36^5), so at most 9
# characters (LAB_PREFIX_MAX). No two running tests share a pid, so no two share a prefix,
# whichever checkout or ctest started them; a fixed prefix per test (nct4h) collided as soon
# as two suites ran on one machine, each removing the other's lab.
lab_prefix() {
	local tag=$1 n=$$ d=0123456789abcdefghijklmnopqrstuvwxyz s="" i
	[[ $tag =~ ^[a-z][a-z0-9]{0,3}$ ]] || { echo "lab_prefix: bad tag '$tag'" >&2; exit 2; }
	for i in 1 2 3 4 5; do s=${d:n % 36:1}$s; n=$((n / 36)); done
	echo "$tag$s"
}

# lab_sweep TAG: removes labs of TAG whose test is gone (a run killed before its trap ran);
# a lab whose pid still runs is left alone: it may be another suite's.
lab_sweep() {
	local tag=$1 p pid
	for p in $({ ls /run/ncclcheck/lab 2>/dev/null; ip netns list 2>/dev/null | awk '{print $1}' |
		sed 's/-[a-z0-9]*$//'; } | grep -E "^$tag[0-9a-z]{5}$" | sort -u); do
		pid=$((36#${p#"$tag"}))
		[ "$pid" != $$ ] && ! kill -0 "$pid" 2>/dev/null &&
			"$NCCLCHECK" lab down --prefix "$p" >/dev/null 2>&1
	done
	return 0
}

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
