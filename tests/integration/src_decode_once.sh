#!/bin/bash
# The tree keeps "decode once": a node's facts are decoded by the model (src/model/node.c, its
# checks in check.c) and nothing else reads them raw, and the launcher variables are named in one
# table (src/launch/vars.c). Greps the sources; no binary is run.
#   - no json_object_get / jpath under src/rules/ and src/report/, except the renderers of
#     documents that are not node facts: report/lab_text.c (the `lab status` document),
#     report/explain_text.c (explain's payload of log evidence) and report/cluster_text.c (the
#     cluster report document: its verdict, node findings and link results, which every node
#     prints from the master's report as sent) and report/html*.c (the page of any saved --json
#     document, `report FILE.json`: it shows the document's own values, each tagged with its
#     JSON path so the page's test checks it against the document; it judges nothing);
#   - emit/ reads a saved document's structure (findings, nodes[].name, nodes[].facts) but no
#     node facts member, and includes nothing from rules/;
#   - no source outside launch/vars.c reads a launcher variable by a literal name (envmap_get,
#     probe_ctx_env, node_model_env, getenv), except cmd/bench*.c and cmd/run_cluster.c, which
#     the verb and transport work rewrites.
set -u
. "$SRCDIR/tests/integration/lib.sh"
cd "$SRCDIR/src" || exit 1

hits=$(grep -rnE '\b(json_object_get|jpath[a-z_]*)\(' rules report |
	grep -vE '^report/(lab_text|explain_text|cluster_text|html|html_cluster|html_verbs)\.c:')
[ -z "$hits" ] && pass "no raw JSON reads under rules/ and report/ (but the lab, explain and cluster documents and the HTML page)" ||
	fail "raw JSON reads under rules/ or report/ (read the node model):
$hits"

hits=$(grep -rnE '\bjpath[a-z_]*\([^,]*, *"(host|net|env|gpus|python|rdma|nccl|driver|cuda|cudnn|sysctl|limits|shm|cloud|topology|firewall|hostname_resolution)[."]' emit)
[ -z "$hits" ] && pass "emit/ reads no node facts member" || fail "emit/ reads node facts:
$hits"
hits=$(grep -rn '#include "rules/' emit)
[ -z "$hits" ] && pass "emit/ includes nothing from rules/" || fail "emit/ includes rules/:
$hits"

names=$(grep -oE '\.name = "[A-Z_]+"' launch/vars.c | sed -E 's/.*"(.*)"/\1/' | paste -sd'|')
[ -n "$names" ] || fail "no names found in launch/vars.c"
hits=$(grep -rnE "(envmap_get|probe_ctx_env|node_model_env|env_get|getenv)\([^;]*\"($names)\"" . |
	grep -vE '^\./cmd/(bench|bench_nccl|run_cluster)\.c:')
[ -z "$hits" ] && pass "launcher variables are read by their launch/vars.h id" ||
	fail "a launcher variable read by a literal name (use lv_name(LV_...)):
$hits"
finish
