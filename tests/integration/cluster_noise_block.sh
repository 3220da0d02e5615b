#!/bin/bash
# cluster: n1 (not the master) drops inbound TCP to ports 40000-44999 on eth1 (a part of its
# ephemeral range). Exactly one root cause: link.ports.blocked "n1 drops TCP ports 40000-44999
# on eth1; NCCL's listener lands there in 18 % of starts" with the ip_local_port_range fix for
# n1 — never "interface unreachable", never a port block on n0 or n2 (whose scans from n1 lose
# the replies to n1's own source ports in that range: looked at again from a source port
# whose replies came back). The connect test records the filtered port and the one it used.
# ctest: run alone
# ctest: timeout 900
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_noise.sh"
lab_use nblk
NOISE_ARGS=(--no-bw)
[ "${NOISE_BW:-0}" = 1 ] && NOISE_ARGS=()
noise_up
lx n1 "$IPTABLES" -I INPUT -i eth1 -p tcp --dport 40000:44999 -j DROP
expect_rc 0 $? "n1 drops 40000-44999 on eth1"

for run in $(seq "${NOISE_REPEATS:-1}"); do
	noise_run "partial block (run $run)"
	noise_same_rc 1
	expect_nq '[f["id"] for f in E] in (["link.ports.range"], ["link.ports.blocked"])' True \
		"exactly one error that counts: the port block (link.ports.range or .blocked)"
	expect_nq 'E[0]["node"] == P + "-n1" and E[0]["ifname"] == "eth1"' True \
		"it is about n1's eth1"
	expect_nq '"drops TCP ports 40000-44999 on eth1" in E[0]["title"]' True "it names the range"
	expect_nq '[b["node"] for b in B if "drops TCP ports 40000-44999 on eth1; NCCL\x27s listener lands there in 18 % of starts" in b["title"]]' \
		"\['$LAB_PREFIX-n1'\]" "one link.ports.blocked about n1 states NCCL's odds"
	expect_nq 'any("ip_local_port_range=\"45000 60999\"" in x for b in B for x in b["fix"])' True \
		"its fix is the port range sysctl on n1"
	expect_nq 'sorted({s["node"] for b in B for s in b.get("settings", []) if s["name"] == "net.ipv4.ip_local_port_range"})' \
		"\['$LAB_PREFIX-n1'\]" "its setting is for n1 only"
	noise_no_innocent
	expect_nq '[f["id"] for f in F if f["id"] in ("cluster.link.unreachable", "cluster.verdict.none", "link.mtu.blackhole", "cluster.link.failed") and not f.get("caused_by")]' \
		'\[\]' "no unreachable interface, no verdict.none, no black hole, no failed test (unfolded)"
	# the connect tests to n1's eth1: the filtered port is on record, the one used answered
	expect_nq '{t["status"] for l in d["links"] if l["test"] == "connect" and l["target_name"] == P + "-n1" and l["ifname"] == "eth1" for t in l["result"]["tries"] if 40000 <= t["port"] <= 44999}' \
		"\{'timeout'\}" "the connect test records its port in 40000-44999 as filtered"
	expect_nq 'all(not 40000 <= l["result"]["open_port"] <= 44999 for l in d["links"] if l["test"] == "connect" and l["target_name"] == P + "-n1")' \
		True "and used a port that answered"
done
finish
