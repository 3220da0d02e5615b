#!/bin/bash
# ncclcheck attach --fr on flight-recorder dump directories: each scenario's verdict, the
# Python stacks of the missing rank, and truncated / malicious / oversized dump files.
. "$(dirname "$0")/lib.sh"
FX=$FIXTURES/attach/fr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fr() { timeout 20 "$NCCLCHECK" attach --no-ras --no-color "$@"; }

out=$(fr --fr "$FX/sleep" -v); rc=$?
expect_rc 1 $rc "sleep"
expect_match "$out" '^verdict: rank 1 has not entered all_reduce #6 \(process group .default_pg.\) that rank\(s\) 0 entered' "missing rank and collective named"
expect_match "$out" 'load_batch \(/work/job/train.py:55\)' "the missing rank's Python stack shown"
out=$(fr --fr "$FX/size_mismatch"); expect_match "$out" 'disagree on the size of collective #3' "size mismatch"
out=$(fr --fr "$FX/dtype_mismatch"); expect_match "$out" 'disagree on the dtype' "dtype mismatch"
out=$(fr --fr "$FX/op_mismatch"); expect_match "$out" 'disagree on the operation' "op mismatch"
out=$(fr --fr "$FX/all_entered"); expect_match "$out" 'every rank entered all_reduce #6' "all entered: below PyTorch"
out=$(fr --fr "$FX/no_dump"); expect_match "$out" 'rank\(s\) 1 wrote no dump' "a rank without a dump"
out=$(fr --fr "$FX/healthy"); rc=$?
expect_rc 0 $rc "healthy dumps"
out=$(fr --fr "$FX/sleep" --fr-prefix nccl_trace_rank_ --json); rc=$?
expect_match "$out" '"id": "attach.fr.not_entered"' "--json"

# bad files: skipped with a warning, never a crash
cp "$FX/sleep/nccl_trace_rank_0" "$tmp/nccl_trace_rank_0"
head -c 700 "$FX/sleep/nccl_trace_rank_1" > "$tmp/nccl_trace_rank_1"
printf '\x80\x02cos\nsystem\n(X\x02\x00\x00\x00idtR.' > "$tmp/nccl_trace_rank_2"
mkfifo "$tmp/nccl_trace_rank_3.pipe"
mkfifo "$tmp/nccl_trace_rank_4"
out=$(fr --fr "$tmp" -v 2>&1); rc=$?
expect_match "$out" 'nccl_trace_rank_1: pickle: ' "truncated dump reported"
expect_match "$out" 'GLOBAL other than torch' "malicious dump refused"
expect_no_match "$out" 'nccl_trace_rank_4' "without a prefix, a FIFO is not a candidate (no hang)"
out=$(fr --fr "$tmp" --fr-prefix nccl_trace_rank_ -v 2>&1)
expect_match "$out" 'nccl_trace_rank_4.*not a regular file' "with a prefix, a FIFO is refused (no hang)"
printf 'not a dump 123' > "$tmp/notes_7"
out=$(fr --fr "$tmp" -v 2>&1)
expect_no_match "$out" 'notes_7' "an unrelated file ending in a number is ignored"
out=$(fr --fr /nonexistent 2>&1); rc=$?
expect_match "$out" 'cannot read the flight-recorder directory' "missing directory said"
mkdir "$tmp/empty"
out=$(fr --fr "$tmp/empty" 2>&1); rc=$?
expect_rc 3 $rc "empty directory: nothing to conclude"

# in Chinese (issue #28): verdicts, findings and fixes read in Chinese within 100 columns; the
# stacks' file names, ids and commands stay as they are (tests/integration/zh_lines.py)
for s in sleep size_mismatch dtype_mismatch op_mismatch no_dump all_entered healthy; do
	env LANG=zh_CN.UTF-8 LC_ALL= LC_MESSAGES= timeout 20 "$NCCLCHECK" attach --no-ras --no-color \
		--fr "$FX/$s" -v >"$tmp/zh-$s.out" 2>"$tmp/zh-$s.err"
	bad=$(python3 "$SRCDIR/tests/integration/zh_lines.py" "$tmp/zh-$s.out")
	[ -z "$bad" ] && pass "$s in Chinese: every line Chinese and within 100 columns" ||
		fail "$s in Chinese: $bad"
done
expect_match "$(cat "$tmp/zh-sleep.out")" "^结论：rank 0 已进入 all_reduce #6" "the verdict is Chinese"
finish
