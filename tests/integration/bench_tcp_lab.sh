#!/bin/bash
# bench --backend tcp across 2 and 4 lab nodes (one process per node, launched with the lab's
# MASTER_ADDR/NODE_RANK/NNODES): exact results in nccl-tests' format, rank 0 prints, and a rank
# killed mid-benchmark is named within 5 s by the others, who exit 3 instead of hanging.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use co1

"$NCCLCHECK" lab up --nodes 4 --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up, 4 nodes"

# run N [bench args]: every node 0..N-1 runs the same command; outputs in $LAB_TMP/out.<i>
run() {
	local n=$1 pids="" i; shift
	for i in $(seq $((n - 1)) -1 0); do
		lx "n$i" env NNODES="$n" WORLD_SIZE="$n" timeout 60 "$NCCLCHECK" bench allreduce \
			--backend tcp "$@" >"$LAB_TMP/out.$i" 2>"$LAB_TMP/err.$i" &
		pids="$pids $!"
	done
	RCS=""
	for p in $pids; do wait "$p"; RCS="$RCS $?"; done
}

for n in 2 4; do
	run "$n" -b 1K -e 4M -f 4 -n 3
	expect_match "$RCS" "^( 0)+$" "$n nodes: every rank exits 0 (rc:$RCS)"
	out=$(cat "$LAB_TMP/out.0")
	expect_match "$out" "# Out of bounds values : 0 OK" "$n nodes: every element exact"
	expect_match "$out" "#  Rank  $((n - 1)) Group  0 Pid" "$n nodes: all $n ranks listed"
	expect_match "$out" "     4194304       1048576     float     sum      -1 " "$n nodes: 4 MB row"
	expect_match "$out" "# Avg bus bandwidth    : [0-9.]+" "$n nodes: footer"
	[ ! -s "$LAB_TMP/out.1" ] && pass "$n nodes: only rank 0 prints" || fail "rank 1 printed"
done

# other types, ops and collectives over 3 nodes; 3 stripes
for args in "-d double -o max" "-d int32 -o min" "-d bfloat16" "-d half -o prod"; do
	run 3 -b 999 -e 999 -n 2 --stripes 3 $args
	expect_match "$(cat "$LAB_TMP/out.0")" "# Out of bounds values : 0 OK" "3 nodes, $args: exact"
done
for c in allgather broadcast; do
	for i in 2 1 0; do
		lx "n$i" env NNODES=3 WORLD_SIZE=3 timeout 60 "$NCCLCHECK" bench $c -b 64K -e 1M -f 4 -n 2 -r 1 \
			>"$LAB_TMP/out.$i" 2>&1 &
	done
	wait
	expect_match "$(cat "$LAB_TMP/out.0")" "# Out of bounds values : 0 OK" "3 nodes, $c exact"
done

# JSON
run 2 -b 1M -e 1M -n 2 --json
v=$("$PY" -c 'import json,sys; d=json.load(sys.stdin); b=d["bench"]; print(b["test"], len(b["results"]), b["out_of_bounds"]["count"], d["exit_code"])' <"$LAB_TMP/out.0")
expect_match "$v" "^all_reduce_perf 1 0 0$" "--json: nccl-tests' results and out_of_bounds ($v)"

# the link ceiling: a veth's speed is nominal, so no verdict and no finding ...
run 2 -b 1M -e 1M -n 2
out=$(cat "$LAB_TMP/out.0")
nxt=$(printf '%s\n' "$out" | grep -A1 "^# Avg bus bandwidth" | tail -1)
expect_match "$nxt" "^# Link ceiling, rank 0 \($LAB_PREFIX-n0\) eth1: ceiling unknown \(eth1 is a software link" \
	"ceiling: right after Avg bus bandwidth, unknown on the veth, and why"
