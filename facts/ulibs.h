/* SPDX-License-Identifier: GPL-2.0 */
/*
 * facts/ulibs.c: the shared libraries a dynamic program loads, found
 * under a sysroot as the dynamic loader finds them (ld.so(8), "Rpath
 * token expansion" and the search order): each DT_NEEDED name with a
 * '/' as it is; otherwise DT_RPATH (when there is no DT_RUNPATH), then
 * DT_RUNPATH ($ORIGIN: the needing object's directory), then the
 * default directories: Debian's multiarch /lib/TRIPLET and
 * /usr/lib/TRIPLET, /lib, /usr/lib and the lib64/lib32 variants.  A
 * candidate of another machine, class or byte order is skipped, as
 * ld.so skips it.  /etc/ld.so.cache and ld.so.conf are not read.
 */
#ifndef PROBECC_ULIBS_H
#define PROBECC_ULIBS_H

#include "common.h"

/* One library: its DT_NEEDED name and where it was found. */
struct ulib {
	char *name;	/* as DT_NEEDED says ("libc.so.6"), malloc'd */
	char *path;	/* its path on the target ("/lib/libc.so.6"), malloc'd; NULL: not found */
};

/* At most this many libraries are followed (a loop of DT_NEEDED ends here). */
#define ULIBS_MAX 256

/*
 * ulibs_find() - the libraries the program @sysroot@path needs, its
 * own DT_NEEDED first, then theirs, breadth first, each name once.
 * Returns how many (0 for a static program), the array in *@out
 * (malloc'd, the caller's: ulibs_free()), or -1 with @e when the
 * program cannot be read as ELF.  A library's unreadable .dynamic ends
 * the walk below it, nothing more.
 */
int ulibs_find(const char *sysroot, const char *path, struct ulib **out,
	       struct errmsg *e);

void ulibs_free(struct ulib *l, int n);

#endif
