#!/usr/bin/env bash
# Issue #29: explain's reach over the messages users paste, read from the source of what prints
# them: NCCL's WARN formats (bench/nccl_warn_coverage.sh, eight releases) and aws-ofi-nccl's
# (seven), PyTorch's distributed stack (bench/torch_message_coverage.sh), Lightning's and
# accelerate's launchers (bench/framework_message_coverage.sh). Each floor is the share measured
# when it was last raised: a row lost from the signature table fails here. The scorer itself must
# be able to say no: a made-up message is not known.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is not installed (scripts/deps.sh)"; exit 77; }
# script, floor (percent), format list ('-': the script's own), what it counts
while read -r script floor formats what; do
	args=(--ncclcheck "$NCCLCHECK" --min "$floor")
	[ "$formats" = - ] || args+=(--formats "$SRCDIR/$formats")
	out=$("$SRCDIR/bench/$script" "${args[@]}"); rc=$?
	printf '%s\n' "$out"
	expect_rc 0 $rc "at least $floor % of $what are known"
	expect_match "$out" "^overall: [0-9]+ of [0-9]+ " "$script prints an overall line"
done <<'LIST'
nccl_warn_coverage.sh 41 - NCCL's WARN formats
nccl_warn_coverage.sh 9 tests/fixtures/nccl/ofi_warn_formats.tsv aws-ofi-nccl's warning formats
torch_message_coverage.sh 89 - PyTorch's distributed messages
framework_message_coverage.sh 100 - Lightning's and accelerate's launch messages
LIST
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '# file\tfirst\tlast\tformat\nsrc/made_up.cc\t2.30.7\t2.30.7\tFrobnicator %%d lost its quux\n' >"$tmp/f.tsv"
out=$("$SRCDIR/bench/nccl_warn_coverage.sh" --ncclcheck "$NCCLCHECK" --formats "$tmp/f.tsv" --min 1 --misses); rc=$?
expect_rc 1 $rc "a made-up message is not known (the scorer can fail)"
expect_match "$out" "UNKNOWN +core +src/made_up.cc +Frobnicator 3 lost its quux" "the miss is listed with its filled text"
finish
