/* The verb table: `ncclcheck --help` lists it in this order, main() dispatches on it. */
#include "cmd/cmd.h"

#include "ncclcheck.h"
#include "util/xalloc.h"

const struct verb *const cmd_verbs[] = {
	&verb_node, &verb_cluster, &verb_bench, &verb_config, &verb_run, &verb_explain, &verb_lab,
	&verb_attach, &verb_report,
};
const size_t cmd_nverbs = ARRAY_SIZE(cmd_verbs);
