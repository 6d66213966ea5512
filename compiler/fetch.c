// SPDX-License-Identifier: GPL-2.0
/*
 * Fetch arguments: a field of the probe language to the kernel's
 * "NAME=FETCHARG[:TYPE]" text.  The rules are those of
 * kernel/trace/trace_probe.c (parse_probe_arg, traceprobe_parse_probe_arg_body)
 * and Documentation/trace/kprobetrace.rst, uprobetracer.rst.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler.h"

/* The kernel limit on one argument's text after "NAME=": MAX_ARGSTR_LEN. */
#define MAX_ARGSTR_LEN	63

static bool is_return(const struct probe *p)
{
	return p->kind == P_KRETPROBE || p->kind == P_URETPROBE;
}

static bool is_uprobe(const struct probe *p)
{
	return p->kind == P_UPROBE || p->kind == P_URETPROBE;
}

/* MIPS o32 register names people write, and the number the kernel wants. */
static const struct {
	const char *alias, *reg;
} mips_aliases[] = {
	{ "zero", "r0" }, { "at", "r1" }, { "v0", "r2" }, { "v1", "r3" },
	{ "a0", "r4" }, { "a1", "r5" }, { "a2", "r6" }, { "a3", "r7" },
	{ "t0", "r8" }, { "t1", "r9" }, { "t2", "r10" }, { "t3", "r11" },
	{ "s0", "r16" }, { "s1", "r17" }, { "s2", "r18" }, { "s3", "r19" },
	{ "gp", "r28" }, { "sp", "r29" }, { "fp", "r30" }, { "s8", "r30" },
	{ "ra", "r31" },
};

static void bad_register(const struct fetch *f, const struct target *t)
{
	const struct abi *a = t->abi;
	size_t i;

	if (!strncmp(a->arch, "mips", 4))
		for (i = 0; i < sizeof(mips_aliases) / sizeof(mips_aliases[0]); i++)
			if (!strcmp(f->name, mips_aliases[i].alias))
				error_at(&f->pos, "a MIPS kernel does not know register '%%%s'; write '%%%s' (arch/mips/kernel/ptrace.c names registers by number)",
					 f->name, mips_aliases[i].reg);
	/* x86_64: "%rdi", "%eax" -> "%di", "%ax" (arch/x86/kernel/ptrace.c) */
	if (!strcmp(a->arch, "x86_64") && (f->name[0] == 'r' || f->name[0] == 'e') &&
	    abi_has_reg(a, f->name + 1))
		error_at(&f->pos, "the x86_64 kernel names this register '%%%s', without the '%c'",
			 f->name + 1, f->name[0]);
	{
		struct strbuf names = { 0 };

		for (i = 0; a->regnames[i]; i++)
			sb_addf(&names, "%s%s", i ? " " : "", a->regnames[i]);
		error_at(&f->pos, "'%%%s' is not a register name the %s kernel accepts; it knows: %s",
			 f->name, a->arch, names.s);
	}
}

