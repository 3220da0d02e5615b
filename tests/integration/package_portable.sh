#!/bin/bash
# The portable binary (-DNCCLCHECK_PORTABLE=ON): every glibc symbol version <= 2.17, only glibc's
# own shared libraries, <= 5 MB, and it says what the distribution build says: the same version,
# the same node facts (hwloc linked statically finds the same machine), the same explain answer.
# check.sh fails on the distribution build (GLIBC_2.34, libjansson): the check can fail.
set -u
. "$SRCDIR/tests/integration/lib_package.sh"
portable_build

out=$(sh "$SRCDIR/packaging/portable/check.sh" "$PORTABLE_BIN" 2>&1); rc=$?
expect_rc 0 $rc "check.sh accepts the portable binary: $out"
max=$(objdump -T "$PORTABLE_BIN" | grep -oE 'GLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?' | sort -V | tail -n 1)
expect_match "$max" '^GLIBC_2\.(1[0-7]|[0-9])(\.[0-9]+)?$' "highest glibc symbol version $max <= 2.17"
libs=$(ldd "$PORTABLE_BIN" | awk '{ print $1 }' | grep -v '^linux-vdso' | sed 's|.*/||' | sort | tr '\n' ' ')
expect_match "$libs" '^(ld-linux-x86-64\.so\.2 |ld-linux-aarch64\.so\.1 )?libc\.so\.6 libdl\.so\.2 libm\.so\.6 libpthread\.so\.0 $' \
	"ldd: glibc's libraries only ($libs)"
size=$(wc -c <"$PORTABLE_BIN")
[ "$size" -le $((5 * 1024 * 1024)) ] && pass "size $size bytes <= 5 MB" || fail "size $size bytes > 5 MB"
out=$(sh "$SRCDIR/packaging/portable/check.sh" "$NCCLCHECK" 2>&1); rc=$?
expect_rc 1 $rc "check.sh refuses the distribution build"
expect_match "$out" 'GLIBC_2\.3[0-9]' "and names the newer symbol versions"

expect_match "$("$PORTABLE_BIN" --version)" "^$("$NCCLCHECK" --version)\$" "the same --version"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# timings and the moment of collection differ between two runs; every fact must not
facts() { jq -S 'del(.. | .collected_at?, .probe_ms?, .timings_ms?)' "$1"; }
"$PORTABLE_BIN" node --no-python --json >"$tmp/p.json"; prc=$?
"$NCCLCHECK" node --no-python --json >"$tmp/d.json"; drc=$?
expect_rc "$drc" "$prc" "node --no-python exits as the distribution build does"
if diff <(facts "$tmp/p.json") <(facts "$tmp/d.json") >"$tmp/diff"; then
	pass "node --json: the same facts and findings"
else
	fail "node --json differs from the distribution build: $(head -n 20 "$tmp/diff")"
fi
log=$FIXTURES/logs/signatures.log
expect_match "$(diff <("$PORTABLE_BIN" explain --no-color "$log" 2>&1) <("$NCCLCHECK" explain --no-color "$log" 2>&1) && echo same)" \
	'^same$' "explain: the same answer on $(basename "$log")"
finish
