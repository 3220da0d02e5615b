#!/bin/bash
# cluster --with-ras on loopback against tests/fakes/ras_replay.py: rank 0 alone asks RAS (STATUS
# for the version, then DIAGNOSTICS on NCCL >= 2.31), once, and every node prints NCCL's
# cross-rank differences as nccl.diag.* findings; an older NCCL: nccl.diag.unavailable and no
# DIAGNOSTICS sent; BUSY: nccl.diag.busy; nothing listening, or a server that never answers: one
# info finding, bounded, and the exit code is what it is without --with-ras.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
FX=$FIXTURES/attach/ras
REPLAY=$SRCDIR/tests/fakes/ras_replay.py
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
export NCCLCHECK_TOKEN=cluster-ras-test
unset NCCL_RAS_ADDR

# one STATUS, then DIAGNOSTICS: the replay serves connection i poll i, so attach's second
# STATUS poll is left out of its recordings
one_status() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["polls"] = [d["polls"][0]] + [p for p in d["polls"][1:]
                                if any(x["send"].strip() == "DIAGNOSTICS" for x in p["exchange"])]
json.dump(d, open(sys.argv[2], "w"))
PY
}
# serve TRANSCRIPT [server args...]: starts the fake, sets $port
serve() {
	local fx=$1; shift
	rm -f "$tmp/port"
	timeout 60 python3 "$REPLAY" "$fx" --port-file "$tmp/port" --idle 20 "$@" \
		>>"$tmp/servers.out" 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
	port=$(cat "$tmp/port")
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# one node: cluster ARGS on a master port of its own
one() {
	timeout 60 "$NCCLCHECK" cluster --master "127.0.0.1:$(free_port)" --nodes 1 --node-rank 0 \
		--no-python --no-ports --no-bw --no-color "$@"
}

# NCCL 2.31 with faults: two nodes on loopback, both print the findings, one DIAGNOSTICS sent
one_status "$FX/diag_faults.json" "$tmp/faults.json"
serve "$tmp/faults.json" --log "$tmp/log_faults"
mp=$(free_port)
( NCCL_RAS_ADDR=127.0.0.1:$port timeout 60 "$NCCLCHECK" cluster --master "127.0.0.1:$mp" \
	--nodes 2 --node-rank 1 --no-python --no-ports --no-bw --with-ras --json \
	>"$tmp/n1.json" 2>/dev/null; echo $? >"$tmp/n1.rc" ) &
worker=$!
NCCL_RAS_ADDR=127.0.0.1:$port timeout 60 "$NCCLCHECK" cluster --master "127.0.0.1:$mp" \
	--nodes 2 --node-rank 0 --no-python --no-ports --no-bw --with-ras --json \
	>"$tmp/n0.json" 2>/dev/null
expect_rc 1 $? "diagnostics with GPU faults: an error"
wait $worker
expect_rc 1 "$(cat "$tmp/n1.rc")" "the worker: the same exit code"
for n in n0 n1; do
	python3 - "$tmp/$n.json" "$port" <<'PY' && pass "$n: nccl.diag.* findings in the report" || fail "$n: the diagnostics findings"
import json, sys
d = json.load(open(sys.argv[1]))
got = {f["id"]: f for f in d["findings"] if f["id"].startswith("nccl.diag.")}
want = {"nccl.diag.ecc": "error", "nccl.diag.nvlink": "error", "nccl.diag.xid": "error",
        "nccl.diag.gpu": "warn", "nccl.diag.env": "warn"}
assert {k: got[k]["severity"] for k in got} == want, got.keys()
assert "RAS at 127.0.0.1:%s" % sys.argv[2] in got["nccl.diag.ecc"]["title"], got["nccl.diag.ecc"]
assert d["exit_code"] == 1
PY
done
log=$(cut -d' ' -f2- "$tmp/log_faults")
expect_match "$(echo "$log" | tr '\n' '|')" '^CLIENT PROTOCOL 2\|TIMEOUT 1\|SET FORMAT json\|STATUS\|CLIENT PROTOCOL 2\|TIMEOUT 1\|DIAGNOSTICS\|$' \
	"STATUS first, then DIAGNOSTICS on a connection of its own"
[ "$(grep -c DIAGNOSTICS "$tmp/log_faults")" = 1 ] && pass "asked once, by rank 0 only" \
	|| fail "DIAGNOSTICS asked $(grep -c DIAGNOSTICS "$tmp/log_faults") times"

# clean diagnostics: a passed check, exit 0
one_status "$FX/diag_clean.json" "$tmp/clean.json"
serve "$tmp/clean.json"
out=$(NCCL_RAS_ADDR=127.0.0.1:$port one --with-ras --json 2>/dev/null); rc=$?
expect_rc 0 $rc "clean diagnostics"
expect_match "$out" '"id": "nccl.diag.consistent"' "clean diagnostics said"

# BUSY: a note whose fix runs cluster again
one_status "$FX/diag_busy.json" "$tmp/busy.json"
serve "$tmp/busy.json"
out=$(NCCL_RAS_ADDR=127.0.0.1:$port one --with-ras 2>&1); rc=$?
expect_rc 0 $rc "diagnostics busy: a note"
expect_match "$out" 'nccl\.diag\.busy' "BUSY said"
expect_match "$out" 'ncclcheck cluster --with-ras +# again' "the fix runs cluster --with-ras again"

# NCCL 2.28.9: no DIAGNOSTICS command; not asked, and why
serve "$FX/equal.json" --log "$tmp/log_old"
out=$(NCCL_RAS_ADDR=127.0.0.1:$port one --with-ras 2>&1); rc=$?
expect_rc 0 $rc "older NCCL: exit unaffected"
expect_match "$out" 'nccl\.diag\.unavailable' "older NCCL: unavailable"
expect_match "$out" 'NCCL 2\.28\.9 answers RAS, but its DIAGNOSTICS command came with NCCL 2\.31' \
	"the reason is given"
expect_no_match "$(cat "$tmp/log_old")" 'DIAGNOSTICS' "an older NCCL is not sent DIAGNOSTICS"

# nothing listening: one info finding naming where it asked, exit as without --with-ras
one >/dev/null 2>&1; base=$?
expect_rc 0 $base "without --with-ras"
out=$(NCCL_RAS_ADDR=127.0.0.1:1 one --with-ras 2>&1); rc=$?
expect_rc "$base" $rc "nothing listening: exit unaffected"
expect_match "$out" '^info +NCCL.s own diagnostics were not asked +\(nccl\.diag\.unavailable\)' \
	"nothing listening: an info finding"
expect_match "$out" 'cannot connect to the RAS service at 127\.0\.0\.1:1 .*NCCL_RAS_ENABLE' \
	"where it asked, and why nothing may answer"
expect_no_match "$out" '^ERROR' "nothing listening: no error"
[ "$(echo "$out" | grep -c 'nccl\.diag\.')" = 1 ] && pass "one finding" || fail "more than one nccl.diag finding"

# a server that accepts and never answers: bounded, one info finding
serve "$FX/diag_faults.json" --mode freeze
start=$(date +%s)
out=$(NCCL_RAS_ADDR=127.0.0.1:$port one --with-ras 2>&1); rc=$?
took=$(( $(date +%s) - start ))
expect_rc "$base" $rc "a frozen server: exit unaffected"
expect_match "$out" 'nccl\.diag\.unavailable' "a frozen server: unavailable said"
# the bound is 6.5 s; 20 s is slack for a loaded CI box, a hang would last until ctest's timeout
if [ $took -le 20 ]; then pass "a frozen server: bounded (${took}s)"; else fail "a frozen server took ${took}s"; fi

# a bad NCCL_RAS_ADDR is a usage error, the default is documented
NCCL_RAS_ADDR='a b' one --with-ras >/dev/null 2>&1; expect_rc 2 $? "bad NCCL_RAS_ADDR refused"
"$NCCLCHECK" cluster --help | grep -q 'with-ras'; expect_rc 0 $? "--help lists --with-ras"
finish
