/*
 * `ncclcheck report FILE.json` renders any document it is given, and a cluster document holds
 * what every peer sent: whatever the JSON holds (members missing, of the wrong type, hostile
 * strings) the page is written or refused whole, never a crash, and no string of the document
 * becomes markup: the page has no "<script" and no "<img" whatever the input says.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report/html.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	struct html_opts o = { 0 };
	char err[256];
	json_t *doc;

	if (size > 1 << 20)
		return 0;
	doc = json_loadb((const char *)data, size, 0, NULL);
	if (!doc)
		return 0;
	o.compare = doc;	/* the document as its own bench comparison: both readers at once */
	o.compare_label = "<script>";
	if (html_page(&sb, doc, &o, err, sizeof(err)) < 0 && sb.len)
		abort();	/* refused: nothing may have been written */
	if (strstr(sb.buf, "<script") || strstr(sb.buf, "<img"))
		abort();
	strbuf_release(&sb);
	json_decref(doc);
	return 0;
}
