# Sourced by bench/*_coverage.sh: the options, the scoring and the report they share. A script
# sets cov_formats (its fixture) and cov_usage, calls cov_options "$@", writes one log per message
# with cov_case, and ends with cov_report. A message is known when explain's top finding for its
# log alone (the first error, else the first finding) is anything but explain's fallbacks.
#
# Options: --ncclcheck BIN, --formats FILE, --area PREFIX (the start of the fixture's path
# column), --misses (list the unknown ones), --min PCT (exit 1 below it). Exits 3 when it cannot
# run, 2 on a bad option.

cov_options() {
	here=$(cd "$(dirname "$0")/.." && pwd)
	bin=${NCCLCHECK:-$here/build/release/ncclcheck}
	[ -x "$bin" ] || bin=$here/build/debug/ncclcheck
	area= misses=0 min=0 cov_n=0
	local usage="usage: $0 [--ncclcheck BIN] [--formats FILE] [--area PREFIX] [--misses] [--min PCT]"
	while [ $# -gt 0 ]; do
		case $1 in
		--ncclcheck) bin=$2; shift 2 ;;
		--formats) cov_formats=$2; shift 2 ;;
		--area) area=$2; shift 2 ;;
		--misses) misses=1; shift ;;
		--min) min=$2; shift 2 ;;
		*) echo "$usage" >&2; exit 2 ;;
		esac
	done
	command -v jq >/dev/null 2>&1 || { echo "cannot run: jq is not installed (scripts/deps.sh)" >&2; exit 3; }
	[ -x "$bin" ] || { echo "cannot run: no ncclcheck binary at $bin" >&2; exit 3; }
	[ -r "$cov_formats" ] || { echo "cannot run: no message list at $cov_formats" >&2; exit 3; }
	cov_tmp=$(mktemp -d)
	trap 'rm -rf "$cov_tmp"' EXIT
}

# Whether the fixture row with path FILE is in the --area asked for.
cov_wanted() { [ -z "$area" ] || case $1 in "$area"*) return 0 ;; *) return 1 ;; esac; }

# cov_case AREA SHOWN LOG: LOG is one message as printed, counted under AREA; SHOWN is the line
# --misses prints for it. (An argument, not stdin: a pipe would count in a subshell.)
cov_case() {
	cov_n=$((cov_n + 1))
	printf '%s\n' "$3" >"$cov_tmp/$cov_n.log"
	printf '%s\t%s\n' "$1" "$2" >"$cov_tmp/$cov_n.meta"
}

# cov_report TITLE NOUN: explains every case, prints the table per area and the overall line
# ("overall: K of N NOUN known (P%)"), and exits.
cov_report() {
	local -A atot ahit
	local total=0 known=0 i a line top w=12 pct
	for i in $(seq 1 "$cov_n"); do
		IFS=$'\t' read -r a line <"$cov_tmp/$i.meta"
		top=$(timeout 10 "$bin" explain --json --no-color "$cov_tmp/$i.log" 2>/dev/null |
			jq -r '[.findings[]? | select(.severity == "error")][0].id // (.findings[0].id // "none")' 2>/dev/null)
		total=$((total + 1))
		atot[$a]=$(( ${atot[$a]:-0} + 1 ))
		[ ${#a} -le $w ] || w=${#a}
		case $top in
		explain.nccl.warn_unknown|explain.log.no_cause|explain.log.unrecognised|none|'')
			[ "$misses" = 0 ] || printf 'UNKNOWN  %-34s %s\n' "$a" "$line" ;;
		*)
			known=$((known + 1))
			ahit[$a]=$(( ${ahit[$a]:-0} + 1 )) ;;
		esac
	done
	[ "$total" -gt 0 ] || { echo "cannot run: no messages matched" >&2; exit 3; }
	echo "$1 (bin: $bin)"
	for a in $(printf '%s\n' "${!atot[@]}" | sort); do
		printf "  %-${w}s %4d of %4d  %3d%%\n" "$a" "${ahit[$a]:-0}" "${atot[$a]}" \
			$(( ${ahit[$a]:-0} * 100 / ${atot[$a]} ))
	done
	pct=$((known * 100 / total))
	printf 'overall: %d of %d %s known (%d%%)\n' "$known" "$total" "$2" "$pct"
	[ "$pct" -ge "$min" ] || exit 1
	exit 0
}
