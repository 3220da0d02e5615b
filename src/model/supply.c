#include "model/supply.h"

#include <stdlib.h>

#include "util/json.h"
#include "util/xalloc.h"

void nm_python_supply(struct nm_python *p, const json_t *supply)
{
	const json_t *list = json_object_get(supply, "dists"), *pay, *x, *y;
	size_t i, j, n = 0;

	p->dists = xcalloc(json_array_size(list) + 1, sizeof(*p->dists));
	json_array_foreach(list, i, x) {
		struct nm_dist *d;
		const json_t *mm = json_object_get(x, "mismatch");
		if (!json_is_string(json_object_get(x, "name")) ||
		    !json_is_string(json_object_get(x, "version")))
			continue;
		d = &p->dists[p->ndists++];
		d->name = jpath_str(x, "name");
		d->version = jpath_str(x, "version");
		d->installer = jpath_str(x, "installer");
		d->mismatch = xcalloc(json_array_size(mm) + 1, sizeof(*d->mismatch));
		d->mismatch_kind = xcalloc(json_array_size(mm) + 1, sizeof(*d->mismatch_kind));
		json_array_foreach(mm, j, y) {
			const char *path = jpath_str(y, "path"), *kind = jpath_str(y, "kind");
			if (!path || !kind)
				continue;
			d->mismatch[d->nmismatch] = path;
			d->mismatch_kind[d->nmismatch++] = kind;
		}
	}
	pay = json_object_get(supply, "payloads");
	p->payloads = xcalloc(json_array_size(pay) + 1, sizeof(*p->payloads));
	json_array_foreach(pay, i, x)
		if (json_is_string(x))
			p->payloads[n++] = json_string_value(x);
}

void nm_python_supply_free(struct nm_python *p)
{
	for (size_t i = 0; i < p->ndists; i++) {
		free(p->dists[i].mismatch);
		free(p->dists[i].mismatch_kind);
	}
	free(p->dists);
	free(p->payloads);
}
