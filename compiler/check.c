// SPDX-License-Identifier: GPL-2.0
/*
 * The check: everything of a parsed probe file that the target would
 * refuse at boot (in a log nobody reads) or that could never match,
 * reported on the host with file:line:col, in one pass, before anything
 * is placed: fetchargs against the ABI and the kernel version, trace
 * options and clocks, what bootconfig can hold, then names against
 * the kernel itself.  Every problem is reported before probecc gives
 * up, so one edit fixes them all; a program that passes is one place.c
 * cannot fail on.  The command-line budget is not here: it depends on
 * where place.c puts the kprobes, and budget.c checks it on place()'s
 * result (only ever reached by a program that passed here).
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "compiler.h"
#include "debuginfo.h"
#include "kernel.h"
#include "uelf.h"

struct checker {
	const struct program *prog;
	struct diags *warn;	/* what is allowed but does not do what it says */
	const struct kernel *k;
	const struct target *t;
	struct strbuf *explain;
	struct diags *d;
	unsigned long long init_start, init_end;	/* _sinittext.._einittext */
};

static bool is_func(const struct ksym *s)
{
	return s->type == 't' || s->type == 'w';
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* "; did you mean A, B or C?" for @name, or "" when nothing is close. */
static char *did_you_mean(const struct kernel *k, const char *name)
{
	struct suggest sg;

	ksym_suggest(k, name, true, &sg);
	return suggest_text(&sg);
}

/*
 * With a capture, __init functions are gone from
 * available_filter_functions (ftrace_free_init_mem) but still traceable
 * during boot: absence proves nothing for them.
 */
static bool freed_init(const struct checker *c, const struct ksym *s)
{
	return c->init_end && s->addr >= c->init_start &&
	       s->addr < c->init_end;
}

static void check_error(struct checker *c, const struct pos *p,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void check_error(struct checker *c, const struct pos *p,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(c->d, p, fmt, ap);
	va_end(ap);
}

/* The kernel's functions named @name, counting every symbol of the name. */
struct lookup {
	const struct ksym *func;	/* first vmlinux function */
	const struct ksym *mod;		/* first module function */
	const struct ksym *other;	/* first non-function */
	int nfuncs, nall;
};

static struct lookup lookup(const struct kernel *k, const char *name)
{
	struct lookup l = { 0 };
	const struct ksym *s;

	for (s = ksym_find(k, name); s; s = ksym_next(k, s)) {
		l.nall++;
		if (!is_func(s)) {
			if (!l.other)
				l.other = s;
		} else if (s->module) {
			if (!l.mod)
				l.mod = s;
		} else {
			if (!l.func)
				l.func = s;
			l.nfuncs++;
		}
	}
	return l;
}

const char *module_only_function(const struct kernel *k, const char *name)
{
	struct lookup l;

	if (!k || !k->syms_known)
		return NULL;
	l = lookup(k, name);
	return l.mod && !l.func ? l.mod->module : NULL;
}

/* The error for a name the kernel does not have as a function. */
static void no_function(struct checker *c, const struct pos *p,
			const char *name, const struct lookup *l)
{
	char *dym;

	if (l->other) {
		check_error(c, p, "'%s' is a data symbol (type %c), not a function",
		    name, l->other->type);
		return;
	}
	dym = did_you_mean(c->k, name);
	if (c->k->modules_unread)
		check_error(c, p, "the kernel has no function '%s'%s (%zu module file(s) under --modules could not be read, the first: %s)",
		    name, dym, c->k->modules_unread, c->k->modules_unread_why);
	else
		check_error(c, p, "the kernel has no function '%s'%s%s", name, dym,
		    c->k->modules_known ? "" :
		    " (a module's function? pass --modules DIR)");
	free(dym);
}

/*
 * A kprobe on SYM[+OFF]: the kernel refuses a symbol it cannot find
 * (ENOENT), a name several symbols share (EADDRNOTAVAIL,
 * number_of_same_symbols() in kernel/trace/trace_kprobe.c), an address on
 * the blacklist (within_kprobe_blacklist(), kernel/kprobes.c), and with
 * DYNAMIC_FTRACE but not KPROBE_EVENTS_ON_NOTRACE a function without an
 * ftrace call site ("Could not probe notrace function").
 */
/*
 * A kprobe on an arch whose ftrace patch site is a function's entry
 * (FTRACE_ENTRY of common/arch.def: riscv64, -fpatchable-function-entry:
 * the dyn_ftrace record is the function's address), by the kernel's
 * config (docs/riscv64.md).  Without KPROBES_ON_FTRACE the kernel
 * refuses a kprobe at exactly a record's address (kernel/kprobes.c
 * check_ftrace_location(): EINVAL), so at a traceable function's entry;
 * a kretprobe must be on the entry (kprobe_on_func_entry()), so it is
 * refused at any offset.  And where a kernel-mode breakpoint is handled
 * as an NMI (KPROBE_NMI: riscv's do_trap_break(), irqentry_nmi_enter()),
 * the ring buffer reserves nothing without ARCH_HAVE_NMI_SAFE_CMPXCHG
 * (kernel/trace/ring_buffer.c rb_reserve_next_event()): the kprobe is
 * armed and counted (kprobe_profile), its events never traced; perf's
 * ring is NMI-safe, so its stack still comes with --stack-method perf.
 * Measured on Debian trixie's riscv64 6.12.117 (no KPROBES_ON_FTRACE,
 * no ARCH_HAVE_NMI_SAFE_CMPXCHG): tests/riscv64.sh.  Nothing is said
 * without a config.
 */
static void check_kprobe_arch(struct checker *c, const struct probe *p,
			      const struct ksym *s, bool dyn)
{
	const struct kernel *k = c->k;
	const struct arch_quirks *q;
	const char *arch;

	if (!c->t || !k->config)
		return;
	q = c->t->abi->quirks;
	arch = c->t->abi->arch;
	if (q->ftrace_entry && dyn && !kconfig_get(k, "CONFIG_KPROBES_ON_FTRACE") &&
	    (!k->ftrace_known || (s->flags & KS_FTRACE))) {
		if (p->kind == P_KRETPROBE) {
			check_error(c, &p->target_pos, "a kretprobe must be on %s's entry, which is its ftrace patch site on %s, and this kernel has no KPROBES_ON_FTRACE: it refuses the probe (kernel/kprobes.c check_ftrace_location(): EINVAL)",
			    s->name, arch);
			return;
		}
		if (!p->offset) {
			check_error(c, &p->target_pos, "%s's entry is its ftrace patch site on %s, and this kernel has no KPROBES_ON_FTRACE: it refuses a kprobe there (kernel/kprobes.c check_ftrace_location(): EINVAL); probe an instruction past it (%s+8 and on)",
			    s->name, arch, s->name);
			return;
		}
	}
	if (q->kprobe_nmi && !kconfig_get(k, "CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG"))
		diag_add(c->warn, &p->pos, "%s '%s' is armed and counted but none of its events is traced: %s runs kprobe handlers as NMIs, where this kernel's ring buffer records nothing (no ARCH_HAVE_NMI_SAFE_CMPXCHG); its 'stack' comes from perf (--stack-method perf)",
			 p->kind == P_KRETPROBE ? "kretprobe" : "kprobe", p->name, arch);
}

static void check_kprobe(struct checker *c, const struct probe *p)
{
	const struct kernel *k = c->k;
	struct lookup l = lookup(k, p->target);
	const struct ksym *s = l.func;
	const char *dyn, *onnotrace;

	if (!s) {
		if (l.mod) {
			sb_addf(c->explain, "  %s: %s is in module %s: defined as %s:%s, which the kernel arms once the module loads\n",
				p->name, p->target, l.mod->module,
				l.mod->module, p->target);
			return;
		}
		no_function(c, &p->target_pos, p->target, &l);
		return;
	}
	if (l.nall > 1) {
		struct strbuf sb = { 0 };
		const struct ksym *o;

		for (o = ksym_find(k, p->target); o; o = ksym_next(k, o))
			sb_addf(&sb, "%s%s%s0x%llx", sb.s ? ", " : "",
				o->module ? o->module : "",
				o->module ? ":" : "", o->addr);
		check_error(c, &p->target_pos, "'%s' names %d symbols (at %s): the kernel refuses an ambiguous name (EADDRNOTAVAIL); probe a caller or a unique function",
		    p->target, l.nall, sb.s);
		free(sb.s);
		return;
	}
	if (p->has_offset && s->size && (unsigned long long)p->offset >= s->size)
		check_error(c, &p->target_pos, "offset +%lld is outside %s, which is %llu bytes%s",
		    p->offset, s->name, s->size,
		    k->sizes_exact ? "" : " (size estimated from the next symbol)");
	if (s->flags & KS_BLACKLIST)
		check_error(c, &p->target_pos, "'%s' is on the kernel's kprobe blacklist (NOKPROBE_SYMBOL, __kprobes or noinstr): the kernel refuses it (EINVAL)",
		    s->name);
	dyn = kconfig_get(k, "CONFIG_DYNAMIC_FTRACE");
	check_kprobe_arch(c, p, s, dyn != NULL);
	onnotrace = kconfig_get(k, "CONFIG_KPROBE_EVENTS_ON_NOTRACE");
	if (k->ftrace_known && !(s->flags & KS_FTRACE) && !freed_init(c, s)) {
		if (!k->config)
			sb_addf(c->explain, "  %s: %s has no ftrace call site; kernels with DYNAMIC_FTRACE and without KPROBE_EVENTS_ON_NOTRACE refuse it (no --kconfig to tell)\n",
				p->name, s->name);
		else if (dyn && !onnotrace)
			check_error(c, &p->target_pos, "'%s' has no ftrace call site (notrace): this kernel (DYNAMIC_FTRACE, no KPROBE_EVENTS_ON_NOTRACE) refuses it (\"Could not probe notrace function\")",
			    s->name);
	}
}

/*
 * A filter list (@what: "function" or "graph") of modules' functions
 * only.  The kernel drops a name it cannot match from ftrace_filter= and
 * ftrace_graph_filter= at boot (kernel/trace/ftrace.c:
 * ftrace_set_early_filter(), set_ftrace_early_graph()), and no module is
 * loaded then: the filter would be empty, and an empty filter traces
 * every function of the kernel.
 */
static void check_module_only_filter(struct checker *c,
				     const struct name *list, const char *what)
{
	const struct name *n;
	const char *mod, *first = NULL;

	for (n = list; n; n = n->next) {
		mod = is_glob(n->s) ? NULL : module_only_function(c->k, n->s);
		if (!mod)
			return;
		if (!first)
			first = mod;
	}
	if (list)
		check_error(c, &list->pos, "every function of this '%s' line is a module's ('%s' is in %s): the kernel drops them from the boot filter, no module being loaded, and an empty filter traces every function; trace them with 'kprobe' (armed when the module loads), or name a function of the kernel's own beside them",
		    what, list->s, first);
}

/*
 * A name for ftrace_filter=, ftrace_notrace= or ftrace_graph_filter=:
 * only functions with an mcount/fentry call site are in
 * available_filter_functions (kernel/trace/ftrace.c); a name with none
 * can never match, and a glob that matches none filters nothing.
 */
static void check_ftrace_name(struct checker *c, const struct name *n)
{
	const struct kernel *k = c->k;
	struct lookup l;
	size_t i;

	if (is_glob(n->s)) {
		for (i = 0; i < k->nsyms; i++) {
			const struct ksym *s = &k->syms[i];

			if (is_func(s) && (!k->ftrace_known || s->module ||
					   (s->flags & KS_FTRACE)) &&
			    !fnmatch(n->s, s->name, 0))
				return;
		}
		check_error(c, &n->pos, "'%s' matches no function %s", n->s,
		    k->ftrace_known ? "ftrace can trace" : "of the kernel");
		return;
	}
	l = lookup(k, n->s);
	if (!l.func) {
		/* a module's: place.c function_list() says it is left out */
		if (!l.mod)
			no_function(c, &n->pos, n->s, &l);
		return;
	}
	if (!k->ftrace_known || (l.func->flags & KS_FTRACE))
		return;
	if (freed_init(c, l.func)) {
		sb_addf(c->explain, "  %s: __init function, freed when the target was captured: assumed traceable during boot\n",
			n->s);
		return;
	}
	check_error(c, &n->pos, "'%s' has no mcount/fentry call site (notrace, or in a file built without -pg): ftrace can never trace it, and ftrace_filter= would match nothing",
	    n->s);
}

static int cmp_event(const void *key, const void *elt)
{
	return strcmp(key, *(char *const *)elt);
}

/* GROUP:EVENT against available_events, or the event_NAME symbols. */
static void check_event(struct checker *c, const struct probe *p)
{
	const struct kernel *k = c->k;
	char *full = xasprintf("%s:%s", p->group, p->name);

	if (k->events_known) {
		if (!bsearch(full, k->events, k->nevents, sizeof(char *),
			     cmp_event)) {
			struct suggest sg;
			size_t i;

			suggest_init(&sg, full);
			for (i = 0; i < k->nevents; i++)
				suggest_add(&sg, k->events[i]);
			check_error(c, &p->target_pos, "the kernel has no event '%s'%s",
			    full, suggest_text(&sg));
		}
	} else {
		sb_addf(c->explain, "  %s: events unknown without --target: not checked\n",
			full);
	}
	free(full);
}

/* A kernel feature a construct needs, from the config when known. */
static void need_config(struct checker *c, const struct pos *p,
			const char *opt, const char *what)
{
	if (c->k->config && !kconfig_get(c->k, opt))
		check_error(c, p, "%s needs %s, which this kernel's config does not set",
		    what, opt);
}

/* ---- fetchargs: kernel/trace/trace_probe.c, kprobetrace.rst, uprobetracer.rst ---- */

static bool is_return(const struct probe *p)
{
	return p->kind == P_KRETPROBE || p->kind == P_URETPROBE;
}

static bool is_uprobe(const struct probe *p)
{
	return p->kind == P_UPROBE || p->kind == P_URETPROBE;
}

/* %@f->name is not a register regs_query_register_offset() knows. */
static void bad_register(struct checker *c, const struct fetcharg *f)
{
	const struct abi *a = c->t->abi;
	struct strbuf names = { 0 };
	size_t i;

	/* MIPS: only the registers' numbers (its row's REG_ALIASES) */
	for (i = 0; a->quirks->reg_aliases && a->quirks->reg_aliases[i].alias; i++)
		if (!strcmp(f->name, a->quirks->reg_aliases[i].alias)) {
			check_error(c, &f->pos, "a MIPS kernel does not know register '%%%s'; write '%%%s' (arch/mips/kernel/ptrace.c names registers by number)",
				    f->name, a->quirks->reg_aliases[i].reg);
			return;
		}
	/* x86_64: "%rdi", "%eax" -> "%di", "%ax" (arch/x86/kernel/ptrace.c) */
	if (f->name[0] && strchr(a->quirks->reg_prefixes, f->name[0]) &&
	    abi_has_reg(a, f->name + 1)) {
		check_error(c, &f->pos, "the x86_64 kernel names this register '%%%s', without the '%c'",
			    f->name + 1, f->name[0]);
		return;
	}
	for (i = 0; a->regnames[i]; i++)
		sb_addf(&names, "%s%s", i ? " " : "", a->regnames[i]);
	check_error(c, &f->pos, "'%%%s' is not a register name the %s kernel accepts; it knows: %s",
		    f->name, a->arch, names.s);
	free(names.s);
}

/*
 * Argument @f of @p is one of o32's 4-byte stack slots under a 64-bit
 * kernel (abi_narrow_slots()): "+OFF($stack)" is read whole only as the
 * last fetch, with a type of 4 bytes or less (FETCH_OP_ST_MEM reads the
 * type's size); a dereference of it first reads a long, 8 bytes, two
 * slots (process_fetch_insn_bottom(), kernel/trace/trace_probe_tmpl.h).
 */
static bool narrow_stack_arg(const struct probe *p, const struct target *t,
			     const struct fetcharg *f)
{
	const struct abi *a = probe_abi(p, t);

	return f->kind == F_ARG && abi_narrow_slots(a) &&
	       abi_arg_on_stack(a, (int)f->n);
}

/*
 * @f, followed as a pointer by probe @p, was itself read from memory by
 * a 64-bit kernel for a program of 4-byte pointers (o32, n32: the ABI
 * has an arg_type): the kernel reads the pointer as a long, 8 bytes
 * (process_fetch_insn_bottom()), half of it another field or slot.  In
 * a register (argN of the registers, %REG) a 32-bit pointer is whole,
 * sign-extended; n32's 8-byte stack slots hold it whole too.
 */
static bool ptr32_in_memory(const struct probe *p, const struct target *t,
			    const struct fetcharg *f)
{
	const struct abi *a = probe_abi(p, t);

	return a->arg_type && (f->kind == F_DEREF ||
			       (f->kind == F_STACKN && abi_narrow_slots(a)));
}

static void ptr32_error(struct checker *c, const struct pos *pos,
			const struct probe *p, const struct target *t)
{
	const struct abi *a = probe_abi(p, t);

	check_error(c, pos, "%s's %s code keeps 4-byte pointers in memory, and the %s kernel reads every pointer it follows as a long, 8 bytes (kernel/trace/trace_probe_tmpl.h): only a pointer in a register can be followed (arg1-%d, %%REG)",
		    p->target, a->abi, t->abi->arch, a->nregs);
}

static void narrow_error(struct checker *c, const struct pos *pos,
			 const struct probe *p, const struct target *t,
			 const struct fetcharg *f, const char *why)
{
	const struct abi *a = probe_abi(p, t);

	check_error(c, pos, "arg%lld of %s's %s code is the 4-byte stack slot %s: %s; read it as a value of 4 bytes or less (:x32, :s32, :u32)",
		    f->n, p->target, a->abi, abi_arg(a, (int)f->n), why);
}

/* One fetcharg of probe @p; returns the number of problems found. */
static int check_fetcharg(struct checker *c, const struct fetcharg *f,
			  const struct probe *p)
{
	const struct target *t = c->t;
	int before = c->d->n;

	switch (f->kind) {
	case F_ARG: {
		const char *why;

		if (p->kind == P_KRETPROBE && !kernel_ret_args(t, &why))
			check_error(c, &f->pos, "arg%lld is not known at a function's return: its register has been reused (the kernel's $arg%lld there is 6.10+ on x86_64, arm64 and riscv64; here %s); record it with a kprobe at entry, or use $retval",
				    f->n, f->n, why);
		else if (p->kind == P_KRETPROBE && !abi_arg(probe_abi(p, t), (int)f->n))
			check_error(c, &f->pos, "arg%lld is beyond what the %s ABI table covers",
				    f->n, probe_abi(p, t)->abi);
		else if (p->kind == P_KRETPROBE)
			;	/* $argN, saved by the kernel at the entry */
		else if (is_return(p))
			check_error(c, &f->pos, "arg%lld is not known at a function's return: its register has been reused; record it with a kprobe at entry, or use $retval",
				    f->n);
		else if (p->kind == P_KPROBE && p->offset)
			check_error(c, &f->pos, "arg%lld is only known at function entry, and this probe is at %s+%lld; use %%REG or $stackN",
				    f->n, p->target, p->offset);
		else if (p->usym && p->usym_off)
			check_error(c, &f->pos, "arg%lld is only known at function entry, and this probe is at %s+%lld; use %%REG or $stackN",
				    f->n, p->usym, p->usym_off);
		else if (!abi_arg(probe_abi(p, t), (int)f->n))
			check_error(c, &f->pos, "arg%lld is beyond what the %s ABI table covers",
				    f->n, probe_abi(p, t)->abi);
		break;
	}
	case F_RETVAL:
		if (!is_return(p))
			check_error(c, &f->pos, "$retval exists only in a kretprobe or uretprobe");
		break;
	case F_REG:
		if (!abi_has_reg(t->abi, f->name))
			bad_register(c, f);
		break;
	case F_SYM:
		if (is_uprobe(p))
			check_error(c, &f->pos, "a uprobe cannot read kernel symbol '@%s'; use @OFFSET, a file offset in %s",
				    f->name, p->target);
		break;
	case F_DEREF:
		if (f->inner->kind == F_COMM)
			check_error(c, &f->pos, "$comm is a string; it cannot be dereferenced");
		else if (narrow_stack_arg(p, t, f->inner))
			narrow_error(c, &f->pos, p, t, f->inner,
				     "a dereference first reads the pointer as a long, 8 bytes, two slots");
		else if (ptr32_in_memory(p, t, f->inner))
			ptr32_error(c, &f->pos, p, t);
		else
			check_fetcharg(c, f->inner, p);
		break;
	case F_VAR:
		/* resolve_cnames() replaced every C name it could; not this one. */
		check_error(c, &f->pos, "'%s' is a C name: it needs the debug info of the probed code (--vmlinux VMLINUX for a kprobe, --sysroot DIR for a uprobe)",
			    f->name);
		break;
	case F_BTF:
		/* resolve_cnames() chose it: kernel_btf_names() said yes */
		break;
	case F_IMM:
		/* trace_probe.c: "\IMM" immediates, added in 5.7. */
		if (!kernel_at_least(t, 5, 7))
			check_error(c, &f->pos, "immediate values need kernel 5.7 or later (target is %d.%d)",
				    t->kmajor, t->kminor);
		break;
	case F_COMM:
	case F_STACK:
	case F_STACKN:
	case F_ADDR:
		break;
	}
	return c->d->n - before;
}

/* One field: its type, its fetcharg, the length of its text. */
static void check_field(struct checker *c, const struct field *f,
			const struct probe *p)
{
	int before = c->d->n;
	char *text;

	if (f->fetcharg->kind == F_COMM && f->type && strcmp(f->type, "string"))
		check_error(c, &f->type_pos, "$comm is always a string; drop ':%s' or write ':string'",
			    f->type);
	if (f->type && !strcmp(f->type, "ustring") && !kernel_at_least(c->t, 5, 5))
		check_error(c, &f->type_pos, "type 'ustring' needs kernel 5.5 or later");
	check_fetcharg(c, f->fetcharg, p);
	if (c->d->n == before && f->type && narrow_stack_arg(p, c->t, f->fetcharg) &&
	    (!strcmp(f->type, "string") || !strcmp(f->type, "ustring") ||
	     !strcmp(f->type, "symstr") || strstr(f->type, "64")))
		narrow_error(c, &f->type_pos, p, c->t, f->fetcharg,
			     strstr(f->type, "64") ? "a 64-bit type reads two slots" :
			     "a string is fetched through its pointer, read as a long, 8 bytes, two slots");
	else if (c->d->n == before && f->type && !f->string_at &&
		 (!strcmp(f->type, "string") || !strcmp(f->type, "ustring")) &&
		 f->fetcharg->kind != F_DEREF && ptr32_in_memory(p, c->t, f->fetcharg))
		ptr32_error(c, &f->type_pos, p, c->t);
	if (c->d->n != before)
		return;
	text = fetch_field(f, p, c->t);
	if (strlen(text) - strlen(f->name) - 1 > MAX_ARGSTR_LEN)
		check_error(c, &f->pos, "field '%s' becomes '%s', %zu bytes; the kernel allows %d (MAX_ARGSTR_LEN)",
			    f->name, text + strlen(f->name) + 1,
			    strlen(text) - strlen(f->name) - 1, MAX_ARGSTR_LEN);
	free(text);
}

/*
 * check_field_fetch() - the rules of check_program() for one field @f of
 * probe @p alone (its fetcharg, its type, their length), on the kernel of
 * @t: for probecc --vars, which offers a C name only as a fetch the
 * compiler takes (the o32 stack slots and 4-byte pointers under a 64-bit
 * kernel, kernel/trace/trace_probe_tmpl.h).  @p->abi is the uprobe's
 * program's ABI, NULL for the kernel's.  Problems go to @d, at @f's
 * positions; returns their number.  Nothing is kept of @f or @p.
 */
int check_field_fetch(const struct field *f, const struct probe *p,
		      const struct target *t, struct diags *d)
{
	struct checker c = { .t = t, .d = d };
	int before = d->n;

	check_field(&c, f, p);
	return d->n - before;
}

/* ---- tracers, options, clocks: kernel/trace/trace.c, trace_boot.c ---- */

/*
 * A file's tracer is the function tracer with 'function' lines, else
 * function_graph with 'graph' lines, else none.
 */
static const char *program_tracer(const struct program *prog)
{
	return prog->functions ? "function" :
	       prog->graph ? "function_graph" : NULL;
}

static void check_option(struct checker *c, const struct name *n)
{
	const char *base = n->s, *owner, *tracer = program_tracer(c->prog);

	if (!strncmp(base, "no", 2))
		base += 2;
	if (trace_option_is_global(base))
		return;
	owner = trace_option_tracer(base);
	if (!owner)
		check_error(c, &n->pos, "unknown trace option '%s' (see the kernel's trace_options file; tracer options: func_stack_trace, funcgraph-*)",
			    base);
	else if (!tracer || strcmp(owner, tracer))
		check_error(c, &n->pos, "'%s' is an option of the %s tracer, and this file does not use it%s",
			    base, owner,
			    !strcmp(owner, "function") ? " (add a 'function' line)" : " (add a 'graph' line)");
}

/*
 * Options that change the text form of the trace (kernel/trace/
 * trace_output.c, trace.c print_trace_fmt()): probecc report reads a text
 * dump's lines in the default form only ("TASK-PID [CPU] FLAGS TIME:
 * BODY", "FUNC <-PARENT"), and a raw dump whatever they say.
 */
static const char *const text_form_options[] = {
	"latency-format", "raw", "hex", "bin", "nocontext-info",
	"noprint-parent", "sym-offset", "sym-addr",
};

/*
 * A text dump ("dump SINK" without "raw") is read by the report only in
 * the kernel's default form: a function_graph trace (no task or time on
 * its lines) and an option that changes the form are refused, so that no
 * expectation is judged on lines the report cannot read.
 */
static void check_text_form(struct checker *c)
{
	const struct program *prog = c->prog;
	const struct name *n;
	size_t i;

	if (prog->dump_raw)
		return;
	if (prog->graph)
		check_error(c, &prog->graph->pos, "'graph' needs a raw dump, but the dump line says 'text': probecc report reads a function_graph trace from raw dumps only (its text lines have no task or time); leave 'text' out, and 'graph' makes the dump raw");
	for (n = prog->options; n; n = n->next)
		for (i = 0; i < sizeof(text_form_options) / sizeof(text_form_options[0]); i++)
			if (!strcmp(n->s, text_form_options[i]))
				check_error(c, &n->pos, "option '%s' changes the text form of the trace, which probecc report reads only in the kernel's default form: add 'raw' to the dump line, or leave the option out",
					    n->s);
}

/*
 * "instance NAME": what cannot go into an instance.  The boot-time
 * tracer (ftrace=, ftrace_filter=) is the top buffer's
 * (kernel/trace/trace.c register_tracer() sets global_trace's), and
 * ftrace_dump_on_oops prints the top buffer (an instance's only from
 * 6.9, not placed here).  Before 6.3 the command line has no
 * trace_instance= (trace.c enable_instances()): the agent makes the
 * instance at /init, when every built-in initcall has run.
 */
static void check_instance(struct checker *c)
{
	const struct program *prog = c->prog;
	const struct target *t = c->t;

	if (program_tracer(prog))
		check_error(c, &prog->tracer_pos, "'%s' with 'instance %s': the boot-time tracer (ftrace=) is the top buffer's; an instance holds probes and events only (trace functions in a file without 'instance')",
			    prog->functions ? "function" : "graph", prog->instance);
	if (prog->crash_dump > 0)
		check_error(c, &prog->instance_pos, "'crash dump' with 'instance': ftrace_dump_on_oops prints the top buffer, which holds none of the instance's events");
	/* tracing_set_clock() empties the buffer it changes */
	if (prog->clock && t->via != VIA_BOOTCONFIG && kernel_at_least(t, 6, 3))
		check_error(c, &prog->clock_pos, "'clock' with 'instance %s' on the command line: the agent would set the instance's clock at /init, which empties the events trace_instance= enabled since boot (trace.c tracing_set_clock()); use --via bootconfig (ftrace.instance.%s.trace_clock) or leave the clock out",
			    prog->instance, prog->instance);
	if (prog->initcalls && t->via != VIA_BOOTCONFIG && !kernel_at_least(t, 6, 3))
		check_error(c, &prog->initcalls_pos, "'initcalls' with 'instance %s' needs trace_instance= (kernel 6.3+) or --via bootconfig: on %d.%d the agent makes the instance at /init, after every initcall ran",
			    prog->instance, t->kmajor, t->kminor);
}

/* The rules of the file as a whole, of its options and of its probes' texts. */
static void check_rules(struct checker *c)
{
	const struct program *prog = c->prog;
	const struct target *t = c->t;
	const struct probe *p;
	const struct field *f;
	const struct name *n;

	if (t->via == VIA_BOOTCONFIG) {
		if (!kernel_at_least(t, 5, 6))
			check_error(c, NULL, "bootconfig needs kernel 5.6 or later (target is %d.%d); use --cmdline",
				    t->kmajor, t->kminor);
		/* init/main.c reads the initrd's bootconfig only with BOOT_CONFIG */
		else if (t->boot_config == 0)
			check_error(c, NULL, "the target kernel's config does not set CONFIG_BOOT_CONFIG: it would ignore a bootconfig (stock Debian kernels lack it); use --via cmdline");
		/* ftrace.* keys are read by kernel/trace/trace_boot.c only */
		else if (t->boottime_tracing == 0)
			check_error(c, NULL, "the target kernel's config does not set CONFIG_BOOTTIME_TRACING: it would ignore bootconfig's ftrace keys; use --via cmdline");
	}
	if (prog->instance)
		check_instance(c);
	if (prog->notrace && !program_tracer(prog))
		check_error(c, &prog->notrace->pos, "'notrace' without 'function' or 'graph': no function tracer would run");
	for (n = prog->options; n; n = n->next)
		check_option(c, n);
	check_text_form(c);
	if (prog->clock && !trace_clock_known(t, prog->clock))
		check_error(c, &prog->clock_pos, "unknown trace clock '%s' (known: local global counter uptime perf mono mono_raw boot tai%s%s)",
			    prog->clock, *t->abi->quirks->clocks ? " " : "", t->abi->quirks->clocks);
	for (p = prog->probes; p; p = p->next) {
		for (f = p->fields; f; f = f->next)
			check_field(c, f, p);
		/* a filter in bootconfig: a value lib/bootconfig.c can hold */
		if (p->filter && t->via == VIA_BOOTCONFIG && !is_uprobe(p)) {
			struct bc_tree *bt = bc_new();
			int e;

			if (!bt)
				fatal("out of memory");
			e = bc_add(bt, "ftrace.event.g.e.filter", p->filter);
			if (e)
				check_error(c, &p->filter_pos, "this filter cannot be written in bootconfig: %s",
					    bc_strerror(e));
			bc_free(bt);
		}
	}
}

/* ---- stacks ---- */

/*
 * The kernel records a user stack (the userstacktrace option, and so
 * "stack" on a uprobe) only with USER_STACKTRACE_SUPPORT: in 6.1 x86
 * and loongarch select it (arch/x86/Kconfig, arch/loongarch/Kconfig),
 * MIPS, arm64 and riscv do not, and ftrace_trace_userstack()
 * (kernel/trace/trace.c) records nothing there.  The config says so
 * when known; else the arch.
 */
bool user_stacks_kept(const struct kernel *k, const struct target *t)
{
	if (k && k->config)
		return kconfig_get(k, "CONFIG_USER_STACKTRACE_SUPPORT") != NULL;
	return t->abi->quirks->user_stacks;
}

/* probe_named() - see compiler.h. */
const struct probe *probe_named(const struct program *prog, const char *name)
{
	const struct probe *p;

	for (p = prog->probes; p; p = p->next)
		if (p->kind != P_EVENT && !strcmp(p->name, name))
			return p;
	return NULL;
}

/*
 * "stack" on a uprobe, and "stack has" on one, where the kernel cannot
 * sample a user stack: the agent's perf sample needs
 * HAVE_PERF_USER_STACK_DUMP (selected by x86, arm64, MIPS, riscv...:
 * arch/ARCH/Kconfig) and PERF_EVENTS.  Without a config, Debian's
 * kernels have both.  A uprobe's "stack" is a warning (it records
 * nothing, the probe still traces); "stack user" on a kprobe or event
 * asks for nothing else, so it is an error.
 */
static void check_user_stacks(struct checker *c)
{
	const struct program *prog = c->prog;
	const struct expectation *e;
	const struct probe *p;
	const char *why;

	if (!c->k->config)
		return;
	if (!kconfig_get(c->k, "CONFIG_PERF_EVENTS"))
		why = "its config has no CONFIG_PERF_EVENTS";
	else if (!kconfig_get(c->k, "CONFIG_HAVE_PERF_USER_STACK_DUMP"))
		why = "its config has no CONFIG_HAVE_PERF_USER_STACK_DUMP";
	else
		return;
	for (p = prog->probes; p; p = p->next)
		if (is_uprobe(p) && p->stack)
			diag_add(c->warn, &p->pos, "'stack' on uprobe '%s' records nothing: the agent samples user stacks with perf and %s; its hits will have none",
				 p->name, why);
		else if (p->stack_user)
			check_error(c, &p->stack_user_pos, "'stack user' on '%s': the agent samples user stacks with perf and %s",
				    p->name, why);
	for (e = prog->expects; e; e = e->next)
		if (e->kind == E_STACK && (p = probe_named(prog, e->target)) &&
		    is_uprobe(p))
			check_error(c, &e->pos, "'%s' is a uprobe and the kernel cannot sample a user stack (%s): 'stack has' could only fail",
				    e->target, why);
}

/* A GCC clone of @name ("name.isra.0", "name.constprop.0", "name.part.0"). */
static bool has_clone(const struct kernel *k, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < k->nsyms; i++)
		if (is_func(&k->syms[i]) && !strncmp(k->syms[i].name, name, n) &&
		    k->syms[i].name[n] == '.')
			return true;
	return false;
}

/*
 * "expect P stack has F": F (a name or an ftrace glob) must be a
 * function a kernel stack can show: a symbol of the kernel or of a
 * module, or a GCC clone of it.  A name DWARF knows only as inlined
 * (with --vmlinux) has no frame of its own: the stack shows the
 * function it was inlined into.  Uprobes' stacks are user stacks: not
 * the kernel's names.
 */
static void check_stack_expect(struct checker *c, const struct expectation *e)
{
	const struct kernel *k = c->k;
	const struct probe *p = probe_named(c->prog, e->target);
	const struct pos *pos = e->func_pos.src ? &e->func_pos : &e->pos;
	struct lookup l;
	char *where;
	size_t i;
	int inl;

	if (p && is_uprobe(p))
		return;
	/*
	 * With "stack user" a name no kernel function has is a user frame:
	 * of whichever program the hit's task runs, which the file does
	 * not name, so it is not checked (--explain says so).
	 */
	if (p && p->stack_user && !is_glob(e->func) && !lookup(k, e->func).func &&
	    !lookup(k, e->func).mod && !has_clone(k, e->func)) {
		sb_addf(c->explain, "  expect %s stack has %s: no kernel function of that name, so a user frame of the task the hit is in (not checked: the file names no program)\n",
			e->target, e->func);
		return;
	}
	if (is_glob(e->func)) {
		for (i = 0; i < k->nsyms; i++)
			if (is_func(&k->syms[i]) && !fnmatch(e->func, k->syms[i].name, 0))
				return;
		check_error(c, pos, "'%s' matches no function of the kernel%s", e->func,
			    k->modules_known ? "" : " (a module's function? pass --modules DIR)");
		return;
	}
	l = lookup(k, e->func);
	if (l.func || l.mod || has_clone(k, e->func))
		return;
	if (!l.other && c->t->vmlinux &&
	    (inl = dw_inlined(c->t->vmlinux, e->func, &where)) > 0) {
		check_error(c, pos, "'%s' has no symbol of its own: it exists only inlined (DWARF of %s%s%s), so no stack shows a frame of it; name the function it is inlined into",
			    e->func, c->t->vmlinux, where ? ": declared at " : "", where ? where : "");
		free(where);
		return;
	}
	no_function(c, pos, e->func, &l);
}

/* ---- against the kernel ---- */

static void check_kernel(struct checker *c)
{
	const struct program *prog = c->prog;
	const struct kernel *k = c->k;
	struct strbuf *explain = c->explain;
	const struct expectation *e;
	const struct ksym *s;
	const struct probe *p;
	const struct name *n;

	if ((s = ksym_find(k, "_sinittext")))
		c->init_start = s->addr;
	if ((s = ksym_find(k, "_einittext")))
		c->init_end = s->addr;
	sb_addf(explain, "target kernel:\n");
	if (k->sources.s)
		sb_addf(explain, "%s", k->sources.s);
	if (!k->syms_known)
		sb_addf(explain, "  no symbols (--target, --vmlinux or --system-map): names not checked\n");
	else if (!k->ftrace_known)
		sb_addf(explain, "  no ftrace call sites (--target or --vmlinux): notrace functions not detected\n");
	if (k->syms_known && !k->blacklist_known)
		sb_addf(explain, "  no kprobe blacklist (--target or --vmlinux): blacklisted functions not detected\n");
	if (!k->config)
		sb_addf(explain, "  no config (--kconfig, --target with config.gz, or a vmlinux with IKCONFIG): features assumed\n");

	if (prog->functions)
		need_config(c, &prog->functions->pos, "CONFIG_FUNCTION_TRACER",
			    "function tracing");
	if (prog->graph)
		need_config(c, &prog->graph->pos,
			    "CONFIG_FUNCTION_GRAPH_TRACER", "graph tracing");
	for (p = prog->probes; p; p = p->next) {
		if (p->kind == P_KPROBE || p->kind == P_KRETPROBE)
			need_config(c, &p->pos, "CONFIG_KPROBE_EVENTS",
				    "a kprobe");
		if (p->kind == P_UPROBE || p->kind == P_URETPROBE)
			need_config(c, &p->pos, "CONFIG_UPROBE_EVENTS",
				    "a uprobe");
	}
	if (k->syms_known) {
		for (n = prog->functions; n; n = n->next)
			check_ftrace_name(c, n);
		for (n = prog->notrace; n; n = n->next)
			check_ftrace_name(c, n);
		for (n = prog->graph; n; n = n->next)
			check_ftrace_name(c, n);
		check_module_only_filter(c, prog->functions, "function");
		check_module_only_filter(c, prog->graph, "graph");
		for (p = prog->probes; p; p = p->next)
			if (p->kind == P_KPROBE || p->kind == P_KRETPROBE)
				check_kprobe(c, p);
		for (e = prog->expects; e; e = e->next)
			if (e->kind == E_STACK)
				check_stack_expect(c, e);
	}
	for (p = prog->probes; p; p = p->next)
		if (p->kind == P_EVENT)
			check_event(c, p);
}

int check_program(const struct program *prog, const struct kernel *k,
		  const struct target *t, struct strbuf *explain,
		  struct diags *d, struct diags *warn, int *kernel_errors)
{
	struct checker c = { .prog = prog, .k = k, .t = t,
			     .explain = explain, .d = d, .warn = warn };
	int before = d->n, nk;

	check_rules(&c);
	check_user_stacks(&c);
	nk = d->n;
	check_kernel(&c);
	*kernel_errors = d->n - nk;
	return d->n - before;
}
