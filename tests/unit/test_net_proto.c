/* net/proto: every message type round-trips; everything else is refused by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_helpers.h"
#include "net/proto.h"
#include "util/xalloc.h"

static const char *const samples[] = {
	"{\"type\":\"hello\",\"version\":1,\"rank\":1,\"nnodes\":2,\"pid\":42,\"host\":\"n1\","
	"\"tool\":\"ncclcheck 0.1.0\",\"nonce\":\"00112233445566778899aabbccddeeff\"}",
	"{\"type\":\"challenge\",\"version\":1,\"auth\":1,\"heartbeat_ms\":500,"
	"\"nonce\":\"ffeeddccbbaa99887766554433221100\"}",
	"{\"type\":\"auth\",\"mac\":\"\"}",
	"{\"type\":\"welcome\",\"nnodes\":2,\"mac\":"
	"\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"}",
	"{\"type\":\"reject\",\"code\":\"duplicate_rank\",\"message\":\"rank 1 is taken\"}",
	"{\"type\":\"facts\",\"rank\":1,\"facts\":{\"schema_version\":1}}",
	"{\"type\":\"plan\",\"phase\":\"connect\",\"step\":0,\"payload\":[1,2]}",
	"{\"type\":\"result\",\"phase\":\"connect\",\"step\":3,\"rank\":1,\"payload\":{}}",
	"{\"type\":\"report\",\"exit_code\":1,\"report\":{\"findings\":[]}}",
	"{\"type\":\"heartbeat\",\"rank\":0,\"seq\":9}",
	"{\"type\":\"abort\",\"code\":\"dead\",\"message\":\"rank 1 stopped\",\"rank\":1,"
	"\"host\":\"n1\",\"findings\":[]}",
	"{\"type\":\"bye\",\"rank\":3}",
};

static void every_type_roundtrips(void **state)
{
	(void)state;
	assert_int_equal(ARRAY_SIZE(samples), MSG_TYPE_COUNT);
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++) {
		json_t *j = json_lit(samples[i]), *back;
		struct msg m;
		struct err e = ERR_INIT;

		if (msg_from_json(j, &m, &e) < 0)
			fail_msg("sample %zu: %s", i, e.msg);
		assert_int_equal(m.type, (enum msg_type)i);
		back = msg_to_json(&m, &e);
		assert_non_null(back);
		assert_true(json_equal(j, back));
		json_decref(back);
		msg_release(&m);
		json_decref(j);
	}
	assert_string_equal(msg_type_name(MSG_HEARTBEAT), "heartbeat");
	assert_null(msg_type_name(MSG_TYPE_COUNT));
}

static void decoded_values(void **state)
{
	json_t *j = json_lit(samples[0]);
	struct msg m;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(msg_from_json(j, &m, &e), 0);
	assert_int_equal(m.u.hello.rank, 1);
	assert_int_equal(m.u.hello.nnodes, 2);
	assert_string_equal(m.u.hello.host, "n1");
	assert_string_equal(m.u.hello.nonce, "00112233445566778899aabbccddeeff");
	msg_release(&m);
	json_decref(j);
	/* an abort without findings is fine: the member is optional */
	j = json_lit("{\"type\":\"abort\",\"code\":\"x\",\"message\":\"y\",\"rank\":-1}");
	assert_int_equal(msg_from_json(j, &m, &e), 0);
	assert_null(m.u.abort.findings);
	assert_null(m.u.abort.host);
	assert_int_equal(m.u.abort.rank, -1);
	{
		json_t *back = msg_to_json(&m, &e);

		assert_null(json_object_get(back, "host"));	/* absent stays absent */
		json_decref(back);
	}
	msg_release(&m);
	json_decref(j);
}

static void refuse(const char *text, const char *want)
{
	json_t *j = json_lit(text);
	struct msg m;
	struct err e = ERR_INIT;

	if (msg_from_json(j, &m, &e) == 0)
		fail_msg("accepted: %s", text);
	if (!strstr(e.msg, want))
		fail_msg("message '%s' lacks '%s' for %s", e.msg, want, text);
	assert_int_equal(e.code, ERR_PEER);
	json_decref(j);
}

