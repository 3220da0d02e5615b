/* attach_reason() on hand-assembled data: RAS polls, /proc samples, flight-recorder dumps. */
#include "cmocka_helpers.h"

#include <stdio.h>
#include <stdlib.h>

#include "attach/attach.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static char *status_of(const char *name, size_t i)
{
	char rel[256];
	json_t *t, *ex;
	char *s;

	snprintf(rel, sizeof(rel), "attach/ras/%s.json", name);
	t = load_fixture_json(rel);
	ex = json_object_get(json_array_get(json_object_get(t, "polls"), i), "exchange");
	s = xstrdup(json_string_value(json_object_get(json_array_get(ex, json_array_size(ex) - 1),
						      "recv")));
	json_decref(t);
	return s;
}

static void data_init(struct attach_data *d, int ras)
{
	memset(d, 0, sizeof(*d));
	d->ras_asked = ras;
	d->ticks_per_sec = 100;
	d->interval_ms = 4000;
	snprintf(d->ras_addr, sizeof(d->ras_addr), "localhost:28028");
	d->polls = xcalloc(4, sizeof(*d->polls));
	/* the fixtures' two nodes are this machine's, as --local-host says in the integration
	 * tests: /proc's samples describe only ranks on a local host */
	d->local_hosts = xcalloc(3, sizeof(*d->local_hosts));
	d->local_hosts[d->nlocal_hosts++] = xstrdup("10.77.0.1");
	d->local_hosts[d->nlocal_hosts++] = xstrdup("10.77.0.2");
	d->local_hosts[d->nlocal_hosts++] = xstrdup("10.0.0.1");
}

static struct attach_poll *add_poll(struct attach_data *d, const char *fixture, size_t i,
				    int64_t t_ms)
{
	struct attach_poll *p = &d->polls[d->npolls++];
	struct err e = ERR_INIT;
	char *s = status_of(fixture, i);

	p->t_ms = t_ms;
	p->report = ras_report_parse(s, strlen(s), &e);
	if (!p->report)
		fail_msg("%s: %s", fixture, e.msg);
	free(s);
	return p;
}

static struct attach_poll *add_poll_str(struct attach_data *d, const char *json, int64_t t_ms)
{
	struct attach_poll *p = &d->polls[d->npolls++];
	struct err e = ERR_INIT;

	p->t_ms = t_ms;
	p->report = ras_report_parse(json, strlen(json), &e);
	if (!p->report)
		fail_msg("%s", e.msg);
	return p;
}

/* A poll of `fixture` with the first `from` in its report replaced by `to`. */
static struct attach_poll *add_poll_edited(struct attach_data *d, const char *fixture, size_t i,
					   int64_t t_ms, const char *from, const char *to)
{
	char *s = status_of(fixture, i), *at = strstr(s, from);
	struct strbuf sb = STRBUF_INIT;
	struct attach_poll *p;

	if (!at)
		fail_msg("%s: no '%s'", fixture, from);
	strbuf_add(&sb, s, (size_t)(at - s));
	strbuf_addstr(&sb, to);
	strbuf_addstr(&sb, at + strlen(from));
	p = add_poll_str(d, sb.buf, t_ms);
	strbuf_release(&sb);
	free(s);
	return p;
}

static void add_proc(struct attach_poll *p, int pid, char state, unsigned long long ticks, int64_t t)
{
	struct proc_sample *s;

	p->procs = xrealloc(p->procs, (p->nprocs + 1) * sizeof(*p->procs));
	s = &p->procs[p->nprocs++];
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->exists = state != 0;
	s->state = state;
	s->cpu_ticks = ticks;
	s->t_ms = t;
	s->nthreads = 1;
}

static char *run(struct attach_data *d, struct findings *fs, int *nothing)
{
	char *v;
	json_t *p;

	*nothing = attach_reason(d, fs, &v, &p);
	assert_non_null(json_object_get(p, "verdict"));
	json_decref(p);
	return v;
}

static void expect_verdict(const char *v, const char *needle)
{
	if (!strstr(v, needle))
		fail_msg("verdict '%s' does not say '%s'", v, needle);
}

