#!/bin/bash
# GPU machine, issue #25's acceptance for the node side: `ncclcheck node` inside the torch venv
# (/opt/torch/.venv) reports nothing from the rules #25 added, and a fake compromised Lightning
# (a 2.6.3 dist-info, a lightning/_runtime/ payload and an __init__.py edited after install) in a
# temporary venv is flagged with its fixes. Nothing on the machine changes; the temporary venv is
# removed at the end.
#
#   bash tests/gpu/issue25_node.sh      # repository root; $NCCLCHECK defaults to .gpu/bin/ncclcheck
#
# Writes $OUT/issue25_summary.txt (PASS/FAIL lines), $OUT/issue25_venv.json (the torch venv's
# node document) and $OUT/issue25_bad.txt (the report on the fake venv). Exit 0 when all pass.
set -u
. "$(dirname "$0")/env.sh"
cd "$REPO" || exit 3
PY=${PYTHON:-/opt/torch/.venv/bin/python3}
SUM=$OUT/issue25_summary.txt
: > "$SUM"
fails=0
say() { echo "$1: $2" | tee -a "$SUM"; [ "$1" = PASS ] || fails=$((fails + 1)); }
[ -x "$NCCLCHECK" ] || { echo "no ncclcheck binary ($NCCLCHECK)"; exit 3; }
[ -x "$PY" ] || { echo "no interpreter $PY"; exit 3; }
"$NCCLCHECK" --version > "$OUT/issue25_version.txt" 2>&1

# The ids #25 added (and the supply rules it asked for): none may fire on the real venv.
NEW='supply\.|nccl\.env\.float|nccl\.env\.ncclx_only|cloud\.lingjun_preset|launch\.torchrun\.agent_store|cluster\.nccl\.tls'
"$NCCLCHECK" node --json --python "$PY" > "$OUT/issue25_venv.json" 2> "$OUT/issue25_venv.err"
ids=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print("\n".join("%s %s: %s" % (f.get("severity", "?"), f["id"],
      f["title"]) for f in d["findings"]))' "$OUT/issue25_venv.json")
hits=$(printf '%s\n' "$ids" | grep -E " ($NEW)" || true)
if [ -z "$hits" ]; then
	say PASS "node in $PY: no finding from #25's rules"
else
	say FAIL "node in $PY: $(printf '%s' "$hits" | tr '\n' ';')"
fi
# Said for the record, judged by hand: a link-local interface NCCL would use is real on some
# machines (GH200's 169.254.3.1); nccl.env.value on NCCL_DEBUG=ATTN only where it is set.
printf '%s\n' "$ids" | grep -E " (net\.socket\.link_local|nccl\.env\.value|nccl\.tls)" \
	>> "$SUM" || true
checked=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(sum(x.get("checked", 0) for p in d["facts"].get("python", []) if isinstance(p, dict)
      for x in (p.get("supply") or {}).get("dists", []) if isinstance(x, dict)))' \
	"$OUT/issue25_venv.json" 2>/dev/null)
[ "${checked:-0}" -gt 0 ] && say PASS "the venv's wheels were checked against RECORD ($checked files)" \
	|| say FAIL "no wheel file was checked against RECORD (supply facts missing?)"

# A fake compromised Lightning in a temporary venv of the same interpreter.
tmp=$(mktemp -d /tmp/nc25-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
base=$("$PY" -c 'import sys; print(sys._base_executable)' 2>/dev/null || echo python3)
"$base" -m venv --without-pip "$tmp/bad" || { say FAIL "python3 -m venv failed"; exit 1; }
sp=$("$tmp/bad/bin/python" -c 'import site; print(site.getsitepackages()[0])')
mkdir -p "$sp/lightning/_runtime" "$sp/lightning-2.6.3.dist-info"
echo '__version__ = "2.6.3"' > "$sp/lightning/__init__.py"
printf 'Metadata-Version: 2.1\nName: lightning\nVersion: 2.6.3\n' > "$sp/lightning-2.6.3.dist-info/METADATA"
echo pip > "$sp/lightning-2.6.3.dist-info/INSTALLER"
set -- $("$tmp/bad/bin/python" -c 'import hashlib,base64,sys; d=open(sys.argv[1],"rb").read()
print(base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b"=").decode(), len(d))' \
	"$sp/lightning/__init__.py")
printf 'lightning/__init__.py,sha256=%s,%s\nlightning-2.6.3.dist-info/RECORD,,\n' "$1" "$2" \
	> "$sp/lightning-2.6.3.dist-info/RECORD"
echo 'import subprocess  # stands in for the payload; never run' > "$sp/lightning/_runtime/start.py"
echo '# edited after install' >> "$sp/lightning/__init__.py"
"$NCCLCHECK" node --python "$tmp/bad/bin/python" > "$OUT/issue25_bad.txt" 2>&1
rc=$?
for want in supply.compromised supply.lightning_payload supply.record_mismatch \
	    "pip install --no-cache-dir 'lightning>=2.6.4'" "$sp/lightning/_runtime"; do
	grep -qF -- "$want" "$OUT/issue25_bad.txt" && say PASS "fake venv: $want" \
		|| say FAIL "fake venv: $want not in the report"
done
[ "$rc" != 0 ] && say PASS "fake venv: node exits $rc" || say FAIL "fake venv: node exited 0"
echo "issue25: $fails failure(s)" | tee -a "$SUM"
[ "$fails" = 0 ]
