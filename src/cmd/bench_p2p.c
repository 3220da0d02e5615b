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
#include "rules/link_findings.h"
#include "link/link_int.h"
#include "report/render.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

static const char usage_text[] =
"usage: ncclcheck bench p2p --serve [ADDR:]PORT [--idle DURATION]\n"
"       ncclcheck bench p2p --connect ADDR:PORT [--tests LIST] [--addr ADDR] [--src ADDR]\n"
"                           [--ifname IF] [--connect-ports P,...]\n"
"                           [--ports LO-HI | --port-list P,...] [--streams N[,N...]]\n"
"                           [--duration D] [--max-mtu N] [--timeout D]\n"
"                           [--scan-timeout D] [--window N] [--batch N] [--json]\n"
"\n"
"Link tests between two nodes, one serving and one connecting (iperf3 -s / -c style), over a\n"
"plain control connection. The serving node is the target: it opens the listeners, UDP echo\n"
"and receivers on its own address; the connecting node reaches for them.\n"
"\n"
"  --serve [ADDR:]PORT  answer link tests on this control port (all addresses by default)\n"
"  --idle D             with --serve: exit after D without a control connection (default 300s)\n"
"  --connect ADDR:PORT  the serving node's control address\n"
"  --tests LIST         connect, scan, mtu, bw, comma-separated (default connect,mtu,bw)\n"
"  --addr ADDR          the target address to test (default: the control address); test\n"
"                       another interface of the serving node by its address there\n"
"  --src ADDR           source address on this node; --ifname IF binds the interface too\n"
"  --connect-ports P,.. connect: ports the target listens on (default 0: one the kernel\n"
"                       picks, as NCCL's listeners do)\n"
"  --ports LO-HI        scan: the range (default 32768-60999, Linux's ip_local_port_range)\n"
"  --port-list P,...    scan: just these ports (sampled ports)\n"
"  --streams N[,N...]   bw: TCP streams per run (default 1), e.g. 1,2,4\n"
"  --duration D         bw: seconds per run (default 3s)\n"
"  --max-mtu N          mtu: top of the search (default: this node's interface MTU)\n"
"  --timeout D          connect / mtu / bw step timeout (defaults 2s / 250ms / 3s)\n"
"  --scan-timeout D     scan: no answer after D = dropped (default 400ms)\n"
"  --window N           scan: connects in flight (default: a whole batch)\n"
"  --batch N            scan: listeners the target opens per batch (default 4096)\n"
"  --json               machine-readable output\n"
"\n"
"Exit codes: 0 every test passed, 1 a test found a problem, 2 usage error, 3 could not run\n"
"(no answer on the control port, the peer vanished).\n";

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

static int run_tests(const struct opts *o)
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
	if (o->json) {
		json_t *payload = json_object(), *doc;

		json_object_set_new(payload, "results", results);
		results = NULL;
		doc = render_json_doc("bench p2p", payload, fs, code);
		render_json_print(stdout, doc);
		json_decref(doc);
		json_decref(payload);
	} else {
		struct render_opts ro;

		cli_render_opts(&ro, 0, 0);
		printf("\n");
		render_findings_text(stdout, fs, &ro);
	}
	json_decref(results);
	findings_free(fs);
	return cli_finish(code);
}

