/* The inventory's section table and the host section. */
#include "report/inventory.h"

#include <stdarg.h>

#include "util/json.h"

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

void inv_fact(FILE *out, const char *key, const json_t *facts, const char *path)
{
	json_t *v = jpath(facts, path);
	const char *why = junknown(v);

	if (why)
		inv_line(out, key, "unknown (%s)", why);
	else if (json_is_string(v))
		inv_line(out, key, "%s", json_string_value(v));
	else if (json_is_integer(v))
		inv_line(out, key, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		inv_line(out, key, "%s", json_is_true(v) ? "yes" : "no");
	else
		inv_line(out, key, "-");
}

void inv_host(FILE *out, const struct node_model *m, const struct render_opts *o)
{
	const json_t *facts = m->facts;

	inv_heading(out, o, "Host");
	inv_fact(out, "hostname", facts, "host.hostname");
	inv_fact(out, "os", facts, "host.os.pretty_name");
	inv_fact(out, "kernel", facts, "host.kernel");
	inv_fact(out, "container", facts, "host.container.kind");
	inv_line(out, "cpus / numa", "%lld / %lld", jpath_int(facts, "host.cpus", -1),
		 jpath_int(facts, "host.numa_nodes", -1));
}
