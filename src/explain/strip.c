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

static size_t bare_level(const char *p, size_t len, struct explain_line_info *li, int after_host);

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
	} else if (len > 20 && xt_digit(p[0]) && xt_digit(p[3]) && p[4] == '-' && p[7] == '-' &&
		   p[10] == ' ' && xt_digit(p[11])) {
		/* NCCL_DEBUG_TIMESTAMP_FORMAT without brackets ("%F_%T" prints "2026-12-02 06:11:22 ";
		 * NCCL turns '_' into a space): the date and the time word */
		const char *sp = memchr(p + 11, ' ', len - 11 < 24 ? len - 11 : 24);
		if (sp && (size_t)(sp - p) + 1 < len)
			i = (size_t)(sp - p) + 1;
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
	if (!lvl) {
		lvl = xt_find(p + i, end, "NCCL ");
		if (lvl) {	/* "tid [dev] transport/nvls.cc:165 NCCL WARN": keep the location */
			const char *q = p + i + 1;
			if (*q == '[' && (q = memchr(q, ']', (size_t)(lvl - q))))
				q += 2;
			if (q && q < lvl - 1) {
				li->src = q;
				li->srclen = (size_t)(lvl - 1 - q);
			}
		}
	}
	if (!lvl) {	/* NCCL 2.2-2.4: "tid [0] INFO ..." / "tid [0] misc/ibvwrap.cu:61 WARN ..." */
		size_t j = i + 1, k;
		if (j < len && p[j] == '[') {
			const char *rb = memchr(p + j, ']', len - j < 8 ? len - j : 8);
			j = rb ? (size_t)(rb - p) + 2 : len;
		}
		if (j >= len || !(k = bare_level(p + j, len - j, li, 1)))
			return 0;
		li->host = p + h0;
		li->hlen = h1 - h0;
		li->pid = pid;
		return j + k;
	}
	li->host = p + h0;
	li->hlen = h1 - h0;
	li->pid = pid;
	lvl += 5;
	if ((size_t)(end - lvl) >= 5 && !memcmp(lvl, "INFO ", 5)) {
		li->nccl = 1;
		lvl += 5;
	} else if ((size_t)(end - lvl) >= 5 && (!memcmp(lvl, "WARN ", 5) || !memcmp(lvl, "ATTN ", 5))) {
		li->nccl = 2;	/* 2.32's ATTN: a warning that needs attention, read as WARN */
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

/*
 * Levels without NCCL's host prefix: "NCCL WARN msg", "file.cc:123 NCCL WARN msg" (pasted or cut
 * logs) and, after a host prefix only, NCCL 2.2-2.4's "INFO msg" / "file.cu:61 WARN msg". A bare
 * "INFO " or "file.py:45 INFO" is someone else's logger, so without a host only WARN counts.
 */
static size_t bare_level(const char *p, size_t len, struct explain_line_info *li, int after_host)
{
	size_t i = 0;
	int named = 0;

	if (len > 10 && !memcmp(p, "NCCL ", 5)) {
		i = 5;
		named = 1;
	} else if (len > 5 && after_host && (!memcmp(p, "INFO ", 5) || !memcmp(p, "WARN ", 5))) {
		i = 0;
	} else {
		/* "transport/nvls.cc:165 " / "get_ofi_provider:312 ": a source location */
		while (i < len && i < 96 && p[i] != ' ' && p[i] != ':')
			i++;
		if (!i || i + 2 >= len || p[i] != ':' || !xt_digit(p[i + 1]))
			return 0;
		i++;
		while (i < len && xt_digit(p[i]))
			i++;
		if (i >= len || p[i] != ' ')
			return 0;
		li->src = p;
		li->srclen = i;
		i++;
		if (i + 5 < len && !memcmp(p + i, "NCCL ", 5)) {
			i += 5;
			named = 1;
		}
	}
	if (i + 5 > len)
		return 0;
	if (!memcmp(p + i, "INFO ", 5) && (named || after_host)) {
		li->nccl = 1;
	} else if (!memcmp(p + i, "WARN ", 5) || (named && !memcmp(p + i, "ATTN ", 5))) {
		li->nccl = 2;
	} else {
		li->src = NULL;
		li->srclen = 0;
		return 0;
	}
	return i + 5;
}

/* "node01: host:pid:tid [0] NCCL ..." (pdsh, clush): only when an NCCL prefix follows */
static size_t pdsh_prefix(const char *s, size_t len, struct explain_line_info *li)
{
	size_t i = 0, off;

	while (i < len && i < 64 && (isalnum((unsigned char)s[i]) || strchr("._-", s[i])))
		i++;
	if (i && i + 2 < len && s[i] == ':' && s[i + 1] == ' ' && (off = nccl_prefix(s + i + 2, len - i - 2, li)))
		return i + 2 + off;
	return 0;
}

/*
 * Prefixes NCCL's own parser does not know: OpenMPI's "[1,3]<stdout>:" tag, Ray's "(Worker
 * pid=12, ip=10.0.0.2) ", pdsh's "node01: ", and levels without a host (pasted or old logs).
 */
static size_t loose_prefix(const char *s, size_t len, struct explain_line_info *li)
{
	size_t i = 0, off;

	if (len > 8 && s[0] == '[') {		/* [1,3]<stdout>: */
		const char *gt = memchr(s, '>', len < 24 ? len : 24);
		const char *comma = memchr(s, ',', len < 12 ? len : 12);
		if (gt && comma && (size_t)(gt - s) + 1 < len && gt[1] == ':' && xt_digit(comma[1])) {
			long v = 0;
			for (const char *q = comma + 1; xt_digit(*q) && v < 10000000; q++)
				v = v * 10 + (*q - '0');
			if (li->prefix_rank < 0)
				li->prefix_rank = (int)v;
			i = (size_t)(gt - s) + 2;
		}
	} else if (len > 8 && s[0] == '(') {	/* (RayWorkerWrapper pid=1978, ip=10.41.0.8) */
		const char *rp = memchr(s, ')', len < 96 ? len : 96);
		if (rp && xt_find(s, rp, " pid=") && (size_t)(rp - s) + 1 < len && rp[1] == ' ')
			i = (size_t)(rp - s) + 2;
	}
	if (i) {
		if ((off = nccl_prefix(s + i, len - i, li)) || (off = pdsh_prefix(s + i, len - i, li)) ||
		    (off = bare_level(s + i, len - i, li, 0)))
			return i + off;
		return i;
	}
	if ((off = pdsh_prefix(s, len, li)))
		return off;
	return bare_level(s, len, li, 0);
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
	if (!off)
		off = loose_prefix(s, len, li);
	li->body = s + off;
	li->blen = len - off;
}

/* JSON string body at s (after the opening quote) into out; stops at the closing quote. */
static size_t json_unescape(const char *s, size_t len, char *out)
{
	size_t w = 0, i = 0;

	while (i < len && s[i] != '"') {
		unsigned v = 0;
		int k;
		if (s[i] != '\\' || i + 1 >= len) {
			out[w++] = s[i++];
			continue;
		}
		switch (s[i + 1]) {
		case 'n': out[w++] = '\n'; i += 2; continue;
		case 't': out[w++] = '\t'; i += 2; continue;
		case 'r': out[w++] = '\r'; i += 2; continue;
		case 'b': case 'f': out[w++] = ' '; i += 2; continue;
		case 'u': break;
		default: out[w++] = s[i + 1]; i += 2; continue;	/* \" \\ \/ */
		}
		for (k = 2; k < 6 && i + (size_t)k < len && isxdigit((unsigned char)s[i + k]); k++)
			v = v * 16 + (unsigned)(isdigit((unsigned char)s[i + k]) ? s[i + k] - '0' :
						 (tolower((unsigned char)s[i + k]) - 'a' + 10));
		if (k < 6) {	/* a cut escape: keep it as it was */
			out[w++] = s[i++];
			continue;
		}
		i += 6;
		/* six bytes in, at most three out: the line never grows */
		if (v < 0x80) {
			out[w++] = (char)v;
		} else if (v < 0x800) {
			out[w++] = (char)(0xc0 | (v >> 6));
			out[w++] = (char)(0x80 | (v & 0x3f));
		} else {
			out[w++] = (char)(0xe0 | (v >> 12));
			out[w++] = (char)(0x80 | ((v >> 6) & 0x3f));
			out[w++] = (char)(0x80 | (v & 0x3f));
		}
	}
	while (w && (out[w - 1] == '\n' || out[w - 1] == '\r'))
		w--;
	return w;
}

/* HTML entities a browser copy leaves, and curly quotes, in one pass; in may equal out. */
static size_t web_unescape(const char *s, size_t len, char *out)
{
	static const struct { const char *ent; char c; } ents[] = {
		{ .ent = "&gt;", .c = '>' }, { .ent = "&lt;", .c = '<' }, { .ent = "&amp;", .c = '&' },
		{ .ent = "&quot;", .c = '"' }, { .ent = "&#39;", .c = '\'' }, { .ent = "&#x27;", .c = '\'' },
		{ .ent = "&apos;", .c = '\'' }, { .ent = "&nbsp;", .c = ' ' }, { .ent = "&#34;", .c = '"' },
	};
	size_t w = 0, i = 0;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		if (c == '&') {
			size_t k;
			for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++) {
				size_t n = strlen(ents[k].ent);
				if (len - i >= n && !memcmp(s + i, ents[k].ent, n))
					break;
			}
			if (k < sizeof(ents) / sizeof(ents[0])) {
				out[w++] = ents[k].c;
				i += strlen(ents[k].ent);
				continue;
			}
		} else if (c == 0xe2 && i + 2 < len && (unsigned char)s[i + 1] == 0x80) {
			unsigned char d = (unsigned char)s[i + 2];	/* U+2018..U+201D */
			if (d >= 0x98 && d <= 0x9d && d != 0x9a && d != 0x9b) {
				out[w++] = d >= 0x9c ? '"' : '\'';
				i += 3;
				continue;
			}
		}
		out[w++] = s[i++];
	}
	return w;
}

