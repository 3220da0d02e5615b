#!/bin/bash
# On the GPU machine (torch 2.11 + Lightning 2.6.6 under python3, NCCL 2.28.9 from the wheel,
# system NCCL 2.28.3): checks ncclcheck's stack facts against independent readings, and that
# the fix it prints for "two NCCL copies" really changes what a plain program loads.
#
#   bash tests/gpu/stack_check.sh          # from the repository root; results under $OUT
#
# References: torch itself (version, CUDA, torch.cuda.nccl.version(), /proc/self/maps), package
# metadata for Lightning, ncclGetVersion() called through ctypes on each copy, and a tiny C
# program linked with -lnccl whose own /proc/self/maps says which libnccl the dynamic loader
# gave it (the truth that nccl.default models). Writes $OUT/stack_compare.txt (PASS/FAIL lines),
# $OUT/stack-facts*.json, $OUT/stack-node.txt and $OUT/stack-refs.json. Exit 0 when all pass.
# Changes nothing on the machine and never touches GPU settings.
set -u
. "$(dirname "$0")/env.sh"
cd "$REPO" || exit 3
bin=$NCCLCHECK
[ -x "$OUT/build/ncclcheck" ] && bin=$OUT/build/ncclcheck	# record_facts.sh's build, when it ran
[ -x "$bin" ] || { echo "no ncclcheck binary ($bin)"; exit 3; }
"$bin" --version > "$OUT/stack-version.txt" 2>&1

# 1. Independent readings.
python3 - > "$OUT/stack-refs.json" 2> "$OUT/stack-refs.err" <<'PY'
import ctypes, glob, json, os, sys
r = {}
import torch
r["torch"] = torch.__version__
r["torch_cuda"] = torch.version.cuda
v = torch.cuda.nccl.version()
r["torch_nccl"] = ".".join(map(str, v)) if isinstance(v, tuple) else str(v)
r["mapped"] = sorted({l.split()[-1] for l in open("/proc/self/maps") if "libnccl" in l and "libnccl-net" not in l})
from importlib import metadata
for d in ("lightning", "pytorch-lightning"):
    try:
        r[d] = metadata.version(d)
    except Exception:
        r[d] = None
def version_of(path):
    try:
        lib = ctypes.CDLL(path)
        c = ctypes.c_int()
        lib.ncclGetVersion(ctypes.byref(c))
        return c.value
    except OSError as e:
        return str(e)
r["copies"] = {}
cands = set(r["mapped"])
for pat in ("/usr/lib/x86_64-linux-gnu/libnccl.so*", "/usr/local/cuda*/lib*/libnccl.so*",
            "/usr/local/lib/python3*/dist-packages/nvidia/nccl/lib/libnccl.so*",
            "/usr/lib/python3/dist-packages/nvidia/nccl/lib/libnccl.so*"):
    cands.update(glob.glob(pat))
for p in sorted(cands):
    rp = os.path.realpath(p)
    if rp not in r["copies"]:
        r["copies"][rp] = version_of(p)
print(json.dumps(r, indent=1))
PY
cat > "$OUT/plain.c" <<'EOF'
/* What the dynamic loader gives a plain program linked with -lnccl (nccl-tests is one). */
#include <stdio.h>
#include <string.h>
int ncclGetVersion(int *v);
int main(void)
{
	char line[4096];
	int v = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	ncclGetVersion(&v);
	while (f && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');
		if (p && strstr(p, "libnccl") && !strstr(p, "libnccl-net")) {
			p[strcspn(p, "\n")] = 0;
			printf("%d %s\n", v, p);
			return 0;
		}
	}
	return 1;
}
EOF
plain_ok=0
# link like nccl-tests does; without a dev symlink, against the soname in the ld.so cache's dir
cachedir=$(ldconfig -p 2>/dev/null | awk '/libnccl\.so\.2 .*x86-64/ { print $NF; exit }' | xargs -r dirname)
if command -v gcc >/dev/null; then
	if gcc -o "$OUT/plain" "$OUT/plain.c" -lnccl 2> "$OUT/plain.err" ||
	   { [ -n "$cachedir" ] && gcc -o "$OUT/plain" "$OUT/plain.c" -L"$cachedir" -l:libnccl.so.2 2>> "$OUT/plain.err"; }; then
		plain_ok=1
	fi
fi

