/*
 * Another vendor's collective library configured on a node whose job runs NCCL. Huawei Ascend's
 * HCCL reads HCCL_* (HCCL_IF_IP, HCCL_SOCKET_IFNAME, HCCL_CONNECT_TIMEOUT, ...) and MetaX's MCCL
 * reads MCCL_* (MCCL_P2P_LEVEL, MCCL_NET_GDR_LEVEL, MCCL_CROSS_NIC); NCCL reads neither
 * (../shared/research/frontier-2026.md §3(f), frontier-2026b.md §4). A recipe written for an
 * Ascend or MetaX cluster and copied onto NVIDIA nodes sets them and believes the interface, the
 * ports or the timeouts chosen, while NCCL runs on its defaults. Pure.
 */
#include "rules/rules.h"

#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"

static const struct other_ccl {
	const char *prefix;
	const char *library;	/* who reads the variables, for the title */
} libraries[] = {
	{ .prefix = "HCCL_", .library = N_("Huawei Ascend's HCCL") },
	{ .prefix = "MCCL_", .library = N_("MetaX's MCCL") },
};

/*
 * Variables whose NCCL counterpart has the same role: MCCL's are NCCL's names with another
 * prefix, HCCL's socket pair chooses the host interface as NCCL's does. The fix names the NCCL
 * variable; its value is for ncclcheck's own checks to prove, never copied over.
 */
static const struct {
	const char *name, *nccl;
} twins[] = {
	{ .name = "HCCL_SOCKET_IFNAME", .nccl = "NCCL_SOCKET_IFNAME" },
	{ .name = "HCCL_SOCKET_FAMILY", .nccl = "NCCL_SOCKET_FAMILY" },
	{ .name = "MCCL_P2P_LEVEL", .nccl = "NCCL_P2P_LEVEL" },
	{ .name = "MCCL_NET_GDR_LEVEL", .nccl = "NCCL_NET_GDR_LEVEL" },
	{ .name = "MCCL_CROSS_NIC", .nccl = "NCCL_CROSS_NIC" },
};

static const char *twin_of(const char *name)
{
	for (size_t i = 0; i < sizeof(twins) / sizeof(twins[0]); i++)
		if (!strcmp(twins[i].name, name))
			return twins[i].nccl;
	return NULL;
}

void rule_other_ccl(const struct node_model *m, struct findings *out)
{
	/* NCCL's node: a copy of NCCL is known (loaded, found, or named), or an NVIDIA driver runs */
	if (m->nccl.assumed && m->driver.present != 1)
		return;
	for (size_t k = 0; k < sizeof(libraries) / sizeof(libraries[0]); k++) {
		const struct other_ccl *lib = &libraries[k];
		struct strbuf names = STRBUF_INIT;
		struct finding *f = NULL;
		size_t n = 0;

		for (size_t i = 0; i < m->nenv; i++)
			if (!strncmp(m->env[i].name, lib->prefix, strlen(lib->prefix)))
				strbuf_addf(&names, "%s%s", n++ ? ", " : "", m->env[i].name);
		if (!n) {
			strbuf_release(&names);
			continue;
		}
		f = finding_add(out, SEV_WARN, "nccl.env.other_ccl",
				"%s set: %s reads them, NCCL never does", names.buf, lib->library);
		finding_why(f, "NCCL %s reads only NCCL_* (and its nccl.conf files): these settings "
			    "change nothing for this job. A recipe for another accelerator's cluster "
			    "copied here leaves the interface, ports and timeouts it meant to set at "
			    "NCCL's defaults.", m->nccl.version);
		for (size_t i = 0; i < m->nenv; i++) {
			const char *name = m->env[i].name, *twin;

			if (strncmp(name, lib->prefix, strlen(lib->prefix)))
				continue;
			finding_evidence(f, "%s=%s (environment)", name, m->env[i].value);
			finding_fix(f, "unset %s", name);
			finding_setting(f, WHERE_ENV, SCOPE_ALL, name, NULL);
			if ((twin = twin_of(name)))
				finding_fix(f, N_("# NCCL's own variable for %s is %s: set it to the value "
						  "ncclcheck proves, if one is needed"), name, twin);
		}
		strbuf_release(&names);
	}
}
