/* Text and JSON renderers: see render.h. */
#include "report/render.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "ncclcheck.h"
#include "util/i18n.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/wrap.h"
#include "util/xalloc.h"

int render_want_color(FILE *stream)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (nc && *nc)
		return 0;
	if (term && !strcmp(term, "dumb"))
		return 0;
	return isatty(fileno(stream));
}

const char *render_sgr(const struct render_opts *o, enum severity sev)
{
	static const char *const sgr[] = { "\033[32m", "\033[36m", "\033[33m", "\033[1;31m" };

	return o && o->color ? sgr[sev] : "";
}

const char *render_bold(const struct render_opts *o)
{
	return o && o->color ? "\033[1m" : "";
}

const char *render_reset(const struct render_opts *o)
{
	return o && o->color ? "\033[0m" : "";
}

/* Appends `text` and blanks up to `cols` display columns (a Chinese label is narrower in bytes). */
static void add_padded(struct strbuf *sb, const char *text, size_t cols)
{
	size_t w = wrap_cols(text, strlen(text));

	strbuf_addstr(sb, text);
	if (w < cols)
		strbuf_addchars(sb, ' ', cols - w);
}

/* The severity's label, five columns wide. */
static const char *label(struct strbuf *sb, enum severity sev)
{
	static const char *const l[] = { N_("ok"), N_("info"), N_("warn"), N_("ERROR") };

	strbuf_reset(sb);
	add_padded(sb, _(l[sev]), 5);
	return sb->buf;
}

const char *render_l10n(struct strbuf *sb, const char *text)
{
	strbuf_reset(sb);
	if (i18n_lang() == I18N_EN || !text)
		return text;
	i18n_text(sb, text);
	return sb->buf;
}

const char *render_fix_l10n(struct strbuf *sb, const char *line)
{
	const char *comment;
	size_t at;

	if (i18n_lang() == I18N_EN || !line)
		return line;
	if (line[0] == '#' && line[1] == ' ')
		return render_l10n(sb, line);
	/*
	 * A fix is a command, left alone; what a person reads is translated: the whole line when it
	 * is a msgid of its own (prose such as "look at what rank 1 does now: ...", explain's
	 * "upgrade NCCL to 2.8 or later", or a command and its comment, the translation repeating
	 * the command); else a comment after the command by itself. A command matches no msgid.
	 */
	if (strcmp(render_l10n(sb, line), line))
		return sb->buf;
	comment = strstr(line, "  # ");
	if (!comment)
		return line;
	at = (size_t)(comment - line) + 4;
	strbuf_reset(sb);
	strbuf_add(sb, line, at);
	i18n_text(sb, comment + 4);
	/* words no msgid holds that only say where to run it ("# on fp-n0", explain's "# on
	 * {node}") are the msgid "# on %s", which must not swallow a longer comment */
	if (!strcmp(sb->buf + at, comment + 4) && !strncmp(comment + 4, "on ", 3) &&
	    !strpbrk(comment + 4, ":;")) {
		strbuf_setlen(sb, at - 2);
		i18n_text(sb, comment + 2);
	}
	return sb->buf;
}

static int width_of(const struct render_opts *o)
{
	return o && o->width ? o->width : WRAP_MAX;
}

/* Prints `line` (newline included) wrapped as prose, hung under its label. */
static void prose(FILE *out, const char *line, const struct render_opts *o)
{
	struct strbuf wrapped = STRBUF_INIT;

	wrap_text(&wrapped, line, width_of(o), -1, WRAP_PROSE);
	fputs(wrapped.buf, out);
	strbuf_release(&wrapped);
}

/*
 * Prints `text` indented under a label, continuing wrapped/multi-line text at the same column:
 * a fix is a command (WRAP_SHELL: a pasted fix runs as written), the rest prose.
 */
static void indented(FILE *out, const char *tag, const char *text, const struct render_opts *o,
		     enum wrap_mode mode)
{
	struct strbuf line = STRBUF_INIT, wrapped = STRBUF_INIT, l10n = STRBUF_INIT;
	const char *p = mode == WRAP_PROSE ? render_l10n(&l10n, text) : render_fix_l10n(&l10n, text);

	/* a fix line in prose ("look at what rank 1 does now: ...") translated whole wraps as prose */
	if (mode == WRAP_SHELL && p != text && text[0] != '#' && !strstr(text, "  # "))
		mode = WRAP_PROSE;

