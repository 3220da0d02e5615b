#!/bin/bash
# GPU-side probes end to end: `ncclcheck node --json` against the real machine (no driver here),
# the fake libnvidia-ml / libcuda / libcudnn (tests/fakes) through the real dlopen path, a fixture
# /proc/driver/nvidia/version, a fixture hwloc topology, and toolkit directories made on the fly.
set -u
. "$SRCDIR/tests/integration/lib.sh"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
GPUFX=$SRCDIR/tests/fixtures/gpu
NVML=$FAKESDIR/libnvidia-ml.so.1
CUDA=$FAKESDIR/libcuda.so.1
[ -e "$NVML" ] || { echo "SKIP: fake NVML not built ($NVML)"; exit 77; }

# q FILE EXPR: evaluates a Python expression over the facts `f` (and the whole document `d`).
PY=python3; [ -x /usr/bin/python3 ] && PY=/usr/bin/python3 # pyenv's shim costs 100 ms a call
q() {
	"$PY" - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); f = d["facts"]
ids = {x["id"]: x for x in d["findings"]}
def level(g, nic):
    return [p["level"] for p in f["topology"]["gpu_nic"] if p["gpu"] == g and p["nic"] == nic][0]
v = eval(sys.argv[2])
print(json.dumps(v) if not isinstance(v, str) else v)
PY
}
expect_q() { # file expr expected what
	local got; got=$(q "$1" "$2" 2>&1)
	if [ "$got" = "$3" ]; then pass "$4"; else fail "$4: $2 = $got, expected $3"; fi
}
node() { # out-file, then env assignments and flags
	local out=$1; shift
	env "$@" "$NCCLCHECK" node --json --no-python > "$out" 2> "$out.err"
	echo $? > "$out.rc"
}

# 1. This machine: no NVIDIA driver is a fact, not an error.
node "$tmp/real.json"
rc=$(cat "$tmp/real.json.rc")
[ "$rc" -le 1 ] && pass "real machine: node runs (exit $rc)" || fail "real machine: exit $rc: $(cat "$tmp/real.json.err")"
expect_q "$tmp/real.json" 'f["driver"]["present"]' false "real: driver.present is false"
expect_q "$tmp/real.json" '"no NVIDIA driver" in f["driver"]["reason"]' true "real: the reason says no NVIDIA driver"
expect_q "$tmp/real.json" 'f["gpus"]' '[]' "real: gpus is an empty list, not unknown"
expect_q "$tmp/real.json" 'ids["gpu.driver.absent"]["severity"]' info "real: absence is an info finding"
expect_q "$tmp/real.json" 'any(t["version"] == "13.0" and t.get("default") for t in f["cuda"]["toolkits"])' true \
	"real: the CUDA 13.0 toolkit behind nvcc is found"
expect_q "$tmp/real.json" 'any(c["source"] == "library" and c["version"].startswith("9.") and c.get("version_from") == "cudnnGetVersion" for c in f["cudnn"])' true \
	"real: cuDNN 9 library version read with cudnnGetVersion in a child"
expect_q "$tmp/real.json" 'f["topology"]["source"]' hwloc "real: topology from hwloc"
expect_q "$tmp/real.json" 'f["topology"]["cpus"]["pus"] >= 1' true "real: hwloc counts CPUs"
out=$("$NCCLCHECK" node --no-python 2>&1)
expect_match "$out" "driver +no NVIDIA driver" "real: inventory prints 'no NVIDIA driver'"

# 2. 2x H200 with NVSwitch, a CUDA 13 libcuda and the two-socket topology.
node "$tmp/h200.json" NCCLCHECK_NVML_LIB="$NVML" NCCLCHECK_CUDA_LIB="$CUDA" FAKE_NVML_SCENARIO=h200x2 \
	NCCLCHECK_HWLOC_XML="$GPUFX/hgx-2socket.xml"
expect_q "$tmp/h200.json" 'f["driver"]["version"], f["driver"]["source"], f["driver"]["cuda_max"]' \
	'["580.95.05", "nvml", "13.0"]' "h200: driver version, source and CUDA max"
expect_q "$tmp/h200.json" 'f["driver"]["nvml"]["cuda_version_source"]' nvmlSystemGetCudaDriverVersion_v2 \
	"h200: the _v2 CUDA version call is preferred (the plain one answers 9.0 in the fake)"
