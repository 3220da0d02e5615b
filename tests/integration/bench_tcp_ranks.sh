#!/bin/bash
# bench's ranks from the launch options every multi-node verb shares (--master, --nodes,
# --node-rank, --nproc-per-node), real processes over loopback: '--nodes 2 --node-rank R' runs
# exactly as the old '--world 2 --rank R' (same report, same JSON document), which still works
# with a note; --nproc-per-node N makes N ranks per node, each its LOCAL_RANK. The token is
# cluster's (--token-file or $NCCLCHECK_TOKEN): a rank with another one is refused and named.
set -u
. "$SRCDIR/tests/integration/lib.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
SWEEP="-b 64K -e 256K -f 4 -n 2"

# pair NAME RANKFLAG0 RANKFLAG1 [bench args]: rank 1 in the background, rank 0 in front
pair() {
	local name=$1 r0=$2 r1=$3 port; shift 3
	port=$(free_port)
	timeout 60 "$NCCLCHECK" bench allreduce --backend tcp $r1 --master 127.0.0.1:$port $SWEEP "$@" \
		>"$T/$name.1" 2>"$T/$name.e1" &
	local p1=$!
	timeout 60 "$NCCLCHECK" bench allreduce --backend tcp $r0 --master 127.0.0.1:$port $SWEEP "$@" \
		>"$T/$name.0" 2>"$T/$name.e0"
	expect_rc 0 $? "$name: rank 0"
	wait $p1; expect_rc 0 $? "$name: rank 1"
}
# the report without what differs from run to run: figures (and the padding that follows their
# width), pids
masked() { sed -E -e 's/Pid +[0-9]+/Pid P/' -e 's/[0-9]+\.[0-9]+/F/g' -e 's/ +/ /g' "$1"; }

pair new "--nodes 2 --node-rank 0" "--nodes 2 --node-rank 1"
out=$(cat "$T/new.0")
expect_match "$out" "#  Rank  1 Group  0 Pid +[0-9]+ on" "two ranks"
expect_match "$out" "# Out of bounds values : 0 OK" "exact"
[ -s "$T/new.1" ] && fail "rank 1 printed a report" || pass "only rank 0 reports"
expect_no_match "$(cat "$T/new.e0" "$T/new.e1")" "note" "the new spelling takes no note"

pair old "--world 2 --rank 0" "--rank 1 --world 2"
expect_match "$(cat "$T/old.e1")" "note: 'bench --rank' is the old spelling of '--node-rank'" \
	"--rank: a note"
expect_match "$(cat "$T/old.e0")" "note: 'bench --world' is the old spelling of '--nodes'" \
	"--world: a note"
[ "$(masked "$T/new.0")" = "$(masked "$T/old.0")" ] && pass "same report as --world/--rank" ||
	fail "reports differ: $(diff <(masked "$T/new.0") <(masked "$T/old.0"))"

# in Chinese (#28): nccl-tests' own lines as nccl-tests prints them (scripts grep "# Avg bus
# bandwidth" and parse the columns), every line of ncclcheck's own prose (the banner, the CPU
# device's name, the link ceiling under the footer) Chinese (tests/integration/zh_lines.py)
LANG=zh_CN.UTF-8 LC_ALL= pair zh "--nodes 2 --node-rank 0" "--nodes 2 --node-rank 1"
zh=$(cat "$T/zh.0")
bad=$(python3 "$SRCDIR/tests/integration/zh_lines.py" "$T/zh.0" | grep ': English: ')
[ -z "$bad" ] && pass "no English prose in bench's Chinese report" ||
	fail "English prose in bench's Chinese report:$(printf '\n%s' "$bad")"
expect_match "$zh" "^# ncclcheck .* bench，nccl-tests 格式，后端 tcp" "the banner is Chinese"
expect_match "$zh" "^# 链路上限" "the link ceiling lines are Chinese"
expect_match "$zh" "每个邻居 4 个 socket$" "the CPU device's name is Chinese"
# the nccl-tests lines are the English report's, figures and pids aside
nt() { masked "$1" | grep -E '^# (nThread|Collective test|Using devices|Out of bounds|Avg bus| size)|^ [0-9]+ [0-9]+ ' |
	sed -E 's/(Avg bus bandwidth : )[0-9.e+-]+/\1F/'; }
[ -n "$(nt "$T/zh.0")" ] && [ "$(nt "$T/zh.0")" = "$(nt "$T/new.0")" ] &&
	pass "nccl-tests' own lines are the same in Chinese" ||
	fail "nccl-tests' lines differ in Chinese: $(diff <(nt "$T/new.0") <(nt "$T/zh.0"))"
bad=$(python3 "$SRCDIR/tests/integration/zh_lines.py" "$T/new.0" | grep -c ': English: ')
[ "$bad" -gt 0 ] && pass "the check sees English prose in the English report ($bad lines)" ||
	fail "zh_lines.py finds no English prose in the English report: the check cannot fail"

