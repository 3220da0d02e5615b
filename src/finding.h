/*
 * Findings: what every part of ncclcheck concludes (node rules, cluster rules, explain, attach).
 * One type for the whole program. Each has a stable catalogued id ("net.ifname.nomatch"), a
 * severity, a confidence, what it is about (a node, some ranks, or a pair of nodes over an
 * interface), a one-line title, why it matters, the evidence it rests on, and the fix twice: as
 * lines a person runs, and as settings[] that `config` and `run` apply without reading prose.
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

/* How sure the conclusion is: measured or modelled exactly (high), inferred from a log (medium/low). */
enum confidence {
	CONF_LOW = 0,
	CONF_MEDIUM,
	CONF_HIGH,
};

/* Where a recommended setting goes. */
enum setting_where {
	WHERE_ENV = 0,		/* an environment variable of the job */
	WHERE_NCCL_CONF,	/* a line of /etc/nccl.conf or ~/.nccl.conf */
	WHERE_SYSCTL,		/* a kernel setting (sysctl -w NAME=VALUE) */
	WHERE_LAUNCHER,		/* a launcher option (srun --ntasks-per-node, torchrun --nnodes, …) */
};

/* Whether a setting applies to every node of the job or to the finding's node only. */
enum setting_scope {
	SCOPE_ALL = 0,
	SCOPE_NODE,
};

/*
 * One machine-readable part of a fix. value NULL means "unset / remove it"; a value in angle
 * brackets ("<a shared secret>") is a placeholder (setting_placeholder): the user's to choose,
 * so no writer prints it as a value and `run` never applies it.
 */
struct setting {
	char *name;
	char *value;
	enum setting_where where;
	enum setting_scope scope;
	char *node;		/* the node a SCOPE_NODE setting is for (the finding's node if NULL) */
};

struct finding {
	char *id;
	enum severity sev;
	enum confidence conf;
	char *title;
	/* subjects: a node; or ranks; or a pair node -> peer over ifname */
	char *node;		/* which node it is about; NULL on a single-node run */
	char *peer;		/* with node: the other end of a pair */
	char *ifname;		/* the interface a pair result is about */
	int *ranks;		/* the ranks it is about (explain, attach) */
	size_t nranks, aranks;
	char *why;		/* the explanation, may be NULL */
	char **fix;		/* lines to run or set, in order */
	size_t nfix, afix;
	struct setting *settings;	/* the same fix as data */
	size_t nsettings, asettings;
	char **evidence;	/* facts or log lines the finding rests on */
	size_t nevidence, aevidence;
	char *rerun;		/* what to rerun with when the evidence is not enough, or NULL */
	char *check;		/* the ncclcheck command that tests the suspicion, or NULL */
	int decoded;		/* read by findings_from_json: its settings are the sender's */
	/*
	 * Set by the fold pass (rules/cluster_fold.c): the root cause that explains this finding.
	 * A folded finding keeps its severity (what it would be alone) but is not counted: not in
	 * findings_count(), findings_max(), the summary line or the exit code. NULL: a root.
	 */
	struct finding_cause *caused_by;
};

/* What a folded finding names as its cause: the cause's id and subjects (JSON "caused_by"). */
struct finding_cause {
	char *id;
	char *node;		/* may be NULL: a cause about several nodes */
	char *ifname;		/* may be NULL */
};

struct findings {
	struct finding **v;
	size_t n, alloc;
};

struct findings *findings_new(void);
void findings_free(struct findings *fs);

/*
 * Adds a finding (confidence high); the returned pointer stays valid until findings_free().
 * `id` should be in the catalogue (finding_catalog.c); the unit tests fail when it is not.
 */
struct finding *finding_add(struct findings *fs, enum severity sev, const char *id,
			    const char *title_fmt, ...) __attribute__((format(printf, 4, 5)));
/* Appends a fix line, an evidence line; sets (replaces) the explanation and the node. */
/* A copy of `f` appended to `to`: its text, subjects, fix lines, evidence and settings. */
struct finding *finding_copy(struct findings *to, const struct finding *f);
void finding_fix(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_evidence(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_why(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_node(struct finding *f, const char *node);
/* Makes the finding about the pair node -> peer over ifname (any may be NULL). */
void finding_pair(struct finding *f, const char *node, const char *peer, const char *ifname);
void finding_rank(struct finding *f, int rank);
void finding_rerun(struct finding *f, const char *rerun);
void finding_check(struct finding *f, const char *check);
/* Folds `f` under `cause` (its id and subjects are copied); a NULL cause unfolds it. */
void finding_caused_by(struct finding *f, const struct finding *cause);
/* Whether `f` was folded under a cause (and so is not counted). */
int finding_folded(const struct finding *f);
/* Whether a setting's value is a placeholder: "<...>". */
int setting_placeholder(const char *value);
/* Whether `f` names `cause` (id, node and interface) as its cause. */
int finding_cause_is(const struct finding *f, const struct finding *cause);
/*
 * Adds a setting, value from the format (NULL format: unset the variable). Adding the same
 * name/where/node again replaces its value, so a rule may refine what it recommends.
 */
struct setting *finding_setting(struct finding *f, enum setting_where where, enum setting_scope scope,
				const char *name, const char *value_fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A setting for one named node (SCOPE_NODE): cluster verdicts give each node its own value. */
struct setting *finding_setting_for(struct finding *f, enum setting_where where, const char *node,
				    const char *name, const char *value_fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The common case: `export NAME=VALUE` on every node, as a fix line and as a setting. */
void finding_export(struct finding *f, const char *name, const char *value_fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A fix line that recommends a variable without the matching setting: `export NAME=VALUE ...`,
 * `unset NAME ...` (also after "on NODE: ") whose NAME has no env setting (of either form: an
 * export and an unset of one variable may be alternatives). Comment lines ("# or ...") and values with shell expansions or
 * quotes ($, `, ', ") are prose for people, not settings. Returns 1 with NAME copied into `name`,
 * else 0. Debug builds abort in findings_free() on such a finding: every recommended variable
 * must be in settings[], which config and run read (fix lines are never parsed back).
 */
int finding_unsettled(const struct finding *f, char *name, size_t len);

/* The first finding with `id`, or NULL (tests and cross-rule checks use it). */
const struct finding *findings_find(const struct findings *fs, const char *id);
/* The setting `name` of a finding, or NULL. */
const struct setting *finding_find_setting(const struct finding *f, const char *name);
/* Counts and the top severity of the roots only: folded findings (caused_by) do not count. */
size_t findings_count(const struct findings *fs, enum severity sev);
enum severity findings_max(const struct findings *fs);
/* Errors first, then warnings, info, ok; insertion order kept within a severity. */
void findings_sort(struct findings *fs);

const char *severity_name(enum severity sev);	/* "ok", "info", "warn", "error" */
int severity_parse(const char *s, enum severity *out);
const char *confidence_name(enum confidence c);	/* "low", "medium", "high" */
int confidence_parse(const char *s, enum confidence *out);
const char *setting_where_name(enum setting_where w);	/* "env", "nccl.conf", "sysctl", "launcher" */
int setting_where_parse(const char *s, enum setting_where *out);

/*
 * A JSON array of finding objects (new reference), and back (saved runs, cluster peers). The
 * reader is strict: an array member that is not a well-formed finding makes it return -1 with
 * the reason in `err` (at least 128 bytes; may be NULL), and nothing half-read is kept in `fs`.
 */
json_t *findings_to_json(const struct findings *fs);
int findings_from_json(struct findings *fs, const json_t *arr, char *err, size_t errlen);

#endif
