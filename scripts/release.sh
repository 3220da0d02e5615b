#!/bin/sh
# Builds a release into dist/: the portable binary (build/portable: static jansson and hwloc,
# glibc >= 2.17, checked by packaging/portable/check.sh), the tarball, the wheel and the .deb, and
# SHA256SUMS. The version is CMakeLists.txt's project(VERSION); every artefact takes it from the
# built binary's --version, and this script stops if they ever differ. docs/install.md has more.
#   usage: scripts/release.sh [--arch aarch64]   (needs scripts/deps.sh's packages; no network
#          but the Debian mirror, once, for hwloc's source)
# --arch aarch64 cross-builds on an x86_64 machine (packaging/portable/aarch64-linux-gnu.cmake)
# and runs the aarch64 binary under qemu-user for its version and --help pages; its artefacts
# join the machine's own in dist/ (each run replaces only its own architecture's files).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
. packaging/binarch.sh
arch=$(uname -m)
case ${1:-} in
"") ;;
--arch) arch=${2:?"usage: release.sh [--arch aarch64]"} ;;
*) echo "usage: release.sh [--arch aarch64]" >&2; exit 2 ;;
esac
toolchain=""
build=$top/build/portable
if [ "$arch" != "$(uname -m)" ]; then
	[ -f "packaging/portable/$arch-linux-gnu.cmake" ] ||
		{ echo "release.sh: no cross recipe for $arch (packaging/portable/*-linux-gnu.cmake)" >&2; exit 2; }
	toolchain=-DCMAKE_TOOLCHAIN_FILE=$top/packaging/portable/$arch-linux-gnu.cmake
	build=$top/build/portable-$arch
fi
dist=$top/dist

# shellcheck disable=SC2086
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNCCLCHECK_PORTABLE=ON -DNCCLCHECK_TESTS=OFF \
	$toolchain >/dev/null
cmake --build "$build" -j"$(nproc)" -- -s >/dev/null
bin=$build/ncclcheck
sh packaging/portable/check.sh "$bin"
[ "$(bin_arch "$bin")" = "$arch" ] || { echo "release.sh: $bin is not an $arch binary" >&2; exit 1; }
version=$(bin_run "$bin" --version | awk '{ print $2 }')
declared=$(sed -n 's/^project(ncclcheck VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[ "$version" = "$declared" ] ||
	{ echo "release.sh: the binary says $version, CMakeLists.txt $declared" >&2; exit 1; }

mkdir -p "$dist"
rm -f "$dist/SHA256SUMS" "$dist"/ncclcheck-*-linux-"$arch"* "$dist"/ncclcheck-*_"$arch".whl \
	"$dist"/ncclcheck_*_"$(deb_arch "$arch")".deb
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# the static libraries' licences travel with every artefact
hwloc_prefix=$(sed -n 's/^NCCLCHECK_DEPS_PREFIX:PATH=//p' "$build/CMakeCache.txt")
[ -n "$hwloc_prefix" ] || hwloc_prefix=$(NCCLCHECK_HOST=${toolchain:+$arch-linux-gnu} sh packaging/portable/deps.sh)
licenses=$stage/THIRD-PARTY-LICENSES
{
	echo "ncclcheck $version links these libraries statically."
	echo
	echo "== jansson (MIT) =="
	cat /usr/share/doc/libjansson-dev/copyright
	echo
	echo "== hwloc (BSD-3-clause) =="
	cat "$hwloc_prefix/COPYING.hwloc"
} >"$licenses"

# tarball: unpack anywhere, bin/ncclcheck runs in place
name=ncclcheck-$version-linux-$arch
tree=$stage/$name
install -D -m 755 "$bin" "$tree/bin/ncclcheck"
sh packaging/gen-docs.sh "$bin" "$stage/docs" >/dev/null
mkdir -p "$tree/share/man"
cp -r "$stage/docs/man1" "$tree/share/man/"
install -D -m 644 "$stage/docs/bash/ncclcheck" "$tree/share/bash-completion/completions/ncclcheck"
install -D -m 644 "$stage/docs/zsh/_ncclcheck" "$tree/share/zsh/site-functions/_ncclcheck"
cp README.md docs/install.md "$licenses" "$tree/"
tar -C "$stage" --owner=0 --group=0 --numeric-owner --sort=name \
	--mtime="@${SOURCE_DATE_EPOCH:-0}" -czf "$dist/$name.tar.gz" "$name"

sh packaging/wheel.sh "$bin" "$dist" "$licenses" >/dev/null
sh packaging/deb.sh "$bin" "$dist" "$licenses" >/dev/null
cp "$bin" "$dist/ncclcheck-$version-linux-$arch"
(cd "$dist" && sha256sum -- * >SHA256SUMS)
echo "release.sh: dist/ for ncclcheck $version:"
(cd "$dist" && ls -l -- * | awk '{ printf "  %9d  %s\n", $5, $9 }')
