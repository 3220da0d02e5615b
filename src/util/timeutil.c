/* timeutil: see timeutil.h. */
#include "util/timeutil.h"

#include <stdio.h>
#include <time.h>

int64_t time_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t time_now_ms(void)
{
	return time_now_ns() / 1000000;
}

void time_iso8601(char *buf, unsigned len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
