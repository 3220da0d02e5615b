#!/bin/bash
# lab down leaves no namespace, veth, bridge, /etc/netns entry or state behind: after a normal
# up, after `kill -9` of an up in the middle, after Ctrl-C (SIGINT) of an up, with processes
# still running inside; and it never touches look-alikes that are not the lab's.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use t4h

decoys_cleanup() {
	ip netns del $LAB_PREFIX-other 2>/dev/null
	ip netns del ${LAB_PREFIX}x-n0 2>/dev/null
	ip link del $LAB_PREFIX-keep 2>/dev/null
	ip link del $LAB_PREFIX-n0e0 2>/dev/null
	lab_cleanup
}
trap decoys_cleanup EXIT
decoys_cleanup
LAB_TMP=$(mktemp -d)

state_status() {
	"$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("status"))' \
		/run/ncclcheck/lab/$LAB_PREFIX/state.json 2>/dev/null
}

# start_and_kill SIGNAL: starts a 64-node up and sends SIGNAL once its namespaces appear;
# retries until the signal landed while it was still building. Sets $up_rc.
start_and_kill() {
	local sig=$1
	for _ in 1 2 3 4 5 6 7 8; do
		"$NCCLCHECK" lab up --nodes 64 --scenario firewall-port-range --prefix $LAB_PREFIX \
			>"$LAB_TMP/up.out" 2>&1 &
		local pid=$!
		while [ ! -e /run/netns/$LAB_PREFIX-hub ] && kill -0 $pid 2>/dev/null; do :; done
		if [ "$(state_status)" = building ]; then
			kill -s "$sig" $pid
			wait $pid; up_rc=$?
			return 0
		fi
		wait $pid
		"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null 2>&1
	done
	fail "could not catch 'lab up' in the middle after 8 tries"
	return 1
}

# 1. kill -9 in the middle: the lab is left half-built, down removes it
if start_and_kill KILL; then
	expect_rc 137 $up_rc "lab up killed with SIGKILL"
	n=$(ip netns list | grep -cE "^$LAB_PREFIX-(hub|n[0-9]+)( |$)")
	[ "$n" -gt 0 ] && pass "a half-built lab is left: $n namespaces" || fail "nothing was built before the kill"
	out=$("$NCCLCHECK" lab status --prefix $LAB_PREFIX)
	expect_match "$out" "lab '$LAB_PREFIX': incomplete" "status: incomplete"
	expect_match "$out" "fix: ncclcheck lab down --prefix $LAB_PREFIX" "status says how to clean up"
	"$NCCLCHECK" lab up --prefix $LAB_PREFIX >/dev/null 2>&1; expect_rc 3 $? "up refuses the leftover"
	# look-alikes, and a link with the lab's own name leaked into the root namespace
	ip netns add $LAB_PREFIX-other && ip netns add ${LAB_PREFIX}x-n0 && ip link add $LAB_PREFIX-keep type bridge &&
		ip link add $LAB_PREFIX-n0e0 type bridge || fail "cannot create decoys"
	out=$("$NCCLCHECK" lab down --prefix $LAB_PREFIX); expect_rc 0 $? "down after kill -9"
	expect_match "$out" "1 root link" "down removed the leaked root link"
	lab_gone $LAB_PREFIX
	ip netns list | grep -q "^$LAB_PREFIX-other" && pass "decoy namespace $LAB_PREFIX-other kept" || fail "$LAB_PREFIX-other removed"
	ip netns list | grep -q "^${LAB_PREFIX}x-n0" && pass "decoy namespace ${LAB_PREFIX}x-n0 kept" || fail "${LAB_PREFIX}x-n0 removed"
	ip link show $LAB_PREFIX-keep >/dev/null 2>&1 && pass "decoy link $LAB_PREFIX-keep kept" || fail "$LAB_PREFIX-keep removed"
	ip netns del $LAB_PREFIX-other; ip netns del ${LAB_PREFIX}x-n0; ip link del $LAB_PREFIX-keep
fi

# 2. Ctrl-C in the middle: up cleans up after itself
if start_and_kill INT; then
	expect_rc 3 $up_rc "lab up interrupted with SIGINT"
	expect_match "$(cat "$LAB_TMP/up.out")" "interrupted; everything it had built is removed" "it says so"
	lab_gone $LAB_PREFIX
fi

# 3. processes left inside a node do not keep the lab alive
"$NCCLCHECK" lab up --nodes 2 --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "lab up"
lx n0 sleep 300 & sleeper=$!
lx n1 sleep 300 & sleeper2=$!
sleep 0.3
out=$("$NCCLCHECK" lab down --prefix $LAB_PREFIX); expect_rc 0 $? "down with processes inside"
expect_match "$out" "2 processes left inside" "down ended them"
sleep 0.2
kill -0 $sleeper 2>/dev/null && fail "a process inside n0 survived" || pass "the process inside n0 is gone"
lab_gone $LAB_PREFIX

# nothing leaked into the root namespace at any point (other tests may add their own links,
# so look for ours by name and by peer namespace, not by count)
out=$(ip -o link show type veth; ip -o link show type bridge)
expect_no_match "$out" "$LAB_PREFIX" "no veth or bridge in the root namespace names or points into the lab"
wait $sleeper $sleeper2 2>/dev/null
finish
