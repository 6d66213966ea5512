// SPDX-License-Identifier: GPL-2.0
/*
 * The dumps named: the capture read by the dump reader (dumpread/:
 * dumpread_capture()), then what needs the report's inputs, none of it
 * going back into the reader.  Kernel frames the kernel printed as
 * addresses are named from the kernel's symbols (--system-map, --target,
 * --vmlinux) while the reader reads them (its name_frame).  The agent's
 * "perf" samples are joined to the trace's hits of the same probe, task
 * and time: their callchain becomes the hit's stack, in place of the
 * kernel's own (truncated on MIPS), named from the kernel's and the
 * modules' (--modules) symbols; an address nothing names is shown as
 * such ("0x..." or "[module]+0x..."), never dropped.  User stacks are
 * unwound (facts/ustack.c) and a "<user stack trace>" named from the
 * uprobe's file under --sysroot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>

#include "arch.h"
#include "report-int.h"
#include "strmap.h"
#include "sysroot.h"
#include "uelf.h"


/* "0xffffffff81234567" -> "func+0x17", when the kernel has it; else unchanged. */
static char *symbolize(const struct report *r, char *frame)
{
	const struct ksym *s;
	unsigned long long addr;
	char *end;

	if (!r->k || strncmp(frame, "0x", 2))
		return frame;
	addr = strtoull(frame, &end, 16);
	if (*end || !(s = ksym_at(r->k, addr)))
		return frame;
	return xasprintf("%s+0x%llx", s->name, addr - s->addr);
}

void module_unread(struct module *m, const char *file, const char *why)
{
	if (m->unread)
		return;
	m->unread = xstrdup(why);
	m->unread_file = xstrdup(file ? file : "?");
}

struct module *module_named(struct dump *d, const char *name)
{
	int i;

	for (i = 0; i < d->nmods; i++)
		if (!strcmp(d->mods[i].name, name))
			return &d->mods[i];
	ALLOC_GROW(d->mods, d->nmods + 1, d->capmods);
	d->mods[d->nmods] = (struct module){ .name = xstrdup(name), .loaded = true };
	return &d->mods[d->nmods++];
}

/* @addr as "func+0xOFF [module]" from module @m's sections, or NULL. */
static char *module_sym(const struct report *r, struct module *m,
			unsigned long long addr)
{
	size_t i;
	int s;

	if (!m->loaded && r->modules_dir) {
		struct errmsg e;
		char *file;

		m->syms = ko_symbols(r->modules_dir, m->name, &m->nsyms, &file, &e);
		if (e.msg[0])	/* said in the report, not skipped in silence */
			module_unread(m, file, e.msg);
		free(file);
	}
	m->loaded = true;
	for (s = 0; s < m->nsecs; s++) {
		unsigned long long off = addr - m->secaddr[s];

		if (addr < m->secaddr[s])
			continue;
		for (i = 0; i < m->nsyms; i++)
			if (!strcmp(m->syms[i].section, m->secs[s]) &&
			    off >= m->syms[i].off &&
			    off < m->syms[i].off + (m->syms[i].size ? m->syms[i].size : 1))
				return xasprintf("%s+0x%llx [%s]", m->syms[i].name,
						 off - m->syms[i].off, m->name);
	}
	return NULL;
}

/*
 * "[module SECTION]+0xOFF" for @addr in a section a "module" line places
 * outside the module's core (base, size): its .init.text, allocated
 * apart (kernel/module/main.c: the init layout) and dropped after the
 * init.  The section with the highest start at or below @addr, when the
 * offset is within the module's core size (the line gives no section
 * size; no init text is near that big); else NULL.  A kernel symbol
 * before it would be the one below a gap (a capture's _einittext
 * "size" reaches the next symbol, ~1 GB on MIPS).
 */
