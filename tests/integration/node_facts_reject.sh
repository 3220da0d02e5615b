#!/bin/bash
# `node --facts FILE` with a document the node model refuses: a clear message that names the
# member, exit 2, nothing half-rendered on stdout; a good document still works.
set -u
. "$SRCDIR/tests/integration/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bad() { # name json expected-message-regex
	printf '%s' "$2" > "$tmp/$1.json"
	out=$(timeout 20 "$NCCLCHECK" node --facts "$tmp/$1.json" 2> "$tmp/$1.err"); rc=$?
	expect_rc 2 $rc "$1: refused with exit 2"
	[ -z "$out" ] && pass "$1: nothing on stdout" || fail "$1: stdout has '$out'"
	expect_match "$(cat "$tmp/$1.err")" "$3" "$1: the message names it"
}

bad port '{"schema_version":1,"net":{"master":{"set":true,"addr":"10.0.0.1","port":"29500"}}}' \
	"rejected: facts member 'net.master.port' is not an integer"
bad env '{"schema_version":1,"env":{"NCCL_SOCKET_IFNAME":["eth0"]}}' \
	"facts member 'env.NCCL_SOCKET_IFNAME' is not a string"
bad range '{"schema_version":1,"sysctl":{"ip_local_port_range":[60999,1024]}}' \
	"ip_local_port_range' is \[60999, 1024\], not a port range"
bad ifaddr '{"facts":{"schema_version":1,"net":{"ifaddrs":["eth0"]}}}' "net.ifaddrs\[0\]' is not an object"
bad dup '{"schema_version":1,"schema_version":1}' "is not JSON: duplicate object key"
bad schema '{"tool":"ncclcheck"}' "is not a facts document \(no schema_version\)"

# the same document with the right types is fine, in text and JSON
printf '%s' '{"schema_version":1,"net":{"master":{"set":true,"addr":"10.0.0.1","port":29500}}}' > "$tmp/ok.json"
timeout 20 "$NCCLCHECK" node --facts "$tmp/ok.json" > "$tmp/ok.txt" 2>&1
expect_rc 0 $? "a well-typed document is accepted"
timeout 20 "$NCCLCHECK" node --facts "$tmp/ok.json" --json | python3 -c 'import json,sys; json.load(sys.stdin)' \
	&& pass "and --json is a document" || fail "--json of a good document"
finish
