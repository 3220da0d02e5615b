#!/usr/bin/env bash
# How many of PyTorch's own distributed error and warning messages `ncclcheck explain` knows:
# every message of tests/fixtures/torch/messages.tsv (c10d's socket/TCPStore/ProcessGroupNCCL,
# the rendezvous handlers, torchrun/elastic and Gloo's TCP transport, read from their source) is
# filled with plausible values, printed the way torch prints it (a traceback's last line, a c10d
# '[W... socket.cpp:LINE] [c10d]' warning, a torchrun log line, a Gloo exception) and explained
# alone. A message counts as known when the top finding is anything but explain's fallbacks
# (explain.nccl.warn_unknown, explain.log.no_cause, explain.log.unrecognised, none).
#
# This measures reach, not correctness: a log's cause is scored by bench/explain_corpus.sh.
#
#   bench/torch_message_coverage.sh [--ncclcheck BIN] [--formats FILE] [--area PREFIX] [--misses]
#                                   [--min PCT]
# --area matches the start of the source path (torch/csrc/distributed/c10d/socket, gloo/, ...).
# Exits 1 when the overall share is below --min (percent, default 0), 3 when it cannot run.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${NCCLCHECK:-$here/build/release/ncclcheck}
[ -x "$bin" ] || bin=$here/build/debug/ncclcheck
formats=$here/tests/fixtures/torch/messages.tsv
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
[ -r "$formats" ] || { echo "cannot run: no message list at $formats" >&2; exit 3; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Placeholders filled with what a real line carries: a (host, port) pair and host:port where the
# source prints an address, a small number elsewhere; printf-style %s/%d of the Python loggers.
fill() {
	sed -E 's/\(\{\}, \{\}\)/(node1, 29500)/g; s/\[\{\}\]:\{\}/[node1]:29500/g; s/\{\}:\{\}/10.0.0.1:29500/g;
		s/\{\}/3/g; s/%s/node1/g; s/%d/3/g; s/\\n/\n/g'
}

# The line torch prints: c10d's logging prefix ([W/E<date> <file>:<line>] [c10d]), glog's for
# ProcessGroupNCCL, the Python logger's for torchrun, an exception's last traceback line (with
# the '[rank0]: ' prefix torch 2.2+ puts before a rank's stderr), Gloo's exception text.
show() { # show FILE HOW TEXT
	local base=${1##*/} how=$2 text=$3
	case $how in
	warn:c10d) printf '[rank0]:[W1203 10:00:00.123456789 %s:752] [c10d] %s\n' "$base" "$text" ;;
	error:c10d) printf '[rank0]:[E1203 10:00:00.123456789 %s:752] [c10d] %s\n' "$base" "$text" ;;
	log:W) printf '[rank0]:[W1203 10:00:00.123456789 %s:1120] %s\n' "$base" "$text" ;;
	log:E) printf '[rank0]:[E1203 10:00:00.123456789 %s:616] %s\n' "$base" "$text" ;;
	pylog:[WEI]) printf '%s1203 10:00:00.123000 4711 %s:704] %s\n' "${how#pylog:}" "$1" "$text" ;;
	gloo) printf '[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/%s:144] %s\n' "$base" "$text" ;;
	raw) printf '%s\n' "$text" ;;
	raise:*)
		local cls=${how#raise:} pre='[rank0]: '
		case $1 in torch/distributed/elastic/* | torch/distributed/run.py) pre= ;; esac
		printf '%sTraceback (most recent call last):\n%s  File "train.py", line 12, in <module>\n' "$pre" "$pre"
		if [ -n "$text" ]; then printf '%s%s: %s\n' "$pre" "$cls" "$text"; else printf '%s%s\n' "$pre" "$cls"; fi ;;
	*) printf '%s\n' "$text" ;;
	esac
}

n=0
while IFS=$'\t' read -r file how fmt; do
	case $file in '#'*|'') continue ;; esac
	[ -z "$area" ] || case $file in "$area"*) ;; *) continue ;; esac
	n=$((n + 1))
	text=$(printf '%s' "$fmt" | fill)
	show "$file" "$how" "$text" >"$tmp/$n.log"
	printf '%s\t%s\n' "$file" "$(head -c 160 "$tmp/$n.log" | tr '\n' ' ')" >"$tmp/$n.meta"
done <"$formats"

declare -A atot ahit
total=0 known=0
for i in $(seq 1 "$n"); do
	IFS=$'\t' read -r file line <"$tmp/$i.meta"
	top=$(timeout 10 "$bin" explain --json --no-color "$tmp/$i.log" 2>/dev/null |
		jq -r '[.findings[]? | select(.severity == "error")][0].id // (.findings[0].id // "none")' 2>/dev/null)
	a=${file##*/}
	case $file in torch/distributed/elastic/rendezvous/*) a=rendezvous/${a%.py} ;;
	torch/distributed/elastic/*) a=elastic ;; gloo/*) a=gloo ;; esac
	total=$((total + 1))
	atot[$a]=$(( ${atot[$a]:-0} + 1 ))
	case $top in
	explain.nccl.warn_unknown|explain.log.no_cause|explain.log.unrecognised|none|'')
		[ $misses = 0 ] || printf 'UNKNOWN  %-28s %s\n' "$a" "$line" ;;
	*)
		known=$((known + 1))
		ahit[$a]=$(( ${ahit[$a]:-0} + 1 )) ;;
	esac
done

[ "$total" -gt 0 ] || { echo "cannot run: no messages matched" >&2; exit 3; }
echo "PyTorch distributed messages explain knows, per source file (bin: $bin)"
for a in $(printf '%s\n' "${!atot[@]}" | sort); do
	printf '  %-34s %4d of %4d  %3d%%\n' "$a" "${ahit[$a]:-0}" "${atot[$a]}" $(( ${ahit[$a]:-0} * 100 / ${atot[$a]} ))
done
pct=$((known * 100 / total))
printf 'overall: %d of %d PyTorch distributed messages known (%d%%)\n' "$known" "$total" "$pct"
[ "$pct" -ge "$min" ] || exit 1
exit 0
