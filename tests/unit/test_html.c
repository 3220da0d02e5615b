/* report/html*.c: escaping, the SVG scales, and a page whose node and log strings are hostile. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"
#include "finding.h"
#include "report/html.h"
#include "report/render.h"
#include "util/strbuf.h"

static void escapes_markup(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	html_esc(&sb, "<script>alert('x')</script> & \"q\"");
	assert_string_equal(sb.buf, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; "
			    "&quot;q&quot;");
	strbuf_reset(&sb);
	/* a log's terminal escapes and a NUL-free control byte show as one mark each */
	html_esc(&sb, "a\033[31mb\x01" "c\n\td");
	assert_string_equal(sb.buf, "a&#xFFFD;[31mb&#xFFFD;c\n\td");
	strbuf_reset(&sb);
	html_esc(&sb, NULL);
	assert_string_equal(sb.buf, "");
	/* UTF-8 passes through as it is */
	html_esc(&sb, "\u2192 \u00e9");
	assert_string_equal(sb.buf, "\u2192 \u00e9");
	strbuf_release(&sb);
}

static void scales(void **state)
{
	(void)state;
	assert_true(fabs(html_scale_lin(5, 0, 10, 100, 200) - 150) < 1e-9);
	/* a y axis runs downwards: the range may be reversed */
	assert_true(fabs(html_scale_lin(0, 0, 10, 300, 20) - 300) < 1e-9);
	assert_true(fabs(html_scale_lin(10, 0, 10, 300, 20) - 20) < 1e-9);
	/* clamped to the domain; an empty domain or NaN lands on r0 */
	assert_true(fabs(html_scale_lin(-5, 0, 10, 100, 200) - 100) < 1e-9);
	assert_true(fabs(html_scale_lin(50, 0, 10, 100, 200) - 200) < 1e-9);
	assert_true(fabs(html_scale_lin(3, 4, 4, 7, 9) - 7) < 1e-9);
	assert_true(fabs(html_scale_lin(NAN, 0, 1, 7, 9) - 7) < 1e-9);
	/* the port axis: 1024 and 65535 at its ends */
	assert_true(fabs(html_scale_lin(1024, 1024, 65535, 250, 950) - 250) < 1e-9);
	assert_true(fabs(html_scale_lin(65535, 1024, 65535, 250, 950) - 950) < 1e-9);
	/* log: each decade the same width */
	assert_true(fabs(html_scale_log(1e3, 1e2, 1e6, 0, 400) - 100) < 1e-9);
	assert_true(fabs(html_scale_log(1e4, 1e2, 1e6, 0, 400) - 200) < 1e-9);
	assert_true(fabs(html_scale_log(1e6, 1e2, 1e6, 0, 400) - 400) < 1e-9);
	assert_true(fabs(html_scale_log(0, 1e2, 1e6, 0, 400)) < 1e-9);
	assert_true(fabs(html_scale_log(-1, 1e2, 1e6, 0, 400)) < 1e-9);
	assert_true(fabs(html_scale_log(5, 0, 1e6, 3, 400) - 3) < 1e-9);
	/* round steps for the y axis: 1, 2, 5 times a power of ten */
	assert_true(fabs(html_nice_step(1.24, 5) - 0.5) < 1e-12);
	assert_true(fabs(html_nice_step(1.0, 5) - 0.2) < 1e-12);
	assert_true(fabs(html_nice_step(0.3, 5) - 0.1) < 1e-12);
	assert_true(fabs(html_decade(7) - 1) < 1e-12);
	assert_true(fabs(html_decade(12) - 10) < 1e-12);
	assert_true(fabs(html_decade(0.05) - 0.01) < 1e-15);
	assert_true(fabs(html_decade(3.2e9) - 1e9) < 1e-3);
	assert_true(html_decade(0) == 1 && html_decade(-5) == 1);
	assert_true(fabs(html_nice_step(95, 5) - 20) < 1e-12);
	assert_true(fabs(html_nice_step(5e-3, 5) - 1e-3) < 1e-15);
	assert_true(fabs(html_nice_step(0, 5) - 1) < 1e-12);
}

/* A document as a verb writes it, from findings whose strings came from a node and a log. */
static json_t *hostile_doc(const char *verb)
{
	struct findings *fs = findings_new();
	struct finding *f = finding_add(fs, SEV_ERROR, "net.ifname.nomatch",
					"<script>alert(1)</script> on host <b>x</b>");
	json_t *payload = json_object(), *doc;

	finding_node(f, "<img src=x onerror=alert(2)>");
	finding_evidence(f, "rank0.log:3: [rank0]: <script>document.write(3)</script>");
	finding_export(f, "NCCL_SOCKET_IFNAME", "eth1");
	json_object_set_new(payload, "ranks", json_pack("[{s:i, s:s, s:{s:s, s:s}}]", "rank", 0,
							"label", "rank 0", "last_line", "text",
							"<script>x</script>", "where", "a.log:1"));
	doc = render_json_doc(verb, payload, fs, 1);
	json_decref(payload);
	findings_free(fs);
	return doc;
}

static void page_escapes_what_it_shows(void **state)
{
	json_t *doc = hostile_doc("explain");
	struct strbuf sb = STRBUF_INIT;
	char err[256];

	(void)state;
	assert_int_equal(html_page(&sb, doc, NULL, err, sizeof(err)), 0);
	assert_null(strstr(sb.buf, "<script"));
	assert_null(strstr(sb.buf, "<img"));
	assert_null(strstr(sb.buf, "<b>x"));
	assert_non_null(strstr(sb.buf, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(sb.buf, "&lt;script&gt;document.write(3)&lt;/script&gt;"));
	assert_non_null(strstr(sb.buf, "&lt;script&gt;x&lt;/script&gt;"));
	/* the verdict first, its fix block a <pre> */
	assert_true(strstr(sb.buf, "id=\"verdict\"") < strstr(sb.buf, "id=\"findings\""));
	assert_non_null(strstr(sb.buf, "<pre class=\"fix\">  # on every node\n"
				       "  export NCCL_SOCKET_IFNAME=eth1\n</pre>"));
	strbuf_release(&sb);
	json_decref(doc);
}

static void page_refuses_what_is_not_a_document(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char err[256];
	json_t *doc = json_pack("{s:i}", "x", 1);

	(void)state;
	assert_int_equal(html_page(&sb, doc, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "verb"));
	assert_int_equal(sb.len, 0);
	json_decref(doc);
	doc = json_pack("{s:s, s:[{s:s}]}", "verb", "node", "findings", "id", "x");
	assert_int_equal(html_page(&sb, doc, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "findings"));
	assert_int_equal(sb.len, 0);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes_markup),
		cmocka_unit_test(scales),
		cmocka_unit_test(page_escapes_what_it_shows),
		cmocka_unit_test(page_refuses_what_is_not_a_document),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
