/* Monotonic clock helpers. */
#ifndef NCCLCHECK_TIMEUTIL_H
#define NCCLCHECK_TIMEUTIL_H

#include <stdint.h>

/* Milliseconds / nanoseconds on CLOCK_MONOTONIC: for durations and deadlines only. */
int64_t time_now_ms(void);
int64_t time_now_ns(void);
/* UTC wall-clock time as ISO 8601 ("2026-11-29T17:00:00Z"). */
void time_iso8601(char *buf, unsigned len);

#endif
