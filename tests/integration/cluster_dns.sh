#!/bin/bash
# cluster on dns-broken: MASTER_ADDR is node 0's hostname and the last node cannot resolve it.
# That node says so at once, not at its join timeout, with the hosts/resolv check
# (cluster.rdv.unreachable, code resolve); the master names the rank that never came with the
# address it listens on (export MASTER_ADDR=10.10.0.10). Bounded by --timeout.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use nt6

out=$("$NCCLCHECK" lab up --nodes 2 --scenario dns-broken --prefix $LAB_PREFIX 2>&1); expect_rc 0 $? "lab up dns-broken"
# the worker is given a long join timeout: a name that does not resolve must fail it at once
# (one try and a retry a second later), not when the timeout runs out
( t0=$(date +%s%3N); timeout 60 "$NCCLCHECK" lab exec $LAB_PREFIX-n1 -- "$NCCLCHECK" cluster --no-python \
	--timeout 30 --json >"$LAB_TMP/n1.json" 2>"$LAB_TMP/n1.err"; echo $? >"$LAB_TMP/n1.rc"
  echo $(($(date +%s%3N) - t0)) >"$LAB_TMP/n1.ms" ) &
w=$!
out=$(timeout 30 "$NCCLCHECK" lab exec $LAB_PREFIX-n0 -- "$NCCLCHECK" cluster --no-python --timeout 3 2>&1); rc=$?
wait $w
expect_rc 3 $rc "the master: rank 1 never came"
expect_match "$out" "rank 1 never arrived within 3 s" "named by the master"
expect_match "$out" "export MASTER_ADDR=10\.10\.0\.10" "the master prints the address it listens on"
expect_match "$out" "listens on 10\.10\.0\.10:29500: MASTER_ADDR=$LAB_PREFIX-n0 resolves to it here" "and why that one"
expect_rc 3 "$(cat "$LAB_TMP/n1.rc")" "the node that cannot resolve MASTER_ADDR"
ms=$(cat "$LAB_TMP/n1.ms")
# well below the 30 s join timeout (the probe and a 1 s retry, slack for a loaded box)
[ "$ms" -lt 10000 ] && pass "the unresolvable MASTER_ADDR failed in $ms ms, not at the 30 s timeout" \
	|| fail "the worker took $ms ms with a 30 s timeout"
"$PY" - "$LAB_TMP/n1.json" "$LAB_PREFIX" <<'PY' && pass "JSON: unreachable, cannot resolve, the hosts/resolv check" || fail "JSON of the unresolving node"
import json, sys
d = json.load(open(sys.argv[1]))
(f,) = [f for f in d["findings"] if f["id"] == "cluster.rdv.unreachable"]
assert f["severity"] == "error" and "cannot resolve '%s-n0'" % sys.argv[2] in f["title"], f
assert any(x.startswith("getent hosts %s-n0;" % sys.argv[2]) and "/etc/hosts" in x
           and "/etc/resolv.conf" in x for x in f["fix"]), f
assert d["exit_code"] == 3 and "could not be reached" in d["error"], d.get("error")
PY
finish
