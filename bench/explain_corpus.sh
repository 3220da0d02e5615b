#!/usr/bin/env bash
# Scores `ncclcheck explain` on corpora of public logs whose cause the thread established.
#   tests/fixtures/logs/public/manifest.tsv  issue #13: the corpus the signatures were written on
#   tests/fixtures/logs/fresh/manifest.tsv   issue #29: logs never seen while building, split at
#                                             random into a development and a held-out half
# Columns: file, source URL, class, cause, expected id regex, expected fix literal, and (fresh
# only) id status (existing|proposed) and split (dev|heldout, and dev2|heldout2 for rows collected
# in a later round, split by hand before any code was written for them; dev3|heldout3 for the third
# round, rows 128 on, drawn with seed 2912 by split.py; dev4|heldout4 for the fourth round, rows
# 162-178, drawn with seed 2913; dev5|heldout5 for the fifth round, rows 179-186, drawn with seed
# 2914; dev6|heldout6 for the sixth round, rows 187-202, seed 2915; dev7|heldout7 for the
# seventh, rows 203-208, seed 2916; dev8|heldout8 for the eighth, rows 209 on, seed 2917).
# For every row the top-ranked
# finding (the first error-level one, else the first) is a hit when its id matches the regex AND
# the literal appears in its title or one of its fix lines.
#
# Prints the rows of the public and dev splits (HIT/MISS), hit rates per split and class, the
# overall rate, and a confidence calibration table (per confidence of the top finding: rows and
# hit rate). Lines starting with '#' are skipped (the fresh manifest records its split seed
# there). Held-out rows (heldout, heldout2, heldout3, heldout4, heldout5, heldout6, heldout7, heldout8) are scored but never shown one by one unless
# --show-heldout-misses is given: whoever tunes the explainer must not see what the held-out half expects.
# Exits 1 when the overall rate is below --threshold (percent, default 0), 3 when it cannot run.
#
#   bench/explain_corpus.sh [--ncclcheck BIN] [--manifest FILE]... [--split public|dev|heldout|dev2|heldout2|dev3|heldout3|dev4|heldout4|dev5|heldout5|dev6|heldout6|dev7|heldout7|dev8|heldout8]
#                           [--threshold PCT] [--misses] [--show-heldout-misses]
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${NCCLCHECK:-$here/build/release/ncclcheck}
[ -x "$bin" ] || bin=$here/build/debug/ncclcheck
manifests=()
only_split=
threshold=0
only_misses=0
show_heldout=0
usage="usage: $0 [--ncclcheck BIN] [--manifest FILE]... [--split public|dev|heldout|dev2|heldout2|dev3|heldout3|dev4|heldout4|dev5|heldout5|dev6|heldout6|dev7|heldout7|dev8|heldout8] [--threshold PCT] [--misses] [--show-heldout-misses]"
while [ $# -gt 0 ]; do
	case $1 in
	--ncclcheck) bin=$2; shift 2 ;;
	--manifest) manifests+=("$2"); shift 2 ;;
	--split) only_split=$2; shift 2 ;;
	--threshold) threshold=$2; shift 2 ;;
	--misses) only_misses=1; shift ;;
	--show-heldout-misses) show_heldout=1; shift ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
