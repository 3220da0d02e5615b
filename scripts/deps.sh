#!/bin/sh
# Installs what building, testing and the lab need, from Debian/Ubuntu packages.
# Idempotent: a package already present costs nothing. Needs root (or sudo).
# --test: also what only the tests use (scripts/test.sh passes it): a headless browser for the
# HTML report's test, optional like the cross tools (without it integration.html_report skips).
set -eu
for_tests=""
[ "${1:-}" = --test ] && for_tests=1

build="build-essential cmake pkg-config python3 git libjansson-dev libhwloc-dev libssl-dev"
test="libcmocka-dev clang llvm libclang-rt-dev python3-torch python3-yaml shellcheck time jq"
lab="iproute2 iptables nftables iperf3 procps netcat-openbsd kmod iputils-ping util-linux"
launchers="slurm-wlm munge openmpi-bin"
extra="libibverbs-dev gettext file"
# scripts/release.sh and the package tests: the wheel (Debian's build tools, offline), man pages,
# the old-Debian chroot
packaging="python3-build python3-setuptools python3-wheel python3-venv help2man debootstrap"

pkgs="$build $test $lab $launchers $extra $packaging"

# scripts/release.sh --arch aarch64 and its test: a cross gcc, the arm64 jansson, qemu-user to run
# the result. Debian only: its mirror serves arm64 beside amd64, while an Ubuntu amd64 mirror
# does not (adding the architecture there breaks apt-get update); elsewhere the test skips.
cross="gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static libjansson-dev:arm64"
os=$(. /etc/os-release && echo "${ID:-}")
[ "$os" = debian ] && [ "$(dpkg --print-architecture)" = amd64 ] || cross=""

browser="chromium fonts-dejavu-core"
[ -n "$for_tests" ] || browser=""

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
missing=""
for p in $pkgs; do
	installed "$p" || missing="$missing $p"
done
missing_cross=""
for p in $cross; do
	installed "$p" || missing_cross="$missing_cross $p"
done
missing_browser=""
for p in $browser; do
	installed "$p" || missing_browser="$missing_browser $p"
done
[ -z "$missing$missing_cross$missing_browser" ] && { echo "deps: all present"; exit 0; }

SUDO=""
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null ||
		{ echo "deps: need root to install:$missing$missing_cross$missing_browser" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	echo "deps: installing:$missing"
	$SUDO apt-get update -qq
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [ -n "$missing_cross" ]; then
	echo "deps: installing the aarch64 cross build's:$missing_cross"
	# optional: without them only the aarch64 release test skips
	# shellcheck disable=SC2086
	{ $SUDO dpkg --add-architecture arm64 && $SUDO apt-get update -qq &&
		$SUDO apt-get install -y -qq --no-install-recommends $missing_cross >/dev/null; } ||
		echo "deps: could not install the aarch64 cross tools; integration.package_aarch64 will skip" >&2
fi
if [ -n "$missing_browser" ]; then
	echo "deps: installing the HTML report test's browser:$missing_browser"
	# shellcheck disable=SC2086
	{ $SUDO apt-get update -qq &&
		$SUDO apt-get install -y -qq --no-install-recommends $missing_browser >/dev/null; } ||
		echo "deps: could not install chromium; integration.html_report will skip" >&2
fi
echo "deps: done"
