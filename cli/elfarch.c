// SPDX-License-Identifier: GPL-2.0
/*
 * probecc elf-arch --arch ARCH FILE...: whether each program runs under
 * the kernel of --arch, by the one rule a uprobe's file is held to
 * (facts/uelf.c, uelf_check_arch(): e_machine, class, byte order, MIPS
 * ABI flags).  For a front end that puts programs into an image
 * (qemu-images/run-probes --add) and would otherwise boot an x86-64
 * binary under mipsel, which busybox then runs as a shell script.
 *
 * Each FILE gets one line on stdout, "FILE: DESC" (what its header
 * says) or "FILE: not an ELF file" (a script or data: nothing to check);
 * a program that cannot run gets its reason on stderr.  Exit 0 when all
 * can run, 1 when one cannot, 2 on bad usage or an unreadable file.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common.h"
#include "uelf.h"

const char elfarch_usage[] =
"usage: probecc elf-arch --arch ARCH FILE...\n";

/* 1: @path starts with the ELF magic, 0: it does not, -errno: unreadable. */
static int is_elf(const char *path)
{
	char magic[4];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n < 0)
		return -EIO;
	return n == 4 && !memcmp(magic, "\177ELF", 4);
}

int elfarch_main(int argc, char **argv)
{
	const char *arch = NULL;
	int i = 1, rc = 0;

	if (argc > 2 && !strcmp(argv[1], "--arch")) {
		arch = argv[2];
		i = 3;
	}
	if (!arch || i >= argc) {
		fputs(elfarch_usage, stderr);
		return 2;
	}
	for (; i < argc; i++) {
		char desc[160];
		struct errmsg e;
		int elf = is_elf(argv[i]);

		if (elf < 0) {
			fprintf(stderr, "probecc: error: %s: %s\n", argv[i], strerror(-elf));
			return 2;
		}
		if (!elf) {
			printf("%s: not an ELF file\n", argv[i]);
			continue;
		}
		if (uelf_check_arch_desc(argv[i], arch, NULL, desc, sizeof(desc), &e)) {
			fprintf(stderr, "probecc: error: %s\n", e.msg);
			rc = 1;
			continue;
		}
		printf("%s: %s\n", argv[i], desc);
	}
	stdout_flush();
	return rc;
}
