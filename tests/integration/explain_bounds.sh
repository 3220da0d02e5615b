#!/usr/bin/env bash
# explain's bounds through the real binary: the 8 KiB line cap (an anchor inside the kept head of
# a long line is seen, one past it is not) and the memory bound (a 64 MiB line without a newline,
# piped in, costs about the reader's 1 MiB buffer over a one-line log). A 4 MiB cap fails both.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pre='node0:1:1 [0] x.cc:1 NCCL WARN '

# pads: line 1's anchor ends at byte 8100, line 2's starts at byte 9000
in_cap=' Call to bind failed: Address already in use'
past_cap=' Too many open files'
{
	printf '%s' "$pre"; head -c $((8100 - ${#pre} - ${#in_cap})) /dev/zero | tr '\0' x; printf '%s' "$in_cap"
	head -c 65536 /dev/zero | tr '\0' x; printf '\n'
	printf '%s' "$pre"; head -c $((9000 - ${#pre})) /dev/zero | tr '\0' x; printf '%s' "$past_cap"
	head -c 65536 /dev/zero | tr '\0' x; printf '\n'
} > "$tmp/cap.log"
"$NCCLCHECK" explain --json "$tmp/cap.log" > "$tmp/cap.json"; rc=$?
expect_rc 1 $rc "line cap"
py=$(python3 - "$tmp/cap.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ids = [f["id"] for f in d["findings"]]
print("in-cap" if "nccl.bind.address_in_use" in ids else "in-cap-missed",
      "past-cap-seen" if "sys.too_many_files" in ids else "past-cap-ignored",
      "long=%d" % d["inputs"][0]["long_lines"])
PY
)
expect_match "$py" "^in-cap past-cap-ignored long=2$" "8 KiB cap: anchor at 8100 seen, at 9000 not; 2 long lines"

if [ ! -x /usr/bin/time ]; then
	echo "SKIP: /usr/bin/time missing (scripts/deps.sh installs it)"; finish
fi
rss() { awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$1"; }
printf '%s Call to bind failed: Address already in use\n' "$pre" |
	/usr/bin/time -v "$NCCLCHECK" explain --json - > /dev/null 2> "$tmp/t0.txt"
{ printf '%s Call to bind failed: Address already in use ' "$pre"; head -c $((64 << 20)) /dev/zero | tr '\0' y; } |
	/usr/bin/time -v "$NCCLCHECK" explain --json - > "$tmp/big.json" 2> "$tmp/t1.txt"; rc=$?
expect_rc 1 $rc "64 MiB line without a newline"
base=$(rss "$tmp/t0.txt"); big=$(rss "$tmp/t1.txt")
if [ -n "$base" ] && [ -n "$big" ]; then
	delta=$((big - base))
	# the reader's 1 MiB buffer fills up; a 4 MiB cap would add ~12 MiB (its buffer and head)
	[ "$delta" -lt 3072 ] && pass "64 MiB line: RSS ${big} kB, ${delta} kB over a one-line log (< 3 MiB)" ||
		fail "64 MiB line: RSS ${big} kB is ${delta} kB over a one-line log (${base} kB)"
	[ "$big" -lt 65536 ] && pass "64 MiB line: peak RSS < 64 MB" || fail "64 MiB line: peak RSS ${big} kB"
else
	fail "no RSS figures from /usr/bin/time"
fi
py=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["bytes"], d["inputs"][0]["long_lines"], d["findings"][0]["id"])' "$tmp/big.json")
expect_match "$py" "^$((64 * 1024 * 1024 + ${#pre} + 45)) 1 nccl.bind.address_in_use$" "64 MiB line: every byte counted, one long line, its head read"
finish
