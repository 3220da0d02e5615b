#!/bin/bash
# ncclcheck attach against tests/fakes/ras_replay.py on loopback: the recorded RAS answers of a
# sleeping rank, a dead rank, frozen equal counts, an old text-only server; a server sending
# garbage, freezing, sending too much or too little; the /proc join with real local processes
# (one sleeping, one SIGSTOPped); the record -> replay round trip; and the polling guard.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
FX=$FIXTURES/attach
REPLAY=$SRCDIR/tests/fakes/ras_replay.py
tmp=$(mktemp -d)
pids=()
sleepers=()
# servers get TERM (timeout passes it on to the server it wraps), the stand-in ranks KILL (one is
# stopped); ctest waits for whatever holds its output, so none of them writes there
trap 'kill "${pids[@]}" 2>/dev/null; kill -KILL "${sleepers[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT

# serve FIXTURE [server args...]: starts the fake, sets $port
serve() {
	local fx=$1; shift
	rm -f "$tmp/port"
	timeout 60 python3 "$REPLAY" "$fx" --port-file "$tmp/port" --idle 20 "$@" \
		>>"$tmp/servers.out" 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
	port=$(cat "$tmp/port")
}
attach() { timeout 40 "$NCCLCHECK" attach --ras "127.0.0.1:$port" --no-color --interval 2s "$@"; }

serve "$FX/ras/sleep.json" --log "$tmp/log"
out=$(attach --record "$tmp/rec.json"); rc=$?
expect_rc 1 $rc "sleeping rank: an error finding"
expect_match "$out" '^verdict: rank 1 \(pid 4202 on 10\.77\.0\.2, GPU 0\) has not launched AllReduce #6' "sleeping rank named first"
expect_match "$(cat "$tmp/log")" 'SET FORMAT json' "asks for JSON"
expect_match "$(head -1 "$tmp/log")" 'CLIENT PROTOCOL 2' "negotiates the protocol first"
# the two polls were at least 2 s apart (the NCCL 2.26.5 crash came from tight polling)
gap=$(awk '/CLIENT PROTOCOL/ { if (t) { printf "%d", ($1 - t) * 1000; exit } t = $1 }' "$tmp/log")
if [ "${gap:-0}" -ge 1900 ]; then pass "polls ${gap} ms apart"; else fail "polls only ${gap} ms apart"; fi
# record -> replay gives the same verdict
serve "$tmp/rec.json"
out2=$(attach); rc=$?
expect_rc 1 $rc "replayed recording"
expect_match "$out2" 'has not launched AllReduce #6' "the recording replays to the same verdict"

serve "$FX/ras/dead.json"
out=$(attach --json); rc=$?
expect_rc 1 $rc "dead rank"
expect_match "$out" '"id": "attach.ras.dead"' "dead rank found"
expect_match "$out" '"id": "attach.ras.json_repaired"' "NCCL 2.28.9's missing comma repaired"
echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["verb"]=="attach" and "verdict" in d and d["ras"]["polls"]' \
	&& pass "--json is one valid document" || fail "--json is not a valid document"

serve "$FX/ras/equal.json"
out=$(attach); rc=$?
expect_rc 1 $rc "equal counts"
expect_match "$out" 'GPU or network stall that RAS cannot see into' "equal frozen counts: GPU/network said"

serve "$FX/ras/progress.json"
out=$(attach); rc=$?
expect_rc 0 $rc "progressing job is clean"
expect_match "$out" 'making progress' "progress said"

serve "$FX/ras/text_sleep.json"
out=$(attach); rc=$?
expect_rc 1 $rc "text-only server"
expect_match "$out" 'rank 1 .* has not launched AllReduce #6' "text report decoded"

# a communicator still initialising: asked once, never again (NVIDIA/nccl#1669, #1718, #2346)
serve "$FX/ras/init.json" --log "$tmp/log_init"
out=$(attach --polls 3); rc=$?
n=$(grep -c 'CLIENT PROTOCOL' "$tmp/log_init")
if [ "$n" = 1 ]; then pass "init in progress: one query only"; else fail "init in progress: $n queries"; fi
expect_match "$out" 'attach.ras.one_poll' "the stop is explained"

# NCCL >= 2.31: DIAGNOSTICS asked once after the polls, on a connection of its own, text only;
# TIMEOUT as a float once a report showed 2.31 (the first poll cannot know: rounded up)
serve "$FX/ras/diag_faults.json" --log "$tmp/log_diag"
out=$(attach --json --timeout 2.5 --record "$tmp/rec_diag.json"); rc=$?
expect_rc 1 $rc "diagnostics: faults"
for id in nccl.diag.ecc nccl.diag.nvlink nccl.diag.xid nccl.diag.gpu nccl.diag.env; do
	expect_match "$out" "\"id\": \"$id\"" "diagnostics folded: $id"
