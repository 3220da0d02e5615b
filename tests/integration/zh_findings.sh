#!/bin/bash
# Findings in Chinese (#28): every finding's title, why, fix comment, evidence and check line
# that the rules write for the tests' facts documents, saved cluster reports and the NCCL_* lint's
# cases (an environment each: rules/envlint.c's formats pass through its own helper) reads Chinese
# with LANG=zh_CN.UTF-8: tests/integration/zh_lines.py finds no English prose in them. A format
# that po/update.sh does not extract (a helper that is no xgettext keyword) or a check line with
# English after its command fails here.
set -u
. "$SRCDIR/tests/integration/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
while IFS=$'\t' read -r out name lines; do
	n=$((n + 1))
	[ "$lines" -gt 0 ] || { fail "$name: nothing rendered"; continue; }
	bad=$(python3 "$SRCDIR/tests/integration/zh_lines.py" --no-width "$out" | grep ': English: ')
	[ -z "$bad" ] && pass "$name: its findings read Chinese" ||
		fail "English prose in the Chinese findings of $name:$(printf '\n%s' "$bad" | head -8)"
done < <(python3 "$SRCDIR/tests/integration/zh_findings.py" "$NCCLCHECK" "$FIXTURES" "$tmp")
[ "$n" -ge 50 ] && pass "$n documents rendered" || fail "only $n documents rendered"
finish
