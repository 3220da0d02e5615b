#!/bin/bash
# Ubuntu 20.04 (focal), the oldest image users train on, in a chroot made here from
# archive.ubuntu.com (packaging/chroot.sh; skipped when the archive is unreachable): its own
# CMake 3.16, gcc 9, jansson 2.12 and hwloc 2.1 build the tool from a copy of this tree the
# documented way (docs/install.md: -DNCCLCHECK_TESTS=OFF, no cmocka, -Werror on), and that build
# and the portable binary both run there (glibc 2.31) and answer as this host's build does.
# ctest: timeout 1800
set -u
. "$SRCDIR/tests/integration/lib_package.sh"
need_root
old_root focal build-essential,cmake,pkg-config,python3,libjansson-dev,libhwloc-dev,libssl-dev
echo "chroot: $(grep PRETTY_NAME "$ROOT/etc/os-release" | cut -d= -f2), $(in_root cmake --version | head -n 1)"

src=/tmp/ncclcheck-src-$$ b=/tmp/ncclcheck-build-$$
trap 'rm -rf "$ROOT$src" "$ROOT$b" "$ROOT/tmp/logs-$$" "$ROOT/tmp/portable-$$"' EXIT
mkdir -p "$ROOT$src"
git -C "$SRCDIR" ls-files -z --cached --others --exclude-standard |
	(cd "$SRCDIR" && tar --null -T - -cf -) | tar -C "$ROOT$src" -xf -
expect_match "$(in_root cmake --version | head -n 1)" '^cmake version 3\.16\.' "focal's own CMake is 3.16"
out=$(in_root sh -c "cmake -S $src -B $b -DNCCLCHECK_TESTS=OFF 2>&1 && cmake --build $b -j2 2>&1"); rc=$?
expect_rc 0 $rc "cmake 3.16 + gcc 9 build the tool (-Werror): $(echo "$out" | grep -E 'error|Error|warning' | head -n 5)"
[ $rc = 0 ] || finish
expect_match "$(in_root "$b/ncclcheck" --version 2>&1)" "^$("$NCCLCHECK" --version)\$" "the focal build's --version"
json=$(in_root "$b/ncclcheck" node --no-python --json 2>/dev/null)
echo "$json" | jq -e '.facts.host and .facts.net and .findings' >/dev/null &&
	pass "node --no-python --json on focal is a report" || fail "node --json: $(echo "$json" | head -c 300)"
expect_match "$(echo "$json" | jq -r '.facts.topology | type')" '^object$' "hwloc 2.1 reads the topology"

# the log under the same relative name on both sides: the text wraps at the same columns
mkdir -p "$ROOT/tmp/logs-$$" && cp "$FIXTURES/logs/signatures.log" "$ROOT/tmp/logs-$$/"
want=$(cd "$FIXTURES/logs" && "$NCCLCHECK" explain --no-color signatures.log 2>&1)
got=$(in_root sh -c "cd /tmp/logs-$$ && $b/ncclcheck explain --no-color signatures.log" 2>&1)
[ "$got" = "$want" ] && pass "explain on focal's build gives this host's answer" ||
	fail "explain differs: $(diff <(echo "$want") <(echo "$got") | head)"

portable_build
cp "$PORTABLE_BIN" "$ROOT/tmp/portable-$$"
expect_match "$(in_root /tmp/portable-$$ --version 2>&1)" "^$("$NCCLCHECK" --version)\$" \
	"the portable binary runs on focal (glibc $(in_root ldd --version | head -n 1 | grep -oE '[0-9.]+$'))"
got=$(in_root sh -c "cd /tmp/logs-$$ && /tmp/portable-$$ explain --no-color signatures.log" 2>&1)
[ "$got" = "$want" ] && pass "and explains as this host's build does" || fail "portable explain differs on focal"
finish
