#!/bin/bash
# The wheel inside two lab nodes: each node installs it into its own venv (no index, no network)
# and `cluster` runs between them from those venvs: node 0 through the venv's ncclcheck, node 1
# through `python -m ncclcheck`; both print the healthy verdict. `lab exec NODE -- ncclcheck`
# finds the running binary itself (/proc/self/exe) when no ncclcheck is on PATH.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_package.sh"
/usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null ||
	{ echo "SKIP: /usr/bin/python3 has no venv/ensurepip (python3-venv)"; exit 77; }
portable_artefacts
lab_use nclpk

W=$LAB_TMP/v0/bin/ncclcheck
out=$("$NCCLCHECK" lab up --nodes 2 --scenario healthy --prefix nclpk 2>&1); rc=$?
expect_rc 0 $rc "lab up healthy"
for i in 0 1; do
	out=$(lx "n$i" /usr/bin/python3 -m venv "$LAB_TMP/v$i" 2>&1 &&
		lx "n$i" "$LAB_TMP/v$i/bin/pip" install --no-index --disable-pip-version-check -q "$WHEEL" 2>&1)
	expect_rc 0 $? "node n$i: venv and pip install --no-index of the wheel $out"
done

out=$(env PATH=/usr/sbin:/usr/bin:/sbin:/bin "$W" lab exec nclpk-n0 -- ncclcheck --version 2>&1); rc=$?
expect_rc 0 $rc "lab exec n0 -- ncclcheck with none on PATH"
expect_match "$out" "^$("$W" --version)\$" "it ran the binary that ran lab exec"

( timeout 60 "$W" lab exec nclpk-n1 -- "$LAB_TMP/v1/bin/python" -m ncclcheck cluster --no-python \
	>"$LAB_TMP/n1.out" 2>"$LAB_TMP/n1.err"; echo $? >"$LAB_TMP/n1.rc" ) &
w=$!
timeout 60 "$W" lab exec nclpk-n0 -- "$W" cluster --no-python >"$LAB_TMP/n0.out" 2>"$LAB_TMP/n0.err"
echo $? >"$LAB_TMP/n0.rc"
wait $w
for i in 0 1; do
	expect_rc 0 "$(cat "$LAB_TMP/n$i.rc")" "cluster from the wheel on n$i: $(tail -n 5 "$LAB_TMP/n$i.err")"
	expect_match "$(cat "$LAB_TMP/n$i.out")" "cluster: 2 nodes: nclpk-n0, nclpk-n1" "n$i's report names both nodes"
	expect_match "$(cat "$LAB_TMP/n$i.out")" "0 errors," "n$i: the healthy verdict"
done
finish