expect_q "$tmp/h200.json" 'f["driver"]["nvml"]["library_version"]' 580.95.05 "h200: NVML library version from its file name"
expect_q "$tmp/h200.json" '[(g["name"], g["bus_id"], g["memory_total_mb"], g["compute_capability"], g["numa_node"], g["nvlinks_up"], g["nvlink_switch_links"]) for g in f["gpus"]]' \
	'[["NVIDIA H200", "0000:18:00.0", 143771, "9.0", 0, 18, 18], ["NVIDIA H200", "0000:9a:00.0", 143771, "9.0", 1, 18, 18]]' \
	"h200: both GPUs with name, bus id, memory, cc, NUMA and NVLinks"
expect_q "$tmp/h200.json" '[(p["level"], p["pci_level"], p["via"]) for p in f["topology"]["gpu_gpu"]]' \
	'[["NV18", "SYS", "nvswitch"]]' "h200: GPU0<->GPU1 is NV18 through NVSwitch"
expect_q "$tmp/h200.json" '[level(0, n) for n in ("mlx5_0", "ens3", "eth0", "mlx5_1")]' '["PIX", "PHB", "NODE", "SYS"]' \
	"h200: GPU0 to NICs PIX/PHB/NODE/SYS through hwloc"
expect_q "$tmp/h200.json" '[level(1, n) for n in ("mlx5_0", "mlx5_1")]' '["SYS", "PIX"]' "h200: GPU1 to NICs"
expect_q "$tmp/h200.json" '[g["numa_node"] for g in f["topology"]["gpus"]]' '[0, 1]' "h200: hwloc NUMA node per GPU"
expect_q "$tmp/h200.json" '(f["driver"]["cuda_driver"]["version"], f["driver"]["cuda_driver"]["init"], f["driver"]["cuda_driver"]["device_count"])' \
	'["13.0", "CUDA_SUCCESS", 2]' "h200: libcuda version, cuInit and device count"
expect_q "$tmp/h200.json" '"gpu.driver.absent" in ids or "compat.driver.cuda_sources" in ids' false "h200: no absence or disagreement findings"
out=$(env NCCLCHECK_NVML_LIB="$NVML" NCCLCHECK_CUDA_LIB="$CUDA" NCCLCHECK_HWLOC_XML="$GPUFX/hgx-2socket.xml" "$NCCLCHECK" node --no-python 2>&1)
expect_match "$out" "gpu 1 +NVIDIA H200, 143771 MiB, 0000:9a:00.0, cc 9.0, NUMA 1, NVLink 18 up \(NVSwitch\)" "h200: inventory GPU line"
expect_match "$out" "gpu0 <-> gpu1 +NV18" "h200: inventory GPU pair"
expect_match "$out" "gpu0 <-> nics +mlx5_0 PIX, ens3 PHB, eth0 NODE, mlx5_1 SYS" "h200: inventory GPU<->NIC line"

# 3. An old driver's NVML: only the unversioned entry points exist.
node "$tmp/legacy.json" NCCLCHECK_NVML_LIB="$FAKESDIR/legacy/libnvidia-ml.so.1" FAKE_NVML_SCENARIO=h200x2
expect_q "$tmp/legacy.json" 'f["driver"]["nvml"]["cuda_version_source"], f["driver"]["cuda_max"]' \
	'["nvmlSystemGetCudaDriverVersion", "13.0"]' "legacy: falls back to nvmlSystemGetCudaDriverVersion"
expect_q "$tmp/legacy.json" '[g["bus_id"] for g in f["gpus"]], "numa_node" in f["gpus"][0]' \
	'[["0000:18:00.0", "0000:9a:00.0"], false]' "legacy: GPUs via the old calls; no NUMA call, no NUMA fact"
expect_q "$tmp/legacy.json" 'f["topology"]["gpu_gpu"][0]["level"]' NV18 "legacy: NVSwitch recognised without the remote-type call"

# 4. Two A100s on an NVLink bridge, one link down in the middle of the range.
node "$tmp/a100.json" NCCLCHECK_NVML_LIB="$NVML" FAKE_NVML_SCENARIO=a100_bridge
expect_q "$tmp/a100.json" '[(g["nvlinks_up"], g["nvlink_peers"]) for g in f["gpus"]]' \
	'[[12, {"0000:5e:00.0": 12}], [12, {"0000:3b:00.0": 12}]]' "a100: 12 direct links each, the gap does not stop the scan"
