#!/bin/bash
# Interpreters that misbehave (garbage, a crash, a hang, a missing file) become "unknown,
# because ..." facts within the timeout, and leave no process behind.
set -u
. "$SRCDIR/tests/integration/lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d /tmp/nct-b-py-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\nprintf "Hello \\001 from a shim\\n"\n' > "$tmp/garbage"
# bounded even if ncclcheck failed to kill it
printf '#!/bin/sh\nexec sleep 30\n' > "$tmp/sleepy"
printf '#!/bin/sh\nkill -SEGV $$\n' > "$tmp/crash"
printf '#!/bin/sh\necho "@@ncclcheck-python@@ {\\"python\\": "\n' > "$tmp/halfjson"
# 300 KB of warnings on stderr before a good answer: more than a pipe holds
cat > "$tmp/chatty" <<EOS
#!/bin/sh
head -c 300000 /dev/zero | tr '\\0' w >&2
echo '@@ncclcheck-python@@ {"python": {"version": "3.12.0"}, "torch": {"installed": false}, "lightning": {"installed": false}, "pytorch_lightning": {"installed": false}}'
EOS
chmod +x "$tmp"/*
q() { printf '%s' "$doc" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
unk() { q "[p['version'].get('unknown') for p in d['facts']['python'] if p['path']=='$1'][0]"; }

start=$(date +%s)
doc=$("$NCCLCHECK" node --json --python "$tmp/garbage" --python "$tmp/sleepy" \
	--python "$tmp/crash" --python "$tmp/halfjson" --python "$tmp/chatty" --python /nonexistent/python3 \
	--python-timeout 3); rc=$?
took=$(( $(date +%s) - start ))
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "node exited $rc"
expect_match "$(unk "$tmp/garbage")" "the probe printed 'Hello \? from a shim'" "garbage is quoted"
expect_match "$(unk "$tmp/sleepy")" "did not answer within 3 s" "a hang hits the timeout"
expect_match "$(unk "$tmp/crash")" "signal 11" "a crash names the signal"
expect_match "$(unk "$tmp/halfjson")" "not a JSON object" "a half answer is not trusted"
expect_match "$(unk /nonexistent/python3)" "does not exist" "a missing interpreter is named"
expect_match "$(q "[p['version'] for p in d['facts']['python'] if p['path']=='$tmp/chatty'][0]")" "^3.12.0$" \
	"an interpreter that fills the stderr pipe still gets its answer read"
expect_match "$(q "[p['torch'].get('unknown','') for p in d['facts']['python'] if p['path']=='$tmp/sleepy'][0]")" \
	"did not answer" "torch of a hung interpreter is unknown with the reason"
# bounded, not fast (slack for a loaded 2-core CI box)
[ "$took" -lt 45 ] && pass "the run took ${took}s, bounded by the timeout" || fail "the run took ${took}s"
sleep 0.2
if pgrep -f "$tmp/sleepy" >/dev/null; then fail "the hung interpreter is still running"; else pass "no interpreter left behind"; fi

out=$("$NCCLCHECK" node --no-color --python "$tmp/garbage" --python-timeout 3)
expect_match "$out" "unknown \(the probe printed 'Hello" "the text report says why"

"$NCCLCHECK" node --python-timeout 0 >/dev/null 2>&1; expect_rc 2 $? "--python-timeout 0 is a usage error"
finish
