#!/bin/bash
# Teardown at any moment (issue #23): `lab up` is stopped at several moments of its build, with
# SIGKILL, SIGINT and SIGTERM. After SIGKILL, `lab down` leaves nothing and nothing appears
# afterwards (before: the orphaned `ip -batch` builders of a killed up created ~20 namespaces
# after down had returned). After SIGINT/SIGTERM, up itself removes what it built and says so,
# or it had finished and the lab is whole (before: a signal while up printed the status killed
# it with 130, no message, and left the lab). With --slurm, down returns only after slurmd and
# slurmctld have exited.
# ctest: timeout 900
set -u
. "$SRCDIR/tests/integration/lib_lab.sh"
lab_use td
P=$LAB_PREFIX
NODES=${TEARDOWN_NODES:-64}
DELAYS=${TEARDOWN_DELAYS:-"0 0.05 0.1 0.15 0.2 0.3 0.5"}

# up_then SIGNAL DELAY: starts a build, sends SIGNAL DELAY s after it began (its state file
# appeared: from then on namespaces are being created), and waits; sets $rc.
up_then() {
	local sig=$1 d=$2 pid
	"$NCCLCHECK" lab up --nodes "$NODES" --prefix "$P" >"$LAB_TMP/up.out" 2>&1 &
	pid=$!
	while [ ! -e "/run/ncclcheck/lab/$P/state.json" ] && kill -0 $pid 2>/dev/null; do
		sleep 0.002
	done
	sleep "$d"
	kill -s "$sig" $pid 2>/dev/null
	wait $pid 2>/dev/null; rc=$?
}

# nothing_left WHAT NSIDS: no namespace, state or /etc/netns entry of the lab, no running process
# that names it (lab up, its keeper, a builder) or runs inside one of the namespaces NSIDS had.
nothing_left() {
	local what=$1 nsids=$2 ps_out left
	left=$( { ls /run/netns; ls /etc/netns; ls /run/ncclcheck/lab; } 2>/dev/null | grep -E "^$P(-|$)")
	[ -z "$left" ] || { fail "$what: left: $(echo $left)"; return 1; }
	ps_out=$(ps -eo pid=,stat=,args=)
	left=$(printf '%s\n' "$ps_out" | grep -F -- "$P" | awk '$2 !~ /^Z/')
	[ -z "$left" ] || { fail "$what: processes of the lab still run: $left"; return 1; }
	if [ -n "$nsids" ]; then
		left=$(for f in /proc/[0-9]*/ns/net; do
			id=$(readlink "$f" 2>/dev/null) || continue
			case " $nsids " in *" $id "*) echo "${f#/proc/}";; esac
		done)
		[ -z "$left" ] || { fail "$what: processes still inside its namespaces: $left"; return 1; }
	fi
	return 0
}

ns_ids() {
	local f
	for f in /run/netns/"$P"-*; do [ -e "$f" ] && echo "net:[$(stat -L -c %i "$f")]"; done
}

# 1. SIGKILL at every moment: down removes it all, and nothing is created after down returns
bad=0
for d in $DELAYS; do
	up_then KILL "$d"
	ids=$(ns_ids)
	out=$("$NCCLCHECK" lab down --prefix "$P" 2>&1) || { fail "KILL at $d s: down: $out"; bad=1; }
	nothing_left "KILL at $d s, down returned" "$ids" || bad=1
	sleep 1
	nothing_left "KILL at $d s, 1 s after down" "$ids" || bad=1
	"$NCCLCHECK" lab down --prefix "$P" >/dev/null 2>&1
done
[ $bad = 0 ] && pass "SIGKILL of up at $DELAYS s: down leaves nothing, nothing appears later"

# 2. SIGINT / SIGTERM at every moment: up removes what it built and says so, or it had finished
#    (2 nodes: their build ends within the delays, so the signal also lands while up prints)
for sig in INT TERM; do
	bad=0 cleaned=0 finished=0
	for d in $DELAYS; do for NODES in 2 16; do
		up_then $sig "$d"
		msg="interrupted; everything it had built is removed"
		if [ $rc = 3 ] && grep -q "$msg" "$LAB_TMP/up.out"; then
			nothing_left "SIG$sig at $d s" "" && cleaned=$((cleaned + 1)) || bad=1
		elif [ $rc = 0 ] && "$NCCLCHECK" lab status --prefix "$P" |
			grep -q "^lab '$P': up, $NODES nodes"; then
			finished=$((finished + 1)) # the signal came after up had finished: the lab whole
		else
			fail "SIG$sig at $d s, $NODES nodes: exit $rc: $(cat "$LAB_TMP/up.out")"; bad=1
		fi
		"$NCCLCHECK" lab down --prefix "$P" >/dev/null 2>&1
		nothing_left "SIG$sig at $d s, after down" "" || bad=1
	done; done
	[ $bad = 0 ] && pass "SIG$sig at $DELAYS s, 2 and 16 nodes: $cleaned removed by up itself," \
		"$finished had finished"
	[ $cleaned -gt 0 ] || fail "SIG$sig never landed during a build (machine too fast for the delays?)"
done

# 3. the lab's Slurm: down returns after its daemons (and munged) have exited
if command -v slurmd >/dev/null && command -v slurmctld >/dev/null &&
	command -v munged >/dev/null; then
	out=$("$NCCLCHECK" lab up --nodes 2 --slurm --prefix "$P" 2>&1); expect_rc 0 $? "lab up --slurm"
	S=/run/ncclcheck/slurm/$P
	pids=$(cat "$S"/slurmctld.pid "$S"/slurmd-*.pid "$S"/munge/munged.pid 2>/dev/null)
	[ "$(echo $pids | wc -w)" = 4 ] || fail "expected slurmctld, 2 slurmd and munged: pids '$pids'"
	ids=$(ns_ids)
	"$NCCLCHECK" lab down --prefix "$P" >/dev/null; expect_rc 0 $? "down"
	left=""
	for p in $pids; do
		st=$(ps -o stat= -p "$p" 2>/dev/null)
		case $st in ""|Z*) ;; *) left="$left $p($(ps -o comm= -p "$p"))";; esac
	done
	[ -z "$left" ] && pass "slurmctld, slurmd and munged had exited when down returned" ||
		fail "still running after down:$left"
	nothing_left "slurm lab, down returned" "$ids" && pass "nothing of the Slurm lab is left"
	# and killed while Slurm starts: down ends the daemons started so far
	"$NCCLCHECK" lab up --nodes 2 --slurm --prefix "$P" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 200); do [ -e "$S/slurmctld.pid" ] && break; sleep 0.05; done
	kill -KILL $pid; wait $pid 2>/dev/null
	ids=$(ns_ids)
	"$NCCLCHECK" lab down --prefix "$P" >/dev/null; expect_rc 0 $? "down after up --slurm was killed"
	nothing_left "slurm lab killed while starting, down returned" "$ids" &&
		pass "up --slurm killed while Slurm started: nothing is left"
else
	echo "note: no slurmd/slurmctld/munged: the Slurm part is skipped"
fi
finish
