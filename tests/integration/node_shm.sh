#!/bin/bash
# /dev/shm as Docker leaves it (64 MB) and read-only, on a real tmpfs mounted in a private mount
# namespace (the host's /dev/shm is never touched); RLIMIT_MEMLOCK as the shell sets it.
set -u
. "$SRCDIR/tests/integration/lib.sh"
need_root
command -v unshare >/dev/null || { echo "SKIP: no unshare"; exit 77; }
unshare -m true 2>/dev/null || { echo "SKIP: cannot create a mount namespace here"; exit 77; }
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
q() { printf '%s' "$doc" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
export NCCLCHECK

doc=$(unshare -m --propagation private sh -c 'mount -t tmpfs -o size=64m tmpfs /dev/shm && "$NCCLCHECK" node --json --no-python')
expect_match "$(q "d['facts']['shm']['size_bytes']")" "^67108864$" "a 64 MiB /dev/shm is measured"
expect_match "$(q "d['facts']['shm']['writable']")" "True" "and is writable"
expect_match "$(q "[f['title'] for f in d['findings'] if f['id']=='shm.small']")" "only 64 MiB" "it is reported as too small"

doc=$(unshare -m --propagation private sh -c 'mount -t tmpfs -o size=64m,ro tmpfs /dev/shm && "$NCCLCHECK" node --json --no-python'); rc=$?
expect_rc 1 $rc "a read-only /dev/shm is an error"
expect_match "$(q "[f['evidence'] for f in d['findings'] if f['id']=='shm.not_writable']")" "Read-only file system" "with the system's reason"

doc=$(sh -c 'ulimit -l 64 && "$NCCLCHECK" node --json --no-python')
expect_match "$(q "d['facts']['limits']['memlock']['soft']")" "^65536$" "RLIMIT_MEMLOCK is read"
ls /dev/shm/ncclcheck-probe-* >/dev/null 2>&1 && fail "a probe file was left in /dev/shm" || pass "no probe file left behind"
finish
