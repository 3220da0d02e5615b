#!/bin/bash
# On the GPU machine (2x H200): records `ncclcheck node --json` as the facts fixture
# tests/fixtures/facts/gpu-h200x2.json, and checks the GPU-side facts against nvidia-smi and
# /proc/driver/nvidia/version, which read the same driver by other means.
#
#   bash tests/gpu/record_facts.sh        # from the repository root; results under $OUT
#
# Writes $OUT/facts-h200.json (the fixture), $OUT/node-h200.txt (the human report),
# $OUT/nvidia-smi-*.txt (the references), $OUT/compare.txt (one PASS/FAIL line per check) and
# $OUT/timings.txt. Exit 0 only when every check passed. Changes nothing on the machine: builds
# into $BUILD (default /tmp/ncclcheck-gpu-build, outside $OUT so objects do not travel back;
# warnings not fatal: another gcc) or uses the carried release binary; never touches GPU settings.
set -u
. "$(dirname "$0")/env.sh"
cd "$REPO" || exit 3
log() { echo "== $*" | tee -a "$OUT/record.log"; }
BUILD=${BUILD:-/tmp/ncclcheck-gpu-build}

# 1. ncclcheck: build here when the build dependencies are present (system or carried .debs),
#    else use the carried release binary ($NCCLCHECK from env.sh).
bin=""
if command -v cmake >/dev/null && command -v pkg-config >/dev/null; then
	pc=""
	for d in "$GPU_TOOLS/usr/lib/x86_64-linux-gnu/pkgconfig" "$GPU_TOOLS/usr/share/pkgconfig"; do
		[ -d "$d" ] && pc="$pc${pc:+:}$d"
	done
	if PKG_CONFIG_PATH="$pc" pkg-config --exists jansson hwloc libcrypto 2>/dev/null; then
		sysroot=""
		# .pc files from carried .debs say prefix=/usr: let pkg-config point into $GPU_TOOLS
		[ -n "$pc" ] && ! pkg-config --exists jansson 2>/dev/null && sysroot=$GPU_TOOLS
		log "building with cmake (pkg-config sysroot '${sysroot:-/}')"
		if PKG_CONFIG_PATH="$pc" PKG_CONFIG_SYSROOT_DIR="$sysroot" cmake -S . -B "$BUILD" \
			-DCMAKE_BUILD_TYPE=Release -DNCCLCHECK_TESTS=OFF -DNCCLCHECK_WERROR=OFF >>"$OUT/record.log" 2>&1 &&
			cmake --build "$BUILD" -j"$(nproc)" >>"$OUT/record.log" 2>&1; then
			bin=$BUILD/ncclcheck
		else
			log "build failed (see record.log); falling back to the carried binary"
		fi
	else
		log "jansson/hwloc/libcrypto development files missing: using the carried binary"
	fi
fi
[ -n "$bin" ] || bin=$NCCLCHECK
[ -x "$bin" ] || { log "no ncclcheck binary (looked for a build and $NCCLCHECK)"; exit 3; }
"$bin" --version | tee -a "$OUT/record.log"

# 2. References: the same driver read by NVIDIA's own tools.
nvidia-smi --query-gpu=index,name,pci.bus_id,memory.total,driver_version,compute_cap --format=csv,noheader,nounits \
	> "$OUT/nvidia-smi-gpus.txt" 2>&1
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
nvidia-smi topo -m > "$OUT/nvidia-smi-topo.txt" 2>&1
nvidia-smi nvlink -s > "$OUT/nvidia-smi-nvlink.txt" 2>&1
cat /proc/driver/nvidia/version > "$OUT/proc-driver-version.txt" 2>&1
ls -l /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 /usr/lib/x86_64-linux-gnu/libcuda.so.1 > "$OUT/driver-libs.txt" 2>&1

