/* emit: helpers shared by the writers, and the env file writer. */
#include "emit/emit_int.h"

#include <ctype.h>
#include <string.h>

#include "util/i18n.h"

void emit_sh_word(struct strbuf *sb, const char *s)
{
	const char *p;

	if (!*s) {
		strbuf_addstr(sb, "''");
		return;
	}
	for (p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("@%+=:,./_-^", *p))
			break;
	if (!*p) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '\'');
	for (p = s; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

void em_comment(struct strbuf *sb, const char *prefix, const char *text)
{
	strbuf_addstr(sb, prefix);
	for (const char *p = text; p && *p; p++)
		strbuf_addch(sb, iscntrl((unsigned char)*p) ? ' ' : *p);
	strbuf_addch(sb, '\n');
}

void em_comment_tr(struct strbuf *sb, const char *prefix, const char *text)
{
	struct strbuf t = STRBUF_INIT;

	i18n_text(&t, text);
	em_comment(sb, prefix, t.buf);
	strbuf_release(&t);
}

void em_header(struct strbuf *sb, const struct recommendation *rec, const char *comment,
	       const char *what)
{
	struct strbuf nodes = STRBUF_INIT, procs = STRBUF_INIT, line = STRBUF_INIT;
	const char *addr = rec->master_addr ? rec->master_addr : "$MASTER_ADDR";

	i18n_text(&nodes, what);
	strbuf_addf(&line, _("ncclcheck config: %s"), nodes.buf);
	em_comment(sb, comment, line.buf);
	strbuf_reset(&line);
	strbuf_reset(&nodes);
	/* the counts as whole phrases: English's plural and Chinese's measure word go with them */
	strbuf_addf(&nodes, Q_("%d node", "%d nodes", (unsigned long)rec->nodes), rec->nodes);
	strbuf_addf(&procs, Q_("%d process", "%d processes", (unsigned long)rec->gpus_per_node),
		    rec->gpus_per_node);
	if (rec->master_addr)
		strbuf_addf(&line, _("job: %s x %s (one per GPU), rank 0 at %s:%d"), nodes.buf,
			    procs.buf, addr, rec->master_port);
	else
		strbuf_addf(&line, _("job: %s x %s (one per GPU), rank 0 at %s:%d (MASTER_ADDR was "
				     "not given)"), nodes.buf, procs.buf, addr, rec->master_port);
	em_comment(sb, comment, line.buf);
	strbuf_reset(&line);
	strbuf_addf(&line, _("from: %s; cloud profile: %s"), rec->source ? rec->source : _("flags"),
		    emit_cloud_name(rec->cloud));
	em_comment(sb, comment, line.buf);
	strbuf_release(&nodes);
	strbuf_release(&procs);
	strbuf_release(&line);
}

int em_is_node_var(const struct rec_var *v, const char *node)
{
	return v->where == WHERE_ENV && v->scope == SCOPE_NODE && v->node && !strcmp(v->node, node);
}

int em_first_of_node(const struct recommendation *rec, size_t i)
{
	const struct rec_var *v = &rec->v[i];

	if (v->where != WHERE_ENV || v->scope != SCOPE_NODE || !v->node)
		return 0;
	for (size_t j = 0; j < i; j++)
		if (em_is_node_var(&rec->v[j], v->node))
			return 0;
	return 1;
}

size_t em_env_count(const struct recommendation *rec)
{
	size_t n = 0;

	for (size_t i = 0; i < rec->n; i++)
		n += rec->v[i].where == WHERE_ENV && rec->v[i].scope == SCOPE_ALL;
	return n;
}

static void why_line(struct strbuf *sb, const char *indent, const struct rec_var *v)
{
	struct strbuf c = STRBUF_INIT;

	strbuf_addf(&c, "%s# ", indent);
	if (v->source) {
		i18n_text(&c, v->source);
		strbuf_addstr(&c, ": ");
	}
	em_comment_tr(sb, c.buf, v->why ? v->why : N_("recommended"));
	strbuf_release(&c);
}

void em_fill_in(struct strbuf *sb, const char *placeholder)
{
	struct strbuf t = STRBUF_INIT;

	i18n_text(&t, placeholder);
	strbuf_addf(sb, _("to fill in: %s"), t.buf);
	strbuf_release(&t);
}

void em_placeholder(struct strbuf *sb, const char *indent, const char *form, const struct rec_var *v)
{
	struct strbuf line = STRBUF_INIT, c = STRBUF_INIT;

	/* one commented line: the value is the user's to choose, never the placeholder itself */
	strbuf_addf(&line, form, v->name);
	strbuf_addstr(&line, "   # ");
	em_fill_in(&line, v->value);
	strbuf_addf(&c, "%s# ", indent);
	em_comment(sb, c.buf, line.buf);
	strbuf_release(&line);
	strbuf_release(&c);
}

static void export_line(struct strbuf *sb, const char *indent, const struct rec_var *v)
{
	why_line(sb, indent, v);
	if (rec_placeholder(v->value)) {
		em_placeholder(sb, indent, "export %s=...", v);
		return;
	}
	if (!v->value) {
		strbuf_addf(sb, "%sunset %s\n", indent, v->name);
		return;
	}
	strbuf_addf(sb, "%sexport %s=", indent, v->name);
	emit_sh_word(sb, v->value);
	strbuf_addch(sb, '\n');
}

void em_exports(struct strbuf *sb, const struct recommendation *rec, const char *indent)
{
	int any_node = 0, any_other = 0;
	struct strbuf in2 = STRBUF_INIT;

	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		if (v->where == WHERE_ENV && v->scope == SCOPE_ALL)
			export_line(sb, indent, v);
		else if (v->where == WHERE_ENV)
			any_node = 1;
		else
			any_other = 1;
	}
	if (!em_env_count(rec) && !any_node)
		strbuf_addf(sb, "%s# %s\n", indent, _("nothing to export: the checks found NCCL's and "
							 "torch's defaults right for this job"));
	strbuf_addf(&in2, "%s\t", indent);
	if (any_node) {
		/* the node's own name picks its lines, so one file serves every node */
		strbuf_addf(sb, "%scase \"$(uname -n)\" in\n", indent);
		for (size_t i = 0; i < rec->n; i++) {
			const char *node = rec->v[i].node;
			if (!em_first_of_node(rec, i))
				continue;
			strbuf_addf(sb, "%s%s|%s.*)\n", indent, node, node);
			for (size_t j = i; j < rec->n; j++)
				if (em_is_node_var(&rec->v[j], node))
					export_line(sb, in2.buf, &rec->v[j]);
			strbuf_addf(sb, "%s\t;;\n", indent);
		}
		strbuf_addf(sb, "%sesac\n", indent);
	}
	if (!any_other) {
		strbuf_release(&in2);
		return;
	}
	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		struct strbuf line = STRBUF_INIT;
		int ph = rec_placeholder(v->value);
		const char *val = ph ? "..." : v->value ? v->value : "";

		if (v->where == WHERE_ENV)
			continue;
		/* one format per place, the node's restriction inside it: a whole sentence to translate */
		if (v->where == WHERE_NCCL_CONF && v->node)
			strbuf_addf(&line, _("in /etc/nccl.conf: %s=%s (on %s only)"), v->name, val, v->node);
		else if (v->where == WHERE_NCCL_CONF)
			strbuf_addf(&line, _("in /etc/nccl.conf: %s=%s"), v->name, val);
		else if (v->where == WHERE_SYSCTL && v->node)
			strbuf_addf(&line, _("as root: sysctl -w %s=\"%s\" (on %s only)"), v->name, val,
				    v->node);
		else if (v->where == WHERE_SYSCTL)
			strbuf_addf(&line, _("as root: sysctl -w %s=\"%s\""), v->name, val);
		else if (v->node)
			strbuf_addf(&line, _("launcher: %s%s%s (on %s only)"), v->name, v->value ? "=" : "",
				    val, v->node);
		else
			strbuf_addf(&line, _("launcher: %s%s%s"), v->name, v->value ? "=" : "", val);
		strbuf_addstr(&line, "   # ");
		if (ph) {
			em_fill_in(&line, v->value);
			strbuf_addstr(&line, "; ");
		}
		i18n_text(&line, v->why ? v->why : N_("recommended"));
		strbuf_reset(&in2);
		strbuf_addf(&in2, "%s# ", indent);
		em_comment(sb, in2.buf, line.buf);
		strbuf_release(&line);
	}
	strbuf_release(&in2);
}

