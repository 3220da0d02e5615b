/*
 * Findings: what the rules conclude. Each has a stable id ("net.ifname.nomatch"), a severity, a
 * one-line title, the fix (concrete commands or env lines, never "check your network"), why it
 * matters, and the evidence it rests on. Rules produce them; renderers print them.
 */
#ifndef NCCLCHECK_FINDING_H
#define NCCLCHECK_FINDING_H

#include <stddef.h>

#include <jansson.h>

enum severity {
	SEV_OK = 0,	/* a check that passed, worth showing */
	SEV_INFO,	/* a fact the user should know; no action needed */
	SEV_WARN,	/* will work, but slow, fragile or misleading */
	SEV_ERROR,	/* will fail or hang; exit code 1 */
};

struct finding {
	char *id;
	enum severity sev;
	char *title;
	char *node;		/* which node it is about; NULL on a single-node run */
	char *why;		/* the explanation, may be NULL */
	char **fix;		/* lines to run or set, in order */
	size_t nfix, afix;
	char **evidence;	/* facts or log lines the finding rests on */
	size_t nevidence, aevidence;
};

struct findings {
	struct finding **v;
	size_t n, alloc;
};

struct findings *findings_new(void);
void findings_free(struct findings *fs);

/* Adds a finding; the returned pointer stays valid until findings_free(). */
struct finding *finding_add(struct findings *fs, enum severity sev, const char *id,
			    const char *title_fmt, ...) __attribute__((format(printf, 4, 5)));
/* Appends a fix line, an evidence line; sets (replaces) the explanation and the node. */
void finding_fix(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_evidence(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_why(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_node(struct finding *f, const char *node);

/* The first finding with `id`, or NULL (tests and cross-rule checks use it). */
const struct finding *findings_find(const struct findings *fs, const char *id);
size_t findings_count(const struct findings *fs, enum severity sev);
enum severity findings_max(const struct findings *fs);
/* Errors first, then warnings, info, ok; insertion order kept within a severity. */
void findings_sort(struct findings *fs);

const char *severity_name(enum severity sev);	/* "ok", "info", "warn", "error" */
int severity_parse(const char *s, enum severity *out);

/* A JSON array of finding objects (new reference), and back (for facts of peers, saved runs). */
json_t *findings_to_json(const struct findings *fs);
int findings_from_json(struct findings *fs, const json_t *arr);

#endif