case $only_split in ''|public|dev|heldout|dev2|heldout2|dev3|heldout3|dev4|heldout4|dev5|heldout5|dev6|heldout6|dev7|heldout7|dev8|heldout8) ;; *) echo "$usage" >&2; exit 2 ;; esac
[ ${#manifests[@]} -gt 0 ] || manifests=("$here/tests/fixtures/logs/public/manifest.tsv"
	"$here/tests/fixtures/logs/fresh/manifest.tsv")
command -v jq >/dev/null 2>&1 || { echo "cannot run: jq is not installed (scripts/deps.sh)" >&2; exit 3; }
[ -x "$bin" ] || { echo "cannot run: no ncclcheck binary at $bin" >&2; exit 3; }
for m in "${manifests[@]}"; do
	[ -r "$m" ] || { echo "cannot run: no manifest at $m" >&2; exit 3; }
done

total=0 hits=0
declare -A stot shit ctot chit ktot khit
splits=()
for manifest in "${manifests[@]}"; do
	dir=$(dirname "$manifest")
	while IFS=$'\t' read -r file url class cause idre fixlit status split _; do
		[ "$file" = file ] && continue
		case $file in '#'*) continue ;; esac
		[ -n "$file" ] || continue
		# a manifest without a split column is the corpus the signatures were tuned on
		split=${split:-public}
		case $split in public|dev|heldout|dev2|heldout2|dev3|heldout3|dev4|heldout4|dev5|heldout5|dev6|heldout6|dev7|heldout7|dev8|heldout8) ;; *) echo "cannot run: row $file has split '$split'" >&2; exit 3 ;; esac
		[ -z "$only_split" ] || [ "$split" = "$only_split" ] || continue
		show=1
		case $split in heldout*) [ $show_heldout = 1 ] || show=0 ;; esac
		total=$((total + 1))
		[ -n "${stot[$split]+x}" ] || splits+=("$split")
		stot[$split]=$(( ${stot[$split]:-0} + 1 ))
		ctot[$split/$class]=$(( ${ctot[$split/$class]:-0} + 1 ))
		if [ ! -r "$dir/$file" ]; then
			[ $show = 0 ] || echo "MISS  $file  [$split/$class]  (file missing)"
			ktot[$split/none]=$(( ${ktot[$split/none]:-0} + 1 ))
			continue
		fi
		# bounded: a log of a few lines must never take long
		json=$(timeout 20 "$bin" explain --json --no-color "$dir/$file" 2>/dev/null)
		top=$(printf '%s' "$json" | jq -r --arg s "$fixlit" '(.findings // []) as $f
			| ([$f[] | select(.severity == "error")] + $f) | .[0] // {}
			| [(.confidence // "none"),
			   (if ((.title // "") | contains($s)) or any((.fix // [])[]; contains($s))
			    then "1" else "0" end), (.id // "")] | @tsv' 2>/dev/null)
		# the id goes last: read collapses empty fields between tabs, and only the id can be empty
		[ -n "$top" ] || top=$'none\t0\t'
		IFS=$'\t' read -r conf litok id <<<"$top"
		ok=0
		if [ "$litok" = 1 ] && printf '%s' "$id" | grep -Eqx -- "$idre"; then ok=1; fi
		ktot[$split/$conf]=$(( ${ktot[$split/$conf]:-0} + 1 ))
		if [ $ok = 1 ]; then
			hits=$((hits + 1))
			shit[$split]=$(( ${shit[$split]:-0} + 1 ))
			chit[$split/$class]=$(( ${chit[$split/$class]:-0} + 1 ))
			khit[$split/$conf]=$(( ${khit[$split/$conf]:-0} + 1 ))
			[ $only_misses = 1 ] || [ $show = 0 ] || echo "HIT   $file  [$split/$class]  $id"
		elif [ $show = 1 ]; then
			echo "MISS  $file  [$split/$class]  top=${id:-none}  want /$idre/ + '$fixlit'"
		fi
	done < "$manifest"
done

[ $total -gt 0 ] || { echo "cannot run: no rows to score" >&2; exit 3; }
pct() { echo $(( $1 * 100 / $2 )); }
for s in "${splits[@]}"; do
	echo "$s split: ${shit[$s]:-0}/${stot[$s]} ($(pct "${shit[$s]:-0}" "${stot[$s]}")%)"
	for key in $(printf '%s\n' "${!ctot[@]}" | grep "^$s/" | sort); do
		printf '  %-14s %d/%d (%d%%)\n' "${key#*/}" "${chit[$key]:-0}" "${ctot[$key]}" \
			"$(pct "${chit[$key]:-0}" "${ctot[$key]}")"
	done
done
echo "confidence calibration (per split, the top finding's confidence: rows, hit rate):"
for s in "${splits[@]}"; do
	for c in high medium low none; do
		k=$s/$c
		[ -n "${ktot[$k]+x}" ] || continue
		printf '  %-8s %-7s %3d rows  %d%%\n' "$s" "$c" "${ktot[$k]}" \
			"$(pct "${khit[$k]:-0}" "${ktot[$k]}")"
	done
done
p=$(pct $hits $total)
echo "hit rate: $hits/$total ($p%)"
[ "$p" -ge "$threshold" ] || { echo "below the threshold of $threshold%" >&2; exit 1; }
exit 0
