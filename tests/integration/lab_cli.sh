#!/bin/bash
# lab's command line: help documents every scenario (and the README lists them), bad input is a
# usage error, and not being root or missing iproute2/iptables says which command fixes it.
set -u
. "$SRCDIR/tests/integration/lib.sh"

help=$("$NCCLCHECK" lab --help); expect_rc 0 $? "lab --help"
out=$("$NCCLCHECK" --help); expect_match "$out" "^  lab " "lab is in the verb list"
scenarios=$(printf '%s\n' "$help" | sed -n '/^Scenarios:/,/^Examples:/p' | grep -E '^  [a-z0-9-]+( \(default\))?$' | awk '{print $1}')
[ "$(echo "$scenarios" | wc -l)" -eq 8 ] && pass "8 scenarios documented" || fail "scenarios: $scenarios"
readme=$(sed -n '/^## The lab/,/^## /p' "$SRCDIR/README.md")
for s in $scenarios; do
	block=$(printf '%s\n' "$help" | sed -n "/^  $s\( (default)\)\?\$/,/^  [a-z]/p")
	expect_match "$block" "reproduces: " "$s: what it reproduces"
	expect_match "$block" "from: .*seed [12] §" "$s: which seed section"
	expect_match "$block" "see it: " "$s: how to see it"
	expect_match "$readme" "\`$s\`" "README documents $s"
done

err=$("$NCCLCHECK" lab 2>&1); expect_rc 2 $? "no subcommand"
err=$("$NCCLCHECK" lab upp 2>&1); expect_rc 2 $? "unknown subcommand"
expect_match "$err" "did you mean 'up'" "subcommand suggestion"
err=$("$NCCLCHECK" lab up --scenario cloud-public-block 2>&1); expect_rc 2 $? "unknown scenario"
expect_match "$err" "did you mean 'cloud-public-blocked'" "scenario suggestion"
err=$("$NCCLCHECK" lab up --nodez 2 2>&1); expect_rc 2 $? "unknown flag"
expect_match "$err" "did you mean '--nodes'" "flag suggestion"
for n in 0 65 -1 two ""; do
	"$NCCLCHECK" lab up --nodes "$n" >/dev/null 2>&1; expect_rc 2 $? "--nodes '$n'"
done
"$NCCLCHECK" lab up --nodes 1 --scenario cloud-public-blocked >/dev/null 2>&1; expect_rc 2 $? "1 node for a 2-node scenario"
for p in "" Upper 1abc abc- toolongprefix "a b" "a/b" "a.b"; do
	err=$("$NCCLCHECK" lab up --prefix "$p" 2>&1); expect_rc 2 $? "--prefix '$p'"
done
err=$("$NCCLCHECK" lab down --prefix "../etc" 2>&1); expect_rc 2 $? "down --prefix ../etc"
err=$("$NCCLCHECK" lab exec 2>&1); expect_rc 2 $? "exec without a node"
err=$("$NCCLCHECK" lab status extra 2>&1); expect_rc 2 $? "status with an extra argument"
out=$("$NCCLCHECK" lab status --prefix zz$$); expect_rc 0 $? "status of a lab that is not up"
expect_match "$out" "no lab 'zz$$'" "status says so"
out=$("$NCCLCHECK" lab status --prefix zz$$ --json)
printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["labs"] == [] and d["verb"] == "lab"' &&
	pass "status --json of no lab" || fail "status --json: $out"

# not root: exit 3 and the sudo command
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	err=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$NCCLCHECK" lab up --nodes 2 --scenario healthy 2>&1); rc=$?
	if printf '%s' "$err" | grep -q "Permission denied"; then
		echo "note: the binary is not readable by nobody; skipping the non-root check"
	else
		expect_rc 3 $rc "lab up as nobody"
		expect_match "$err" "needs root" "not-root message"
		expect_match "$err" "sudo ncclcheck lab up --nodes 2 --scenario healthy" "it prints the sudo command"
		err=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$NCCLCHECK" lab down 2>&1); expect_rc 3 $? "lab down as nobody"
		out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$NCCLCHECK" lab status 2>&1); expect_rc 0 $? "lab status works as nobody"
	fi
fi

if [ "$(id -u)" = 0 ]; then
	# tools missing: nothing is built, and the message names the package
	empty=$(mktemp -d)
	P=z$$ # this run's own prefix: two suites on one machine never share it
	trap '"$NCCLCHECK" lab down --prefix $P >/dev/null 2>&1; rm -rf "$empty"' EXIT
	trap 'exit 130' INT TERM
	err=$(PATH=$empty "$NCCLCHECK" lab up --prefix $P 2>&1); expect_rc 3 $? "lab up without iproute2"
	expect_match "$err" "apt-get install iproute2" "it names the package"
	ln -s "$(command -v ip)" "$empty/ip"; ln -s "$(command -v tc)" "$empty/tc"
	err=$(PATH=$empty "$NCCLCHECK" lab up --prefix $P --scenario cloud-public-blocked 2>&1); expect_rc 3 $? "lab up without iptables"
	expect_match "$err" "apt-get install iptables" "it names iptables"
	out=$(PATH=$empty "$NCCLCHECK" lab up --prefix $P --scenario healthy 2>&1); expect_rc 0 $? "healthy needs only iproute2"
	[ -e /run/netns/$P-hub ] && pass "it was built" || fail "not built"
	out=$(PATH=$empty "$NCCLCHECK" lab down --prefix $P 2>&1); expect_rc 0 $? "down"
	[ ! -e /run/netns/$P-hub ] && pass "and removed" || fail "not removed"
	# a step that fails half-way: the error names the command, and nothing is left behind
	printf '#!/bin/sh\necho "iptables: simulated failure" >&2\nexit 4\n' > "$empty/iptables"
	chmod +x "$empty/iptables"
	err=$(PATH=$empty "$NCCLCHECK" lab up --prefix $P --scenario cloud-public-blocked 2>&1); expect_rc 3 $? "a failing iptables"
	expect_match "$err" "iptables -A INPUT .* in '$P-n0' failed: iptables: simulated failure" "the error names the step"
	left=$(ip netns list | grep -c "^$P-"); [ -e /run/ncclcheck/lab/$P ] && left=$((left + 1))
	[ "$left" = 0 ] && pass "the failed up removed what it had built" || fail "$left things left after a failed up"
	out=$("$NCCLCHECK" lab down --prefix $P); expect_rc 0 $? "down of nothing"
	expect_match "$out" "nothing to remove" "down of nothing says so"
fi
finish
