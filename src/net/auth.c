/* net/auth: see auth.h. */
#include "net/auth.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include "util/strbuf.h"

static void to_hex(const unsigned char *b, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	out[2 * n] = '\0';
}

int auth_nonce(char out[PROTO_NONCE_HEX + 1], struct err *e)
{
	unsigned char b[PROTO_NONCE_HEX / 2];

	if (RAND_bytes(b, sizeof(b)) != 1) {
		out[0] = '\0';
		return err_set(e, ERR_INTERNAL, "the random number generator failed");
	}
	to_hex(b, sizeof(b), out);
	return 0;
}

void auth_mac(const void *token, size_t len, const char *role, const char *worker_nonce,
	      const char *master_nonce, long rank, long nnodes, char out[PROTO_MAC_HEX + 1])
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;

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
	if (!HMAC(EVP_sha256(), token, (int)len, (const unsigned char *)sb.buf, sb.len, md, &mdlen) ||
	    mdlen != PROTO_MAC_HEX / 2)
		out[0] = '\0';	/* never equal to a real MAC: auth_equal() refuses it */
	else
		to_hex(md, mdlen, out);
	strbuf_release(&sb);
}

int auth_equal(const char *want, const char *got)
{
	if (!want || !got || strlen(want) != PROTO_MAC_HEX || strlen(got) != PROTO_MAC_HEX)
		return 0;
	return CRYPTO_memcmp(want, got, PROTO_MAC_HEX) == 0;
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
