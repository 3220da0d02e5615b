#!/bin/bash
# link tests on healthy: every test passes on both interfaces in both directions — connect with
# latency, the whole ephemeral range open, the full MTU, bandwidth — with exit 0 and only "ok"
# findings.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_link.sh"
lab_use lk6

"$NCCLCHECK" lab up --nodes 2 --scenario healthy --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up healthy"
p2p_serve n0 10.10.0.10 || finish
p2p_serve n1 10.10.0.11 || finish
for dir in "n1 10.10.0.10 n0 10" "n0 10.10.0.11 n1 11"; do
	set -- $dir
	for ifn in eth0 eth1; do
		addr=10.10.0.$4; [ $ifn = eth0 ] && addr=203.0.113.$4
		p2p "$1" "$LAB_TMP/h.json" --connect "$2:$CTL_PORT" --addr $addr \
			--tests connect,scan,mtu,bw --duration 1s
		expect_rc 0 $rc "$1 -> $3 over $ifn: every test passes"
		J=$LAB_TMP/h.json
		expect_py $J "[x['kind'] for x in r] == ['connect', 'scan', 'mtu', 'bw']" "$ifn: four results"
		expect_py $J "r[0]['status'] == 'ok' and r[0]['rtt_us']['p99'] >= r[0]['rtt_us']['p50'] > 0" "$ifn: connect + latency"
		expect_py $J "r[1]['intervals'] == [{'lo': 32768, 'hi': 60999, 'state': 'open'}]" "$ifn: 32768-60999 open"
		expect_py $J "r[2]['path_mtu'] == r[2]['if_mtu'] == 1500" "$ifn: path MTU 1500"
		# moves data, uncapped: 0.3 is 3x the slow-link cap; a loaded debug box gives under 1
		expect_py $J "r[3]['total_gbps'] > 0.3 and r[3]['stalled'] == 0" "$ifn: bandwidth $(jq_py $J "round(r[3]['total_gbps'], 1)") Gbit/s"
		expect_py $J "set(x['severity'] for x in d['findings']) == {'ok'} and len(d['findings']) == 4" "$ifn: four ok findings"
		expect_py $J "all(x['ifname'] == '$ifn' for x in d['findings'])" "$ifn: named in every finding"
		# bounded, not fast: speed is bench/link_p2p.sh's (slack for a loaded 2-core CI box)
		[ $wall_ms -lt 30000 ] && pass "$ifn: $wall_ms ms" || fail "$ifn: $wall_ms ms"
	done
done
"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
finish
