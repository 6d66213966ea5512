// SPDX-License-Identifier: GPL-2.0
/*
 * decode-none.c: decode.c's interface in a probecc built with make
 * TRACEDAT=no, without libtraceevent, libtracecmd and libtracefs (hosts
 * that have none: Buildroot's host packages, Yocto's native sysroot).
 * Raw dumps cannot be decoded there; every call says so, and the report
 * has no hits of them (a raw dump never passes unread).
 */
#include "dumpread-local.h"

/* raw_decode() without libtraceevent: -1 with @e set (DR_UNSUPPORTED), no hits. */
int raw_decode(const struct rawset *rs, const struct page_layout *pl,
	       struct dump *d, struct dumpread_error *e)
{
	(void)rs;
	(void)pl;
	(void)d;
	return dr_error(e, DR_UNSUPPORTED, "raw dumps are decoded with libtraceevent, which this probecc was built without (make TRACEDAT=no)");
}
