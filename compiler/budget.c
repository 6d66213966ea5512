// SPDX-License-Identifier: GPL-2.0
/*
 * The command-line budget: the one rule for how much of the kernel's
 * command line the fragment may take.
 *
 * The kernel keeps its whole command line in a buffer of the
 * architecture's COMMAND_LINE_SIZE (boot_command_line[], init/main.c;
 * the size from arch/ARCH/include/uapi/asm/setup.h or
 * include/uapi/asm-generic/setup.h: 4096 on MIPS, 2048 on x86 and
 * arm64; abi.c's cmdline_size) and truncates a longer one silently, so
 * what comes last would be lost.  The fragment shares that room with
 * the boot loader's own parameters: its budget is --cmdline-max,
 * COMMAND_LINE_SIZE - 512 unless given (docs/kernel-features.md).
 *
 * place() keeps kprobes on the command line while the fragment fits;
 * budget_check(), run on place()'s result, refuses a program whose
 * fragment is over the budget with no kprobe left on it (a function
 * list cannot move).  Neither check nor place owns the rule: both the
 * length (cmdline_len) and the limit live here.
 */
#include <string.h>

#include "compiler.h"

/* Room left for the boot loader's and the user's own parameters. */
#define BOOT_LOADER_ROOM	512

size_t cmdline_len(const struct placement *pl)
{
	const struct cmdline_param *p;
	size_t len = 0;

	for (p = pl->cmdline; p; p = p->next)
		len += (len ? 1 : 0) + strlen(p->param) + strlen(p->value);
	return len;
}

int budget_default(const struct abi *a)
{
	return a->cmdline_size - BOOT_LOADER_ROOM;
}

int budget_check(const struct placement *pl, const struct target *t,
		 struct diags *d)
{
	size_t len = cmdline_len(pl);

	if (len <= (size_t)t->cmdline_max)
		return 0;
	diag_add(d, NULL, "the command-line fragment needs %zu bytes, over the budget of %d (--cmdline-max); shorten the function lists or use bootconfig",
		 len, t->cmdline_max);
	return 1;
}