int cmd_bench_p2p(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "serve", required_argument, NULL, 'S' },
		{ "idle", required_argument, NULL, 'I' },
		{ "connect", required_argument, NULL, 'c' },
		{ "tests", required_argument, NULL, 't' },
		{ "addr", required_argument, NULL, 'a' },
		{ "src", required_argument, NULL, 's' },
		{ "ifname", required_argument, NULL, 'i' },
		{ "ports", required_argument, NULL, 'p' },
		{ "port-list", required_argument, NULL, 'l' },
		{ "streams", required_argument, NULL, 'n' },
		{ "connect-ports", required_argument, NULL, 'P' },
		{ "duration", required_argument, NULL, 'd' },
		{ "max-mtu", required_argument, NULL, 'm' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "scan-timeout", required_argument, NULL, 'o' },
		{ "window", required_argument, NULL, 'w' },
		{ "batch", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .lo = 32768, .hi = 60999, .nstreams = 1, .streams = { 1 } };
	const char *serve_spec = NULL, *connect_spec = NULL;
	long idle_ms = 300000, v[LINK_SCAN_LIST_MAX];
	int c, n;

	parse_tests("connect,mtu,bw", &o.tests);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'S':
			serve_spec = optarg;
			break;
		case 'I':
			if (cli_parse_duration_ms(optarg, &idle_ms) < 0 || idle_ms < 1)
				return cli_usage_error("bench p2p", "bad --idle '%s'", optarg);
			break;
		case 'c':
			connect_spec = optarg;
			break;
		case 't':
			if (parse_tests(optarg, &o.tests) < 0)
				return cli_usage_error("bench p2p", "--tests takes connect, scan, mtu, "
						       "bw; not '%s'", optarg);
			break;
		case 'a':
		case 's':
			if (!link_addr_valid(optarg))
				return cli_usage_error("bench p2p", "'%s' is not a numeric address",
						       optarg);
			snprintf(c == 'a' ? o.addr : o.src, LINK_ADDR_LEN, "%s", optarg);
			break;
		case 'i':
			if (strlen(optarg) >= LINK_IFNAME_LEN || !*optarg || strchr(optarg, '/'))
				return cli_usage_error("bench p2p", "bad interface name '%s'", optarg);
			snprintf(o.ifname, sizeof(o.ifname), "%s", optarg);
			break;
		case 'p': {
			const char *dash = strchr(optarg, '-');
			char lo[8];

			if (!dash || dash - optarg >= (long)sizeof(lo))
				return cli_usage_error("bench p2p", "--ports wants LO-HI");
			memcpy(lo, optarg, (size_t)(dash - optarg));
			lo[dash - optarg] = '\0';
			if (cli_parse_long(lo, 1, 65535, &o.lo) < 0 ||
			    cli_parse_long(dash + 1, o.lo, 65535, &o.hi) < 0)
				return cli_usage_error("bench p2p", "--ports wants LO-HI within "
						       "1-65535, not '%s'", optarg);
			break;
		}
		case 'l':
			if (parse_list(optarg, v, LINK_SCAN_LIST_MAX, 1, 65535, &n) < 0)
				return cli_usage_error("bench p2p", "--port-list wants up to %d "
						       "ports", LINK_SCAN_LIST_MAX);
			for (int i = 0; i < n; i++)
				o.list[i] = (uint16_t)v[i];
			o.nlist = n;
			break;
		case 'n':
			if (parse_list(optarg, o.streams, 8, 1, LINK_BW_STREAMS_MAX, &o.nstreams) < 0)
				return cli_usage_error("bench p2p", "--streams wants up to 8 counts "
						       "of 1..%d", LINK_BW_STREAMS_MAX);
			break;
		case 'P':
			if (parse_list(optarg, o.cports, LINK_CONNECT_PORTS_MAX, 0, 65535,
				       &o.ncports) < 0)
				return cli_usage_error("bench p2p", "--connect-ports wants up to %d "
						       "ports (0: one the kernel picks)",
						       LINK_CONNECT_PORTS_MAX);
			break;
		case 'd':
			if (cli_parse_duration_ms(optarg, &o.duration_ms) < 0 || o.duration_ms < 1 ||
			    o.duration_ms > LINK_DURATION_MAX)
				return cli_usage_error("bench p2p", "bad --duration '%s'", optarg);
			break;
		case 'm':
			if (cli_parse_long(optarg, 576, 65535, &o.max_mtu) < 0)
				return cli_usage_error("bench p2p", "--max-mtu wants 576..65535");
			break;
		case 'T':
		case 'o':
			if (cli_parse_duration_ms(optarg, c == 'T' ? &o.timeout_ms
							   : &o.scan_timeout_ms) < 0 ||
			    (c == 'T' ? o.timeout_ms : o.scan_timeout_ms) < 1 ||
			    (c == 'T' ? o.timeout_ms : o.scan_timeout_ms) > LINK_TIMEOUT_MAX)
				return cli_usage_error("bench p2p", "bad timeout '%s'", optarg);
			break;
		case 'w':
		case 'b':
			if (cli_parse_long(optarg, 1, LINK_SCAN_BATCH_MAX,
					   c == 'w' ? &o.window : &o.batch) < 0)
				return cli_usage_error("bench p2p", "--window/--batch want 1..%d",
						       LINK_SCAN_BATCH_MAX);
			break;
		case 'j':
			o.json = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return cli_finish(EXIT_CLEAN);
		default:
			return cli_bad_option("bench p2p", c, argv, longopts);
		}
	}
	if (optind < argc)
		return cli_usage_error("bench p2p", "unexpected argument '%s'", argv[optind]);
	if (!!serve_spec == !!connect_spec)
		return cli_usage_error("bench p2p", "give either --serve or --connect");
	if (serve_spec)
		return serve(serve_spec, idle_ms);
	if (split_hostport(connect_spec, o.ctl_addr, sizeof(o.ctl_addr), &o.ctl_port, 0) < 0)
		return cli_usage_error("bench p2p", "--connect wants ADDR:PORT with a numeric "
				       "address, not '%s'", connect_spec);
	return run_tests(&o);
}
