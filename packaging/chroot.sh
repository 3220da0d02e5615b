#!/bin/sh
# Prints the path of a minimal Debian SUITE chroot (debootstrap --variant=minbase, plus man-db
# and bash-completion for the .deb's test), creating it on first use from the Debian mirror apt
# already uses; cached under ~/.cache/ncclcheck/ (about 300 MB, 1-3 minutes once). Exit 77 when
# it cannot be made here: not root, no debootstrap, or the archive unreachable (tests skip).
#   usage: packaging/chroot.sh SUITE          (bullseye: the oldest release deb.debian.org serves)
set -eu
suite=${1:?usage: chroot.sh SUITE}
arch=$(dpkg --print-architecture)
root=${XDG_CACHE_HOME:-$HOME/.cache}/ncclcheck/chroot-$suite-$arch
[ -f "$root/.done" ] && { echo "$root"; exit 0; }

[ "$(id -u)" = 0 ] || { echo "chroot.sh: debootstrap needs root" >&2; exit 77; }
command -v debootstrap >/dev/null || { echo "chroot.sh: no debootstrap (scripts/deps.sh)" >&2; exit 77; }
mirror=$(grep -rhE '^[[:space:]]*(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
	grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -n 1 | tr -d ' ')
mirror=${mirror:-http://deb.debian.org/debian}
rm -rf --one-file-system "$root.tmp"
mkdir -p "$(dirname "$root")"
echo "chroot.sh: debootstrap $suite from $mirror into $root (once)" >&2
if ! debootstrap --variant=minbase --include=man-db,bash-completion,groff-base \
	"$suite" "$root.tmp" "$mirror" >"$root.log" 2>&1; then
	tail -n 5 "$root.log" >&2
	rm -rf --one-file-system "$root.tmp"
	if grep -qE 'Failed getting release file|Couldn.t download|Temporary failure|resolve' "$root.log"; then
		echo "chroot.sh: the Debian archive ($mirror, $suite) is unreachable from here" >&2
		exit 77
	fi
	exit 1
fi
touch "$root.tmp/.done"
mv "$root.tmp" "$root"
echo "$root"
