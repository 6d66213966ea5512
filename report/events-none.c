// SPDX-License-Identifier: GPL-2.0
/*
 * events-none.c: events.c's interface in a probecc built with make
 * TRACEDAT=no, without libtracecmd, libtraceevent and libtracefs (hosts
 * that have none: Buildroot's host packages, Yocto's native sysroot).
 * Raw dumps cannot be decoded there; every call says so, and the report
 * has no hits of them (a raw dump never passes unread).
 */
#include <errno.h>

#include "report-int.h"

#define NO_TRACEDAT "raw dumps are decoded with libtracecmd and libtraceevent, which this probecc was built without (make TRACEDAT=no)"

/* events_read() without libtracecmd: -ENOTSUP with @e set, no hits. */
int events_read(struct report *r, const char *text, size_t len,
		struct errmsg *e)
{
	(void)r;
	(void)text;
	(void)len;
	return errmsg_set(e, -ENOTSUP, NO_TRACEDAT);
}

/* events_try() without libtracecmd: -ENOTSUP with @e set. */
int events_try(const char *dat, struct errmsg *e)
{
	(void)dat;
	return errmsg_set(e, -ENOTSUP, NO_TRACEDAT);
}
