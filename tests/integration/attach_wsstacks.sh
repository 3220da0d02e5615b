#!/bin/bash
# attach's second stack source: torch's WorkerServer (/handler/dump_traceback on the Unix socket
# of TORCH_WORKER_SERVER_SOCKET). tests/fakes/ws_job.py is a live Python process serving its own
# real faulthandler output there: a stand-in, since torch with its WorkerServer is not
# installable on this machine (tests/gpu/attach_record.sh wssleep runs torch's own). The memory
# read fails for real on CPython 3.8 (a layout the reader does not know) and is skipped with
# --stacks-from worker-server; a server that never answers is given up on within its 2 s.
. "$(dirname "$0")/lib.sh"
JOB=$SRCDIR/tests/fakes/ws_job.py
tmp=$(mktemp -d /tmp/wt-wsstacks-XXXXXX 2>/dev/null || mktemp -d)
pids=()
trap 'kill -KILL "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
stop() { kill -KILL "$1"; wait "$1" 2>/dev/null; }
att() { timeout 30 "$NCCLCHECK" attach --no-color "$@"; }
start() { # python [mode] -> $p once it serves
	rm -f "$tmp/out" "$tmp/ws.sock"
	TORCH_WORKER_SERVER_SOCKET=$tmp/ws.sock WS_JOB_LOAD=${LOAD:-} "$1" "$JOB" ${2:-} >"$tmp/out" 2>&1 &
	p=$!; pids+=($p)
	for _ in $(seq 200); do grep -q ready "$tmp/out" 2>/dev/null && break; sleep 0.05; done
	grep -q ready "$tmp/out" || { fail "ws_job.py under $1 did not start: $(cat "$tmp/out")"; finish; }
}
field() { python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1]))' "$1"; }

py=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }

# memory first: a process it can read is read from memory, the server not asked
start "$py"
out=$(att --pid $p --json); rc=$?
expect_rc 0 $rc "auto, readable memory"
expect_match "$(printf '%s' "$out" | field stack_source)" '^memory$' "auto: memory first"

# only the server: the process's own faulthandler text, its function and file:line
out=$(att --pid $p --stacks-from worker-server); rc=$?
expect_rc 0 $rc "--stacks-from worker-server"
expect_match "$out" "^process $p: from torch's WorkerServer \\(unix:$tmp/ws.sock\\)" "the source named"
expect_match "$out" 'File ".*ws_job.py", line 44, in load_batch' "load_batch with ws_job.py:44"
json=$(att --pid $p --stacks-from worker-server --json)
expect_match "$(printf '%s' "$json" | field stack_source)" '^worker_server$' "--json: stack_source"
att --pid $p --stacks-from worker-server --html "$tmp/p.html" >/dev/null
expect_match "$(cat "$tmp/p.html")" "outermost frame first, from torch's WorkerServer" "--html: the source named"
stop $p

# the memory read fails for real (3.8's layout is unknown to it): auto falls back to the server
py38=
for c in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.8*/bin/python3.8 /usr/bin/python3.8; do
	"$c" -c 'import sys; assert sys.version_info[:2] == (3, 8)' 2>/dev/null && { py38=$c; break; }
done
if [ -n "$py38" ]; then
	start "$py38"
	out=$(att --pid $p); rc=$?
	expect_rc 0 $rc "3.8: stacks from the server"
	expect_match "$out" "its memory was not read: Python 3.8" "3.8: why memory failed"
	expect_match "$out" "from torch's WorkerServer" "3.8: the source named"
	expect_match "$out" 'File ".*ws_job.py", line 44, in load_batch' "3.8: load_batch with ws_job.py:44"
	stop $p
else
	echo "skip: no CPython 3.8 (the reader's unknown layout)"
fi

# the verdict: a recorded RAS answer (tests/fakes/ras_replay.py) whose stalled rank 1 is, on
# this "node", the process above, mapping a (fake) libnccl as a real rank does
verdict() { # python [attach options...]
	local py=$1
	shift
	LOAD=$FAKESDIR/nccl/libnccl.so.2 start "$py"
	rm -f "$tmp/port"
	timeout 60 python3 "$SRCDIR/tests/fakes/ras_replay.py" "$tmp/sleep_local.json" \
		--port-file "$tmp/port" --idle 20 --subst "P1=$p" >/dev/null 2>&1 & pids+=($!)
	for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
	out=$(timeout 40 "$NCCLCHECK" attach --no-color --ras "127.0.0.1:$(cat "$tmp/port")" \
		--interval 2s --local-host 10.77.0.2 "$@" 2>&1); rc=$?
	stop $p
}
sed 's/4202/@P1@/g' "$FIXTURES/attach/ras/sleep.json" > "$tmp/sleep_local.json"
verdict "$py" --stacks-from worker-server
expect_rc 1 $rc "verdict, --stacks-from worker-server"
expect_match "$out" "^verdict: rank 1 \(pid [0-9]+ on 10\.77\.0\.2, GPU 0\) has not launched AllReduce #6 .*; it is in <module> \(ws_job\.py:[0-9]+\) → load_batch \(ws_job\.py:44\) \(from torch's WorkerServer\)" "the verdict: load_batch from torch's WorkerServer"
if [ -n "$py38" ]; then
	verdict "$py38"
	expect_rc 1 $rc "verdict, 3.8"
	expect_match "$out" "^verdict: rank 1 .*; it is in <module> \(ws_job\.py:[0-9]+\) → load_batch \(ws_job\.py:44\) \(from torch's WorkerServer\)" "3.8: the verdict falls back to the server"
fi

# a server that never answers: given up on in its 2 s, said so, not hung on
start "$py" mute
t0=$(date +%s%N)
out=$(att --pid $p --stacks-from worker-server 2>&1); rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
expect_rc 3 $rc "a mute server"
expect_match "$out" "torch's WorkerServer" "a mute server: said so"
[ $ms -lt 15000 ] && pass "a mute server: given up on ($ms ms)" || fail "a mute server held attach $ms ms"
stop $p

# no server in the environment
sleep 60 & p=$!; pids+=($p)
out=$(att --pid $p --stacks-from worker-server 2>&1); rc=$?
expect_rc 3 $rc "no TORCH_WORKER_SERVER_SOCKET"
expect_match "$out" "no TORCH_WORKER_SERVER_SOCKET in its environment" "no server: said so"
stop $p
finish
