// SPDX-License-Identifier: GPL-2.0
/*
 * The dump reader: the raw capture of the dump channel (docs/plan.md) ->
 * struct dump.  The capture holds several framed dumps; the last complete
 * one holds every event the ring buffer kept, the first tells when
 * userspace started (its uptime minus the agent's own time).  Trace lines
 * are the kernel's text format (kernel/trace/trace_output.c): "TASK-PID
 * [CPU] FLAGS TIME: BODY", a "<stack trace>" line followed by " => FUNC"
 * frames.
 *
 * The agent's "perf" samples are joined to the trace's hits of the same
 * probe, task and time: their callchain becomes the hit's stack, in place
 * of the kernel's own (truncated on MIPS).  Frames printed as addresses
 * are named from the kernel's symbols (--system-map, --target,
 * --vmlinux) and the modules' (--modules); an address nothing names is
 * shown as such ("0x..." or "[module]+0x..."), never dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "report-int.h"

/* realloc(@p) to @n elements of @size, or exit naming the count. */
void *xrealloc_array(void *p, size_t n, size_t size)
{
	if (n && size > (size_t)-1 / n)
		fatal("out of memory (%zu elements of %zu bytes)", n, size);
	p = realloc(p, n * size);
	if (!p)
		fatal("out of memory (%zu elements of %zu bytes)", n, size);
	return p;
}

/* Append @s to the growable array @arr of *@n (capacity *@cap) pointers. */
static void push_str(char ***arr, int *n, int *cap, char *s)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*arr = xrealloc_array(*arr, *cap, sizeof(**arr));
	}
	(*arr)[(*n)++] = s;
}

/*
 * A frame line "=== probecc dump N begin ===" or "... end ===" of @len
 * bytes: N, with *@end telling which; 0 when it is not one.
 */
static int frame_line(const char *line, size_t len, bool *end)
{
	char word[6];
	int n, used = 0;

	if (len && line[len - 1] == '\r')
		len--;
	if (sscanf(line, "=== probecc dump %d %5[a-z] ===%n", &n, word, &used) != 2 ||
	    (size_t)used != len || n <= 0)
		return 0;
	if (!strcmp(word, "begin"))
		*end = false;
	else if (!strcmp(word, "end"))
		*end = true;
	else
		return 0;
	return n;
}

/*
 * The body of the last complete dump (its begin and end frames both
 * there, with the same number), the first complete dump's timing, and
 * the dumps begun and never ended (d->ncut: a cut serial line, a boot
 * that stopped).  A file with no frame at all but a manifest line is one
 * dump as the agent writes it (d->unframed).
 */
static char *last_dump(char *text, struct dump *d)
{
	char *p = text, *body = NULL, *last = NULL;
	int open = 0;

	d->init_time = -1;
	while (*p) {
		char *nl = strchr(p, '\n'), *next = nl ? nl + 1 : p + strlen(p);
		bool end;
		int n = frame_line(p, next - p - (nl ? 1 : 0), &end);

		if (n && !end) {
			d->ncut += open != 0;
			open = n;
			body = next;
		} else if (n && end && n == open) {
			*p = '\0';
			if (!d->ndumps) {
				const char *u = strstr(body, "uptime\t");
				const char *a = strstr(body, "agent_us\t");

				if (u && a && (u == body || u[-1] == '\n') &&
				    (a == body || a[-1] == '\n'))
					d->init_time = atof(u + 7) - atof(a + 9) / 1e6;
			}
			last = body;
			d->ndumps++;
			open = 0;
		}
		p = next;
	}
	d->ncut += open != 0;
	if (last)
		return last;
	if (!body && (!strncmp(text, "probecc-manifest\t", 17) ||
		      strstr(text, "\nprobecc-manifest\t")))
		d->unframed = true;
	return body ? p : text;	/* p: the end, "" */
}

/* True when the capture held something to check expectations against. */
bool dump_evidence(const struct dump *d)
{
	return d->ndumps > 0 || d->unframed;
}

/* True when the report may pass: evidence, and no dump cut short. */
bool dump_complete(const struct dump *d)
{
	return dump_evidence(d) && !d->ncut;
}

static void add_hit(struct dump *d, struct hit *h)
{
	if (d->nhits == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 256;
		d->hits = xrealloc_array(d->hits, d->cap, sizeof(*d->hits));
	}
	d->hits[d->nhits++] = *h;
}

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

/*
 * One trace line: "   TASK-PID   [CPU] FLAGS   TIME: BODY".  The task may
 * hold spaces and dashes, so the line is read from the "[CPU]" outwards.
 */