expect_match "$out" "# Link ceiling: unknown on every link, no verdict" "ceiling: no verdict"
expect_no_match "$out" "link.bw.low" "ceiling: no finding for a nominal speed"
# ... and a real NIC's 100 Gbit/s (a sysfs tree with a device) is far above the veth's busbw
SYSR="$LAB_TMP/sys"
mkdir -p "$SYSR/class/net/eth1/device"
echo 100000 >"$SYSR/class/net/eth1/speed"
echo 1500 >"$SYSR/class/net/eth1/mtu"
run2() {
	local i
	for i in 1 0; do
		lx "n$i" env NNODES=2 WORLD_SIZE=2 NCCLCHECK_SYS_ROOT="$SYSR" timeout 60 "$NCCLCHECK" \
			bench allreduce -b 1M -e 1M -n 2 "$@" >"$LAB_TMP/out.$i" 2>"$LAB_TMP/err.$i" &
	done
	wait
}
run2
out=$(cat "$LAB_TMP/out.0")
expect_match "$out" "# Link ceiling, rank 1 \($LAB_PREFIX-n1\) eth1: line rate 100 Gbit/s \(sysfs\), MTU 1500: TCP goodput <= 94.15 Gbit/s; busbw [0-9.]+ Gbit/s = [0-9.]+ % of it" \
	"ceiling: line rate, goodput and % per link"
expect_match "$out" "under 60 %, see link.bw.low" "ceiling: verdict under 60 %"
expect_match "$out" "warn +$LAB_PREFIX-n0 -> $LAB_PREFIX-n1 over eth1: .*link.bw.low" "ceiling: finding names host, peer and link"
run2 --json
v=$("$PY" -c 'import json,sys; d=json.load(sys.stdin); c=d["bench"]["ceiling"]; f=[x for x in d["findings"] if x["id"]=="link.bw.low"]
print(c["verdict"], len(c["links"]), c["links"][0]["tcp_goodput_gbps"] > 94, c["lowest"]["ifname"], len(f), d["exit_code"])' <"$LAB_TMP/out.0")
expect_match "$v" "^low 2 True eth1 1 0$" "--json: bench.ceiling and link.bw.low ($v)"

# a rank that dies mid-benchmark is named within 5 s, nobody hangs
for i in 3 2 1 0; do
	lx "n$i" env NNODES=4 WORLD_SIZE=4 timeout 60 "$NCCLCHECK" bench allreduce -b 64M -e 64M -n 200 -c 0 \
		>"$LAB_TMP/out.$i" 2>"$LAB_TMP/err.$i" &
	eval "P$i=$!"
done
for _ in $(seq 100); do grep -q 'Rank  3' "$LAB_TMP/out.0" 2>/dev/null && break; sleep 0.1; done
sleep 1
victim=$(ip netns pids $LAB_PREFIX-n2 | while read -r p; do
	[ "$(cat /proc/"$p"/comm 2>/dev/null)" = ncclcheck ] && echo "$p"; done | head -1)
if [ -n "$victim" ]; then
	t0=$(date +%s.%N)
	kill -9 "$victim"
	wait "$P0"; rc0=$?
	t1=$(date +%s.%N)
	wait "$P1" "$P3"
	dt=$(echo "$t1 - $t0" | bc)
	expect_rc 3 "$rc0" "rank 0 exits 3 after rank 2 was killed"
	expect_match "$(cat "$LAB_TMP/err.0")" "rank 2 \(10\.10\.0\.12\)" "rank 0 names rank 2 and its address"
	expect_match "$(cat "$LAB_TMP/err.1" "$LAB_TMP/err.3")" "rank 2" "ranks 1 and 3 name rank 2"
	# bounded, not fast (slack for a loaded 2-core CI box)
	[ "$(echo "$dt < 20" | bc)" = 1 ] && pass "named within 20 s (${dt}s)" || fail "took ${dt}s"
	wait "$P2" 2>/dev/null
else
	fail "no bench process found on n2 to kill"
	wait
fi

# a rank that never comes is named at the join deadline
lx n1 env NNODES=3 WORLD_SIZE=3 timeout 20 "$NCCLCHECK" bench allreduce -T 2 -b 1K -e 1K >/dev/null 2>&1 &
lx n0 env NNODES=3 WORLD_SIZE=3 timeout 20 "$NCCLCHECK" bench allreduce -T 2 -b 1K -e 1K >"$LAB_TMP/out.0" 2>"$LAB_TMP/err.0"
expect_rc 3 $? "a missing rank: exit 3"
expect_match "$(cat "$LAB_TMP/err.0")" "2 of 3 ranks joined in 2 s; missing rank 2" "names the missing rank"
wait

"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
finish
