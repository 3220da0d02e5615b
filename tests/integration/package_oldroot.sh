#!/bin/bash
# The portable binary in an older userland: a minimal chroot of the oldest Debian the mirror
# serves (bullseye, glibc 2.31: before 2.34 moved libpthread and libdl into libc and changed the
# start-up ABI, before 2.33's stat and 2.32's affinity symbols), made by debootstrap and cached
# (packaging/chroot.sh; skipped when the archive is unreachable). There `node --no-python` and
# `explain` on a fixture log run and answer as the distribution build does on this host.
set -u
. "$SRCDIR/tests/integration/lib_package.sh"
need_root
portable_build
old_root bullseye

glibc=$(in_root /usr/bin/ldd --version 2>&1 | head -n 1 | grep -oE '[0-9]+\.[0-9]+$')
echo "chroot: Debian $(cat "$ROOT/etc/debian_version"), glibc $glibc"
bin=/tmp/ncclcheck-test-$$
cp "$PORTABLE_BIN" "$ROOT$bin"
# the log under the same relative name on both sides: the text wraps at the same columns
mkdir -p "$ROOT/tmp/logs-$$" && cp "$FIXTURES/logs/signatures.log" "$ROOT/tmp/logs-$$/"
trap 'rm -rf "$ROOT$bin" "$ROOT/tmp/logs-$$"' EXIT

expect_match "$(in_root "$bin" --version 2>&1)" "^$("$NCCLCHECK" --version)\$" "--version under glibc $glibc"
out=$(in_root "$bin" node --no-python 2>&1); rc=$?
[ $rc -le 1 ] && pass "node --no-python under glibc $glibc (exit $rc)" || fail "node --no-python: exit $rc: $out"
expect_match "$out" "probes took" "node printed its report"
json=$(in_root "$bin" node --no-python --json 2>/dev/null)
echo "$json" | jq -e '.facts.host and .findings' >/dev/null && pass "node --json is a report" ||
	fail "node --json: $(echo "$json" | head -c 300)"
want=$(cd "$FIXTURES/logs" && "$NCCLCHECK" explain --no-color signatures.log 2>&1); wrc=$?
got=$(in_root sh -c "cd /tmp/logs-$$ && $bin explain --no-color signatures.log" 2>&1); grc=$?
expect_rc "$wrc" "$grc" "explain exits as on the host"
[ "$got" = "$want" ] &&
	pass "explain gives the host's answer" || fail "explain differs: $(diff <(echo "$want") <(echo "$got") | head)"

# The start-up shim: constructors run exactly once under the old glibc (which runs only the init
# function it is given) and under this host's (which would otherwise run them itself too).
cat >"$ROOT/tmp/ctor-$$.c" <<'C'
#include <stdio.h>
static int runs;
__attribute__((constructor)) static void count(void) { runs++; }
int main(void) { printf("constructors ran %d time(s)\n", runs); return runs != 1; }
C
if gcc -O2 -o "$ROOT/tmp/ctor-$$" "$ROOT/tmp/ctor-$$.c" "$SRCDIR/packaging/portable/glibc217.c" \
	-Wl,--wrap=__libc_start_main -lm 2>"$ROOT/tmp/ctor-$$.err"; then
	out=$("$ROOT/tmp/ctor-$$"); rc=$?
	expect_rc 0 $rc "constructors once on the host's glibc ($out)"
	out=$(in_root "/tmp/ctor-$$"); rc=$?
	expect_rc 0 $rc "constructors once under glibc $glibc ($out)"
else
	fail "building the constructor probe: $(cat "$ROOT/tmp/ctor-$$.err")"
fi
rm -f "$ROOT/tmp/ctor-$$" "$ROOT/tmp/ctor-$$.c" "$ROOT/tmp/ctor-$$.err"
finish
