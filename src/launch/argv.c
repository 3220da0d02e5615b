/*
 * net/launch_argv: see launch_argv.h. torchrun's options are read up to the training script (its
 * first word that is not an option or an option's value), in both spellings (--node_rank and
 * --node-rank) and both forms (--opt=V and --opt V); the script's own arguments are never read.
 */
#include "launch/argv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/sock.h"

/* torchrun's options that take no value; every other --option takes one. */
static const char *const flag_opts[] = {
	"standalone", "no_python", "no-python", "run_path", "run-path", "module", "m",
	"use_env", "use-env", NULL,
};

static int is_python(const char *w)
{
	const char *b = strrchr(w, '/');

	b = b ? b + 1 : w;
	return !strncmp(b, "python", 6);
}

static int is_torchrun(const char *w)
{
	const char *b = strrchr(w, '/');

	b = b ? b + 1 : w;
	return !strcmp(b, "torchrun");
}

/* "--node_rank" and "--node-rank" are the same option; compares with '_' for '-'. */
static int opt_is(const char *opt, size_t len, const char *name)
{
	size_t i;

	for (i = 0; i < len && name[i]; i++) {
		char a = opt[i] == '-' ? '_' : opt[i], b = name[i] == '-' ? '_' : name[i];
		if (a != b)
			return 0;
	}
	return i == len && !name[i];
}

static int is_flag(const char *opt, size_t len)
{
	for (const char *const *f = flag_opts; *f; f++)
		if (opt_is(opt, len, *f))
			return 1;
	return 0;
}

static long to_long(const char *s, long min, long max)
{
	char *end;
	long v;

	if (!*s)
		return -1;
	v = strtol(s, &end, 10);
	return *end || v < min || v > max ? -1 : v;
}

static void take(struct torchrun_argv *t, const char *opt, size_t len, const char *val)
{
	char host[256];
	int port;

	if (opt_is(opt, len, "nnodes")) {
		const char *colon = strchr(val, ':');
		if (colon) {
			char lo[32];
			size_t n = (size_t)(colon - val);

			if (n >= sizeof(lo))
				return;
			memcpy(lo, val, n);
			lo[n] = '\0';
			t->nnodes = to_long(lo, 1, 1 << 20) == to_long(colon + 1, 1, 1 << 20) ?
				to_long(lo, 1, 1 << 20) : -2;
		} else {
			t->nnodes = to_long(val, 1, 1 << 20);
		}
	} else if (opt_is(opt, len, "node_rank")) {
		t->node_rank = to_long(val, 0, 1 << 20);
	} else if (opt_is(opt, len, "master_addr")) {
		snprintf(t->master_addr, sizeof(t->master_addr), "%s", val);
	} else if (opt_is(opt, len, "master_port")) {
		long p = to_long(val, 1, 65535);
		t->master_port = p > 0 ? (int)p : 0;
	} else if (opt_is(opt, len, "rdzv_backend")) {
		t->c10d = !strcmp(val, "c10d");
	} else if (opt_is(opt, len, "rdzv_endpoint")) {
		if (net_parse_hostport(val, host, sizeof(host), &port) == 0) {
			if (!t->master_addr[0])
				snprintf(t->master_addr, sizeof(t->master_addr), "%s", host);
			if (!t->master_port)
				t->master_port = port;
		} else if (!t->master_addr[0] && !strchr(val, ':')) {
			snprintf(t->master_addr, sizeof(t->master_addr), "%s", val);
		}
	}
}

int launch_argv_torchrun(char *const *argv, struct torchrun_argv *t)
{
	char *const *p = argv;

	memset(t, 0, sizeof(*t));
	t->nnodes = t->node_rank = -1;
	if (!p || !*p)
		return 0;
	if (is_torchrun(*p)) {
		p++;
	} else if (is_python(*p)) {
		/* python [-u -O ...] -m torch.distributed.run|launch */
		for (p++; *p && (*p)[0] == '-' && strcmp(*p, "-m"); p++)
			;
		if (!*p || !p[1] || (strcmp(p[1], "torch.distributed.run") &&
				     strcmp(p[1], "torch.distributed.launch")))
			return 0;
		p += 2;
	} else {
		return 0;
	}
	t->torchrun = 1;
	for (; *p; p++) {
		const char *w = *p, *opt, *eq;
		size_t len;

		if (!strcmp(w, "--") || w[0] != '-' || !w[1])
			break;	/* the training script */
		opt = w + (w[1] == '-' ? 2 : 1);
		eq = strchr(opt, '=');
		len = eq ? (size_t)(eq - opt) : strlen(opt);
		if (opt_is(opt, len, "standalone"))
			t->standalone = 1;
		if (eq) {
			take(t, opt, len, eq + 1);
		} else if (!is_flag(opt, len) && p[1]) {
			take(t, opt, len, p[1]);
			p++;
		}
	}
	return 1;
}