static char *module_section_at(const struct dump *d, unsigned long long addr)
{
	const struct module *best = NULL;
	unsigned long long start = 0;
	int i, s, bs = 0;

	for (i = 0; i < d->nmods; i++)
		for (s = 0; s < d->mods[i].nsecs; s++)
			if (d->mods[i].secaddr[s] <= addr &&
			    (!best || d->mods[i].secaddr[s] > start)) {
				best = &d->mods[i];
				bs = s;
				start = d->mods[i].secaddr[s];
			}
	for (i = 0; best && i < d->nmods; i++)	/* a core nearer below */
		if (d->mods[i].base > start && d->mods[i].base <= addr)
			best = NULL;
	if (!best || addr - start >= best->size)
		return NULL;
	return xasprintf("[%s %s]+0x%llx", best->name, best->secs[bs],
			 addr - start);
}

/*
 * Name @addr of a perf callchain: "func+0xOFF" from the kernel's symbols,
 * "func+0xOFF [module]" inside a module with --modules, else
 * "[module]+0xOFF" (its core), "[module .init.text]+0xOFF" (a section of
 * its "module" line elsewhere) or the bare "0xADDR".
 */
static char *name_addr(struct report *r, unsigned long long addr)
{
	struct dump *d = &r->d;
	const struct ksym *s;
	char *name;
	int i;

	/* a module's function, wherever its section is (init text too) */
	for (i = 0; i < d->nmods; i++)
		if ((name = module_sym(r, &d->mods[i], addr)))
			return name;
	for (i = 0; i < d->nmods; i++)
		if (addr >= d->mods[i].base && addr < d->mods[i].base + d->mods[i].size)
			return xasprintf("[%s]+0x%llx", d->mods[i].name,
					 addr - d->mods[i].base);
	if ((name = module_section_at(d, addr)))
		return name;
	if (r->k && (s = ksym_at(r->k, addr - r->kaslr)))
		return xasprintf("%s+0x%llx", s->name, addr - r->kaslr - s->addr);
	return xasprintf("0x%llx", addr);
}

/* The ELF machine of the dump's "arch" line (mipsel, x86_64, arm64...). */
static int dump_machine(const struct dump *d)
{
	const struct arch *a = d->arch ? arch_find(d->arch) : NULL;

	return a ? (int)a->elf_machine : EM_NONE;
}

/*
 * Give @s's callchain to @h; a "perf-user" sample's user stack, unwound
 * (ustack.c), becomes its user frames (without --sysroot, when the
 * kernel's userstacktrace gave some, those are kept).  A kprobe's
 * "stack user" sample has both: its kernel callchain and the user stack
 * of the task the hit was in, unwound through the task's mappings.
 */
static void take_sample(struct report *r, struct hit *h, struct sample *s)
{
	unsigned long long off = 0;
	char *path = NULL;
	int k;

	if (!s->user || s->kernel) {
		h->perf = h->stack = true;
		h->nframes = 0;
		h->deep = s->deep;
		for (k = 0; k < s->n; k++)
			push_str(&h->frames, &h->nframes, &h->capframes,
				 name_addr(r, s->addrs[k]));
	}
	if (!s->user)
		return;
	h->perf = true;
	if (!r->sysroot && h->nuframes)
		return;	/* not unwound without --sysroot: the kernel's own user frames say more */
	h->ustack = true;
	for (k = 0; k < h->nuframes; k++)
		free(h->uframes[k]);
	h->nuframes = 0;
	s->machine = dump_machine(&r->d);
	/* a kprobe's: the program is whichever the task runs (its mappings tell) */
	if (!s->kernel)
		uprobe_def(r, h->probe, &path, &off);
	ustack_frames(s, r->d.umaps, r->d.numaps, r->sysroot,
		      s->kernel ? NULL : path ? path : "?", off,
		      !s->kernel && uprobe_is_return(r, h->probe), &h->uframes,
		      &h->nuframes, &h->capuframes);
	free(path);
}

/*
 * Whether trace hit @h may be perf sample @s's: the same probe and task,
 * and not before the agent started (on the trace's clock), when no
 * perf event of it was open: before it the same PID is another program
 * (the kernel's init, then the agent as PID 1 and the real init after
 * its exec).
 */
static bool same_task(const struct dump *d, const struct hit *h,
		      const struct sample *s)
{
	return !strcmp(h->probe, s->probe) && task_pid(h->task) == s->pid &&
	       !(d->timebase && h->ts < d->init_time);
}

