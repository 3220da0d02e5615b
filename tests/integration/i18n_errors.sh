#!/bin/bash
# The error paths in Chinese (#28): bad flags, missing values and files, an unreachable master or
# peer, lab misuse, run without a command, attach on a process that is gone or has no Python.
# Each one's message is composed in English, often an error a core module stored in a struct err
# under a short prefix ("rank %d: %s", "context: message" from err_prefix/err_sys); with
# LANG=zh_CN.UTF-8 no line of it may be English prose (tests/integration/zh_lines.py: four
# English words in a row that are no command, name or value). Ids, commands, paths stay.
set -u
. "$SRCDIR/tests/integration/lib.sh"
tmp=$(mktemp -d)
sleeper=
trap 'rm -rf "$tmp"; [ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null' EXIT
unset MASTER_ADDR MASTER_PORT NODE_RANK NNODES WORLD_SIZE RANK LOCAL_RANK SLURM_JOB_ID \
	SLURM_NODEID SLURM_NNODES OMPI_COMM_WORLD_SIZE PET_NNODES NCCLCHECK_TOKEN NCCL_RAS_ADDR

# the checker itself must catch English: the message as it read before this test existed
printf '%s\n' "没有 Python 调用栈：reading process 1's memory was refused (a security module)" \
	> "$tmp/en.txt"
python3 "$SRCDIR/tests/integration/zh_lines.py" --words 4 --no-width "$tmp/en.txt" >/dev/null &&
	fail "zh_lines.py does not see English prose" || pass "zh_lines.py sees English prose"

sleep 60 & sleeper=$!
run() { # what, then the arguments: the output of LANG=zh_CN.UTF-8 ncclcheck ARGS into $tmp/out
	shift	# what: for the reader of this file
	{ echo "\$ ncclcheck $*"; LANG=zh_CN.UTF-8 LC_ALL= LC_MESSAGES= timeout 30 "$NCCLCHECK" "$@" \
		</dev/null 2>&1; echo "rc=$?"; } >> "$tmp/out"
}
run "unknown option" node --bogus
run "a value missing" node --python-timeout
run "a bad value" node --python-timeout abc
run "a facts file missing" node --facts /nonexistent
run "a facts file that is no JSON" node --facts /etc/hostname
run "cluster without a rendezvous" cluster --no-python
run "cluster: the master unreachable" cluster --master 127.0.0.1:1 --nodes 2 --node-rank 1 \
	--timeout 2 --no-python --no-color
run "cluster: a rank past the node count" cluster --master 127.0.0.1 --nodes 2 --node-rank 5
run "cluster: a token file missing" cluster --token-file /nonexistent --master 127.0.0.1:1 \
	--nodes 2 --node-rank 1
run "bench without a collective" bench
run "bench: the peer unreachable" bench allreduce --peers 127.0.0.1:1,127.0.0.1:2 --node-rank 1 \
	-T 2
run "bench: a bad op" bench -o xor
run "bench p2p without a side" bench p2p
run "config: a saved verdict missing" config --from /nonexistent
run "config: a bad cloud" config --cloud mars
run "run without a command" run
run "run: a saved verdict missing" run --from /nonexistent -- true
run "run --dry-run: the checks and the environment's reasons" run --dry-run --no-python -- true
run "explain: a log missing" explain /nonexistent
run "lab without a subcommand" lab
run "lab: an unknown subcommand" lab bogus
run "lab: too many nodes" lab up --nodes 100
run "lab exec without a node" lab exec
run "attach: no such process" attach --pid 999999
run "attach: a process without CPython" attach --pid "$sleeper"
run "attach: pid 1" attach --pid 1
run "attach: RAS unreachable" attach --ras 127.0.0.1:1 --no-stacks --deadline 3s --no-color
run "attach: a dump directory missing" attach --fr /nonexistent --no-ras --no-color
run "attach: a rank's dump unreachable" attach --fr-url 0=http://127.0.0.1:1/ --no-ras --no-color
run "report: a document missing" report /nonexistent

bad=$(python3 "$SRCDIR/tests/integration/zh_lines.py" --words 4 --no-width "$tmp/out")
[ -z "$bad" ] && pass "every error path reads Chinese" ||
	fail "English prose in the Chinese error paths:
$bad
$(cat "$tmp/out")"
out=$(cat "$tmp/out")
# the messages this issue named, and the ones composed under a short prefix
expect_match "$out" "进程 $sleeper 没有加载 CPython 解释器" "attach --pid: 'maps no CPython' in Chinese"
expect_match "$out" "这里没有进程 999999" "attach --pid of a process that is gone, in Chinese"
expect_match "$out" "rank 1：2 秒内连不上 master 127.0.0.1:1" "bench's 'rank %d: %s' puts its message into Chinese"
expect_match "$out" "连接被拒绝" "the system's error text (err_sys) in Chinese"
expect_match "$out" "无法读取 '/nonexistent'：没有那个文件或目录" "a missing file in Chinese"
expect_match "$out" "不是 JSON：'[^']*' 附近应为 '\\[' 或 '\\{'" "jansson's parse error in Chinese"
expect_match "$out" "http://127.0.0.1:1/（rank 0）：无法连接" "'%s (rank %d): %s' puts its message into Chinese"
# English stays English
en=$(LANG=C "$NCCLCHECK" attach --pid 999999 2>&1)
expect_match "$en" "no process 999999 here" "in English the message is the English one"
finish
