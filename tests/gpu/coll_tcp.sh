#!/bin/bash
# GPU machine (16 cores): bench/coll_tcp.sh where the lab's nodes are not starved of CPU, and
# again pinned to two cores (taskset) like the CI machine, to tell the link's limits from the
# box's. gloo is the venv's torch (the machine has no Debian python3-torch).
#   bash tests/gpu/coll_tcp.sh      -> $OUT/coll_tcp/{cores16.txt,cores2.txt}
. "$(dirname "$0")/env.sh"
set -u
D=$OUT/coll_tcp
mkdir -p "$D"
export PY=${PY:-/opt/torch/.venv/bin/python} VERBOSE=1 RSS=0
REPS=${REPS:-3} bash "$REPO/bench/coll_tcp.sh" "$NCCLCHECK" 2>&1 | tee "$D/cores16.txt"
REPS=${REPS:-3} SETUPS=${SETUPS2:-"10gbit 2;none 2;none 4"} \
	taskset -c 0,1 bash "$REPO/bench/coll_tcp.sh" "$NCCLCHECK" 2>&1 | tee "$D/cores2.txt"
