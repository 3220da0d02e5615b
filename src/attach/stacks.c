/* One process's Python stacks and threads (stacks.h). */
#include "attach/stacks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attach/faulthandler.h"
#include "attach/http.h"
#include "attach/proc.h"
#include "util/file.h"
#include "util/xalloc.h"

int attach_stacks_from_parse(const char *s, enum stacks_from *out)
{
	static const char *const names[] = {
		[STACKS_AUTO] = "auto",
		[STACKS_MEMORY] = "memory",
		[STACKS_WORKER_SERVER] = "worker-server",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*out = (enum stacks_from)i;
			return 0;
		}
	return -1;
}

/*
 * The stacks from the process's own WorkerServer, replacing a->py. On failure a->py.error
 * says the server's reason and a->memory_error keeps the memory reader's: both reach the user.
 */
static void from_worker_server(const char *proc_root, struct attach_stacks *a)
{
	struct strbuf body = STRBUF_INIT;
	struct err e = ERR_INIT;
	struct py_stacks fh;

	proc_worker_socket(proc_root, a->pid, a->worker_server, sizeof(a->worker_server));
	if (!a->worker_server[0]) {
		/* no server to ask: the memory reader's reason is the whole story */
		if (a->py.status == PY_OK || !a->py.error[0])
			snprintf(a->py.error, sizeof(a->py.error), "no TORCH_WORKER_SERVER_SOCKET in "
				 "its environment (torch's WorkerServer does not run in it)");
		if (a->py.status == PY_OK)
			a->py.status = PY_UNREADABLE;
		return;
	}
	snprintf(a->memory_error, sizeof(a->memory_error), "%s", a->py.error);
	if (http_post(a->worker_server, STACKS_WORKER_SERVER_TARGET, FAULTHANDLER_TEXT_MAX,
		      STACKS_WORKER_SERVER_MS, &body, &e) < 0) {
		if (a->py.status == PY_OK)
			a->py.status = PY_UNREADABLE;
		snprintf(a->py.error, sizeof(a->py.error), "torch's WorkerServer: %.200s (it answers "
			 "under the GIL: not while the rank's native code holds it)", e.msg);
	} else if (faulthandler_parse(body.buf, body.len, &fh) < 0) {
		if (a->py.status == PY_OK)
			a->py.status = PY_UNREADABLE;
		snprintf(a->py.error, sizeof(a->py.error), "torch's WorkerServer: %.300s", fh.error);
	} else {
		py_stacks_release(&a->py);
		a->py = fh;
		a->source = SOURCE_WORKER_SERVER;
		/* faulthandler lists the newest thread first: the oldest, the main thread, last */
		a->py.threads[a->py.nthreads - 1].native_tid = a->pid;
	}
	strbuf_release(&body);
}

void attach_stacks_collect(int pid, const char *proc_root, enum stacks_from from,
			   struct strbuf *image, struct attach_stacks *a)
{
	struct pymem m;
	struct py_target t;

	memset(a, 0, sizeof(*a));
	a->pid = pid;
	{
		struct strbuf maps = STRBUF_INIT;
		char path[512];

		snprintf(path, sizeof(path), "%s/%d/maps", proc_root, pid);
		if (file_read(path, &maps, 8u << 20, NULL) == 0)
			a->maps_nccl = strstr(maps.buf, "/libnccl") || strstr(maps.buf, "/libtorch_cuda");
		strbuf_release(&maps);
	}
	/* threads first: a process that is gone is said so once, by the stack reader */
	a->exists = tasks_read(proc_root, pid, &a->tasks) == 0;
	if (from == STACKS_WORKER_SERVER) {
		from_worker_server(proc_root, a);
		return;
	}
	pystack_read_pid(pid, &m, &t, image != NULL, &a->py);
	if (a->py.status == PY_OK)
		a->source = SOURCE_MEMORY;
	/* 3.9 and 3.10 keep no kernel thread id: the oldest thread state, last in the list, is
	 * the main thread's, whose tid is the pid; the others stay unmatched (tid 0) */
	if (a->py.nthreads && !a->py.threads[a->py.nthreads - 1].native_tid &&
	    (a->py.version_hex >> 16 & 0xff) < 11)
		a->py.threads[a->py.nthreads - 1].native_tid = pid;
	if (image && a->py.status == PY_OK)
		pymem_image_bytes(&m, &t, image);
	pymem_release(&m);
	/* a process that is gone has no server either */
	if (from == STACKS_AUTO && a->py.status != PY_OK && a->py.status != PY_GONE)
		from_worker_server(proc_root, a);
}

