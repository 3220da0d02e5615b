/* NCCL's DIAGNOSTICS asked of RAS, and its findings: shared by attach and cluster (ras_ask.h). */
#include "attach/ras_ask.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding.h"
#include "util/i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void ras_diag_ask_skip(struct ras_diag_ask *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(a->skipped);
	a->skipped = strbuf_detach(&sb, NULL);
}

void ras_diag_ask_query(struct ras_diag_ask *a, const struct ras_opts *o)
{
	struct ras_opts ro = *o;
	struct err qe = ERR_INIT;

	ro.diagnostics = 1;
	ro.max_bytes = 1u << 20;
	a->asked = 1;
	if (ras_query(&ro, &a->answer, &qe) < 0 ||
	    ras_diag_parse(a->answer.status, a->answer.status_len, &a->diag, &qe) < 0)
		a->error = xstrdup(qe.msg);
}

int ras_report_initialising(const struct ras_report *r)
{
	for (size_t c = 0; c < r->ncomms; c++)
		for (size_t i = 0; i < r->comms[c].nranks; i++)
			if (r->comms[c].ranks[i].init_state == 7)
				return 1;
	return 0;
}

int ras_diag_ask_ready(struct ras_diag_ask *a, const struct ras_report *r)
{
	if (!ras_version_at_least(r, 2, 31, 0))
		ras_diag_ask_skip(a, "NCCL %s answers RAS, but its DIAGNOSTICS command came with "
				  "NCCL 2.31", r->version[0] ? r->version : "(version not shown)");
	else if (ras_report_initialising(r))
		ras_diag_ask_skip(a, "a communicator is still initialising (its ranks' peer info is "
				  "not there yet, and asking RAS during init has crashed NCCL)");
	else
		return 1;
	return 0;
}

void ras_diag_ask_once(struct ras_diag_ask *a, const char *host, const char *port,
		       double timeout_s, long deadline_ms)
{
	struct ras_opts ro = {
		.host = host,
		.port = port,
		.timeout_s = timeout_s,
		.want_json = 1,
		.deadline_ms = deadline_ms,
		.max_bytes = 16u << 20,
	};
	struct ras_answer st = { 0 };
	struct ras_report *r = NULL;
	struct err qe = ERR_INIT;
	char addr[300];

	snprintf(addr, sizeof(addr), strchr(host, ':') ? "[%s]:%s" : "%s:%s", host, port);
	if (ras_query(&ro, &st, &qe) < 0) {
		if (st.nx == 0)
			/* the message names the address, and a job not here or NCCL_RAS_ENABLE=0 */
			ras_diag_ask_skip(a, "nothing answered: %s; or the job's RAS listens elsewhere "
					  "(its NCCL_RAS_ADDR)", qe.msg);
		else
			ras_diag_ask_skip(a, "RAS at %s did not answer STATUS: %s", addr, qe.msg);
	} else if (!(r = ras_report_parse(st.status, st.status_len, &qe))) {
		ras_diag_ask_skip(a, "RAS at %s answered STATUS with a report that does not decode: "
				  "%s", addr, qe.msg);
	} else if (ras_diag_ask_ready(a, r)) {
		ro.timeout_float = 1;
		ras_diag_ask_query(a, &ro);
	}
	ras_report_free(r);
	ras_answer_release(&st);
}

/* ras_diag_fold's adder */
static struct finding *fold_add(void *fs, const char *id, enum severity sev, const char *title)
{
	return finding_add(fs, sev, id, "%s", title);
}

void ras_diag_ask_findings(const struct ras_diag_ask *a, const char *addr, const char *again,
			   struct findings *fs)
{
	struct finding *f;
	char src[340];

	if (a->skipped) {
		f = finding_add(fs, SEV_INFO, "nccl.diag.unavailable",
				"NCCL's own diagnostics were not asked");
		f->conf = CONF_HIGH;
		finding_why(f, "%s.", a->skipped);
		return;
	}
	if (!a->asked)
		return;
	if (a->error) {
		f = finding_add(fs, SEV_INFO, "nccl.diag.unavailable",
				"NCCL's diagnostics did not answer");
		finding_why(f, "%s", a->error);
		return;
	}
	switch (a->diag.answer) {
	case RAS_DIAG_BUSY:
		f = finding_add(fs, SEV_INFO, "nccl.diag.busy",
				"NCCL's diagnostics are already running for another client");
		f->conf = CONF_HIGH;
		finding_why(f, "RAS runs one diagnostics request at a time and answered '%s'.",
			    a->diag.answer_text);
		finding_fix(f, N_("%s   # again once the other request (ncclras -D, "
			    "NCCL_RUN_DIAGNOSTICS) has finished"), again);
		return;
	case RAS_DIAG_UNKNOWN_CMD:
	case RAS_DIAG_REFUSED:
		f = finding_add(fs, SEV_INFO, "nccl.diag.unavailable",
				"RAS refused the DIAGNOSTICS command");
		f->conf = CONF_HIGH;
		finding_why(f, "RAS at %s answered '%s'%s.", addr, a->diag.answer_text,
			    a->diag.answer == RAS_DIAG_UNKNOWN_CMD ? ": the NCCL serving it predates "
			    "2.31's diagnostics" : "");
		return;
	case RAS_DIAG_REPORT:
		break;
	}
	snprintf(src, sizeof(src), "RAS at %s", addr);
	ras_diag_fold(&a->diag, src, fold_add, fs);
}

void ras_diag_ask_release(struct ras_diag_ask *a)
{
	free(a->skipped);
	ras_answer_release(&a->answer);
	ras_diag_release(&a->diag);
	free(a->error);
	memset(a, 0, sizeof(*a));
}
