#!/bin/bash
# cluster on dns-broken: MASTER_ADDR is node 0's hostname and the last node cannot resolve it.
# That node says so with the resolve fix (cluster.rdv.unreachable, code resolve); the master
# names the rank that never came. Bounded by --timeout.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use nt6

out=$("$NCCLCHECK" lab up --nodes 2 --scenario dns-broken --prefix $LAB_PREFIX 2>&1); expect_rc 0 $? "lab up dns-broken"
( timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- "$NCCLCHECK" cluster --no-python --timeout 2 --json \
	>"$LAB_TMP/n1.json" 2>"$LAB_TMP/n1.err"; echo $? >"$LAB_TMP/n1.rc" ) &
w=$!
out=$(timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- "$NCCLCHECK" cluster --no-python --timeout 2 2>&1); rc=$?
wait $w
expect_rc 3 $rc "the master: rank 1 never came"
expect_match "$out" "rank 1 never arrived within 2 s" "named by the master"
expect_rc 3 "$(cat "$LAB_TMP/n1.rc")" "the node that cannot resolve MASTER_ADDR"
"$PY" - "$LAB_TMP/n1.json" "$LAB_PREFIX" <<'PY' && pass "JSON: unreachable, cannot resolve, the /etc/hosts fix" || fail "JSON of the unresolving node"
import json, sys
d = json.load(open(sys.argv[1]))
(f,) = [f for f in d["findings"] if f["id"] == "cluster.rdv.unreachable"]
assert f["severity"] == "error" and "cannot resolve '%s-n0'" % sys.argv[2] in f["title"], f
assert any("/etc/hosts" in x for x in f["fix"]), f
assert d["exit_code"] == 3 and "could not be reached" in d["error"], d.get("error")
PY
finish
