#!/bin/bash
# cluster settles each node's own guesses by the link tests (issue #9): on real lab runs, what
# 'ncclcheck node' can only suspect is confirmed (kept, an error, the link test in its evidence,
# counted in the exit code) or withdrawn (only in nodes[].settled[], never in the text).
#   healthy:               the lab nodes' master_mismatch guess withdrawn; no container-bridge
#                          guess at all (a lab node is a network namespace, not a bridged container)
#   healthy + eth1 at 9000 on every node and the switch: net.mtu.jumbo withdrawn
#   mtu-blackhole:         net.mtu.jumbo confirmed by the path MTU test, an error
#   cloud-public-blocked:  net.bootstrap.master_mismatch and net.firewall.blocks confirmed
#   docker0-duplicate with NCCL_SOCKET_IFNAME=^lo: net.ifname.docker_eligible confirmed
# ctest: run alone
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use sg1
P=$LAB_PREFIX

# pair SCENARIO OUT [ENV...]: lab up SCENARIO (unless SCENARIO is "-"), both nodes run cluster at
# once; rank 0's output in $LAB_TMP/OUT.{json,txt} (--json when OUT ends in j, else -v: the text
# shows the node checks and how they were settled only with -v), rc in OUT.rc
pair() {
	local sc=$1 out=$2; shift 2
	local fmt=(-v) ext=txt
	if [ "$sc" != - ]; then
		"$NCCLCHECK" lab up --nodes 2 --scenario "$sc" --prefix $P --force >/dev/null 2>&1 ||
			{ fail "lab up $sc"; return 1; }
	fi
	[[ $out == *j ]] && { fmt=(--json); ext=json; }
	( timeout 120 "$NCCLCHECK" lab exec $P-n1 -- env "$@" "$NCCLCHECK" cluster --no-python --no-bw \
		"${fmt[@]}" >/dev/null 2>&1 ) &
	local w=$!
	timeout 120 "$NCCLCHECK" lab exec $P-n0 -- env "$@" "$NCCLCHECK" cluster --no-python --no-bw \
		"${fmt[@]}" >"$LAB_TMP/$out.$ext" 2>/dev/null
	echo $? >"$LAB_TMP/$out.rc"
	wait $w
}
# q OUT EXPR: a Python expression over d (the document), st(node, id) (its settled[] entry),
# nf(node, id) (its findings with that id), node = 0 or 1
q() {
	"$PY" - "$LAB_TMP/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def st(n, i):
    e = [x for x in d["nodes"][n].get("settled", []) if x["id"] == i]
    return e[0] if e else {}
def nf(n, i):
    return [x for x in d["nodes"][n].get("findings", []) if x["id"] == i]
print(eval(sys.argv[2]))
PY
}
expect_q() { expect_match "$(q "$1" "$2" 2>&1)" "^$3\$" "$4"; }

# ---- withdrawn: the healthy lab ----
pair healthy hj
expect_rc 0 "$(cat "$LAB_TMP/hj.rc")" "healthy: exit 0"
for n in 0 1; do
	expect_q hj "st($n, 'net.bootstrap.master_mismatch').get('verdict')" withdrawn \
		"healthy n$n: master_mismatch (eth0 is not MASTER_ADDR's eth1) withdrawn"
	expect_q hj "nf($n, 'net.bootstrap.master_mismatch')" '\[\]' "  and gone from n$n's findings"
	expect_q hj "st($n, 'cloud.container.bridge'), nf($n, 'cloud.container.bridge')" '\(\{\}, \[\]\)' \
		"healthy n$n: no container-bridge guess (a network namespace, not a bridged container)"
done
expect_q hj "'the connect test and the port scan' in st(0, 'net.bootstrap.master_mismatch')['evidence'] and '203.0.113.10' in st(0, 'net.bootstrap.master_mismatch')['evidence']" True \
	"the withdrawal names the measurement and the address"
expect_q hj "st(0, 'net.bootstrap.master_mismatch')['finding']['severity']" error "settled[] keeps the whole finding"
expect_q hj "all(x.get('verdict') != 'withdrawn' or x['id'] not in [f['id'] for f in d['nodes'][0]['findings']] for x in d['nodes'][0]['settled'])" True \
	"no withdrawn id is left in nodes[].findings"
pair - ht
txt=$(cat "$LAB_TMP/ht.txt")
expect_match "$txt" "settled by the link tests" "text: the node checks are settled"
expect_match "$txt" "$P-n0 +0 confirmed, 1 withdrawn by measurement, 0 unsettled" "text: n0's counts"
if printf '%s\n' "$txt" | grep -q -E "master_mismatch|container.bridge|not yet settled"; then
	fail "text shows a withdrawn finding or the old wording"