expect_q "$tmp/a100.json" '[(p["level"], p["via"]) for p in f["topology"]["gpu_gpu"]]' '[["NV12", "nvlink"]]' "a100: NV12"

# 5. Libraries installed, kernel module not loaded.
node "$tmp/none.json" NCCLCHECK_NVML_LIB="$NVML" FAKE_NVML_SCENARIO=none
expect_q "$tmp/none.json" 'f["driver"]["present"], f["gpus"], f["driver"]["nvml"]["error_name"]' \
	'[false, [], "NVML_ERROR_DRIVER_NOT_LOADED"]' "none: driver absent, NVML says driver not loaded"

# 6. NVML refuses this user.
node "$tmp/perm.json" NCCLCHECK_NVML_LIB="$NVML" FAKE_NVML_SCENARIO=no_permission
expect_q "$tmp/perm.json" 'f["driver"]["present"], "unknown" in f["gpus"]' '[true, true]' "no_permission: present, GPUs unknown"
expect_q "$tmp/perm.json" 'ids["gpu.nvml.failed"]["severity"], "usermod" in ids["gpu.nvml.failed"]["fix"][0]' \
	'["warn", true]' "no_permission: warning with the group fix"

# 7. Driver upgraded without a reboot: the kernel module says 575.57.08, the libraries 580.95.05.
node "$tmp/mm.json" NCCLCHECK_NVML_LIB="$NVML" FAKE_NVML_SCENARIO=rm_mismatch NCCLCHECK_PROC_ROOT="$GPUFX/proc/open575"
expect_q "$tmp/mm.json" 'f["driver"]["kernel_module"]["version"], f["driver"]["kernel_module"]["flavor"], f["driver"]["version"], f["driver"]["source"].endswith("driver/nvidia/version")' \
	'["575.57.08", "open", "575.57.08", true]' "mismatch: kernel module version and flavour from /proc"
expect_q "$tmp/mm.json" 'ids["gpu.driver.mismatch"]["severity"], ids["gpu.driver.mismatch"]["title"]' \
	'["error", "NVIDIA kernel module 575.57.08 but user-space driver libraries 580.95.05"]' "mismatch: error finding"
expect_rc 1 "$(cat "$tmp/mm.json.rc")" "mismatch: exit code 1"

# 8. /proc says there is a driver, NVML is not installed at all.
node "$tmp/proc.json" NCCLCHECK_NVML_LIB="$tmp/absent/libnvidia-ml.so.1" NCCLCHECK_PROC_ROOT="$GPUFX/proc/proprietary535"
expect_q "$tmp/proc.json" 'f["driver"]["present"], f["driver"]["version"], f["driver"]["kernel_module"]["flavor"], f["driver"]["nvml"]["status"]' \
	'[true, "535.129.03", "proprietary", "not_found"]' "proc only: driver version from the kernel module"
expect_q "$tmp/proc.json" '"unknown" in f["gpus"], ids["gpu.nvml.failed"]["severity"]' '[true, "warn"]' "proc only: GPUs unknown, NVML warning"
expect_q "$tmp/proc.json" '"unknown" in f["topology"]["gpu_nic"] or f["topology"]["gpu_nic"] == []' true \
	"proc only: no GPU<->NIC pairs without GPUs"

# 9. A /proc file without a version line.
node "$tmp/garbage.json" NCCLCHECK_NVML_LIB="$tmp/absent.so" NCCLCHECK_PROC_ROOT="$GPUFX/proc/garbage"
expect_q "$tmp/garbage.json" 'f["driver"]["present"], "unknown" in f["driver"]["kernel_module"]["version"]' '[true, true]' \
	"garbage /proc: module loaded, version unknown"

# 10. NVML hangs: the child is stopped at the deadline, the run goes on.
start=$(date +%s%N)
node "$tmp/hang.json" NCCLCHECK_NVML_LIB="$NVML" FAKE_NVML_SCENARIO=hang NCCLCHECK_GPU_TIMEOUT_MS=1500
ms=$(( ($(date +%s%N) - start) / 1000000 ))
# bounded, not fast: a hung NVML would hold node forever (slack for a loaded 2-core CI box)
[ "$ms" -lt 25000 ] && pass "hang: node finished in $ms ms" || fail "hang: node took $ms ms"
expect_q "$tmp/hang.json" '"hung" in f["driver"]["present"]["unknown"], ids["gpu.driver.unknown"]["severity"]' '[true, "warn"]' \
	"hang: driver.present unknown, warning"
