/*
 * ncclcheck bench p2p: link tests between two nodes without the cluster's rendezvous, like
 * iperf3 -s / -c: one node serves (--serve), the other connects to it and runs connect,
 * port-range, path-MTU and bandwidth tests against it (net/link_*.h). Parsing and printing only.
 */
#include "cmd/cmd.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "finding.h"
#include "ncclcheck.h"
#include "link/ceiling.h"
#include "link/agent.h"
#include "link/ctl.h"
#include "net/sock.h"
#include "rules/link_findings.h"
#include "link/link_int.h"
#include "report/link_text.h"
#include "report/render.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

enum { OPT_SERVE = 1, OPT_IDLE, OPT_CONNECT, OPT_TESTS, OPT_ADDR, OPT_SRC, OPT_IFNAME,
	OPT_CONNECT_PORTS, OPT_PORTS, OPT_PORT_LIST, OPT_STREAMS, OPT_DURATION, OPT_MAX_MTU,
	OPT_TIMEOUT, OPT_SCAN_TIMEOUT, OPT_WINDOW, OPT_BATCH };

static const struct cli_opt p2p_opts[] = {
	{ .name = "serve", .arg = "[ADDR:]PORT", .id = OPT_SERVE,
	  .help = N_("answer link tests on this control port (all addresses by default)") },
	{ .name = "idle", .arg = "D", .id = OPT_IDLE,
	  .help = N_("with --serve: exit after D without a control connection (default 300s)") },
	{ .name = "connect", .arg = "ADDR:PORT", .id = OPT_CONNECT,
	  .help = N_("the serving node's control address") },
	{ .name = "tests", .arg = "LIST", .id = OPT_TESTS,
	  .help = N_("connect, scan, mtu, bw, comma-separated (default connect,mtu,bw)") },
	{ .name = "addr", .arg = "ADDR", .id = OPT_ADDR,
	  .help = N_("the target address to test (default: the control address); test\n"
		     "another interface of the serving node by its address there") },
	{ .name = "src", .arg = "ADDR", .id = OPT_SRC,
	  .help = N_("source address on this node (default: the kernel's choice)") },
	{ .name = "ifname", .arg = "IF", .id = OPT_IFNAME,
	  .help = N_("bind to this interface too (default: the route's)") },
	{ .name = "connect-ports", .arg = "P,...", .id = OPT_CONNECT_PORTS,
	  .help = N_("connect: ports the target listens on (default 0: one the kernel\n"
		     "picks, as NCCL's listeners do)") },
	{ .name = "ports", .arg = "LO-HI", .id = OPT_PORTS,
	  .help = N_("scan: the range (default 32768-60999, Linux's ip_local_port_range)") },
	{ .name = "port-list", .arg = "P,...", .id = OPT_PORT_LIST,
	  .help = N_("scan: just these ports (sampled ports; default: the whole range)") },
	{ .name = "streams", .arg = "N[,N...]", .id = OPT_STREAMS,
	  .help = N_("bw: TCP streams per run (default 1), e.g. 1,2,4") },
	{ .name = "duration", .arg = "D", .id = OPT_DURATION,
	  .help = N_("bw: seconds per run (default 3s)") },
	{ .name = "max-mtu", .arg = "N", .id = OPT_MAX_MTU,
	  .help = N_("mtu: top of the search (default: this node's interface MTU)") },
	{ .name = "timeout", .arg = "D", .id = OPT_TIMEOUT,
	  .help = N_("connect / mtu / bw step timeout (defaults 2s / 250ms / 3s)") },
	{ .name = "scan-timeout", .arg = "D", .id = OPT_SCAN_TIMEOUT,
	  .help = N_("scan: no answer after D = dropped (default 400ms)") },
	{ .name = "window", .arg = "N", .id = OPT_WINDOW,
	  .help = N_("scan: connects in flight (default: a whole batch)") },
	{ .name = "batch", .arg = "N", .id = OPT_BATCH,
	  .help = N_("scan: listeners the target opens per batch (default 4096)") },
	{ 0 },
};

int cmd_bench_p2p(int argc, char **argv);