static bool same_key(const struct sample *a, const struct sample *b)
{
	return !strcmp(a->probe, b->probe) && a->pid == b->pid;
}

/*
 * Pair the samples of @s's probe and task with that task's trace hits of
 * the probe in order, when there are as many of each: one task's hits of
 * one probe reach both rings in the order they happen.  Marks what it
 * paired in @used.
 */
static void pair_in_order(struct report *r, const struct sample *s, bool *used)
{
	struct dump *d = &r->d;
	int i, j, ns = 0, nh = 0;

	for (i = 0; i < d->nsamples; i++)
		ns += same_key(&d->samples[i], s);
	for (j = 0; j < d->nhits; j++)
		nh += !d->hits[j].perf && same_task(d, &d->hits[j], s);
	if (ns != nh)
		return;
	i = 0;
	for (j = 0; j < d->nhits; j++) {
		if (d->hits[j].perf || !same_task(d, &d->hits[j], s))
			continue;
		while (!same_key(&d->samples[i], s))
			i++;
		take_sample(r, &d->hits[j], &d->samples[i]);
		used[i++] = true;
	}
}

/*
 * Give each perf sample's callchain to the trace hit it belongs to.  The
 * trace and perf both stamp with sched_clock, each handler reading it on
 * its own (kprobe_dispatcher: trace first, then perf): a QEMU vCPU on a
 * loaded host can stall between the two (7 ms measured), and a loaded
 * Malta boot stamped a hit 3.21 s in the trace and 1.11 s in perf.  So
 * order decides first: when a task has as many samples of a probe as
 * trace hits (nothing lost in either ring), the Nth sample is the Nth
 * hit's (pair_in_order()).  Otherwise the nearest hit of the same probe
 * and task within 100 ms takes a sample.  A sample no hit takes is
 * counted (the trace may have dropped or overwritten it).
 */
static void join_samples(struct report *r)
{
	struct dump *d = &r->d;
	bool *used = xcalloc(d->nsamples ? d->nsamples : 1, sizeof(*used));
	int i, j;

	for (i = 0; i < d->nsamples; i++) {
		for (j = 0; j < i && !same_key(&d->samples[j], &d->samples[i]); j++)
			;
		if (j == i)	/* the first of its probe and task */
			pair_in_order(r, &d->samples[i], used);
	}
	for (i = 0; i < d->nsamples; i++) {
		struct sample *s = &d->samples[i];
		struct hit *best = NULL;
		double bestdt = 0.1;

		if (used[i])
			continue;
		for (j = 0; j < d->nhits; j++) {
			struct hit *h = &d->hits[j];
			double dt = h->ts > s->ts ? h->ts - s->ts : s->ts - h->ts;

			if (!h->perf && dt <= bestdt && same_task(d, h, s)) {
				best = h;
				bestdt = dt;
			}
		}
		if (best)
			take_sample(r, best, s);
		else
			d->unmatched++;
	}
	free(used);
}

/*
 * The uprobe @name's file and offset: from the "uprobe_events" item the
 * agent wrote ("p:uprobes/NAME PATH:0xOFF ..."), else from the probe
 * file.  *@path is malloc'd; false when neither says.
 */
bool uprobe_def(const struct report *r, const char *name, char **path,
		       unsigned long long *off)
{
	const char *p, *want = "\tuprobe_events\t";
	const struct probe *pr;
	size_t n = strlen(name);

	for (p = r->d.items.s ? r->d.items.s : ""; *p; p = strchr(p, '\n') + 1) {
		const char *nl = strchr(p, '\n'), *def, *sp, *colon;

		if (strncmp(p, name, n) || p[n] != '\t' ||
		    !(def = strstr(p, want)) || def > nl ||
		    !(sp = strchr(def + strlen(want), ' ')) || sp > nl ||
		    !(colon = strchr(sp, ':')) || colon > nl)
			continue;
		*path = xstrndup(sp + 1, colon - sp - 1);
		*off = strtoull(colon + 1, NULL, 0);
		return true;
	}
	for (pr = r->prog ? r->prog->probes : NULL; pr; pr = pr->next)
		if ((pr->kind == P_UPROBE || pr->kind == P_URETPROBE) &&
		    !strcmp(pr->name, name) && !pr->usym) {
			*path = xstrdup(pr->target);
			*off = (unsigned long long)pr->offset;
			return true;
		}
	return false;
}

