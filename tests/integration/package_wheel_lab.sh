#!/bin/bash
# The wheel inside two lab nodes: each node installs it into its own venv (no index, no network)
# and `cluster` runs between them from those venvs: node 0 through the venv's ncclcheck, node 1
# through `python -m ncclcheck`; both print the healthy verdict. The wheel's binary (in-tree
# HMAC) and the distribution build (OpenSSL) authenticate each other with one token. `lab exec NODE -- ncclcheck`
# finds the running binary itself (/proc/self/exe) when no ncclcheck is on PATH.
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
. "$SRCDIR/tests/integration/lib_package.sh"
/usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null ||
	{ echo "SKIP: /usr/bin/python3 has no venv/ensurepip (python3-venv)"; exit 77; }
portable_artefacts
lab_use pk

W=$LAB_TMP/v0/bin/ncclcheck
out=$("$NCCLCHECK" lab up --nodes 2 --scenario healthy --prefix $LAB_PREFIX 2>&1); rc=$?
expect_rc 0 $rc "lab up healthy"
for i in 0 1; do
	out=$(lx "n$i" /usr/bin/python3 -m venv "$LAB_TMP/v$i" 2>&1 &&
		lx "n$i" "$LAB_TMP/v$i/bin/pip" install --no-index --disable-pip-version-check -q "$WHEEL" 2>&1)
	expect_rc 0 $? "node n$i: venv and pip install --no-index of the wheel $out"
done

out=$(env PATH=/usr/sbin:/usr/bin:/sbin:/bin "$W" lab exec $LAB_PREFIX-n0 -- ncclcheck --version 2>&1); rc=$?
expect_rc 0 $rc "lab exec n0 -- ncclcheck with none on PATH"
expect_match "$out" "^$("$W" --version)\$" "it ran the binary that ran lab exec"

# pair N0CMD N0ARGS N1CMD N1ARGS ARGS...: `cluster --no-python ARGS` on both nodes at once, each
# with its own extra arguments; outputs, errors and exit codes in $LAB_TMP/n0.*, n1.*
pair() {
	local c0=$1 a0=$2 c1=$3 a1=$4 w; shift 4
	# shellcheck disable=SC2086
	( timeout 60 "$W" lab exec $LAB_PREFIX-n1 -- $c1 cluster --no-python $a1 "$@" \
		>"$LAB_TMP/n1.out" 2>"$LAB_TMP/n1.err"; echo $? >"$LAB_TMP/n1.rc" ) &
	w=$!
	# shellcheck disable=SC2086
	timeout 60 "$W" lab exec $LAB_PREFIX-n0 -- $c0 cluster --no-python $a0 "$@" \
		>"$LAB_TMP/n0.out" 2>"$LAB_TMP/n0.err"
	echo $? >"$LAB_TMP/n0.rc"
	wait $w
}
echo "lab-token-$$-$RANDOM" >"$LAB_TMP/token"
# The links' measurements (port scan, bandwidth) are the cluster tests' subject and take minutes
# on a loaded 2-core machine; here the point is the wheel's binary meeting, authenticating and
# judging: --no-ports --no-bw.
light="--no-ports --no-bw --token-file $LAB_TMP/token"
# shellcheck disable=SC2086
pair "$W" "" "$LAB_TMP/v1/bin/python -m ncclcheck" "" $light
for i in 0 1; do
	expect_rc 0 "$(cat "$LAB_TMP/n$i.rc")" "cluster from the wheel on n$i: $(tail -n 5 "$LAB_TMP/n$i.err")"
	expect_match "$(cat "$LAB_TMP/n$i.out")" "cluster: 2 nodes: $LAB_PREFIX-n0, $LAB_PREFIX-n1" "n$i's report names both nodes"
	expect_match "$(cat "$LAB_TMP/n$i.out")" "0 errors," "n$i: the healthy verdict"
done
# the portable build's in-tree HMAC and the distribution build's OpenSSL one accept each other
# shellcheck disable=SC2086
pair "$NCCLCHECK" "" "$LAB_TMP/v1/bin/ncclcheck" "" $light
expect_rc 0 "$(cat "$LAB_TMP/n0.rc")" "distribution build (n0) with the wheel (n1), one token"
expect_rc 0 "$(cat "$LAB_TMP/n1.rc")" "the wheel (n1) with the distribution build (n0), one token"
echo "another-token" >"$LAB_TMP/token2"
# shellcheck disable=SC2086
pair "$NCCLCHECK" "--token-file $LAB_TMP/token" "$LAB_TMP/v1/bin/ncclcheck" \
	"--token-file $LAB_TMP/token2" --no-ports --no-bw --timeout 10
rc=$(cat "$LAB_TMP/n1.rc")
[ "$rc" = 1 ] || [ "$rc" = 3 ] && pass "the wheel's node with a wrong token is refused (exit $rc)" ||
	fail "wrong token: n1 exit $rc: $(tail -n 3 "$LAB_TMP/n1.err")"
expect_match "$(cat "$LAB_TMP/n0.err" "$LAB_TMP/n1.err" "$LAB_TMP/n0.out" "$LAB_TMP/n1.out")" '[Tt]oken|auth' \
	"and the token is named as the reason"
finish
