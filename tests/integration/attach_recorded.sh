#!/bin/bash
# Replays what the GPU machine recorded (tests/fixtures/attach/recorded/<case>/, made by
# tests/gpu/attach_record.sh and import_recorded.sh): the real RAS transcripts through the
# replay server and the real flight-recorder dumps, and checks each case's verdict. Skips until
# recordings exist.
. "$(dirname "$0")/lib.sh"
R=$FIXTURES/attach/recorded
ls "$R"/*/ras.json >/dev/null 2>&1 || { echo "SKIP: no GPU recordings yet"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
spid=
trap '[ -n "$spid" ] && kill $spid 2>/dev/null; rm -rf "$tmp"' EXIT
for d in "$R"/*/; do
	c=$(basename "$d")
	[ -f "$d/ras.json" ] || continue
	rm -f "$tmp/port"
	timeout 60 python3 "$SRCDIR/tests/fakes/ras_replay.py" "$d/ras.json" --port-file "$tmp/port" --idle 20 &
	spid=$!
	for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
	fr=(); [ -d "$d/fr" ] && fr=(--fr "$d/fr")
	out=$(timeout 40 "$NCCLCHECK" attach --ras "127.0.0.1:$(cat "$tmp/port")" --interval 2s \
		--local-host 192.0.2.1 "${fr[@]}" --no-color 2>&1)
	kill $spid 2>/dev/null; wait $spid 2>/dev/null; spid=
	# the verdict is the first paragraph (wrapped to the terminal width)
	expect_match "$(echo "$out" | sed "/^$/q")" "$(cat "$d/expect_replay.txt")" "recorded $c: verdict"
	# the dumps alone, torch's own and the Python-asked ones, decode
	for f in fr frpy; do
		[ -d "$d/$f" ] || continue
		out=$(timeout 20 "$NCCLCHECK" attach --no-ras --fr "$d/$f" --json 2>&1)
		expect_no_match "$out" 'attach.fr.bad_dump' "recorded $c: every $f dump decodes"
	done
done
finish