void em_notes(struct strbuf *sb, const struct recommendation *rec, const char *comment)
{
	struct strbuf c = STRBUF_INIT;

	if (!rec->nnotes)
		return;
	strbuf_add(sb, comment, strcspn(comment, " "));
	strbuf_addf(sb, "\n%s%s\n", comment, _("Not written, on purpose, or to check by hand:"));
	strbuf_addf(&c, "%s  ", comment);
	for (size_t i = 0; i < rec->nnotes; i++)
		em_comment_tr(sb, c.buf, rec->notes[i]);
	strbuf_release(&c);
}

void em_endpoint(struct strbuf *sb, const char *addr, int port)
{
	if (strchr(addr, ':'))
		strbuf_addf(sb, "[%s]:%d", addr, port);
	else
		strbuf_addf(sb, "%s:%d", addr, port);
}

void emit_env(struct strbuf *sb, const struct recommendation *rec)
{
	em_header(sb, rec, "# ", _("the environment for every node of this job"));
	strbuf_addf(sb, "# %s\n# %s\n\n",
		    _("Source it on every node (. ./ncclcheck.env) or append it to ~/.bashrc."),
		    _("Only what the checks showed to be needed; each line says why."));
	em_exports(sb, rec, "");
	em_notes(sb, rec, "# ");
}

static size_t file_settings(struct strbuf *sb, const struct recommendation *rec,
			    enum setting_where where, const char *what, const char *fmt)
{
	size_t n = 0;

	for (size_t i = 0; i < rec->n; i++) {
		const struct rec_var *v = &rec->v[i];
		if (v->where != where || !v->value || v->scope != SCOPE_ALL)
			continue;
		if (!n++)
			em_header(sb, rec, "# ", what);
		why_line(sb, "", v);
		if (rec_placeholder(v->value))
			em_placeholder(sb, "", "%s=...", v);
		else
			strbuf_addf(sb, fmt, v->name, v->value);
	}
	return n;
}

size_t emit_nccl_conf(struct strbuf *sb, const struct recommendation *rec)
{
	return file_settings(sb, rec, WHERE_NCCL_CONF, _("lines for /etc/nccl.conf (environment "
			     "variables still win over them)"), "%s=%s\n");
}

size_t emit_sysctl(struct strbuf *sb, const struct recommendation *rec)
{
	return file_settings(sb, rec, WHERE_SYSCTL, _("kernel settings for every node: "
			     "/etc/sysctl.d/90-nccl.conf, then sysctl --system (as root)"), "%s = %s\n");
}
