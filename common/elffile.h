/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common/elffile.c: the one ELF opener (libelf), for the kernel's ELF
 * files (facts/vmlinux.c), user programs (facts/uelf.c) and DWARF
 * (facts/debuginfo.c).  Apart from common.h so that what does not read ELF
 * does not need <gelf.h>.
 */
#ifndef PROBECC_ELFFILE_H
#define PROBECC_ELFFILE_H

#include <gelf.h>

#include "common.h"

struct elf_file {
	const char *path;	/* as given, not copied */
	int fd;			/* -1 when closed */
	Elf *elf;
	GElf_Ehdr eh;
	char *mem;		/* an xz file's unpacked bytes (malloc'd), or NULL */
	size_t mem_len;		/* the ELF file's size in bytes */
};

/*
 * elf_file_open() - open @path read-only as an ELF file (ELF_K_ELF with
 * an ELF header).  Returns 0, or -errno with "cannot open PATH: REASON"
 * or -ENOEXEC with "PATH is not an ELF file" in @e; nothing stays open
 * on failure.  What is not a regular file is refused (-EINVAL), and so
 * is an ELF file cut short or damaged (-ENOEXEC, "PATH is truncated:
 * ..."): every program header, section header and section (but
 * SHT_NOBITS) within the file, symbol tables of whole Elf_Sym entries.
 * An xz file (a module NAME.ko.xz of MODULE_COMPRESS_XZ) is unpacked in
 * memory first (libarchive; at most 256 MB, else -EFBIG; a damaged one
 * -ENOEXEC).  elf_file_close() may be called on a closed file.
 */
int elf_file_open(struct elf_file *f, const char *path, struct errmsg *e);
void elf_file_close(struct elf_file *f);

#endif