static void trace_line(struct report *r, char *line)
{
	struct dump *d = &r->d;
	char *cpu = strstr(line, "] "), *colon, *body, *task, *sp, *name;
	struct hit h = { 0 };

	if (!strncmp(line, " => ", 4)) {
		struct hit *last = d->nhits ? &d->hits[d->nhits - 1] : NULL;

		if (last && last->stack)
			push_str(&last->frames, &last->nframes, &last->capframes,
				 symbolize(r, xstrdup(line + 4)));
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
		free(h.task);
		return;
	}
	sp = strstr(body, " <-");
	if (sp && !strchr(body, ':')) {
		/* function tracer: "FUNC <-PARENT" */
		h.probe = xstrndup(body, sp - body);
		h.parent = xstrdup(sp + 3);
		h.args = xstrdup("");
	} else if ((sp = strstr(body, ": ")) &&
		   (name = xstrndup(body, sp - body), !strchr(name, ' '))) {
		h.probe = name;
		h.args = xstrdup(sp + 2);
	} else {
		free(h.task);
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
static void perf_line(struct dump *d, char *line)
{
	char *f[6], *save = NULL, *a;
	struct sample *s;
	int cap = 0;

	if (!tab_fields(line, f, 6))
		return;
	if (d->nsamples == d->capsamples) {
		d->capsamples = d->capsamples ? d->capsamples * 2 : 64;
		d->samples = xrealloc_array(d->samples, d->capsamples, sizeof(*d->samples));
	}
	s = &d->samples[d->nsamples++];
	memset(s, 0, sizeof(*s));
	s->probe = xstrdup(f[0]);
	s->ts = strtoull(f[1], NULL, 10) / 1e9;
	s->pid = strtol(f[4], NULL, 10);
	for (a = strtok_r(f[5], " ", &save); a; a = strtok_r(NULL, " ", &save)) {
		if (!strncmp(a, "u:", 2))	/* kernel addresses only */
			continue;
		if (s->n == cap) {
			cap = cap ? cap * 2 : 16;
			s->addrs = xrealloc_array(s->addrs, cap, sizeof(*s->addrs));
		}
		s->addrs[s->n++] = strtoull(a, NULL, 16);
	}
}

/* "NAME BASE SIZE SEC=ADDR,SEC=ADDR" (docs/plan.md "module"). */
static void module_line(struct dump *d, char *line)
{
	char *f[4], *save = NULL, *sec;
	struct module *m;
	int cap = 0;

	if (!tab_fields(line, f, 4))
		return;
	if (d->nmods == d->capmods) {
		d->capmods = d->capmods ? d->capmods * 2 : 16;
		d->mods = xrealloc_array(d->mods, d->capmods, sizeof(*d->mods));
	}
	m = &d->mods[d->nmods++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(f[0]);
	m->base = strtoull(f[1], NULL, 16);
	m->size = strtoull(f[2], NULL, 10);
	for (sec = strtok_r(f[3], ",", &save); sec; sec = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(sec, '=');

		if (!eq)
			continue;
		if (m->nsecs == cap) {
			cap = cap ? cap * 2 : 8;
			m->secs = xrealloc_array(m->secs, cap, sizeof(*m->secs));
			m->secaddr = xrealloc_array(m->secaddr, cap, sizeof(*m->secaddr));
		}
		m->secs[m->nsecs] = xstrndup(sec, eq - sec);
		m->secaddr[m->nsecs++] = strtoull(eq + 1, NULL, 16);
	}
}

static void parse_dump(struct report *r, char *dump)
{
	struct dump *d = &r->d;
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
		trace_line(r, line);
	}
}

/* @addr as "func+0xOFF [module]" from module @m's sections, or NULL. */
static char *module_sym(const struct report *r, struct module *m,
			unsigned long long addr)
{
	size_t i;
	int s;

	if (!m->loaded && r->modules_dir)
		m->syms = ko_symbols(r->modules_dir, m->name, &m->nsyms);
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
 * Name @addr of a perf callchain: "func+0xOFF" from the kernel's symbols,
 * "func+0xOFF [module]" inside a module with --modules, else
 * "[module]+0xOFF" or the bare "0xADDR".
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
	if (r->k && (s = ksym_at(r->k, addr - r->kaslr)))
		return xasprintf("%s+0x%llx", s->name, addr - r->kaslr - s->addr);
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
static void join_samples(struct report *r)
{
	struct dump *d = &r->d;
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
			push_str(&best->frames, &best->nframes, &best->capframes,
				 name_addr(r, s->addrs[k]));
	}
}

/*
 * dump_read() - read the capture @text (modified in place) into r->d:
 * the last complete dump's lines and hits, perf callchains joined to
 * them and named with r->k (set r->k and r->modules_dir first).
 */
void dump_read(struct report *r, char *text)
{
	parse_dump(r, last_dump(text, &r->d));
	if (r->k && r->d.stext) {
		const struct ksym *s = ksym_find(r->k, "_stext");

		if (s)
			r->kaslr = r->d.stext - s->addr;
	}
	join_samples(r);
}

/*
 * dump_probe_names() - r->names: the distinct probe names of the hits,
 * in order of first hit (pointing into the hits), r->nnames of them.
 */
void dump_probe_names(struct report *r)
{
	const struct dump *d = &r->d;
	int i, j, cap = 0;

	for (i = 0; i < d->nhits; i++) {
		for (j = 0; j < r->nnames && strcmp(r->names[j], d->hits[i].probe); j++)
			;
		if (j < r->nnames)
			continue;
		if (r->nnames == cap) {
			cap = cap ? cap * 2 : 16;
			r->names = xrealloc_array(r->names, cap, sizeof(*r->names));
		}
		r->names[r->nnames++] = d->hits[i].probe;
	}
}
