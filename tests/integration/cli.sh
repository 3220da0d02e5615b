#!/bin/bash
# The command line contract: help, version, unknown verbs and flags, exit codes, JSON, NO_COLOR.
set -u
. "$SRCDIR/tests/integration/lib.sh"

out=$("$NCCLCHECK" --help); rc=$?
expect_rc 0 $rc "--help"
expect_match "$out" "Verbs:" "--help lists verbs"
expect_match "$out" "node" "--help lists node"

out=$("$NCCLCHECK" --version); expect_rc 0 $? "--version"
expect_match "$out" "^ncclcheck [0-9]+\.[0-9]+\.[0-9]+" "--version format"

"$NCCLCHECK" >/dev/null 2>&1; expect_rc 2 $? "no verb"

err=$("$NCCLCHECK" nod 2>&1 >/dev/null); expect_rc 2 $? "unknown verb"
expect_match "$err" "did you mean 'node'" "verb suggestion"

err=$("$NCCLCHECK" node --jsn 2>&1 >/dev/null); expect_rc 2 $? "unknown flag"
expect_match "$err" "did you mean '--json'" "flag suggestion"

err=$("$NCCLCHECK" node --facts 2>&1 >/dev/null); expect_rc 2 $? "missing value"
expect_match "$err" "needs a value" "missing value message"

err=$("$NCCLCHECK" node --python-timeout banana 2>&1 >/dev/null); expect_rc 2 $? "bad duration"

out=$("$NCCLCHECK" node --help); expect_rc 0 $? "node --help"
expect_match "$out" "--facts FILE" "node --help documents --facts"
out=$("$NCCLCHECK" help node); expect_rc 0 $? "help node"

# JSON is valid and versioned; facts saved from it re-run to the same verdicts.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$NCCLCHECK" node --json --no-python > "$tmp/a.json"; rc=$?
[ $rc -le 1 ] || fail "node --json exit $rc"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema_version"]>=1 and "facts" in d and "findings" in d' "$tmp/a.json" \
	|| fail "node --json is not the documented document"
"$NCCLCHECK" node --json --facts "$tmp/a.json" > "$tmp/b.json"; expect_rc $rc $? "--facts same exit code"
python3 - "$tmp/a.json" "$tmp/b.json" <<'PY' || fail "--facts gives different findings"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert [f["id"] for f in a["findings"]] == [f["id"] for f in b["findings"]], (a["findings"], b["findings"])
PY

echo 'not json' > "$tmp/bad.json"
err=$("$NCCLCHECK" node --facts "$tmp/bad.json" 2>&1 >/dev/null); expect_rc 2 $? "garbage facts"
expect_match "$err" "not JSON" "garbage facts message"
err=$("$NCCLCHECK" node --facts "$tmp/missing.json" 2>&1 >/dev/null); expect_rc 2 $? "missing facts"

# Colour never when piped, never with NO_COLOR, even if forced onto a pty-less pipe.
out=$(NO_COLOR=1 "$NCCLCHECK" node --no-python 2>&1)
case "$out" in *$'\033'*) fail "colour with NO_COLOR";; esac

# On a terminal colour is on, unless NO_COLOR, --no-color or TERM=dumb says no: run it on a pty
# (a pipe alone never shows colour, so it could not tell a broken NO_COLOR from a working one).
# on_pty VAR=VALUE... -- CMD...: CMD's output on a fresh pseudo-terminal; exits with CMD's code.
on_pty() {
	python3 - "$@" <<'PY'
import os, pty, select, sys
args = sys.argv[1:]
sep = args.index("--")
env = dict(os.environ, TERM="xterm")
env.pop("NO_COLOR", None)
for kv in args[:sep]:
    k, v = kv.split("=", 1)
    env[k] = v
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(args[sep + 1], args[sep + 1:], env)
out = b""
while True:
    r, _, _ = select.select([fd], [], [], 60)
    if not r:
        os.kill(pid, 9)
        break
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128)
PY
}
if command -v python3 >/dev/null; then
	out=$(on_pty -- "$NCCLCHECK" node --no-python)
	case "$out" in *$'\033['*) pass "colour on a terminal";; *) fail "no colour on a terminal";; esac
	out=$(on_pty NO_COLOR=1 -- "$NCCLCHECK" node --no-python)
	case "$out" in *$'\033'*) fail "colour on a terminal with NO_COLOR=1";; *) pass "NO_COLOR=1 on a terminal: no colour";; esac
	out=$(on_pty -- "$NCCLCHECK" node --no-python --no-color)
	case "$out" in *$'\033'*) fail "colour on a terminal with --no-color";; *) pass "--no-color on a terminal: no colour";; esac
	out=$(on_pty TERM=dumb -- "$NCCLCHECK" node --no-python)
	case "$out" in *$'\033'*) fail "colour on a dumb terminal";; *) pass "TERM=dumb: no colour";; esac
	out=$(on_pty NO_COLOR= -- "$NCCLCHECK" node --no-python)
	case "$out" in *$'\033['*) pass "an empty NO_COLOR does not count";; *) fail "empty NO_COLOR turned colour off";; esac
fi

# A closed stdout is reported, not silently truncated.
"$NCCLCHECK" --help > /dev/full 2>/dev/null; expect_rc 3 $? "write error to /dev/full"

finish
