#!/bin/bash
# Supply chain on real venvs: a fake compromised Lightning (2.6.3 dist-info, a lightning/_runtime/
# payload, an __init__.py that differs from its RECORD) is flagged; a clean venv with a correct
# RECORD gives no supply finding.
set -u
. "$SRCDIR/tests/integration/lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d /tmp/nct-supply-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
b64() { "$PY" -c 'import hashlib,base64,sys; d=open(sys.argv[1],"rb").read()
print(base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b"=").decode(), len(d))' "$1"; }
# a venv with a lightning wheel's layout: package, dist-info, RECORD, INSTALLER
mkvenv() { # dir version
	"$PY" -m venv --without-pip "$1" || fail "python3 -m venv failed"
	sp=$("$1/bin/python" -c 'import site; print(site.getsitepackages()[0])')
	mkdir -p "$sp/lightning" "$sp/lightning-$2.dist-info"
	echo '__version__ = "'"$2"'"' > "$sp/lightning/__init__.py"
	printf 'Metadata-Version: 2.1\nName: lightning\nVersion: %s\n' "$2" \
		> "$sp/lightning-$2.dist-info/METADATA"
	echo pip > "$sp/lightning-$2.dist-info/INSTALLER"
	set -- $(b64 "$sp/lightning/__init__.py") "$2"
	printf 'lightning/__init__.py,sha256=%s,%s\nlightning-%s.dist-info/RECORD,,\n' "$1" "$2" "$3" \
		> "$sp/lightning-$3.dist-info/RECORD"
}
q() { printf '%s' "$doc" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
ids() { q "' '.join(sorted(f['id'] for f in d['findings'] if f['id'].startswith('supply.')))"; }

mkvenv "$tmp/clean" 2.6.4
doc=$("$NCCLCHECK" node --json --python "$tmp/clean/bin/python")
expect_match "$(q "[p['supply']['dists'][0]['checked'] for p in d['facts']['python']
if p['path']=='$tmp/clean/bin/python'][0]")" '^1$' "the clean venv's __init__.py was checked"
expect_match "[$(ids)]" '^\[\]$' "a clean lightning 2.6.4 venv has no supply finding"

mkvenv "$tmp/bad" 2.6.3
sp=$("$tmp/bad/bin/python" -c 'import site; print(site.getsitepackages()[0])')
mkdir -p "$sp/lightning/_runtime"
echo 'import subprocess' > "$sp/lightning/_runtime/start.py"
echo '# patched after install' >> "$sp/lightning/__init__.py"
doc=$("$NCCLCHECK" node --json --python "$tmp/bad/bin/python")
expect_match "$(ids)" '^supply.compromised supply.lightning_payload supply.record_mismatch$' \
	"2.6.3, the payload and the edited __init__.py are each flagged"
expect_match "$(q "[f['title'] for f in d['findings'] if f['id']=='supply.lightning_payload'][0]")" \
	"$sp/lightning/_runtime" "the payload's directory is named"
out=$("$NCCLCHECK" node --no-color --python "$tmp/bad/bin/python"); rc=$?
expect_match "$out" "pip install --no-cache-dir 'lightning>=2.6.4'" "the text report gives the fix"
[ "$rc" != 0 ] && pass "an error finding makes node exit $rc" || fail "node exited 0"
finish
