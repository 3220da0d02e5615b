/*
 * Every environment variable NCCL reads, with its type, default, allowed values and the NCCL
 * versions that read it: the one table that the NCCL_* lint, the interface prediction and the
 * config writers share. Also the view of those variables that NCCL itself gets: the environment
 * first, then NCCL_CONF_FILE or ~/.nccl.conf, then /etc/nccl.conf (setenv without overwrite).
 */
#ifndef NCCLCHECK_RULES_NCCL_VARS_H
#define NCCLCHECK_RULES_NCCL_VARS_H

#include <stddef.h>

#include <jansson.h>

enum nv_type {
	NV_INT,		/* NCCL_PARAM: strtoll(value, NULL, 0), cached for the process */
	NV_STR,		/* free text NCCL takes as it is */
	NV_ENUM,	/* one of `values`, compared ignoring case */
	NV_ENUM_CS,	/* one of `values`, compared with strcmp: case matters */
	NV_NET,		/* a network plugin name: IB, Socket or an external plugin's name */
	NV_LEVEL,	/* topology level (LOC NVL NVB PIX PXB PXN PHB SYS ...) or a legacy digit */
	NV_IFLIST,	/* [^][=]prefix[:port],... over IP interfaces */
	NV_HCALIST,	/* [^][=]hca[:port],... over RDMA devices */
	NV_ALGO,	/* NCCL_ALGO grammar */
	NV_PROTO,	/* NCCL_PROTO grammar */
	NV_SUBSYS,	/* [^]subsystem,... */
	NV_PATH,
	NV_ADDR,	/* host:port or [v6]:port */
	NV_FLOAT,	/* strtod over the whole value, finite and > 0, else the default */
};

enum nv_owner {
	NV_OWN_NCCL = 0,
	NV_OWN_BUILD,	/* build or container metadata (NCCL_VERSION, NCCL_HOME): nobody reads it at run time */
	NV_OWN_NCCLX,	/* read only by Meta's NCCLX fork (torchcomms); upstream NCCL ignores it */
};

struct nccl_var {
	const char *name;
	enum nv_type type;
	const char *def;	/* the default NCCL uses, as text; NULL when not simple */
	const char *values;	/* NV_ENUM / NV_ENUM_CS: "PARALLEL|GROUP" */
	long long min, max;	/* NV_INT: allowed range when min <= max (the default is always allowed) */
	const char *since;	/* first NCCL version that reads it; NULL: 2.7.8 or older */
	const char *gone;	/* first NCCL version that no longer reads it; NULL: still read */
	enum nv_owner owner;
	const char *note;	/* why it is there, when it is not obvious */
	const char *typed_since; /* first release that reads it as `type`; older ones: NV_INT */
};

extern const struct nccl_var nccl_vars[];
extern const size_t nccl_vars_count;

/*
 * The table row for `name`, or NULL. PyTorch's own NCCL_-prefixed names (NCCL_BLOCKING_WAIT...)
 * are not here: rules/stack_tables.c lists them (stack_find_renamed) and launcher_env.c reports them.
 */
const struct nccl_var *nccl_var_find(const char *name);
/*
 * The product that owns NCCL_* names starting with a plugin's prefix (NCCL_OFI_ -> "aws-ofi-nccl"),
 * or NULL.
 */
const char *nccl_var_plugin(const char *name);

/*
 * How NCCL_PARAM reads an integer: strtoll(s, NULL, 0). Returns the value NCCL uses and sets
 * *how to NV_PARSE_* saying whether that is what the user meant.
 */
enum nv_parse {
	NV_PARSE_OK,		/* plain decimal */
	NV_PARSE_EMPTY,		/* empty: NCCL uses the default */
	NV_PARSE_JUNK,		/* no digits at all ("true", "yes"): NCCL uses 0 */
	NV_PARSE_TRAILING,	/* digits then text ("4M", "1 "): NCCL uses the digits */
	NV_PARSE_OCTAL,		/* leading 0 ("010"): NCCL reads octal */
	NV_PARSE_HEX,		/* "0x10": NCCL reads hex */
	NV_PARSE_RANGE,		/* out of long long: NCCL uses the default */
};
long long nccl_parse_int(const char *s, enum nv_parse *how);

/*
 * The NCCL release modelled when the facts name none: what PyTorch 2.10/2.11 wheels ship. The
 * node model (model/node.c) decides the version: NCCLCHECK_ASSUME_NCCL (net.assume_nccl), else the
 * one the job loads, else this.
 */
#define NCCL_MODEL_DEFAULT "2.28.9"

/* One NCCL_* setting NCCL would see, and where it came from. */
struct nccl_setting {
	const char *name;	/* borrowed from the facts */
	const char *value;
	const char *source;	/* "environment" or a config file's path */
	int from_file;
	int line;		/* line in that file, 0 when unknown */
	int effective;		/* 0: a higher-precedence source sets the same name */
};

struct nccl_settings {
	struct nccl_setting *v;
	size_t n, alloc;
	const char *skipped_conf;	/* the path of a config file this NCCL does not read, if any */
};

/*
 * Collects NCCL_* names from env and nccl.conf[] in NCCL's precedence, for NCCL `version` (NULL:
 * the newest behaviour). Every occurrence is listed; `effective` marks the one NCCL uses.
 * Borrowed strings point into `facts`.
 */
void nccl_settings_collect(const json_t *facts, const char *version, struct nccl_settings *out);
void nccl_settings_release(struct nccl_settings *s);
/* The effective setting for `name`, or NULL. */
const struct nccl_setting *nccl_settings_get(const struct nccl_settings *s, const char *name);

#endif
