# shellcheck shell=bash
# Shared by the cluster_noise_* tests (sourced after lib_lab.sh): a lab of NOISE_NODES nodes (3
# unless set; bench/cluster_noise.sh runs 4) whose fault sits on n1 (not the master) and its eth1
# (not the first interface), every node running `cluster --json` at once, and the checks each of
# them makes: exactly the expected root cause, nothing said about any other node, the same exit
# code on every node.
NOISE_NODES=${NOISE_NODES:-3}

# noise_up: the healthy lab.
noise_up() {
	"$NCCLCHECK" lab up --nodes "$NOISE_NODES" --scenario healthy --prefix "$LAB_PREFIX" >/dev/null 2>&1
	expect_rc 0 $? "lab up ($NOISE_NODES nodes)" || finish
}

# noise_run NAME: cluster --json on every node; NOISE_MS the wall time, documents n<i>.out.
noise_run() {
	local t0
	t0=$(date +%s%3N)
	lab_cluster "$NOISE_NODES" 180 --json "${NOISE_ARGS[@]}"
	NOISE_MS=$(($(date +%s%3N) - t0))
	echo "$1: cluster on $NOISE_NODES nodes took $NOISE_MS ms (timing figures: bench/, not asserted)"
	# NOISE_KEEP=DIR keeps rank 0's document of every run there (where the time went)
	if [ -n "${NOISE_KEEP:-}" ]; then
		local t
		t=$(date +%s%N)
		cp "$LAB_TMP/n0.out" "$NOISE_KEEP/$t.json"
		cp "$LAB_TMP/n0.err" "$NOISE_KEEP/$t.err"
	fi
	echo "$1: rank 0's timings_ms $(nq 'd.get("timings_ms")' 2>&1)"
	[ -n "${NOISE_BENCH:-}" ] && echo "$1 $NOISE_MS" >>"$NOISE_BENCH"
	return 0
}

# nq EXPR: a Python expression over d (rank 0's document), F (its findings), E (errors that
# count: not folded under a cause, no caused_by), W (warnings), B (the link.ports.blocked
# findings, folded or not), innocent(f) (the finding names a node other than n1 as node or peer).
nq() {
	"$PY" - "$LAB_TMP/n0.out" "$LAB_PREFIX" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
P = sys.argv[2]
F = d["findings"]
E = [f for f in F if f["severity"] == "error" and not f.get("caused_by")]
B = [f for f in F if f["id"] == "link.ports.blocked"]
W = [f for f in F if f["severity"] == "warn"]
def innocent(f):
    return any(f.get(k) and f[k] != P + "-n1" for k in ("node", "peer"))
print(eval(sys.argv[3]))
PY
}
expect_nq() { expect_match "$(nq "$1" 2>&1)" "^$2\$" "$3"; }

# noise_same_rc RC: every node exits RC.
noise_same_rc() {
	local i
	for i in $(seq 0 $((NOISE_NODES - 1))); do
		expect_rc "$1" "$(cat "$LAB_TMP/n$i.rc")" "n$i exits $1"
	done
}

# noise_no_innocent: no error or warning names a node other than n1 (node or peer), and none
# claims a firewall, an unreachable interface or an MTU black hole that is not there.
noise_no_innocent() {
	expect_nq '[f["id"] + ": " + f["title"] for f in E + W if innocent(f)]' '\[\]' \
		"no error or warning names a node other than n1"
}