static void test_sleeping_rank_named_with_proc(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	const struct finding *f;
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_proc(add_poll(&d, "sleep", 0, 0), 4202, 'S', 500, 1000);
	add_proc(add_poll(&d, "sleep", 1, 4000), 4202, 'S', 501, 5000);
	v = run(&d, fs, &nothing);
	assert_int_equal(nothing, 0);
	f = expect_finding(fs, "attach.ras.counts_unequal", SEV_ERROR);
	assert_int_equal(f->nranks, 1);
	assert_int_equal(f->ranks[0], 1);
	assert_string_equal(f->node, "10.77.0.2");
	expect_verdict(v, "rank 1 (pid 4202 on 10.77.0.2, GPU 0) has not launched AllReduce #6");
	expect_verdict(v, "idle");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

/*
 * Across nodes: rank 1 is on 10.77.0.2, which is not this node; a local process that happens to
 * have its pid describes nothing, and what the attach on rank 1's node said does.
 */
static void test_remote_rank_from_its_node(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	struct js_rank r = { .rank = 1, .pid = 4202, .kind = JS_BUSY,
			     .doing = "it is running: state R, 99% of a CPU over 4.0 s; it is in "
				      "<module> (job.py:51) → spin_loop (job.py:44)",
			     .stack = "in <module> (job.py:51) → spin_loop (job.py:44)" };
	struct js_node n = { .node = 1, .name = "n1", .answered = 1, .v = &r, .n = 1 };
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	free(d.local_hosts[1]);
	d.local_hosts[1] = xstrdup("10.77.0.9");	/* rank 1's host is not this node */
	add_proc(add_poll(&d, "sleep", 0, 0), 4202, 'S', 500, 1000);
	add_proc(add_poll(&d, "sleep", 1, 4000), 4202, 'S', 501, 5000);
	v = run(&d, fs, &nothing);
	expect_verdict(v, "rank 1 (pid 4202 on 10.77.0.2, GPU 0) has not launched AllReduce #6");
	if (strstr(v, "idle"))
		fail_msg("a local process with rank 1's pid described it: '%s'", v);
	free(v);
	findings_free(fs);
	fs = findings_new();
	snprintf(r.host, sizeof(r.host), "10.77.0.2");
	d.remote = &n;
	d.nremote = 1;
	v = run(&d, fs, &nothing);
	expect_verdict(v, "has not launched AllReduce #6 that rank(s) 0 launched; it is running: "
		       "state R, 99% of a CPU over 4.0 s; it is in <module> (job.py:51) → "
		       "spin_loop (job.py:44)");
	free(v);
	d.remote = NULL;
	d.nremote = 0;
	findings_free(fs);
	attach_data_release(&d);
}

static void test_busy_rank_is_running(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_proc(add_poll(&d, "sleep", 0, 0), 4202, 'R', 500, 1000);
	add_proc(add_poll(&d, "sleep", 1, 4000), 4202, 'R', 900, 5000);
	v = run(&d, fs, &nothing);
	expect_verdict(v, "running: state R, 100% of a CPU");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_one_poll_is_not_a_verdict(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_poll(&d, "sleep", 0, 0);
	v = run(&d, fs, &nothing);
	expect_finding(fs, "attach.ras.one_poll", SEV_INFO);
	expect_finding(fs, "attach.ras.skew", SEV_WARN);
	expect_no_finding(fs, "attach.ras.counts_unequal");
	expect_verdict(v, "no hang found");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_equal_counts_say_gpu_or_network(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	const struct finding *f;
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_poll(&d, "equal", 0, 0);
	add_poll(&d, "equal", 1, 4000);
	v = run(&d, fs, &nothing);
	f = expect_finding(fs, "attach.ras.counts_equal", SEV_ERROR);
	assert_non_null(strstr(f->why, "cannot see inside"));
	assert_non_null(f->check);
	expect_verdict(v, "GPU or network stall that RAS cannot see into");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_progress_is_clean(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_poll(&d, "progress", 0, 0);
	add_poll(&d, "progress", 1, 4000);
	v = run(&d, fs, &nothing);
	expect_finding(fs, "attach.ras.progressing", SEV_OK);
	assert_int_equal(findings_count(fs, SEV_ERROR), 0);
	expect_verdict(v, "making progress");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_dead_and_gone(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_poll(&d, "dead", 0, 0);
	add_poll(&d, "dead", 1, 4000);
	v = run(&d, fs, &nothing);
	expect_finding(fs, "attach.ras.dead", SEV_ERROR);
	expect_finding(fs, "attach.ras.json_repaired", SEV_INFO);
	expect_no_finding(fs, "attach.ras.counts_equal");
	expect_verdict(v, "rank 1 (pid 4202 on 10.77.0.2, GPU 0) is gone");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_stopped_rank(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	int nothing;
	char *v;

	(void)state;
	/* RAS: the node's ranks unresponsive; /proc (shared by the namespaces): rank 2 stopped */
	data_init(&d, 1);
	add_proc(add_poll(&d, "unresponsive", 0, 0), 4203, 'T', 10, 1000);
	add_proc(add_poll(&d, "unresponsive", 1, 4000), 4203, 'T', 10, 5000);
	v = run(&d, fs, &nothing);
	expect_finding(fs, "attach.proc.stopped", SEV_ERROR);
	expect_verdict(v, "rank 2 (pid 4203 on 10.77.0.2, GPU 0) is stopped");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_unresponsive_node(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	const struct finding *f;
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_poll(&d, "unresponsive", 0, 0);
	add_poll(&d, "unresponsive", 1, 4000);
	v = run(&d, fs, &nothing);
	f = expect_finding(fs, "attach.ras.unresponsive", SEV_ERROR);
	assert_string_equal(f->node, "10.77.0.2");
	assert_non_null(f->check);
	expect_verdict(v, "node 10.77.0.2 does not answer");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_async_error(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_poll(&d, "async_error", 0, 0);
	add_poll(&d, "async_error", 1, 4000);
	v = run(&d, fs, &nothing);
	expect_finding(fs, "attach.ras.async_error", SEV_ERROR);
	expect_verdict(v, "ncclRemoteError");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

/* a text report names only the outlier; the others are "7 ranks"; never "all equal" */
static void test_text_outlier_only(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_poll(&d, "text_8ranks", 0, 0);
	add_poll(&d, "text_8ranks", 1, 4000);
	v = run(&d, fs, &nothing);
	expect_finding(fs, "attach.ras.counts_unequal", SEV_ERROR);
	expect_no_finding(fs, "attach.ras.counts_equal");
	expect_verdict(v, "rank 5 (pid 4306 on 10.77.0.2, GPU 1) has not launched AllReduce #1200 "
		       "that 7 other rank(s) launched");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

/* 8 ranks, rank 5 behind: the others in one run-length list ("0-4, 6, 7"), not eight numbers */
static void test_rank_ranges(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	struct strbuf js = STRBUF_INIT;
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	strbuf_addstr(&js, "{\"nccl_version\": \"2.28.9\", \"communicators\": [{\"hash\": "
		      "\"0xabc1\", \"size\": 8, \"ranks\": [");
	for (int i = 7; i >= 0; i--)	/* RAS's order is not the ranks' */
		strbuf_addf(&js, "%s{\"rank\": %d, \"host\": \"10.0.0.%d\", \"pid\": %d, "
			    "\"cuda_dev\": 0, \"nvml_dev\": 0, \"status\": {\"init_state\": 0, "
			    "\"async_error\": 0, \"finalize_called\": false, \"destroy_flag\": false, "
			    "\"abort_flag\": false}, \"collective_counts\": {\"AllReduce\": %d}}",
			    i < 7 ? ", " : "", i, 20 + i, 100 + i, i == 5 ? 5 : 6);
	strbuf_addstr(&js, "], \"missing_ranks\": []}]}");
	add_poll_str(&d, js.buf, 0);
	add_poll_str(&d, js.buf, 4000);
	v = run(&d, fs, &nothing);
	expect_verdict(v, "rank 5 (pid 105 on 10.0.0.25, GPU 0) has not launched AllReduce #6 that "
		       "rank(s) 0-4, 6, 7 launched");
	free(v);
	strbuf_release(&js);
	findings_free(fs);
	attach_data_release(&d);
}

/* RAS forgot the process (host "unknown", pid -1): a rank that does not answer, not a node */
static void test_unknown_process(void **state)
{
	static const char r[] =
		"{\"nccl_version\": \"2.30.7\", \"communicators\": [{\"hash\": \"0x1\", \"size\": 2, "
		"\"ranks\": [{\"rank\": 0, \"host\": \"10.0.0.1\", \"pid\": 11, \"cuda_dev\": 0, "
		"\"nvml_dev\": 0, \"status\": {\"init_state\": 0, \"async_error\": 6, "
		"\"finalize_called\": false, \"destroy_flag\": false, \"abort_flag\": false}, "
		"\"collective_counts\": {\"AllReduce\": 6}}], \"missing_ranks\": [{\"rank\": 1, "
		"\"host\": \"unknown\", \"pid\": -1, \"cuda_dev\": 0, \"nvml_dev\": 0, \"status\": "
		"{\"unresponsive\": true, \"considered_dead\": false}}]}]}";
	struct attach_data d;
	struct findings *fs = findings_new();
	const struct finding *f;
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_poll_str(&d, r, 0);
	add_poll_str(&d, r, 4000);
	v = run(&d, fs, &nothing);
	f = expect_finding(fs, "attach.ras.unresponsive", SEV_ERROR);
	assert_null(f->node);
	expect_finding(fs, "attach.ras.async_error", SEV_ERROR);
	expect_verdict(v, "rank 1 does not answer RAS");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_unreachable_is_nothing(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	d.polls[0].error = xstrdup("cannot connect to the RAS service");
	d.npolls = 1;
	v = run(&d, fs, &nothing);
	assert_int_equal(nothing, 1);
	expect_finding(fs, "attach.ras.unreachable", SEV_ERROR);
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_fr_joined_with_ras(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	struct err e = ERR_INIT;
	char dir[4096];
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_proc(add_poll(&d, "sleep", 0, 0), 4202, 'S', 500, 1000);
	add_proc(add_poll(&d, "sleep", 1, 4000), 4202, 'S', 500, 5000);
	d.fr_asked = 1;
	snprintf(dir, sizeof(dir), "%s/attach/fr/sleep", FIXTURES_DIR);
	assert_int_equal(fr_load_dir(dir, NULL, 10, 1 << 20, &d.fr, &e), 0);
	v = run(&d, fs, &nothing);
	expect_finding(fs, "attach.fr.not_entered", SEV_ERROR);
	expect_finding(fs, "attach.ras.counts_unequal", SEV_ERROR);
	expect_verdict(v, "rank 1 (pid 4202 on 10.77.0.2, GPU 0) has not entered all_reduce #6 "
		       "(process group 'default_pg') that rank(s) 0 entered; it is idle");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void fr_case(const char *scenario, const char *id, const char *needle)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	struct err e = ERR_INIT;
	char dir[4096];
	int nothing;
	char *v;

	data_init(&d, 0);
	d.fr_asked = 1;
	snprintf(dir, sizeof(dir), "%s/attach/fr/%s", FIXTURES_DIR, scenario);
	assert_int_equal(fr_load_dir(dir, NULL, 10, 1 << 20, &d.fr, &e), 0);
	v = run(&d, fs, &nothing);
	if (id)
		expect_finding(fs, id, SEV_ERROR);
	else
		assert_int_equal(findings_count(fs, SEV_ERROR), 0);
	expect_verdict(v, needle);
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_fr_scenarios(void **state)
{
	(void)state;
	fr_case("sleep", "attach.fr.not_entered", "rank 1 has not entered all_reduce #6");
	fr_case("all_entered", "attach.fr.all_entered", "every rank entered all_reduce #6");
	fr_case("size_mismatch", "attach.fr.size_mismatch", "disagree on the size of collective #3");
	fr_case("dtype_mismatch", "attach.fr.dtype_mismatch", "disagree on the dtype");
	fr_case("op_mismatch", "attach.fr.op_mismatch", "disagree on the operation");
	fr_case("no_dump", "attach.fr.not_entered", "rank(s) 1 wrote no dump");
	fr_case("healthy", NULL, "no hang found");
}

/* RAS lists a rank as present whose process /proc shows gone, or with a thread in D state */
static void test_gone_and_dstate(void **state)
{
	static const struct {
		char st;
		const char *id;
		enum severity sev;
		const char *title;
	} cases[] = {
		{ 0, "attach.proc.gone", SEV_ERROR, "has exited" },
		{ 'D', "attach.proc.dstate", SEV_WARN, "has a thread in uninterruptible sleep" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct attach_data d;
		struct findings *fs = findings_new();
		const struct finding *f;
		int nothing;
		char *v;

		data_init(&d, 1);
		for (int k = 0; k < 2; k++) {
			struct attach_poll *p = add_poll(&d, "sleep", (size_t)k, 4000 * k);
			struct proc_sample *ps;

			add_proc(p, 4202, cases[i].st ? 'S' : 0, 500, 1000 + 4000 * k);
			ps = &p->procs[p->nprocs - 1];
			if (cases[i].st == 'D') {
				ps->nthreads_d = 1;
				ps->d_tid = 4210;
				snprintf(ps->d_comm, sizeof(ps->d_comm), "pt_data_worker");
			}
		}
		v = run(&d, fs, &nothing);
		f = expect_finding(fs, cases[i].id, cases[i].sev);
		assert_non_null(strstr(f->title, cases[i].title));
		assert_non_null(strstr(f->title, "rank 1"));
		expect_no_finding(fs, "attach.proc.stopped");
		free(v);
		findings_free(fs);
		attach_data_release(&d);
	}
}

/* a rank whose communicator init failed; a server of another RAS protocol version */
static void test_init_error_and_protocol(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	const struct finding *f;
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 1);
	add_poll_edited(&d, "async_error", 0, 0, "\"init_state\": 0", "\"init_state\": 3");
	add_poll_edited(&d, "async_error", 1, 4000, "\"init_state\": 0", "\"init_state\": 3");
	d.polls[1].answer.server_protocol = RAS_PROTOCOL + 1;
	v = run(&d, fs, &nothing);
	f = expect_finding(fs, "attach.ras.init_error", SEV_ERROR);
	assert_non_null(strstr(f->title, "failed to initialise communicator 0xabc1"));
	f = expect_finding(fs, "attach.ras.protocol", SEV_INFO);
	assert_non_null(strstr(f->title, "protocol"));
	free(v);
	findings_free(fs);
	attach_data_release(&d);

	/* the same protocol as this client says nothing */
	fs = findings_new();
	data_init(&d, 1);
	add_poll(&d, "async_error", 0, 0);
	add_poll(&d, "async_error", 1, 4000);
	d.polls[0].answer.server_protocol = d.polls[1].answer.server_protocol = RAS_PROTOCOL;
	v = run(&d, fs, &nothing);
	expect_no_finding(fs, "attach.ras.protocol");
	expect_no_finding(fs, "attach.ras.init_error");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

/* --fr names a directory that cannot be read; a healthy set of dumps */
static void test_fr_unreadable_and_completed(void **state)
{
	struct attach_data d;
	struct findings *fs = findings_new();
	struct err e = ERR_INIT;
	const struct finding *f;
	char dir[4096];
	int nothing;
	char *v;

	(void)state;
	data_init(&d, 0);
	d.fr_asked = 1;
	d.fr_error = xstrdup("/nonexistent/fr: No such file or directory");
	v = run(&d, fs, &nothing);
	f = expect_finding(fs, "attach.fr.unreadable", SEV_ERROR);
	assert_non_null(strstr(f->why, "/nonexistent/fr"));
	free(v);
	findings_free(fs);
	attach_data_release(&d);

	fs = findings_new();
	data_init(&d, 0);
	d.fr_asked = 1;
	snprintf(dir, sizeof(dir), "%s/attach/fr/healthy", FIXTURES_DIR);
	assert_int_equal(fr_load_dir(dir, NULL, 10, 1 << 20, &d.fr, &e), 0);
	v = run(&d, fs, &nothing);
	f = expect_finding(fs, "attach.fr.completed", SEV_OK);
	assert_non_null(strstr(f->title, "every rank completed collective #"));
	expect_no_finding(fs, "attach.fr.not_entered");
	free(v);
	findings_free(fs);
	attach_data_release(&d);
}

static void test_proc_sampler(void **state)
{
	struct proc_sample s;
	char root[4096];

	(void)state;
	snprintf(root, sizeof(root), "%s/attach/proc", FIXTURES_DIR);
	proc_sample(root, 4300, 1, &s);
	assert_true(s.exists);
	assert_int_equal(s.state, 'S');
	assert_string_equal(s.comm, "python3 train");
	assert_int_equal(s.cpu_ticks, 1290);
	assert_int_equal(s.nthreads, 2);
	assert_int_equal(s.nthreads_d, 1);
	assert_int_equal(s.d_tid, 4311);
	assert_string_equal(s.d_wchan, "nfs_wait_bit_killable");
	proc_sample(root, 4400, 1, &s);
	assert_int_equal(s.state, 'T');
	assert_string_equal(s.comm, "python3 (x) y");
	assert_int_equal(s.nthreads_stopped, 1);
	proc_sample(root, 99999, 1, &s);
	assert_false(s.exists);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleeping_rank_named_with_proc),
		cmocka_unit_test(test_busy_rank_is_running),
		cmocka_unit_test(test_remote_rank_from_its_node),
		cmocka_unit_test(test_rank_ranges),
		cmocka_unit_test(test_one_poll_is_not_a_verdict),
		cmocka_unit_test(test_equal_counts_say_gpu_or_network),
		cmocka_unit_test(test_progress_is_clean),
		cmocka_unit_test(test_dead_and_gone),
		cmocka_unit_test(test_stopped_rank),
		cmocka_unit_test(test_unresponsive_node),
		cmocka_unit_test(test_async_error),
		cmocka_unit_test(test_text_outlier_only),
		cmocka_unit_test(test_unknown_process),
		cmocka_unit_test(test_unreachable_is_nothing),
		cmocka_unit_test(test_fr_joined_with_ras),
		cmocka_unit_test(test_fr_scenarios),
		cmocka_unit_test(test_gone_and_dstate),
		cmocka_unit_test(test_init_error_and_protocol),
		cmocka_unit_test(test_fr_unreadable_and_completed),
		cmocka_unit_test(test_proc_sampler),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
