#!/bin/bash
# attach --pid on live CPython processes of every version this machine has: a main thread
# sleeping in a known function, a thread blocked on a lock (a futex), a spinning main thread;
# each function and file:line asserted, and the process left running, never stopped. Then the
# refusals: not a Python process, no such process, another user's process, a process that exits
# while it is read (reported, never a crash).
. "$(dirname "$0")/lib.sh"
SL=$SRCDIR/tests/fixtures/pystack/sleeper.py
tmp=$(mktemp -d)
pids=()
trap 'kill -KILL "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
stop() { kill -KILL "$1"; wait "$1" 2>/dev/null; }
att() { timeout 30 "$NCCLCHECK" attach --no-color "$@"; }
start() { # python args... -> $p, once the script has printed "ready"
	rm -f "$tmp/out"
	env SLEEPER_LOAD="${LOAD:-}" "$@" >"$tmp/out" 2>&1 & p=$!; pids+=($p)
	for _ in $(seq 100); do grep -q ready "$tmp/out" 2>/dev/null && break; sleep 0.05; done
	sleep 0.3	# past print(): into the sleep, the lock, the loop
}

# the distribution's, those on PATH, and pyenv's interpreters (each real file once)
pythons=() seen=" "
for py in /usr/bin/python3.1[0-9] /usr/bin/python3.9 python3.9 python3.10 python3.11 python3.12 \
	  python3.13 python3.14 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3.[0-9]*; do
	case $py in *-config|*m) continue ;; esac
	exe=$(command -v "$py" 2>/dev/null) || continue
	"$exe" -c 'import sys; assert sys.version_info >= (3, 9)' 2>/dev/null || continue
	real=$(readlink -f "$exe")
	case $seen in *" $real "*) continue ;; esac
	seen="$seen$real "
	pythons+=("$exe")
done
[ ${#pythons[@]} -gt 0 ] || { echo "SKIP: no CPython 3.9+ here"; exit 77; }

for py in "${pythons[@]}"; do
	v=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
	start "$py" "$SL"
	out=$(att --pid $p); rc=$?
	expect_rc 0 $rc "$v: stacks of a sleeping process"
	expect_match "$out" "^process $p: Python $v" "$v: the version"
	expect_match "$out" "^thread $p \"[^\"]*\" state S, sleeping|^thread $p \"[^\"]*\" state S, polling" "$v: the main thread sleeps"
	expect_match "$out" 'File "[^"]*sleeper.py", line 21, in <module>
    File "[^"]*sleeper.py", line 11, in outer
    File "[^"]*sleeper.py", line 9, in inner_sleep' "$v: main thread outermost first, with lines"
	expect_match "$out" 'in a futex' "$v: the locker thread waits in a futex"
	expect_match "$out" 'File "[^"]*sleeper.py", line 18, in blocked' "$v: the locker thread's frame"
	state=$(awk '{print $3}' /proc/$p/stat)
	if kill -0 $p 2>/dev/null && [ "$state" != T ] && [ "$state" != t ]; then
		pass "$v: the process runs on (state $state)"; else fail "$v: the process was disturbed (state $state)"; fi
	json=$(att --pid $p --json)
	if printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["python"]["status"] == "ok", d["python"]
main = [t for t in d["threads"] if t["tid"] == d["pid"]][0]
f = main["frames"]
assert [x["function"] for x in f] == ["<module>", "outer", "inner_sleep"], f
assert [x["line"] for x in f] == [21, 11, 9], f
assert any(x["function"] == "blocked" and x["line"] == 18 for t in d["threads"] for x in t.get("frames", [])), d
'; then pass "$v: --json carries the stacks"; else fail "$v: --json: $json"; fi
	stop $p

	start "$py" "$SL" spin
	out=$(att --pid $p); rc=$?
	expect_rc 0 $rc "$v: stacks of a spinning process"
	expect_match "$out" 'File "[^"]*sleeper.py", line 14, in spin' "$v: the spinning frame and line"
	expect_match "$out" "^thread $p \"[^\"]*\" state R" "$v: the spinning thread runs"
	stop $p
done

# the verdict names the code: a recorded RAS answer (tests/fakes/ras_replay.py) whose stalled
# rank 1 is, on this "node", a real Python process sleeping, then one spinning
py=${pythons[0]}
FX=$FIXTURES/attach
# a stand-in rank maps a (fake) libnccl, as a real rank does: attach names the code of no other
LOAD=$FAKESDIR/nccl/libnccl.so.2
if command -v python3 >/dev/null; then
	sed 's/4202/@P1@/g' "$FX/ras/sleep.json" > "$tmp/sleep_local.json"
	for mode in sleep spin; do
		if [ $mode = spin ]; then start "$py" "$SL" spin; else start "$py" "$SL"; fi
		rm -f "$tmp/port"
		timeout 60 python3 "$SRCDIR/tests/fakes/ras_replay.py" "$tmp/sleep_local.json" \
			--port-file "$tmp/port" --idle 20 --subst "P1=$p" >/dev/null 2>&1 & pids+=($!)
		for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
		out=$(timeout 40 "$NCCLCHECK" attach --no-color --ras "127.0.0.1:$(cat "$tmp/port")" \
			--interval 2s --local-host 10.77.0.2 2>&1); rc=$?
		expect_rc 1 $rc "verdict with a $mode Python rank"
		if [ $mode = sleep ]; then
			expect_match "$out" "^verdict: rank 1 \(pid $p on 10\.77\.0\.2, GPU 0\) has not launched AllReduce #6 .*it is idle.*; it is in <module> \(sleeper\.py:21\) → outer \(sleeper\.py:11\) → inner_sleep \(sleeper\.py:9\) → sleeping" "the verdict names the sleeping rank's code"
		else
			expect_match "$out" "^verdict: rank 1 \(pid $p on 10\.77\.0\.2, GPU 0\) has not launched AllReduce #6 .*it is running.*; it is in <module> \(sleeper\.py:21\) → spin \(sleeper\.py:14\)" "the verdict names the spinning rank's loop"
		fi
		out=$(timeout 40 "$NCCLCHECK" attach --no-color --ras "127.0.0.1:$(cat "$tmp/port")" \
			--interval 2s --local-host 10.77.0.2 --no-stacks 2>&1)
		expect_no_match "$out" "sleeper\.py" "--no-stacks: /proc alone"
		stop $p
	done
	# a process that maps no NCCL in the rank's pid (another PID namespace's pid): not named
	LOAD= start "$py" "$SL"
	rm -f "$tmp/port"
	timeout 60 python3 "$SRCDIR/tests/fakes/ras_replay.py" "$tmp/sleep_local.json" \
		--port-file "$tmp/port" --idle 20 --subst "P1=$p" >/dev/null 2>&1 & pids+=($!)
	for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
	out=$(timeout 40 "$NCCLCHECK" attach --no-color --ras "127.0.0.1:$(cat "$tmp/port")" \
		--interval 2s --local-host 10.77.0.2 2>&1)
	expect_match "$out" "^verdict: rank 1 .*it is idle" "a rank's pid without NCCL: /proc still says idle"
	expect_no_match "$out" "sleeper\.py" "a rank's pid without NCCL: its Python code is not named"
	stop $p
