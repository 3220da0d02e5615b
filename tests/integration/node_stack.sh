#!/bin/bash
# ncclcheck node on this very machine: it finds the real libnccl.so.2 of the CUDA toolkit and
# reads the same version the library reports to an independent caller (ctypes), finds torch
# under /usr/bin/python3 while python3 on PATH is another interpreter, and reports both.
set -u
. "$SRCDIR/tests/integration/lib.sh"

# The toolkit's copy that the ld.so cache gives a plain program, whichever CUDA version is
# installed (/usr/local/cuda-13.0, /usr/local/cuda-12.4, /usr/local/cuda ...).
LDCONFIG=$(command -v ldconfig || echo /sbin/ldconfig)
real=""
for p in $("$LDCONFIG" -p 2>/dev/null | awk '$1 == "libnccl.so.2" { print $NF }'); do
	case "$(readlink -f "$p")" in /usr/local/cuda*/*) real=$p; break;; esac
done
[ -n "$real" ] || { echo "SKIP: no libnccl.so.2 of a CUDA toolkit (/usr/local/cuda*) in the ld.so cache ('$LDCONFIG -p'); install the toolkit's NCCL and run ldconfig"; exit 77; }
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
# q EXPR: evaluates a Python expression over the JSON document in $doc (d = the document)
q() { printf '%s' "$doc" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

# the version as the library reports it to someone else
want=$("$PY" -c 'import ctypes,sys; l=ctypes.CDLL(sys.argv[1]); v=ctypes.c_int(); l.ncclGetVersion(ctypes.byref(v)); print(v.value)' "$real")
rp=$(readlink -f "$real")

doc=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD "$NCCLCHECK" node --json); rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "node --json exited $rc"
got=$(q "[l.get('version_code') for l in d['facts']['nccl']['libs'] if l['realpath']=='$rp']")
expect_match "$got" "^\[$want\]$" "the real libnccl ($real) is found with ncclGetVersion's $want"
got=$(q "[l['default'] for l in d['facts']['nccl']['libs'] if l['realpath']=='$rp']")
expect_match "$got" "True" "it is what a plain program loads (ld.so cache)"
got=$(q "[l['found_by'] for l in d['facts']['nccl']['libs'] if l['realpath']=='$rp'][0]")
expect_match "$got" "ldconfig" "found through the ld.so cache"
expect_match "$got" "cuda" "found under /usr/local/cuda*"

# torch under /usr/bin/python3
if [ -x /usr/bin/python3 ] && torchv=$(/usr/bin/python3 -c 'import torch; print(torch.__version__)' 2>/dev/null); then
	got=$(q "[p['torch']['version'] for p in d['facts']['python'] if p['path']=='/usr/bin/python3' or '/usr/bin/python3' in p.get('also_as',[])]")
	expect_match "$got" "'$torchv'" "torch $torchv found under /usr/bin/python3"
	got=$(q "[p['elapsed_ms'] > 0 for p in d['facts']['python'] if p['path']=='/usr/bin/python3']")
	expect_match "$got" "True" "its time is recorded per interpreter"
else
	echo "note: /usr/bin/python3 has no torch here; skipping that part"
fi
# python3 on PATH, when it is another interpreter without torch
onpath=$(command -v python3 || true)
if [ -n "$onpath" ] && [ "$(readlink -f "$onpath")" != "$(readlink -f /usr/bin/python3)" ] &&
   ! python3 -c 'import torch' 2>/dev/null; then
	got=$(q "[(p['why'], p['torch']) for p in d['facts']['python'] if p['path']=='$onpath']")
	expect_match "$got" "'PATH'" "python3 on PATH ($onpath) is inspected"
	expect_match "$got" "'installed': False" "and has no torch"
fi
got=$(q "d['facts']['timings_ms']['python'] > 0")
expect_match "$got" "True" "the Python probe's time is reported separately"

# the human report shows the stack
out=$(env -u LD_LIBRARY_PATH "$NCCLCHECK" node --no-python --no-color)
expect_match "$out" "NCCL and Python stack" "text inventory has the stack section"
expect_match "$out" "$(basename "$(dirname "$(dirname "$real")")").*libnccl.so.2" "text inventory lists the copy"
expect_match "$out" "not probed \(--no-python\)" "--no-python says so"

# re-running the rules on saved facts gives the same NCCL findings
tmp=$(mktemp -d /tmp/nct-b-stack-XXXXXX); trap 'rm -rf "$tmp"' EXIT
printf '%s' "$doc" > "$tmp/facts.json"
doc2=$("$NCCLCHECK" node --json --facts "$tmp/facts.json")
a=$(q "sorted(f['id'] for f in d['findings'] if f['id'].startswith(('nccl.','compat.torch','compat.python','compat.lightning')))")
doc=$doc2
b=$(q "sorted(f['id'] for f in d['findings'] if f['id'].startswith(('nccl.','compat.torch','compat.python','compat.lightning')))")
[ "$a" = "$b" ] && pass "--facts gives the same stack findings" || fail "--facts: $a vs $b"
finish
