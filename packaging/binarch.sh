# shellcheck shell=sh
# Sourced by the packaging scripts: what machine a binary is for, and how to run it here. A
# cross-built aarch64 binary (scripts/release.sh --arch aarch64) runs under qemu-user with the
# cross toolchain's glibc, so the version, --help pages and completions come from the binary
# itself whichever machine built it.

# bin_arch BIN: x86_64 or aarch64, read from the ELF header's e_machine (62, 183)
bin_arch() {
	case $(od -An -j18 -N2 -tu2 "$1" | tr -d ' ') in
	62) echo x86_64 ;;
	183) echo aarch64 ;;
	*) echo "binarch.sh: $1 is not an x86_64 or aarch64 ELF binary" >&2; return 1 ;;
	esac
}

# bin_emu BIN: the words to put before BIN to run it here: nothing for this machine's binaries,
# qemu-user and the cross glibc for another machine's
bin_emu() {
	_arch=$(bin_arch "$1") || return 1
	if [ "$_arch" = "$(uname -m)" ]; then
		:
	elif command -v "qemu-$_arch-static" >/dev/null && [ -d "/usr/$_arch-linux-gnu" ]; then
		echo "qemu-$_arch-static -L /usr/$_arch-linux-gnu"
	else
		echo "binarch.sh: $1 is for $_arch; running it here needs qemu-user-static and" \
			"the $_arch-linux-gnu cross glibc (scripts/deps.sh installs both)" >&2
		return 1
	fi
}

# bin_run BIN ARG...: BIN ARG..., under qemu-user when BIN is for another machine
bin_run() {
	_emu=$(bin_emu "$1") || return 1
	# shellcheck disable=SC2086
	$_emu "$@"
}

# deb_arch ARCH: Debian's name for the machine
deb_arch() {
	case $1 in x86_64) echo amd64 ;; aarch64) echo arm64 ;; *) echo "$1" ;; esac
}
