#!/bin/bash
# One socket layer: connect() and poll()/ppoll() on sockets happen in src/net/sock.c only, so every
# wait has a deadline and every failure its typed, named error (issue #22); coll/ (bench) opens
# no socket at all but through net/sock and rdv/. The files below wait
# on pipes, not sockets, or ask the routing table with a UDP connect, and are the exceptions.
set -u
. "$SRCDIR/tests/integration/lib.sh"
cd "$SRCDIR/src" || fail "no src/ under $SRCDIR"
allowed='^(net/sock\.c|util/subproc\.c|coll/nccl\.c|probe/[a-z_]+\.c):'
# calls, not words: string literals and comment lines are dropped before looking
hits=$(grep -rnE '(connect|poll)\(' --include='*.c' --include='*.h' . | sed 's|^\./||' |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)' |
	sed -E 's/"([^"\\]|\\.)*"/""/g' | grep -E '(^|[^_A-Za-z0-9>.])(connect|poll|ppoll)\(')
bad=$(printf '%s\n' "$hits" | grep -vE "$allowed")
expect_no_match "$bad" . "connect()/poll() on sockets only in net/sock.c"
n=$(grep -rnE '(^|[^_A-Za-z0-9])wait_fd[[:space:]]*\(' --include='*.c' . | grep -vc 'net_wait_fd')
expect_match "$n" '^0$' "one wait_fd: net_wait_fd ($n other definitions or calls)"
# bench's bootstrap rides on rdv/ and its ring on net/sock: coll/ makes, binds, connects and
# accepts no socket of its own (a socketpair to the NCCL child is no network socket)
coll=$(grep -rnE '(^|[^_A-Za-z0-9>.])(socket|connect|accept4?|bind|listen)[[:space:]]*\(' \
	--include='*.c' --include='*.h' coll | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)' |
	sed -E 's/"([^"\\]|\\.)*"/""/g' | grep -E '(^|[^_A-Za-z0-9>.])(socket|connect|accept4?|bind|listen)\(')
expect_no_match "$coll" . "coll/ opens no socket of its own: socket()/connect()/accept()/bind()/listen()"
[ ! -e coll/boot_io.c ] && pass "no second socket layer in coll/ (boot_io.c is gone)" ||
	fail "coll/boot_io.c is back"
# the exceptions are what they say: nccl.c and subproc.c poll pipes, probe/ connects UDP
expect_no_match "$(grep -nE '\bconnect[[:space:]]*\(' util/subproc.c coll/nccl.c)" . \
	"util/subproc.c and coll/nccl.c connect nothing"
finish
