// SPDX-License-Identifier: GPL-2.0
/*
 * Warnings after placement: what the placement does that is legal but
 * cannot work on the target kernel.  They are not errors (the outputs
 * are written, the exit status is 0): the user may know better, e.g.
 * that the probe exists only to be reported as failed.
 *
 * A kprobe the agent arms on an __init function.  The agent arms it when
 * /init starts, and by then the kernel has freed .init.text
 * (init/main.c: kernel_init() calls free_initmem() before
 * run_init_process()): the kprobe cannot be registered there, and would
 * never fire if it were.  The init text is [_sinittext, _einittext),
 * which a capture's kallsyms, a System.map and a vmlinux all name.
 *
 * A "function" name of the init text: ftrace_filter= (or bootconfig) has
 * it traced during boot, but the agent's check of set_ftrace_filter at
 * /init finds it gone and its write fails ("Invalid argument", measured
 * on Debian's Malta 6.1 with boot_cpu_init), so "expect armed" fails.
 *
 * A kprobe the command line had no room for: place.c hands it to the
 * agent, which defines it when /init starts, so every hit before (the
 * kernel's own boot, the exec of /init) is missed.  Legal, and often
 * what the user wants, but a probe written for the kernel's boot then
 * fails its expectations with no word of why unless this says so.
 *
 * A uprobe in a file with no window: its hits come after the only dump.
 */
#include <string.h>

#include "compiler.h"
#include "kernel.h"
#include "strmap.h"

/* The vmlinux function @name (not a module's), or NULL. */
static const struct ksym *kernel_func(const struct kernel *k, const char *name)
{
	const struct ksym *s;

	for (s = ksym_find(k, name); s; s = ksym_next(k, s))
		if ((s->type == 't' || s->type == 'w') && !s->module)
			return s;
	return NULL;
}

/* The budget is probecc's own (its default or --cmdline-max), not a front end's. */
static bool budget_is_option(const struct target *t)
{
	return !t->cmdline_max_from || !strcmp(t->cmdline_max_from, "--cmdline-max");
}

/* Why the placement gave @p to the agent (place.c's kprobe()), and what would not. */
static void why_agent(const struct program *prog, const struct probe *p,
		      const struct target *t, const char **why,
		      const char **instead)
{
	if (prog->instance && t->via == VIA_CMDLINE) {
		*why = "it is enabled in the file's instance, and kprobe_event= enables a probe in the top buffer only";
		*instead = "with --via bootconfig (ftrace.instance.NAME.event.kprobes) it is armed from boot";
	} else if (!kernel_at_least(t, 5, 3)) {
		*why = "this kernel has no kprobe_event= (5.3+)";
		*instead = "trace it with 'function' instead: ftrace_filter= is set before any init code runs";
	} else if (p->filter || p->stack) {
		*why = p->filter ? "its filter is written into events/kprobes/ by the agent, which therefore defines it" :
				   "its stack is taken by the agent, which therefore defines it";
		*instead = p->filter ? "without the filter it goes on the command line (kprobe_event=, defined at fs_initcall, before .init.text is freed)" :
				       "without 'stack' it goes on the command line (kprobe_event=, defined at fs_initcall, before .init.text is freed)";
	} else {
		*why = "the command line had no room left for it";
		*instead = budget_is_option(t) ?
			   "it goes on the command line (kprobe_event=, defined at fs_initcall) if it comes before the kprobes that fill the budget (they are placed in file order), or with a larger --cmdline-max" :
			   "it goes on the command line (kprobe_event=, defined at fs_initcall) if it comes before the kprobes that fill the budget (they are placed in file order), or with fewer or shorter names on the command line";
	}
}

/* @p went to the agent for want of room alone (place.c's kprobe()). */
static bool agent_for_room(const struct program *prog, const struct probe *p,
			   const struct target *t)
{
	return !prog->instance && (p->kind == P_KPROBE || p->kind == P_KRETPROBE) &&
	       t->via == VIA_CMDLINE && kernel_at_least(t, 5, 3) &&
	       !p->filter && !p->stack;
}

/*
 * A warning at each kprobe the agent defines only because the command
 * line had no room left: it misses every hit before /init.  Returns
 * how many.
 */
static int warn_no_room(const struct program *prog, const struct target *t,
			const struct strmap *agent, struct diags *w)
{
	const struct probe *p;
	const char *why, *instead;
	int n = 0;

	for (p = prog->probes; p && agent->n; p = p->next) {
		if (!agent_for_room(prog, p, t) ||
		    !strmap_get(agent, p->name, strlen(p->name)))
			continue;
		why_agent(prog, p, t, &why, &instead);
		diag_add(w, &p->pos,
			"%s %s goes to the agent: %s (%d bytes); the agent defines it when /init starts, so its hits before that (the kernel's own boot, the exec of /init) are not traced; %s",
			p->kind == P_KRETPROBE ? "kretprobe" : "kprobe", p->name,
			why, t->cmdline_max, instead);
		n++;
	}
	return n;
}

