// SPDX-License-Identifier: GPL-2.0
/* The one ELF opener: a file descriptor and a libelf handle. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>

#include "elffile.h"

/* The largest ELF file unpacked from xz: the biggest module is ~20 MB. */
#define ELF_XZ_MAX	(256u << 20)

/* @off + @n * @each bytes, or UINT64_MAX when that wraps. */
static uint64_t table_end(uint64_t off, uint64_t n, uint64_t each)
{
	if (each && n > (UINT64_MAX - off) / each)
		return UINT64_MAX;
	return off + n * each;
}

/*
 * Everything libelf will be asked to read lies within the file and every
 * table divides into whole entries of the size its type has (the ELF
 * gABI, "Sections"): a file cut short or a header damaged is refused
 * here, once, instead of being taken for a stripped one by each reader.
 */
static int elf_file_check(struct elf_file *f, uint64_t fsize, struct errmsg *e)
{
	size_t shnum, phnum, shstrndx, i;
	uint64_t end;

	if (f->eh.e_phoff && f->eh.e_phnum && f->eh.e_phnum != PN_XNUM &&
	    table_end(f->eh.e_phoff, f->eh.e_phnum, f->eh.e_phentsize) > fsize)
		return errmsg_set(e, -ENOEXEC, "%s is truncated: its %u program headers end at byte %llu, the file has %llu",
				  f->path, f->eh.e_phnum,
				  (unsigned long long)table_end(f->eh.e_phoff, f->eh.e_phnum,
								f->eh.e_phentsize),
				  (unsigned long long)fsize);
	if (elf_getphdrnum(f->elf, &phnum))
		return errmsg_set(e, -ENOEXEC, "%s: damaged ELF header: %s",
				  f->path, elf_errmsg(-1));
	if (phnum) {
		if (f->eh.e_phentsize != gelf_fsize(f->elf, ELF_T_PHDR, 1, EV_CURRENT))
			return errmsg_set(e, -ENOEXEC, "%s: damaged ELF header: e_phentsize %u",
					  f->path, f->eh.e_phentsize);
		end = table_end(f->eh.e_phoff, phnum, f->eh.e_phentsize);
		if (end > fsize)
			return errmsg_set(e, -ENOEXEC, "%s is truncated: its %zu program headers end at byte %llu, the file has %llu",
					  f->path, phnum, (unsigned long long)end,
					  (unsigned long long)fsize);
	}
	/*
	 * The header's own count first: libelf says 0 sections when their
	 * headers are past the end, which would read as a stripped file.
	 * e_shnum 0 with an e_shoff means the count is section 0's sh_size
	 * (gABI, "Extended section numbering"), which libelf reads.
	 */
	if (f->eh.e_shoff && f->eh.e_shnum) {
		end = table_end(f->eh.e_shoff, f->eh.e_shnum, f->eh.e_shentsize);
		if (end > fsize)
			return errmsg_set(e, -ENOEXEC, "%s is truncated: its %u section headers end at byte %llu, the file has %llu",
					  f->path, f->eh.e_shnum, (unsigned long long)end,
					  (unsigned long long)fsize);
	} else if (f->eh.e_shoff && table_end(f->eh.e_shoff, 1, f->eh.e_shentsize) > fsize) {
		return errmsg_set(e, -ENOEXEC, "%s is truncated: its section headers start at byte %llu, the file has %llu",
				  f->path, (unsigned long long)f->eh.e_shoff,
				  (unsigned long long)fsize);
	}
	if (elf_getshdrnum(f->elf, &shnum))
		return errmsg_set(e, -ENOEXEC, "%s is truncated or damaged: %s",
				  f->path, elf_errmsg(-1));
	if (!shnum)
		return 0;
	if (f->eh.e_shentsize != gelf_fsize(f->elf, ELF_T_SHDR, 1, EV_CURRENT))
		return errmsg_set(e, -ENOEXEC, "%s: damaged ELF header: e_shentsize %u",
				  f->path, f->eh.e_shentsize);
	end = table_end(f->eh.e_shoff, shnum, f->eh.e_shentsize);
	if (end > fsize)
		return errmsg_set(e, -ENOEXEC, "%s is truncated: its %zu section headers end at byte %llu, the file has %llu",
				  f->path, shnum, (unsigned long long)end,
				  (unsigned long long)fsize);
	if (elf_getshdrstrndx(f->elf, &shstrndx))
		shstrndx = 0;
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(f->elf, i);
		const char *name = NULL;
		size_t ent = 0;
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh))
			return errmsg_set(e, -ENOEXEC, "%s: section %zu is unreadable: %s",
					  f->path, i, elf_errmsg(-1));
		if (shstrndx && shstrndx < shnum)
			name = elf_strptr(f->elf, shstrndx, sh.sh_name);
		if (!name)
			name = "?";
		end = sh.sh_offset + sh.sh_size;
		if (sh.sh_type != SHT_NOBITS &&
		    (end < sh.sh_offset || end > fsize))
			return errmsg_set(e, -ENOEXEC, "%s is truncated: section %zu (%s) ends at byte %llu, the file has %llu",
					  f->path, i, name,
					  end < sh.sh_offset ? ~0ULL : (unsigned long long)end,
					  (unsigned long long)fsize);
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			ent = gelf_fsize(f->elf, ELF_T_SYM, 1, EV_CURRENT);
		if (ent && (sh.sh_entsize != ent || sh.sh_size % ent ||
			    sh.sh_link == 0 || sh.sh_link >= shnum))
			return errmsg_set(e, -ENOEXEC, "%s: damaged symbol table: section %zu (%s) has entries of %llu bytes (want %zu), %llu bytes in all, strings in section %u",
					  f->path, i, name,
					  (unsigned long long)sh.sh_entsize, ent,
					  (unsigned long long)sh.sh_size, sh.sh_link);
	}
	return 0;
}

