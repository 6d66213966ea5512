// SPDX-License-Identifier: GPL-2.0
/*
 * debugfile: a stripped program's separate debug file under a sysroot,
 * by build-id, then by .gnu_debuglink (debugfile.h has the rule and its
 * source).  The build-id note and the link are read with libdw's
 * libdwelf; the CRC-32 is zlib's, the one .gnu_debuglink holds
 * (binutils' bfd_calc_gnu_debuglink_crc32 is the same polynomial).
 */
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "debugfile.h"
#include "elffile.h"
#include "sysroot.h"

int debugfile_build_id(Elf *elf, char *hex)
{
	const unsigned char *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, (const void **)&id);
	int i;

	hex[0] = '\0';
	if (n <= 0)
		return 0;
	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	return (int)n;
}

/*
 * The zlib CRC-32 of the whole file @path into *@crc.  0, or -errno
 * when it cannot be opened or read.
 */
static int file_crc(const char *path, GElf_Word *crc)
{
	unsigned char buf[65536];
	uLong c = crc32(0, NULL, 0);
	ssize_t n = 0;
	long long left;
	int fd = regular_open(path, &left);

	if (fd < 0)
		return fd;
	/* no more than its size: a file that grows is not read forever */
	while (left > 0 &&
	       (n = read(fd, buf, left < (long long)sizeof(buf) ? (size_t)left : sizeof(buf))) > 0) {
		c = crc32(c, buf, (uInt)n);
		left -= n;
	}
	if (n < 0)
		n = -errno;
	close(fd);
	*crc = (GElf_Word)c;
	return n < 0 ? (int)n : 0;
}

/*
 * Whether candidate @cand's build-id is @want (hex, "" when the program
 * has none: nothing to compare).  false with the reason added to
 * @looked.  A candidate that is no ELF file is not it either.
 */
static bool id_matches(const char *cand, const char *want, bool need,
		       struct strbuf *looked)
{
	char have[2 * 64 + 1];
	struct elf_file f;
	struct errmsg e;

	if (elf_file_open(&f, cand, &e)) {
		sb_addf(looked, "%s: %s; ", cand, e.msg);
		return false;
	}
	debugfile_build_id(f.elf, have);
	elf_file_close(&f);
	if (!*want || (!need && !*have) || !strcmp(have, want))
		return true;
	sb_addf(looked, "%s: build-id %s, not the program's %s; ", cand,
		*have ? have : "none", want);
	return false;
}

/*
 * The host path of the target's @path under @sysroot (sysroot.h), or
 * NULL with why added to @looked (when not NULL).
 */
static char *in_root(const char *sysroot, const char *path, struct strbuf *looked)
{
	struct errmsg e;
	char *host = sysroot_path(sysroot, path, &e);

	if (!host && looked)
		sb_addf(looked, "%s; ", e.msg);
	return host;
}

int debugfile_find(Elf *elf, const char *sysroot, const char *path,
		   struct debugfile *df)
{
	struct strbuf looked = { 0 };
	char id[2 * 64 + 1], *dir, *self, *cand = NULL;
	const char *link, *slash;
	GElf_Word want_crc, crc;
	int i, err;

	memset(df, 0, sizeof(*df));
	self = in_root(sysroot, path, NULL);
	if (debugfile_build_id(elf, id)) {
		char *rel = xasprintf("/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2);

		cand = in_root(sysroot, rel, &looked);
		free(rel);
		if (cand && id_matches(cand, id, true, &looked))
			df->how = "build-id";
		if (!df->how) {
			free(cand);
			cand = NULL;
		}
	}
	link = df->how ? NULL : dwelf_elf_gnu_debuglink(elf, &want_crc);
	if (link && strchr(link, '/')) {
		sb_addf(&looked, ".gnu_debuglink \"%s\" is not a file name; ", link);
		link = NULL;
	}
	slash = strrchr(path, '/');
	dir = xstrndup(path, slash ? (size_t)(slash - path) : 0);
	for (i = 0; link && i < 3 && !df->how; i++) {
		char *rel = i == 0 ? xasprintf("%s/%s", dir, link) :
			    i == 1 ? xasprintf("%s/.debug/%s", dir, link) :
				     xasprintf("/usr/lib/debug%s/%s", dir, link);

		cand = in_root(sysroot, rel, &looked);
		free(rel);
		if (!cand)
			;	/* said in looked */
		else if (self && !strcmp(cand, self))
			;	/* "chain.debug" beside itself: not this one */
		else if ((err = file_crc(cand, &crc)))
			sb_addf(&looked, "%s: %s; ", cand, strerror(-err));
		else if (crc != want_crc)
			sb_addf(&looked, "%s: CRC-32 0x%08x, not the .gnu_debuglink's 0x%08x; ",
				cand, (unsigned)crc, (unsigned)want_crc);
		else if (id_matches(cand, id, false, &looked))
			df->how = ".gnu_debuglink";
		if (!df->how) {
			free(cand);
			cand = NULL;
		}
	}
	if (!*id && !dwelf_elf_gnu_debuglink(elf, &want_crc))
		sb_addf(&looked, "%s%s has no build-id note and no .gnu_debuglink; ", sysroot, path);
	free(dir);
	free(self);
	if (looked.len >= 2)
		looked.s[looked.len -= 2] = '\0';	/* the last "; " */
	df->looked = looked.s ? looked.s : xstrdup("");
	df->path = cand;
	return cand ? 0 : -ENOENT;
}

int debugfile_find_path(const char *sysroot, const char *path,
			struct debugfile *df)
{
	struct errmsg e;
	char *name = sysroot_path(sysroot, path, &e);
	struct elf_file f;
	int ret;

	if (!name || elf_file_open(&f, name, &e)) {
		memset(df, 0, sizeof(*df));
		df->looked = xstrdup(e.msg);
		free(name);
		return -ENOEXEC;
	}
	ret = debugfile_find(f.elf, sysroot, path, df);
	elf_file_close(&f);
	free(name);
	return ret;
}

void debugfile_release(struct debugfile *df)
{
	free(df->path);
	free(df->looked);
	df->path = df->looked = NULL;
	df->how = NULL;
}
