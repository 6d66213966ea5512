// SPDX-License-Identifier: GPL-2.0
/* The one ELF opener: a file descriptor and a libelf handle. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "elffile.h"

int elf_file_open(struct elf_file *f, const char *path, struct errmsg *e)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return errmsg_set(e, -ENOSYS, "libelf: %s", elf_errmsg(-1));
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return errmsg_set(e, -errno, "cannot open %s: %s", path,
				  strerror(errno));
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF ||
	    !gelf_getehdr(f->elf, &f->eh)) {
		elf_file_close(f);
		return errmsg_set(e, -ENOEXEC, "%s is not an ELF file", path);
	}
	return 0;
}

void elf_file_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->elf = NULL;
	f->fd = -1;
}
