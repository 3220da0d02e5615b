#!/bin/sh
# Builds the static hwloc the portable binary links, from Debian's source package of the hwloc
# this system has (apt-get source, through a private apt state: the system's sources stay as
# they are), configured without plugins, libudev, libxml2 and libpciaccess (hwloc's Linux backend
# reads PCI from sysfs itself: libpciaccess is kept out, not PCI). jansson's static library comes from libjansson-dev as it is.
# Cached: a second run with the same hwloc version does nothing (CI keeps the cache directory).
#   usage: packaging/portable/deps.sh [PREFIX]   prints PREFIX (default: ~/.cache/ncclcheck/...)
# NCCLCHECK_HOST=aarch64-linux-gnu cross-builds it with that GNU triplet's gcc (the aarch64
# toolchain file, packaging/portable/aarch64-linux-gnu.cmake, sets it).
set -eu

ver=$(dpkg-query -W -f='${source:Version}' libhwloc-dev 2>/dev/null) ||
	{ echo "deps.sh: libhwloc-dev is not installed (scripts/deps.sh installs it)" >&2; exit 1; }
upstream=${ver%-*}
upstream=${upstream#*:}
host=${NCCLCHECK_HOST:-}
arch=${host%%-*}
arch=${arch:-$(uname -m)}
cross=""
if [ -n "$host" ]; then
	command -v "$host-gcc" >/dev/null ||
		{ echo "deps.sh: no $host-gcc (scripts/deps.sh installs gcc-aarch64-linux-gnu)" >&2; exit 1; }
	cross="--host=$host CC=$host-gcc"
fi
recipe=2	# bump when the configure line below changes: caches of the old recipe are not used
prefix=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/ncclcheck/hwloc-$upstream-$arch-r$recipe}
if [ -f "$prefix/.done" ]; then
	echo "$prefix"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/parts" "$work/lists/partial" "$work/cache/archives/partial"
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:?}")
mirror=$(grep -rhE '^[[:space:]]*(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
	grep -oE 'https?://[^ ]+/(debian|ubuntu)/?( |$)' | grep -v security | head -n 1 | tr -d ' ')
mirror=${mirror:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || keyring=/usr/share/keyrings/ubuntu-archive-keyring.gpg
components=main
case $mirror in *ubuntu*) components="main universe" ;; esac
cat >"$work/parts/src.sources" <<SRC
Types: deb-src
URIs: $mirror
Suites: $codename
Components: $components
Signed-By: $keyring
SRC
apt_opts="-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$work/parts
	-o Dir::State::Lists=$work/lists -o Dir::Cache=$work/cache -o APT::Sandbox::User=root
	-o Debug::NoLocking=1"
echo "deps.sh: fetching hwloc $ver's source from $mirror ($codename)" >&2
# shellcheck disable=SC2086
apt-get -qq $apt_opts update >&2
# shellcheck disable=SC2086
(cd "$work" && apt-get -qq $apt_opts source --download-only "hwloc=$ver" >&2)
tar -C "$work" -xf "$work"/hwloc_"$upstream".orig.tar.*
src="$work/hwloc-$upstream"

echo "deps.sh: building a static hwloc $upstream into $prefix (a minute or two, once)" >&2
mkdir -p "$prefix"
# shellcheck disable=SC2086
(cd "$src" && ./configure -q $cross --prefix="$prefix" --enable-static --disable-shared \
	--disable-cairo --disable-libxml2 --disable-opencl --disable-cuda \
	--disable-nvml --disable-rsmi --disable-levelzero --disable-gl --disable-libudev \
	--disable-plugin-dlopen --disable-plugin-ltdl --disable-doxygen --disable-readme \
	--disable-dependency-tracking PKG_CONFIG_LIBDIR=/nonexistent ac_cv_header_pciaccess_h=no \
	CFLAGS="-O2 -fPIE -ffunction-sections -fdata-sections" >"$work/configure.log" 2>&1) ||
	{ tail -n 30 "$work/configure.log" >&2; exit 1; }
make -s -C "$src/hwloc" -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -n 30 "$work/make.log" >&2; exit 1; }
make -s -C "$src/hwloc" install >/dev/null
make -s -C "$src/include" install >/dev/null
cp "$src/COPYING" "$prefix/COPYING.hwloc"
touch "$prefix/.done"
echo "$prefix"
