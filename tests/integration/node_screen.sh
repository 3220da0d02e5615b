#!/bin/bash
# node's first screen in a terminal 80 and 100 columns wide (a pty): the verdict first, the
# findings after it, no line wider than the terminal; piped, no line wider than 100.
set -u
. "$SRCDIR/tests/integration/lib.sh"
HERE="$SRCDIR/tests/integration"
PY=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
F="$SRCDIR/tests/fixtures/facts/gpu-v100-driver470.json"

for cols in 80 100; do
	"$PY" "$HERE/pty_run.py" $cols "$T/tty" "$NCCLCHECK" node --facts "$F"
	expect_rc 1 $? "$cols columns: exit 1 (the old driver is an error)"
	"$PY" "$HERE/screen_check.py" "$T/tty" $cols >"$T/seen" && pass "$cols columns: no line wider" ||
		fail "$cols columns: a line is wider: $(cat "$T/seen")"
	expect_match "$(head -1 "$T/seen")" "^verdict: driver 470\.82\.01 is too old" "$cols columns: the verdict is the first line"
	v=$(grep -n -m1 '^ERROR ' "$T/seen" | cut -d: -f1)
	[ -n "$v" ] && [ "$v" -le 12 ] && pass "$cols columns: the first error by line $v" ||
		fail "$cols columns: the first error at line ${v:-none}"
	grep -q $'\033\[' "$T/tty" && pass "$cols columns: a terminal gets colour" ||
		fail "$cols columns: no colour on a terminal"
done
"$NCCLCHECK" node --facts "$F" >"$T/piped"
"$PY" "$HERE/screen_check.py" "$T/piped" 100 >/dev/null && pass "piped: no line over 100 columns" ||
	fail "piped: a line over 100 columns"
expect_no_match "$(cat "$T/piped")" $'\033' "piped: no escape sequences"
finish