done
expect_match "$out" '"verdict": "every rank launched the collective and it does not complete; NCCL.s diagnostics report rank\(s\) 3 at fault' "a GPU fault leads the stall verdict"
log=$(cut -d' ' -f2- "$tmp/log_diag")
expect_match "$(echo "$log" | sed -n 2p)" '^TIMEOUT 3$' "first poll: TIMEOUT rounded up (version unknown)"
expect_match "$(echo "$log" | sed -n 6p)" '^TIMEOUT 2\.5$' "second poll: TIMEOUT as a float to 2.31"
expect_match "$(echo "$log" | tail -3 | tr '\n' '|')" '^CLIENT PROTOCOL 2\|TIMEOUT 2\.5\|DIAGNOSTICS\|$' "diagnostics: own connection, no SET FORMAT"
[ "$(grep -c DIAGNOSTICS "$tmp/log_diag")" = 1 ] && pass "diagnostics asked once" || fail "diagnostics asked more than once"
serve "$tmp/rec_diag.json"
out=$(attach --timeout 2.5); rc=$?
expect_match "$out" 'nccl\.diag\.xid' "the recording replays the diagnostics"
serve "$FX/ras/diag_busy.json"
out=$(attach); rc=$?
expect_rc 0 $rc "diagnostics busy: a note"
expect_match "$out" 'nccl\.diag\.busy' "BUSY said"
serve "$FX/ras/diag_clean.json"
out=$(attach --json); rc=$?
expect_rc 0 $rc "diagnostics clean"
expect_match "$out" '"id": "nccl.diag.consistent"' "clean diagnostics said"
serve "$FX/ras/diag_incomplete.json"
out=$(attach); rc=$?
expect_match "$out" 'nccl\.diag\.incomplete' "an incomplete check said"
serve "$FX/ras/diag_faults.json" --log "$tmp/log_nodiag"
out=$(attach --no-diagnostics); rc=$?
expect_no_match "$(cat "$tmp/log_nodiag")" 'DIAGNOSTICS' "--no-diagnostics asks none"
# an older NCCL: not asked, and why
serve "$FX/ras/equal.json" --log "$tmp/log_old"
out=$(attach --timeout 1.5); rc=$?
expect_match "$out" 'nccl\.diag\.unavailable' "NCCL 2.28.9: diagnostics unavailable"
expect_match "$out" 'DIAGNOSTICS command came with NCCL 2\.31' "the reason is given"
expect_no_match "$(cat "$tmp/log_old")" 'DIAGNOSTICS|TIMEOUT 1\.5' "an old server gets neither DIAGNOSTICS nor a float"

# misbehaving servers: never a hang, never a crash, exit 3 with the reason
for mode in garbage freeze hang oversize truncate; do
	serve "$FX/ras/sleep.json" --mode "$mode"
	start=$(date +%s)
	out=$(attach --polls 1 --deadline 5s 2>&1); rc=$?
	took=$(( $(date +%s) - start ))
	expect_rc 3 $rc "server mode $mode"
	# bounded, not fast: a hang would last until ctest's timeout; 20 s is slack for a loaded CI box
	if [ $took -le 20 ]; then pass "mode $mode bounded (${took}s)"; else fail "mode $mode took ${took}s"; fi
done
serve "$FX/ras/sleep.json" --mode garbage
expect_match "$(attach --polls 1 2>&1)" 'not a NCCL RAS service' "garbage named"
serve "$FX/ras/sleep.json" --mode oversize
expect_match "$(attach --polls 1 2>&1)" 'larger than' "oversized answer capped"

# nothing listening: exit 3 quickly
port=1; out=$(attach --polls 3 2>&1); rc=$?
expect_rc 3 $rc "no RAS service"
expect_match "$out" 'cannot connect' "refused connection said"

# /proc join: real local processes in the pids' places, host 127.0.0.1 local
sleep 120 >/dev/null 2>&1 & sp=$!; sleepers+=($sp)
sleep 120 >/dev/null 2>&1 & tp=$!; sleepers+=($tp); kill -STOP $tp
# --local-host says which RAS hosts this /proc shows (the GPU machine's namespaced "nodes"
# share one PID namespace); the recorded pids of that host are replaced by real processes
sed 's/4202/@P1@/g' "$FX/ras/sleep.json" > "$tmp/sleep_local.json"
serve "$tmp/sleep_local.json" --subst "P1=$sp"
out=$(attach --local-host 10.77.0.2); rc=$?
expect_rc 1 $rc "local sleeping rank"
expect_match "$out" "rank 1 \(pid $sp on 10\.77\.0\.2, GPU 0\) has not launched AllReduce #6 .*it is idle" "local rank: idle from /proc"
sed 's/4203/@P2@/g; s/4204/@P3@/g' "$FX/ras/unresponsive.json" > "$tmp/unr_local.json"
serve "$tmp/unr_local.json" --subst "P2=$tp" --subst "P3=$sp"
out=$(attach --local-host 10.77.0.2); rc=$?
expect_rc 1 $rc "local stopped rank"
expect_match "$out" "^verdict: rank 2 \(pid $tp on 10\.77\.0\.2, GPU 0\) is stopped" "SIGSTOPped rank named"
sed 's/4202/@P1@/g' "$FX/ras/dead.json" > "$tmp/gone_local.json"
serve "$tmp/gone_local.json" --subst "P1=999999999"
out=$(attach --local-host 10.77.0.2); rc=$?
expect_match "$out" "its process 999999999 no longer exists" "a gone process confirmed by /proc"

# flags: the polling guard and friends
out=$("$NCCLCHECK" attach --interval 500ms 2>&1); rc=$?
expect_rc 2 $rc "too-fast interval refused"
expect_match "$out" 'NVIDIA/nccl#1718' "the refusal says why"
"$NCCLCHECK" attach --polls 11 >/dev/null 2>&1; expect_rc 2 $? "too many polls refused"
"$NCCLCHECK" attach --ras 'a b' >/dev/null 2>&1; expect_rc 2 $? "bad --ras refused"
"$NCCLCHECK" attach --no-ras >/dev/null 2>&1; expect_rc 2 $? "--no-ras alone refused"
"$NCCLCHECK" attach --help | grep -q 'NCCL_RAS_ADDR'; expect_rc 0 $? "--help documents NCCL_RAS_ADDR"
NCCL_RAS_ADDR=127.0.0.1:1 "$NCCLCHECK" attach --polls 1 2>&1 | grep -q '127.0.0.1:1'; expect_rc 0 $? "NCCL_RAS_ADDR is the default"
finish
