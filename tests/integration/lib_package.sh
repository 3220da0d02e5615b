# shellcheck shell=bash
# Shared helpers for the package tests (sourced after lib.sh): the portable binary and the
# artefacts scripts/release.sh makes, built once per build tree under $BUILDDIR/portable (a lock
# keeps parallel tests from building it twice; make and the hwloc cache make a rebuild cheap).
. "$SRCDIR/tests/integration/lib.sh"

PORTABLE_DIR=$BUILDDIR/portable
PORTABLE_BIN=$PORTABLE_DIR/ncclcheck
PORTABLE_DIST=$PORTABLE_DIR/dist

# portable_build: $PORTABLE_BIN up to date (cmake -DNCCLCHECK_PORTABLE=ON), or skip (77) when
# this machine cannot make it (no static jansson, the Debian archive unreachable for hwloc).
portable_build() {
	[ -f /usr/lib/"$(gcc -dumpmachine)"/libjansson.a ] ||
		{ echo "SKIP: no libjansson.a (scripts/deps.sh installs libjansson-dev)"; exit 77; }
	mkdir -p "$PORTABLE_DIR"
	(
		flock 9
		if [ ! -f "$PORTABLE_DIR/CMakeCache.txt" ]; then
			deps=$(sh "$SRCDIR/packaging/portable/deps.sh") ||
				{ echo "SKIP: no static hwloc (packaging/portable/deps.sh failed: Debian archive unreachable?)"; exit 77; }
			cmake -S "$SRCDIR" -B "$PORTABLE_DIR" -DCMAKE_BUILD_TYPE=Release -DNCCLCHECK_PORTABLE=ON \
				-DNCCLCHECK_TESTS=OFF -DNCCLCHECK_DEPS_PREFIX="$deps" >"$PORTABLE_DIR/configure.log" 2>&1 ||
				{ cat "$PORTABLE_DIR/configure.log"; exit 1; }
		fi
		cmake --build "$PORTABLE_DIR" -j2 >"$PORTABLE_DIR/build.log" 2>&1 ||
			{ tail -n 40 "$PORTABLE_DIR/build.log"; exit 1; }
	) 9>"$PORTABLE_DIR.lock"
	local rc=$?
	[ $rc = 0 ] || exit $rc
}

# portable_artefacts: the wheel and the .deb of $PORTABLE_BIN in $PORTABLE_DIST, their paths in
# WHEEL and DEB for the test that sources this
# shellcheck disable=SC2034
portable_artefacts() {
	portable_build
	(
		flock 9
		if [ ! -f "$PORTABLE_DIST/.stamp" ] || [ "$PORTABLE_BIN" -nt "$PORTABLE_DIST/.stamp" ]; then
			rm -rf "$PORTABLE_DIST" && mkdir -p "$PORTABLE_DIST"
			lic=$PORTABLE_DIST/THIRD-PARTY-LICENSES
			{ cat /usr/share/doc/libjansson-dev/copyright; cat "$(sh "$SRCDIR/packaging/portable/deps.sh")/COPYING.hwloc"; } >"$lic"
			sh "$SRCDIR/packaging/wheel.sh" "$PORTABLE_BIN" "$PORTABLE_DIST" "$lic" >/dev/null &&
				sh "$SRCDIR/packaging/deb.sh" "$PORTABLE_BIN" "$PORTABLE_DIST" "$lic" >/dev/null &&
				touch "$PORTABLE_DIST/.stamp"
		fi
	) 9>"$PORTABLE_DIR.lock" || { fail "building the wheel and the .deb"; finish; }
	WHEEL=$(ls "$PORTABLE_DIST"/ncclcheck-*.whl)
	DEB=$(ls "$PORTABLE_DIST"/ncclcheck_*.deb)
}

# old_root SUITE [PACKAGES]: $ROOT, a cached minimal SUITE chroot with PACKAGES (comma-separated)
# installed (packaging/chroot.sh), or skip.
old_root() {
	need_root
	ROOT=$(sh "$SRCDIR/packaging/chroot.sh" "$1" "${2:-}")
	local rc=$?
	[ $rc = 77 ] && { echo "SKIP: no $1 chroot (its archive is unreachable, or no debootstrap)"; exit 77; }
	[ $rc = 0 ] || { fail "packaging/chroot.sh $1 (exit $rc)"; finish; }
}

# in_root CMD...: CMD inside $ROOT with /proc, /sys and /dev mounted, in a private mount
# namespace: the mounts vanish with it, nothing to unmount, nothing left on the host.
in_root() {
	unshare --mount --propagation private -- sh -c '
		root=$1; shift
		mount -t proc proc "$root/proc" && mount --rbind /sys "$root/sys" &&
			mount --rbind /dev "$root/dev" && exec chroot "$root" "$@"' sh "$ROOT" "$@"
}