static int is_host_char(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '-' || c == '_';
}

/* "2024-05-01T10:00:00.123Z node-3 " (the host only when it looks like one); 0 if none. */
static size_t iso_prefix(const char *p, size_t len)
{
	size_t i = 19, h;
	int digit = 0;

	if (len < 21 || !xt_digit(p[0]) || !xt_digit(p[3]) || p[4] != '-' || p[7] != '-' ||
	    p[10] != 'T' || p[13] != ':' || p[16] != ':' || !xt_digit(p[18]))
		return 0;
	while (i < len && i < 40 && (xt_digit(p[i]) || strchr(".,:+-Z", p[i])))
		i++;
	if (i >= len || p[i] != ' ')
		return 0;
	h = ++i;
	for (; i < len && i - h < 64 && is_host_char(p[i]); i++)
		digit |= xt_digit(p[i]) || p[i] == '-' || p[i] == '.';
	/* "node-3 " is a host; "NCCL " or "Traceback" is the message */
	if (i > h && digit && i < len && p[i] == ' ')
		return i + 1;
	return h;
}

/* journald/syslog "May 01 10:00:00 node-3 python[1234]: "; 0 if none. */
static size_t syslog_prefix(const char *p, size_t len)
{
	size_t i = 4;

	if (len < 20 || !isupper((unsigned char)p[0]) || !islower((unsigned char)p[1]) ||
	    !islower((unsigned char)p[2]) || p[3] != ' ')
		return 0;
	if (p[i] == ' ')
		i++;
	while (i < len && i < 7 && xt_digit(p[i]))
		i++;
	if (i + 9 >= len || p[i] != ' ' || !xt_digit(p[i + 1]) || p[i + 3] != ':' || p[i + 6] != ':' ||
	    p[i + 9] != ' ')
		return 0;
	i += 10;
	while (i < len && i < 96 && is_host_char(p[i]))
		i++;
	if (i >= len || p[i] != ' ')
		return 0;
	for (size_t t = ++i; i < len && i - t < 64 && p[i] != ' '; i++) {
		if (p[i] == ':' && i + 1 < len && p[i + 1] == ' ')
			return i > t ? i + 2 : 0;
	}
	return 0;
}