const struct verb verb_bench_p2p = {
	.name = "bench p2p",
	.summary = N_("link tests between two nodes, one serving and one connecting (iperf3 style)"),
	.description =
		N_("Link tests between two nodes, one serving and one connecting (iperf3 -s / -c style),\n"
		   "over a plain control connection. The serving node is the target: it opens the\n"
		   "listeners, UDP echo and receivers on its own address; the connecting node reaches for\n"
		   "them. Give either --serve or --connect.\n"),
	.opts = p2p_opts,
	.json_help = N_("machine-readable output: every test's result and the findings"),
	.examples =
		N_("  ncclcheck bench p2p --serve 5201                                 (on node A)\n"
		   "  ncclcheck bench p2p --connect 10.0.0.1:5201 --tests connect,mtu,bw --streams 1,4\n"),
	.exit_codes =
		N_("0 every test passed, 1 a test found a problem, 2 usage error, 3 could not run\n"
		   "(no answer on the control port, the peer vanished).\n"),
	.flags = VERB_JSON | VERB_HTML,
	.run = cmd_bench_p2p,
};

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* "ADDR:PORT", "[v6]:PORT" or (serve) "PORT". */
static int split_hostport(const char *s, char *addr, size_t alen, long *port, int port_only_ok)
{
	const char *colon = strrchr(s, ':');
	char tmp[LINK_ADDR_LEN + 2], *host;

	if (!colon) {
		if (!port_only_ok)
			return -1;
		snprintf(addr, alen, "%s", "");
		return cli_parse_long(s, 1, 65535, port);
	}
	if (cli_parse_long(colon + 1, 1, 65535, port) < 0 || (size_t)(colon - s) >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, (size_t)(colon - s));
	tmp[colon - s] = '\0';
	host = tmp;
	if (tmp[0] == '[' && tmp[strlen(tmp) - 1] == ']') {
		tmp[strlen(tmp) - 1] = '\0';
		host = tmp + 1;
	}
	if (strlen(host) >= alen)
		return -1;
	memcpy(addr, host, strlen(host) + 1);
	return link_addr_valid(addr) ? 0 : -1;
}

static int serve(const char *spec, long idle_ms)
{
	char addr[LINK_ADDR_LEN];
	long port;
	struct err e = ERR_INIT;
	struct link_agent *a;
	int lfd, rc;

	if (split_hostport(spec, addr, sizeof(addr), &port, 1) < 0)
		return cli_usage_error("bench p2p", "--serve wants [ADDR:]PORT, not '%s'", spec);
	lfd = link_listen(addr[0] ? addr : "::", (uint16_t)port, 16, NULL, &e);
	if (lfd < 0 && !addr[0])
		lfd = link_listen("0.0.0.0", (uint16_t)port, 16, NULL, &e);
	if (lfd < 0)
		return error("%s", e.msg), EXIT_CANNOT_RUN;
	warning("serving link tests on port %ld without a token: anyone who reaches it can make "
		"this node open listeners (use it between machines you control)", port);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	link_raise_nofile(NULL);
	a = link_agent_new();
	rc = link_ctl_serve(lfd, a, &stop_flag, (int)idle_ms, &e);
	link_agent_free(a);
	close(lfd);
	if (rc < 0)
		return error("%s", e.msg), EXIT_CANNOT_RUN;
	return EXIT_CLEAN;
}

struct opts {
	char ctl_addr[LINK_ADDR_LEN];
	long ctl_port;
	char addr[LINK_ADDR_LEN], src[LINK_ADDR_LEN], ifname[LINK_IFNAME_LEN];
	unsigned tests;		/* 1 << enum link_kind */
	long lo, hi;
	uint16_t list[LINK_SCAN_LIST_MAX];
	int nlist;
	long streams[8];
	int nstreams;
	long cports[LINK_CONNECT_PORTS_MAX];
	int ncports;
	long duration_ms, max_mtu, timeout_ms, scan_timeout_ms, window, batch;
	int json;
};

static int parse_tests(const char *s, unsigned *out)
{
	char buf[128], *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", s);
	*out = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		enum link_kind k;

		if (link_kind_parse(t, &k) < 0)
			return -1;
		*out |= 1u << k;
	}
	return *out ? 0 : -1;
}

static int parse_list(const char *s, long *vals, int max, long lo, long hi, int *n)
{
	char buf[8192], *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", s);
	*n = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (*n >= max || cli_parse_long(t, lo, hi, &vals[*n]) < 0)
			return -1;
		(*n)++;
	}
	return *n ? 0 : -1;
}

static void fill(struct link_req *r, enum link_kind k, const struct opts *o)
{
	link_req_init(r, k);
	snprintf(r->addr, sizeof(r->addr), "%s", o->addr[0] ? o->addr : o->ctl_addr);
	snprintf(r->src, sizeof(r->src), "%s", o->src);
	snprintf(r->ifname, sizeof(r->ifname), "%s", o->ifname);
	if (o->timeout_ms && k != LINK_SCAN)
		r->timeout_ms = (int)o->timeout_ms;
	if (k == LINK_SCAN) {
		if (o->scan_timeout_ms)
			r->timeout_ms = (int)o->scan_timeout_ms;
		r->lo = (uint16_t)o->lo;
		r->hi = (uint16_t)o->hi;
		r->nlist = o->nlist;
		memcpy(r->list, o->list, sizeof(r->list));
		r->window = (int)o->window;
		if (o->batch)
			r->batch = (int)o->batch;
	}
	if (k == LINK_CONNECT && o->ncports) {
		r->nports = o->ncports;
		for (int i = 0; i < o->ncports; i++)
			r->ports[i] = (uint16_t)o->cports[i];
	}
	if (k == LINK_MTU)
		r->max_mtu = (int)o->max_mtu;
	if (k == LINK_BW && o->duration_ms)
		r->duration_ms = (int)o->duration_ms;
}