/* Append the kernel text of @f to @sb; @depth counts dereferences. */
static void emit(struct strbuf *sb, const struct fetch *f,
		 const struct probe *p, const struct target *t)
{
	const char *s;

	switch (f->kind) {
	case F_ARG:
		if (is_return(p))
			error_at(&f->pos, "arg%lld is not known at a function's return: its register has been reused; record it with a kprobe at entry, or use $retval",
				 f->n);
		if (p->kind == P_KPROBE && p->offset)
			error_at(&f->pos, "arg%lld is only known at function entry, and this probe is at %s+%lld; use %%REG or $stackN",
				 f->n, p->target, p->offset);
		if (p->usym && p->usym_off)
			error_at(&f->pos, "arg%lld is only known at function entry, and this probe is at %s+%lld; use %%REG or $stackN",
				 f->n, p->usym, p->usym_off);
		s = abi_arg(t->abi, (int)f->n);
		if (!s)
			error_at(&f->pos, "arg%lld is beyond what the %s ABI table covers",
				 f->n, t->abi->abi);
		sb_addf(sb, "%s", s);
		break;
	case F_RETVAL:
		if (!is_return(p))
			error_at(&f->pos, "$retval exists only in a kretprobe or uretprobe");
		/*
		 * MIPS regs_return_value() (arch/mips/include/asm/ptrace.h)
		 * negates v0 when a3 is not 0, the syscall error convention;
		 * in user code a3 is whatever the function left there
		 * (measured: glibc's strlen leaves 0x80808080, 4 of 4 returns
		 * negated), so a uretprobe reads v0 itself.
		 */
		if (p->kind == P_URETPROBE && !strncmp(t->abi->arch, "mips", 4))
			sb_addf(sb, "%%r2");
		else
			sb_addf(sb, "$retval");
		break;
	case F_COMM:
		sb_addf(sb, "$comm");
		break;
	case F_STACK:
		sb_addf(sb, "$stack");
		break;
	case F_STACKN:
		sb_addf(sb, "$stack%lld", f->n);
		break;
	case F_REG:
		if (!abi_has_reg(t->abi, f->name))
			bad_register(f, t);
		sb_addf(sb, "%%%s", f->name);
		break;
	case F_SYM:
		if (is_uprobe(p))
			error_at(&f->pos, "a uprobe cannot read kernel symbol '@%s'; use @OFFSET, a file offset in %s",
				 f->name, p->target);
		if (f->n)
			sb_addf(sb, "@%s%+lld", f->name, f->n);
		else
			sb_addf(sb, "@%s", f->name);
		break;
	case F_ADDR:
		/* uprobetracer.rst: "@+OFFSET" is an offset in the probed file. */
		sb_addf(sb, is_uprobe(p) ? "@+0x%llx" : "@0x%llx",
			(unsigned long long)f->n);
		break;
	case F_DEREF:
		if (f->inner->kind == F_COMM)
			error_at(&f->pos, "$comm is a string; it cannot be dereferenced");
		sb_addf(sb, "%+lld(", f->n);
		emit(sb, f->inner, p, t);
		sb_addf(sb, ")");
		break;
	case F_VAR:
		/* cname_resolve() replaced every C name it could; not this one. */
		error_at(&f->pos, "'%s' is a C name: it needs the debug info of the probed code (--vmlinux VMLINUX for a kprobe, --sysroot DIR for a uprobe)",
			 f->name);
	case F_IMM:
		/* trace_probe.c: "\IMM" immediates, added in 5.7. */
		if (!kernel_at_least(t, 5, 7))
			error_at(&f->pos, "immediate values need kernel 5.7 or later (target is %d.%d)",
				 t->kmajor, t->kminor);
		sb_addf(sb, "\\%lld", f->n);
		break;
	}
}

char *fetch_field(const struct field *f, const struct probe *p,
		  const struct target *t)
{
	struct strbuf body = { 0 };
	bool string = f->type && (!strcmp(f->type, "string") ||
				  !strcmp(f->type, "ustring"));
	enum fetch_kind k = f->fetch->kind;
	char *r;

	if (k == F_COMM && f->type && strcmp(f->type, "string"))
		error_at(&f->type_pos, "$comm is always a string; drop ':%s' or write ':string'",
			 f->type);
	if (f->type && !strcmp(f->type, "ustring") && !kernel_at_least(t, 5, 5))
		error_at(&f->type_pos, "type 'ustring' needs kernel 5.5 or later");
	/*
	 * The kernel takes a string only through a dereference
	 * (BAD_STRING otherwise): "arg1:string" means "arg1 points at a
	 * string", which the kernel spells "+0(%r4):string".
	 */
	if (string && !f->string_at && k != F_DEREF && k != F_COMM && k != F_IMM) {
		sb_addf(&body, "+0(");
		emit(&body, f->fetch, p, t);
		sb_addf(&body, ")");
	} else {
		emit(&body, f->fetch, p, t);
	}
	if (f->type)
		sb_addf(&body, ":%s", f->type);
	if (body.len > MAX_ARGSTR_LEN)
		error_at(&f->pos, "field '%s' becomes '%s', %zu bytes; the kernel allows %d (MAX_ARGSTR_LEN)",
			 f->name, body.s, body.len, MAX_ARGSTR_LEN);
	r = xasprintf("%s=%s", f->name, body.s);
	free(body.s);
	return r;
}
