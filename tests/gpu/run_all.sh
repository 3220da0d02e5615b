#!/bin/bash
# Runs every GPU-machine check in one lease, side by side where they do not share anything (each
# script builds its own namespaces with its own prefix), and packs the results into one archive
# because a device call brings back at most 8 files.
#   bash tests/gpu/run_all.sh [LIMIT_SECONDS [CHECK...]]  -> $OUT/gpu-results.tgz, $OUT/summary.txt
# CHECK is any of facts stack ifselect logs lab config (default: all).
. "$(dirname "$0")/env.sh"
LIMIT=${1:-500}
shift
CHECKS=" ${*:-facts stack ifselect logs lab config} "
want() { [[ $CHECKS == *" $1 "* ]]; }
FINAL=$OUT
G=/tmp/gpu-all
rm -rf "$G"; mkdir -p "$G"
run() { # name script
	mkdir -p "$G/$1"
	OUT=$G/$1 timeout -k 10 "$LIMIT" bash "tests/gpu/$2" > "$G/$1/stdout.txt" 2>&1
	echo "exit $?" >> "$G/$1/stdout.txt"
}
( want facts && run facts record_facts.sh; want stack && run stack stack_check.sh ) &
want ifselect && run ifselect ifselect_vs_nccl.sh &
want logs && run logs record_logs.sh &
want lab && run lab lab_nccl.sh &
wait
# after the lab check: both build two-node labs on the same GPUs
want config && run config config_run.sh
{
	for n in $CHECKS; do
		echo "===== $n: $(tail -1 "$G/$n/stdout.txt")"
		case $n in
		facts) grep -E 'FAIL|RESULT' "$G/facts/compare.txt" 2>/dev/null | tail -15 ;;
		stack) grep -E 'FAIL|ALL' "$G/stack/stack_compare.txt" 2>/dev/null | tail -15 ;;
		ifselect) cat "$G/ifselect/ifselect_table.txt" 2>/dev/null ;;
		logs) grep -E '^==' "$G/logs/stdout.txt" ;;
		lab) cat "$G/lab/lab_nccl/summary.txt" 2>/dev/null ;;
		config) cat "$G/config/config_run/summary.txt" 2>/dev/null ;;
		esac
	done
} > "$FINAL/summary.txt" 2>&1
tar czf "$FINAL/gpu-results.tgz" -C "$G" .
cat "$FINAL/summary.txt"