int attach_stacks_from_image(const void *buf, size_t len, struct attach_stacks *a,
			     struct err *e)
{
	struct pymem m;
	struct py_target t;
	int r;

	memset(a, 0, sizeof(*a));
	if (pymem_image(&m, buf, len, &t, e) < 0)
		return -1;
	r = pystack_walk(&m, &t, &a->py);
	if (r == 0)
		a->source = SOURCE_MEMORY;
	pymem_release(&m);
	return r;
}

void attach_stacks_release(struct attach_stacks *a)
{
	py_stacks_release(&a->py);
	task_list_release(&a->tasks);
	memset(a, 0, sizeof(*a));
}

const struct py_thread *attach_stacks_thread(const struct attach_stacks *a, long tid)
{
	if (tid <= 0)
		return NULL;	/* 0 is "unknown" on 3.9, 3.10 and in images, not a thread */
	for (size_t i = 0; i < a->py.nthreads; i++)
		if (a->py.threads[i].native_tid == tid)
			return &a->py.threads[i];
	return NULL;
}

static const char *status_word(enum py_status s)
{
	static const char *const words[] = {
		[PY_OK] = "ok",
		[PY_NOT_PYTHON] = "not_python",
		[PY_NO_PERMISSION] = "no_permission",
		[PY_GONE] = "gone",
		[PY_UNSUPPORTED] = "unsupported",
		[PY_UNREADABLE] = "unreadable",
	};

	return (size_t)s < sizeof(words) / sizeof(words[0]) && words[s] ? words[s] : "unknown";
}

