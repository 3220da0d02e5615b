#!/bin/bash
# Several NCCL copies through the real loader paths: fake libnccl variants (old, crashing,
# hanging) in LD_LIBRARY_PATH, a preloaded one, config files and a missing net plugin.
set -u
. "$SRCDIR/tests/integration/lib.sh"

[ -e "$FAKESDIR/nccl_old/libnccl.so.2" ] || { echo "SKIP: fakes not built"; exit 77; }
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
q() { printf '%s' "$doc" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
tmp=$(mktemp -d /tmp/nct-b-copies-XXXXXX); trap 'rm -rf "$tmp"' EXIT

start=$(date +%s)
doc=$(LD_LIBRARY_PATH="$FAKESDIR/nccl_old:$FAKESDIR/nccl_crash:$FAKESDIR/nccl_hang" \
	NCCLCHECK_LIB_TIMEOUT_MS=1000 "$NCCLCHECK" node --json --no-python); rc=$?
took=$(( $(date +%s) - start ))
expect_rc 1 $rc "an NCCL older than 2.7.8 first in LD_LIBRARY_PATH is an error"
expect_match "$(q "[f['title'] for f in d['findings'] if f['id']=='nccl.too_old']")" "NCCL 2.4.8 is older than 2.7.8" "nccl.too_old names the version"
expect_match "$(q "d['facts']['nccl']['default']")" "nccl_old/libnccl.so.2.*LD_LIBRARY_PATH" "the default copy comes from LD_LIBRARY_PATH"
expect_match "$(q "[f['title'] for f in d['findings'] if f['id']=='nccl.lib.unreadable']")" "signal 11.*did not return within 1000 ms|did not return within 1000 ms.*signal 11" "crash and hang are reported, not fatal"
# bounded, not fast: a hung library would hold node forever (slack for a loaded 2-core CI box)
[ "$took" -lt 30 ] && pass "bounded: ${took}s" || fail "took ${took}s"

# LD_PRELOAD wins over everything (an ASan build must be told the preload is intended)
doc=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	LD_PRELOAD="$FAKESDIR/nccl/libnccl.so.2" FAKE_NCCL_VERSION_CODE=22803 \
	LD_LIBRARY_PATH="$FAKESDIR/nccl_old" "$NCCLCHECK" node --json --no-python)
expect_match "$(q "d['facts']['nccl']['default']['how']")" "^LD_PRELOAD$" "LD_PRELOAD is the loader's first choice"
expect_match "$(q "[l['version'] for l in d['facts']['nccl']['libs'] if l['default']]")" "2.28.3" "and its version is read"

# config files: NCCL_CONF_FILE and the etc root's nccl.conf, in NCCL's order
mkdir -p "$tmp/etc"
printf 'NCCL_SOCKET_IFNAME=eth1\nNCCL_DEBUG=WARN\n' > "$tmp/etc/nccl.conf"
printf 'NCCL_DEBUG=INFO\n# NCCL_IB_DISABLE=1\n' > "$tmp/user.conf"
doc=$(NCCLCHECK_ETC_ROOT="$tmp/etc" NCCL_CONF_FILE="$tmp/user.conf" "$NCCLCHECK" node --json --no-python)
expect_match "$(q "[(c['source'], c['vars']) for c in d['facts']['nccl']['conf']]")" \
	"\('NCCL_CONF_FILE', \{'NCCL_DEBUG': 'INFO'\}\).*\('/etc/nccl.conf', \{'NCCL_SOCKET_IFNAME': 'eth1', 'NCCL_DEBUG': 'WARN'\}\)" \
	"both files parsed, NCCL_CONF_FILE first"
out=$(NCCLCHECK_ETC_ROOT="$tmp/etc" "$NCCLCHECK" node --no-python --no-color)
expect_match "$out" "nccl.conf +$tmp/etc/nccl.conf: NCCL_SOCKET_IFNAME=eth1" "inventory shows the file's settings"
doc=$(NCCL_CONF_FILE="$tmp/missing.conf" "$NCCLCHECK" node --json --no-python)
expect_match "$(q "[f['id'] for f in d['findings']]")" "nccl.conf.missing" "a missing NCCL_CONF_FILE is a warning"

# a net plugin that is not there
doc=$(NCCL_NET_PLUGIN=doesnotexist "$NCCLCHECK" node --json --no-python)
expect_match "$(q "[f['title'] for f in d['findings'] if f['id']=='nccl.net_plugin.missing']")" "NCCL_NET_PLUGIN=doesnotexist" "missing net plugin"
doc=$(LD_LIBRARY_PATH="$FAKESDIR/nccl" "$NCCLCHECK" node --json --no-python)
expect_match "$(q "d['facts']['nccl']['net_plugin']")" "'state': 'loads'.*libnccl-net.so" "libnccl-net.so in LD_LIBRARY_PATH is what NCCL loads"
finish
