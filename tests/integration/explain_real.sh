#!/usr/bin/env bash
# Real logs recorded on the GPU machine by tests/gpu/record_logs.sh (two namespaces as two nodes),
# committed under tests/fixtures/logs/real/<setup>/: explain must name the right cause and fix.
# Skips (77) until the logs are there; fails when a known set-up's log is misdiagnosed.
. "$(dirname "$0")/lib.sh"

# The first finding's heading: its ERROR/warn line and the lines the report wrapped it onto
# (indented, before its "fix:"/"why:"/"seen:" lines), joined.
first_heading() {
	awk '/^(ERROR|warn )/ && !f { f = 1; printf "%s", $0; next }
	     f && /^ +[a-z]+: / { exit }
	     f { sub(/^ +/, " "); printf "%s", $0 }'
}

REAL=$FIXTURES/logs/real
[ -d "$REAL" ] || { echo "SKIP: no real logs under $REAL yet (tests/gpu/record_logs.sh records them)"; exit 77; }
n=0
for dir in "$REAL"/*/; do
	setup=$(basename "$dir")
	out=$("$NCCLCHECK" explain --no-color "$dir"); rc=$?
	first=$(printf '%s\n' "$out" | first_heading)
	case $setup in
	healthy)
		expect_rc 0 $rc "$setup: healthy"
		expect_match "$out" "NCCL init completed on 2 ranks" "$setup: init completed on both ranks" ;;
	firewalled)
		expect_rc 1 $rc "$setup"
		expect_match "$first" "explain.net.wrong_interface" "$setup: wrong interface ranked first"
		expect_match "$out" "export NCCL_SOCKET_IFNAME=eth1" "$setup: fix names eth1" ;;
	bad_ifname)
		expect_rc 1 $rc "$setup"
		expect_match "$first" "explain.net.ifname_nomatch|nccl.bootstrap.no_interface" "$setup: no interface matches"
		expect_match "$out" "eth9" "$setup: names the bad value"
		expect_match "$out" "NCCL_SOCKET_IFNAME=eth1" "$setup: fix names eth1" ;;
	nccl_net_ib)
		expect_rc 1 $rc "$setup"
		expect_match "$first" "nccl.net.not_found" "$setup: NCCL_NET names a missing network"
		expect_match "$out" "unset NCCL_NET" "$setup: fix unsets NCCL_NET" ;;
	*)
		echo "note: no expectation for set-up '$setup'"; continue ;;
	esac
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "SKIP: no known set-up under $REAL"; exit 77; }

# issue #13: the firewalled logs as a user pastes them, without the launcher's MASTER_ADDR line and
# `ip addr`: NCCL's own NET/Socket list shows the one private interface, so the fix names eth1.
if [ -d "$REAL/firewalled" ]; then
	tmp=$(mktemp -d)
	for f in "$REAL"/firewalled/rank*.log; do
		grep -Ev '^\+ |^[0-9]+: .*    inet ' "$f" > "$tmp/$(basename "$f")"
	done
	out=$("$NCCLCHECK" explain --no-color "$tmp"); rc=$?
	expect_rc 1 $rc "pasted firewalled logs"
	expect_no_match "$out" "MASTER_ADDR [0-9]" "pasted firewalled logs: no MASTER_ADDR in them"
	expect_match "$out" "export NCCL_SOCKET_IFNAME=eth1 GLOO_SOCKET_IFNAME=eth1 .*only private interface in NCCL's NET/Socket list" "pasted firewalled logs: the fix names eth1 from the NET/Socket line"
	expect_match "$out" "NET/Socket: eth0 203.0.113.1 \(public\), eth1 10.0.0.1 \(private\)" "pasted firewalled logs: that line is evidence"
	rm -rf "$tmp"
fi
finish
