#!/usr/bin/env bash
# Issue #29: the scorer runs over the development half of the fresh corpus
# (tests/fixtures/logs/fresh/, logs never seen while the signatures were written) and prints
# parseable per-class rates and a confidence calibration table. No hit-rate threshold here: the
# targets live in bench/. The held-out half is neither scored nor shown by this test.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is not installed (scripts/deps.sh)"; exit 77; }
manifest=$FIXTURES/logs/fresh/manifest.tsv
out=$("$SRCDIR/bench/explain_corpus.sh" --ncclcheck "$NCCLCHECK" --manifest "$manifest" \
	--split dev); rc=$?
printf '%s\n' "$out" | grep -v '^HIT'
expect_rc 0 $rc "the scorer completes on the dev split"
rows=$(awk -F'\t' 'NR > 1 && !/^#/ && $8 == "dev"' "$manifest" | wc -l)
expect_match "$out" "^dev split: [0-9]+/$rows \\([0-9]+%\\)" "one dev line over all $rows dev rows"
scored=$(printf '%s\n' "$out" | grep -cE '^(HIT|MISS) ')
expect_rc "$rows" "$scored" "every dev row printed once as HIT or MISS"
expect_match "$out" "confidence calibration" "a calibration table"
expect_match "$out" "hit rate: [0-9]+/$rows " "an overall rate over the dev rows"
expect_no_match "$out" "heldout" "nothing of the held-out half is printed"
# the manifest itself: every fresh row is split, has a source URL and an expected id and literal
bad=$(awk -F'\t' 'NR > 1 && !/^#/ && ($8 !~ /^(dev|heldout|dev2|heldout2|dev3|heldout3|dev4|heldout4|dev5|heldout5|dev6|heldout6|dev7|heldout7|dev8|heldout8)$/ || $2 !~ /^https?:\/\// || $5 == "" ||
	$6 == "" || $7 !~ /^(existing|proposed)$/)' "$manifest")
expect_rc "" "$bad" "every row has a split, a URL, an expected id, a fix literal and an id status"
# the split is the seeded one recorded in the manifest (split.py --check recomputes it)
if command -v python3 >/dev/null 2>&1; then
	python3 "$FIXTURES/logs/fresh/split.py" --check "$manifest" >/dev/null; rc=$?
	expect_rc 0 $rc "the dev/heldout split (seed 29), the dev3/heldout3 (2912), dev4/heldout4 (2913), dev5/heldout5 (2914), dev6/heldout6 (2915), dev7/heldout7 (2916) and dev8/heldout8 (2917) splits match the recorded seeds"
fi
finish
