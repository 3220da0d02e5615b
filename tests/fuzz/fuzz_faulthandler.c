/*
 * attach --stacks-from: the text a process's WorkerServer answers from /handler/dump_traceback
 * is the job's bytes. Here they are anything at all: parsed, then rendered as --json does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "attach/faulthandler.h"
#include "attach/stacks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct attach_stacks a;
	json_t *j;

	memset(&a, 0, sizeof(a));
	if (faulthandler_parse((const char *)data, size, &a.py) == 0) {
		a.source = SOURCE_WORKER_SERVER;
		j = attach_stacks_json(&a);
		/* every string went in as valid UTF-8: a dropped one would leave a hole */
		if (!j || json_array_size(json_object_get(j, "threads")) != a.py.nthreads)
			abort();
		json_decref(j);
	}
	attach_stacks_release(&a);
	return 0;
}
