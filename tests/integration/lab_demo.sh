#!/bin/bash
# scripts/demo.sh, README's main command, tells the truth: on this machine every step does what
# its narration says and it exits 0; when a step does something else (here: cluster still fails
# after the fix) it names that step with its stderr, never says "the error is gone", and exits 1.
# Either way its lab (a prefix of its own) and every process it started are gone afterwards.
# ctest: run alone
# ctest: timeout 1300
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
command -v nc >/dev/null || { echo "SKIP: nc missing (the demo shows the fault with it)"; exit 77; }

# demo_run OUT [NCCLCHECK]: runs the demo, its output in OUT; sets demo_rc and DEMO_PREFIX
demo_run() {
	local out=$1 exe=${2:-$NCCLCHECK}
	NCCLCHECK=$exe NO_COLOR=1 timeout 600 "$SRCDIR/scripts/demo.sh" >"$out" 2>&1
	demo_rc=$?
	# the demo's prefix (dm<its pid>), from the 'lab up' it shows
	DEMO_PREFIX=$(grep -o -- "--prefix dm[0-9]*" "$out" | head -1 | awk '{print $2}')
}

# demo_gone WHAT: nothing of the demo's lab, and no process naming it
demo_gone() {
	local p=$DEMO_PREFIX left
	[ -n "$p" ] || { fail "$1: the demo never named its lab"; return; }
	left=$( { ls /run/netns; ls /etc/netns; ls /run/ncclcheck/lab; } 2>/dev/null | grep -E "^$p(-|$)")
	[ -z "$left" ] || { fail "$1: left: $(echo $left)"; return; }
	left=$(ps -eo pid=,stat=,args=) # listed first: a grep beside ps would list itself
	left=$(printf '%s\n' "$left" | grep -F -- "$p" | awk '$2 !~ /^Z/')
	[ -z "$left" ] || { fail "$1: processes of the demo's lab still run: $left"; return; }
	pass "$1: its lab $p and its processes are gone"
}

# 1. as README runs it: every step as described, exit 0
demo_run "$LAB_TMP/ok.out"
expect_rc 0 $demo_rc "demo.sh on this machine"
out=$(cat "$LAB_TMP/ok.out")
[ $demo_rc = 0 ] || echo "$out" | tail -40
expect_match "$out" "demo: every step did what it says" "it says every step did what it says"
expect_match "$out" "and the error is gone" "the fix removed the error"
expect_no_match "$out" "NOT AS DESCRIBED" "no step differed"
expect_match "$out" "\(exit 1 on n0, 1 on n1\)" "cluster before the fix: exit 1 on both nodes"
expect_match "$out" "\(exit 0 on n0, 0 on n1\)" "cluster after the fix: exit 0 on both nodes"
demo_gone "after a good run"

# 1b. in Chinese (LANG=zh_CN.UTF-8, issue #28): the same steps, and every line a person reads is
# Chinese and within 100 columns, CJK counted as two (tests/integration/zh_lines.py says which not)
LANG=zh_CN.UTF-8 LC_ALL= LC_MESSAGES= demo_run "$LAB_TMP/zh.out"
expect_rc 0 $demo_rc "demo.sh with LANG=zh_CN.UTF-8"
out=$(cat "$LAB_TMP/zh.out")
expect_match "$out" "demo: 每一步都与说明一致" "in Chinese it says every step did what it says"
expect_match "$out" "错误" "the findings are in Chinese"
bad=$(python3 "$SRCDIR/tests/integration/zh_lines.py" "$LAB_TMP/zh.out")
[ -z "$bad" ] && pass "every line of the Chinese demo is Chinese and within 100 columns" ||
	fail "lines of the Chinese demo that are English or too wide: $bad"
demo_gone "after the Chinese run"

# 2. a step that does not do what the narration says: cluster fails after the fix
fake=$LAB_TMP/fake-ncclcheck
cat >"$fake" <<EOF
#!/bin/sh
if [ "\$1" = cluster ] && [ "\${NCCL_SOCKET_IFNAME:-}" = eth1 ]; then
	echo "fake: cluster failed on purpose" >&2
	exit 3
fi
exec "$NCCLCHECK" "\$@"
EOF
chmod +x "$fake"
demo_run "$LAB_TMP/bad.out" "$fake"
expect_rc 1 $demo_rc "demo.sh with a cluster that fails after the fix"
out=$(cat "$LAB_TMP/bad.out")
expect_match "$out" "NOT AS DESCRIBED: cluster on n0: exit 3, expected 0" "it names the step"
expect_match "$out" "stderr: fake: cluster failed on purpose" "it shows the step's stderr"
expect_no_match "$out" "the error is gone" "it never says the error is gone"
expect_match "$out" "The error is NOT gone" "it says the error is not gone"
expect_match "$out" "demo: 2 step\(s\) did not do what the narration says" "the summary counts them"
demo_gone "after a run whose step failed"
finish
