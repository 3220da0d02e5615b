#!/usr/bin/env bash
# Issue #13: `explain` on logs copied from public issue threads (tests/fixtures/logs/public/,
# one manifest with the cause each thread established). The top-ranked finding must name the
# right cause and fix on at least THRESHOLD percent of them (the rate reached when this was
# last raised; the scorer is bench/explain_corpus.sh, which prints every miss).
. "$(dirname "$0")/lib.sh"
THRESHOLD=100
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is not installed (scripts/deps.sh)"; exit 77; }
out=$(NCCLCHECK="$NCCLCHECK" "$SRCDIR/bench/explain_corpus.sh" --ncclcheck "$NCCLCHECK" \
	--manifest "$FIXTURES/logs/public/manifest.tsv" --threshold "$THRESHOLD"); rc=$?
printf '%s\n' "$out" | grep -v '^HIT'
expect_rc 0 $rc "public corpus hit rate >= $THRESHOLD%"
expect_match "$out" "hit rate: [0-9]+/[0-9]+" "the scorer prints a hit rate"
finish
