#!/usr/bin/env bash
# Issue #29: confidence levels mean something. On the development half of the fresh corpus (logs
# never seen while the signatures were written) the top findings of low confidence must miss
# more often than those of medium and of high confidence: a low top finding says what to run to
# decide, a high one names the cause. Rates come from bench/explain_corpus.sh's calibration table.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is not installed (scripts/deps.sh)"; exit 77; }
out=$("$SRCDIR/bench/explain_corpus.sh" --ncclcheck "$NCCLCHECK" \
	--manifest "$FIXTURES/logs/fresh/manifest.tsv" --split dev); rc=$?
expect_rc 0 $rc "the scorer completes on the dev split"
printf '%s\n' "$out" | sed -n '/^confidence calibration/,$p'
# "  dev      high     28 rows  85%" -> the rate of each confidence
rate() { printf '%s\n' "$out" | awk -v c="$1" '$1 == "dev" && $2 == c { sub("%", "", $5); print $5 }'; }
rows() { printf '%s\n' "$out" | awk -v c="$1" '$1 == "dev" && $2 == c { print $3 }'; }
low=$(rate low) medium=$(rate medium) high=$(rate high)
expect_match "$(rows low)" "^[1-9]" "some dev rows end with a low-confidence top finding"
expect_match "$(rows high)" "^[1-9]" "some dev rows end with a high-confidence top finding"
[ -n "$low" ] && [ -n "$high" ] && [ "$low" -lt "$high" ]; expect_rc 0 $? "low ($low%) hits less often than high ($high%)"
[ -z "$medium" ] || { [ "$low" -lt "$medium" ]; expect_rc 0 $? "low ($low%) hits less often than medium ($medium%)"; }
finish