/*
 * A warning at each uprobe of a file with no window: the agent dumps
 * once, before it execs the real init (docs/language.md, "Dump,
 * window, init"), and a uprobe fires only in programs, which run after
 * that: its hits can never be in a dump.  Returns how many.
 */
static int warn_no_window(const struct program *prog, struct diags *w)
{
	const struct probe *p;
	int n = 0;

	if (prog->window_ms)
		return 0;
	for (p = prog->probes; p; p = p->next) {
		if (p->kind != P_UPROBE && p->kind != P_URETPROBE)
			continue;
		diag_add(w, &p->pos,
			"%s %s can never be in a dump: with no 'window' the agent dumps once, before it execs the real init, and the programs a uprobe fires in run after that; add 'window DURATION' (a second dump after that much of userspace)",
			p->kind == P_URETPROBE ? "uretprobe" : "uprobe", p->name);
		n++;
	}
	return n;
}

/*
 * warn_placement() - a warning into @w (printed "FILE:LINE:COL: warning:
 * ..." with the caret, common/diag.c) for each kprobe or kretprobe of @prog
 * that @pl has the agent arm (a plan "arm PROBE kprobe_events" line) on
 * a function of @k's init text, saying why the agent got it and where
 * it would work, and for each "function" name (not a glob) of the init
 * text, and for each stack the agent takes from the kprobe PMU (a plan
 * "perf PROBE kprobe:SYM" line) at a function of the init text.
 * Nothing without kernel symbols, or when @k names no
 * init text.  Returns the number of warnings.  O(probes + plan lines).
 */
int warn_placement(const struct program *prog, const struct kernel *k,
		   const struct target *t, const struct placement *pl,
		   struct diags *w)
{
	static char yes;	/* a value for the set */
	const struct ksym *lo, *hi, *s;
	const struct plan_line *l;
	const struct probe *p;
	const struct name *fn;
	struct strmap agent = { 0 };
	int n = 0;

	for (l = pl->plan; l; l = l->next)
		if (!strcmp(l->kind, "arm") && l->n >= 2 &&
		    !strcmp(l->f[1], "kprobe_events"))
			xstrmap_put(&agent, l->f[0], strlen(l->f[0]), &yes);
	n += warn_no_room(prog, t, &agent, w);
	n += warn_no_window(prog, w);
	if (!k || !k->syms_known || !(lo = ksym_find(k, "_sinittext")) ||
	    !(hi = ksym_find(k, "_einittext")) || hi->addr <= lo->addr) {
		strmap_free(&agent);
		return n;
	}
	for (fn = prog->functions; fn; fn = fn->next) {
		if (strpbrk(fn->s, "*?[") || !(s = kernel_func(k, fn->s)) ||
		    s->addr < lo->addr || s->addr >= hi->addr)
			continue;
		diag_add(w, &fn->pos,
			"'%s' is __init (in .init.text, which the kernel frees before /init): the boot's function filter traces it during boot only, and the agent's check of set_ftrace_filter at /init finds it gone and fails to add it (Invalid argument), so 'expect armed' fails",
			fn->s);
		n++;
	}
	for (p = prog->probes; p && agent.n; p = p->next) {
		const char *why, *instead;

		if ((p->kind != P_KPROBE && p->kind != P_KRETPROBE) ||
		    !strmap_get(&agent, p->name, strlen(p->name)) ||
		    !(s = kernel_func(k, p->target)) ||
		    s->addr < lo->addr || s->addr >= hi->addr)
			continue;
		why_agent(prog, p, t, &why, &instead);
		diag_add(w, &p->target_pos,
			"'%s' is __init (in .init.text, which the kernel frees before /init): the agent arms %s %s when /init starts (%s), so it can never fire; %s",
			p->target, p->kind == P_KRETPROBE ? "kretprobe" : "kprobe",
			p->name, why, instead);
		n++;
	}
	/*
	 * A stack from the kprobe PMU (plan "perf PROBE kprobe:SYM"): the
	 * agent opens that kprobe of perf's own when /init starts, by when
	 * an __init SYM is gone; the probe itself may still fire from the
	 * command line, without its stack.
	 */
	for (l = pl->plan; l; l = l->next) {
		const char *sym;
		size_t len;

		if (strcmp(l->kind, "perf") || l->n < 2 ||
		    strncmp(l->f[1], "kprobe:", 7))
			continue;
		sym = l->f[1] + 7;
		len = strcspn(sym, "+");
		p = probe_named(prog, l->f[0]);
		if (!p || strlen(p->target) != len || strncmp(p->target, sym, len) ||
		    !(s = kernel_func(k, p->target)) ||
		    s->addr < lo->addr || s->addr >= hi->addr)
			continue;
		diag_add(w, &p->target_pos,
			"'%s' is __init (in .init.text, which the kernel frees before /init): the stack of %s %s is the agent's perf callchain of a kprobe it opens when /init starts, so no hit can have a stack",
			p->target, p->kind == P_KRETPROBE ? "kretprobe" : "kprobe", p->name);
		n++;
	}
	strmap_free(&agent);
	return n;
}