# 3. The facts (with the Python probe: torch 2.11 and Lightning live under python3 here).
log "ncclcheck node --json"
"$bin" node --json > "$OUT/facts-h200.json" 2> "$OUT/facts-h200.err"
echo "exit $?" >> "$OUT/record.log"
"$bin" node --no-color > "$OUT/node-h200.txt" 2>&1
: > "$OUT/timings.txt"
for i in 1 2 3 4 5; do
	t0=$(date +%s%N)
	"$bin" node --json --no-python > "$OUT/nopy-$i.json" 2>/dev/null
	echo "node --json --no-python run $i: $(( ($(date +%s%N) - t0) / 1000000 )) ms wall" >> "$OUT/timings.txt"
done
python3 - "$OUT"/nopy-*.json >> "$OUT/timings.txt" <<'PY'
import json, sys
for p in sys.argv[1:]:
    t = json.load(open(p))["facts"]["timings_ms"]
    print(p.rsplit("/", 1)[1], {k: t[k] for k in ("nvml", "cuda", "cudnn", "topo", "total") if k in t})
PY

# 4. Compare.
python3 - "$OUT" > "$OUT/compare.txt" <<'PY'
import json, re, sys
out = sys.argv[1]
ok = True
def check(cond, what, detail=""):
    global ok
    ok &= bool(cond)
    print(("PASS " if cond else "FAIL ") + what + (f"  [{detail}]" if detail and not cond else ""))

try:
    doc = json.load(open(f"{out}/facts-h200.json"))
except Exception as e:
    print(f"FAIL facts-h200.json is not JSON: {e}"); sys.exit(1)
f = doc["facts"]
drv, gpus = f.get("driver", {}), f.get("gpus", [])
smi = [l.split(", ") for l in open(f"{out}/nvidia-smi-gpus.txt").read().strip().splitlines() if l.count(",") >= 5]
proc = open(f"{out}/proc-driver-version.txt").read()
m = re.search(r"NVRM version:.*?\s(\d+\.\d+(?:\.\d+)?)\s", proc)

check(drv.get("present") is True, "driver.present is true")
check(drv.get("source") == "nvml", "driver version read through NVML", drv.get("source"))
if smi:
    check(drv.get("version") == smi[0][4], "driver.version equals nvidia-smi", f'{drv.get("version")} vs {smi[0][4]}')
if m:
    check(drv.get("kernel_module", {}).get("version") == m.group(1), "kernel_module.version equals /proc",
          f'{drv.get("kernel_module")} vs {m.group(1)}')
smi_cuda = re.search(r"CUDA Version:\s*([\d.]+)", open(f"{out}/nvidia-smi.txt").read())
if smi_cuda:
    check(drv.get("cuda_max") == smi_cuda.group(1), "driver.cuda_max equals nvidia-smi's 'CUDA Version'",
          f'{drv.get("cuda_max")} vs {smi_cuda.group(1)}')
cd = drv.get("cuda_driver", {})
check(cd.get("status") == "ok" and cd.get("init") == "CUDA_SUCCESS", "libcuda: cuDriverGetVersion and cuInit work", cd)
check(cd.get("version") == drv.get("cuda_max"), "libcuda and NVML agree on the CUDA version", f'{cd.get("version")} vs {drv.get("cuda_max")}')
check(drv.get("nvml", {}).get("library_version") == drv.get("version"), "NVML library file version equals the driver",
      drv.get("nvml", {}).get("library_version"))
