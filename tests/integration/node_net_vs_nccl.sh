#!/bin/bash
# The interface prediction against real NCCL, without a GPU: ncclGetUniqueId() runs NCCL's own
# bootstrapNetInit() and, with NCCL_DEBUG=INFO, logs "Bootstrap: Using <if>:<addr>". For each
# interface layout and NCCL_* setting below, in a network namespace this test makes, that line
# (from the libnccl.so.2 the dynamic loader finds) must equal ncclcheck's predicted bootstrap
# interface and address. NET/Socket's list needs a GPU: tests/gpu/ifselect_vs_nccl.sh covers it.
set -u
. "$SRCDIR/tests/integration/lib.sh"
need_root
command -v ip >/dev/null 2>&1 || { echo "SKIP: no 'ip' command"; exit 77; }
PY=python3
cat > "${TMPDIR:-/tmp}/nct3-uid-$$.py" <<'EOF'
import ctypes, sys
try:
    lib = ctypes.CDLL("libnccl.so.2")
except OSError as e:
    print("NOLIB", e)
    sys.exit(3)
v = ctypes.c_int()
lib.ncclGetVersion(ctypes.byref(v))
print("VERSION", v.value, flush=True)
buf = ctypes.create_string_buffer(128)
print("RC", lib.ncclGetUniqueId(buf), flush=True)
EOF
UID_PY=${TMPDIR:-/tmp}/nct3-uid-$$.py
out=$(NCCL_DEBUG=VERSION timeout 20 $PY "$UID_PY" 2>&1)
case "$out" in *NOLIB*|"") rm -f "$UID_PY"; echo "SKIP: libnccl.so.2 cannot be loaded here"; exit 77;; esac

netns_pair nct3-v$$ nct3-w$$ 'rm -f "$UID_PY"'
for ns in "$NS" "$PEER"; do
	ip netns exec "$ns" sh -c 'echo 0 > /proc/sys/net/ipv6/conf/default/accept_dad; echo 0 > /proc/sys/net/ipv6/conf/all/accept_dad'
done

# veth NAME ADDR [ADDR6]: an interface in the node with its peer end up in the other namespace
# (veth also stands for docker0, virbr0 and ib0: only the name matters to NCCL's choice, and
# containers often cannot load the dummy module)
n=0
veth() {
	n=$((n + 1))
	ip -n "$NS" link add "$1" type veth peer name "p$n" netns "$PEER" || fail "cannot create $1"
	ip -n "$NS" addr add "$2" dev "$1"
	[ -n "${3:-}" ] && ip -n "$NS" addr add "$3" dev "$1" nodad
	ip -n "$PEER" link set "p$n" up
	ip -n "$NS" link set "$1" up
	settle
}
settle() { # IFF_RUNNING follows the operational state, which the kernel updates up to a second
	# after the carrier; NCCL 2.28 skips interfaces that are not RUNNING yet
	local i
	for i in $(seq 50); do
		ip -n "$NS" -o link show up | grep -qvE 'state (UP|UNKNOWN)' || return 0
		sleep 0.1
	done
	fail "interfaces never became operational: $(ip -n "$NS" -o link show up | grep -vE 'state (UP|UNKNOWN)')"
}
reset_node() { # lo only, up
	ip netns del "$NS"
	ip netns add "$NS"
	ip netns exec "$NS" sh -c 'echo 0 > /proc/sys/net/ipv6/conf/default/accept_dad; echo 0 > /proc/sys/net/ipv6/conf/all/accept_dad'
	ip -n "$NS" link set lo up
}

