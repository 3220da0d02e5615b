#!/bin/bash
# "Which libnccl does the torch process map" read for real: a stand-in package named torch on
# PYTHONPATH dlopens a real shared library through ctypes when it is imported, so the Python
# probe's /proc/self/maps reading, the answer's parsing and the merge into nccl.libs
# (found_by mapped-by-torch:...) all run on a process that really maps it. A second run maps a
# libnccl from the CUDA toolkit when this machine has one.
set -u
. "$SRCDIR/tests/integration/lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || { echo "SKIP: no /usr/bin/python3"; exit 77; }
FAKE=$FAKESDIR/nccl/libnccl.so.2
[ -e "$FAKE" ] || { echo "SKIP: fakes not built ($FAKE)"; exit 77; }
tmp=$(mktemp -d /tmp/pc-torch-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/site/torch"
cat > "$tmp/site/torch/__init__.py" <<'PY'
# Stand-in for torch: maps the library named by STANDIN_NCCL the way torch maps libnccl.
import ctypes, os
_nccl = ctypes.CDLL(os.environ["STANDIN_NCCL"], mode=ctypes.RTLD_GLOBAL)
__version__ = "2.99.0+standin"
class version:
    cuda = "13.0"
class backends:
    class cudnn:
        @staticmethod
        def version():
            return None
class cuda:
    @staticmethod
    def is_available():
        return False
    @staticmethod
    def device_count():
        return 0
    class nccl:
        @staticmethod
        def version():
            v = ctypes.c_int(0)
            _nccl.ncclGetVersion(ctypes.byref(v))
            c = v.value
            return (c // 10000, c // 100 % 100, c % 100)
PY

# q EXPR: a Python expression over the entry `p` of /usr/bin/python3 and the facts `f`.
q() {
	"$PY" - "$tmp/out.json" "$1" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["facts"]
p = [x for x in f["python"] if x["path"] == "/usr/bin/python3"][0]
v = eval(sys.argv[2])
print(v if isinstance(v, str) else json.dumps(v))
PY
}
# run LIB: node --json with the stand-in mapping LIB, only /usr/bin/python3 asked for by name
run() {
	env PYTHONPATH="$tmp/site" STANDIN_NCCL="$1" FAKE_NCCL_VERSION_CODE=22809 \
		"$NCCLCHECK" node --json --python /usr/bin/python3 --python-timeout 20 > "$tmp/out.json"
	rc=$?
	[ $rc -le 1 ] && pass "node --json ran (exit $rc)" || fail "node exited $rc"
}

# loadable LIB: can a plain python3 dlopen it? (not a fake built with ASan: its runtime would
# have to come first in the process)
loadable() { "$PY" -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$1" 2>/dev/null; }
cudalib=$(ls /usr/local/cuda*/lib*/libnccl.so.2 /usr/local/cuda*/targets/*/lib/libnccl.so.2 2>/dev/null | head -n 1)
loadable "$FAKE" || FAKE=""
[ -n "$cudalib" ] && ! loadable "$cudalib" && cudalib=""
[ -n "$FAKE$cudalib" ] || { echo "SKIP: neither the fake libnccl (sanitizer build?) nor a toolkit libnccl loads into $PY"; exit 77; }

if [ -n "$FAKE" ]; then
	run "$FAKE"
	real=$(readlink -f "$FAKE")
	expect_match "$(q 'p["torch"]["version"]')" '^2\.99\.0\+standin$' "the stand-in is the torch the probe imported"
	expect_match "$(q 'p["torch"]["nccl_mapped"]')" "^$real\$" "nccl_mapped is the file the process maps"
	expect_match "$(q 'p["torch"]["nccl_static"]')" '^false$' "a mapped libnccl is not static"
	expect_match "$(q 'p["torch"]["nccl_version"]')" '^2\.28\.9$' "torch's NCCL version comes from the mapped library"
	expect_match "$(q '[l["version"] for l in f["nccl"]["libs"] if l["realpath"] == "'"$real"'" and any(t.startswith("mapped-by-torch:") for t in l["found_by"])]')" \
		'^\["2\.28\.9"\]$' "nccl.libs has the mapped copy, found by mapped-by-torch, with its version"
else
	echo "note: the fake libnccl does not load into $PY (a sanitizer build): only the toolkit's is mapped"
fi

# the CUDA toolkit's libnccl, when there is one: a real NCCL, not a fake
if [ -n "$cudalib" ]; then
	run "$cudalib"
	real=$(readlink -f "$cudalib")
	expect_match "$(q 'p["torch"]["nccl_mapped"]')" "^$real\$" "the toolkit's libnccl as mapped ($real)"
	expect_match "$(q 'p["torch"]["nccl_version"]')" '^2\.[0-9]+\.[0-9]+$' "its version read through the process"
	expect_match "$(q '[l["version"] == p["torch"]["nccl_version"] for l in f["nccl"]["libs"] if l["realpath"] == "'"$real"'" and any(t.startswith("mapped-by-torch:") for t in l["found_by"])]')" \
		'^\[true\]$' "nccl.libs marks it mapped-by-torch, with the same version"
else
	echo "note: no loadable libnccl.so.2 under /usr/local/cuda*: only the fake was mapped"
fi
finish
