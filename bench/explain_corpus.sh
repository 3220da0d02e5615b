#!/usr/bin/env bash
# Scores `ncclcheck explain` on the public-log corpus of issue #13
# (tests/fixtures/logs/public/manifest.tsv: file, source URL, class, cause, expected id regex,
# expected fix literal). For every row: the top-ranked finding (the first error-level one, else
# the first) is a hit when its id matches the regex AND the literal appears in its title or one
# of its fix lines. Prints one line per row, the hit rate per class and overall; exits 1 when the
# overall rate is below --threshold (percent, default 0), 3 when it cannot run.
#
#   bench/explain_corpus.sh [--ncclcheck BIN] [--manifest FILE] [--threshold PCT] [--misses]
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${NCCLCHECK:-$here/build/release/ncclcheck}
[ -x "$bin" ] || bin=$here/build/debug/ncclcheck
manifest=$here/tests/fixtures/logs/public/manifest.tsv
threshold=0
only_misses=0
while [ $# -gt 0 ]; do
	case $1 in
	--ncclcheck) bin=$2; shift 2 ;;
	--manifest) manifest=$2; shift 2 ;;
	--threshold) threshold=$2; shift 2 ;;
	--misses) only_misses=1; shift ;;
	*) echo "usage: $0 [--ncclcheck BIN] [--manifest FILE] [--threshold PCT] [--misses]" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null 2>&1 || { echo "cannot run: jq is not installed (scripts/deps.sh)" >&2; exit 3; }
[ -x "$bin" ] || { echo "cannot run: no ncclcheck binary at $bin" >&2; exit 3; }
[ -r "$manifest" ] || { echo "cannot run: no manifest at $manifest" >&2; exit 3; }
dir=$(dirname "$manifest")

total=0 hits=0
declare -A ctot chit
while IFS=$'\t' read -r file url class cause idre fixlit; do
	[ "$file" = file ] && continue
	[ -n "$file" ] || continue
	total=$((total + 1))
	ctot[$class]=$(( ${ctot[$class]:-0} + 1 ))
	if [ ! -r "$dir/$file" ]; then
		echo "MISS  $file  [$class]  (file missing)"
		continue
	fi
	# bounded: a log of a few lines must never take long
	json=$(timeout 20 "$bin" explain --json --no-color "$dir/$file" 2>/dev/null)
	top=$(printf '%s' "$json" | jq -c '(.findings // []) as $f
		| ([$f[] | select(.severity == "error")] + $f) | .[0] // {}
		| {id: (.id // ""), title: (.title // ""), fix: (.fix // [])}' 2>/dev/null)
	[ -n "$top" ] || top='{"id":"","title":"","fix":[]}'
	id=$(printf '%s' "$top" | jq -r .id)
	ok=0
	if printf '%s' "$id" | grep -Eqx -- "$idre"; then
		if printf '%s' "$top" | jq -e --arg s "$fixlit" \
			'(.title | contains($s)) or any(.fix[]; contains($s))' >/dev/null; then
			ok=1
		fi
	fi
	if [ $ok = 1 ]; then
		hits=$((hits + 1))
		chit[$class]=$(( ${chit[$class]:-0} + 1 ))
		[ $only_misses = 1 ] || echo "HIT   $file  [$class]  $id"
	else
		echo "MISS  $file  [$class]  top=${id:-none}  want /$idre/ + '$fixlit'"
	fi
done < "$manifest"

[ $total -gt 0 ] || { echo "cannot run: empty manifest" >&2; exit 3; }
echo "per class:"
for c in $(printf '%s\n' "${!ctot[@]}" | sort); do
	printf '  %-12s %d/%d (%d%%)\n' "$c" "${chit[$c]:-0}" "${ctot[$c]}" $(( ${chit[$c]:-0} * 100 / ${ctot[$c]} ))
done
pct=$(( hits * 100 / total ))
echo "hit rate: $hits/$total ($pct%)"
[ "$pct" -ge "$threshold" ] || { echo "below the threshold of $threshold%" >&2; exit 1; }
exit 0