fi

# two local ranks standing in different code: the text groups them by stack
if command -v python3 >/dev/null; then
	sed 's/4202/@P1@/g; s/4101/@P0@/g' "$FX/ras/sleep.json" > "$tmp/sleep_two.json"
	start "$py" "$SL"; p0=$p
	start "$py" "$SL" spin; p1=$p
	rm -f "$tmp/port"
	timeout 60 python3 "$SRCDIR/tests/fakes/ras_replay.py" "$tmp/sleep_two.json" \
		--port-file "$tmp/port" --idle 20 --subst "P0=$p0" --subst "P1=$p1" >/dev/null 2>&1 & pids+=($!)
	for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
	out=$(timeout 40 "$NCCLCHECK" attach --no-color --ras "127.0.0.1:$(cat "$tmp/port")" \
		--interval 2s --local-host 10.77.0.1 --local-host 10.77.0.2 2>&1)
	expect_match "$out" "^local ranks by Python stack \(main thread\):" "two local ranks: grouped by stack"
	expect_match "$out" "1 process \(pid $p0\): in <module> \(sleeper\.py:21\) → outer \(sleeper\.py:11\) → inner_sleep \(sleeper\.py:9\)" "the sleeping rank's group"
	expect_match "$out" "1 process \(pid $p1\): in <module> \(sleeper\.py:21\) → spin \(sleeper\.py:14\)" "the spinning rank's group"
	json=$(timeout 40 "$NCCLCHECK" attach --json --ras "127.0.0.1:$(cat "$tmp/port")" \
		--interval 2s --local-host 10.77.0.1 --local-host 10.77.0.2 --html "$tmp/two.html" \
		2>/dev/null)
	printf '%s' "$json" > "$tmp/two.json"
	if python3 "$SRCDIR/tests/integration/html_check.py" "$tmp/two.json" "$tmp/two.html" >"$tmp/hc" &&
	   grep -q 'Local ranks by Python stack' "$tmp/two.html" && grep -q 'spin (sleeper.py:14)' "$tmp/two.html"; then
		pass "--html: the groups and stacks, every figure the document's"
	else fail "--html: $(cat "$tmp/hc")"; fi
	if printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
g = d["stack_groups"]
assert len(g) == 2 and sorted(len(x["pids"]) for x in g) == [1, 1], g
assert len(d["stacks"]) == 2, d["stacks"]
'; then pass "--json: stacks and stack_groups"; else fail "--json stack groups: $json"; fi
	stop $p0; stop $p1
fi

# not Python
sleep 60 & p=$!; pids+=($p)
out=$(att --pid $p 2>&1); rc=$?
expect_rc 3 $rc "a process that is not Python"
expect_match "$out" 'maps no CPython interpreter' "not Python: said so"
stop $p
# no such process (pid_max is at most 4194304)
out=$(att --pid 4194303 2>&1); rc=$?
expect_rc 3 $rc "no such process"
expect_match "$out" 'no process 4194303 here' "no such process: said so"

# another user's process: ncclcheck as nobody against root's Python
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && \
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$NCCLCHECK" 2>/dev/null; then
	start "$py" "$SL"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		timeout 30 "$NCCLCHECK" attach --no-color --pid $p 2>&1); rc=$?
	expect_rc 3 $rc "another user's process"
	expect_match "$out" "process $p belongs to uid 0 and ncclcheck runs as uid 65534: run it as that user, or with sudo" "another user: which, and what to run"
	stop $p
else
	echo "skip: another user's process (not root, no setpriv, or the binary is not reachable as nobody)"
fi

# processes that exit while they are read: every answer is a report (0 or 3), never a crash
bad=0
for i in $(seq 20); do
	"$py" -c "import time; time.sleep(0.$((i % 5)))" & p=$!
	sleep 0.0$((i % 10))
	att --pid $p >/dev/null 2>"$tmp/err"; rc=$?
	if [ $rc != 0 ] && [ $rc != 3 ]; then bad=$((bad + 1)); cat "$tmp/err" >&2; fi
	wait $p 2>/dev/null
done
[ $bad = 0 ] && pass "20 processes read as they exit: each a report" || fail "$bad of 20 exiting processes ended ncclcheck abnormally"
finish
