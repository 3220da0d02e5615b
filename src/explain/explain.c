/* The facade over the scanner and the reasoner (see explain.h). */
#include "explain/explain.h"

#include <stdlib.h>

#include "explain/reason.h"
#include "explain/scan.h"
#include "util/xalloc.h"

struct explain {
	struct scan *scan;
	int finished;
};

struct explain *explain_new(const struct explain_opts *o)
{
	struct explain *x = xcalloc(1, sizeof(*x));

	x->scan = scan_new(o ? o->master_addr : NULL);
	return x;
}

void explain_free(struct explain *x)
{
	if (!x)
		return;
	scan_free(x->scan);
	free(x);
}

void explain_begin_input(struct explain *x, const char *name)
{
	scan_begin_input(x->scan, name);
}

void explain_line(struct explain *x, const struct lr_line *l)
{
	scan_line(x->scan, l);
}

void explain_end_input(struct explain *x, uint64_t bytes)
{
	scan_end_input(x->scan, bytes);
}

int explain_feed(struct explain *x, const char *name, struct lreader *r, struct err *e)
{
	struct lr_line l;
	int rc;

	scan_begin_input(x->scan, name);
	while ((rc = lreader_next(r, &l, e)) > 0)
		scan_line(x->scan, &l);
	scan_end_input(x->scan, lreader_bytes(r));
	if (rc < 0)
		return err_prefix(e, "'%s'", name);
	return 0;
}

json_t *explain_finish(struct explain *x, struct findings *fs)
{
	if (x->finished)
		return json_object();
	x->finished = 1;
	return explain_reason(scan_result(x->scan), fs);
}
