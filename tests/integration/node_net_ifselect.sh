#!/bin/bash
# Issue 3 acceptance, in network namespaces this test makes: a "node" with eth0 (public-like
# 203.0.113.10) and eth1 (private 10.0.0.2), a peer namespace on the other end of both links, and
# MASTER_ADDR on eth1. ncclcheck must predict bootstrap on eth0 and give NCCL_SOCKET_IFNAME=eth1
# as the fix; eth9 must match nothing (listing eth0, eth1); ^eth0,lo must be clean. Then the
# version-dependent and prefix cases on the same kind of node.
set -u
. "$SRCDIR/tests/integration/lib.sh"
netns_pair nct3-n$$ nct3-p$$

# veth pairs: eth0/eth1 in the node, p0/p1 in the peer; created in this order so that getifaddrs
# (which NCCL walks) lists eth0 before eth1
ip -n "$NS" link add eth0 type veth peer name p0 netns "$PEER"
ip -n "$NS" link add eth1 type veth peer name p1 netns "$PEER"
ip -n "$NS" addr add 203.0.113.10/24 dev eth0
ip -n "$NS" addr add 10.0.0.2/24 dev eth1
ip -n "$PEER" addr add 203.0.113.1/24 dev p0
ip -n "$PEER" addr add 10.0.0.1/24 dev p1
for l in lo eth0 eth1; do ip -n "$NS" link set "$l" up; done
for l in lo p0 p1; do ip -n "$PEER" link set "$l" up; done
ip -n "$NS" route add default via 203.0.113.1

# waits until the links are RUNNING: IFF_RUNNING follows the operational state, which the kernel
# updates up to a second after the carrier, and NCCL 2.28 skips interfaces that are not RUNNING
wait_running() {
	local i l ok
	for i in $(seq 50); do
		ok=1
		for l in "$@"; do
			ip -n "$NS" link show "$l" | grep -q 'state UP' || ok=0
		done
		[ $ok = 1 ] && return 0
		sleep 0.1
	done
	fail "links $* never came up"
}
wait_running eth0 eth1

# node ENV... : runs `ncclcheck node --json` inside the node namespace with only ENV set
node() {
	ip netns exec "$NS" env -i PATH="$PATH" "$@" "$NCCLCHECK" node --no-python --json > "$tmp/out.json"
	rc=$?
}
# q EXPR: evaluates a Python expression over the JSON (d = document, f = findings by id)
q() {
	python3 - "$tmp/out.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = {}
for x in d["findings"]:
    f.setdefault(x["id"], x)
errors = [x["id"] for x in d["findings"] if x["severity"] == "error"]
net_errors = [i for i in errors if i.startswith(("net.", "nccl."))]
v = eval(sys.argv[2])
print(v if not isinstance(v, bool) else ("yes" if v else "no"))
PY
}
expect_q() { # expr expected what
	local got
	got=$(q "$1" 2>&1)
	if [ "$got" = "$2" ]; then pass "$3"; else fail "$3: got '$got', expected '$2' ($1)"; fi
}

# 1. MASTER_ADDR on eth1, nothing set: NCCL bootstraps on public eth0 -> error, fix eth1
node MASTER_ADDR=10.0.0.1
expect_rc 1 "$rc" "master on eth1, auto selection"
expect_q 'd["facts"]["net"]["master"]["source_ifname"]' eth1 "kernel routes MASTER_ADDR through eth1"
expect_q '"eth0 203.0.113.10" in f["net.nccl.bootstrap"]["title"]' yes "predicted bootstrap on eth0"
expect_q 'f["net.bootstrap.master_mismatch"]["severity"]' error "mismatch is an error"
expect_q '"export NCCL_SOCKET_IFNAME=eth1" in f["net.bootstrap.master_mismatch"]["fix"]' yes "fix is NCCL_SOCKET_IFNAME=eth1"
expect_q '[a["class"] for a in d["facts"]["net"]["ifaddrs"] if a["ifname"] in ("eth0", "eth1") and a["family"] == 4]' \
	"['documentation', 'private']" "address classes"
expect_q '[i["kind"] for i in d["facts"]["net"]["interfaces"] if i["name"] in ("eth0", "eth1")]' \
	"['veth', 'veth']" "veth kind from the driver"
expect_q 'd["facts"]["net"]["default_route"]["ifname"]' eth0 "default route on eth0"

# the same through --master-addr, and in the human report
out=$(ip netns exec "$NS" env -i PATH="$PATH" "$NCCLCHECK" node --no-python --no-color --master-addr 10.0.0.1)
expect_rc 1 $? "--master-addr"
expect_match "$out" "(error|ERROR) +NCCL will bootstrap on eth0 203.0.113.10, but MASTER_ADDR 10.0.0.1 is reached through eth1" "text report title"
expect_match "$out" "fix: +export NCCL_SOCKET_IFNAME=eth1" "text report fix"

