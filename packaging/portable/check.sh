#!/bin/sh
# Fails when the portable binary would not start on an older Linux: a glibc symbol version above
# 2.17 (CentOS 7 / Ubuntu 14.04 era: every supported cloud image has at least that), a symbol
# from any other versioned library, a shared library beyond glibc's own, or more than 5 MB.
#   usage: packaging/portable/check.sh BINARY
set -eu
bin=${1:?usage: check.sh BINARY}
max_glibc=2.17
max_bytes=$((5 * 1024 * 1024))
fail=0
# the binutils that read the binary's machine: a cross-built aarch64 binary needs the cross objdump
. "$(dirname "$0")/../binarch.sh"
objdump=objdump
arch=$(bin_arch "$bin")
if [ "$arch" != "$(uname -m)" ]; then
	objdump=$arch-linux-gnu-objdump
	command -v "$objdump" >/dev/null || { echo "check.sh: $bin is for $arch: needs $objdump" >&2; exit 1; }
fi

# the dynamic symbols with a version newer than max_glibc, one "symbol GLIBC_x.y" a line
newer=$($objdump -T "$bin" | awk -v max="$max_glibc" '
	function newer(v,   a, b) {
		split(substr(v, 7), a, "."); split(max, b, ".")
		return a[1] + 0 > b[1] + 0 || (a[1] + 0 == b[1] + 0 && a[2] + 0 > b[2] + 0)
	}
	{ for (i = 1; i <= NF; i++) if ($i ~ /^\(?GLIBC_[0-9]/) {
		v = $i; gsub(/[()]/, "", v)
		if (newer(v)) print $NF, v
	} }')
if [ -n "$newer" ]; then
	echo "check.sh: $bin needs glibc symbol versions above $max_glibc:" >&2
	echo "$newer" | sed 's/^/  /' >&2
	echo "  (bind each to its old version in packaging/portable/glibc217.c)" >&2
	fail=1
fi
other=$($objdump -T "$bin" | grep -oE '[[:space:]]\(?[A-Z][A-Z0-9_]*_[0-9][0-9.]*\)?[[:space:]]' |
	tr -d '() \t' | grep -v '^GLIBC_' | sort -u || true)
if [ -n "$other" ]; then
	echo "check.sh: $bin binds versioned symbols of other libraries: $other" >&2
	fail=1
fi
allowed=" libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1 "
for lib in $($objdump -p "$bin" | awk '$1 == "NEEDED" { print $2 }'); do
	case $allowed in
	*" $lib "*) ;;
	*) echo "check.sh: $bin needs the shared library $lib (only glibc's may remain)" >&2; fail=1 ;;
	esac
done
size=$(wc -c <"$bin")
if [ "$size" -gt "$max_bytes" ]; then
	echo "check.sh: $bin is $size bytes, over the $max_bytes allowed" >&2
	fail=1
fi
[ "$fail" = 0 ] || exit 1
echo "check.sh: $bin: glibc <= $($objdump -T "$bin" | grep -oE 'GLIBC_[0-9.]+' | sort -V | tail -n 1 |
	cut -c7-), libraries:$($objdump -p "$bin" | awk '$1 == "NEEDED" { printf " %s", $2 }'), $size bytes"