grep -lsa "FAKE_NVML_SCENARIO=hang" /proc/[0-9]*/environ >/dev/null && fail "hang: a child survived" ||
	pass "hang: no child left behind"

# 11. NVML crashes: isolated in the child.
node "$tmp/crash.json" NCCLCHECK_NVML_LIB="$NVML" FAKE_NVML_SCENARIO=crash
# (under ASan the sanitizer catches the SIGSEGV and aborts: signal 6 then)
expect_q "$tmp/crash.json" '"crashed (signal" in f["driver"]["probe_error"], "unknown" in f["driver"]["present"]' '[true, true]' "crash: reported, not fatal"
[ "$(cat "$tmp/crash.json.rc")" -le 1 ] && pass "crash: exit $(cat "$tmp/crash.json.rc")" || fail "crash: exit $(cat "$tmp/crash.json.rc")"

# 12. libcuda failures and disagreement.
node "$tmp/stub.json" NCCLCHECK_NVML_LIB="$NVML" NCCLCHECK_CUDA_LIB="$CUDA" FAKE_CUDA_SCENARIO=stub
expect_q "$tmp/stub.json" 'f["driver"]["cuda_driver"]["error"], f["driver"]["cuda_driver"]["init"]' \
	'["CUDA_ERROR_STUB_LIBRARY", "CUDA_ERROR_STUB_LIBRARY"]' "stub: libcuda is the stub"
expect_q "$tmp/stub.json" 'ids["gpu.cuda.init"]["severity"], "/stubs" in ids["gpu.cuda.init"]["fix"][0]' '["error", true]' "stub: error with the LD_LIBRARY_PATH fix"
node "$tmp/uvm.json" NCCLCHECK_NVML_LIB="$NVML" NCCLCHECK_CUDA_LIB="$CUDA" FAKE_CUDA_SCENARIO=no_uvm
expect_q "$tmp/uvm.json" 'ids["gpu.cuda.init"]["fix"][0]' "sudo modprobe nvidia_uvm" "no_uvm: modprobe fix"
node "$tmp/dis.json" NCCLCHECK_NVML_LIB="$NVML" NCCLCHECK_CUDA_LIB="$CUDA" FAKE_CUDA_VERSION=12080
expect_q "$tmp/dis.json" 'ids["compat.driver.cuda_sources"]["severity"], f["driver"]["cuda_driver"]["version"], f["driver"]["cuda_max"]' \
	'["warn", "12.8", "13.0"]' "disagreement: NVML 13.0 vs libcuda 12.8 is a warning"

# 13. Toolkits that state their version three ways, cuDNN headers of both eras, pip's cuDNN.
tk=$tmp/tk
mkdir -p "$tk/cuda-12.4/include" "$tk/cuda-12.4/lib64" "$tk/cuda-10.2/include" "$tk/cuda-11.8" "$tk/cuda-13.0/include" \
	"$tmp/venv/lib/python3.11/site-packages/nvidia/cudnn/lib"
echo '{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}, "cuda_cudart": {"version": "12.4.127"}}' > "$tk/cuda-12.4/version.json"
printf '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n' > "$tk/cuda-12.4/include/cudnn_version.h"
cp "$FAKESDIR/cudnn8/libcudnn.so.8" "$tk/cuda-12.4/lib64/"
echo 'CUDA Version 10.2.89' > "$tk/cuda-10.2/version.txt"
printf '#define CUDNN_MAJOR      7\n#define CUDNN_MINOR      6\n#define CUDNN_PATCHLEVEL 5\n' > "$tk/cuda-10.2/include/cudnn.h"
echo '{"cuda": {"name": "CUDA SDK", "version": "11.8.20220929"}}' > "$tk/cuda-11.8/version.json"
printf '/* pip-assembled */\n#define CUDA_VERSION 13000\n' > "$tk/cuda-13.0/include/cuda.h"
printf '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n' > "$tk/cuda-13.0/include/cudnn_version.h"
cp "$FAKESDIR/cudnn9/libcudnn.so.9" "$tmp/venv/lib/python3.11/site-packages/nvidia/cudnn/lib/"
node "$tmp/tk.json" -u CUDA_HOME -u CUDA_PATH PATH=/usr/bin:/bin NCCLCHECK_CUDA_SEARCH="$tk/cuda-*" VIRTUAL_ENV="$tmp/venv" \
	NCCLCHECK_NVML_LIB="$NVML" FAKE_NVML_SCENARIO=old_driver