static json_t *frames_json(const struct py_thread *th)
{
	json_t *arr = json_array();

	/* stored innermost first; written outermost first, as a Python traceback reads */
	for (size_t i = th->nframes; i-- > 0;) {
		const struct py_frame *f = &th->frames[i];
		json_t *o = json_object();
		json_object_set_new(o, "function", json_string(f->func));
		json_object_set_new(o, "file", json_string(f->file));
		json_object_set_new(o, "line", f->line > 0 ? json_integer(f->line) : json_null());
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *thread_json(const struct task_state *t, const struct py_thread *th, long tid)
{
	json_t *o = json_object();

	json_object_set_new(o, "tid", json_integer(tid));
	if (t) {
		char st[2] = { t->state, 0 };
		json_object_set_new(o, "name", json_string(t->name));
		json_object_set_new(o, "state", json_string(st));
		json_object_set_new(o, "wchan", t->wchan[0] ? json_string(t->wchan) : json_null());
		json_object_set_new(o, "syscall", t->syscall >= 0 ? json_integer(t->syscall) : json_null());
		json_object_set_new(o, "lib", t->lib[0] ? json_string(t->lib) : json_null());
		json_object_set_new(o, "where", json_string(t->where));
	}
	json_object_set_new(o, "python", json_boolean(th != NULL));
	if (th) {
		json_object_set_new(o, "frames", frames_json(th));
		if (th->note[0])
			json_object_set_new(o, "frames_note", json_string(th->note));
	}
	return o;
}

json_t *attach_stacks_json(const struct attach_stacks *a)
{
	json_t *o = json_object(), *py = json_object(), *threads = json_array();
	char ver[32];

	json_object_set_new(o, "pid", json_integer(a->pid));
	json_object_set_new(o, "stack_source", a->source == SOURCE_MEMORY ? json_string("memory") :
			    a->source == SOURCE_WORKER_SERVER ? json_string("worker_server") :
			    json_null());
	if (a->worker_server[0])
		json_object_set_new(o, "worker_server", json_string(a->worker_server));
	if (a->memory_error[0])
		json_object_set_new(o, "memory_error", json_string(a->memory_error));
	py_version_str(a->py.version_hex, ver, sizeof(ver));
	json_object_set_new(py, "status", json_string(status_word(a->py.status)));
	if (a->py.status != PY_OK)
		json_object_set_new(py, "error", json_string(a->py.error));
	json_object_set_new(py, "version", a->py.version_hex ? json_string(ver) : json_null());
	json_object_set_new(py, "binary", a->py.binary[0] ? json_string(a->py.binary) : json_null());
	json_object_set_new(py, "layout_tested", json_boolean(a->py.layout_tested));
	json_object_set_new(py, "frame_order", json_string("outermost first"));
	json_object_set_new(o, "python", py);
	for (size_t i = 0; i < a->tasks.n; i++) {
		const struct task_state *t = &a->tasks.v[i];
		json_array_append_new(threads, thread_json(t, attach_stacks_thread(a, t->tid), t->tid));
	}
	/* Python threads the task list did not show (an image, or a thread that just started) */
	for (size_t i = 0; i < a->py.nthreads; i++) {
		const struct py_thread *th = &a->py.threads[i];
		int seen = 0;
		for (size_t k = 0; k < a->tasks.n && !seen; k++)
			seen = a->tasks.v[k].tid == th->native_tid;
		if (!seen)
			json_array_append_new(threads, thread_json(NULL, th, th->native_tid));
	}
	json_object_set_new(o, "threads", threads);
	return o;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

void attach_stacks_phrase(const struct attach_stacks *a, size_t depth, struct strbuf *sb)
{
	const struct py_thread *th = attach_stacks_thread(a, a->pid);
	size_t n;

	/* the main thread, whose tid is the pid; else the first one the interpreter lists */
	if (!th && a->py.nthreads)
		th = &a->py.threads[a->py.nthreads - 1];
	if (!th || !th->nframes)
		return;
	n = th->nframes < depth ? th->nframes : depth;
	strbuf_addstr(sb, "in ");
	for (size_t i = n; i-- > 0;) {
		const struct py_frame *f = &th->frames[i];
		strbuf_addstr(sb, f->func);
		if (f->line > 0)
			strbuf_addf(sb, " (%s:%d)", base(f->file), f->line);
		else
			strbuf_addf(sb, " (%s)", base(f->file));
		if (i)
			strbuf_addstr(sb, " → ");
	}
}

static int by_size(const void *a, const void *b)
{
	const struct stack_group *x = a, *y = b;

	if (x->npids != y->npids)
		return x->npids < y->npids ? 1 : -1;
	return x->pids[0] - y->pids[0];
}

size_t attach_stack_groups(const struct attach_stacks *v, size_t n, struct stack_group **out)
{
	struct stack_group *g = NULL;
	size_t ng = 0;

	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;
		size_t k;

		if (v[i].py.status != PY_OK)
			continue;
		attach_stacks_phrase(&v[i], PY_FRAMES_MAX, &sb);
		if (!sb.len) {
			strbuf_release(&sb);
			continue;
		}
		for (k = 0; k < ng && strcmp(g[k].stack, sb.buf); k++)
			;
		if (k == ng) {
			g = xrealloc(g, (ng + 1) * sizeof(*g));
			g[ng++] = (struct stack_group){ .stack = strbuf_detach(&sb, NULL) };
		} else {
			strbuf_release(&sb);
		}
		g[k].pids = xrealloc(g[k].pids, (g[k].npids + 1) * sizeof(*g[k].pids));
		g[k].pids[g[k].npids++] = v[i].pid;
	}
	if (ng > 1)
		qsort(g, ng, sizeof(*g), by_size);
	*out = g;
	return ng;
}

void attach_stack_groups_release(struct stack_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].stack);
		free(g[i].pids);
	}
	free(g);
}

json_t *attach_stack_groups_json(const struct stack_group *g, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *pids = json_array();
		for (size_t k = 0; k < g[i].npids; k++)
			json_array_append_new(pids, json_integer(g[i].pids[k]));
		json_array_append_new(arr, json_pack("{s:s, s:o}", "stack", g[i].stack, "pids", pids));
	}
	return arr;
}