	strbuf_addstr(&line, "       ");
	add_padded(&line, tag, 6);
	strbuf_addch(&line, ' ');
	for (; *p; p++) {
		strbuf_addch(&line, *p);
		if (*p == '\n' && p[1])
			strbuf_addstr(&line, "              ");
	}
	wrap_text(&wrapped, line.buf, width_of(o), 14, mode);
	fputs(wrapped.buf, out);
	fputc('\n', out);
	strbuf_release(&line);
	strbuf_release(&wrapped);
	strbuf_release(&l10n);
}

void render_cause(struct strbuf *sb, const struct finding_cause *cause)
{
	strbuf_addstr(sb, cause->id);
	if (cause->node)
		strbuf_addf(sb, _(" on %s"), cause->node);
	if (cause->ifname)
		strbuf_addf(sb, _(" over %s"), cause->ifname);
}

static void one(FILE *out, const struct finding *f, const struct render_opts *o)
{
	struct strbuf head = STRBUF_INIT, lab = STRBUF_INIT, title = STRBUF_INIT;
	size_t i;

	strbuf_addf(&head, "%s%s%s  %s%s%s", render_sgr(o, f->sev), label(&lab, f->sev),
		    render_reset(o), render_bold(o), render_l10n(&title, f->title), render_reset(o));
	strbuf_release(&lab);
	strbuf_release(&title);
	if (f->node)
		strbuf_addf(&head, "  [%s]", f->node);
	strbuf_addf(&head, "  (%s)\n", f->id);
	prose(out, head.buf, o);
	if (f->caused_by) {
		strbuf_reset(&head);
		render_cause(&head, f->caused_by);
		indented(out, _("cause:"), head.buf, o, WRAP_PROSE);
	}
	strbuf_release(&head);
	for (i = 0; i < f->nfix; i++)
		indented(out, i ? "" : _("fix:"), f->fix[i], o, WRAP_SHELL);
	if (f->why)
		indented(out, _("why:"), f->why, o, WRAP_PROSE);
	for (i = 0; i < f->nevidence; i++) {
		if (!o->verbose && i == 6) {
			indented(out, "", _("… (--verbose shows all evidence)"), o, WRAP_PROSE);
			break;
		}
		indented(out, i ? "" : _("seen:"), f->evidence[i], o, WRAP_PROSE);
	}
}

void render_findings_text(FILE *out, const struct findings *fs, const struct render_opts *o)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if ((fs->v[i]->sev != SEV_OK || o->verbose) &&
		    (!o->roots || o->verbose || !finding_folded(fs->v[i])))
			one(out, fs->v[i], o);
	if (!o->verbose && !o->roots) {
		for (i = 0; i < fs->n; i++)
			if (fs->v[i]->sev == SEV_OK) {
				struct strbuf sb = STRBUF_INIT, lab = STRBUF_INIT, t = STRBUF_INIT;

				strbuf_addf(&sb, "%s%s%s  %s\n", render_sgr(o, SEV_OK), label(&lab, SEV_OK),
					    render_reset(o), render_l10n(&t, fs->v[i]->title));
				prose(out, sb.buf, o);
				strbuf_release(&sb);
				strbuf_release(&lab);
				strbuf_release(&t);
			}
	}
}

int render_setting_command(const struct setting *st, char *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT, kv = STRBUF_INIT;
	int fits;

	if (setting_placeholder(st->value))
		return 0;	/* the user's value to choose: the finding's fix says how */
	/* a value with a control byte (a newline) would be a command of more than one line */
	for (const char *p = st->value; p && *p; p++)
		if (iscntrl((unsigned char)*p))
			return 0;
	/* every value is one shell word, quoted by the emitters' one quoting rule */
	switch (st->where) {
	case WHERE_ENV:
		if (!st->value) {
			strbuf_addf(&sb, "unset %s", st->name);
			break;
		}
		strbuf_addf(&sb, "export %s=", st->name);
		emit_sh_word(&sb, st->value);
		break;
	case WHERE_SYSCTL:
		if (!st->value)
			return 0;
		strbuf_addf(&sb, "sysctl -w %s=", st->name);
		emit_sh_word(&sb, st->value);
		break;
	case WHERE_NCCL_CONF:
		if (!st->value)
			return 0;
		strbuf_addf(&kv, "%s=%s", st->name, st->value);
		strbuf_addstr(&sb, "echo ");
		emit_sh_word(&sb, kv.buf);
		strbuf_addstr(&sb, " >> /etc/nccl.conf");
		strbuf_release(&kv);
		break;
	default:
		return 0;
	}
	/* a command cut short is not the command: none rather than a wrong one */
	fits = sb.len < len;
	if (fits)
		memcpy(buf, sb.buf, sb.len + 1);
	strbuf_release(&sb);
	return fits;
}

