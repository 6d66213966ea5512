// SPDX-License-Identifier: GPL-2.0
/*
 * Checks of a probe file against the target kernel: everything the
 * kernel would refuse at boot (in a log nobody reads) or that could
 * never match, reported on the host with file:line:col.  Every problem
 * is reported before probecc gives up, so one edit fixes them all.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "kernel.h"
#include "uelf.h"

struct checker {
	const struct kernel *k;
	const struct target *t;
	struct strbuf *explain;
	int errors;
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

static void err(struct checker *c, const struct pos *p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void err(struct checker *c, const struct pos *p, const char *fmt, ...)
{
	char *msg;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatal("out of memory");
	diag_at(p, "error", "%s", msg);
	free(msg);
	c->errors++;
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

/* The error for a name the kernel does not have as a function. */
static void no_function(struct checker *c, const struct pos *p,
			const char *name, const struct lookup *l)
{
	char *dym;

	if (l->other) {
		err(c, p, "'%s' is a data symbol (type %c), not a function",
		    name, l->other->type);
		return;
	}
	dym = did_you_mean(c->k, name);
	err(c, p, "the kernel has no function '%s'%s%s", name, dym,
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
static void check_kprobe(struct checker *c, const struct probe *p)
{
	const struct kernel *k = c->k;
	struct lookup l = lookup(k, p->target);
	const struct ksym *s = l.func;
	const char *dyn, *onnotrace;

	if (!s) {
		if (l.mod) {
			sb_addf(c->explain, "  %s: %s is in module %s: armed once the module loads\n",
				p->name, p->target, l.mod->module);
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
		err(c, &p->target_pos, "'%s' names %d symbols (at %s): the kernel refuses an ambiguous name (EADDRNOTAVAIL); probe a caller or a unique function",
		    p->target, l.nall, sb.s);
		free(sb.s);
		return;
	}
	if (p->has_offset && s->size && (unsigned long long)p->offset >= s->size)
		err(c, &p->target_pos, "offset +%lld is outside %s, which is %llu bytes%s",
		    p->offset, s->name, s->size,
		    k->sizes_exact ? "" : " (size estimated from the next symbol)");
	if (s->flags & KS_BLACKLIST)
		err(c, &p->target_pos, "'%s' is on the kernel's kprobe blacklist (NOKPROBE_SYMBOL, __kprobes or noinstr): the kernel refuses it (EINVAL)",
		    s->name);
	dyn = kconfig_get(k, "CONFIG_DYNAMIC_FTRACE");
	onnotrace = kconfig_get(k, "CONFIG_KPROBE_EVENTS_ON_NOTRACE");
	if (k->ftrace_known && !(s->flags & KS_FTRACE) && !freed_init(c, s)) {
		if (!k->config)
			sb_addf(c->explain, "  %s: %s has no ftrace call site; kernels with DYNAMIC_FTRACE and without KPROBE_EVENTS_ON_NOTRACE refuse it (no --kconfig to tell)\n",
				p->name, s->name);
		else if (dyn && !onnotrace)
			err(c, &p->target_pos, "'%s' has no ftrace call site (notrace): this kernel (DYNAMIC_FTRACE, no KPROBE_EVENTS_ON_NOTRACE) refuses it (\"Could not probe notrace function\")",
			    s->name);
	}
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
		err(c, &n->pos, "'%s' matches no function %s", n->s,
		    k->ftrace_known ? "ftrace can trace" : "of the kernel");
		return;
	}
	l = lookup(k, n->s);
	if (!l.func) {
		if (l.mod)
			sb_addf(c->explain, "  %s: in module %s: ftrace can filter it only once the module is loaded\n",
				n->s, l.mod->module);
		else
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
	err(c, &n->pos, "'%s' has no mcount/fentry call site (notrace, or in a file built without -pg): ftrace can never trace it, and ftrace_filter= would match nothing",
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
			err(c, &p->target_pos, "the kernel has no event '%s'%s",
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
		err(c, p, "%s needs %s, which this kernel's config does not set",
		    what, opt);
}

/*
 * resolve_uprobes() - turn every uprobe PATH:SYMBOL[+OFF] into the file
 * offset uprobe_events wants, and check every PATH:OFFSET, against the
 * ELF files under @sysroot (uelf.c; NULL: none given).  A symbol with
 * no sysroot, an unknown symbol, a stripped file or an offset that is
 * really an nm address is an error at its position; all are reported,
 * then exit(1).
 */
void resolve_uprobes(struct program *prog, const char *sysroot)
{
	struct probe *p;
	int errors = 0;

	for (p = prog->probes; p; p = p->next) {
		unsigned long long foff;
		char why[512], *path;

		if (p->kind != P_UPROBE && p->kind != P_URETPROBE)
			continue;
		if (!sysroot) {
			if (p->usym) {
				diag_at(&p->usym_pos, "error",
					"%s:%s needs --sysroot DIR (the target's root file system) to find its file offset",
					p->target, p->usym);
				errors++;
			}
			continue;
		}
		path = xasprintf("%s%s", sysroot, p->target);
		if (p->usym) {
			if (uelf_resolve(path, p->usym, (unsigned long long)p->offset,
					 &foff, why, sizeof(why))) {
				diag_at(&p->usym_pos, "error", "%s", why);
				errors++;
			} else {
				p->usym_off = p->offset;
				p->offset = (long long)foff;
				p->has_offset = true;
			}
		} else if (uelf_check_offset(path, (unsigned long long)p->offset,
					     why, sizeof(why))) {
			diag_at(&p->target_pos, "error", "%s", why);
			errors++;
		}
		free(path);
	}
	if (errors) {
		fprintf(stderr, "probecc: %d error%s in uprobes against %s\n",
			errors, errors == 1 ? "" : "s", sysroot ? sysroot : "no --sysroot");
		exit(1);
	}
}

void check_program(const struct program *prog, const struct kernel *k,
		   const struct target *t, struct strbuf *explain)
{
	struct checker c = { .k = k, .t = t, .explain = explain };
	const struct ksym *s;
	const struct probe *p;
	const struct name *n;

	if ((s = ksym_find(k, "_sinittext")))
		c.init_start = s->addr;
	if ((s = ksym_find(k, "_einittext")))
		c.init_end = s->addr;
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
		need_config(&c, &prog->functions->pos, "CONFIG_FUNCTION_TRACER",
			    "function tracing");
	if (prog->graph)
		need_config(&c, &prog->graph->pos,
			    "CONFIG_FUNCTION_GRAPH_TRACER", "graph tracing");
	for (p = prog->probes; p; p = p->next) {
		if (p->kind == P_KPROBE || p->kind == P_KRETPROBE)
			need_config(&c, &p->pos, "CONFIG_KPROBE_EVENTS",
				    "a kprobe");
		if (p->kind == P_UPROBE || p->kind == P_URETPROBE)
			need_config(&c, &p->pos, "CONFIG_UPROBE_EVENTS",
				    "a uprobe");
	}
	if (k->syms_known) {
		for (n = prog->functions; n; n = n->next)
			check_ftrace_name(&c, n);
		for (n = prog->notrace; n; n = n->next)
			check_ftrace_name(&c, n);
		for (n = prog->graph; n; n = n->next)
			check_ftrace_name(&c, n);
		for (p = prog->probes; p; p = p->next)
			if (p->kind == P_KPROBE || p->kind == P_KRETPROBE)
				check_kprobe(&c, p);
	}
	for (p = prog->probes; p; p = p->next)
		if (p->kind == P_EVENT)
			check_event(&c, p);
	if (c.errors) {
		fprintf(stderr, "probecc: %d error%s against the target kernel%s%s\n",
			c.errors, c.errors == 1 ? "" : "s",
			k->release ? " " : "", k->release ? k->release : "");
		exit(1);
	}
}
