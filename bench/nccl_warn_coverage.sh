#!/usr/bin/env bash
# How many of NCCL's own WARN messages `ncclcheck explain` knows: every WARN("...") format of
# NCCL's source (tests/fixtures/nccl/warn_formats.tsv, union over eight releases) is filled with
# plausible values, put after an NCCL version line of the last release that prints it, and
# explained alone. A message counts as known when the top finding is anything but explain's
# fallbacks (explain.nccl.warn_unknown, explain.log.no_cause, explain.log.unrecognised).
#
# This measures reach, not correctness: a log's cause is scored by bench/explain_corpus.sh.
# Many of NCCL's WARNs are internal invariants no user meets; the per-area table says where the
# gaps are.
#
#   bench/nccl_warn_coverage.sh [--ncclcheck BIN] [--formats FILE] [--area PREFIX] [--misses]
#                               [--min PCT]
# Exits 1 when the overall share is below --min (percent, default 0), 3 when it cannot run.
set -u
cov_formats=$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/nccl/warn_formats.tsv
. "$(dirname "$0")/coverage_lib.sh"
cov_options "$@"

# A format's conversions filled with values a real line would carry: numbers, a hex pointer, an
# HCA name for strings (most string arguments name a device, a call or an error text).
fill() {
	sed -E 's/%%/\x01/g; s/%[-+ #0]*[0-9]*(\.[0-9]+)?(hh|h|ll|l|z|j|t)?[diu]/3/g;
		s/%[-+ #0]*[0-9]*(hh|h|ll|l|z|j|t)?[xX]/1f/g; s/%p/0x7f3a2c000000/g;
		s/%[-+ #0]*[0-9]*(\.[0-9*]+)?s/mlx5_0/g; s/%[-+ #0]*[0-9]*(\.[0-9]+)?(l)?[fge]/1.5/g;
		s/%c/x/g; s/\x01/%/g; s/\\n//g; s/\\t/ /g; s/\\"/"/g'
}

while IFS=$'\t' read -r file _ last fmt; do
	case $file in '#'*|'') continue ;; esac
	cov_wanted "$file" || continue
	line=$(printf '%s' "$fmt" | fill)
	a=${file#src/}
	case $a in */*) a=${a%%/*} ;; *) a=core ;; esac
	case $file in src/transport/net_ib*) a=net_ib ;; src/transport/*) a=transport ;; esac
	cov_case "$a" "$file  $line" "node1:4711:4790 [0] NCCL INFO NCCL version $last+cuda12.4
node1:4711:4790 [0] NCCL WARN $line"
done <"$cov_formats"
cov_report "NCCL WARN messages explain knows, per source area" "NCCL WARN formats"
