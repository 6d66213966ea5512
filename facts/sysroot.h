/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysroot.h - a target's file under a sysroot (--sysroot DIR): the path
 * as the target names it (a perf-mmap line, a uprobe's PATH, a
 * DT_NEEDED, a .gnu_debuglink) resolved inside DIR only, as GDB's
 * sysroot does: an absolute symbolic link inside DIR points into DIR,
 * a ".." in the path is refused, and only a regular file is taken (a
 * FIFO or a device would block or never end).
 */
#ifndef PROBECC_SYSROOT_H
#define PROBECC_SYSROOT_H

#include "common.h"

/*
 * sysroot_path() - the host path of the target's @path (absolute, "/"
 * first) under @sysroot, as a new string the caller frees: @sysroot
 * followed by the path inside it that @path resolves to (symbolic links
 * followed inside @sysroot: openat2(2) RESOLVE_IN_ROOT).  NULL with the
 * reason in @e (naming @sysroot@path): a ".." component (refused), a
 * path that leaves @sysroot, not a regular file, or open(2)'s errno.
 */
char *sysroot_path(const char *sysroot, const char *path, struct errmsg *e);

#endif
