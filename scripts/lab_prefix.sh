# shellcheck shell=bash
# Sourced by every script that builds a lab (tests/integration/lib_lab.sh, bench/*.sh,
# tests/gpu/*.sh): each run names its lab with lab_prefix TAG, so two runs on one machine (two
# checkouts, a bench beside a test suite, a second GPU run) never share a prefix and never remove
# each other's lab. Needs $NCCLCHECK for lab_sweep.

# lab_prefix TAG: prints this run's prefix for TAG (at most 4 characters, [a-z][a-z0-9]*): TAG
# and this shell's pid in base 36, 5 digits (pid_max is at most 2^22 < 36^5), so at most 9
# characters (LAB_PREFIX_MAX). No two running scripts share a pid, so no two share a prefix,
# whichever checkout started them; a fixed prefix per script (nct4h) collided as soon as two
# ran on one machine, each removing the other's lab.
lab_prefix() {
	local tag=$1 n=$$ d=0123456789abcdefghijklmnopqrstuvwxyz s="" i
	[[ $tag =~ ^[a-z][a-z0-9]{0,3}$ ]] || { echo "lab_prefix: bad tag '$tag'" >&2; exit 2; }
	for i in 1 2 3 4 5; do s=${d:n % 36:1}$s; n=$((n / 36)); done
	echo "$tag$s"
}

# lab_sweep TAG: removes labs of TAG whose run is gone (one killed before its trap ran); a lab
# whose pid still runs is left alone: it may be another run's.
lab_sweep() {
	local tag=$1 p pid
	for p in $({ ls /run/ncclcheck/lab 2>/dev/null; ip netns list 2>/dev/null | awk '{print $1}' |
		sed 's/-[a-z0-9]*$//'; } | grep -E "^$tag[0-9a-z]{5}$" | sort -u); do
		pid=$((36#${p#"$tag"}))
		[ "$pid" != $$ ] && ! kill -0 "$pid" 2>/dev/null &&
			"$NCCLCHECK" lab down --prefix "$p" >/dev/null 2>&1
	done
	return 0
}
