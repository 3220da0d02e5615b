#!/bin/bash
# --help and the option parser come from one table per verb. Walks every verb 'ncclcheck --help'
# lists and every subcommand a verb's page lists: each page exits 0, fits 100 columns, ends in
# examples and exit codes; its synopsis names the same options as its option list; every option
# listed (and every old spelling) is accepted by that very parser, and every option its examples
# use is one it lists; an unknown option is exit 2 naming it, a typo gets a "did you mean", and
# with --json the error is a JSON document {"error": ...}.
set -u
. "$SRCDIR/tests/integration/lib.sh"

# opts HELP: the long options of the option list (lines starting with "  -x, --name" or "  --name")
opts() { printf '%s\n' "$1" | sed -nE 's/^  (-[a-zA-Z], )?--([a-z0-9_-]+).*/\2/p' | sort -u; }
# aliases HELP: the old spellings listed under an option
aliases() { printf '%s\n' "$1" | sed -nE 's/^ +\(old spelling --([a-z0-9_-]+).*/\1/p' | sort -u; }
# synopsis HELP: the long options in the usage lines (up to the first blank line)
synopsis() { printf '%s\n' "$1" | sed '/^$/q' | grep -oE '\[--[a-z0-9_-]+' | sed 's/^\[--//' | sort -u; }
# placeholder HELP NAME: the value's placeholder after --NAME (empty: a flag)
placeholder() {
	printf '%s\n' "$1" | sed -nE -e "s/^  (-[a-zA-Z], )?--$2 ([^ ]+) .*/\2/p" \
		-e "s/^ +\(old spelling --$2 ([^:]+):.*/\1/p" | head -n 1
}
# a value option $2's placeholder $1 accepts on page $3, so that --help is reached after it
value_for() {
	case "$3 --$2" in
	"bench p2p --window") echo 64; return;; *--chunk|*--window) echo 1M; return;;
	*--max-mtu) echo 1500; return;;
	esac
	case "$1" in
	SEC|SECS|SECONDS) echo 5;; N|PID) echo 2;; R) echo 1;; I=NAME) echo 1=ens5;;
	ADDR:PORT) echo 127.0.0.1:1;; '[ADDR:]PORT'|PORT) echo 29400;; LO-HI) echo 1-2;;
	'P,...'|'N[,N...]') echo 1;; D|DUR) echo 2s;;
	B) echo tcp;; T) echo float;; OP) echo sum;; NAME) echo generic;; LIST) echo connect;; SRC) echo auto;;
	ADDR) echo 127.0.0.1;; IF) echo eth0;; RANK=URL) echo 0=http://127.0.0.1:1;; DIR) echo /tmp;;
	*) echo x;;
	esac
}
# subcommands HELP: the words of the "Subcommands" section
subcommands() { printf '%s\n' "$1" | sed -n '/^Subcommands/,/^$/p' | sed -nE 's/^  ([a-z0-9]+) .*/\1/p'; }
# example_opts HELP PAGE SUBS: options the examples give to 'ncclcheck PAGE' (not to a subcommand,
# not after CMD's '--'), one per line
example_opts() {
	printf '%s\n' "$1" | sed -n '/^Examples:/,/^$/p' | sed 's/ncclcheck /\n@/g' | grep "^@$2 " |
	while read -r seg; do
		rest=" ${seg#@$2 }"
		first=${rest# }; first=${first%% *}
		case " $(echo $3) " in *" $first "*) continue;; esac
		printf '%s\n' "${rest%% -- *}" | sed 's/([^)]*)//g' | grep -oE -- '(^| )--[a-z0-9_-]+' |
			sed 's/^ *--//'
	done | sort -u
}

top=$("$NCCLCHECK" --help); expect_rc 0 $? "ncclcheck --help"
verbs=$(printf '%s\n' "$top" | sed -n '/^Verbs:/,/^$/p' | sed -nE 's/^  ([a-z]+) .*/\1/p')
[ "$(echo $verbs)" = "node cluster bench config run explain lab attach report" ] && pass "nine verbs" ||
	fail "verbs listed: $(echo $verbs)"

