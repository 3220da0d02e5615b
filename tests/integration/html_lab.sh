#!/bin/bash
# cluster --html on a real 2-node lab (cloud-public-blocked): every node writes its page beside
# its usual output; rank 0's page is its --json document rendered (html_check.py: every figure,
# matrix cell and port-map row is the document's), rank 1 still prints its text report, and the
# exit codes are --html's absence's (1: the blocked eth0).
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use ht1
P=$LAB_PREFIX

"$NCCLCHECK" lab up --nodes 2 --scenario cloud-public-blocked --prefix $P >/dev/null 2>&1
expect_rc 0 $? "lab up cloud-public-blocked"
( timeout 90 "$NCCLCHECK" lab exec $P-n1 -- "$NCCLCHECK" cluster --no-python --no-bw \
	--html "$LAB_TMP/n1.html" >"$LAB_TMP/n1.out" 2>"$LAB_TMP/n1.err"; echo $? >"$LAB_TMP/n1.rc" ) &
w=$!
timeout 90 "$NCCLCHECK" lab exec $P-n0 -- "$NCCLCHECK" cluster --no-python --no-bw --json \
	--html "$LAB_TMP/n0.html" >"$LAB_TMP/n0.json" 2>"$LAB_TMP/n0.err"; echo $? >"$LAB_TMP/n0.rc"
wait $w
expect_rc 1 "$(cat "$LAB_TMP/n0.rc")" "rank 0 (--json --html): exit 1, the findings' code"
expect_rc 1 "$(cat "$LAB_TMP/n1.rc")" "rank 1 (--html): exit 1"
expect_match "$(cat "$LAB_TMP/n1.out")" "verdict:" "rank 1 still prints its text report"
for i in 0 1; do
	[ -s "$LAB_TMP/n$i.html" ] && pass "n$i wrote its page" || fail "n$i wrote no page"
done
out=$("$PY" "$SRCDIR/tests/integration/html_check.py" "$LAB_TMP/n0.json" "$LAB_TMP/n0.html" 2>&1) &&
	pass "rank 0's page is its document: $(echo "$out" | tail -1)" || fail "rank 0's page: $out"
expect_match "$(grep -c 'class="c st-timeout"' "$LAB_TMP/n0.html")" '^[1-9]' \
	"the blocked eth0 shows as dropped cells"
expect_match "$(tr '\n' ' ' <"$LAB_TMP/n0.html" | grep -o '<pre class="fix">[^<]*' | head -1)" \
	'export NCCL_SOCKET_IFNAME=eth1' "the verdict's fix block names eth1"
finish