/*
 * Is the uprobe @name a uretprobe?  From its "uprobe_events" item
 * ("r:uprobes/NAME ...", as uprobe_def() reads it), else from the probe
 * file; false when neither says.
 */
bool uprobe_is_return(const struct report *r, const char *name)
{
	const char *p, *want = "\tuprobe_events\t";
	const struct probe *pr;
	size_t n = strlen(name);

	for (p = r->d.items.s ? r->d.items.s : ""; *p; p = strchr(p, '\n') + 1) {
		const char *nl = strchr(p, '\n'), *def;

		if (!nl)
			break;
		if (!strncmp(p, name, n) && p[n] == '\t' && (def = strstr(p, want)) && def < nl)
			return def[strlen(want)] == 'r';
	}
	for (pr = r->prog ? r->prog->probes : NULL; pr; pr = pr->next)
		if (pr->kind == P_URETPROBE && !strcmp(pr->name, name))
			return true;
	return false;
}

/* The address a uprobe event printed: "(0x4005e0) ..." or "(RET <- 0xFUNC)". */
static bool hit_ip(const struct hit *h, unsigned long long *ip)
{
	const char *a = strstr(h->args, " <- 0x");

	a = a && a < strchr(h->args, ')') ? a + 4 : h->args + 1;
	if (h->args[0] != '(' || strncmp(a, "0x", 2))
		return false;
	*ip = strtoull(a, NULL, 16);
	return true;
}

/*
 * Name the <user stack trace> frames of uprobe hits from the probed
 * file under --sysroot (facts/uelf.c): the kernel prints each as
 * " <%016lx>" without the sym-userobj option (trace_output.c,
 * seq_print_user_ip()); the load bias comes from the hit's own address
 * and the probe's file offset.  A frame the file does not hold (libc
 * of a dynamic program) or no symbol names stays as printed.
 */
static void name_user_frames(struct report *r)
{
	struct dump *d = &r->d;
	struct errmsg e;
	char buf[320];
	int i, j;

	for (i = 0; r->sysroot && i < d->nhits; i++) {
		struct hit *h = &d->hits[i];
		unsigned long long off, ip;
		char *path, *file;

		for (j = 0; j < h->nuframes && h->uframes[j][0] != '<'; j++)
			;
		if (j == h->nuframes || !hit_ip(h, &ip) || !uprobe_def(r, h->probe, &path, &off))
			continue;	/* no frame the kernel printed as an address */
		/* the dump's uprobe_events item is the guest's word: inside --sysroot only */
		if (!(file = sysroot_path(r->sysroot, path, &e))) {
			push_str(&h->uframes, &h->nuframes, &h->capuframes,
				 xasprintf(USTACK_MARK "not named: %s]", e.msg));
			free(path);
			continue;
		}
		for (j = 0; j < h->nuframes; j++) {
			const char *f = h->uframes[j];

			if (*f != '<' || uelf_name_addr(file, off, ip, strtoull(f + 1, NULL, 16),
							buf, sizeof(buf)))
				continue;
			free(h->uframes[j]);
			h->uframes[j] = xasprintf("%s [%s]", buf, path);
		}
		free(file);
		free(path);
	}
}

/*
 * A previous boot's dynamic events are printed field by field (6.12
 * kernel/trace/trace.c print_trace_fmt(): a format is not trusted across
 * a moved kernel), a kprobe's as "__probe_ip=0xADDR (N) ...", ADDR in the
 * hung boot's text.  That boot's _stext was this boot's minus text_delta
 * ("last_boot", from last_boot_info), so ADDR + text_delta is the same
 * place in this boot, named from the capture (r->kaslr: this boot's
 * shift against it).  The name goes first, as the kernel prints a
 * kprobe's own: "(FUNC+0xOFF) __probe_ip=...".
 */
