#!/bin/bash
# lab status reads the faults back from each node's kernel (iptables -S, tc qdisc show, link
# MTUs, the port range) and says when they are no longer the plan recorded at 'lab up': a
# flushed rule, an MTU put back, a qdisc added by hand, another ip_local_port_range.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use pcs1

"$NCCLCHECK" lab up --nodes 2 --scenario mtu-blackhole --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up mtu-blackhole"
out=$("$NCCLCHECK" lab status --prefix $LAB_PREFIX); expect_rc 0 $? "status"
expect_match "$out" "in the kernel now" "status has a kernel section"
expect_match "$out" "$LAB_PREFIX-rtr +iptables -A OUTPUT -p icmp -m icmp --icmp-type 3/4 -j DROP" \
	"the router's rule as iptables -S prints it"
expect_match "$out" "$LAB_PREFIX-n1 +eth1 mtu 9000" "n1's jumbo eth1 read from the kernel"
expect_match "$out" "the kernel matches the plan" "untouched: matches"

# change the lab behind its back
lx rtr "$IPTABLES" -F OUTPUT
lx n1 ip link set dev eth1 mtu 1500
lx n0 tc qdisc add dev eth0 root tbf rate 10mbit burst 32kb latency 50ms
lx n1 sysctl -q -w net.ipv4.ip_local_port_range="40000 40100"
out=$("$NCCLCHECK" lab status --prefix $LAB_PREFIX)
expect_match "$out" "the kernel differs from the plan" "status notices"
expect_match "$out" "$LAB_PREFIX-rtr has 1 iptables rule, the plan 2" "a flushed chain"
expect_match "$out" "$LAB_PREFIX-n1 eth1 has MTU 1500, the plan 9000" "an MTU put back"
expect_match "$out" "$LAB_PREFIX-n0 has 1 shaping qdisc, the plan 0" "a qdisc added by hand"
expect_match "$out" "$LAB_PREFIX-n0 +tc qdisc tbf .* dev eth0 root" "the qdisc as tc shows it"
expect_match "$out" "$LAB_PREFIX-n1 ip_local_port_range is 40000 40100, the plan 32768 60999" "a port range changed"
expect_no_match "$out" "$LAB_PREFIX-n1 +eth1 mtu 9000" "the old MTU is not shown as current"
"$NCCLCHECK" lab status --prefix $LAB_PREFIX --json > "$LAB_TMP/st.json"; expect_rc 0 $? "status --json"
out=$("$PY" -c 'import json,sys; l=json.load(open(sys.argv[1]))["labs"][0]; print(len(l["kernel_differs"]), [k["mtu"]["eth1"] for k in l["kernel"] if k["netns"]==sys.argv[2]+"-n1"][0])' "$LAB_TMP/st.json" "$LAB_PREFIX")
expect_match "$out" "^4 1500$" "JSON: four differences, n1's eth1 at 1500"

# someone without root sees the plan and why the kernel was not read
if command -v setpriv >/dev/null; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$NCCLCHECK" lab status --prefix $LAB_PREFIX 2>&1)
	expect_rc 0 $? "status as nobody"
	expect_match "$out" "in the kernel now: not read" "as nobody: says it could not read the kernel"
fi
"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
lab_gone $LAB_PREFIX
finish