check(isinstance(gpus, list) and len(gpus) == len(smi), "GPU count equals nvidia-smi", f"{gpus if not isinstance(gpus, list) else len(gpus)} vs {len(smi)}")
if isinstance(gpus, list):
    for g, s in zip(gpus, smi):
        i = g.get("index")
        check(g.get("name") == s[1], f"gpu {i} name", f'{g.get("name")} vs {s[1]}')
        bus = s[2].lower()[-12:]
        check(g.get("bus_id") == bus, f"gpu {i} bus id", f'{g.get("bus_id")} vs {bus}')
        # NVML's v1 memory call (ours) and nvidia-smi's may differ by the reserved part: 1% slack
        mem = g.get("memory_total_mb")
        check(isinstance(mem, int) and abs(mem - int(s[3])) <= int(s[3]) // 100, f"gpu {i} memory MiB ({mem} vs nvidia-smi {s[3]})")
        check(g.get("compute_capability") == s[5], f"gpu {i} compute capability", f'{g.get("compute_capability")} vs {s[5]}')
    nvl = open(f"{out}/nvidia-smi-nvlink.txt").read()
    for g in gpus:
        blk = re.split(r"GPU \d+:", nvl)
        i = g.get("index", 0)
        if i + 1 < len(blk):
            up = len(re.findall(r"Link \d+: [\d.]+ GB/s", blk[i + 1]))
            check(g.get("nvlinks_up") == up, f"gpu {i} NVLinks up equals nvidia-smi nvlink -s", f'{g.get("nvlinks_up")} vs {up}')

# nvidia-smi topo -m: the GPU rows, the GPUx/NICy columns and the NIC legend
# nvidia-smi underlines the header with ANSI escapes even when writing to a file
topo = [re.sub(r"\x1b\[[0-9;]*m", "", l) for l in open(f"{out}/nvidia-smi-topo.txt").read().splitlines()]
head = next((l.split() for l in topo if l.lstrip().startswith("GPU0")), None)
legend = dict(re.findall(r"^\s*(NIC\d+):\s*(\S+)", "\n".join(topo), re.M))
t = f.get("topology", {})
if head:
    rows = {l.split()[0]: l.split()[1:] for l in topo if re.match(r"^GPU\d+\s", l)}
    for p in t.get("gpu_gpu", []):
        want = rows.get(f'GPU{p["a"]}', [])[head.index(f'GPU{p["b"]}')] if f'GPU{p["b"]}' in head else None
        check(p.get("level") == want, f'GPU{p["a"]}<->GPU{p["b"]} level equals nvidia-smi topo -m', f'{p.get("level")} vs {want}')
    for p in t.get("gpu_nic", []) if isinstance(t.get("gpu_nic"), list) else []:
        col = next((k for k, v in legend.items() if v == p["nic"]), None)
        if col and col in head:
            want = rows.get(f'GPU{p["gpu"]}', [])[head.index(col)]
            check(p["level"] == want, f'GPU{p["gpu"]}<->{p["nic"]} level equals nvidia-smi topo -m', f'{p["level"]} vs {want}')
        else:
            print(f'INFO GPU{p["gpu"]}<->{p["nic"]} = {p["level"]} (nvidia-smi shows no column for {p["nic"]})')
check(str(t.get("source")).startswith("hwloc"), "topology from hwloc", t.get("source"))
check(isinstance(t.get("gpus"), list) and all("unknown" not in str(g.get("numa_node")) for g in t["gpus"]),
      "hwloc found every NVML GPU in its PCI tree", t.get("gpus"))
tk = f.get("cuda", {}).get("toolkits", [])
print("INFO toolkits:", [(x.get("path"), x.get("version"), x.get("source")) for x in tk])
print("INFO cudnn:", [(x.get("path"), x.get("version"), x.get("source")) for x in f.get("cudnn", [])])
pys = [p for p in f.get("python", []) if isinstance(p.get("torch"), dict) and p["torch"].get("version")]
print("INFO torch:", [(p["path"], p["torch"].get("version"), p["torch"].get("cuda")) for p in pys])
ids = {}
for x in doc["findings"]:
    ids.setdefault(x["id"], []).append(x["severity"])
    if x["id"].startswith(("gpu.", "compat.driver", "compat.cudnn")):
        print(f'INFO finding {x["severity"]} {x["id"]}: {x["title"]}')
for bad in ("gpu.driver.absent", "gpu.driver.unknown", "gpu.driver.mismatch", "gpu.nvml.failed", "gpu.cuda.init"):
    check(bad not in ids, f"no {bad} finding", ids.get(bad))
if any(p["torch"].get("cuda") for p in pys):
    check(set(ids.get("compat.driver.torch", [])) == {"ok"}, "the driver runs every installed CUDA torch",
          ids.get("compat.driver.torch"))
else:
    print("INFO no CUDA build of torch found: compat.driver.torch not checked")
print("RESULT", "PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
rc=$?
cat "$OUT/compare.txt"
cat "$OUT/timings.txt"
exit $rc