/* The node a setting is for: its own, its finding's, or NULL for every node. */
static const char *setting_node(const struct finding *f, const struct setting *st)
{
	return st->scope == SCOPE_NODE ? (st->node ? st->node : f->node) : NULL;
}

size_t render_fix_block(const struct findings *fs, enum severity sev, struct strbuf *sb)
{
	const char **nodes = NULL;
	size_t nnodes = 0, anodes = 0, ncmd = 0;
	struct strbuf seen = STRBUF_INIT;

	/* the nodes in order of first appearance; NULL (every node) first */
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < fs->n; i++) {
			const struct finding *f = fs->v[i];

			if (f->sev != sev || finding_folded(f))
				continue;
			for (size_t k = 0; k < f->nsettings; k++) {
				const char *node = setting_node(f, &f->settings[k]);
				int dup = 0;

				if ((pass == 0) != (node == NULL))
					continue;
				for (size_t j = 0; j < nnodes; j++)
					dup |= !strcmp(nodes[j] ? nodes[j] : "", node ? node : "");
				if (dup)
					continue;
				ALLOC_GROW(nodes, nnodes + 1, anodes);
				nodes[nnodes++] = node;
			}
		}
	for (size_t j = 0; j < nnodes; j++) {
		int head = 0;

		for (size_t i = 0; i < fs->n; i++) {
			const struct finding *f = fs->v[i];

			if (f->sev != sev || finding_folded(f))
				continue;
			for (size_t k = 0; k < f->nsettings; k++) {
				const struct setting *st = &f->settings[k];
				const char *node = setting_node(f, st);
				char cmd[1024], key[1200];

				if (strcmp(node ? node : "", nodes[j] ? nodes[j] : "") ||
				    !render_setting_command(st, cmd, sizeof(cmd)))
					continue;
				snprintf(key, sizeof(key), "\n%s\t%s\n", node ? node : "", cmd);
				if (seen.len && strstr(seen.buf, key))
					continue;
				strbuf_addstr(&seen, key);
				if (!head++) {
					if (nodes[j])
						strbuf_addf(sb, _("  # on %s\n"), nodes[j]);
					else
						strbuf_addstr(sb, _("  # on every node\n"));
				}
				strbuf_addf(sb, "  %s\n", cmd);
				ncmd++;
			}
		}
	}
	strbuf_release(&seen);
	free(nodes);
	return ncmd;
}

void render_verdict_line(struct strbuf *sb, const struct findings *fs,
			 const struct render_opts *o, const char *lead)
{
	size_t e = findings_count(fs, SEV_ERROR), w = findings_count(fs, SEV_WARN);
	const struct finding *first = NULL;

	for (size_t i = 0; i < fs->n && !first; i++)
		if (fs->v[i]->sev == (e ? SEV_ERROR : SEV_WARN) && !finding_folded(fs->v[i]))
			first = fs->v[i];
	struct strbuf t = STRBUF_INIT;

	if (lead)
		strbuf_addf(sb, _("%s: "), lead);
	if (e) {
		strbuf_addf(sb, "%s%s%s", render_sgr(o, SEV_ERROR), render_l10n(&t, first->title),
			    render_reset(o));
		if (first->node && !strstr(first->title, first->node))
			strbuf_addf(sb, " [%s]", first->node);
		if (e > 1)
			strbuf_addf(sb, Q_(" (and %zu more error below)", " (and %zu more errors below)",
					   e - 1), e - 1);
		{
			size_t folded = 0;

			for (size_t i = 0; i < fs->n; i++)
				folded += finding_cause_is(fs->v[i], first);
			if (folded)
				strbuf_addf(sb, Q_("; it explains %zu other finding%s",
						   "; it explains %zu other findings%s", folded),
					    folded, o->verbose ? "" : _(" (-v lists them)"));
		}
	} else {
		const struct finding *ok = NULL;

		/* a passed verdict (cluster.verdict.ifname) is what "no errors" rests on */
		for (size_t i = 0; i < fs->n && !ok; i++)
			if (fs->v[i]->sev == SEV_OK && strstr(fs->v[i]->id, ".verdict."))
				ok = fs->v[i];
		strbuf_addstr(sb, _("no errors"));
		if (w)
			strbuf_addf(sb, Q_(" (%zu warning below)", " (%zu warnings below)", w), w);
		if (ok)
			strbuf_addf(sb, _(": %s"), render_l10n(&t, ok->title));
	}
	strbuf_release(&t);
}

