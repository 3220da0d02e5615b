/*
 * The stack reader walks structures it reads out of another process, which may be changing
 * under it or be anything at all: here every byte of the image (header, addresses, segment
 * contents: the interpreter's structures themselves) is arbitrary. Every pointer followed must
 * be bounded by count, depth and length, and the JSON written from what it found.
 */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "attach/stacks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct attach_stacks a;
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	if (size > 1 << 20)
		return 0;
	(void)attach_stacks_from_image(data, size, &a, NULL);
	j = attach_stacks_json(&a);
	json_decref(j);
	attach_stacks_phrase(&a, 3, &sb);
	strbuf_release(&sb);
	{
		struct stack_group *g;
		size_t ng = attach_stack_groups(&a, 1, &g);
		json_decref(attach_stack_groups_json(g, ng));
		attach_stack_groups_release(g, ng);
	}
	attach_stacks_release(&a);
	return 0;
}
