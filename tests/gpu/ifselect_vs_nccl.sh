#!/bin/bash
# GPU machine: does ncclcheck's interface prediction (rules/ifselect.c) match what real NCCL does?
#
# Two network namespaces are two "nodes" (nct3-ga, nct3-gb), each with eth0 on a public-like
# network (203.0.113.0/24, bridge br0) and eth1 on a private one (10.0.0.0/24 and fd00:1::/64,
# bridge br1) through a third namespace (nct3-gbr). For each set-up a two-rank torch NCCL job runs
# with one rank per namespace (its own GPU, its own NCCL_HOSTID, NCCL_DEBUG=INFO), and in the same
# namespace with the same environment `ncclcheck node --json --no-python` predicts. NCCL's
# "Bootstrap: Using" and "NET/Socket : Using" lines are compared with the prediction.
#
# NCCL version: ncclcheck is told the one torch loads through NCCLCHECK_ASSUME_NCCL, read here from
# torch.cuda.nccl.version() (the python probe is skipped to keep each run under a second).
# IB is disabled (NCCL_IB_DISABLE=1) so that NCCL uses, and logs, its socket transport; that does
# not change the interface choice. NCCL_SOCKET_RETRY_CNT=3 makes set-ups that cannot connect
# (bootstrap on lo) fail in seconds; it does not change the choice either.
#
# Set-ups: unset; NCCL_SOCKET_IFNAME=eth1; =^eth0,lo; =eth (prefix); =^docker0 with a dummy
# docker0 (lo becomes eligible); eth0 down but addressed (2.28 skips it); NCCL_SOCKET_FAMILY=AF_INET6
# (link-local first); NCCL_COMM_ID in eth1's subnet.
#
# Run from the repository root:  bash tests/gpu/ifselect_vs_nccl.sh
# Variables: IP (default ip; env.sh points it at the carried iproute2), IPTABLES (default iptables),
# NCCLCHECK, PYTHON (python3), OUT; IFSELECT_BOOTSTRAP_ONLY=1 accepts a missing NET/Socket line
# (only for dry runs with a GPU-less stand-in for python). Output: $OUT/ifselect_table.txt (the table, then
# "ifselect_vs_nccl: PASS (n/n agree)" or FAIL), logs and predictions under $OUT/ifselect/.
# Wall time: about 3-5 minutes.
[ -f "$(dirname "$0")/env.sh" ] && . "$(dirname "$0")/env.sh"
set -u
IP=${IP:-ip}
IPTABLES=${IPTABLES:-iptables}
command -v "$IP" >/dev/null 2>&1 || IP=ip
command -v "$IPTABLES" >/dev/null 2>&1 || IPTABLES=iptables
PY=${PYTHON:-python3}
NCCLCHECK=${NCCLCHECK:-ncclcheck}
OUT=${OUT:-/tmp/gpu-out}
D=$OUT/ifselect
mkdir -p "$D"
A=nct3-ga
B=nct3-gb
BR=nct3-gbr
START=$(date +%s)

