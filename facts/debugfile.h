/* SPDX-License-Identifier: GPL-2.0 */
/*
 * facts/debugfile.c: the separate debug file of a stripped program or
 * library under a sysroot, found as GDB finds it and Debian's -dbgsym
 * packages install it ("Separate Debug Files" in the GDB manual): by
 * its build-id note, then by its .gnu_debuglink name with the CRC-32
 * the link holds checked.  The one finder: the compiler reads symbols
 * through it (compiler/resolve.c), the report symbols and CFI
 * (facts/ustack.c).
 */
#ifndef PROBECC_DEBUGFILE_H
#define PROBECC_DEBUGFILE_H

#include <gelf.h>

#include "common.h"

/* What debugfile_find() found, and where it looked. */
struct debugfile {
	char *path;		/* the debug file (malloc'd), or NULL: none */
	const char *how;	/* "build-id" or ".gnu_debuglink" (static), NULL: none */
	char *looked;		/* where it looked and why each was not it (malloc'd, never NULL) */
};

/*
 * debugfile_find() - the separate debug file of the program @elf, whose
 * path on the target is @path (absolute: "/bin/chain") and on the host
 * @sysroot@path (@sysroot "" for the host's own files).  The places, in
 * GDB's order:
 *   by build-id:  SYSROOT/usr/lib/debug/.build-id/xx/rest.debug, its
 *                 own build-id note the same as the program's;
 *   by .gnu_debuglink NAME (a file name, no '/'): SYSROOT/DIR/NAME,
 *                 SYSROOT/DIR/.debug/NAME, SYSROOT/usr/lib/debug/DIR/NAME
 *                 (DIR: @path's directory), each with the zlib CRC-32 of
 *                 its whole contents equal to the link's, and its build-id
 *                 the program's when both have one.
 * Returns 0 with df->path and df->how, or -ENOENT with df->path NULL.
 * Either way df->looked says each place tried and why it was not taken
 * ("SYSROOT/usr/lib/debug/.build-id/ab/cd.debug: no such file", "...:
 * build-id 1234..., not the program's abcd..."), or that the program has
 * neither a build-id nor a .gnu_debuglink; the caller frees it with
 * debugfile_release().  The program itself is never its debug file.
 * Reads each candidate once (the CRC: every byte of it).
 */
int debugfile_find(Elf *elf, const char *sysroot, const char *path,
		   struct debugfile *df);

/*
 * debugfile_find_path() - debugfile_find() for the program @sysroot@path,
 * opened here (common/elffile.c) and closed again.  -ENOEXEC with
 * df->looked saying why when the program itself cannot be read.
 */
int debugfile_find_path(const char *sysroot, const char *path,
			struct debugfile *df);

/* Free what @df holds; @df may be released twice. */
void debugfile_release(struct debugfile *df);

/*
 * debugfile_build_id() - the build-id note of @elf (NT_GNU_BUILD_ID) as
 * lower-case hex into @hex (at least 2 * 64 + 1 bytes; longer ids are
 * cut at 64 bytes).  Returns its length in bytes, 0 when it has none.
 */
int debugfile_build_id(Elf *elf, char *hex);

#endif
