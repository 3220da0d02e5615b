/* The inventory's section table and the host section. */
#include "report/inventory.h"

#include <stdarg.h>


static void (*const sections[])(FILE *, const struct node_model *, const struct render_opts *) = {
	inv_host,
	inv_cloud,
	inv_gpu,
	inv_stack,
	inv_net,
};

void render_inventory_text(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		sections[i](out, m, o);
	fputc('\n', out);
}

void inv_heading(FILE *out, const struct render_opts *o, const char *title)
{
	fprintf(out, "%s%s%s\n", render_bold(o), title, render_reset(o));
}

void inv_line(FILE *out, const char *key, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "  %-18s ", key);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

void inv_text(FILE *out, const char *key, const struct nm_text *t)
{
	if (t->unknown)
		inv_line(out, key, "unknown (%s)", t->unknown);
	else if (t->value)
		inv_line(out, key, "%s", t->value);
	else
		inv_line(out, key, "-");
}

void inv_host(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	inv_heading(out, o, "Host");
	inv_text(out, "hostname", &m->host_name);
	inv_text(out, "os", &m->os_pretty);
	inv_text(out, "kernel", &m->kernel);
	inv_text(out, "container", &m->container_kind);
	inv_line(out, "cpus / numa", "%lld / %lld", m->cpus.online, m->cpus.numa_online);
}