# the JSON documents: the same but for the figures
pair newj "--nodes 2 --node-rank 0" "--nodes 2 --node-rank 1" --json
pair oldj "--world 2 --rank 0" "--world 2 --rank 1" --json
shape() { python3 - "$1" <<'PY'
import json, sys
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("pid",)}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return type(x).__name__ if isinstance(x, float) else x
d = json.load(open(sys.argv[1]))
print(json.dumps(strip(d), sort_keys=True))
PY
}
a=$(shape "$T/newj.0"); b=$(shape "$T/oldj.0")
[ -n "$a" ] && [ "$a" = "$b" ] && pass "same JSON document" || fail "JSON documents differ"
expect_match "$a" '"verb": "bench"' "the document is bench's"

# the flags win over the launcher's environment, as before
port=$(free_port)
env RANK=7 WORLD_SIZE=9 timeout 60 "$NCCLCHECK" bench allreduce --nodes 2 --node-rank 1 \
	--master 127.0.0.1:$port $SWEEP >/dev/null 2>&1 &
p1=$!
out=$(env RANK=3 WORLD_SIZE=9 timeout 60 "$NCCLCHECK" bench allreduce --nodes 2 --node-rank 0 \
	--master 127.0.0.1:$port $SWEEP 2>&1)
expect_rc 0 $? "flags over RANK/WORLD_SIZE"
wait $p1; expect_rc 0 $? "flags over RANK/WORLD_SIZE: rank 1"

# --nproc-per-node 2 on 2 "nodes": 4 ranks, node rank R's LOCAL_RANK L is rank 2R+L
port=$(free_port); pids=
for nl in "1 1" "1 0" "0 1"; do
	set -- $nl
	LOCAL_RANK=$2 timeout 60 "$NCCLCHECK" bench allreduce --nodes 2 --node-rank $1 \
		--nproc-per-node 2 --master 127.0.0.1:$port $SWEEP >/dev/null 2>"$T/np.$1$2" &
	pids="$pids $!"
done
out=$(LOCAL_RANK=0 timeout 60 "$NCCLCHECK" bench allreduce --nodes 2 --node-rank 0 \
	--nproc-per-node 2 --master 127.0.0.1:$port $SWEEP 2>&1)
expect_rc 0 $? "--nproc-per-node 2: rank 0"
for p in $pids; do wait $p; expect_rc 0 $? "--nproc-per-node 2: another rank"; done
expect_match "$out" "#  Rank  3 Group  0 Pid" "2 nodes x 2 processes = 4 ranks"
expect_match "$out" "# Out of bounds values : 0 OK" "4 ranks exact"

# the token as cluster takes it: --token-file on one rank, $NCCLCHECK_TOKEN on the other
echo "bench-token-0123456789abcdef0123" >"$T/tok"
port=$(free_port)
NCCLCHECK_TOKEN=bench-token-0123456789abcdef0123 timeout 60 "$NCCLCHECK" bench allreduce --nodes 2 \
	--node-rank 1 --master 127.0.0.1:$port $SWEEP >/dev/null 2>&1 &
p1=$!
out=$(timeout 60 "$NCCLCHECK" bench allreduce --nodes 2 --node-rank 0 --master 127.0.0.1:$port \
	--token-file "$T/tok" $SWEEP 2>&1)
expect_rc 0 $? "the same token on both ranks"
wait $p1; expect_rc 0 $? "the same token: rank 1"
# a wrong token is refused: rank 0 names the missing rank and why, rank 1 the refusal
port=$(free_port)
NCCLCHECK_TOKEN=wrong-token-0123456789abcdef0123 timeout 60 "$NCCLCHECK" bench allreduce --nodes 2 \
	--node-rank 1 --master 127.0.0.1:$port -T 3 $SWEEP >/dev/null 2>"$T/tok.e1" &
p1=$!
err=$(timeout 60 "$NCCLCHECK" bench allreduce --nodes 2 --node-rank 0 --master 127.0.0.1:$port \
	--token-file "$T/tok" -T 3 $SWEEP 2>&1 >/dev/null)
expect_rc 3 $? "a wrong token: rank 0 cannot run"
expect_match "$err" "1 of 2 ranks joined in 3 s; missing rank 1; rank 1: .*wrong token" \
	"a wrong token: rank 0 names rank 1 and why"
wait $p1; expect_rc 3 $? "a wrong token: rank 1 cannot run"
expect_match "$(cat "$T/tok.e1")" "the token does not match" "a wrong token: rank 1 says so"
err=$("$NCCLCHECK" bench allreduce --nodes 2 --node-rank 0 --master 127.0.0.1:1 \
	--token-file "$T/none" 2>&1 >/dev/null)
expect_rc 2 $? "an unreadable token file"
expect_match "$err" "cannot read the token file" "says which file"

err=$(env -u LOCAL_RANK "$NCCLCHECK" bench allreduce --nodes 2 --node-rank 0 --nproc-per-node 2 \
	--master 127.0.0.1:1 2>&1 >/dev/null)
expect_rc 2 $? "--nproc-per-node 2 without LOCAL_RANK"
expect_match "$err" "LOCAL_RANK must be 0..1" "says which variable"
err=$("$NCCLCHECK" bench allreduce --nodes 2 --node-rank 2 --master 127.0.0.1:1 2>&1 >/dev/null)
expect_rc 2 $? "--node-rank beyond --nodes"
expect_match "$err" "rank 2 does not fit a world of 2" "says why"
err=$("$NCCLCHECK" bench allreduce --nodes 2 --master 127.0.0.1:99999 2>&1 >/dev/null)
expect_rc 2 $? "--master port out of range"
finish
