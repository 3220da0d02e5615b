/* Prefix stripping: see strip.h. */
#include "explain/strip.h"

#include <ctype.h>
#include <string.h>

#include "explain/text.h"

static size_t strip_ansi(const char *s, size_t len, char *out)
{
	size_t w = 0, i = 0;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		if (c != 0x1b) {
			out[w++] = (char)c;
			i++;
			continue;
		}
		i++;
		if (i >= len)
			break;
		if (s[i] == '[') {		/* CSI: params, intermediates, one final byte */
			i++;
			while (i < len && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f)
				i++;
			if (i < len)
				i++;
		} else if (s[i] == ']') {	/* OSC: up to BEL or ESC \ */
			i++;
			while (i < len && s[i] != '\a' && s[i] != 0x1b)
				i++;
			if (i < len && s[i] == 0x1b)
				i++;
			if (i < len)
				i++;
		} else {
			i++;
		}
	}
	return w;
}

/* "[rank3]:" / "[default0]:" at p: returns the length, fills rank or local rank. */
static size_t torchrun_prefix(const char *p, size_t len, int *rank, int *local)
{
	size_t i = 1, name = 0;
	long v = 0;

	if (len < 4 || p[0] != '[')
		return 0;
	while (i < len && i < 40 && (isalpha((unsigned char)p[i]) || p[i] == '_'))
		i++;
	name = i - 1;
	if (!name || i >= len || !xt_digit(p[i]))
		return 0;
	while (i < len && xt_digit(p[i]) && v < 10000000)
		v = v * 10 + (p[i++] - '0');
	if (i + 1 >= len + 1 || i + 1 > len || p[i] != ']' || i + 1 >= len || p[i + 1] != ':')
		return 0;
	if (name == 4 && !memcmp(p + 1, "rank", 4))
		*rank = (int)v;
	else
		*local = (int)v;
	i += 2;
	if (i < len && p[i] == ' ')
		i++;
	return i;
}

/* srun -l: optional spaces, digits, ": " */
static size_t srun_prefix(const char *p, size_t len, int *rank)
{
	size_t i = 0;
	long v = 0;

	while (i < len && i < 8 && p[i] == ' ')
		i++;
	if (i >= len || !xt_digit(p[i]))
		return 0;
	while (i < len && xt_digit(p[i]) && v < 10000000)
		v = v * 10 + (p[i++] - '0');
	if (i + 1 >= len || p[i] != ':' || p[i + 1] != ' ')
		return 0;
	/* "2: eth1    inet 10.0.0.2/24 ..." and "2: eth1: <BROADCAST" are `ip` output, not labels */
	{
		size_t j = i + 2, t0 = j;
		while (j < len && j - t0 < 32 && (isalnum((unsigned char)p[j]) || strchr("._@-", p[j])))
			j++;
		if (j > t0 && j + 2 < len && p[j] == ':' && p[j + 1] == ' ' && p[j + 2] == '<')
			return 0;
		while (j < len && j > t0 && p[j] == ' ')
			j++;
		if (j > t0 && j + 5 <= len && !memcmp(p + j, "inet", 4) && (p[j + 4] == ' ' || p[j + 4] == '6'))
			return 0;
	}
	*rank = (int)v;
	return i + 2;
}

/* NCCL's "[ts] host:pid:tid [dev] ... NCCL LEVEL " prefix; returns the body offset or 0. */
static size_t nccl_prefix(const char *p, size_t len, struct explain_line_info *li)
{
	size_t i = 0, h0, h1;
	long pid = 0;
	const char *lvl, *end;

	if (len > 2 && p[0] == '[') {	/* 2.26+ WARN timestamp "[2024-01-01 10:00:00] " */
		const char *rb = memchr(p, ']', len < 40 ? len : 40);
		if (rb && (size_t)(rb - p) + 1 < len && rb[1] == ' ')
			i = (size_t)(rb - p) + 2;
	}
	h0 = i;
	while (i < len && i - h0 < 256 && p[i] != ':' && p[i] != ' ' && p[i] != '[')
		i++;
	if (i == h0 || i >= len || p[i] != ':')
		return 0;
	h1 = i++;
	if (i >= len || !xt_digit(p[i]))
		return 0;
	while (i < len && xt_digit(p[i]) && pid < 100000000)
		pid = pid * 10 + (p[i++] - '0');
	if (i >= len || p[i] != ':')
		return 0;
	i++;
	if (i >= len || !xt_digit(p[i]))
		return 0;
	while (i < len && xt_digit(p[i]))
		i++;
	if (i + 1 >= len || p[i] != ' ')
		return 0;
	/* " [dev]" for INFO/WARN/TRACE; "NCCL CALL" lines have none */
	end = p + (len - i < 300 ? len : i + 300);
	lvl = NULL;
	{	/* fast path: "tid [dev] NCCL INFO" */
		size_t j = i + 1;
		if (j < len && p[j] == '[') {
			j++;
			while (j < len && xt_digit(p[j]))
				j++;
			if (j + 7 < len && p[j] == ']' && p[j + 1] == ' ' && !memcmp(p + j + 2, "NCCL ", 5))
				lvl = p + j + 2;
		}
	}
	if (!lvl)
		lvl = xt_find(p + i, end, "NCCL ");
	if (!lvl)
		return 0;
	li->host = p + h0;
	li->hlen = h1 - h0;
	li->pid = pid;
	lvl += 5;
	if ((size_t)(end - lvl) >= 5 && !memcmp(lvl, "INFO ", 5)) {
		li->nccl = 1;
		lvl += 5;
	} else if ((size_t)(end - lvl) >= 5 && !memcmp(lvl, "WARN ", 5)) {
		li->nccl = 2;
		lvl += 5;
	} else {
		li->nccl = 3;
		while (lvl < p + len && *lvl != ' ')
			lvl++;
		if (lvl < p + len)
			lvl++;
	}
	return (size_t)(lvl - p);
}

void explain_strip(const char *s, size_t len, char *scratch, struct explain_line_info *li)
{
	size_t off;

	memset(li, 0, sizeof(*li));
	li->prefix_rank = li->local_rank = -1;
	li->pid = -1;
	if (len > EXPLAIN_MAX_LINE)
		len = EXPLAIN_MAX_LINE;
	if (memchr(s, 0x1b, len)) {
		len = strip_ansi(s, len, scratch);
		s = scratch;
	}
	/* torchrun and srun prefixes can stack ("0: [rank0]: ..."); peel a few */
	for (int k = 0; k < 3; k++) {
		int r = -1, l = -1;
		off = torchrun_prefix(s, len, &r, &l);
		if (!off)
			off = srun_prefix(s, len, &r);
		if (!off)
			break;
		if (r >= 0 && li->prefix_rank < 0)
			li->prefix_rank = r;
		if (l >= 0 && li->local_rank < 0)
			li->local_rank = l;
		s += off;
		len -= off;
	}
	off = nccl_prefix(s, len, li);
	li->body = s + off;
	li->blen = len - off;
}
