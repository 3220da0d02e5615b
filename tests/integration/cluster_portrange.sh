#!/bin/bash
# firewall-port-range: both nodes drop TCP 32768-49151 on eth0 and eth1. One root cause, stated
# first: exactly one error (link.ports.range, every per-link, unreachable and verdict finding
# folded under it, caused_by naming it), the sysctl fix in the first 12 lines of what a person
# sees in a terminal 80 and 100 columns wide (a pty; no line wider), the same verdict and exit
# code on both nodes.
# ctest: run alone
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use pr
P=$LAB_PREFIX
HERE="$SRCDIR/tests/integration"
# the verdict block's command: the value one shell word, as emit_sh_word quotes it
FIX="sysctl -w net.ipv4.ip_local_port_range='49152 60999'"

"$NCCLCHECK" lab up --nodes 2 --scenario firewall-port-range --prefix $P --force >/dev/null 2>&1 ||
	{ fail "lab up"; finish; }

# round COLS: rank 0 in a pty COLS wide, rank 1 with --json (round 80) or piped text (round 100)
round() {
	local cols=$1 other=${2:-} w
	( timeout 90 "$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" cluster --no-python $other \
		>"$LAB_TMP/n1.$cols" 2>/dev/null; echo $? >"$LAB_TMP/n1.$cols.rc" ) &
	w=$!
	T0=$(date +%s%3N)
	timeout 90 "$PY" "$HERE/pty_run.py" "$cols" "$LAB_TMP/n0.$cols.tty" \
		"$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" cluster --no-python
	echo $? >"$LAB_TMP/n0.$cols.rc"
	wait $w
	T1=$(date +%s%3N)
	echo "round $cols: $((T1 - T0)) ms"
	"$PY" "$HERE/screen_check.py" "$LAB_TMP/n0.$cols.tty" "$cols" >"$LAB_TMP/n0.$cols.seen" &&
		pass "$cols columns: no line wider" || fail "$cols columns: a line is wider (above)"
	local v
	v=$(sed -n 's/^first verdict line: //p' "$LAB_TMP/n0.$cols.seen")
	[ "${v:-0}" -ge 1 ] && [ "$v" -le 12 ] && pass "$cols columns: the verdict is line $v" ||
		fail "$cols columns: the verdict is line ${v:-?}: $(head -20 "$LAB_TMP/n0.$cols.seen")"
	head -12 "$LAB_TMP/n0.$cols.seen" | grep -qF "$FIX" && pass "$cols columns: the sysctl fix in the first 12 lines" ||
		fail "$cols columns: no '$FIX' in the first 12 lines: $(head -12 "$LAB_TMP/n0.$cols.seen")"
	expect_rc 1 "$(cat "$LAB_TMP/n0.$cols.rc")" "$cols columns: rank 0"
	expect_rc 1 "$(cat "$LAB_TMP/n1.$cols.rc")" "$cols columns: rank 1"
}

round 80 --json
# rank 1's document: the counts and the folds
out=$("$PY" - "$LAB_TMP/n1.80" "$P" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = sys.argv[2]
roots = [f for f in d["findings"] if "caused_by" not in f and f["severity"] == "error"]
print("roots", [f["id"] for f in roots])
print("summary", d["summary"]["error"], "exit", d["exit_code"])
r = roots[0] if len(roots) == 1 else {}
print("root", r.get("id"), r.get("title"))
print("settings", sorted((s["name"], s["value"], s.get("node")) for s in r.get("settings", [])))
folded = [f for f in d["findings"] if "caused_by" in f]
print("folded", sorted(set(f["id"] for f in folded)))
print("folded-under-root", all(f["caused_by"]["id"] == "link.ports.range" for f in folded))
node_err = [(n["name"], f["id"]) for n in d["nodes"] for f in n.get("findings", [])
            if f.get("severity") == "error" and f.get("settled") == "confirmed" and "caused_by" not in f]
print("node errors left", node_err)
print("placeholders", any("<" in l for f in d["findings"] for l in f.get("fix", [])
                          if f["id"] == "link.ports.range"))
PY
)
echo "$out"
expect_match "$out" "^roots \['link.ports.range'\]$" "exactly one root error: link.ports.range"
expect_match "$out" "^summary 1 exit 1$" "the summary counts 1 error, exit code 1"
expect_match "$out" "^root link.ports.range $P-n0 and $P-n1 drop TCP ports 32768-49151 on eth0 and eth1$" \
	"one finding for both nodes and both interfaces"
expect_match "$out" "^settings \[\('net.ipv4.ip_local_port_range', '49152 60999', '$P-n0'\), \('net.ipv4.ip_local_port_range', '49152 60999', '$P-n1'\)\]$" \
	"the sysctl for each node, as settings"
expect_match "$out" "^folded \[.*'link.ports.blocked'.*\]$" "the per-link findings are folded"
expect_match "$out" "^folded-under-root True$" "every folded finding names the root"
expect_match "$out" "^node errors left \[\]$" "no node guess left as an error"
expect_match "$out" "^placeholders False$" "the fix has real addresses, no placeholders"

round 100
v0=$(grep -m1 '^verdict:' "$LAB_TMP/n0.100.seen")
v1=$(grep -m1 '^verdict:' "$LAB_TMP/n1.100")
[ -n "$v0" ] && [ "$v0" = "$v1" ] && pass "the same verdict on both nodes: $v0" ||
	fail "verdicts differ: '$v0' vs '$v1'"
expect_match "$(head -3 "$LAB_TMP/n1.100")" "^verdict: " "piped, the verdict is the first line"
expect_no_match "$(cat "$LAB_TMP/n1.100")" "unreachable|no NCCL_SOCKET_IFNAME works" \
	"nothing accuses an interface"
"$PY" "$HERE/screen_check.py" "$LAB_TMP/n1.100" 100 >/dev/null &&
	pass "piped: no line over 100 columns" || fail "piped: a line over 100 columns"
# -v: the measurements and the folded findings, still within the width
timeout 60 "$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" cluster --no-python -v >"$LAB_TMP/n1.v" 2>/dev/null &
w=$!
timeout 60 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" cluster --no-python -v >"$LAB_TMP/n0.v" 2>/dev/null
wait $w
expect_match "$(cat "$LAB_TMP/n0.v")" "cause: +link.ports.range" "-v shows the folded findings under their cause"
expect_match "$(cat "$LAB_TMP/n0.v")" "^  scan " "-v shows the link measurements"
"$PY" "$HERE/screen_check.py" "$LAB_TMP/n0.v" 100 >/dev/null &&
	pass "-v: no line over 100 columns" || fail "-v: a line over 100 columns"

"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
