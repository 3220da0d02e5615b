#!/bin/sh
# Prints the path of a minimal SUITE chroot (debootstrap --variant=minbase, plus man-db and
# bash-completion for the .deb's test, plus PACKAGES), creating it on first use; cached under
# ~/.cache/ncclcheck/ (300-600 MB, 1-5 minutes once). Debian suites come from the Debian mirror
# apt already uses; Ubuntu suites (focal, jammy: the images users train on) from
# archive.ubuntu.com, checked against the Ubuntu archive key pinned below by fingerprint. Exit 77
# when it cannot be made here: not root, no debootstrap, or the archive unreachable (tests skip).
#   usage: packaging/chroot.sh SUITE [PACKAGES]   (PACKAGES: comma-separated, e.g. cmake,gcc)
#   bullseye: the oldest release deb.debian.org serves; focal: Ubuntu 20.04 (glibc 2.31, CMake 3.16)
set -eu
suite=${1:?usage: chroot.sh SUITE [PACKAGES]}
extra=${2:-}
arch=$(dpkg --print-architecture)
tag=""
[ -n "$extra" ] && tag=-$(echo "$extra" | cksum | cut -d' ' -f1)
root=${XDG_CACHE_HOME:-$HOME/.cache}/ncclcheck/chroot-$suite-$arch$tag
[ -f "$root/.done" ] && { echo "$root"; exit 0; }

[ "$(id -u)" = 0 ] || { echo "chroot.sh: debootstrap needs root" >&2; exit 77; }
command -v debootstrap >/dev/null || { echo "chroot.sh: no debootstrap (scripts/deps.sh)" >&2; exit 77; }
[ -f "/usr/share/debootstrap/scripts/$suite" ] ||
	{ echo "chroot.sh: this debootstrap does not know $suite" >&2; exit 77; }
# a build killed half-way leaves its debootstrap mounts (proc, sys) under the .tmp: rm cannot
# cross them, so they go first, deepest first
if [ -d "$root.tmp" ]; then
	awk -v p="$root.tmp/" 'index($2, p) == 1 { print $2 }' /proc/mounts | sort -r |
		while read -r m; do umount -l "$m" 2>/dev/null || true; done
fi
rm -rf --one-file-system "$root.tmp"
mkdir -p "$(dirname "$root")" "$root.tmp"
unreachable() { echo "chroot.sh: the archive ($mirror, $suite) is unreachable from here" >&2; exit 77; }
opts=""
case $suite in
focal | jammy)
	mirror=http://archive.ubuntu.com/ubuntu
	opts=--components=main,universe
	# Debian ships no Ubuntu keyring: take ubuntu-keyring's .deb from the archive and keep only
	# the 2018 archive signing key, whose fingerprint is written here (the trust is this file's,
	# not the download's); debootstrap then checks the suite's Release against it.
	fpr=F6ECB3762474EDA9D21B7022871920D1991BC93C
	k=$root.tmp/.key
	mkdir -p -m 700 "$k"
	deb=pool/main/u/ubuntu-keyring/ubuntu-keyring_2020.02.11.2_all.deb
	curl -fsS --max-time 60 -o "$k/keyring.deb" "$mirror/$deb" || unreachable
	dpkg-deb -x "$k/keyring.deb" "$k/x"
	gpg --homedir "$k" --batch --quiet --no-default-keyring \
		--keyring "$k/x/usr/share/keyrings/ubuntu-archive-keyring.gpg" --export "$fpr" >"$k/archive.gpg"
	[ -s "$k/archive.gpg" ] || { echo "chroot.sh: ubuntu-keyring lacks the pinned key $fpr" >&2; exit 1; }
	mv "$k/archive.gpg" "$root.key.gpg"
	rm -rf "$k"
	opts="$opts --keyring=$root.key.gpg"
	;;
*)
	mirror=$(grep -rhE '^[[:space:]]*(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
		grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -n 1 | tr -d ' ')
	mirror=${mirror:-http://deb.debian.org/debian}
	;;
esac
echo "chroot.sh: debootstrap $suite from $mirror into $root (once)" >&2
# shellcheck disable=SC2086
if ! debootstrap --variant=minbase $opts --include=man-db,bash-completion,groff-base \
	"$suite" "$root.tmp" "$mirror" >"$root.log" 2>&1; then
	tail -n 5 "$root.log" >&2
	rm -rf --one-file-system "$root.tmp"
	grep -qE 'Failed getting release file|Couldn.t download|Temporary failure|resolve' "$root.log" && unreachable
	exit 1
fi
# PACKAGES through the chroot's own apt: debootstrap's --include resolves no alternatives or
# virtual packages (libhwloc-dev's libltdl-dev fails to configure that way)
if [ -n "$extra" ]; then
	# shellcheck disable=SC2016
	if ! unshare --mount --propagation private -- sh -c '
		mount -t proc proc "$1/proc" && exec chroot "$1" sh -c "apt-get -qq update &&
			DEBIAN_FRONTEND=noninteractive apt-get -qq install -y --no-install-recommends $2"' \
		sh "$root.tmp" "$(echo "$extra" | tr , ' ')" >>"$root.log" 2>&1; then
		tail -n 5 "$root.log" >&2
		rm -rf --one-file-system "$root.tmp"
		grep -qE 'Failed to fetch|Temporary failure|Could not resolve' "$root.log" && unreachable
		exit 1
	fi
	rm -rf "$root.tmp"/var/cache/apt/archives/*.deb "$root.tmp"/var/lib/apt/lists/*_Packages
fi
touch "$root.tmp/.done"
mv "$root.tmp" "$root"
echo "$root"