# check NAME EXPECT ENV... : NCCL's bootstrap line vs ncclcheck's prediction, same namespace and
# environment. EXPECT is the interface NCCL is known to pick there ("none" when it fails), so that
# a broken set-up cannot pass by both sides agreeing on nothing.
agree=0
total=0
check() {
	local name=$1 expect=$2 nccl pred ver
	shift 2
	total=$((total + 1))
	ip netns exec "$NS" env -i PATH="$PATH" "$@" NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP,ENV \
		timeout 20 $PY "$UID_PY" > "$tmp/$name.nccl" 2>&1
	ip netns exec "$NS" env -i PATH="$PATH" "$@" "$NCCLCHECK" node --no-python --json > "$tmp/$name.json" 2>/dev/null
	nccl=$(grep -oE 'Bootstrap ?: ?Using [^ ]+' "$tmp/$name.nccl" | head -1 |
		sed -E 's/.*Using (\[[0-9]+\])?([^:]+):(.*)<[0-9]+>$/\2 \3/; s/%[^ ]*$//')
	[ -n "$nccl" ] || nccl="none ($(grep -m1 -oE 'NCCL WARN .*' "$tmp/$name.nccl" || echo "rc $(grep -m1 RC "$tmp/$name.nccl")"))"
	pred=$(python3 - "$tmp/$name.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
for f in d["findings"]:
    if f["id"] == "net.nccl.bootstrap":
        m = re.match(r"NCCL (\S+) will bootstrap on (\S+) (\S+), picked by", f["title"])
        print("%s %s" % (m.group(2), m.group(3)))
        break
else:
    w = [f["title"] for f in d["findings"] if f["id"] in ("net.nccl.no_interface", "net.ifname.nomatch", "nccl.env.comm_id")]
    print("none (%s)" % (w[0] if w else "no prediction"))
PY
)
	ver=$(grep -m1 -oE 'VERSION [0-9]+' "$tmp/$name.nccl")
	[ "${nccl%% *}" = "$expect" ] || fail "$name: expected NCCL to pick $expect, it picked '$nccl' (set-up problem?)"
	if [ "${nccl%% *}" = none ] && [ "${pred%% *}" = none ]; then
		pass "$name: NCCL and ncclcheck both find no interface"
		agree=$((agree + 1))
	elif [ "$nccl" = "$pred" ]; then
		pass "$name: $nccl ($ver)"
		agree=$((agree + 1))
	else
		fail "$name: NCCL bootstraps on '$nccl', ncclcheck predicted '$pred' ($ver)"
	fi
}

# the two-NIC cloud node: eth0 public-like, eth1 private (with a global IPv6 address too)
ip -n "$NS" link set lo up
veth eth0 203.0.113.10/24
veth eth1 10.0.0.2/24 fd00:1::2/64
check unset eth0
check ifname-eth1 eth1 NCCL_SOCKET_IFNAME=eth1
check ifname-exact eth1 NCCL_SOCKET_IFNAME==eth1
check ifname-not-eth0-lo eth1 'NCCL_SOCKET_IFNAME=^eth0,lo'
check ifname-prefix eth0 NCCL_SOCKET_IFNAME=eth
check ifname-one-char eth0 NCCL_SOCKET_IFNAME=e
check ifname-space none 'NCCL_SOCKET_IFNAME=eth9, eth1'
check ifname-port eth1 NCCL_SOCKET_IFNAME=eth1:29500
check ifname-nomatch none NCCL_SOCKET_IFNAME=eth9
check ifname-list-order eth0 NCCL_SOCKET_IFNAME=eth1,eth0
check family-inet6 eth0 NCCL_SOCKET_FAMILY=AF_INET6
check family-lowercase eth0 NCCL_SOCKET_FAMILY=af_inet6
check comm-id-subnet eth1 NCCL_COMM_ID=10.0.0.1:29599
check comm-id-over-ifname eth1 NCCL_COMM_ID=10.0.0.1:29599 NCCL_SOCKET_IFNAME=eth0
check comm-id-no-subnet none NCCL_COMM_ID=192.168.77.1:29599
veth docker0 172.17.0.1/16
check not-docker0 lo 'NCCL_SOCKET_IFNAME=^docker0'
ip -n "$NS" link set eth0 down
check eth0-down eth1
ip -n "$NS" link set eth0 up
settle

# names that NCCL's automatic passes treat specially
reset_node
veth virbr0 192.168.122.1/24
veth eth0 10.0.0.2/24
check virbr0-first eth0
veth ib0 192.168.50.2/24
check ib-first ib0
reset_node
veth docker0 172.17.0.1/16
check docker-only docker0
reset_node
check lo-only lo

# prefix overlap: eth10 listed before eth1
reset_node
veth eth10 192.168.10.2/24
veth eth1 10.0.0.2/24
check prefix-eth1-eth10 eth10 NCCL_SOCKET_IFNAME=eth1
check exact-eth1 eth1 NCCL_SOCKET_IFNAME==eth1

echo "$agree/$total set-ups agree with NCCL $(grep -m1 -h -oE 'VERSION [0-9]+' "$tmp"/*.nccl | head -1)"
finish
