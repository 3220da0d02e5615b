#!/bin/sh
# Builds dist/ncclcheck_VERSION_ARCH.deb with dpkg-deb: the portable binary, a man page per verb
# and the bash and zsh completions (packaging/gen-docs.sh, from the binary's own --help).
#   usage: packaging/deb.sh BINARY OUTDIR LICENSES   (LICENSES: the static libraries' licence texts)
set -eu
usage="usage: deb.sh BINARY OUTDIR LICENSES"
bin=$(readlink -f "${1:?$usage}")
out=$(mkdir -p "${2:?$usage}" && cd "$2" && pwd)
licenses=$(readlink -f "${3:?$usage}")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/project.env"
. "$here/binarch.sh"
version=$(bin_run "$bin" --version | awk '{ print $2 }')
arch=$(deb_arch "$(bin_arch "$bin")")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/root"

install -D -m 755 "$bin" "$root/usr/bin/ncclcheck"
"$here/gen-docs.sh" "$bin" "$stage/docs" >/dev/null
mkdir -p "$root/usr/share/man/man1"
for page in "$stage"/docs/man1/*.1; do
	gzip -9n <"$page" >"$root/usr/share/man/man1/$(basename "$page").gz"
done
install -D -m 644 "$stage/docs/bash/ncclcheck" "$root/usr/share/bash-completion/completions/ncclcheck"
install -D -m 644 "$stage/docs/zsh/_ncclcheck" "$root/usr/share/zsh/vendor-completions/_ncclcheck"
doc="$root/usr/share/doc/ncclcheck"
mkdir -p "$doc"
{
	echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
	echo "Upstream-Name: ncclcheck"
	echo
	echo "Files: *"
	echo "Copyright: $MAINTAINER"
	echo "License: $LICENSE_ID"
	echo
	echo "Comment: the binary links jansson (MIT) and hwloc (BSD-3-clause) statically:"
	sed 's/^/ /; s/^ $/ ./' "$licenses"
} >"$doc/copyright"
printf 'ncclcheck (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' \
	"$version" "$version" "$MAINTAINER" "$(date -R -d "@${SOURCE_DATE_EPOCH:-0}")" |
	gzip -9n >"$doc/changelog.Debian.gz"

mkdir -p "$root/DEBIAN"
{
	echo "Package: ncclcheck"
	echo "Version: $version"
	echo "Architecture: $arch"
	echo "Maintainer: $MAINTAINER"
	echo "Installed-Size: $(du -sk "$root/usr" | cut -f1)"
	echo "Depends: libc6 (>= 2.17)"
	echo "Suggests: python3"
	echo "Section: utils"
	echo "Priority: optional"
	[ -n "$HOMEPAGE" ] && echo "Homepage: $HOMEPAGE"
	echo "Description: $SUMMARY"
	echo " ncclcheck checks every node of a multi-node PyTorch / Lightning job on NCCL: the"
	echo " stack, the network between the nodes, what NCCL will do; it explains failed runs"
	echo " from their logs and names the rank a hung job waits for. Every finding comes with"
	echo " the exact fix. NVIDIA's libraries are loaded at run time when present."
} >"$root/DEBIAN/control"
deb="$out/ncclcheck_${version}_$arch.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
