#!/bin/bash
# `ncclcheck node` inside a lab node, the demo's path: in cloud-public-blocked n1 has public eth0
# (TCP dropped) and private eth1 (where MASTER_ADDR is), so NCCL's automatic choice of eth0 is the
# two-NIC trap. The finding must carry the fix as data: NCCL_SOCKET_IFNAME=eth1 in its settings[],
# proven by the model's "what if", next to the export line a person reads.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use mo1

"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $LAB_PREFIX >/dev/null
expect_rc 0 $? "lab up cloud-public-blocked"

timeout 60 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- "$NCCLCHECK" node --no-python --json > "$LAB_TMP/n1.json"
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] && pass "node ran inside n1 (exit $rc)" || fail "node inside n1: exit $rc"

q() {
	"$PY" - "$LAB_TMP/n1.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = {x["id"]: x for x in d["findings"]}
v = eval(sys.argv[2])
print(v if not isinstance(v, bool) else ("yes" if v else "no"))
PY
}
expect_q() {
	local got
	got=$(q "$1" 2>&1)
	if [ "$got" = "$2" ]; then pass "$3"; else fail "$3: got '$got', expected '$2'"; fi
}

M='f["net.bootstrap.master_mismatch"]'
expect_q "$M[\"severity\"]" error "the bootstrap/MASTER_ADDR mismatch is an error in n1"
expect_q "d[\"facts\"][\"net\"][\"master\"][\"source_ifname\"]" eth1 "n1 reaches MASTER_ADDR through eth1"
expect_q "[(s[\"name\"], s[\"value\"], s[\"where\"]) for s in $M[\"settings\"] if s[\"name\"] == \"NCCL_SOCKET_IFNAME\"]" \
	"[('NCCL_SOCKET_IFNAME', 'eth1', 'env')]" "settings[] holds NCCL_SOCKET_IFNAME=eth1 for the environment"
expect_q "\"export NCCL_SOCKET_IFNAME=eth1\" in $M[\"fix\"]" yes "and the export line says the same"
expect_q "[s[\"value\"] for s in $M[\"settings\"] if s[\"name\"] == \"GLOO_SOCKET_IFNAME\"]" "['eth1']" \
	"GLOO_SOCKET_IFNAME=eth1 is a setting too"
# every recommended export of every finding is also a setting
expect_q "[l for x in d[\"findings\"] for l in x[\"fix\"] if l.startswith(\"export \") and l.split()[1].split(\"=\")[0] not in [s[\"name\"] for s in x[\"settings\"]]]" \
	"[]" "no export line without its setting"

# the fix works: with it the prediction moves to eth1 and the mismatch is gone
timeout 60 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- env NCCL_SOCKET_IFNAME=eth1 "$NCCLCHECK" node --no-python --json \
	> "$LAB_TMP/n1.json"
expect_q "\"net.bootstrap.master_mismatch\" in f" no "NCCL_SOCKET_IFNAME=eth1 clears the mismatch"
expect_q "f[\"net.bootstrap.master_match\"][\"severity\"]" ok "and NCCL bootstraps on eth1"

"$NCCLCHECK" lab down --prefix $LAB_PREFIX >/dev/null; expect_rc 0 $? "down"
lab_gone $LAB_PREFIX
finish