void render_verdict_text(FILE *out, const struct findings *fs, const struct render_opts *o,
			 const char *lead)
{
	size_t e = findings_count(fs, SEV_ERROR);
	struct strbuf sb = STRBUF_INIT, block = STRBUF_INIT, text = STRBUF_INIT;
	int width = width_of(o);
	/* the label's own blank: a Chinese full-width colon needs none */
	const char *verdict = _("verdict: ");

	strbuf_addf(&sb, "%s%s%s", render_bold(o), verdict, render_reset(o));
	render_verdict_line(&sb, fs, o, lead);
	strbuf_addch(&sb, '\n');
	wrap_text(&text, sb.buf, width, (int)wrap_cols(verdict, strlen(verdict)), WRAP_PROSE);
	if (render_fix_block(fs, e ? SEV_ERROR : SEV_WARN, &block)) {
		strbuf_addch(&text, '\n');
		strbuf_addstr(&text, e ? _("the fix (as root, on the nodes named; then run the check "
					   "again):\n") :
				    _("for the warnings (as root, on the nodes named; then run the "
				      "check again):\n"));
		wrap_text(&text, block.buf, width, 4, WRAP_SHELL);
	}
	strbuf_addch(&text, '\n');
	fputs(text.buf, out);
	strbuf_release(&sb);
	strbuf_release(&block);
	strbuf_release(&text);
}

void render_summary_line(FILE *out, const struct findings *fs, const struct render_opts *o)
{
	size_t e = findings_count(fs, SEV_ERROR), w = findings_count(fs, SEV_WARN);
	size_t n = findings_count(fs, SEV_INFO), k = findings_count(fs, SEV_OK);
	struct strbuf sb = STRBUF_INIT;
	const char *sep = _(", ");

	strbuf_addstr(&sb, e ? render_sgr(o, SEV_ERROR) : render_bold(o));
	strbuf_addf(&sb, Q_("%zu error", "%zu errors", e), e);
	strbuf_addstr(&sb, render_reset(o));
	strbuf_addstr(&sb, sep);
	strbuf_addf(&sb, Q_("%zu warning", "%zu warnings", w), w);
	strbuf_addstr(&sb, sep);
	strbuf_addf(&sb, Q_("%zu note", "%zu notes", n), n);
	strbuf_addstr(&sb, sep);
	strbuf_addf(&sb, Q_("%zu check passed", "%zu checks passed", k), k);
	strbuf_addch(&sb, '\n');
	prose(out, sb.buf, o);
	strbuf_release(&sb);
}

json_t *render_json_doc(const char *verb, json_t *payload, const struct findings *fs, int exit_code)
{
	json_t *doc = json_object(), *tool = json_object(), *sum = json_object();
	const char *key;
	json_t *val;

	jset_int(doc, "schema_version", REPORT_SCHEMA_VERSION);
	jset_str(tool, "name", "ncclcheck");
	jset_str(tool, "version", NCCLCHECK_VERSION);
	json_object_set_new(doc, "tool", tool);
	jset_str(doc, "verb", verb);
	/* the text is English whatever the reader's language; "lang" says which one they read */
	if (i18n_lang() != I18N_EN)
		jset_str(doc, "lang", i18n_lang_code(i18n_lang()));
	if (payload)
		json_object_foreach(payload, key, val)
			json_object_set(doc, key, val);
	if (fs) {
		json_object_set_new(doc, "findings", findings_to_json(fs));
		jset_int(sum, "error", (long long)findings_count(fs, SEV_ERROR));
		jset_int(sum, "warn", (long long)findings_count(fs, SEV_WARN));
		jset_int(sum, "info", (long long)findings_count(fs, SEV_INFO));
		jset_int(sum, "ok", (long long)findings_count(fs, SEV_OK));
		json_object_set_new(doc, "summary", sum);
	} else {
		json_decref(sum);
	}
	jset_int(doc, "exit_code", exit_code);
	return doc;
}

static int to_file(const char *buf, size_t size, void *data)
{
	return fwrite(buf, 1, size, data) == size ? 0 : -1;
}

int render_json_print_splice(FILE *out, const json_t *doc, const struct jsplice *sp)
{
	if (jdump_splice(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(6), sp, to_file, out) < 0)
		return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}

int render_json_print(FILE *out, const json_t *doc)
{
	return render_json_print_splice(out, doc, NULL);
}
