# Shared helpers for integration tests (sourced). Each test ends with `finish`.
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
expect_rc() { # expected actual what
	if [ "$1" = "$2" ]; then pass "$3 (exit $2)"; else fail "$3: exit $2, expected $1"; fi
}
# unwrap: text reports wrap long lines at word boundaries and indent the rest (src/util/wrap.c);
# this joins each indented line to the one before it with one space, so a regex written for one
# long line still finds it. expect_match passes when the text as printed or unwrapped matches;
# expect_no_match fails when either does.
unwrap() { sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  */ /g'; }
expect_match() { # text regex what
	if printf '%s' "$1" | grep -Eq -- "$2" || printf '%s' "$1" | unwrap | grep -Eq -- "$2"; then
		pass "$3"; else fail "$3: no match for /$2/ in: $1"; fi
}
expect_no_match() {
	if printf '%s' "$1" | grep -Eq -- "$2" || printf '%s' "$1" | unwrap | grep -Eq -- "$2"; then
		fail "$3: unexpected /$2/ in: $1"; else pass "$3"; fi
}
need_root() { [ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }; }
finish() {
	if [ "$failures" -gt 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
	echo "all passed"; exit 0
}

# netns_pair NS PEER [EXTRA_CLEANUP_CMD]: a "node" namespace and a peer namespace for a test,
# plus a scratch directory $tmp; skips (77) where namespaces cannot be made; a trap removes all of
# it on exit, also on failure or Ctrl-C. Names must carry the test's own prefix.
netns_pair() {
	NS=$1 PEER=$2 NETNS_EXTRA_CLEANUP=${3:-:}
	need_root
	command -v ip >/dev/null 2>&1 || { echo "SKIP: no 'ip' command"; exit 77; }
	trap 'ip netns del "$NS" 2>/dev/null; ip netns del "$PEER" 2>/dev/null; rm -rf "${tmp:-/nonexistent}"; eval "$NETNS_EXTRA_CLEANUP"' EXIT
	trap 'exit 1' INT TERM
	ip netns add "$NS" 2>/dev/null || { echo "SKIP: cannot create network namespaces (ip netns)"; exit 77; }
	ip netns add "$PEER" || { echo "SKIP: cannot create network namespaces"; exit 77; }
	tmp=$(mktemp -d)
}
