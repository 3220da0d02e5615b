/* dl: see dl.h. */
#include "util/dl.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *dl_open_first(const char *override, const char *override_from, const char *const names[],
		    struct err *e)
{
	char tried[ERR_MSG_LEN] = "";
	void *h;

	if (override && *override) {
		h = dlopen(override, RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
		err_set(e, ERR_NOTFOUND, "%s='%s' does not load: %s",
			override_from ? override_from : "override", override, dlerror());
		return NULL;
	}
	for (int i = 0; names[i]; i++) {
		const char *why;
		size_t n;

		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
		why = dlerror();
		n = strlen(tried);
		/* keep only the first reason in full; later names usually fail the same way */
		snprintf(tried + n, sizeof(tried) - n, "%s%s", n ? ", " : "",
			 i == 0 && why ? why : names[i]);
	}
	err_set(e, ERR_NOTFOUND, "%s", tried);
	return NULL;
}

int dl_sym(void *handle, const char *name, void **fn, struct err *e)
{
	*fn = dlsym(handle, name);
	if (!*fn)
		return err_set(e, ERR_NOTFOUND, "symbol '%s' missing", name);
	return 0;
}

int dl_path(void *handle, char *buf, unsigned len)
{
	struct link_map *lm = NULL;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name || !*lm->l_name)
		return -1;
	snprintf(buf, len, "%s", lm->l_name);
	return 0;
}
