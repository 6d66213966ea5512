// SPDX-License-Identifier: GPL-2.0
/*
 * The arch table (arch.def) as C data.  ELF constants: <elf.h>.
 */
#include <elf.h>
#include <string.h>

#include "arch.h"
#include "common.h"

static const struct arch arches[] = {
#define ARCH(NAME, EM, CLASS, DATA, ABI, LONG, NARGS, ARGS, STACK1, REGS, SRC, CMDLINE, CC, PKGS, QEMU, \
	     DWARF, DWARF_SP, ENTRY_CFA, PERF_PC, PERF_SP, CLOCKS, ARG_ACCESS, USTACKS, URET, KSTACK_PERF, \
	     FTRACE_ENTRY, KPROBE_NMI, ALIASES, PREFIXES) \
	{ #NAME, EM, CLASS, DATA, ABI, CMDLINE, LONG, DWARF_SP, ENTRY_CFA, PERF_PC, PERF_SP },
#include "arch.def"
#undef ARCH
};

/* "mips, mipsel, ..." as one literal, the leading ", " skipped */
static const char names[] = ""
#define ARCH(NAME, ...) ", " #NAME
#include "arch.def"
#undef ARCH
	;

const struct arch *arch_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

const struct arch *arch_by_elf(unsigned int elf_machine, unsigned char elf_class,
			       unsigned char elf_data)
{
	const struct arch *same = NULL;
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++) {
		const struct arch *a = &arches[i];

		if (a->elf_machine != elf_machine ||
		    (elf_class != ELFCLASSNONE && a->elf_class != elf_class))
			continue;
		if (elf_data == ELFDATANONE || a->elf_data == elf_data)
			return a;
		same = a;
		n++;
	}
	return n == 1 ? same : NULL;
}

const char *arch_names(void)
{
	return names + 2;
}

const struct arch *arch_at(unsigned int i)
{
	return i < ARRAY_SIZE(arches) ? &arches[i] : NULL;
}
