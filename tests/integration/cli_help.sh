#!/bin/bash
# --help and the option parser come from one table per verb: every option a verb's --help lists
# is accepted by that verb, its synopsis names the same options as its option list, and an
# option that is not listed is refused.
set -u
. "$SRCDIR/tests/integration/lib.sh"

# opts HELP: the long options of the option list (lines starting with "  -x, --name" or "  --name")
opts() { printf '%s\n' "$1" | sed -nE 's/^  (-[a-z], )?--([a-z0-9-]+).*/\2/p' | sort -u; }
# synopsis HELP: the long options in the usage lines (up to the first blank line)
synopsis() { printf '%s\n' "$1" | sed '/^$/q' | grep -oE '\[--[a-z0-9-]+' | sed 's/^\[--//' | sort -u; }
# placeholder HELP NAME: the value's placeholder after --NAME in the option list (empty: a flag)
placeholder() { printf '%s\n' "$1" | sed -nE "s/^  (-[a-z], )?--$2 ([A-Z]+).*/\2/p" | head -n 1; }
# a value each placeholder accepts, so that --help is reached after it
value_for() { case "$1" in SEC) echo 5;; N) echo 2;; I) echo 1=ens5;; *) echo x;; esac; }

for verb in node explain "lab up" "lab status" "lab down" "lab exec"; do
	help=$("$NCCLCHECK" $verb --help); expect_rc 0 $? "$verb --help"
	listed=$(opts "$help")
	[ -n "$listed" ] || { fail "$verb --help lists no options"; continue; }
	case "$verb" in
	lab*) ;; # one page for all subcommands: its synopsis lines together name every option
	*) [ "$(synopsis "$help")" = "$listed" ] && pass "$verb: synopsis and option list agree" ||
		fail "$verb: synopsis [$(synopsis "$help" | tr '\n' ' ')] vs options [$(echo $listed)]";;
	esac
	# the options the parser of this very verb accepts: a subcommand only takes its own
	sub_listed=$listed
	[ "$verb" != "lab up" ] && case "$verb" in lab*) sub_listed=$(printf '%s\n' "$(synopsis "$(printf '%s\n' "$help" | grep -E "ncclcheck $verb ")")" | sort -u);; esac
	for o in $sub_listed; do
		ph=$(placeholder "$help" "$o")
		if [ -n "$ph" ]; then
			"$NCCLCHECK" $verb "--$o" "$(value_for "$ph")" --help >/dev/null 2>&1; rc=$?
		else
			"$NCCLCHECK" $verb "--$o" --help >/dev/null 2>&1; rc=$?
		fi
		expect_rc 0 $rc "$verb accepts --$o"
	done
	err=$("$NCCLCHECK" $verb --no-such-option 2>&1 >/dev/null); expect_rc 2 $? "$verb refuses an option it does not list"
	expect_match "$err" "unknown option '--no-such-option'" "$verb says which option"
done
finish
