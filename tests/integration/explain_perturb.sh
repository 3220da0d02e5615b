#!/usr/bin/env bash
# Issue #29: a diagnosis must not depend on how the log was pasted. bench/explain_perturb.sh
# rewrites a few development hits (the first rows of each split) by every perturbation a paste goes
# through and scores them again; each floor is the share measured when the reader learnt to undo
# it. Hard wrap at 80 columns cannot be undone in general (a cut anchor is gone): its floor is what
# survives by luck. The floor itself must be able to fail.
# ctest: timeout 600
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is not installed (scripts/deps.sh)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
floors='*=100,wrap80=71'
out=$("$SRCDIR/bench/explain_perturb.sh" --ncclcheck "$NCCLCHECK" --rows 3 --floor "$floors" 2>&1); rc=$?
printf '%s\n' "$out"
expect_rc 0 $rc "every perturbation keeps its floor ($floors)"
for p in quote fence crlf ansi html wrap80 iso_ts journald ray k8s jsonl repr tabs bom curly; do
	expect_match "$out" "^$p +[0-9-]+ +[0-9]+ +[0-9]+" "a row for $p"
done
expect_match "$out" "^baseline: [0-9]+ development rows" "a baseline over the dev rows"
expect_no_match "$out" "heldout" "nothing of the held-out half is read"
out=$("$SRCDIR/bench/explain_perturb.sh" --ncclcheck "$NCCLCHECK" --rows 1 --only wrap80 --floor 'wrap80=101' 2>&1); rc=$?
expect_rc 1 $rc "a floor no run can reach fails"
finish