/* The results' lines came as they were measured; a blank line before the findings. */
static void blank_line(FILE *out, const json_t *payload, const struct render_opts *ro,
		       const void *arg)
{
	(void)payload;
	(void)ro;
	(void)arg;
	fputc('\n', out);
}

static int run_tests(const struct cli *c, const struct opts *o)
{
	struct link_ctl_chan cc = { .fd = -1 };
	struct link_chan ch = { link_ctl_call, &cc };
	struct findings *fs = findings_new();
	json_t *results = json_array();
	struct err e = ERR_INIT;
	enum link_status st;
	int err_no, code = EXIT_CLEAN, failed = 0;
	char ifn[LINK_IFNAME_LEN] = "";

	cc.fd = link_connect_to(o->ctl_addr, (uint16_t)o->ctl_port, NULL, NULL, 5000, &st, &err_no,
				&e);
	if (cc.fd < 0) {
		error("cannot reach the serving node at %s port %ld: %s", o->ctl_addr, o->ctl_port,
		      e.code ? e.msg : link_status_name(st));
		findings_free(fs);
		json_decref(results);
		return EXIT_CANNOT_RUN;
	}
	cc.local = link_agent_new();
	if (o->ifname[0])
		snprintf(ifn, sizeof(ifn), "%s", o->ifname);
	else
		link_route_ifname(o->addr[0] ? o->addr : o->ctl_addr, o->src, ifn, sizeof(ifn), NULL,
				  NULL);
	for (int k = LINK_CONNECT; k <= LINK_BW && !failed; k++) {
		int runs = k == LINK_BW ? o->nstreams : 1;

		if (!(o->tests & (1u << k)))
			continue;
		for (int i = 0; i < runs; i++) {
			struct link_req r;
			struct link_result res;
			struct link_ceiling ceil, *cp = NULL;
			struct link_who who = { .ifname = ifn[0] ? ifn : NULL };
			struct strbuf sb = STRBUF_INIT;

			fill(&r, (enum link_kind)k, o);
			if (k == LINK_BW)
				r.streams = (int)o->streams[i];
			if (link_run(&ch, &r, &res, &e) < 0) {
				error("%s test: %s", link_kind_name(r.kind), e.msg);
				code = EXIT_CANNOT_RUN;
				failed = 1;
				break;
			}
			/* the address this node sent from: the firewall fix lets exactly it in */
			if (!res.src[0] && net_route_source_name(r.addr, res.src, sizeof(res.src),
								 &e) < 0)
				res.src[0] = '\0';
			if (k == LINK_BW && ifn[0] &&
			    ceiling_read("/sys/class/net", ifn, strchr(r.addr, ':') != NULL, &ceil,
					 NULL) == 0)
				cp = &ceil;
			link_findings(&res, &who, cp, fs);
			json_array_append_new(results, link_result_to_json(&res));
			if (!o->json) {
				link_result_text(&res, &sb);
				printf("%s\n", sb.buf);
				fflush(stdout);
			}
			strbuf_release(&sb);
			link_result_release(&res);
		}
	}
	close(cc.fd);
	link_agent_free(cc.local);
	if (code == EXIT_CLEAN && findings_max(fs) == SEV_ERROR)
		code = EXIT_FINDINGS;
	findings_sort(fs);
	{
		json_t *payload = json_object();

		json_object_set_new(payload, "results", results);
		code = cmd_report(c, payload, fs, &(struct report_text){
			.head = blank_line, .flags = REPORT_CODE | REPORT_NO_SUMMARY,
			.code = code });
		json_decref(payload);
	}
	findings_free(fs);
	return code;
}

