// SPDX-License-Identifier: GPL-2.0
/*
 * probecc report: read the agent's dumps (docs/plan.md), summarise them
 * for a person, write machine outputs, and check the probe file's
 * expectations.
 *
 *   probecc report DUMP [--probes FILE] [--json OUT] [--folded OUT]
 *                       [--svg OUT] [--junit OUT] [--system-map FILE]
 *                       [--target FILE] [--vmlinux FILE] [--modules DIR]
 *
 * --system-map takes a System.map or a copy of /proc/kallsyms, --target
 * a capture, --vmlinux the ELF kernel: they name the stack frames the
 * kernel printed as bare addresses and the agent's perf callchains.
 * --modules (the image's /lib/modules/RELEASE) names callchain addresses
 * inside modules, placed by the dump's "module" lines.  An address
 * nothing names is shown as such ("0x..." or "[module]+0x..."), never
 * dropped.
 *
 * The agent's "perf" samples (docs/plan.md) are joined to the trace's
 * hits of the same probe, task and time: their callchain becomes the
 * hit's stack, in place of the kernel's own (truncated on MIPS).
 *
 * DUMP is the raw capture of the dump channel (several framed dumps) or
 * one dump.  The last complete dump holds every event the ring buffer
 * kept; the first one tells when userspace started (its uptime minus the
 * agent's own time).  Trace lines are the kernel's text format
 * (kernel/trace/trace_output.c): "TASK-PID [CPU] FLAGS TIME: BODY", a
 * "<stack trace>" line followed by " => FUNC" frames.
 *
 * Exit status: 0 when every expectation holds, 1 when one does not, 2
 * for bad usage or an unreadable dump.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "kernel.h"

#define MAX_FRAMES	64

struct hit {
	char *probe;		/* event name, or the traced function */
	char *task;
	double ts;		/* seconds since boot */
	char *args;		/* the body after "NAME: " ("" for functions) */
	char *parent;		/* function tracer: the caller after "<-" */
	char *frames[MAX_FRAMES];	/* the <stack trace>, innermost first */
	int nframes;
	bool stack;		/* a <stack trace> followed */
	bool perf;		/* frames are a perf callchain */
};

/* A "perf" line: one sample of a probe with its kernel callchain. */
struct sample {
	char *probe;
	double ts;		/* seconds, perf's clock (local_clock) */
	long pid;
	unsigned long long addrs[MAX_FRAMES];
	int n;
};

/* A "module" line: where a module's core and code sections were. */
struct module {
	char *name;
	unsigned long long base, size;
	char *secs[16];		/* code section names ... */
	unsigned long long secaddr[16];	/* ... and addresses in that boot */
	int nsecs;
	struct ko_sym *syms;	/* from --modules; NULL: none */
	size_t nsyms;
	bool loaded;		/* syms looked up */
};

struct dumpinfo {
	int ndumps;
	double init_time;	/* uptime of userspace start; -1: unknown */
	struct strbuf items;	/* "item" lines of the last dump */
	struct strbuf cpus;	/* "cpu" lines of the last dump */
	char *uname;
	struct hit *hits;
	int nhits, cap;
	struct sample *samples;
	int nsamples, capsamples, unmatched;
	struct module mods[512];
	int nmods;
	unsigned long long stext;	/* "stext": _stext in that boot; 0: unknown */
};

static char *symbolize(char *frame);
static const char *modules_dir;	/* --modules, or NULL */

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb = { 0 };
	char buf[65536];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_addf(&sb, "%.*s", (int)n, buf);
	fclose(f);
	return sb.s ? sb.s : xstrdup("");
}