static void bad_messages_named(void **state)
{
	(void)state;
	refuse("[]", "a JSON object");
	refuse("{}", "no field 'type'");
	refuse("{\"type\":7}", "field 'type' is an integer");
	refuse("{\"type\":\"gossip\"}", "unknown message type 'gossip'");
	refuse("{\"type\":\"bye\",\"rank\":1,\"extra\":0}", "message 'bye': unknown field 'extra'");
	refuse("{\"type\":\"bye\"}", "message 'bye': field 'rank' is missing");
	refuse("{\"type\":\"bye\",\"rank\":\"1\"}", "field 'rank' is a string, not an integer");
	refuse("{\"type\":\"bye\",\"rank\":1.0}", "field 'rank' is a real number");
	refuse("{\"type\":\"bye\",\"rank\":-3}", "field 'rank' is -3, outside");
	refuse("{\"type\":\"bye\",\"rank\":99999999999999}", "outside");
	refuse("{\"type\":\"heartbeat\",\"rank\":0,\"seq\":null}", "field 'seq' is null");
	refuse("{\"type\":\"auth\",\"mac\":\"abc\"}", "field 'mac' is not 64 lowercase hex");
	refuse("{\"type\":\"auth\",\"mac\":"
	       "\"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef\"}", "hex");
	refuse("{\"type\":\"hello\",\"version\":1,\"rank\":1,\"nnodes\":2,\"pid\":42,"
	       "\"host\":\"n1\\u001b[31m\",\"tool\":\"x\",\"nonce\":\"00112233445566778899aabbccddeeff\"}",
	       "field 'host' holds control characters");
	refuse("{\"type\":\"hello\",\"version\":1,\"rank\":1,\"nnodes\":2,\"pid\":42,"
	       "\"host\":\"n1\",\"tool\":\"x\",\"nonce\":\"\"}", "field 'nonce'");
	refuse("{\"type\":\"facts\",\"rank\":0,\"facts\":[]}", "field 'facts' is an array, not an object");
	refuse("{\"type\":\"plan\",\"phase\":\"p\",\"step\":0,\"payload\":3}",
	       "field 'payload' is an integer, not an object or an array");
	refuse("{\"type\":\"abort\",\"code\":\"x\",\"message\":\"y\",\"rank\":0,\"findings\":{}}",
	       "field 'findings' is an object, not an array");
}

static void long_strings_refused(void **state)
{
	char *big = malloc(PROTO_HOST_MAX + 100), *text;

	(void)state;
	memset(big, 'a', PROTO_HOST_MAX + 1);
	big[PROTO_HOST_MAX + 1] = '\0';
	text = malloc(PROTO_HOST_MAX + 300);
	snprintf(text, PROTO_HOST_MAX + 300, "{\"type\":\"hello\",\"version\":1,\"rank\":1,"
		 "\"nnodes\":2,\"pid\":42,\"host\":\"%s\",\"tool\":\"x\","
		 "\"nonce\":\"00112233445566778899aabbccddeeff\"}", big);
	refuse(text, "field 'host' is 256 bytes long");
	free(text);
	free(big);
}

static void sender_cannot_send_invalid(void **state)
{
	struct msg m;
	struct err e = ERR_INIT;

	(void)state;
	msg_init(&m, MSG_HELLO);
	m.u.hello.version = 1;
	m.u.hello.rank = 0;
	m.u.hello.nnodes = 2;
	m.u.hello.host = (char *)"n0";
	m.u.hello.tool = (char *)"t";
	/* the nonce is empty: refused before it reaches the wire */
	assert_null(msg_to_json(&m, &e));
	assert_int_equal(e.code, ERR_INTERNAL);
	assert_non_null(strstr(e.msg, "nonce"));
	m.type = MSG_TYPE_COUNT;
	assert_null(msg_to_json(&m, &e));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_type_roundtrips),
		cmocka_unit_test(decoded_values),
		cmocka_unit_test(bad_messages_named),
		cmocka_unit_test(long_strings_refused),
		cmocka_unit_test(sender_cannot_send_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