/* One option into `o` (or the serve / connect specs); CLI_STOP after a usage error. */
static int p2p_option(struct cli *c, int id, struct opts *o, const char **serve_spec,
		      const char **connect_spec, long *idle_ms)
{
	const char *arg = c->arg;
	long v[LINK_SCAN_LIST_MAX];
	int n;

	switch (id) {
	case OPT_SERVE: *serve_spec = arg; break;
	case OPT_IDLE:
		if (cli_parse_duration_ms(arg, idle_ms) < 0 || *idle_ms < 1)
			return cli_fail(c, "bad --idle '%s'", arg);
		break;
	case OPT_CONNECT: *connect_spec = arg; break;
	case OPT_TESTS:
		if (parse_tests(arg, &o->tests) < 0)
			return cli_fail(c, "--tests takes connect, scan, mtu, bw; not '%s'", arg);
		break;
	case OPT_ADDR:
	case OPT_SRC:
		if (!link_addr_valid(arg))
			return cli_fail(c, "'%s' is not a numeric address", arg);
		snprintf(id == OPT_ADDR ? o->addr : o->src, LINK_ADDR_LEN, "%s", arg);
		break;
	case OPT_IFNAME:
		if (strlen(arg) >= LINK_IFNAME_LEN || !*arg || strchr(arg, '/'))
			return cli_fail(c, "bad interface name '%s'", arg);
		snprintf(o->ifname, sizeof(o->ifname), "%s", arg);
		break;
	case OPT_PORTS: {
		const char *dash = strchr(arg, '-');
		char lo[8];

		if (!dash || dash - arg >= (long)sizeof(lo))
			return cli_fail(c, "--ports wants LO-HI");
		memcpy(lo, arg, (size_t)(dash - arg));
		lo[dash - arg] = '\0';
		if (cli_parse_long(lo, 1, 65535, &o->lo) < 0 ||
		    cli_parse_long(dash + 1, o->lo, 65535, &o->hi) < 0)
			return cli_fail(c, "--ports wants LO-HI within 1-65535, not '%s'", arg);
		break;
	}
	case OPT_PORT_LIST:
		if (parse_list(arg, v, LINK_SCAN_LIST_MAX, 1, 65535, &n) < 0)
			return cli_fail(c, "--port-list wants up to %d ports", LINK_SCAN_LIST_MAX);
		for (int i = 0; i < n; i++)
			o->list[i] = (uint16_t)v[i];
		o->nlist = n;
		break;
	case OPT_STREAMS:
		if (parse_list(arg, o->streams, 8, 1, LINK_BW_STREAMS_MAX, &o->nstreams) < 0)
			return cli_fail(c, "--streams wants up to 8 counts of 1..%d",
					LINK_BW_STREAMS_MAX);
		break;
	case OPT_CONNECT_PORTS:
		if (parse_list(arg, o->cports, LINK_CONNECT_PORTS_MAX, 0, 65535, &o->ncports) < 0)
			return cli_fail(c, "--connect-ports wants up to %d ports (0: one the "
					"kernel picks)", LINK_CONNECT_PORTS_MAX);
		break;
	case OPT_DURATION:
		if (cli_parse_duration_ms(arg, &o->duration_ms) < 0 || o->duration_ms < 1 ||
		    o->duration_ms > LINK_DURATION_MAX)
			return cli_fail(c, "bad --duration '%s'", arg);
		break;
	case OPT_MAX_MTU:
		if (cli_parse_long(arg, 576, 65535, &o->max_mtu) < 0)
			return cli_fail(c, "--max-mtu wants 576..65535");
		break;
	case OPT_TIMEOUT:
	case OPT_SCAN_TIMEOUT: {
		long *t = id == OPT_TIMEOUT ? &o->timeout_ms : &o->scan_timeout_ms;

		if (cli_parse_duration_ms(arg, t) < 0 || *t < 1 || *t > LINK_TIMEOUT_MAX)
			return cli_fail(c, "bad timeout '%s'", arg);
		break;
	}
	case OPT_WINDOW:
	case OPT_BATCH:
		if (cli_parse_long(arg, 1, LINK_SCAN_BATCH_MAX,
				   id == OPT_WINDOW ? &o->window : &o->batch) < 0)
			return cli_fail(c, "--window/--batch want 1..%d", LINK_SCAN_BATCH_MAX);
		break;
	}
	return id;
}

int cmd_bench_p2p(int argc, char **argv)
{
	struct opts o = { .lo = 32768, .hi = 60999, .nstreams = 1, .streams = { 1 } };
	const char *serve_spec = NULL, *connect_spec = NULL;
	long idle_ms = 300000;
	struct cli c;
	int id;

	parse_tests("connect,mtu,bw", &o.tests);
	cli_start(&c, &verb_bench_p2p, argc, argv);
	while ((id = cli_next(&c)) > 0)
		if (p2p_option(&c, id, &o, &serve_spec, &connect_spec, &idle_ms) == CLI_STOP)
			return c.code;
	if (id == CLI_STOP)
		return c.code;
	o.json = c.common.json;
	if (!!serve_spec == !!connect_spec)
		return cli_usage_error("bench p2p", "give either --serve or --connect");
	if (serve_spec)
		return serve(serve_spec, idle_ms);
	if (split_hostport(connect_spec, o.ctl_addr, sizeof(o.ctl_addr), &o.ctl_port, 0) < 0)
		return cli_usage_error("bench p2p", "--connect wants ADDR:PORT with a numeric "
				       "address, not '%s'", connect_spec);
	return run_tests(&c, &o);
}