/* The body of the last complete dump, and the first dump's timing. */
static char *last_dump(char *text, struct dumpinfo *d)
{
	char *p = text, *last = NULL, *begin, *end;
	bool first = true;

	d->init_time = -1;
	for (;;) {
		begin = strstr(p, "=== probecc dump ");
		if (!begin)
			break;
		begin = strchr(begin, '\n');
		if (!begin)
			break;
		end = strstr(begin, "\n=== probecc dump ");
		if (!end || !strstr(end, " end ==="))
			break;
		*end = '\0';
		if (first) {
			const char *u = strstr(begin, "\nuptime\t");
			const char *a = strstr(begin, "\nagent_us\t");

			if (u && a)
				d->init_time = atof(u + 8) - atof(a + 10) / 1e6;
			first = false;
		}
		last = begin + 1;
		d->ndumps++;
		p = strchr(end + 1, '\n');
		if (!p)
			break;
	}
	return last ? last : text;	/* no frames: the file is one dump */
}

static void add_hit(struct dumpinfo *d, struct hit *h)
{
	if (d->nhits == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 256;
		d->hits = realloc(d->hits, d->cap * sizeof(*d->hits));
		if (!d->hits)
			fatal("out of memory");
	}
	d->hits[d->nhits++] = *h;
}

/*
 * One trace line: "   TASK-PID   [CPU] FLAGS   TIME: BODY".  The task may
 * hold spaces and dashes, so the line is read from the "[CPU]" outwards.
 */
static void trace_line(struct dumpinfo *d, char *line)
{
	char *cpu = strstr(line, "] "), *colon, *body, *task, *sp;
	struct hit h = { 0 };

	if (!strncmp(line, " => ", 4)) {
		struct hit *last = d->nhits ? &d->hits[d->nhits - 1] : NULL;

		if (last && last->stack && last->nframes < MAX_FRAMES)
			last->frames[last->nframes++] = symbolize(xstrdup(line + 4));
		return;
	}
	if (line[0] == '#' || !cpu || !(colon = strstr(cpu, ": ")))
		return;
	task = line;
	while (*task == ' ')
		task++;
	sp = strstr(task, " [");
	if (!sp)
		return;
	/* TIME: the last word before ": " */
	body = colon + 2;
	*colon = '\0';
	h.ts = atof(strrchr(cpu, ' ') + 1);
	h.task = xstrndup(task, sp - task);
	while (h.task[0] && h.task[strlen(h.task) - 1] == ' ')
		h.task[strlen(h.task) - 1] = '\0';
	if (!strcmp(body, "<stack trace>")) {
		/* Belongs to the task's previous hit. */
		int i;

		for (i = d->nhits - 1; i >= 0; i--)
			if (!strcmp(d->hits[i].task, h.task)) {
				d->hits[i].stack = true;
				/* keep the hit last so " => " lines attach to it */
				if (i != d->nhits - 1) {
					struct hit tmp = d->hits[i];

					memmove(&d->hits[i], &d->hits[i + 1],
						(d->nhits - i - 1) * sizeof(tmp));
					d->hits[d->nhits - 1] = tmp;
				}
				break;
			}
		return;
	}
	sp = strstr(body, " <-");
	if (sp && !strchr(body, ':')) {
		/* function tracer: "FUNC <-PARENT" */
		h.probe = xstrndup(body, sp - body);
		h.parent = xstrdup(sp + 3);
		h.args = xstrdup("");
	} else if ((sp = strstr(body, ": ")) && !strchr(xstrndup(body, sp - body), ' ')) {
		h.probe = xstrndup(body, sp - body);
		h.args = xstrdup(sp + 2);
	} else {
		return;
	}
	add_hit(d, &h);
}

/*
 * Cut @line at its first @n - 1 TABs into @f (the last field keeps the
 * rest).  False when it has fewer than @n fields.
 */
static bool tab_fields(char *line, char **f, int n)
{
	char *save = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (!(f[i] = strtok_r(i ? NULL : line, i == n - 1 ? "" : "\t", &save)))
			return false;
	return true;
}

