# shellcheck shell=bash
# Helpers for the link tests (link_*.sh; sourced after lib_lab.sh): `bench p2p` served on one lab
# node and driven from another, and JSON assertions through python3 (no jq needed).
CTL_PORT=29500 # MASTER_PORT: open in every scenario, so the control connection always passes

# p2p_serve NODE ADDR: the target side on NODE, control on ADDR:29500; returns once it answers.
p2p_serve() {
	local node=$1 addr=$2
	lx "$node" timeout 120 "$NCCLCHECK" bench p2p --serve "$addr:$CTL_PORT" --idle 60s \
		>/dev/null 2>"$LAB_TMP/serve.$node.err" &
	LAB_PIDS="$LAB_PIDS $!"
	for _ in $(seq 100); do
		lx "$node" ss -Hltn "sport = :$CTL_PORT" 2>/dev/null | grep -q LISTEN && return 0
		sleep 0.05
	done
	fail "bench p2p --serve on $node did not start: $(cat "$LAB_TMP/serve.$node.err")"
	return 1
}

# p2p NODE OUT ARGS...: the peer side on NODE, JSON into OUT; sets $rc and $wall_ms.
p2p() {
	local node=$1 out=$2 t0; shift 2
	t0=$(date +%s%N)
	lx "$node" timeout 60 "$NCCLCHECK" bench p2p --json "$@" >"$out" 2>"$out.err"
	rc=$?
	wall_ms=$((($(date +%s%N) - t0) / 1000000))
}

# jq_py FILE EXPR: prints the Python expression EXPR over the document `d` (and `r` = results).
jq_py() {
	"$PY" -c 'import json,sys
d = json.load(open(sys.argv[1])); r = d.get("results", [])
ids = [f["id"] for f in d.get("findings", [])]
def f(i): return next(x for x in d["findings"] if x["id"] == i)
v = eval(sys.argv[2]); print(v if not isinstance(v, (dict, list)) else json.dumps(v))' "$1" "$2" 2>&1
}

# expect_py FILE EXPR WHAT: passes when EXPR is true.
expect_py() {
	local v; v=$(jq_py "$1" "$2")
	[ "$v" = True ] && pass "$3" || fail "$3: $2 is $v ($(head -c 600 "$1"))"
}
