#!/bin/bash
# The wheel: py3-none-manylinux_2_17_<arch>, <= 3 MB, with its metadata; installed with
# --no-index into a fresh venv it puts ncclcheck on the venv's PATH (the portable binary itself),
# `ncclcheck node --json` and `python -m ncclcheck` work from there.
set -u
. "$SRCDIR/tests/integration/lib_package.sh"
/usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null ||
	{ echo "SKIP: /usr/bin/python3 has no venv/ensurepip (python3-venv)"; exit 77; }
portable_artefacts

name=$(basename "$WHEEL")
expect_match "$name" "^ncclcheck-$("$NCCLCHECK" --version | awk '{print $2}')-py3-none-manylinux_2_17_(x86_64|aarch64)\\.whl\$" \
	"wheel name carries the version and the manylinux_2_17 tag ($name)"
size=$(wc -c <"$WHEEL")
[ "$size" -le $((3 * 1024 * 1024)) ] && pass "wheel $size bytes <= 3 MB" || fail "wheel $size bytes > 3 MB"
meta=$(unzip -p "$WHEEL" '*.dist-info/METADATA')
for f in '^Name: ncclcheck$' '^License: .+' '^Requires-Python: >=3\.[0-9]+$' '^Summary: .+'; do
	expect_match "$meta" "$f" "METADATA has ${f%%:*}"
done
expect_match "$(unzip -p "$WHEEL" '*.dist-info/WHEEL')" 'Tag: py3-none-manylinux_2_17_' "WHEEL tag"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 -m venv "$tmp/venv" || { fail "python3 -m venv"; finish; }
out=$("$tmp/venv/bin/pip" install --no-index --disable-pip-version-check -q "$WHEEL" 2>&1); rc=$?
expect_rc 0 $rc "pip install --no-index of the wheel into a fresh venv $out"
found=$(PATH=$tmp/venv/bin:/usr/bin:/bin command -v ncclcheck)
expect_match "$found" "^$tmp/venv/bin/ncclcheck\$" "ncclcheck is on the venv's PATH"
cmp -s "$found" "$PORTABLE_BIN" && pass "it is the portable binary" || fail "$found is not $PORTABLE_BIN"
(
	export PATH=$tmp/venv/bin:/usr/bin:/bin
	out=$(ncclcheck node --json --no-python 2>&1); rc=$?
	[ $rc -le 1 ] && pass "ncclcheck node --json from the venv (exit $rc)" || fail "node --json: exit $rc: $out"
	echo "$out" | jq -e '.facts and .findings' >/dev/null && pass "node --json is a report" ||
		fail "node --json: not a report: $(echo "$out" | head -c 300)"
	expect_match "$(python -m ncclcheck --version)" "^$("$NCCLCHECK" --version)\$" "python -m ncclcheck --version"
	python -m ncclcheck node --no-python >/dev/null; rc=$?
	[ $rc -le 1 ] && pass "python -m ncclcheck node (exit $rc)" || fail "python -m ncclcheck node: exit $rc"
	exit $failures
) || failures=$((failures + $?))
"$tmp/venv/bin/pip" uninstall -y -q ncclcheck >/dev/null 2>&1
[ ! -e "$tmp/venv/bin/ncclcheck" ] && pass "pip uninstall removes the binary" || fail "binary left after uninstall"
finish
