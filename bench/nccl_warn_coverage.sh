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
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${NCCLCHECK:-$here/build/release/ncclcheck}
[ -x "$bin" ] || bin=$here/build/debug/ncclcheck
formats=$here/tests/fixtures/nccl/warn_formats.tsv
area=
misses=0
min=0
usage="usage: $0 [--ncclcheck BIN] [--formats FILE] [--area PREFIX] [--misses] [--min PCT]"
while [ $# -gt 0 ]; do
	case $1 in
	--ncclcheck) bin=$2; shift 2 ;;
	--formats) formats=$2; shift 2 ;;
	--area) area=$2; shift 2 ;;
	--misses) misses=1; shift ;;
	--min) min=$2; shift 2 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null 2>&1 || { echo "cannot run: jq is not installed (scripts/deps.sh)" >&2; exit 3; }
[ -x "$bin" ] || { echo "cannot run: no ncclcheck binary at $bin" >&2; exit 3; }
[ -r "$formats" ] || { echo "cannot run: no format list at $formats" >&2; exit 3; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A format's conversions filled with values a real line would carry: numbers, a hex pointer, an
# HCA name for strings (most string arguments name a device, a call or an error text).
fill() {
	sed -E 's/%%/\x01/g; s/%[-+ #0]*[0-9]*(\.[0-9]+)?(hh|h|ll|l|z|j|t)?[diu]/3/g;
		s/%[-+ #0]*[0-9]*(hh|h|ll|l|z|j|t)?[xX]/1f/g; s/%p/0x7f3a2c000000/g;
		s/%[-+ #0]*[0-9]*(\.[0-9*]+)?s/mlx5_0/g; s/%[-+ #0]*[0-9]*(\.[0-9]+)?(l)?[fge]/1.5/g;
		s/%c/x/g; s/\x01/%/g; s/\\n//g; s/\\t/ /g; s/\\"/"/g'
}

declare -A atot ahit
total=0 known=0
n=0
while IFS=$'\t' read -r file first last fmt; do
	case $file in '#'*|'') continue ;; esac
	[ -z "$area" ] || case $file in "$area"*) ;; *) continue ;; esac
	n=$((n + 1))
	line=$(printf '%s' "$fmt" | fill)
	printf 'node1:4711:4790 [0] NCCL INFO NCCL version %s+cuda12.4\nnode1:4711:4790 [0] NCCL WARN %s\n' \
		"$last" "$line" >"$tmp/$n.log"
	printf '%s\t%s\n' "$file" "$line" >"$tmp/$n.meta"
done <"$formats"

a=${file%/*}
for i in $(seq 1 "$n"); do
	IFS=$'\t' read -r file line <"$tmp/$i.meta"
	top=$(timeout 10 "$bin" explain --json --no-color "$tmp/$i.log" 2>/dev/null |
		jq -r '[.findings[]? | select(.severity == "error")][0].id // (.findings[0].id // "none")' 2>/dev/null)
	a=${file#src/}
	case $a in */*) a=${a%%/*} ;; *) a=core ;; esac
	case $file in src/transport/net_ib*) a=net_ib ;; src/transport/*) a=transport ;; esac
	total=$((total + 1))
	atot[$a]=$(( ${atot[$a]:-0} + 1 ))
	case $top in
	explain.nccl.warn_unknown|explain.log.no_cause|explain.log.unrecognised|none|'')
		[ $misses = 0 ] || printf 'UNKNOWN  %-34s %s\n' "$file" "$line" ;;
	*)
		known=$((known + 1))
		ahit[$a]=$(( ${ahit[$a]:-0} + 1 )) ;;
	esac
done

[ "$total" -gt 0 ] || { echo "cannot run: no formats matched" >&2; exit 3; }
echo "NCCL WARN messages explain knows, per source area (bin: $bin)"
for a in $(printf '%s\n' "${!atot[@]}" | sort); do
	printf '  %-12s %4d of %4d  %3d%%\n' "$a" "${ahit[$a]:-0}" "${atot[$a]}" $(( ${ahit[$a]:-0} * 100 / ${atot[$a]} ))
done
pct=$((known * 100 / total))
printf 'overall: %d of %d NCCL WARN formats known (%d%%)\n' "$known" "$total" "$pct"
[ "$pct" -ge "$min" ] || exit 1
exit 0
