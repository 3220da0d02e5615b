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
cov_formats=$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/torch/messages.tsv
. "$(dirname "$0")/coverage_lib.sh"
cov_options "$@"

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

while IFS=$'\t' read -r file how fmt; do
	case $file in '#'*|'') continue ;; esac
	cov_wanted "$file" || continue
	a=${file##*/}
	case $file in torch/distributed/elastic/rendezvous/*) a=rendezvous/${a%.py} ;;
	torch/distributed/elastic/*) a=elastic ;; gloo/*) a=gloo ;; esac
	log=$(show "$file" "$how" "$(printf '%s' "$fmt" | fill)")
	cov_case "$a" "$(printf '%s' "$log" | head -c 160 | tr '\n' ' ')" "$log"
done <"$cov_formats"
cov_report "PyTorch distributed messages explain knows, per source file" "PyTorch distributed messages"
