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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The bytes @p takes in the fragment, with the space before it unless @first. */
static size_t param_len(const struct cmdline_param *p, bool first)
{
	return (first ? 0 : 1) + strlen(p->param) + strlen(p->value);
}

/*
 * A note at each statement that takes room, its bytes of each
 * parameter, uses on one line merged (a function line of five names
 * is one statement).
 */
static void budget_notes(const struct cmdline_param *p, bool first,
			 struct diags *notes)
{
	const struct cmdline_use *u, *v;

	for (u = p->uses; u; u = v) {
		/* the first statement pays for the parameter's name too */
		size_t bytes = u->bytes + (u == p->uses ?
			param_len(p, first) - strlen(p->value) : 0);

		for (v = u->next; v && v->pos.src && u->pos.src &&
		     v->pos.line == u->pos.line; v = v->next)
			bytes += v->bytes;
		if (u->pos.src)
			diag_add(notes, &u->pos, "takes %zu byte%s of the fragment (%s)",
				 bytes, bytes == 1 ? "" : "s", p->param);
	}
}

int budget_check(const struct placement *pl, const struct target *t,
		 struct diags *d, struct diags *notes, struct diags *hints)
{
	const struct cmdline_param *p;
	struct strbuf why = { 0 };
	size_t len = cmdline_len(pl);
	bool kprobes_moved = false;

	char budget_from[80];

	if (len <= (size_t)t->cmdline_max)
		return 0;
	snprintf(budget_from, sizeof(budget_from),
		 "%s's COMMAND_LINE_SIZE %d less %d for the boot loader",
		 t->abi->arch, t->abi->cmdline_size, BOOT_LOADER_ROOM);
	for (p = pl->cmdline; p; p = p->next) {
		sb_addf(&why, "%s%s %zu", p == pl->cmdline ? "" : ", ",
			*p->param ? p->param : "?", param_len(p, p == pl->cmdline));
		budget_notes(p, p == pl->cmdline, notes);
	}
	for (const struct plan_line *l = pl->plan; l; l = l->next)
		kprobes_moved |= l->n >= 2 && !strcmp(l->kind, "arm") &&
				 !strcmp(l->f[1], "kprobe_events");
	diag_add(d, NULL, "the command-line fragment needs %zu bytes, over the budget of %d (%s): %s%s",
		 len, t->cmdline_max,
		 t->cmdline_max_from ? t->cmdline_max_from : budget_from,
		 why.s, kprobes_moved ? "; every kprobe is already left to the agent" : "");
	/* what can help on this target, and only that */
	diag_add(hints, NULL, "shorten the lists (a glob such as bond_* is one entry, but the agent cannot verify it by name), or drop what another part already gives");
	if (t->via == VIA_CMDLINE && kernel_at_least(t, 5, 6) && t->boot_config == 1)
		diag_add(hints, NULL, "the kernel has CONFIG_BOOT_CONFIG: -o FILE puts the setup into bootconfig instead");
	else if (t->via == VIA_CMDLINE && kernel_at_least(t, 5, 6) && t->boot_config < 0)
		diag_add(hints, NULL, "whether this kernel has CONFIG_BOOT_CONFIG is not known (no kernel config was given: --kconfig FILE); with it, -o FILE puts the setup into bootconfig");
	if (!t->cmdline_max_from || !strcmp(t->cmdline_max_from, "--cmdline-max"))
		diag_add(hints, NULL, "a boot loader whose own parameters take less than the room left for them: a larger --cmdline-max");
	free(why.s);
	return 1;
}
