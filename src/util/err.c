/* err: see err.h. */
#include "util/err.h"

#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/i18n.h"

/*
 * The system's words for the errors a network and file check meets, as glibc writes them: they
 * are msgids, so a message that ends in one reads whole in the reader's language (util/i18n.h).
 * Others come from strerror() as they are.
 */
static const char *const errno_text[] = {
	[EPERM] = N_("Operation not permitted"),
	[ENOENT] = N_("No such file or directory"),
	[ESRCH] = N_("No such process"),
	[EINTR] = N_("Interrupted system call"),
	[EIO] = N_("Input/output error"),
	[EBADF] = N_("Bad file descriptor"),
	[EAGAIN] = N_("Resource temporarily unavailable"),
	[ENOMEM] = N_("Cannot allocate memory"),
	[EACCES] = N_("Permission denied"),
	[EEXIST] = N_("File exists"),
	[ENOTDIR] = N_("Not a directory"),
	[EISDIR] = N_("Is a directory"),
	[EINVAL] = N_("Invalid argument"),
	[EMFILE] = N_("Too many open files"),
	[ENOSPC] = N_("No space left on device"),
	[EROFS] = N_("Read-only file system"),
	[EPIPE] = N_("Broken pipe"),
	[ENAMETOOLONG] = N_("File name too long"),
	[ENOSYS] = N_("Function not implemented"),
	[EADDRINUSE] = N_("Address already in use"),
	[EADDRNOTAVAIL] = N_("Cannot assign requested address"),
	[ENETDOWN] = N_("Network is down"),
	[ENETUNREACH] = N_("Network is unreachable"),
	[ECONNABORTED] = N_("Software caused connection abort"),
	[ECONNRESET] = N_("Connection reset by peer"),
	[ENOTCONN] = N_("Transport endpoint is not connected"),
	[ETIMEDOUT] = N_("Connection timed out"),
	[ECONNREFUSED] = N_("Connection refused"),
	[EHOSTDOWN] = N_("Host is down"),
	[EHOSTUNREACH] = N_("No route to host"),
	[EMSGSIZE] = N_("Message too long"),
	[EPROTO] = N_("Protocol error"),
};

const char *err_errno_text(int errnum)
{
	if (errnum > 0 && (size_t)errnum < sizeof(errno_text) / sizeof(errno_text[0]) &&
	    errno_text[errnum])
		return errno_text[errnum];
	return strerror(errnum);
}

/* getaddrinfo()'s words, as glibc's gai_strerror() writes them: msgids as errno_text's are */
static const struct {
	int rc;
	const char *text;
} gai_text[] = {
	{ .rc = EAI_NONAME, .text = N_("Name or service not known") },
	{ .rc = EAI_AGAIN, .text = N_("Temporary failure in name resolution") },
	{ .rc = EAI_FAIL, .text = N_("Non-recoverable failure in name resolution") },
	{ .rc = EAI_FAMILY, .text = N_("ai_family not supported") },
	{ .rc = EAI_SERVICE, .text = N_("Servname not supported for ai_socktype") },
	{ .rc = EAI_MEMORY, .text = N_("Memory allocation failure") },
#ifdef EAI_NODATA
	{ .rc = EAI_NODATA, .text = N_("No address associated with hostname") },
#endif
};

const char *err_gai_text(int rc)
{
	for (size_t i = 0; i < sizeof(gai_text) / sizeof(gai_text[0]); i++)
		if (gai_text[i].rc == rc)
			return gai_text[i].text;
	return gai_strerror(rc);
}

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
	snprintf(e->msg + n, sizeof(e->msg) - n, ": %s", err_errno_text(saved));
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
