// SPDX-License-Identifier: GPL-2.0
/*
 * Emission: a placement (place.c) written out as the texts a boot
 * needs, byte for byte what the kernel, the boot loader and the agent
 * read:
 *   - the command-line fragment: parameters, one space between them
 *     (its length, for the budget, is budget.c's cmdline_len());
 *   - the bootconfig file: a comment line, then lib/bootconfig.c's
 *     syntax (bootconfig/bc_write.c);
 *   - the agent's plan: docs/plan.md, tab-separated lines;
 *   - the --explain text: one note a line.
 * Nothing here decides anything or fails on a placement, except for
 * writing the bootconfig into memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "compiler.h"

char *emit_cmdline(const struct placement *pl)
{
	const struct cmdline_param *p;
	struct strbuf sb = { 0 };

	for (p = pl->cmdline; p; p = p->next)
		sb_addf(&sb, "%s%s%s", sb.len ? " " : "", p->param, p->value);
	return sb.s ? sb.s : xstrdup("");
}

int emit_bootconfig(const struct placement *pl, char **text, size_t *len,
		    struct errmsg *e)
{
	FILE *mem = open_memstream(text, len);
	int err;

	if (!mem)
		return errmsg_set(e, -ENOMEM, "out of memory");
	fputs("# bootconfig compiled by probecc\n", mem);
	err = bc_write(pl->bootconfig, mem);
	if (fclose(mem) || err) {
		free(*text);
		*text = NULL;
		return errmsg_set(e, -EIO, "cannot write the bootconfig: %s",
				  bc_strerror(err ? err : BC_ERR_IO));
	}
	return 0;
}

char *emit_plan(const struct program *prog, const struct target *t,
		const struct placement *pl, size_t *len)
{
	struct strbuf sb = { 0 };
	const struct plan_line *l;
	const struct name *n;
	int i;

	sb_addf(&sb, "probecc-plan\t1\n");
	sb_addf(&sb, "arch\t%s\n", t->abi->arch);
	sb_addf(&sb, "kernel\t%d.%d\n", t->kmajor, t->kminor);
	sb_addf(&sb, "sink\t%s\n", prog->sink ? prog->sink : "console");
	if (prog->dump_raw)
		sb_addf(&sb, "dump\traw\n");
	if (prog->window_ms)
		sb_addf(&sb, "window\t%u\n", (prog->window_ms + 999) / 1000);
	if (prog->capture)
		sb_addf(&sb, "capture\n");
	for (n = prog->inits; n; n = n->next)
		sb_addf(&sb, "init\t%s\n", n->s);
	for (l = pl->plan; l; l = l->next) {
		sb_addf(&sb, "%s", l->kind);
		for (i = 0; i < l->n; i++)
			sb_addf(&sb, "\t%s", l->f[i]);
		sb_addf(&sb, "\n");
	}
	*len = sb.len;
	return sb.s;
}

void emit_explain(const struct placement *pl, const char *checks, FILE *f)
{
	const struct note *n;

	for (n = pl->explain; n; n = n->next)
		fprintf(f, "%s\n", n->s);
	if (checks)
		fputs(checks, f);
}
