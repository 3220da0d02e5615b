#!/usr/bin/env bash
# How many of the launch-time messages of PyTorch Lightning / Lightning Fabric (devices, nodes,
# Slurm/torchelastic/LSF environments) and of Hugging Face accelerate's launcher `ncclcheck explain`
# knows: every message of tests/fixtures/frameworks/messages.tsv (read from their source) is filled
# with plausible values, printed the way the framework prints it (a traceback's last line such as
# 'lightning.fabric.utilities.exceptions.MisconfigurationException: ...', a warnings.warn line
# '.../slurm.py:204: PossibleUserWarning: ...', a bare logger line) and explained alone. A message
# counts as known when the top finding is anything but explain's fallbacks
# (explain.nccl.warn_unknown, explain.log.no_cause, explain.log.unrecognised, none).
#
# This measures reach, not correctness: a log's cause is scored by bench/explain_corpus.sh.
#
#   bench/framework_message_coverage.sh [--ncclcheck BIN] [--formats FILE] [--area PREFIX] [--misses]
#                                       [--min PCT]
# --area matches the start of the source path (src/lightning/fabric/plugins, src/accelerate/, ...).
# Exits 1 when the overall share is below --min (percent, default 0), 3 when it cannot run.
set -u
cov_formats=$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/frameworks/messages.tsv
. "$(dirname "$0")/coverage_lib.sh"
cov_options "$@"

# Placeholders filled with what a real message carries: GPU index lists where Lightning prints
# them, a kernel version, a backend name, a port; otherwise a first count of 8 and later ones 4
# (so that 'devices=8 ... --ntasks-per-node=4' reads as the mismatch it reports).
fill() {
	sed -E 's/gpu: \{\}/gpu: [0, 1, 2, 3]/; s/GPUs: \{\}/GPUs: [0, 1, 2, 3]/; s/only has: \{\}/only has: [0, 1]/;
		s/devices \{\} are/devices [1, 3] are/; s/kernel version \{\}/kernel version 4.15.0/;
		s/minimum of \{\}/minimum of 5.5.0/; s/backend \{\} is not available, please use \{\}/backend nccl is not available, please use gloo/;
		s/port `\{\}`/port `29500`/; s/Port `\{\}`/Port `29500`/; s/using \{\} accelerator/using gpu accelerator/;
		s/GLOBAL_RANK: \{\}, MEMBER: \{\}\/\{\}/GLOBAL_RANK: 0, MEMBER: 1\/16/;
		s/\{\}/8/; s/\{\}/4/g; s/\\n/\n/g; s/\\t/\t/g'
}

# The lines the frameworks print: an exception's traceback (last line '<class>: text'), Python's
# warnings.warn format ('<site-packages path>:LINE: <category>: text'), a logger's bare message.
show() { # show FILE HOW TEXT
	local how=$2 text=$3 py=${1#src/}
	case $how in
	raise:*)
		printf 'Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n'
		printf '  File "/opt/conda/lib/python3.11/site-packages/%s", line 160, in <module>\n' "$py"
		printf '%s: %s\n' "${how#raise:}" "$text" ;;
	warn:*) printf '/opt/conda/lib/python3.11/site-packages/%s:204: %s: %s\n  rank_zero_warn(\n' \
		"$py" "${how#warn:}" "$text" ;;
	*) printf '%s\n' "$text" ;;
	esac
}

while IFS=$'\t' read -r file how fmt; do
	case $file in '#'*|'') continue ;; esac
	cov_wanted "$file" || continue
	case $file in src/accelerate/*) a=accelerate ;; src/lightning/fabric/plugins/environments/*)
		a=${file##*/}; a=environments/${a%.py} ;; *lightning*) a=lightning ;; *) a=other ;; esac
	log=$(show "$file" "$how" "$(printf '%s' "$fmt" | fill)")
	# the line a reader of --misses wants: the message as shown, without the traceback's frames
	case $how in
	warn:*) shown=$(printf '%s\n' "$log" | head -n 1 | sed 's|^/opt/conda/lib/python3.11/site-packages/||') ;;
	*) shown=$(printf '%s\n' "$log" | grep -v '^Traceback\|^  File ' | tr '\n\t' '  ') ;;
	esac
	cov_case "$a" "${shown:0:150}" "$log"
done <"$cov_formats"
cov_report "Lightning and accelerate launch messages explain knows, per area" "framework launch messages"