cleanup() {
	local ns p
	for ns in $A $B $BR; do
		for p in $("$IP" netns pids $ns 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
		"$IP" netns del $ns 2>/dev/null
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cleanup

[ "$(id -u)" = 0 ] || { echo "ifselect_vs_nccl: needs root (network namespaces)"; exit 2; }
command -v "$NCCLCHECK" >/dev/null 2>&1 || { echo "ifselect_vs_nccl: no ncclcheck at '$NCCLCHECK' (set NCCLCHECK)"; exit 2; }
VER=$("$PY" -c 'import torch; print(".".join(map(str, torch.cuda.nccl.version())))' 2>"$D/torch.err") ||
	{ echo "ifselect_vs_nccl: cannot read torch's NCCL version: $(tail -1 "$D/torch.err")"; exit 2; }
echo "torch loads NCCL $VER" | tee "$D/version.txt"

# ---- the two nodes ----
set -e
for ns in $A $B $BR; do
	"$IP" netns add $ns
	# no duplicate address detection: every IPv6 address is usable at once, on both sides alike
	"$IP" netns exec $ns sh -c 'echo 0 > /proc/sys/net/ipv6/conf/default/accept_dad; echo 0 > /proc/sys/net/ipv6/conf/all/accept_dad'
	"$IP" -n $ns link set lo up
done
"$IP" -n $BR link add br0 type bridge
"$IP" -n $BR link add br1 type bridge
"$IP" -n $BR link set br0 up
"$IP" -n $BR link set br1 up
n=10
for ns in $A $B; do
	tag=${ns#nct3-g}
	"$IP" -n $ns link add eth0 type veth peer name ${tag}0 netns $BR
	"$IP" -n $ns link add eth1 type veth peer name ${tag}1 netns $BR
	"$IP" -n $BR link set dev ${tag}0 master br0 up
	"$IP" -n $BR link set dev ${tag}1 master br1 up
	"$IP" -n $ns addr add 203.0.113.$n/24 dev eth0
	"$IP" -n $ns addr add 10.0.0.$((n - 9))/24 dev eth1
	"$IP" -n $ns addr add fd00:1::$((n - 9))/64 dev eth1 nodad
	"$IP" -n $ns link set eth0 up
	"$IP" -n $ns link set eth1 up
	n=$((n + 1))
done
set +e
wait_running() { # until the links are operational: IFF_RUNNING follows operstate, NCCL 2.28 needs it
	local i ns l ok
	for i in $(seq 50); do
		ok=1
		for ns in $A $B; do for l in "$@"; do
			"$IP" -n $ns link show $l | grep -q 'state UP' || ok=0
		done; done
		[ $ok = 1 ] && return 0
		sleep 0.2
	done
}
wait_running eth0 eth1
# The GPU machine has no ping: a TCP connect from A to a listener in B proves the path.
"$IP" netns exec $B "$PY" -c 'import socket; s=socket.socket(); s.bind(("10.0.0.2", 7)); s.listen(); s.settimeout(10); s.accept()' &
sleep 0.5
"$IP" netns exec $A "$PY" -c 'import socket; socket.create_connection(("10.0.0.2", 7), 5)' > "$D/reach.txt" 2>&1 ||
	{ echo "ifselect_vs_nccl: the namespaces cannot reach each other"; cat "$D/reach.txt"; exit 2; }
wait

cat > "$D/job.py" <<'EOF'
import datetime, os, time
import torch, torch.distributed as dist
rank = int(os.environ["RANK"])
torch.cuda.set_device(0)  # CUDA_VISIBLE_DEVICES gives each rank its own GPU
t0 = time.time()
dist.init_process_group("nccl", rank=rank, world_size=2, timeout=datetime.timedelta(seconds=40),
                        device_id=torch.device("cuda", 0))
x = torch.ones(4, device="cuda")
dist.all_reduce(x)
torch.cuda.synchronize()
print("all_reduce ok %.1f after %.1f s" % (x[0].item(), time.time() - t0), flush=True)
dist.destroy_process_group()
EOF

# setup NAME ENV... : one comparison; ENV are NAME=value words for both ranks and both predictions
port=29610
setup() {
	local name=$1 i ns pids="" t rc
	shift
	port=$((port + 1))
	for i in 0 1; do
		ns=$A; [ $i = 1 ] && ns=$B
		"$IP" netns exec $ns env "$@" NCCLCHECK_ASSUME_NCCL="$VER" MASTER_ADDR=10.0.0.1 MASTER_PORT=$port \
			"$NCCLCHECK" node --json --no-python > "$D/$name.pred$i.json" 2> "$D/$name.pred$i.err"
		"$IP" netns exec $ns env "$@" RANK=$i MASTER_ADDR=10.0.0.1 MASTER_PORT=$port CUDA_VISIBLE_DEVICES=$i \
			NCCL_HOSTID=nct3-node$i NCCL_IB_DISABLE=1 NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 \
			NCCL_MNNVL_ENABLE=0 NCCL_NVLS_ENABLE=0 NCCL_SOCKET_RETRY_CNT=3 NCCL_DEBUG=INFO \
			NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP,ENV timeout -k 5 75 "$PY" "$D/job.py" > "$D/$name.nccl$i.log" 2>&1 &
		pids="$pids $!"
	done
	# the lines come early; stop waiting once both ranks logged them and had time to finish
	for t in $(seq 75); do
		sleep 1
		rc=0
		for i in $pids; do kill -0 $i 2>/dev/null && rc=1; done
		[ $rc = 0 ] && break
		if [ $t -ge 25 ] && grep -q "NET/Socket : Using" "$D/$name.nccl0.log" && grep -q "NET/Socket : Using" "$D/$name.nccl1.log"; then
			break
		fi
	done
	for i in $pids; do kill $i 2>/dev/null; done
	wait $pids 2>/dev/null
	for ns in $A $B; do for i in $("$IP" netns pids $ns 2>/dev/null); do kill -9 $i 2>/dev/null; done; done
	echo "$name|$*" >> "$D/setups.txt"
	echo "done: $name ($(( $(date +%s) - START )) s)"
}

: > "$D/setups.txt"
setup unset
setup ifname-eth1 NCCL_SOCKET_IFNAME=eth1
setup ifname-not-eth0-lo 'NCCL_SOCKET_IFNAME=^eth0,lo'
setup ifname-prefix-eth NCCL_SOCKET_IFNAME=eth
# a Docker-like bridge address on both nodes (a veth: only the name matters to NCCL, and the
# dummy module may not be loadable), then an exclusion list that forgets lo
for ns in $A $B; do
	"$IP" -n $ns link add docker0 type veth peer name dk-${ns#nct3-g} netns $BR
	"$IP" -n $BR link set dev dk-${ns#nct3-g} up
	"$IP" -n $ns addr add 172.17.0.1/16 dev docker0
	"$IP" -n $ns link set docker0 up
done
wait_running eth0 eth1 docker0
setup ifname-not-docker0 'NCCL_SOCKET_IFNAME=^docker0'
for ns in $A $B; do "$IP" -n $ns link del docker0; done
# eth0 administratively down but still addressed
for ns in $A $B; do "$IP" -n $ns link set eth0 down; done
setup eth0-down
for ns in $A $B; do "$IP" -n $ns link set eth0 up; done
wait_running eth0 eth1
setup family-inet6 NCCL_SOCKET_FAMILY=AF_INET6
setup comm-id-subnet NCCL_COMM_ID=10.0.0.1:29599

# ---- the table ----
"$PY" - "$D" "$VER" "${IFSELECT_BOOTSTRAP_ONLY:-0}" > "$OUT/ifselect_table.txt" <<'EOF'
import json, re, sys
d, ver, bootstrap_only = sys.argv[1], sys.argv[2], sys.argv[3] == "1"

def nccl(path):
    boot, socks, version = None, None, None
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return None, None, None
    m = re.search(r"NCCL version (\S+)", text)
    version = m.group(1) if m else None
    m = re.search(r"Bootstrap ?: ?Using (?:\[\d+\])?([^:\s]+):(\S+)<\d+>", text)
    if m:
        boot = "%s %s" % (m.group(1), m.group(2).split("%")[0])
    m = re.search(r"NET/Socket : Using((?: \[\d+\][^:\s]+:\S+<\d+>)+)", text)
    if m:
        socks = " ".join("%s:%s" % (n, a.split("%")[0]) for n, a in re.findall(r"\[\d+\]([^:\s]+):(\S+)<\d+>", m.group(1)))
    return boot, socks, version

def predicted(path):
    try:
        doc = json.load(open(path))
    except (OSError, ValueError) as e:
        return "ncclcheck failed", "ncclcheck failed"
    boot, socks = "none", "none"
    for f in doc["findings"]:
        if f["id"] == "net.nccl.bootstrap":
            m = re.match(r"NCCL \S+ will bootstrap on (\S+) (\S+), picked by", f["title"])
            if m:
                boot = "%s %s" % (m.group(1), m.group(2))
            for e in f.get("evidence", []):
                m = re.match(r"NET/Socket devices: (.*), picked by", e)
                if m:
                    socks = " ".join("%s:%s" % p for p in re.findall(r"\[\d+\]([^:\s]+):(\S+)", m.group(1))) or "none"
    return boot, socks

rows, agree, total, versions = [], 0, 0, set()
for line in open(d + "/setups.txt"):
    name, env = line.rstrip("\n").split("|", 1)
    for i, node in ((0, "a"), (1, "b")):
        nb, ns, v = nccl("%s/%s.nccl%d.log" % (d, name, i))
        if v:
            versions.add(v)
        pb, ps = predicted("%s/%s.pred%d.json" % (d, name, i))
        # NCCL logs NET/Socket before bootstrap connects, so a missing line is a failure too
        ok = nb is not None and nb == pb and (ns == ps or (bootstrap_only and ns is None))
        total += 1
        agree += ok
        rows.append(("%s/%s" % (name, node), nb or "(no line)", pb, ns or "(no line)", ps, "yes" if ok else "NO"))
head = ("setup", "nccl bootstrap", "predicted", "nccl net/socket", "predicted", "agree")
w = [max(len(r[k]) for r in rows + [head]) for k in range(6)]
print("NCCL %s (torch); ncclcheck modelled NCCLCHECK_ASSUME_NCCL=%s" % (", ".join(sorted(versions)) or "?", ver))
for r in [head] + rows:
    print(" | ".join(c.ljust(w[k]) for k, c in enumerate(r)).rstrip())
print("ifselect_vs_nccl: %s (%d/%d agree)" % ("PASS" if agree == total and total else "FAIL", agree, total))
EOF
cat "$OUT/ifselect_table.txt"
echo "wall time $(( $(date +%s) - START )) s"
grep -q "ifselect_vs_nccl: PASS" "$OUT/ifselect_table.txt"
