#!/bin/bash
# link tests on cloud-public-blocked and cloud-public-reject: TCP between the public eth0
# addresses times out (DROP) or is refused (REJECT) in both directions, eth1 connects; the
# findings say which, per pair and interface.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_link.sh"

for sc in cloud-public-blocked cloud-public-reject; do
	t=lk1; [ "$sc" = cloud-public-reject ] && t=lk2
	lab_use $t
	P=$LAB_PREFIX
	"$NCCLCHECK" lab up --nodes 2 --scenario $sc --prefix $P >/dev/null
	expect_rc 0 $? "lab up $sc"
	p2p_serve n0 10.10.0.10 || finish
	p2p_serve n1 10.10.0.11 || finish
	if [ $sc = cloud-public-blocked ]; then st=timeout; else st=refused; fi
	for dir in "n1 10.10.0.10 203.0.113.10 n0" "n0 10.10.0.11 203.0.113.11 n1"; do
		set -- $dir
		p2p "$1" "$LAB_TMP/e0.json" --connect "$2:$CTL_PORT" --addr "$3" --tests connect \
			--timeout 1s
		expect_rc 1 $rc "$sc: $1 -> $4 over eth0 is an error finding"
		expect_py "$LAB_TMP/e0.json" "r[0]['status'] == '$st'" "$sc: $1 -> $4 eth0 ($3): $st"
		expect_py "$LAB_TMP/e0.json" "'link.connect.$st' in ids and f('link.connect.$st')['ifname'] == 'eth0'" \
			"$sc: link.connect.$st names eth0"
		# bounded by the 1 s connect timeout, with slack for a loaded 2-core CI box
		[ $wall_ms -lt 15000 ] && pass "$sc: verdict in $wall_ms ms" || fail "$sc: $wall_ms ms"
		p2p "$1" "$LAB_TMP/e1.json" --connect "$2:$CTL_PORT" --tests connect,mtu
		expect_rc 0 $rc "$sc: $1 -> $4 over eth1 passes"
		expect_py "$LAB_TMP/e1.json" "r[0]['status'] == 'ok' and r[0]['pings'] == 100 and r[0]['rtt_us']['p50'] > 0" \
			"$sc: eth1 connects, 100 pings timed"
		expect_py "$LAB_TMP/e1.json" "f('link.connect.ok')['ifname'] == 'eth1'" "$sc: eth1 ok finding"
	done
	"$NCCLCHECK" lab down --prefix $P >/dev/null
done
finish
