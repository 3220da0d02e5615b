#!/bin/bash
# The Python probe's static path (torch's files) against its import path (--deep), fact by fact:
# on this machine's Debian torch, and on stand-in wheels built from the fake tree, whose
# __init__.py maps lib/libtorch_cuda.so through ctypes so the real ld.so picks its libnccl
# (RUNPATH $ORIGIN/../../nvidia/nccl/lib, or LD_LIBRARY_PATH first, or NCCL linked in).
set -u
. "$SRCDIR/tests/integration/lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || { echo "SKIP: no /usr/bin/python3"; exit 77; }
CMP="$PY $SRCDIR/tests/integration/torch_facts_cmp.py"
tmp=$(mktemp -d /tmp/ps-static-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# both OUT [ENV...]: node --json twice (static, then --deep) for $PY alone, with ENV set
both() {
	local out=$1
	shift
	env "$@" timeout 60 "$NCCLCHECK" node --json --python "$PY" --python-timeout 20 > "$out.static.json"
	local a=$?
	env "$@" timeout 60 "$NCCLCHECK" node --json --deep --python "$PY" --python-timeout 20 > "$out.deep.json"
	local b=$?
	[ $a -le 1 ] && [ $b -le 1 ] && pass "node --json and --json --deep ran ($a, $b)" ||
		fail "node exited $a (static) / $b (--deep)"
}
# q FILE EXPR: EXPR over the torch section `t` of $PY's entry
q() {
	"$PY" - "$1" "$2" "$PY" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["facts"]
p = [x for x in f["python"] if x["path"] == sys.argv[3] or sys.argv[3] in x.get("also_as", [])][0]
t = p.get("torch", {})
v = eval(sys.argv[2])
print(v if isinstance(v, str) else json.dumps(v))
PY
}
compare() { # OUT what [--fallback-ok]
	if $CMP "$1.static.json" "$1.deep.json" "$PY" ${3:-} > "$1.cmp"; then
		pass "$2: every torch fact the same on both paths"
	else
		fail "$2: the paths differ:"; grep FAIL "$1.cmp" >&2
	fi
}

# ---- Debian's torch -----------------------------------------------------------------------
if "$PY" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("torch") is None)' 2>/dev/null; then
	both "$tmp/deb"
	compare "$tmp/deb" "Debian torch"
	expect_match "$(q "$tmp/deb.static.json" 't.get("source")')" '^static$' "Debian torch read statically"
	expect_match "$(q "$tmp/deb.static.json" '"import_ms" in t')" '^false$' "the static path imported nothing"
	expect_match "$(q "$tmp/deb.deep.json" 't.get("source")')" '^import$' "--deep imports it"
else
	echo "note: $PY has no torch: only the stand-in wheels are compared"
fi

# ---- stand-in wheels from the fake tree -----------------------------------------------------
[ -e "$FAKESDIR/torchwheel/torch/lib/libtorch_cuda.so" ] || { echo "SKIP: fakes not built"; finish; exit $?; }
# a sanitizer build's fakes need their runtime first in the process: python cannot map them
"$PY" -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$FAKESDIR/torchwheel/torch/lib/libtorch_cuda.so" 2>/dev/null ||
	{ echo "note: the fake libtorch_cuda does not load into $PY (sanitizer build): skipped"; finish; exit $?; }