pages=
for v in $verbs; do
	pages="$pages$v
"
	for s in $(subcommands "$("$NCCLCHECK" $v --help)"); do pages="$pages$v $s
"; done
done
printf '%s' "$pages" | grep -qx "bench p2p" && printf '%s' "$pages" | grep -qx "bench tune" &&
	printf '%s' "$pages" | grep -qx "lab up" && pass "subcommands found" || fail "subcommands: $pages"

while IFS= read -r page; do
	[ -n "$page" ] || continue
	help=$("$NCCLCHECK" $page --help); expect_rc 0 $? "$page --help"
	wide=$(printf '%s\n' "$help" | awk 'length($0) > 100')
	[ -z "$wide" ] && pass "$page: within 100 columns" || fail "$page: wider than 100: $wide"
	printf '%s\n' "$help" | grep -q '^Examples:$' && pass "$page: examples" ||
		fail "$page: no examples"
	printf '%s\n' "$help" | grep -q '^Exit codes: ' && pass "$page: exit codes" ||
		fail "$page: no exit codes"
	listed=$(opts "$help")
	[ -n "$listed" ] || { fail "$page --help lists no options"; continue; }
	[ "$(synopsis "$help")" = "$listed" ] && pass "$page: synopsis and option list agree" ||
		fail "$page: synopsis [$(synopsis "$help" | tr '\n' ' ')] vs options [$(echo $listed)]"
	subs=$(subcommands "$help")
	# the parser of this page; lab's own page lists its subcommands' options, 'lab up' takes all
	parser=$page
	[ "$page" = lab ] && parser="lab up"
	for o in $listed $(aliases "$help"); do
		ph=$(placeholder "$help" "$o")
		if [ -n "$ph" ]; then
			"$NCCLCHECK" $parser "--$o" "$(value_for "$ph" "$o" "$parser")" --help >/dev/null 2>&1; rc=$?
		else
			"$NCCLCHECK" $parser "--$o" --help >/dev/null 2>&1; rc=$?
		fi
		expect_rc 0 $rc "$parser accepts --$o"
	done
	for o in $(example_opts "$help" "$page" "$subs"); do
		printf '%s\n' "$listed" | grep -qx -- "$o" && pass "$page: example's --$o is listed" ||
			fail "$page: an example uses --$o, which the page does not list"
	done
	[ "$page" = lab ] && continue # its parser is the subcommand's
	err=$("$NCCLCHECK" $page --no-such-option 2>&1 >/dev/null); expect_rc 2 $? "$page refuses an option it does not list"
	expect_match "$err" "unknown option '--no-such-option'" "$page says which option"
	o=$(printf '%s\n' "$listed" | awk 'length($0) > 4' | head -n 1)
	# (report's options are --html and --help: none long enough for a typo to be told apart)
	if [ -n "$o" ]; then
		err=$("$NCCLCHECK" $page "--${o}x" 2>&1 >/dev/null); expect_rc 2 $? "$page: a typo"
		expect_match "$err" "did you mean '--$o'" "$page: suggests --$o for --${o}x"
	fi
	if printf '%s\n' "$listed" | grep -qx json; then
		out=$("$NCCLCHECK" $page --json --no-such-option 2>/dev/null); expect_rc 2 $? "$page --json: usage error"
		printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert "unknown option" in d["error"] and d["exit_code"] == 2, d' &&
			pass "$page --json: the error is a JSON document" ||
			fail "$page --json: no {\"error\": ...} on stdout: $out"
	fi
done <<EOF
$pages
EOF

# unknown subcommands: the verb's own list, with a suggestion
err=$("$NCCLCHECK" lab statu 2>&1 >/dev/null); expect_rc 2 $? "lab statu"
expect_match "$err" "did you mean 'status'" "lab: subcommand suggestion"
err=$("$NCCLCHECK" bench allreduc 2>&1 >/dev/null); expect_rc 2 $? "bench allreduc"
expect_match "$err" "unknown collective 'allreduc'" "bench: a word that is no subcommand is the collective"
finish
