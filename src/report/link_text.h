/* Link results as short lines for people (the JSON is the full record). */
#ifndef NCCLCHECK_REPORT_LINK_TEXT_H
#define NCCLCHECK_REPORT_LINK_TEXT_H

#include "model/link.h"

struct strbuf;

/*
 * One or a few lines for people: "connect 10.10.0.10:41234 from 10.10.0.11: ok in 85 us, rtt
 * p50 31 us p99 80 us (100 pings)", "ports 32768-60999 of 10.10.0.10: 32768-49151 dropped,
 * 49152-60999 open (28232 ports in 2.1 s)", ... Appends to sb, no trailing newline.
 */
void link_result_text(const struct link_result *r, struct strbuf *sb);

#endif
