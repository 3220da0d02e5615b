/* Every rank's link to rank 0, in the fixed wire form (link/ceiling.h). */
#include "coll/links.h"

#include <stdlib.h>

#include "util/xalloc.h"

int coll_links_gather(struct boot *b, const struct ceiling_link *mine, struct ceiling_link **all,
                      struct err *e)
{
	size_t n = (size_t)boot_world(b);
	struct ceiling_wire w, *ws = NULL;

	*all = NULL;
	ceiling_link_to_wire(mine, &w);
	if (boot_rank(b) == 0)
		ws = xcalloc(n, sizeof(*ws));
	if (boot_gather(b, &w, sizeof(w), ws, e) < 0) {
		free(ws);
		return -1;
	}
	if (!ws)
		return 0;
	*all = xcalloc(n, sizeof(**all));
	for (size_t i = 0; i < n; i++) {
		ceiling_link_from_wire(&ws[i], &(*all)[i]);
		(*all)[i].rank = (int)i;
	}
	free(ws);
	return 0;
}
