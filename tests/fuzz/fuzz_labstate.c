/*
 * A lab's state.json is re-read by status, exec and up after crashes, half-written files and
 * hand edits: the parser must reject any bytes cleanly, and accept only the lab's own names.
 */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "lab/lab.h"
#include "report/lab_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = ERR_INIT;
	json_t *st;

	if (size > 1 << 20)
		return 0;
	st = lab_state_parse((const char *)data, size, &e);
	if (st) {
		/* whatever passed must render */
		json_t *doc = json_object(), *labs = json_array();
		FILE *devnull = fopen("/dev/null", "w");

		json_array_append(labs, st);
		json_object_set_new(doc, "labs", labs);
		if (devnull) {
			render_lab_status_text(devnull, doc);
			fclose(devnull);
		}
		json_decref(doc);
	}
	json_decref(st);
	return 0;
}
