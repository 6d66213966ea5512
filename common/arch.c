// SPDX-License-Identifier: GPL-2.0
/*
 * The arch table (arch.def) as C data.  ELF constants: <elf.h>.
 */
#include <elf.h>
#include <string.h>

#include "arch.h"
#include "common.h"

static const struct arch arches[] = {
#define ARCH(NAME, EM, CLASS, DATA, ABI, LONG, NARGS, ARGS, STACK1, REGS, SRC, CMDLINE, CC, PKGS, QEMU) \
	{ #NAME, EM, CLASS, DATA, ABI, CMDLINE },
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

const char *arch_names(void)
{
	return names + 2;
}

const struct arch *arch_at(unsigned int i)
{
	return i < ARRAY_SIZE(arches) ? &arches[i] : NULL;
}