/* Whether @fd's file starts with the xz magic (FD '7zXZ' 00; xz-file-format.txt). */
static bool is_xz(int fd)
{
	static const unsigned char magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	unsigned char b[6];

	return pread(fd, b, sizeof(b), 0) == (ssize_t)sizeof(b) &&
	       !memcmp(b, magic, sizeof(b));
}

/*
 * read_xz() - unpack @f's xz file (a module of MODULE_COMPRESS_XZ, as
 * Debian's 6.12 has them: NAME.ko.xz) into f->mem, f->mem_len, through
 * libarchive's raw format and xz filter.  At most ELF_XZ_MAX bytes.  The
 * buffer starts at 4 times the @packed bytes of the file (a module packs
 * about 3:1; at least 64 KiB) and doubles: it was 1 MiB for any module,
 * a 12 KB one too (a quarter of fuzz-modules' time in mmap and page
 * faults).  Returns 0, or -ENOEXEC / -EFBIG with the reason in @e.
 */
static int read_xz(struct elf_file *f, size_t packed, struct errmsg *e)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ent;
	size_t cap = packed < ELF_XZ_MAX / 4 ? packed * 4 : ELF_XZ_MAX;
	unsigned char *mem;
	int rc = 0;

	if (!a)
		return errmsg_set(e, -ENOMEM, "%s: libarchive: out of memory", f->path);
	archive_read_support_filter_xz(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_fd(a, f->fd, 64 << 10) != ARCHIVE_OK ||
	    archive_read_next_header(a, &ent) != ARCHIVE_OK) {
		rc = errmsg_set(e, -ENOEXEC, "%s: cannot unpack its xz: %s",
				f->path, archive_error_string(a));
		goto out;
	}
	rc = unpack_whole(a, cap, ELF_XZ_MAX, &mem, &f->mem_len);
	if (rc == -EFBIG)
		errmsg_set(e, rc, "%s: more than %u bytes once unpacked", f->path, ELF_XZ_MAX);
	else if (rc)
		errmsg_set(e, rc, "%s: cannot unpack its xz: %s", f->path,
			   archive_error_string(a));
	else
		f->mem = (char *)mem;
out:
	archive_read_free(a);
	return rc;
}

int elf_file_open(struct elf_file *f, const char *path, struct errmsg *e)
{
	struct stat st;
	int rc;

	memset(f, 0, sizeof(*f));
	f->path = path;
	f->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return errmsg_set(e, -ENOSYS, "libelf: %s", elf_errmsg(-1));
	/* not blocking: a FIFO named like a module must not hang the open */
	f->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return errmsg_set(e, -errno, "cannot open %s: %s", path,
				  strerror(errno));
	if (fstat(f->fd, &st) || !S_ISREG(st.st_mode)) {
		elf_file_close(f);
		return errmsg_set(e, -EINVAL, "%s is not a regular file", path);
	}
	fcntl(f->fd, F_SETFL, fcntl(f->fd, F_GETFL) & ~O_NONBLOCK);
	if (is_xz(f->fd)) {
		rc = read_xz(f, (size_t)st.st_size, e);
		if (rc) {
			elf_file_close(f);
			return rc;
		}
		f->elf = elf_memory(f->mem, f->mem_len);
	} else {
		f->mem_len = (size_t)st.st_size;
		f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	}
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF ||
	    !gelf_getehdr(f->elf, &f->eh)) {
		elf_file_close(f);
		return errmsg_set(e, -ENOEXEC, "%s is not an ELF file", path);
	}
	rc = elf_file_check(f, (uint64_t)f->mem_len, e);
	if (rc)
		elf_file_close(f);
	return rc;
}

void elf_file_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f->mem);
	f->mem = NULL;
	f->mem_len = 0;
	f->elf = NULL;
	f->fd = -1;
}