else
	pass "text never shows the withdrawn ones"
fi

# ---- withdrawn: jumbo frames that the whole path carries ----
for i in 0 1; do
	"$NCCLCHECK" lab exec $P-n$i -- ip link set eth1 mtu 9000 || fail "n$i eth1 mtu 9000"
	ip netns exec $P-hub ip link set $P-n${i}e1 mtu 9000 || fail "hub $P-n${i}e1 mtu 9000"
done
ip netns exec $P-hub ip link set $P-priv mtu 9000
pair - jj
expect_rc 0 "$(cat "$LAB_TMP/jj.rc")" "jumbo that works: exit 0"
expect_q jj "st(0, 'net.mtu.jumbo').get('verdict')" withdrawn "eth1 at 9000 end to end: net.mtu.jumbo withdrawn"
expect_q jj "'largest packet 9000 bytes' in st(0, 'net.mtu.jumbo')['evidence']" True "  by the path MTU test at 9000 bytes"
expect_q jj "nf(0, 'net.mtu.jumbo')" '\[\]' "  and gone from the findings"

# ---- confirmed: the jumbo MTU through a 1500-byte hop ----
pair mtu-blackhole mj
expect_rc 1 "$(cat "$LAB_TMP/mj.rc")" "mtu-blackhole: exit 1"
expect_q mj "st(0, 'net.mtu.jumbo').get('verdict'), nf(0, 'net.mtu.jumbo')[0]['severity'], nf(0, 'net.mtu.jumbo')[0]['confidence']" \
	"\('confirmed', 'error', 'high'\)" "mtu-blackhole: net.mtu.jumbo confirmed, an error, confidence high"
expect_q mj "any('packets over 1500 bytes vanish' in e and 'path MTU test' in e for e in nf(0, 'net.mtu.jumbo')[0]['evidence'])" True \
	"  its evidence names the path MTU test and the size"
expect_q mj "nf(0, 'net.mtu.jumbo')[0].get('settled'), [x.get('settled') for x in nf(0, 'gpu.driver.absent')]" "\('confirmed', \[None\]\)" \
	"  the finding itself is marked confirmed; one outside the table is not marked"
pair - mt
expect_match "$(cat "$LAB_TMP/mt.txt")" "confirmed error net.mtu.jumbo: eth1" "text lists the confirmed guess"
expect_match "$(cat "$LAB_TMP/mt.txt")" "measured: .*vanish" "  with what was measured"

# ---- confirmed: TCP between the public addresses dropped ----
pair cloud-public-blocked cj
expect_rc 1 "$(cat "$LAB_TMP/cj.rc")" "cloud-public-blocked: exit 1"
expect_q cj "st(1, 'net.bootstrap.master_mismatch').get('verdict'), nf(1, 'net.bootstrap.master_mismatch')[0]['severity']" \
	"\('confirmed', 'error'\)" "cloud-public-blocked n1: master_mismatch confirmed"
expect_q cj "'eth0 203.0.113.11' in st(1, 'net.bootstrap.master_mismatch')['evidence'] and 'timeout (the connect test)' in st(1, 'net.bootstrap.master_mismatch')['evidence']" True \
	"  the pair, the interface and the connect test named"
expect_q cj "st(0, 'net.firewall.blocks').get('verdict'), 'dropped (the port scan' in st(0, 'net.firewall.blocks')['evidence']" \
	"\('confirmed', True\)" "n0's local DROP rule confirmed by the exact port scan"
# eth0's DROP covers 29500 too, but MASTER_ADDR is on eth1 and the ranks joined over it
expect_q cj "st(0, 'net.firewall.master_port'), nf(0, 'net.firewall.master_port')" '\(\{\}, \[\]\)' \
	"no claim that eth0's rule stops the ranks joining (they joined over eth1)"

# ---- confirmed: docker0 left in by an exclude list, 172.17.0.1 on every node ----
pair docker0-duplicate dj NCCL_SOCKET_IFNAME=^lo
expect_q dj "st(0, 'net.ifname.docker_eligible').get('verdict')" confirmed \
	"docker0-duplicate with NCCL_SOCKET_IFNAME=^lo: net.ifname.docker_eligible confirmed"
expect_q dj "'172.17.0.1' in st(0, 'net.ifname.docker_eligible')['evidence'] and 'reaches itself' in st(0, 'net.ifname.docker_eligible')['evidence']" True \
	"  by the address both nodes have"

"$NCCLCHECK" lab down --prefix $P >/dev/null
lab_gone $P
finish