/* "PROBE TIME_NS CPU PID TID ADDR ADDR ..." (docs/plan.md "perf"). */
static void perf_line(struct dumpinfo *d, char *line)
{
	char *f[6], *save = NULL, *a;
	struct sample *s;

	if (!tab_fields(line, f, 6))
		return;
	if (d->nsamples == d->capsamples) {
		d->capsamples = d->capsamples ? d->capsamples * 2 : 64;
		d->samples = realloc(d->samples, d->capsamples * sizeof(*d->samples));
		if (!d->samples)
			fatal("out of memory");
	}
	s = &d->samples[d->nsamples++];
	memset(s, 0, sizeof(*s));
	s->probe = xstrdup(f[0]);
	s->ts = strtoull(f[1], NULL, 10) / 1e9;
	s->pid = strtol(f[4], NULL, 10);
	for (a = strtok_r(f[5], " ", &save); a && s->n < MAX_FRAMES;
	     a = strtok_r(NULL, " ", &save))
		if (strncmp(a, "u:", 2))	/* kernel addresses only */
			s->addrs[s->n++] = strtoull(a, NULL, 16);
}

/* "NAME BASE SIZE SEC=ADDR,SEC=ADDR" (docs/plan.md "module"). */
static void module_line(struct dumpinfo *d, char *line)
{
	char *f[4], *save = NULL, *sec;
	struct module *m;

	if (!tab_fields(line, f, 4))
		return;
	if (d->nmods == (int)(sizeof(d->mods) / sizeof(d->mods[0])))
		return;
	m = &d->mods[d->nmods++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(f[0]);
	m->base = strtoull(f[1], NULL, 16);
	m->size = strtoull(f[2], NULL, 10);
	for (sec = strtok_r(f[3], ",", &save); sec && m->nsecs < 16;
	     sec = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(sec, '=');

		if (!eq)
			continue;
		m->secs[m->nsecs] = xstrndup(sec, eq - sec);
		m->secaddr[m->nsecs++] = strtoull(eq + 1, NULL, 16);
	}
}

/* @addr as "func+0xOFF [module]" from module @m's sections, or NULL. */
static char *module_sym(struct module *m, unsigned long long addr)
{
	size_t i;
	int s;

	if (!m->loaded && modules_dir)
		m->syms = ko_symbols(modules_dir, m->name, &m->nsyms);
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

static void parse_dump(char *dump, struct dumpinfo *d)
{
	char *line, *save = NULL;
	bool trace = false;

	for (line = strtok_r(dump, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *cr = strchr(line, '\r');

		if (cr)
			*cr = '\0';
		if (!trace) {
			if (!strcmp(line, "--- trace ---"))
				trace = true;
			else if (!strncmp(line, "item\t", 5))
				sb_addf(&d->items, "%s\n", line + 5);
			else if (!strncmp(line, "cpu\t", 4))
				sb_addf(&d->cpus, "%s\n", line + 4);
			else if (!strncmp(line, "uname\t", 6))
				d->uname = xstrdup(line + 6);
			else if (!strncmp(line, "perf\t", 5))
				perf_line(d, line + 5);
			else if (!strncmp(line, "module\t", 7))
				module_line(d, line + 7);
			else if (!strncmp(line, "stext\t", 6))
				d->stext = strtoull(line + 6, NULL, 16);
			continue;
		}
		trace_line(d, line);
	}
}

/* The value of FIELD in a hit's args ("name=\"bond%d\" ret=-2"), or NULL. */
static char *arg_value(const char *args, const char *field)
{
	size_t n = strlen(field);
	const char *p = args;

	while ((p = strstr(p, field))) {
		if ((p == args || p[-1] == ' ') && p[n] == '=') {
			const char *v = p + n + 1, *e;

			if (*v == '"') {
				e = strchr(v + 1, '"');
				e = e ? e + 1 : v + strlen(v);
			} else {
				e = v + strcspn(v, " ");
			}
			return xstrndup(v, e - v);
		}
		p += n;
	}
	return NULL;
}

/* A static event's hit is named by its EVENT; a target may be GROUP:EVENT. */
static bool hit_is(const struct hit *h, const char *target)
{
	const char *colon = strchr(target, ':');

	return !strcmp(h->probe, colon ? colon + 1 : target);
}

/* @func is in the hit's stack, or is the caller the function tracer saw. */
static bool has_frame(const struct hit *h, const char *func)
{
	size_t n = strlen(func);
	int i;

	if (h->parent && !strcmp(h->parent, func))
		return true;
	for (i = 0; i < h->nframes; i++)
		if (!strncmp(h->frames[i], func, n) &&
		    (!h->frames[i][n] || strchr(" +[", h->frames[i][n])))
			return true;
	return false;
}

/* ---- --system-map / --target: symbolize frames printed as addresses ---- */

static struct kernel *rk;	/* NULL: no symbols */

/* "0xffffffff81234567" -> "func+0x17", when the kernel has it; else unchanged. */
static char *symbolize(char *frame)
{
	const struct ksym *s;
	unsigned long long addr;
	char *end;

	if (!rk || strncmp(frame, "0x", 2))
		return frame;
	addr = strtoull(frame, &end, 16);
	if (*end || !(s = ksym_at(rk, addr)))
		return frame;
	return xasprintf("%s+0x%llx", s->name, addr - s->addr);
}

static unsigned long long kaslr;	/* the boot's _stext minus the symbols' */

/*
 * Name @addr of a perf callchain: "func+0xOFF" from the kernel's symbols,
 * "func+0xOFF [module]" inside a module with --modules, else
 * "[module]+0xOFF" or the bare "0xADDR".
 */
static char *name_addr(struct dumpinfo *d, unsigned long long addr)
{
	const struct ksym *s;
	char *name;
	int i;

	/* a module's function, wherever its section is (init text too) */
	for (i = 0; i < d->nmods; i++)
		if ((name = module_sym(&d->mods[i], addr)))
			return name;
	for (i = 0; i < d->nmods; i++)
		if (addr >= d->mods[i].base && addr < d->mods[i].base + d->mods[i].size)
			return xasprintf("[%s]+0x%llx", d->mods[i].name,
					 addr - d->mods[i].base);
	if (rk && (s = ksym_at(rk, addr - kaslr)))
		return xasprintf("%s+0x%llx", s->name, addr - kaslr - s->addr);
	return xasprintf("0x%llx", addr);
}

/* The PID at the end of a trace task "COMM-PID", or -1. */
static long task_pid(const char *task)
{
	const char *dash = strrchr(task, '-');

	return dash ? strtol(dash + 1, NULL, 10) : -1;
}

/*
 * Give each perf sample's callchain to the trace hit it belongs to: same
 * probe and task, the nearest time within 100 ms.  The trace and perf
 * both stamp with sched_clock, but each handler reads it on its own
 * (kprobe_dispatcher: trace first, then perf), and a QEMU vCPU on a
 * loaded host can stall between the two: 7 ms measured.  A sample no
 * hit takes is counted (the trace may have dropped or overwritten it).
 */
static void join_samples(struct dumpinfo *d)
{
	int i, j, k;

	for (i = 0; i < d->nsamples; i++) {
		struct sample *s = &d->samples[i];
		struct hit *best = NULL;
		double bestdt = 0.1;

		for (j = 0; j < d->nhits; j++) {
			struct hit *h = &d->hits[j];
			double dt = h->ts > s->ts ? h->ts - s->ts : s->ts - h->ts;

			if (!h->perf && dt <= bestdt && !strcmp(h->probe, s->probe) &&
			    task_pid(h->task) == s->pid) {
				best = h;
				bestdt = dt;
			}
		}
		if (!best) {
			d->unmatched++;
			continue;
		}
		best->perf = best->stack = true;
		best->nframes = 0;
		for (k = 0; k < s->n; k++)
			best->frames[best->nframes++] = name_addr(d, s->addrs[k]);
	}
}

/* Evaluate @e; a one-line reason goes to @why. */
static bool evaluate(const struct expectation *e, const struct dumpinfo *d,
		     char *why, size_t size)
{
	long long count = 0;
	int i;

	switch (e->kind) {
	case E_ARMED: {
		const char *p = d->items.s ? d->items.s : "";
		int bad = 0;

		for (; *p; p = strchr(p, '\n') + 1) {
			const char *st = strchr(p, '\t');

			if (st && (!strncmp(st + 1, "failed\t", 7) || !strncmp(st + 1, "missing\t", 8)))
				bad++;
		}
		snprintf(why, size, "%d item(s) failed or missing", bad);
		return bad == 0;
	}
	case E_NOLOST: {
		const char *p = d->cpus.s ? d->cpus.s : "";
		long long lost = 0;

		for (; *p; p = strchr(p, '\n') + 1) {
			const char *o = strstr(p, "overrun\t"), *dr = strstr(p, "dropped\t");

			lost += (o ? atoll(o + 8) : 0) + (dr ? atoll(dr + 8) : 0);
		}
		snprintf(why, size, "%lld event(s) overrun or dropped", lost);
		return lost == 0;
	}
	case E_HITS:
		for (i = 0; i < d->nhits; i++) {
			const struct hit *h = &d->hits[i];

			if (!hit_is(h, e->target))
				continue;
			if (e->when != W_ANY && d->init_time < 0)
				continue;
			if (e->when == W_BEFORE_INIT && h->ts >= d->init_time)
				continue;
			if (e->when == W_AFTER_INIT && h->ts < d->init_time)
				continue;
			count++;
		}
		snprintf(why, size, "%lld hit(s)", count);
		if (!strcmp(e->op, ">="))
			return count >= e->n;
		if (!strcmp(e->op, "<="))
			return count <= e->n;
		return count == e->n;
	case E_STACK:
		for (i = 0; i < d->nhits; i++)
			if (hit_is(&d->hits[i], e->target) &&
			    (d->hits[i].stack || d->hits[i].parent)) {
				count++;
				if (has_frame(&d->hits[i], e->func)) {
					snprintf(why, size, "in the stack of a hit at %.6f s",
						 d->hits[i].ts);
					return true;
				}
			}
		snprintf(why, size, "not in the stacks of %lld hit(s)", count);
		return false;
	case E_FIELD:
		for (i = 0; i < d->nhits; i++) {
			char *v;

			if (!hit_is(&d->hits[i], e->target))
				continue;
			count++;
			v = arg_value(d->hits[i].args, e->field);
			if (v && !strcmp(v, e->value)) {
				snprintf(why, size, "at %.6f s", d->hits[i].ts);
				free(v);
				return true;
			}
			free(v);
		}
		snprintf(why, size, "no hit of %lld took that value", count);
		return false;
	}
	return false;
}

/* ---- the caller tree: stacks merged, innermost frame first ---- */

struct node {
	char *name;
	int count;
	struct node *child, *next;
};

static void tree_add(struct node *root, char *const *frames, int n)
{
	struct node *cur = root;
	int i;

	root->count++;
	for (i = 0; i < n; i++) {
		struct node *c;

		for (c = cur->child; c && strcmp(c->name, frames[i]); c = c->next)
			;
		if (!c) {
			c = xcalloc(1, sizeof(*c));
			c->name = frames[i];
			c->next = cur->child;
			cur->child = c;
		}
		c->count++;
		cur = c;
	}
}

static void tree_print(FILE *out, const struct node *n, int depth)
{
	for (; n; n = n->next) {
		fprintf(out, "%*s%d %s\n", 6 + 2 * depth, "", n->count, n->name);
		tree_print(out, n->child, depth + 1);
	}
}

static void xml_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* The distinct probe names in order of first hit. */
static int probe_names(const struct dumpinfo *d, const char **names, int max)
{
	int i, j, n = 0;

	for (i = 0; i < d->nhits; i++) {
		for (j = 0; j < n && strcmp(names[j], d->hits[i].probe); j++)
			;
		if (j == n && n < max)
			names[n++] = d->hits[i].probe;
	}
	return n;
}

/* A memory stream for one machine output; stage_out() stages it. */
static FILE *open_out(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		fatal("out of memory");
	return f;
}

/* Close the memory stream @f (which sets *@buf) and stage it for @path. */
static void stage_out(const char *path, FILE *f, char **buf, size_t *len)
{
	if (fclose(f))
		fatal("cannot write %s", path);
	if (out_stage(path, *buf, *len)) {
		out_abort();
		fatal("cannot write %s: %s", path, strerror(errno));
	}
	free(*buf);
}

static const char usage[] =
	"usage: probecc report DUMP [--probes FILE] [--json OUT] [--folded OUT] [--svg OUT] [--junit OUT]\n"
	"                      [--system-map FILE] [--target FILE] [--vmlinux FILE] [--modules DIR]\n";

/* One verdict per expectation, computed once. */
struct verdict {
	bool ok;
	char why[256];
};

int report_main(int argc, char **argv)
{
	const char *dumppath = NULL, *probes = NULL, *json = NULL, *folded = NULL;
	const char *svg = NULL, *junit = NULL, *sysmap = NULL, *tpath = NULL;
	const char *vmlinux = NULL;
	struct dumpinfo d = { 0 };
	struct program *prog = NULL;
	const struct expectation *e;
	struct verdict *verdicts;
	const char *names[256];
	int i, j, nnames, failed = 0, nexp = 0;
	char *text;

	for (i = 1; i < argc; i++) {
		const char **slot = !strcmp(argv[i], "--probes") ? &probes :
				    !strcmp(argv[i], "--json") ? &json :
				    !strcmp(argv[i], "--folded") ? &folded :
				    !strcmp(argv[i], "--svg") ? &svg :
				    !strcmp(argv[i], "--junit") ? &junit :
				    !strcmp(argv[i], "--system-map") ? &sysmap :
				    !strcmp(argv[i], "--vmlinux") ? &vmlinux :
				    !strcmp(argv[i], "--modules") ? &modules_dir :
				    !strcmp(argv[i], "--target") ? &tpath : NULL;

		if (slot) {
			if (++i == argc) {
				fprintf(stderr, "probecc report: %s needs a file\n", argv[i - 1]);
				return 2;
			}
			*slot = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fputs(usage, stderr);
			return 2;
		} else {
			dumppath = argv[i];
		}
	}
	if (!dumppath) {
		fputs(usage, stderr);
		return 2;
	}
	if (probes) {
		struct source *src = xcalloc(1, sizeof(*src));

		src->name = probes;
		src->text = read_file(probes);
		if (!src->text) {
			fprintf(stderr, "probecc report: cannot read %s: %s\n", probes, strerror(errno));
			return 2;
		}
		src->len = strlen(src->text);
		prog = parse(tokenize(src));
	}
	if (sysmap || tpath || vmlinux) {
		rk = kernel_new();
		struct errmsg e;

		if ((tpath && kernel_load_target(rk, tpath, &e)) ||
		    (sysmap && kernel_load_system_map(rk, sysmap, &e)) ||
		    (vmlinux && kernel_load_vmlinux(rk, vmlinux, &e)))
			input_error("%s", e.msg);	/* exit 2: 1 is a failed expectation */
		kernel_index(rk);
	}
	text = read_file(dumppath);
	if (!text) {
		fprintf(stderr, "probecc report: cannot read %s: %s\n", dumppath, strerror(errno));
		return 2;
	}
	parse_dump(last_dump(text, &d), &d);
	if (rk && d.stext) {
		const struct ksym *s = ksym_find(rk, "_stext");

		if (s)
			kaslr = d.stext - s->addr;
	}
	join_samples(&d);

	/* ---- for a person ---- */
	printf("probecc report: %s: %d dump(s), kernel %s\n", dumppath, d.ndumps,
	       d.uname ? d.uname : "?");
	if (d.init_time >= 0)
		printf("userspace started at %.3f s\n", d.init_time);
	if (d.items.s) {
		const char *p;

		printf("not armed:\n");
		for (p = d.items.s; *p; p = strchr(p, '\n') + 1)
			if (strstr(p, "\tfailed\t") && strstr(p, "\tfailed\t") < strchr(p, '\n'))
				printf("  %.*s\n", (int)(strchr(p, '\n') - p), p);
			else if (strstr(p, "\tmissing\t") && strstr(p, "\tmissing\t") < strchr(p, '\n'))
				printf("  %.*s\n", (int)(strchr(p, '\n') - p), p);
	}
	if (d.cpus.s)
		printf("ring buffer:\n%s", d.cpus.s);
	if (d.nsamples)
		printf("perf callchains: %d sample(s), %d joined to trace hits%s\n",
		       d.nsamples, d.nsamples - d.unmatched,
		       !rk ? " (no kernel symbols: --target, --vmlinux or --system-map names them)" :
		       kaslr ? " (kernel text relocated this boot: symbols shifted by _stext)" : "");
	nnames = probe_names(&d, names, 256);
	printf("hits:\n");
	for (i = 0; i < nnames; i++) {
		struct node root = { 0 };
		int n = 0, before = 0;
		double first = -1;

		for (j = 0; j < d.nhits; j++) {
			const struct hit *h = &d.hits[j];

			if (strcmp(h->probe, names[i]))
				continue;
			n++;
			if (first < 0)
				first = h->ts;
			if (d.init_time >= 0 && h->ts < d.init_time)
				before++;
			if (h->nframes)
				tree_add(&root, h->frames, h->nframes);
			else if (h->parent)
				tree_add(&root, &h->parent, 1);
		}
		printf("  %-24s %5d hit(s), first at %.6f s, %d before userspace\n",
		       names[i], n, first, before);
		for (j = 0; j < d.nhits && n <= 8; j++)
			if (!strcmp(d.hits[j].probe, names[i]) && d.hits[j].args[0])
				printf("      %.6f %s: %s\n", d.hits[j].ts, d.hits[j].task, d.hits[j].args);
		if (root.child) {
			printf("    callers (innermost first, with counts):\n");
			tree_print(stdout, root.child, 0);
		}
	}

	/* ---- expectations ---- */
	if (prog && prog->expects)
		printf("expectations:\n");
	for (e = prog ? prog->expects : NULL; e; e = e->next)
		nexp++;
	verdicts = xcalloc(nexp + 1, sizeof(*verdicts));
	for (i = 0, e = prog ? prog->expects : NULL; e; e = e->next, i++) {
		struct verdict *v = &verdicts[i];

		v->ok = evaluate(e, &d, v->why, sizeof(v->why));
		failed += !v->ok;
		printf("  %s  %s  (%s)\n", v->ok ? "PASS" : "FAIL", e->text, v->why);
	}

	/* ---- machine outputs, staged and renamed together ---- */
	if (json) {
		char *buf;
		size_t len;
		FILE *f = open_out(&buf, &len);

		fprintf(f, "{\"dumps\": %d, \"init_time\": %.6f, \"hits\": [", d.ndumps, d.init_time);
		for (i = 0; i < d.nhits; i++) {
			fprintf(f, "%s\n  {\"probe\": ", i ? "," : "");
			json_string(f, d.hits[i].probe);
			fprintf(f, ", \"time\": %.6f, \"task\": ", d.hits[i].ts);
			json_string(f, d.hits[i].task);
			fprintf(f, ", \"args\": ");
			json_string(f, d.hits[i].args);
			if (d.hits[i].parent) {
				fprintf(f, ", \"parent\": ");
				json_string(f, d.hits[i].parent);
			}
			fprintf(f, ", \"stack\": [");
			for (j = 0; j < d.hits[i].nframes; j++) {
				fprintf(f, "%s", j ? ", " : "");
				json_string(f, d.hits[i].frames[j]);
			}
			fprintf(f, "]}");
		}
		fprintf(f, "\n], \"expectations\": [");
		for (i = 0, e = prog ? prog->expects : NULL; e; e = e->next, i++) {
			fprintf(f, "%s\n  {\"expect\": ", i ? "," : "");
			json_string(f, e->text);
			fprintf(f, ", \"pass\": %s, \"why\": ", verdicts[i].ok ? "true" : "false");
			json_string(f, verdicts[i].why);
			fprintf(f, "}");
		}
		fprintf(f, "\n]}\n");
		stage_out(json, f, &buf, &len);
	}
	if (folded) {
		char *buf;
		size_t len;
		FILE *f = open_out(&buf, &len);

		/* flamegraph.pl input: outermost;...;innermost;probe 1 */
		for (i = 0; i < d.nhits; i++) {
			for (j = d.hits[i].nframes - 1; j >= 0; j--)
				fprintf(f, "%s;", d.hits[i].frames[j]);
			if (!d.hits[i].nframes && d.hits[i].parent)
				fprintf(f, "%s;", d.hits[i].parent);
			fprintf(f, "%s 1\n", d.hits[i].probe);
		}
		stage_out(folded, f, &buf, &len);
	}
	if (svg) {
		char *buf;
		size_t len;
		FILE *f = open_out(&buf, &len);
		double end = 1;
		int w = 800, row = 20, left = 180;

		for (i = 0; i < d.nhits; i++)
			if (d.hits[i].ts > end)
				end = d.hits[i].ts;
		fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" font-size=\"12\">\n",
			left + w + 20, row * (nnames + 2));
		fprintf(f, "<text x=\"4\" y=\"14\">probe hits against boot time (0 to %.2f s)</text>\n", end);
		if (d.init_time >= 0)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"red\"><title>userspace starts at %.3f s</title></line>\n",
				left + w * d.init_time / end, row, left + w * d.init_time / end,
				row * (nnames + 1), d.init_time);
		for (i = 0; i < nnames; i++) {
			fprintf(f, "<text x=\"4\" y=\"%d\">", row * (i + 2) - 6);
			xml_escaped(f, names[i]);
			fprintf(f, "</text>\n");
			for (j = 0; j < d.nhits; j++)
				if (!strcmp(d.hits[j].probe, names[i]))
					fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"2\" height=\"%d\" fill=\"steelblue\"><title>%.6f s</title></rect>\n",
						left + w * d.hits[j].ts / end, row * (i + 1) + 4, row - 8,
						d.hits[j].ts);
		}
		fprintf(f, "</svg>\n");
		stage_out(svg, f, &buf, &len);
	}
	if (junit) {
		char *buf;
		size_t len;
		FILE *f = open_out(&buf, &len);

		fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
		fprintf(f, "<testsuite name=\"probecc\" tests=\"%d\" failures=\"%d\">\n", nexp, failed);
		for (i = 0, e = prog ? prog->expects : NULL; e; e = e->next, i++) {
			fprintf(f, "  <testcase classname=\"probecc\" name=\"");
			xml_escaped(f, e->text);
			fprintf(f, "\">");
			if (!verdicts[i].ok) {
				fprintf(f, "<failure message=\"");
				xml_escaped(f, verdicts[i].why);
				fprintf(f, "\"/>");
			}
			fprintf(f, "</testcase>\n");
		}
		fprintf(f, "</testsuite>\n");
		stage_out(junit, f, &buf, &len);
	}
	if (out_commit()) {
		out_abort();
		fatal("cannot rename the outputs into place: %s", strerror(errno));
	}
	if (nexp)
		printf("%d of %d expectation(s) hold\n", nexp - failed, nexp);
	return failed ? 1 : 0;
}
