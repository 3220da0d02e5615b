#!/bin/sh
# The whitespace rules every tracked C, shell and CMake file keeps: no trailing blanks, no
# carriage returns, no space before a tab in the indentation, a final newline. Prints each
# offending line as FILE:LINE and exits 1 when there is one. (There is no .clang-format: see
# the commit that removed it. Layout is kept by hand: tabs, Linux braces, ~100-110 columns.)
set -eu
cd "$(dirname "$0")/.."
files=$(git ls-files '*.c' '*.h' '*.sh' 'CMakeLists.txt' '*/CMakeLists.txt' '*.cmake')
bad=0
# shellcheck disable=SC2086
if grep -nE '[[:blank:]]+$' $files; then echo "style: trailing blanks (above)" >&2; bad=1; fi
# shellcheck disable=SC2086
if grep -nl "$(printf '\r')" $files; then echo "style: carriage returns in the files above" >&2; bad=1; fi
# shellcheck disable=SC2086
if grep -nE "^$(printf '\t')* +$(printf '\t')" $files; then echo "style: space before tab (above)" >&2; bad=1; fi
for f in $files; do
	if [ -s "$f" ] && [ -n "$(tail -c1 "$f")" ]; then echo "$f: no final newline" >&2; bad=1; fi
done
[ "$bad" = 0 ] && echo "style: ok ($(echo "$files" | wc -w) files)"
exit "$bad"
