/* report/inv_stack: the stack section of the inventory, rendered from facts fixtures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"
#include "report/inventory.h"
#include "util/json.h"

static char *render(const json_t *facts)
{
	struct render_opts o = { .color = 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	{
		struct node_model *im = model_of(facts);
		inv_stack(f, im, &o);
		node_model_free(im);
	}
	fclose(f);
	return buf;
}

static void must_have(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("no '%s' in:\n%s", needle, text);
}

static void gpu_machine(void **state)
{
	json_t *facts = load_fixture_json("facts/stack-h200x2-handmade.json");
	char *t = render(facts);

	(void)state;
	must_have(t, "NCCL and Python stack");
	/* past 100 columns the two-word key's value continues under the value column (21) */
	must_have(t, "2.28.3   /usr/lib/x86_64-linux-gnu/libnccl.so.2  [default, found by ldconfig,\n"
		  "                     /usr/lib]");
	must_have(t, "2.28.9   /usr/local/lib/python3.12/dist-packages/nvidia/nccl/lib/libnccl.so.2  [torch, found by site-packages:/usr/bin/python3");
	must_have(t, "/usr/bin/python3 (PATH, /usr/bin)  4100 ms");
	must_have(t, "Python 3.12.3; torch 2.11.0+cu130, CUDA 13.0, NCCL 2.28.9 from /usr/local/lib/python3.12/dist-packages/nvidia/nccl/lib/libnccl.so.2, cuDNN 9.17.1, 2 GPUs visible; lightning 2.6.6; pytorch_lightning 2.6.6");
	must_have(t, "memlock            soft unlimited, hard unlimited");
	free(t);
	json_decref(facts);
}

static void unknowns_and_absences(void **state)
{
	json_t *facts = json_lit(
		"{\"nccl\": {\"libs\": [{\"path\": \"/x/libnccl.so.2\", \"version\": {\"unknown\": \"it does not load: libcudart.so.12: cannot open\"}, \"found_by\": [\"LD_LIBRARY_PATH\"]}],"
		" \"net_plugin\": {\"state\": \"missing\", \"env\": \"ofi\"},"
		" \"conf\": [{\"path\": \"/etc/nccl.conf\", \"vars\": {\"NCCL_DEBUG\": \"INFO\"}},"
		"            {\"path\": \"/nope.conf\", \"vars\": {\"unknown\": \"cannot open\"}}]},"
		" \"python\": [{\"path\": \"/opt/py\", \"why\": [\"--python\"], \"elapsed_ms\": 3000,"
		"  \"version\": {\"unknown\": \"'/opt/py' did not answer within 3 s\"}}],"
		" \"shm\": {\"path\": \"/dev/shm\", \"exists\": true, \"size_bytes\": 67108864, \"avail_bytes\": 1048576, \"writable\": false},"
		" \"limits\": {\"memlock\": {\"unknown\": \"getrlimit failed\"}}}");
	char *t = render(facts);

	(void)state;
	must_have(t, "unknown  /x/libnccl.so.2  [found by LD_LIBRARY_PATH]");
	must_have(t, "unknown (it does not load: libcudart.so.12: cannot open)");
	must_have(t, "NCCL_NET_PLUGIN=ofi not found");
	must_have(t, "/etc/nccl.conf: NCCL_DEBUG=INFO");
	must_have(t, "/nope.conf: unknown (cannot open)");
	must_have(t, "unknown ('/opt/py' did not answer within 3 s)");
	must_have(t, "64 MiB, 1 MiB free, NOT writable");
	must_have(t, "memlock            unknown (getrlimit failed)");
	free(t);
	json_decref(facts);

	facts = json_lit("{\"python\": {\"unknown\": \"not probed (--no-python)\"}, \"nccl\": {\"libs\": [], \"default\": {\"why\": \"no libnccl.so.2 anywhere\"}}}");
	t = render(facts);
	must_have(t, "none found (no libnccl.so.2 anywhere)");
	must_have(t, "not probed (--no-python)");
	free(t);
	json_decref(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gpu_machine),
		cmocka_unit_test(unknowns_and_absences),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
