#!/usr/bin/env bash
# ncclcheck explain against the real binary: inputs (files, directories, stdin), exit codes, JSON,
# bad input (garbage, NUL bytes, a 100 MB line without a newline) with bounded memory.
. "$(dirname "$0")/lib.sh"

# The first finding's heading: its ERROR/warn line and the lines the report wrapped it onto
# (indented, before its "fix:"/"why:"/"seen:" lines), joined.
first_heading() {
	awk '/^(ERROR|warn )/ && !f { f = 1; printf "%s", $0; next }
	     f && /^ +[a-z]+: / { exit }
	     f { sub(/^ +/, " "); printf "%s", $0 }'
}

SC=$FIXTURES/logs/scenarios
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$NCCLCHECK" explain --help); rc=$?
expect_rc 0 $rc "explain --help"
expect_match "$out" "--master-addr" "help names --master-addr"

out=$("$NCCLCHECK" explain --jsn "$SC/healthy" 2>&1); rc=$?
expect_rc 2 $rc "misspelt option"
expect_match "$out" "did you mean '--json'" "did-you-mean for --jsn"

out=$("$NCCLCHECK" explain --master-addr 2>&1); rc=$?
expect_rc 2 $rc "--master-addr without a value"

out=$("$NCCLCHECK" explain "$tmp/nope.log" 2>&1); rc=$?
expect_rc 3 $rc "missing file"
expect_match "$out" "cannot read '.*nope.log'" "missing file named"

out=$("$NCCLCHECK" explain --no-color "$SC/wrong_iface"); rc=$?
expect_rc 1 $rc "wrong interface: an error diagnosis"
expect_match "$out" "export NCCL_SOCKET_IFNAME=eth1" "wrong interface: the exact fix"
expect_match "$out" "rank0.log:3" "wrong interface: evidence with file:line"
first=$(printf '%s\n' "$out" | first_heading)
expect_match "$first" "explain.net.wrong_interface" "wrong interface ranked first"

out=$("$NCCLCHECK" explain --no-color "$SC/healthy"); rc=$?
expect_rc 0 $rc "healthy log"
expect_match "$out" "NCCL init completed on 2 ranks" "healthy: init completed"
expect_match "$out" "benign" "healthy: the plugin line is called benign"

out=$(cat "$SC/version_mismatch/job.out" | "$NCCLCHECK" explain --no-color -); rc=$?
expect_rc 1 $rc "stdin '-'"
expect_match "$out" "different NCCL versions" "stdin: version mismatch"
out=$(cat "$SC/version_mismatch/job.out" | "$NCCLCHECK" explain --no-color); rc=$?
expect_rc 1 $rc "piped stdin without '-'"

"$NCCLCHECK" explain --json "$SC/missing_rank" > "$tmp/m.json"; rc=$?
expect_rc 1 $rc "--json exit code"
py=$(python3 - "$tmp/m.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verb"] == "explain" and d["exit_code"] == 1, d["verb"]
ids = [x["id"] for x in d["findings"]]
assert "explain.ranks.missing" in ids, ids
assert [r["rank"] for r in d["ranks"]] == [0, 1, 3], d["ranks"]
assert all(x["confidence"] in ("high", "medium", "low") for x in d["findings"])
# each diagnosis once: as a finding, with its confidence, ranks and rerun hint
assert "diagnoses" not in d, list(d)
m = [x for x in d["findings"] if x["id"] == "explain.ranks.missing"][0]
assert m["confidence"] == "medium" and m["ranks"] == [2], m
print("json ok")
PY
)
expect_match "$py" "json ok" "--json document shape"

out=$("$NCCLCHECK" explain --no-color --master-addr 172.31.4.1 - <<'EOF2'
node1:5322:5322 [0] NCCL INFO Bootstrap: Using eth0:203.0.113.2<0>
node1:5322:5391 [0] NCCL INFO NET/Socket : Using [0]eth0:203.0.113.2<0> [1]ens5:172.31.4.9<0>
node1:5322:5391 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x2 - Init START
EOF2
); rc=$?
expect_rc 1 $rc "--master-addr"
expect_match "$out" "NCCL_SOCKET_IFNAME=ens5" "--master-addr names the interface"

# garbage and NUL bytes: no crash; a signature after NULs is still found
head -c 2000000 /dev/urandom > "$tmp/garbage.bin"
"$NCCLCHECK" explain "$tmp/garbage.bin" > /dev/null 2>&1; rc=$?
[ $rc -le 1 ] && pass "random bytes (exit $rc)" || fail "random bytes: exit $rc"
printf 'abc\0def\0\nnode0:1:1 [0] misc/socket.cc:1 NCCL WARN Bootstrap : no socket interface found\n' > "$tmp/nul.log"
out=$("$NCCLCHECK" explain --no-color "$tmp/nul.log"); rc=$?
expect_rc 1 $rc "NUL bytes"
expect_match "$out" "nccl.bootstrap.no_interface" "signature found after NUL bytes"

# a 100 MB line without a newline: streamed, head kept, memory bounded
if [ -x /usr/bin/time ]; then
	{ head -c 100000000 /dev/zero | tr '\0' 'a'; printf '\nnode0:1:1 [0] x.cc:1 NCCL WARN Call to bind failed: Address already in use\n'; } > "$tmp/long.log"
	/usr/bin/time -v "$NCCLCHECK" explain --json "$tmp/long.log" > "$tmp/long.json" 2> "$tmp/time.txt"; rc=$?
	expect_rc 1 $rc "100 MB line"
	rss=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$tmp/time.txt")
	[ -n "$rss" ] && [ "$rss" -lt 65536 ] && pass "100 MB line: peak RSS ${rss} kB < 64 MB" || fail "100 MB line: peak RSS ${rss:-?} kB"
	py=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["inputs"][0]["long_lines"], d["lines"], [x["id"] for x in d["findings"]][0])' "$tmp/long.json")
	expect_match "$py" "^1 2 nccl.bind.address_in_use" "100 MB line: counted as 1 long line, the next line still read"
else
	echo "skip: /usr/bin/time missing (scripts/deps.sh installs it)"
fi
finish