# 2. ncclcheck, as installed, and with the LD_LIBRARY_PATH fix its finding prints.
"$bin" node --json > "$OUT/stack-facts.json" 2> "$OUT/stack-facts.err"
"$bin" node --no-color > "$OUT/stack-node.txt" 2>&1
[ "$plain_ok" = 1 ] && "$OUT/plain" > "$OUT/plain-default.txt" 2>&1
fixdir=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); [print(l.split("=",1)[1].split(":")[0]) for f in d["findings"] if f["id"]=="nccl.copies.differ" for l in f["fix"] if l.startswith("export LD_LIBRARY_PATH=")]' "$OUT/stack-facts.json" 2>/dev/null | head -1)
if [ -n "$fixdir" ]; then
	LD_LIBRARY_PATH="$fixdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$bin" node --json > "$OUT/stack-facts-fixed.json" 2>/dev/null
	[ "$plain_ok" = 1 ] && LD_LIBRARY_PATH="$fixdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$OUT/plain" > "$OUT/plain-fixed.txt" 2>&1
fi

# 3. Compare.
python3 - "$OUT" "$plain_ok" "$fixdir" > "$OUT/stack_compare.txt" <<'PY'
import json, os, sys
out, plain_ok, fixdir = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
ok = True
def check(cond, what, detail=""):
    global ok
    ok &= bool(cond)
    print(("PASS " if cond else "FAIL ") + what + (("  [" + detail + "]") if detail else ""))
ref = json.load(open(f"{out}/stack-refs.json"))
doc = json.load(open(f"{out}/stack-facts.json"))
facts, findings = doc["facts"], doc["findings"]
ids = [f["id"] for f in findings]
pys = [p for p in facts.get("python", []) if isinstance(p, dict) and isinstance(p.get("torch"), dict) and p["torch"].get("version")]
check(pys, "an interpreter with torch was found", str([p.get("path") for p in facts.get("python", [])]))
t = pys[0]["torch"] if pys else {}
py = pys[0] if pys else {}
check(t.get("version") == ref["torch"], "torch version", f'{t.get("version")} vs {ref["torch"]}')
check(t.get("cuda") == ref["torch_cuda"], "torch.version.cuda", f'{t.get("cuda")} vs {ref["torch_cuda"]}')
check(t.get("nccl_version") == ref["torch_nccl"], "torch.cuda.nccl.version()", f'{t.get("nccl_version")} vs {ref["torch_nccl"]}')
check(ref["mapped"] and os.path.realpath(t.get("nccl_mapped", "")) == os.path.realpath(ref["mapped"][0]),
      "the libnccl the torch process maps", f'{t.get("nccl_mapped")} vs {ref["mapped"]}')
check((py.get("lightning") or {}).get("version") == ref["lightning"], "lightning version",
      f'{(py.get("lightning") or {}).get("version")} vs {ref["lightning"]}')
check((py.get("pytorch_lightning") or {}).get("version") == ref["pytorch-lightning"], "pytorch_lightning version",
      f'{(py.get("pytorch_lightning") or {}).get("version")} vs {ref["pytorch-lightning"]}')
libs = {l.get("realpath"): l for l in facts["nccl"]["libs"]}
for rp, code in ref["copies"].items():
    l = libs.get(rp)
    check(l is not None and l.get("version_code") == code, f"copy {rp} found with ncclGetVersion's {code}",
          f'{l.get("version") if l else "not found"}; found_by {l.get("found_by") if l else "-"}')
default = facts["nccl"].get("default", {})
if plain_ok:
    v, path = open(f"{out}/plain-default.txt").read().split(None, 1)
    check(os.path.realpath(default.get("path", "")) == os.path.realpath(path.strip()),
          "nccl.default is what a program linked with -lnccl loads", f'{default} vs {path.strip()} ({v})')
else:
    print("SKIP plain-program check (no gcc or no libnccl.so to link)")
dv = next((l.get("version") for l in facts["nccl"]["libs"] if l.get("default")), None)
if dv and t.get("nccl_version") and dv != t["nccl_version"]:
    check("nccl.copies.differ" in ids, "two copies with different versions give nccl.copies.differ", f"{dv} vs {t['nccl_version']}")
    if fixdir:
        fixed = json.load(open(f"{out}/stack-facts-fixed.json"))
        fd = fixed["facts"]["nccl"].get("default", {})
        check(os.path.dirname(os.path.realpath(fd.get("path", ""))) == os.path.realpath(fixdir),
              "with the printed LD_LIBRARY_PATH fix, the default becomes torch's copy", str(fd))
        check("nccl.copies.differ" not in [f["id"] for f in fixed["findings"]], "and the finding goes away")
        if plain_ok:
            pv, pp = open(f"{out}/plain-fixed.txt").read().split(None, 1)
            check(os.path.dirname(os.path.realpath(pp.strip())) == os.path.realpath(fixdir),
                  "and a plain program really loads it", pp.strip())
tm = facts.get("timings_ms", {})
check("python" in tm, "the Python probe's time is reported separately", str(tm.get("python")))
print("ALL PASS" if ok else "SOME CHECKS FAILED")
sys.exit(0 if ok else 1)
PY
rc=$?
cat "$OUT/stack_compare.txt"
exit $rc