const char *explain_decode(const char *s, size_t len, char *buf, size_t *olen)
{
	if (len > EXPLAIN_MAX_LINE)
		len = EXPLAIN_MAX_LINE;
	if (len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		s += 3, len -= 3;
	if (len > 9 && s[0] == '{') {	/* docker json-file: {"log":"...","stream":"stderr",...} */
		const char *q = s + 1;
		while (q < s + len && *q == ' ')
			q++;
		if ((size_t)(s + len - q) > 7 && !memcmp(q, "\"log\":", 6)) {
			q += 6;
			while (q < s + len && *q == ' ')
				q++;
			if (q < s + len && *q == '"') {
				q++;
				len = json_unescape(q, (size_t)(s + len - q), buf);
				s = buf;
			}
		}
	}
	if (memchr(s, '&', len) || memchr(s, 0xe2, len)) {
		len = web_unescape(s, len, buf);
		s = buf;
	}
	/* stacked wrappers ("> 2024-...Z node-3 [pod/x/y] ..."): peel a few */
	for (int k = 0; k < 4 && len; k++) {
		size_t off = 0;
		if (s[0] == '>') {
			off = 1;
			while (off < len && off < 16 && (s[off] == '>' || s[off] == ' '))
				off++;
		} else if (len > 8 && s[0] == '[' && !memcmp(s, "[pod/", 5)) {
			const char *rb = memchr(s, ']', len < 256 ? len : 256);
			if (rb && (size_t)(rb - s) + 1 < len && rb[1] == ' ')
				off = (size_t)(rb - s) + 2;
		} else if (xt_digit(s[0])) {
			off = iso_prefix(s, len);
		} else if (isupper((unsigned char)s[0])) {
			off = syslog_prefix(s, len);
		}
		if (!off)
			break;
		s += off;
		len -= off;
	}
	*olen = len;
	return s;
}

size_t explain_escaped_piece(const char *s, size_t len, size_t *skip)
{
	const char *p = s, *end = s + len;

	*skip = 0;
	while ((p = memchr(p, '\\', (size_t)(end - p))) && p + 1 < end) {
		if (p[1] == 'n') {
			*skip = 2;
			return (size_t)(p - s);
		}
		p += 2;		/* "\\\\" is one backslash: its second half starts nothing */
	}
	return len;
}