# wheel NAME TREE CUDA: $tmp/NAME/site with torch/ and nvidia/ copied from the fake TREE
wheel() {
	local site=$tmp/$1/site
	mkdir -p "$site"
	cp -r "$FAKESDIR/$2/." "$site/"
	cat > "$site/torch/version.py" <<EOF
from typing import Optional
__version__ = '2.99.0+standin'
debug = False
cuda: Optional[str] = $3
git_version = 'abc123'
hip: Optional[str] = None
EOF
	cat > "$site/torch/__init__.py" <<'PY'
# Stand-in for torch: maps lib/libtorch_cuda.so as torch does, so the real loader picks libnccl.
import ctypes, os
from . import version
__version__ = version.__version__
# a CPU build has no libtorch_cuda to map (the line may be missing: an odd layout)
_tc = None
if getattr(version, "cuda", "12.8"):
    _tc = ctypes.CDLL(os.path.join(os.path.dirname(__file__), "lib", "libtorch_cuda.so"),
                      mode=ctypes.RTLD_GLOBAL)
def _devices():
    # what the CUDA runtime counts: cuInit, then cuDeviceGetCount; none without a driver
    try:
        cu = ctypes.CDLL("libcuda.so.1")
        n = ctypes.c_int(0)
        if cu.cuInit(0) != 0 or cu.cuDeviceGetCount(ctypes.byref(n)) != 0:
            return 0
        return n.value
    except OSError:
        return 0
class backends:
    class cudnn:
        @staticmethod
        def version():
            return None
class cuda:
    @staticmethod
    def is_available():
        return _devices() > 0
    @staticmethod
    def device_count():
        return _devices()
    class nccl:
        @staticmethod
        def version():
            if _tc is None:
                raise AttributeError("module 'torch._C' has no attribute '_nccl_version'")
            c = _tc.fake_torch_cuda_nccl()
            return (c // 10000, c // 100 % 100, c % 100)
PY
	echo "$site"
}

site=$(wheel wheel torchwheel "'12.8'")
both "$tmp/wheel" PYTHONPATH="$site"
compare "$tmp/wheel" "wheel, libnccl by RUNPATH"
expect_match "$(q "$tmp/wheel.static.json" 't.get("nccl_mapped")')" "^$site/nvidia/nccl/lib/libnccl.so.2\$" \
	"static: the wheel's own nvidia/nccl copy"
expect_match "$(q "$tmp/wheel.static.json" 't.get("nccl_version")')" '^2\.28\.9$' "static: its ncclGetVersion"
expect_match "$(q "$tmp/wheel.static.json" 't.get("nccl_how")')" '^RUNPATH$' "static: found through RUNPATH"

# LD_LIBRARY_PATH comes before RUNPATH: another copy wins on both paths
if "$PY" -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$FAKESDIR/nccl/libnccl.so.2" 2>/dev/null; then
	both "$tmp/llp" PYTHONPATH="$site" LD_LIBRARY_PATH="$FAKESDIR/nccl" FAKE_NCCL_VERSION_CODE=22803
	compare "$tmp/llp" "wheel, libnccl from LD_LIBRARY_PATH"
	expect_match "$(q "$tmp/llp.static.json" 't.get("nccl_version")')" '^2\.28\.3$' \
		"static: LD_LIBRARY_PATH's copy (2.28.3) beats the wheel's"
fi

site=$(wheel static torchstatic "'12.8'")
both "$tmp/static" PYTHONPATH="$site"
compare "$tmp/static" "NCCL linked into libtorch_cuda"
expect_match "$(q "$tmp/static.static.json" 't.get("nccl_static")')" '^true$' "static: NCCL linked in"

# a CPU build of the stand-in: no NCCL on either path
site=$(wheel cpu torchwheel None)
both "$tmp/cpu" PYTHONPATH="$site"
compare "$tmp/cpu" "CPU build"

# a layout the files cannot settle: version.py without a cuda line makes it import, and say why
site=$(wheel odd torchwheel "'12.8'")
sed -i '/^cuda/d' "$site/torch/version.py"
both "$tmp/odd" PYTHONPATH="$site"
compare "$tmp/odd" "unknown layout (fell back)" --fallback-ok
expect_match "$(q "$tmp/odd.static.json" 't.get("source")')" '^import$' "the unsettled layout was imported"
expect_match "$(q "$tmp/odd.static.json" 't.get("static_fallback")')" 'version.py has no cuda line' \
	"static_fallback names what forced the import"
finish
