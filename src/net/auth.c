/* net/auth: see auth.h. */
#include "net/auth.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/crypto.h"
#include "util/strbuf.h"

_Static_assert(PROTO_MAC_HEX == 2 * CRYPTO_SHA256_LEN, "the MAC is HMAC-SHA256 in hex");

void auth_hex(const void *p, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	out[2 * n] = '\0';
}

int auth_nonce(char out[PROTO_NONCE_HEX + 1], struct err *e)
{
	unsigned char b[PROTO_NONCE_HEX / 2];

	if (crypto_random(b, sizeof(b)) < 0) {
		out[0] = '\0';
		return err_set(e, ERR_INTERNAL, "the random number generator failed");
	}
	auth_hex(b, sizeof(b), out);
	return 0;
}

void auth_mac(const void *token, size_t len, const char *role, const char *worker_nonce,
	      const char *master_nonce, long rank, long nnodes, char out[PROTO_MAC_HEX + 1])
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char md[CRYPTO_SHA256_LEN];

	/* NUL separators: no field can run into the next */
	strbuf_addstr(&sb, "ncclcheck-cluster-v1");
	strbuf_addch(&sb, '\0');
	strbuf_addstr(&sb, role);
	strbuf_addch(&sb, '\0');
	strbuf_addstr(&sb, worker_nonce);
	strbuf_addch(&sb, '\0');
	strbuf_addstr(&sb, master_nonce);
	strbuf_addch(&sb, '\0');
	strbuf_addf(&sb, "%ld", rank);
	strbuf_addch(&sb, '\0');
	strbuf_addf(&sb, "%ld", nnodes);
	if (crypto_hmac_sha256(token, len, sb.buf, sb.len, md) < 0)
		out[0] = '\0';	/* never equal to a real MAC: auth_equal() refuses it */
	else
		auth_hex(md, sizeof(md), out);
	strbuf_release(&sb);
}

int auth_equal(const char *want, const char *got)
{
	if (!want || !got || strlen(want) != PROTO_MAC_HEX || strlen(got) != PROTO_MAC_HEX)
		return 0;
	return crypto_equal(want, got, PROTO_MAC_HEX);
}

int auth_token_parse(const char *text, size_t n, const char **tok, size_t *len, struct err *e)
{
	size_t b = 0;

	while (b < n && isspace((unsigned char)text[b]))
		b++;
	while (n > b && isspace((unsigned char)text[n - 1]))
		n--;
	if (n == b)
		return err_set(e, ERR_USAGE, "the token is empty");
	if (n - b > AUTH_TOKEN_MAX)
		return err_set(e, ERR_USAGE, "the token is %zu bytes, over %d", n - b, AUTH_TOKEN_MAX);
	if (memchr(text + b, '\0', n - b))
		return err_set(e, ERR_USAGE, "the token holds a NUL byte");
	*tok = text + b;
	*len = n - b;
	return 0;
}