expect_q "$tmp/tk.json" 'sorted((t["path"].rsplit("/", 1)[1], t["version"], t["source"]) for t in f["cuda"]["toolkits"])' \
	'[["cuda-10.2", "10.2.89", "version.txt"], ["cuda-11.8", "11.8", "version.json"], ["cuda-12.4", "12.4.1", "version.json"], ["cuda-13.0", "13.0", "include/cuda.h"]]' \
	"toolkits: version.json, version.txt (date dropped), include/cuda.h"
expect_q "$tmp/tk.json" 'f["cuda"]["nvcc"]["found"]' false "toolkits: no nvcc on this PATH"
expect_q "$tmp/tk.json" 'sorted((c["version"], c["source"], c.get("toolkit", "").rsplit("/", 1)[-1], c.get("version_from", "")) for c in f["cudnn"] if c["path"].startswith("'"$tmp"'"))' \
	'[["7.6.5", "header", "cuda-10.2", ""], ["8.9.7", "header", "cuda-12.4", ""], ["8.9.7", "header", "cuda-13.0", ""], ["8.9.7", "library", "cuda-12.4", "cudnnGetVersion"], ["9.10.2", "library", "", "cudnnGetVersion"]]' \
	"cuDNN: old and new headers, a library in a toolkit and one in a venv, both encodings decoded"
expect_q "$tmp/tk.json" '[c["found_by"] for c in f["cudnn"] if c["version"] == "9.10.2"]' '[["venv"]]' "cuDNN: the venv copy says where it came from"
expect_q "$tmp/tk.json" '[c["cuda_build"] for c in f["cudnn"] if c["source"] == "library" and c["path"].startswith("'"$tmp"'")]' '["12.2", "12.8"]' \
	"cuDNN: the CUDA each library was built for"
expect_q "$tmp/tk.json" 'sorted(x["title"] for x in d["findings"] if x["id"] == "compat.driver.toolkit" and x["severity"] == "warn" and "too old" in x["title"])' \
	'["driver 470.82.01 is too old for CUDA 12.4.1 at '"$tk"'/cuda-12.4 (needs >= 525.60.13)", "driver 470.82.01 is too old for CUDA 13.0 at '"$tk"'/cuda-13.0 (needs >= 580.65.06)"]' \
	"toolkits: too new for driver 470 (warnings: none is the default)"
expect_q "$tmp/tk.json" '"driver 470.82.01 is older than CUDA 11.8 at '"$tk"'/cuda-11.8 wants (520.61.05): minor-version compatibility only" in [x["title"] for x in d["findings"]]' true \
	"toolkits: CUDA 11.8 on driver 470 is minor-version compatibility"
expect_q "$tmp/tk.json" '[x["severity"] for x in d["findings"] if x["id"] == "compat.cudnn.cuda" and "8.9.7" in x["title"] and "13.0" in x["title"]]' '["error"]' \
	"cuDNN 8 next to CUDA 13 is an error"

# 14. An injected sys root without a topology XML: hwloc would read the real /sys, so no verdict.
node "$tmp/sysroot.json" NCCLCHECK_SYS_ROOT="$tmp" NCCLCHECK_NVML_LIB="$NVML"
expect_q "$tmp/sysroot.json" '"NCCLCHECK_HWLOC_XML" in f["topology"]["gpu_nic"]["unknown"]' true "sys root: topology skipped with the reason"
node "$tmp/badxml.json" NCCLCHECK_HWLOC_XML="$tmp/tk/cuda-12.4/version.json" NCCLCHECK_NVML_LIB="$NVML"
expect_q "$tmp/badxml.json" '"unknown" in f["topology"]["gpu_nic"]' true "bad XML: topology unknown, not a crash"

finish
