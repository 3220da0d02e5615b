#!/bin/bash
# Live flight-recorder dumps from torch's per-rank WorkerServer (tests/fakes/worker_server.py):
# --fr-url over a Unix socket and loopback TCP, --fr-live finding the socket in a local rank's
# environment (a real process carrying TORCH_WORKER_SERVER_SOCKET), and servers that fail,
# freeze, send garbage or too much. Never a hang; only this machine is ever asked.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
FX=$FIXTURES/attach
WS=$SRCDIR/tests/fakes/worker_server.py
tmp=$(mktemp -d)
pids=() sleepers=()
# servers get TERM (timeout passes it on), the stand-in rank KILL; none writes to ctest's pipe
trap 'kill "${pids[@]}" 2>/dev/null; kill -KILL "${sleepers[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
wait_for() { for _ in $(seq 100); do [ -e "$1" ] && return 0; sleep 0.05; done; return 1; }
ws_unix() { # dump path [mode]
	timeout 60 python3 "$WS" "$1" --unix "$2" --mode "${3:-normal}" & pids+=($!)
	wait_for "$2"
}
ws_tcp() { # dump [mode] -> $wport
	rm -f "$tmp/wport"
	timeout 60 python3 "$WS" "$1" --port-file "$tmp/wport" --mode "${2:-normal}" & pids+=($!)
	wait_for "$tmp/wport"; sleep 0.05; wport=$(cat "$tmp/wport")
}
att() { timeout 40 "$NCCLCHECK" attach --no-color "$@"; }

ws_unix "$FX/fr/sleep/nccl_trace_rank_0" "$tmp/w0.sock"
ws_tcp "$FX/fr/sleep/nccl_trace_rank_1"
out=$(att --no-ras --fr-url "0=unix:$tmp/w0.sock" --fr-url "1=http://127.0.0.1:$wport"); rc=$?
expect_rc 1 $rc "live dumps over a Unix socket and TCP"
expect_match "$out" '^verdict: rank 1 has not entered all_reduce #6' "live dumps give the verdict"

# --fr-live: the local rank's environment names its socket
ws_unix "$FX/fr/sleep/nccl_trace_rank_1" "$tmp/w1.sock"
env TORCH_WORKER_SERVER_SOCKET="$tmp/w1.sock" sleep 120 >/dev/null 2>&1 & rp=$!; sleepers+=($rp)
ws_unix "$FX/fr/sleep/nccl_trace_rank_0" "$tmp/w0b.sock"
sed 's/4202/@P1@/g' "$FX/ras/sleep.json" > "$tmp/sleep_local.json"
rm -f "$tmp/port"
timeout 60 python3 "$SRCDIR/tests/fakes/ras_replay.py" "$tmp/sleep_local.json" --port-file "$tmp/port" \
	--subst "P1=$rp" --idle 20 & pids+=($!)
wait_for "$tmp/port"; sleep 0.05
out=$(att --ras "127.0.0.1:$(cat "$tmp/port")" --interval 2s --local-host 10.77.0.2 --fr-live \
	--fr-url "0=unix:$tmp/w0b.sock" -v); rc=$?
expect_rc 1 $rc "--fr-live"
expect_match "$out" "^verdict: rank 1 \(pid $rp on 10\.77\.0\.2, GPU 0\) has not entered all_reduce #6" "--fr-live joined with RAS and /proc"

# misbehaving servers: a clean message each, bounded
for mode in error garbage chunked oversize freeze; do
	ws_tcp "$FX/fr/sleep/nccl_trace_rank_0" "$mode"
	start=$(date +%s)
	out=$(att --no-ras --fr-url "0=http://127.0.0.1:$wport" --deadline 4s -v 2>&1); rc=$?
	took=$(( $(date +%s) - start ))
	expect_match "$out" 'attach.fr.bad_dump|does not decode' "worker server mode $mode reported"
	# bounded, not fast: a hang would last until ctest's timeout; 20 s is slack for a loaded CI box
	if [ $took -le 20 ]; then pass "mode $mode bounded (${took}s)"; else fail "mode $mode took ${took}s"; fi
done
out=$(att --no-ras --fr-url "0=unix:$tmp/nonexistent.sock" -v 2>&1)
expect_match "$out" 'cannot connect' "absent socket said"

# only this machine
"$NCCLCHECK" attach --no-ras --fr-url 0=http://10.1.2.3:80 >/dev/null 2>&1; expect_rc 2 $? "a non-loopback URL refused"
"$NCCLCHECK" attach --no-ras --fr-url http://127.0.0.1:80 >/dev/null 2>&1; expect_rc 2 $? "a URL without its rank refused"
"$NCCLCHECK" attach --no-ras --fr-live >/dev/null 2>&1; expect_rc 2 $? "--fr-live needs RAS"
finish