# 2. NCCL_SOCKET_IFNAME=eth9: matches nothing, lists the real interfaces
node MASTER_ADDR=10.0.0.1 NCCL_SOCKET_IFNAME=eth9
expect_rc 1 "$rc" "eth9"
expect_q 'f["net.ifname.nomatch"]["severity"]' error "eth9 is an error"
expect_q '"matches no interface" in f["net.ifname.nomatch"]["title"] and "eth0, eth1" in f["net.ifname.nomatch"]["title"]' \
	yes "eth9: 'matches no interface', listing eth0, eth1"
expect_q '"export NCCL_SOCKET_IFNAME=eth1" in " ".join(f["net.ifname.nomatch"]["fix"])' yes "eth9 fix points at eth1"

# 3. ^eth0,lo: bootstrap on eth1, no network error
node MASTER_ADDR=10.0.0.1 'NCCL_SOCKET_IFNAME=^eth0,lo'
expect_q 'net_errors' '[]' "^eth0,lo: no network error"
expect_q '"eth1 10.0.0.2" in f["net.nccl.bootstrap"]["title"]' yes "^eth0,lo bootstraps on eth1"
expect_q 'f["net.bootstrap.master_match"]["severity"]' ok "^eth0,lo matches the route"
[ "$rc" = 0 ] || echo "note: exit $rc from findings outside the network rules: $(q 'errors')"

# 4. a value from /etc/nccl.conf is used and attributed; the environment wins over it
mkdir -p "$tmp/etc"
echo 'NCCL_SOCKET_IFNAME=eth1' > "$tmp/etc/nccl.conf"
node MASTER_ADDR=10.0.0.1 NCCLCHECK_ETC_ROOT="$tmp/etc"
expect_q 'net_errors' '[]' "NCCL_SOCKET_IFNAME=eth1 from nccl.conf fixes it"
expect_q '[e for e in f["net.nccl.bootstrap"]["evidence"] if "nccl.conf" in e] != []' yes "the report names nccl.conf"
node MASTER_ADDR=10.0.0.1 NCCLCHECK_ETC_ROOT="$tmp/etc" NCCL_SOCKET_IFNAME=eth0
expect_q '"net.bootstrap.master_mismatch" in f' yes "the environment beats nccl.conf"
expect_q '"nccl.env.shadowed" in f' yes "the overridden file value is reported"

# 5. NCCL versions: eth0 down but addressed. 2.28 skips it, 2.27 still bootstraps on it.
ip -n "$NS" route del default
ip -n "$NS" link set eth0 down
node MASTER_ADDR=10.0.0.1 NCCLCHECK_ASSUME_NCCL=2.28.9
expect_q '"eth1 10.0.0.2" in f["net.nccl.bootstrap"]["title"]' yes "2.28.9 skips the down eth0"
node MASTER_ADDR=10.0.0.1 NCCLCHECK_ASSUME_NCCL=2.27.7
expect_q '"eth0 203.0.113.10" in f["net.nccl.bootstrap"]["title"]' yes "2.27.7 still uses the down eth0"
expect_q '"NCCLCHECK_ASSUME_NCCL" in " ".join(f["net.nccl.bootstrap"]["evidence"])' yes "the assumed version is stated"
ip -n "$NS" link set eth0 up
wait_running eth0 eth1

# 6. '^docker0' alone makes lo eligible, and lo comes first
node MASTER_ADDR=10.0.0.1 'NCCL_SOCKET_IFNAME=^docker0'
expect_q '"lo 127.0.0.1" in f["net.nccl.bootstrap"]["title"]' yes "^docker0 bootstraps on lo"
expect_q 'f["net.ifname.lo_eligible"]["severity"]' error "^docker0: lo eligible is an error"
expect_q '"export NCCL_SOCKET_IFNAME=^docker0,lo" in f["net.ifname.lo_eligible"]["fix"]' yes "^docker0 fix adds lo"

# 7. prefix overlap: eth10, listed before eth1, also matches 'eth1'; the fix must be exact.
# getifaddrs lists interfaces in index order, so eth1 is re-created after eth10.
ip -n "$NS" link del eth1
ip -n "$NS" link add eth10 type veth peer name p10 netns "$PEER"
ip -n "$NS" link add eth1 type veth peer name p1 netns "$PEER"
ip -n "$NS" addr add 192.168.10.2/24 dev eth10
ip -n "$NS" addr add 10.0.0.2/24 dev eth1
ip -n "$PEER" addr add 10.0.0.1/24 dev p1
for l in p10 p1; do ip -n "$PEER" link set "$l" up; done
for l in eth10 eth1; do ip -n "$NS" link set "$l" up; done
wait_running eth0 eth10 eth1
node MASTER_ADDR=10.0.0.1 NCCL_SOCKET_IFNAME=eth1 NCCLCHECK_ASSUME_NCCL=2.28.9
expect_q 'f["net.nccl.bootstrap"]["title"].split()[5]' eth10 "eth1 as a prefix bootstraps on eth10"
expect_q '"export NCCL_SOCKET_IFNAME==eth1" in f["net.bootstrap.master_mismatch"]["fix"]' yes "fix uses the exact form =eth1"
node MASTER_ADDR=10.0.0.1 NCCL_SOCKET_IFNAME==eth1 NCCLCHECK_ASSUME_NCCL=2.28.9
expect_q 'net_errors' '[]' "=eth1 is clean"

finish
