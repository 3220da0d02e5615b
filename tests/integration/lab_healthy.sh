#!/bin/bash
# lab healthy: the node layout (eth0 before eth1, addresses, hostnames, env), status, exec,
# refusing to build over an existing lab, --force, and a clean down.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use t4a

out=$("$NCCLCHECK" lab up --nodes 2 --scenario healthy --prefix $LAB_PREFIX 2>&1); rc=$?
expect_rc 0 $rc "lab up healthy"
expect_match "$out" "lab '$LAB_PREFIX' is up: 2 nodes, scenario 'healthy'" "up says what it built"

# the node looks like a cloud VM: lo, eth0 then eth1 (NCCL scans in this order), nothing else
out=$(lx n1 ls /sys/class/net | tr '\n' ' ')
expect_match "$out" "^eth0 eth1 lo $" "n1 has eth0, eth1, lo and /sys shows its own"
out=$(lx n1 ip -o -4 addr show)
expect_match "$out" "2: eth0 +inet 203\.0\.113\.11/24" "eth0 public address, ifindex 2"
expect_match "$out" "3: eth1 +inet 10\.10\.0\.11/24" "eth1 private address, ifindex 3"
out=$(lx n1 cat /proc/sys/net/ipv4/ip_local_port_range | tr -s '\t ' ' ')
expect_match "$out" "^32768 60999$" "ip_local_port_range set"

# the launch environment, hostname and names
out=$(lx n1 env)
expect_match "$out" "^MASTER_ADDR=10\.10\.0\.10$" "MASTER_ADDR is n0's eth1"
expect_match "$out" "MASTER_PORT=29500" "MASTER_PORT"
expect_match "$out" "NODE_RANK=1" "NODE_RANK"
expect_match "$out" "NNODES=2" "NNODES"
expect_match "$out" "WORLD_SIZE=2" "WORLD_SIZE"
out=$(lx n1 hostname); expect_match "$out" "^$LAB_PREFIX-n1$" "hostname is the node's"
[ "$(hostname)" != "$LAB_PREFIX-n1" ] && pass "host's hostname untouched" || fail "host hostname changed"
out=$(lx n1 getent hosts $LAB_PREFIX-n0); expect_match "$out" "^10\.10\.0\.10 +$LAB_PREFIX-n0" "n0 resolves on n1"
out=$(probe n1 resolve $LAB_PREFIX-n1); expect_match "$out" "^10\.10\.0\.11$" "n1 resolves itself"
[ "$(getent hosts $LAB_PREFIX-n0)" = "" ] && pass "host /etc/hosts untouched" || fail "host resolves lab names"

# exec: short names with --prefix, exit codes, a missing node
lx n0 sh -c 'exit 7'; expect_rc 7 $? "exec passes the command's exit code"
out=$("$NCCLCHECK" lab exec --prefix $LAB_PREFIX n0 hostname); expect_match "$out" "$LAB_PREFIX-n0" "exec --prefix P n0"
err=$("$NCCLCHECK" lab exec $LAB_PREFIX-n5 -- true 2>&1); rc=$?
[ $rc -ne 0 ] && pass "missing node refused (exit $rc)" || fail "missing node ran"
err=$("$NCCLCHECK" lab exec --prefix $LAB_PREFIX n5 -- true 2>&1); expect_rc 3 $? "missing node with --prefix"
expect_match "$err" "has no node 'n5'" "missing node message"
err=$("$NCCLCHECK" lab exec --prefix $LAB_PREFIX banana -- true 2>&1); expect_rc 2 $? "not a node name"

# every interface and size passes
serve n0 29500 || finish
for a in 203.0.113.10 10.10.0.10; do
	out=$(probe n1 connect $a 29500 3); expect_match "$out" "^connected$" "n1 -> n0 $a connects"
	out=$(probe n1 send $a 29500 1000000 10); expect_match "$out" "^ok 1000000 .* $LAB_PREFIX-n0$" "1 MB to $a"
done

# status: text and JSON
out=$("$NCCLCHECK" lab status --prefix $LAB_PREFIX); expect_rc 0 $? "status"
expect_match "$out" "lab '$LAB_PREFIX': up, 2 nodes, scenario 'healthy'" "status headline"
expect_match "$out" "n1 +$LAB_PREFIX-n1 +203\.0\.113\.11/24 +10\.10\.0\.11/24" "status node row"
"$NCCLCHECK" lab status --prefix $LAB_PREFIX --json > "$LAB_TMP/st.json"; expect_rc 0 $? "status --json"
"$PY" - "$LAB_TMP/st.json" "$LAB_PREFIX" <<'PY' && pass "status JSON" || fail "status JSON shape"
import json, sys
d = json.load(open(sys.argv[1]))
P = sys.argv[2]
(lab,) = d["labs"]
assert d["verb"] == "lab" and lab["prefix"] == P and lab["state"] == "up", d
assert lab["scenario"] == "healthy" and lab["master_addr"] == "10.10.0.10" and lab["master_port"] == 29500
assert [n["eth1"] for n in lab["nodes"]] == ["10.10.0.10/24", "10.10.0.11/24"]
assert sorted(lab["namespaces_found"]) == [P + "-hub", P + "-n0", P + "-n1"], lab["namespaces_found"]
assert lab["namespaces_missing"] == [] and lab["faults"] == []
PY

# an existing lab is never rebuilt by surprise; --force rebuilds it
err=$("$NCCLCHECK" lab up --nodes 3 --prefix $LAB_PREFIX 2>&1); expect_rc 3 $? "up over an existing lab"
expect_match "$err" "already exists.*--force" "refusal says how"
lx n1 true && pass "the old lab is still there" || fail "the old lab was damaged"
out=$("$NCCLCHECK" lab up --nodes 3 --prefix $LAB_PREFIX --force 2>&1); expect_rc 0 $? "up --force"
out=$(lx n2 hostname); expect_match "$out" "$LAB_PREFIX-n2" "rebuilt with 3 nodes"

# a namespace removed by hand: status says the lab is damaged and how to clean up
ip netns del $LAB_PREFIX-n2
out=$("$NCCLCHECK" lab status --prefix $LAB_PREFIX)
expect_match "$out" "lab '$LAB_PREFIX': damaged" "status after a node vanished"
expect_match "$out" "problem: namespace gone: $LAB_PREFIX-n2" "status says what is missing"
out=$("$NCCLCHECK" lab down --prefix $LAB_PREFIX); expect_rc 0 $? "down"
expect_match "$out" "removed: 3 namespaces" "down counts what it removed"
lab_gone $LAB_PREFIX
out=$("$NCCLCHECK" lab down --prefix $LAB_PREFIX); expect_rc 0 $? "down again"
expect_match "$out" "nothing to remove" "down is idempotent"
finish
