#!/bin/bash
# The local firewall, read for real inside a namespace this test makes: an iptables rule that drops
# NCCL's ephemeral ports on the bootstrap interface must be reported with the rule and an ACCEPT
# fix; an ACCEPT for the peers' subnet before it clears the error; the same with an nftables
# input chain (policy drop, reject); and the port-range finding must quote this namespace's own
# ip_local_port_range. Also checks that the firewall verdict agrees with a real TCP connect.
set -u
. "$SRCDIR/tests/integration/lib.sh"
command -v iptables >/dev/null 2>&1 || { echo "SKIP: no iptables"; exit 77; }
netns_pair nct3-f$$ nct3-q$$

ip -n "$NS" link add eth1 type veth peer name p1 netns "$PEER"
ip -n "$NS" addr add 10.0.0.2/24 dev eth1
ip -n "$PEER" addr add 10.0.0.1/24 dev p1
for l in lo eth1; do ip -n "$NS" link set "$l" up; done
for l in lo p1; do ip -n "$PEER" link set "$l" up; done
# a narrow range so the port scan below is quick, and so the finding must quote it
ip netns exec "$NS" sysctl -q -w net.ipv4.ip_local_port_range="40000 40100"
for i in $(seq 50); do ip -n "$NS" link show eth1 | grep -q LOWER_UP && break; sleep 0.1; done

node() {
	ip netns exec "$NS" env -i PATH="$PATH" MASTER_ADDR=10.0.0.1 "$@" "$NCCLCHECK" node --no-python --json > "$tmp/out.json"
	rc=$?
}
q() {
	python3 - "$tmp/out.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = {}
for x in d["findings"]:
    f.setdefault(x["id"], x)
v = eval(sys.argv[2])
print(v if not isinstance(v, bool) else ("yes" if v else "no"))
PY
}
expect_q() {
	local got
	got=$(q "$1" 2>&1)
	if [ "$got" = "$2" ]; then pass "$3"; else fail "$3: got '$got', expected '$2' ($1)"; fi
}
# can_connect PORT: a real TCP connect from the peer to a listener in the node (1 s timeout)
can_connect() {
	ip netns exec "$NS" python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.0.0.2", int(sys.argv[1]))); s.listen(1); time.sleep(3)' "$1" &
	local lpid=$!
	sleep 0.5
	ip netns exec "$PEER" python3 -c '
import socket, sys
c = socket.socket(); c.settimeout(1)
try:
    c.connect(("10.0.0.2", int(sys.argv[1]))); print("open")
except socket.timeout:
    print("timeout")
except OSError as e:
    print("refused" if e.errno == 111 else "error")' "$1"
	kill "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
}

# no rules: open, and the range is this namespace's
node
expect_q '"40000-40100" in f["net.ports.range"]["title"]' yes "port range read from this namespace"
expect_q '"misses part" in f["net.ports.range"]["why"]' yes "names the seed whose range is wrong here"
expect_q 'f["net.firewall.open"]["severity"]' ok "no rules: open"
expect_rc open "$(can_connect 40050)" "real connect succeeds without rules"

# iptables DROP on the range
ip netns exec "$NS" iptables -A INPUT -i eth1 -p tcp --dport 40000:40100 -j DROP || { echo "SKIP: iptables unusable here"; exit 77; }
node
expect_q 'f["net.firewall.blocks"]["severity"]' error "DROP on the range is an error"
expect_q '"drops incoming TCP 40000-40100 on eth1" in f["net.firewall.blocks"]["title"]' yes "names ports and interface"
expect_q '"-A INPUT -i eth1 -p tcp -m tcp --dport 40000:40100 -j DROP" in " ".join(f["net.firewall.blocks"]["evidence"])' yes "quotes the rule"
expect_q 'f["net.firewall.blocks"]["fix"][0]' "iptables -I INPUT -i eth1 -p tcp -s 10.0.0.0/24 --dport 40000:40100 -j ACCEPT" "fix inserts an ACCEPT"
expect_rc timeout "$(can_connect 40050)" "real connect times out (the model agrees)"

# the suggested fix, applied, clears it
ip netns exec "$NS" iptables -I INPUT -i eth1 -p tcp -s 10.0.0.0/24 --dport 40000:40100 -j ACCEPT
node
expect_q '"net.firewall.blocks" in f' no "ACCEPT before DROP: no error"
expect_rc open "$(can_connect 40050)" "real connect succeeds after the fix"
ip netns exec "$NS" iptables -F INPUT

# policy DROP with a REJECT in a user chain, partly covering the range
ip netns exec "$NS" iptables -N nct3chain
ip netns exec "$NS" iptables -A INPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
ip netns exec "$NS" iptables -A INPUT -j nct3chain
ip netns exec "$NS" iptables -A nct3chain -p tcp --dport 40000:40049 -j REJECT --reject-with tcp-reset
ip netns exec "$NS" iptables -A INPUT -p tcp --dport 40050:40100 -j ACCEPT
ip netns exec "$NS" iptables -P INPUT DROP
node
expect_q 'sorted(x["title"].split()[6] for x in d["findings"] if x["id"] == "net.firewall.blocks")' "['40000-40049']" "only the rejected part is reported"
expect_q '"rejects" in f["net.firewall.blocks"]["title"]' yes "REJECT through a jump"
expect_rc refused "$(can_connect 40010)" "real connect is refused"
expect_rc open "$(can_connect 40060)" "real connect to the accepted part works"
ip netns exec "$NS" iptables -P INPUT ACCEPT
ip netns exec "$NS" iptables -F
ip netns exec "$NS" iptables -X nct3chain

# nftables: an input chain with policy drop that only lets ssh in
if command -v nft >/dev/null 2>&1 && ip netns exec "$NS" nft add table inet nct3 2>/dev/null; then
	ip netns exec "$NS" nft add chain inet nct3 input '{ type filter hook input priority 0; policy drop; }'
	ip netns exec "$NS" nft add rule inet nct3 input tcp dport 22 accept
	node
	expect_q 'f["net.firewall.blocks"]["severity"]' error "nft policy drop is an error"
	expect_q '"policy DROP of chain input (inet nct3)" in " ".join(f["net.firewall.blocks"]["evidence"])' yes "names the nft chain"
	expect_q 'f["net.firewall.blocks"]["fix"][0].startswith("iptables") or f["net.firewall.blocks"]["fix"][0].startswith("nft")' yes "gives a command"
	expect_rc timeout "$(can_connect 40050)" "real connect times out under nft"
	ip netns exec "$NS" nft add rule inet nct3 input ip saddr 10.0.0.0/24 tcp dport 40000-40100 accept
	node
	expect_q '"net.firewall.blocks" in f' no "nft accept rule clears it"
	expect_rc open "$(can_connect 40050)" "real connect after the nft rule"
else
	echo "note: nft not usable here, nftables part skipped"
fi

finish
