/* err: see err.h. */
#include "util/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int err_set(struct err *e, enum err_code code, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int err_sys(struct err *e, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	size_t n;

	if (!e)
		return -1;
	e->code = ERR_SYS;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	n = strlen(e->msg);
	snprintf(e->msg + n, sizeof(e->msg) - n, ": %s", strerror(saved));
	errno = saved;
	return -1;
}

int err_prefix(struct err *e, const char *fmt, ...)
{
	char old[ERR_MSG_LEN];
	size_t n;
	va_list ap;

	if (!e)
		return -1;
	memcpy(old, e->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	n = strlen(e->msg);
	if (n + 2 < sizeof(e->msg)) {
		memcpy(e->msg + n, ": ", 3);
		n += 2;
		memcpy(e->msg + n, old, strnlen(old, sizeof(e->msg) - n - 1));
		e->msg[n + strnlen(old, sizeof(e->msg) - n - 1)] = '\0';
	}
	if (e->code == ERR_NONE)
		e->code = ERR_INTERNAL;
	return -1;
}

void err_clear(struct err *e)
{
	if (e) {
		e->code = ERR_NONE;
		e->msg[0] = '\0';
	}
}
