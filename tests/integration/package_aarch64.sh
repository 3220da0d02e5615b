#!/bin/bash
# The aarch64 release, cross-built here (scripts/release.sh --arch aarch64: gcc-aarch64-linux-gnu,
# the arm64 libjansson-dev, hwloc cross-built from Debian's source) and run under qemu-user with
# the cross toolchain's glibc: every glibc symbol version <= 2.17 (aarch64's first), glibc's own
# libraries only, and it answers what the x86_64 build answers — the same explain verdicts on the
# public logs, the same network, sysctl and limit facts — and its wheel and .deb carry the
# aarch64 tags. What qemu-user cannot show (probes that run in a forked child with a deadline: NVML, name lookup, host tools; dlopen of the
# x86_64 NVIDIA libraries, the ethtool ioctl) is left out of the comparison, not faked.
# ctest: timeout 1200
set -u
. "$SRCDIR/tests/integration/lib_package.sh"
. "$SRCDIR/packaging/binarch.sh"
command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64-static >/dev/null &&
	[ -f /usr/lib/aarch64-linux-gnu/libjansson.a ] ||
	{ echo "SKIP: no aarch64 cross toolchain (scripts/deps.sh installs gcc-aarch64-linux-gnu," \
		"qemu-user-static and libjansson-dev:arm64)"; exit 77; }

top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT
# a copy of the tree: release.sh builds into the tree's build/ and dist/, never the developer's
git -C "$SRCDIR" ls-files -z --cached --others --exclude-standard | (cd "$SRCDIR" && tar --null -T - -cf -) | tar -C "$top" -xf -
out=$(sh "$top/scripts/release.sh" --arch aarch64 2>&1); rc=$?
expect_rc 0 $rc "release.sh --arch aarch64: $(echo "$out" | tail -n 8)"
[ $rc = 0 ] || finish
bin=$top/build/portable-aarch64/ncclcheck
expect_match "$(bin_arch "$bin")" '^aarch64$' "the binary is an aarch64 ELF"
# glibc symbol versions <= 2.17, glibc's own libraries only, at most 5 MB
out=$(sh "$top/packaging/portable/check.sh" "$bin" 2>&1); rc=$?
expect_rc 0 $rc "check.sh accepts the aarch64 binary: $out"

q() { bin_run "$bin" "$@"; }
expect_match "$(q --version)" "^$("$NCCLCHECK" --version)\$" "the same --version under qemu"

same=0 differ=""
for log in "$FIXTURES"/logs/public/*.log; do
	if cmp -s <(q explain --json "$log" 2>&1) <("$NCCLCHECK" explain --json "$log" 2>&1); then
		same=$((same + 1))
	else
		differ="$differ $(basename "$log")"
	fi
done
expect_match "$same${differ:+ (differ:$differ)}" '^[1-9][0-9]*$' \
	"explain --json: the same answer on every public log ($same)"

q node --no-python --json >"$top/a.json" 2>/dev/null
"$NCCLCHECK" node --no-python --json >"$top/x.json" 2>/dev/null
expect_match "$(jq -r .facts.host.arch "$top/a.json")" '^aarch64$' "node --json: host.arch aarch64"
# the kernel's answers read through plain syscalls, netlink and /proc: the same on both builds
# (but the neighbour table's live figures, which other tests' namespaces move in between)
portable_facts() { jq -S '.facts | {sysctl: (.sysctl | del(.neigh_entries, .neigh_table_fulls)),
	limits, shm, net: (.net | del(.. | .driver?))}' "$1"; }
if diff <(portable_facts "$top/a.json") <(portable_facts "$top/x.json") >"$top/diff"; then
	pass "node --json: the same network, sysctl, limit and shm facts"
else
	fail "node --json differs from the x86_64 build: $(head -n 20 "$top/diff")"
fi

whl=$(ls "$top"/dist/ncclcheck-*-py3-none-manylinux_2_17_aarch64.whl 2>/dev/null)
expect_match "$whl" 'manylinux_2_17_aarch64\.whl$' "the wheel carries the manylinux_2_17_aarch64 tag"
[ -n "$whl" ] && expect_match "$(unzip -p "$whl" '*.dist-info/WHEEL')" 'Tag: py3-none-manylinux_2_17_aarch64' \
	"its WHEEL file says so"
deb=$(ls "$top"/dist/ncclcheck_*_arm64.deb 2>/dev/null)
expect_match "$(dpkg-deb -f "$deb" Architecture 2>&1)" '^arm64$' "the .deb is for arm64"
expect_match "$(dpkg-deb -c "$deb" | grep -c 'man1/ncclcheck-.*\.1\.gz')" '^[5-9]$' \
	"the .deb's man pages came from the aarch64 binary's --help under qemu"
(cd "$top/dist" && sha256sum -c --quiet SHA256SUMS) && pass "SHA256SUMS holds" || fail "SHA256SUMS"
finish
