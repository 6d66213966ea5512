// SPDX-License-Identifier: GPL-2.0
/*
 * Fetch arguments: a field of the probe language to the kernel's
 * "NAME=FETCHARG[:TYPE]" text.  Text only: the rules the kernel applies
 * to them are checked before, in check.c.  The rules are those of
 * kernel/trace/trace_probe.c (parse_probe_arg, traceprobe_parse_probe_arg_body)
 * and Documentation/trace/kprobetrace.rst, uprobetracer.rst.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"

bool bitfield_type(long long start, unsigned width, bool big_endian,
		   long long *byte_off, char *type, size_t tlen)
{
	long long cs;

	for (cs = 8; cs <= 64; cs *= 2)
		if (start % cs + (long long)width <= cs)
			break;
	if (cs > 64 || start < 0)
		return false;
	*byte_off = (start - start % cs) / 8;
	snprintf(type, tlen, "b%u@%lld/%lld", width,
		 big_endian ? cs - start % cs - (long long)width : start % cs, cs);
	return true;
}

static bool is_uprobe(const struct probe *p)
{
	return p->kind == P_UPROBE || p->kind == P_URETPROBE;
}

/*
 * Append the kernel text of @f to @sb.  Never fails: what the kernel
 * would refuse was reported by check.c; an unchecked field still gets a
^ * text (resolve.c explains fields before the check).
 */
static void fetcharg_text(struct strbuf *sb, const struct fetcharg *f,
			  const struct probe *p, const struct target *t)
{
	const char *s;

	switch (f->kind) {
	case F_ARG:
		/*
		 * a kretprobe's argN: the kernel's $argN, which it saves at
		 * the entry (6.10+, kernel_ret_args(); check.c refuses it
		 * before)
		 */
		if (p->kind == P_KRETPROBE) {
			sb_addf(sb, "$arg%lld", f->n);
			break;
		}
		s = abi_arg(probe_abi(p, t), (int)f->n);
		if (s)
			sb_addf(sb, "%s", s);
		else
			sb_addf(sb, "arg%lld", f->n);
		break;
	case F_RETVAL:
		/*
		 * MIPS regs_return_value() (arch/mips/include/asm/ptrace.h)
		 * negates v0 when a3 is not 0, the syscall error convention;
		 * in user code a3 is whatever the function left there
		 * (measured: glibc's strlen leaves 0x80808080, 4 of 4 returns
		 * negated), so a uretprobe reads v0 itself.
		 */
		if (p->kind == P_URETPROBE)
			sb_addf(sb, "%s", t->abi->quirks->uret_retval);
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
		sb_addf(sb, "%%%s", f->name);
		break;
	case F_SYM:
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
		sb_addf(sb, "%+lld(", f->n);
		fetcharg_text(sb, f->inner, p, t);
		sb_addf(sb, ")");
		break;
	case F_VAR:
		/* resolve_cnames() replaced every C name it could; not this one. */
	case F_BTF:
		/* the C text itself: the kernel resolves it from BTF */
		sb_addf(sb, "%s", f->name);
		break;
	case F_IMM:
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
	enum fetcharg_kind k = f->fetcharg->kind;
	char *r;

	/*
	 * The kernel takes a string only through a dereference
	 * (BAD_STRING otherwise): "arg1:string" means "arg1 points at a
	 * string", which the kernel spells "+0(%r4):string".
	 */
	if (string && !f->string_at && k != F_DEREF && k != F_COMM && k != F_IMM) {
		sb_addf(&body, "+0(");
		fetcharg_text(&body, f->fetcharg, p, t);
		sb_addf(&body, ")");
	} else {
		fetcharg_text(&body, f->fetcharg, p, t);
	}
	if (f->type)
		sb_addf(&body, ":%s", f->type);
	else if ((k == F_ARG || k == F_RETVAL) && probe_abi(p, t)->arg_type)
		/* a 32-bit ABI under a 64-bit kernel: see abi.c user_abis[] */
		sb_addf(&body, ":%s", probe_abi(p, t)->arg_type);
	r = xasprintf("%s=%s", f->name, body.s);
	free(body.s);
	return r;
}

enum value_kind field_value_kind(const struct field *f, int *bits)
{
	const char *t = f->type;

	*bits = 0;
	if (!t) {
		if (f->fetcharg->kind == F_COMM)
			return VK_STRING;
		return f->fetcharg->kind == F_VAR || f->fetcharg->kind == F_BTF ?
		       VK_UNKNOWN : VK_UNSIGNED;
	}
	if (!strcmp(t, "string") || !strcmp(t, "ustring") || !strcmp(t, "symbol"))
		return VK_STRING;
	if (t[0] == 'b')	/* bitfield bWIDTH@OFF/SIZE: printed as hex */
		return VK_UNSIGNED;
	*bits = atoi(t + 1);
	return t[0] == 's' ? VK_SIGNED : VK_UNSIGNED;
}
