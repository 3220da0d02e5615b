/* The inventory's GPU section: driver, GPUs, how they connect (NVLink, PCI, NICs), toolkits, cuDNN. */
#include "report/inventory.h"

#include <string.h>

#include "util/i18n.h"
#include "util/strbuf.h"

static void inv_driver(FILE *out, const struct nm_driver *d)
{
	struct strbuf sb = STRBUF_INIT;

	if (!d->section) {
		inv_line(out, N_("driver"), "-");
		return;
	}
	if (d->present_unknown) {
		inv_line(out, N_("driver"), N_("unknown (%s)"), d->present_unknown);
		return;
	}
	if (d->present != 1) {
		/* the probe's reason is a whole sentence ("no NVIDIA driver: ...") and a msgid */
		inv_line(out, N_("driver"), "%s", d->reason ? d->reason : _("none"));
		return;
	}
	if (d->version)
		strbuf_addf(&sb, "%s (%s)", d->version, d->source ? d->source : "?");
	else
		strbuf_addf(&sb, N_("unknown (%s)"), d->version_unknown ? d->version_unknown :
			    "no source answered");
	if (d->cuda_max)
		strbuf_addf(&sb, ", supports CUDA <= %s", d->cuda_max);
	if (d->kmod_version)
		strbuf_addf(&sb, "; kernel module %s (%s)", d->kmod_version,
			    d->kmod_flavor ? d->kmod_flavor : "?");
	inv_line(out, N_("driver"), "%s", sb.buf);
	strbuf_reset(&sb);
	if (d->nvml_status && strcmp(d->nvml_status, "ok"))
		inv_line(out, N_("NVML"), "%s: %s", d->nvml_status, d->nvml_error ? d->nvml_error : "");
	if (d->cuda_status) {
		if (!strcmp(d->cuda_status, "ok")) {
			strbuf_addf(&sb, "CUDA %s (%s)", str_or(d->cuda_version, "(null)"),
				    d->cuda_library ? d->cuda_library : "?");
			if (d->cuda_init)
				strbuf_addf(&sb, ", cuInit %s",
					    !strcmp(d->cuda_init, "CUDA_SUCCESS") ? "ok" : d->cuda_init);
			if (d->has_cuda_device_count)
				strbuf_addf(&sb, ", %lld device(s)", d->cuda_device_count);
		} else {
			strbuf_addf(&sb, "%s", d->cuda_error ? d->cuda_error : d->cuda_status);
		}
		inv_line(out, N_("libcuda"), "%s", sb.buf);
	}
	strbuf_release(&sb);
}

static void inv_gpus(FILE *out, const struct node_model *m)
{
	if (m->gpus_unknown) {
		inv_line(out, N_("gpus"), N_("unknown (%s)"), m->gpus_unknown);
		return;
	}
	if (!m->ngpus) {
		inv_line(out, N_("gpus"), N_("none"));
		return;
	}
	for (size_t i = 0; i < m->ngpus; i++) {
		const struct nm_gpu *g = &m->gpus[i];
		struct strbuf sb = STRBUF_INIT;
		char key[32];

		snprintf(key, sizeof(key), "gpu %ld", g->index);
		strbuf_addstr(&sb, g->name ? g->name : "(name unknown)");
		if (g->has_memory)
			strbuf_addf(&sb, ", %lld MiB", g->memory_mb);
		if (g->bus_id)
			strbuf_addf(&sb, ", %s", g->bus_id);
		if (g->compute_capability)
			strbuf_addf(&sb, ", cc %s", g->compute_capability);
		if (g->has_numa)
			strbuf_addf(&sb, ", NUMA %lld", g->numa_node);
		if (g->nvlinks_up > 0)
			strbuf_addf(&sb, ", NVLink %lld up%s", g->nvlinks_up,
				    g->nvswitch ? " (NVSwitch)" : "");
		inv_line(out, key, "%s", sb.buf);
		strbuf_release(&sb);
	}
}

static void inv_topology(FILE *out, const struct node_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	long long last = -1;

	for (size_t i = 0; i < m->ngpu_gpu; i++) {
		const struct nm_gpu_link *p = &m->gpu_gpu[i];
		char key[48];

		snprintf(key, sizeof(key), "gpu%lld <-> gpu%lld", p->a, p->b);
		inv_line(out, key, "%s", p->level ? p->level : "?");
	}
	if (m->gpu_nic_unknown && m->ngpus) {
		inv_line(out, N_("gpu <-> nic"), N_("unknown (%s)"), m->gpu_nic_unknown);
		return;
	}
	for (size_t i = 0; i < m->ngpu_nic; i++) {
		const struct nm_gpu_link *p = &m->gpu_nic[i];

		if (p->a != last && sb.len) {
			char key[32];
			snprintf(key, sizeof(key), "gpu%lld <-> nics", last);
			inv_line(out, key, "%s", sb.buf);
			strbuf_reset(&sb);
		}
		last = p->a;
		strbuf_addf(&sb, "%s%s %s", sb.len ? ", " : "", p->nic ? p->nic : "?",
			    p->level ? p->level : "?");
	}
	if (sb.len) {
		char key[32];
		snprintf(key, sizeof(key), "gpu%lld <-> nics", last);
		inv_line(out, key, "%s", sb.buf);
	}
	strbuf_release(&sb);
}

static void inv_toolkits(FILE *out, const struct nm_cuda *c)
{
	if (!c->ntoolkits)
		inv_line(out, N_("CUDA toolkits"), N_("none found"));
	for (size_t i = 0; i < c->ntoolkits; i++) {
		const struct nm_toolkit *t = &c->toolkits[i];

		/* translated here: "%s at %s" has too few words of its own to be matched later */
		inv_line(out, i ? "" : N_("CUDA toolkits"), _("%s at %s (%s)%s"),
			 t->version ? t->version : _("unknown version"), str_or(t->path, "(null)"),
			 t->source ? t->source : _("no version file"), t->is_default ? _(", nvcc on PATH") : "");
	}
	if (c->nvcc_found && !c->nvcc_toolkit)
		inv_line(out, N_("nvcc"), "%s %s", str_or(c->nvcc_path, "(null)"),
			 c->nvcc_version ? c->nvcc_version : "");
}

static void inv_cudnn(FILE *out, const struct node_model *m)
{
	if (!m->cudnn_listed)
		return;
	if (!m->ncudnn)
		inv_line(out, N_("cuDNN"), N_("none found"));
	for (size_t i = 0; i < m->ncudnn; i++) {
		const struct nm_cudnn *c = &m->cudnn[i];

		inv_line(out, i ? "" : N_("cuDNN"), "%s %s %s", c->version ? c->version : _("unknown version"),
			 !strcmp(c->source ? c->source : "", "header") ? _("header") : _("library"),
			 c->path ? c->path : "?");
	}
}

void inv_gpu(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	inv_heading(out, o, N_("GPU and CUDA"));
	inv_driver(out, &m->driver);
	inv_gpus(out, m);
	inv_topology(out, m);
	inv_toolkits(out, &m->cuda);
	inv_cudnn(out, m);
}