static void name_previous_ips(struct report *r)
{
	int i;

	if (!r->k || !r->d.stext)
		return;
	for (i = 0; i < r->d.nhits; i++) {
		struct hit *h = &r->d.hits[i];
		unsigned long long ip, at;
		const struct ksym *s;
		char *end;

		if (strncmp(h->args, "__probe_ip=0x", 13))
			continue;
		ip = strtoull(h->args + 11, &end, 16);
		at = ip + (unsigned long long)r->d.text_delta - r->kaslr;
		if (end == h->args + 11 || !(s = ksym_at(r->k, at)))
			continue;
		h->args = xasprintf("(%s+0x%llx) %s", s->name, at - s->addr, h->args);
	}
}

/* dumpread's name_frame: "0xffffffff81234567" -> "func+0x17" (symbolize()). */
static char *name_frame(void *arg, char *frame)
{
	return symbolize(arg, frame);
}

/*
 * dump_read() - read the capture @text (@len bytes; a body in it may be
 * modified in place) into r->d (dumpread_capture(), --previous's
 * capture too), then: perf callchains joined to the hits and named with
 * r->k (set r->k and r->modules_dir first), user stack frames named
 * through r->sysroot.
 */
void dump_read(struct report *r, char *text, size_t len)
{
	struct dumpread_opts o = {
		.name_frame = name_frame, .arg = r,
		.prev_text = r->prev_text, .prev_len = r->prev_len,
		.prev_name = r->previous,
	};

	dumpread_capture(&r->d, &o, text, len);
	if (r->k && r->d.stext) {
		const struct ksym *s = ksym_find(r->k, "_stext");

		if (s)
			r->kaslr = r->d.stext - s->addr;
	}
	if (r->d.previous)
		name_previous_ips(r);
	join_samples(r);
	name_user_frames(r);
}

/* dump_console_trace() - the console's ftrace dump joined to r->d (dumpread_console()). */
void dump_console_trace(struct report *r, const char *text)
{
	struct dumpread_opts o = { .name_frame = name_frame, .arg = r };

	dumpread_console(&r->d, &o, text);
}

/*
 * Add @name to r->names unless @seen has it (*@cap: the array's room);
 * the name kept, the first of its spelling.
 */
static const char *add_name(struct report *r, struct strmap *seen,
			    const char *name, int *cap)
{
	const char *had = strmap_get(seen, name, strlen(name));

	if (had)
		return had;
	xstrmap_put(seen, name, strlen(name), (void *)name);
	ALLOC_GROW(r->names, r->nnames + 1, *cap);
	r->names[r->nnames++] = name;
	return name;
}

/*
 * dump_probe_names() - r->names: the distinct probe names of the hits,
 * in order of first hit (pointing into the hits), then those of the
 * probe file (--probes) that no hit has, in the file's order: its
 * probes (an event by its EVENT, as its hits are named) and the
 * function tracer's names that are not globs, when there is a dump to
 * count them in: 0 hits is an answer too.  r->nnames of them.  Every
 * hit's probe then points to its name in r->names (one string per
 * name), so an output can tell a hit's name by its pointer.  A map of
 * the names seen: a function trace of 90,000 hits over 700 functions
 * spent a second in strcmp() when each name was looked for in a list.
 */
void dump_probe_names(struct report *r)
{
	struct dump *d = &r->d;
	const struct probe *p;
	const struct name *n;
	struct strmap seen = { 0 };
	int i, cap = 0;

	for (i = 0; i < d->nhits; i++)
		d->hits[i].probe = (char *)add_name(r, &seen, d->hits[i].probe, &cap);
	/* without a dump, 0 would be a claim nothing backs */
	if (r->prog && dump_evidence(d)) {
		for (n = r->prog->functions; n; n = n->next)
			if (!strpbrk(n->s, "*?["))
				add_name(r, &seen, n->s, &cap);
		for (n = r->prog->graph; n; n = n->next)
			if (!strpbrk(n->s, "*?["))
				add_name(r, &seen, n->s, &cap);
		for (p = r->prog->probes; p; p = p->next)
			add_name(r, &seen, p->name, &cap);
	}
	strmap_free(&seen);
}
