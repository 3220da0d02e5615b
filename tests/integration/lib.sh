# Shared helpers for integration tests (sourced). Each test ends with `finish`.
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
expect_rc() { # expected actual what
	if [ "$1" = "$2" ]; then pass "$3 (exit $2)"; else fail "$3: exit $2, expected $1"; fi
}
expect_match() { # text regex what
	if printf '%s' "$1" | grep -Eq -- "$2"; then pass "$3"; else fail "$3: no match for /$2/ in: $1"; fi
}
expect_no_match() {
	if printf '%s' "$1" | grep -Eq -- "$2"; then fail "$3: unexpected /$2/ in: $1"; else pass "$3"; fi
}
need_root() { [ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }; }
finish() {
	if [ "$failures" -gt 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
	echo "all passed"; exit 0
}
