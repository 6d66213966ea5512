// SPDX-License-Identifier: GPL-2.0
/*
 * uelf-test: a driver for facts/uelf.c (tests/uelf.test.sh).
 *
 *   uelf-test FILE SYMBOL[+OFF]   prints the file offset as 0xHEX
 *   uelf-test --check FILE OFFSET prints OFFSET as 0xHEX when it is good
 *   uelf-test --arch ARCH FILE    prints FILE's user ABI (o32, n64...) when
 *                                 it runs under --arch ARCH
 *   uelf-test --abi FILE SYMBOL   prints the file offset and the ABI that
 *                                 uelf_resolve_sym() reports
 *   uelf-test --sdt FILE PROVIDER:NAME
 *                                 prints every site as 0xHEX, or as
 *                                 0xHEX(0xSEMAPHORE) when it has one
 *
 * On failure prints "error: REASON" on stdout and exits 1; a note from
 * uelf_resolve_sym() goes to stderr as "note: ...".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uelf.h"

static int usage(void)
{
	fputs("usage: uelf-test FILE SYMBOL[+OFF] | uelf-test --check FILE OFFSET\n"
	      "       uelf-test --sdt FILE PROVIDER:NAME | uelf-test --arch ARCH FILE\n"
	      "       uelf-test --abi FILE SYMBOL\n", stderr);
	return 2;
}

static int parse_num(const char *s, unsigned long long *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

static int sdt(const char *path, char *probe)
{
	struct errmsg err;
	char *colon = strchr(probe, ':');
	struct uelf_sdt site;
	unsigned int i = 0;

	if (!colon)
		return usage();
	*colon = '\0';
	do {
		if (uelf_resolve_sdt(path, probe, colon + 1, i, &site, &err)) {
			printf("error: %s\n", err.msg);
			return 1;
		}
		if (site.sem_addr)
			printf("0x%llx(0x%llx)\n", site.foff, site.sem_foff);
		else
			printf("0x%llx\n", site.foff);
	} while (++i < site.nsites);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long off = 0, foff;
	struct uelf_sym sym;
	struct errmsg err;
	char *plus;

	if (argc == 4 && !strcmp(argv[1], "--check")) {
		if (parse_num(argv[3], &off))
			return usage();
		if (uelf_check_offset(argv[2], off, &err)) {
			printf("error: %s\n", err.msg);
			return 1;
		}
		printf("0x%llx\n", off);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--arch")) {
		const char *abi;

		if (uelf_check_arch(argv[3], argv[2], &abi, &err)) {
			printf("error: %s\n", err.msg);
			return 1;
		}
		printf("%s\n", abi);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--abi")) {
		if (uelf_resolve_sym(argv[2], argv[3], 0, &sym, &err)) {
			printf("error: %s\n", err.msg);
			return 1;
		}
		printf("0x%llx %s\n", sym.foff, sym.abi ? sym.abi : "(none)");
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--sdt"))
		return sdt(argv[2], argv[3]);
	if (argc != 3)
		return usage();
	plus = strchr(argv[2], '+');
	if (plus) {
		*plus = '\0';
		if (parse_num(plus + 1, &off))
			return usage();
	}
	if (uelf_resolve_sym(argv[1], argv[2], off, &sym, &err)) {
		printf("error: %s\n", err.msg);
		return 1;
	}
	/* the plain API must agree with the detailed one */
	if (uelf_resolve(argv[1], argv[2], off, &foff, &err) || foff != sym.foff) {
		printf("error: uelf_resolve disagrees with uelf_resolve_sym\n");
		return 1;
	}
	if (sym.note[0])
		fprintf(stderr, "note: %s\n", sym.note);
	printf("0x%llx\n", sym.foff);
	return 0;
}
