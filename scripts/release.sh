#!/bin/sh
# Builds a release into dist/: the portable binary (build/portable: static jansson and hwloc,
# glibc >= 2.17, checked by packaging/portable/check.sh), the tarball, the wheel and the .deb, and
# SHA256SUMS. The version is CMakeLists.txt's project(VERSION); every artefact takes it from the
# built binary's --version, and this script stops if they ever differ. docs/install.md has more.
#   usage: scripts/release.sh            (needs scripts/deps.sh's packages; no network but the
#                                         Debian mirror, once, for hwloc's source)
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
build=$top/build/portable
dist=$top/dist

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNCCLCHECK_PORTABLE=ON -DNCCLCHECK_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" -- -s >/dev/null
bin=$build/ncclcheck
sh packaging/portable/check.sh "$bin"
version=$("$bin" --version | awk '{ print $2 }')
declared=$(sed -n 's/^project(ncclcheck VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[ "$version" = "$declared" ] ||
	{ echo "release.sh: the binary says $version, CMakeLists.txt $declared" >&2; exit 1; }
arch=$(uname -m)

rm -rf "$dist"
mkdir -p "$dist"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# the static libraries' licences travel with every artefact
hwloc_prefix=$(sed -n 's/^NCCLCHECK_DEPS_PREFIX:PATH=//p' "$build/CMakeCache.txt")
[ -n "$hwloc_prefix" ] || hwloc_prefix=$(sh packaging/portable/deps.sh)
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
