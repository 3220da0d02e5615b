#!/bin/bash
# The RDMA probe's libibverbs path (dlopen + dlvsym in an isolated child) against a fake
# libibverbs.so.1: devices listed, none listed (missing provider), crash, hang, and a library
# without rdma-core's symbol versions. The real libibverbs of this machine is checked too.
set -u
. "$SRCDIR/tests/integration/lib.sh"
lib=$FAKESDIR/ibverbs/libibverbs.so.1
[ -e "$lib" ] || { fail "fake libibverbs not built at $lib"; finish; }

verbs() { # prints rdma.verbs as compact JSON
	"$NCCLCHECK" node --json --no-python | python3 -c '
import json, sys
print(json.dumps(json.load(sys.stdin)["facts"]["rdma"]["verbs"], sort_keys=True))'
}

out=$(NCCLCHECK_IBVERBS_LIB=$lib verbs)
expect_match "$out" '"devices": \["mlx5_0", "mlx5_1"\]' "fake: both devices listed"
expect_match "$out" '"loaded": true' "fake: loaded"
expect_match "$out" "\"path\": \"[^\"]*ibverbs/libibverbs.so.1\"" "fake: the file it loaded"

out=$(FAKE_IBV_SCENARIO=none NCCLCHECK_IBVERBS_LIB=$lib verbs)
expect_match "$out" '"devices": \[\]' "none: loads and lists nothing"

start=$(date +%s)
out=$(FAKE_IBV_SCENARIO=crash NCCLCHECK_IBVERBS_LIB=$lib verbs)
expect_match "$out" 'crashed the check' "crash: unknown, because it crashed"
out=$(FAKE_IBV_SCENARIO=hang NCCLCHECK_IBVERBS_LIB=$lib verbs)
expect_match "$out" 'did not answer within' "hang: unknown, because of the deadline"
# bounded, not fast (slack for a loaded 2-core CI box)
[ $(( $(date +%s) - start )) -lt 45 ] || fail "crash + hang took more than 45 s"

out=$(NCCLCHECK_IBVERBS_LIB=$FAKESDIR/ibverbs_unversioned/libibverbs.so.1 verbs)
expect_match "$out" 'lacks ibv_get_device_list@IBVERBS_1.1' "unversioned look-alike refused"

out=$(NCCLCHECK_IBVERBS_LIB=/nonexistent/libibverbs.so.1 verbs)
expect_match "$out" 'does not load' "missing library named"

# The machine's own libibverbs (scripts/deps.sh installs it): loads, no devices here.
if [ -e /usr/lib/x86_64-linux-gnu/libibverbs.so.1 ]; then
	out=$(verbs)
	expect_match "$out" '"loaded": true' "real libibverbs loads"
fi
finish
