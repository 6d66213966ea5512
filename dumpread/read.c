// SPDX-License-Identifier: GPL-2.0
/*
 * The capture -> struct dump (dumpread.h: dumpread_capture()).  The
 * capture holds several framed dumps (frame.c reads and checks the
 * frames); the last complete one holds every event the ring buffer kept,
 * the first tells when userspace started (its uptime minus the agent's
 * own time).  Its manifest lines (item, cpu, perf, perf-user, perf-mmap,
 * module, ...) are read here; its trace is either text, the kernel's
 * format (kernel/trace/trace_output.c): "TASK-PID [CPU] FLAGS TIME:
 * BODY", a "<stack trace>" line followed by " => FUNC" frames, or raw
 * (rawdump.c checks the records, decode.c decodes the pages in process).
 * Frames the kernel printed as addresses are named by the caller's
 * name_frame (struct dumpread_opts); the report joins the perf samples
 * and names the user frames afterwards (report/dump.c), never back in
 * here.  The kernel's own ftrace dump on the console is read here too
 * (dumpread_console()).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dumpread-local.h"

/* The latest time a trace line can print: 2^64 - 1 ns, in seconds. */
#define TRACE_TS_MAX	18446744073.709551615

/* @frame named by the caller's name_frame, or as printed. */
static char *name_frame(const struct dumpread_opts *o, char *frame)
{
	return o && o->name_frame ? o->name_frame(o->arg, frame) : frame;
}

/*
 * A number as the kernel and the agent print times: digits, then "."
 * and digits or not (kernel/trace/trace_output.c: trace_print_context()
 * prints "%5llu.%06lu" for a clock in nanoseconds, "%12llu" for a
 * counter; the agent's uptime is "%lld.%03ld", its agent_us "%lld"),
 * a "-" first when @sign.  It ends at @s's end or at a character of
 * @end.  Into *@out, finite; false for anything else ("3.04E0956",
 * "inf", "0x1p9" and a run of digits past DBL_MAX all read as numbers
 * to strtod(), and an infinite time hung the SVG's axis).
 */
static bool decimal(const char *s, bool sign, const char *end, double *out)
{
	const char *p = s;
	char *e;

	if (sign && *p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	p += strspn(p, "0123456789");
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return false;
		p++;
		p += strspn(p, "0123456789");
	}
	if (*p && !strchr(end, *p))
		return false;
	*out = strtod(s, &e);
	return e == p && isfinite(*out);
}

/*
 * The body of the last complete dump (frame.c checked its frames,
 * lengths and CRC-32s), the timing of the first complete dump of the same
 * boot (nonce), and the dumps cut short or damaged (d->ncut, d->why: the
 * last of them).  A capture with no frame line at all that starts with
 * the manifest is one dump's body as qemu-images/extract-dump prints it
 * (d->unframed).  Frame lines frame.c did not take are counted in
 * d->stray.  A dump of stage "previous" (the trace a hung boot left in
 * the persistent ring buffer, dumped by the next boot's agent: docs/plan.md)
 * is that hung boot's last word: the last such dump is taken, and the
 * timing comes from the first complete dump of another boot before it
 * (the hung boot's own init dump), never from the next boot's clock.
 */
static bool is_previous(const struct framed *f)
{
	const char *s = strstr(f->body, "\nstage\t");

	return s && !strncmp(s + 7, "previous\n", 9);
}

static char *last_dump(char *text, size_t len, struct dump *d)
{
	struct frames f = { 0 };
	const struct framed *last = NULL, *first = NULL;
	int i;

	d->init_time = -1;
	d->last_time = -1;
	frames_read(text, len, &f);
	d->stray = f.stray;
	if (f.stray_why)
		dr_why(&d->stray_why, "%s", f.stray_why);
	for (i = 0; i < f.n; i++) {
		if (f.d[i].state == FRAME_COMPLETE) {
			d->ndumps++;
			last = &f.d[i];
			continue;
		}
		d->ncut++;
		dr_why(&d->why, "%s", f.d[i].why ? f.d[i].why : "");
	}
	if (!f.any && !strncmp(text, "probecc-manifest\t", 17)) {
		long nul = text_nul(text, len);

		d->unframed = true;
		if (nul >= 0) {
			d->ncut++;
			dr_why(&d->why, "a NUL byte at byte %ld of %zu: no trace text holds one, and what follows it could not be read",
			       nul, len);
		}
		timebase_of(text, strstr(text, "\nstage\twindow\n") ? 2 : 1,
			    &d->tb_last);
		return text;
	}
	if (!last)
		return text + len;	/* "" */
	snprintf(d->nonce, sizeof(d->nonce), "%s", last->nonce);
	for (i = 0; i < f.n; i++)
		if (f.d[i].state == FRAME_COMPLETE && is_previous(&f.d[i]))
			last = &f.d[i];
	if (is_previous(last)) {
		d->previous = true;
		for (i = 0; i < f.n && &f.d[i] != last && !first; i++)
			if (f.d[i].state == FRAME_COMPLETE &&
			    strcmp(f.d[i].nonce, last->nonce))
				first = &f.d[i];
		if (!first) {
			dr_why(&d->init_why, "userspace's start is not known: the hung boot's trace came from the next boot (dump %u), and no dump of the hung boot itself came before it",
			       last->n);
			return last->body;
		}
	} else {
	{
		/* the last dump's start: the end of what the dumps can hold */
		const char *u = strstr(last->body, "uptime\t");
		double t;

		if (u && (u == last->body || u[-1] == '\n') &&
		    decimal(u + 7, false, "\n", &t))
			d->last_time = t;
	}
	for (i = 0; i < f.n && !first; i++)
		if (f.d[i].state == FRAME_COMPLETE && !strcmp(f.d[i].nonce, last->nonce))
			first = &f.d[i];
	}
	timebase_of(first->body, first->n, &d->tb_first);
	timebase_of(last->body, last->n, &d->tb_last);
	{
		const char *body = first->body;
		const char *u = strstr(body, "uptime\t");
		const char *a = strstr(body, "agent_us\t");
		double up, us;

		/*
		 * agent_us is CLOCK_MONOTONIC since the agent's start: below
		 * 0 the target's clock went back between the two readings
		 * (seen once on loongson3-o32 under QEMU, initramfs/README.md),
		 * and no start can be placed from it.
		 */
		if (u && a && (u == body || u[-1] == '\n') &&
		    (a == body || a[-1] == '\n') &&
		    decimal(u + 7, false, "\n", &up) &&
		    decimal(a + 9, true, "\n", &us)) {
			if (us >= 0)
				d->init_time = up - us / 1e6;
			else
				dr_why(&d->init_why, "userspace's start is not known: dump %u says agent_us %.0f, the target's CLOCK_MONOTONIC read less than at the agent's start",
				       first->n, us);
		}
	}
	return last->body;
}


/*
 * One trace line: "   TASK-PID   [CPU] FLAGS   TIME: BODY".  The task may
 * hold spaces and dashes, so the line is read from the "[CPU]" outwards.
 */
/*
 * A trace line the report cannot read: not an event line of the kernel's
 * default text form ("TASK-PID [CPU] FLAGS TIME: BODY",
 * kernel/trace/trace_output.c), such as a function_graph line or one of
 * an option that changes the form (latency-format, nocontext-info, raw,
 * hex, bin).  A hit may hide in it, so no verdict can pass (a count of 0
 * would pass "hits == 0").  Blank lines, "#" comments and the kernel's
 * "CPU:N [LOST N EVENTS]" are not hits.
 */
/*
 * The count of a "CPU:N [LOST N EVENTS]" line @t (kernel/trace/trace.c
 * print_trace_line(); "[LOST EVENTS]" when the count is not known: 1)
 * added to *@sum, saturating: a forged count neither wraps nor cancels
 * one.  False when @t is no such line.
 */
static bool lost_line(const char *t, long *sum)
{
	const char *l = strstr(t, " [LOST ");
	long n;

	if (strncmp(t, "CPU:", 4) || !l)
		return false;
	n = strtol(l + 7, NULL, 10);
	n = n > 0 ? n : 1;
	*sum = n > LONG_MAX - *sum ? LONG_MAX : *sum + n;
	return true;
}

static void unread_line(struct dump *d, const char *line)
{
	const char *p = line + strspn(line, " \t");

	/* the ring buffer's own word that events are missing: "no lost" fails */
	if (!*p || *p == '#' || lost_line(p, &d->trace_lost))
		return;
	if (!d->unread++)
		dr_why(&d->unread_why, "%.150s", p);
}

/* How many '"' @s holds. */
static int quotes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '"';
	return n;
}

/*
 * @line has the form of an event line: "TASK-PID [CPU] FLAGS TIME: ".  A
 * traced string goes on over lines only while they have not (an odd '"'
 * in a name would otherwise hide every event up to the next odd line).
 */
static bool event_shaped(const char *line)
{
	const char *p;

	for (p = strstr(line, " ["); p; p = strstr(p + 1, " [")) {
		const char *q = p + 2;
		size_t n = strspn(q, "0123456789");

		if (!n || strncmp(q + n, "] ", 2))
			continue;
		q += n + 2;
		q += strcspn(q, " ");		/* FLAGS */
		q += strspn(q, " ");
		n = strspn(q, "0123456789");
		if (n && q[n] == '.' && strspn(q + n + 1, "0123456789") &&
		    !strncmp(q + n + 1 + strspn(q + n + 1, "0123456789"), ": ", 2))
			return true;
	}
	return false;
}

static void trace_line(struct dump *d, const struct dumpread_opts *o, char *line)
{
	char *cpu = strstr(line, "] "), *colon, *body, *task, *sp, *name;
	struct hit h = { 0 };

	if (!strncmp(line, " => ", 4)) {
		struct hit *last = d->nhits ? &d->hits[d->nhits - 1] : NULL;

		if (last && d->in_ustack && last->ustack &&
		    last->nuframes >= DUMPREAD_MAX_STACK)
			last->deep++;
		else if (last && d->in_ustack && last->ustack)
			push_str(&last->uframes, &last->nuframes, &last->capuframes,
				 xstrdup(line + 4 + strspn(line + 4, " ")));
		else if (last && last->stack && last->nframes >= DUMPREAD_MAX_STACK)
			last->deep++;
		else if (last && last->stack)
			push_str(&last->frames, &last->nframes, &last->capframes,
				 name_frame(o, xstrdup(line + 4)));
		return;
	}
	/*
	 * A traced string holding a newline goes on over lines of its own
	 * (the kernel prints it between quotes, unescaped): they are data of
	 * the hit before, up to the line that closes the quote.
	 */
	if (d->in_string && !event_shaped(line)) {
		d->in_string = quotes(line) % 2 == 0;
		return;
	}
	d->in_string = false;
	d->in_ustack = false;
	if (line[0] == '#' || !cpu || !(colon = strstr(cpu, ": "))) {
		unread_line(d, line);
		return;
	}
	task = line;
	while (*task == ' ')
		task++;
	sp = strstr(task, " [");
	if (!sp) {
		unread_line(d, line);
		return;
	}
	/* TIME: the last word before ": ", as the kernel prints it */
	body = colon + 2;
	*colon = '\0';
	/*
	 * the kernel prints a u64 of nanoseconds (trace_output.c
	 * trace_print_time(): "%5llu.%06lu"): a time past 2^64 ns no kernel wrote
	 */
	if (!decimal(strrchr(cpu, ' ') + 1, false, "", &h.ts) || h.ts > TRACE_TS_MAX) {
		/* an event the report cannot place: no verdict passes */
		if (!d->bad_time++)
			dr_why(&d->bad_time_why, "%s: %.80s",
				 line + strspn(line, " "), body);
		return;
	}
	h.task = xstrndup(task, sp - task);
	while (h.task[0] && h.task[strlen(h.task) - 1] == ' ')
		h.task[strlen(h.task) - 1] = '\0';
	if (!strcmp(body, "<stack trace>") || !strcmp(body, "<user stack trace>")) {
		/* Belongs to the task's previous hit (kernel/trace/trace_output.c) */
		bool user = body[1] == 'u';
		int i;

		for (i = d->nhits - 1; i >= 0; i--)
			if (!strcmp(d->hits[i].task, h.task)) {
				if (user)
					d->hits[i].ustack = d->in_ustack = true;
				else
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
		if (!strcmp(name, "tracing_mark_write") &&
		    (clock_mark(d, sp + 2, h.ts) || notrace_mark(d, sp + 2, h.ts, task_pid(h.task)))) {
			free(name);
			free(h.task);
			return;
		}
		h.probe = name;
		h.args = xstrdup(sp + 2);
		d->in_string = quotes(h.args) % 2 == 1;
	} else {
		unread_line(d, body);
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

/*
 * A new sample of @d from a perf or perf-user line's fields "PROBE
 * TIME_NS CPU PID TID ...": its task the TID, as ftrace names a hit's.
 */
static struct sample *sample_push(struct dump *d, char **f)
{
	struct sample *s;

	ALLOC_GROW(d->samples, d->nsamples + 1, d->capsamples);
	s = &d->samples[d->nsamples++];
	memset(s, 0, sizeof(*s));
	s->probe = xstrdup(f[0]);
	s->ts = strtoull(f[1], NULL, 10) / 1e9;
	s->pid = strtol(f[4], NULL, 10);
	s->tgid = strtol(f[3], NULL, 10);
	return s;
}

/* "PROBE TIME_NS CPU PID TID ADDR ADDR ..." (docs/plan.md "perf"). */
static void perf_line(struct dump *d, char *line)
{
	char *f[6], *save = NULL, *a;
	struct sample *s;
	int cap = 0;

	if (!tab_fields(line, f, 6))
		return;
	s = sample_push(d, f);
	for (a = strtok_r(f[5], " ", &save); a; a = strtok_r(NULL, " ", &save)) {
		if (!strncmp(a, "u:", 2))	/* kernel addresses only */
			continue;
		if (s->n >= DUMPREAD_MAX_PERF_STACK) {
			s->deep++;
			continue;
		}
		ALLOC_GROW(s->addrs, s->n + 1, cap);
		s->addrs[s->n++] = strtoull(a, NULL, 16);
	}
}

/* @c a hex digit's value, or -1. */
static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * "PROBE TIME_NS CPU PID TID ABI MASK REGS DYN_SIZE STACK [KADDRS]"
 * (docs/plan.md "perf-user"): REGS hex words separated by spaces, STACK
 * DYN_SIZE bytes in hex; "-" for none.  A line whose counts disagree
 * keeps no stack (its hit then says the sample had no user registers).
 * KADDRS, a kprobe's "stack user" sample's kernel callchain, as a
 * "perf" line's addresses ("-": none).
 */
static void perf_user_line(struct dump *d, char *line)
{
	char *f[10], *save = NULL, *a, *k;
	unsigned long long dyn;
	struct sample *s;
	size_t i, len;
	int cap = 0;

	if (!tab_fields(line, f, 10))
		return;
	s = sample_push(d, f);
	s->user = true;
	if ((k = strchr(f[9], '\t'))) {
		*k++ = '\0';
		s->kernel = true;
		for (a = strtok_r(k, " ", &save); a; a = strtok_r(NULL, " ", &save)) {
			if (!strncmp(a, "u:", 2) || !strcmp(a, "-"))
				continue;
			if (s->n >= DUMPREAD_MAX_PERF_STACK) {
				s->deep++;
				continue;
			}
			ALLOC_GROW(s->addrs, s->n + 1, cap);
			s->addrs[s->n++] = strtoull(a, NULL, 16);
		}
		save = NULL;
		cap = 0;
	}
	s->umask = strtoull(f[6], NULL, 16);
	if (strtoull(f[5], NULL, 10) && strcmp(f[7], "-"))
		for (a = strtok_r(f[7], " ", &save); a; a = strtok_r(NULL, " ", &save)) {
			ALLOC_GROW(s->uregs, s->nuregs + 1, cap);
			s->uregs[s->nuregs++] = strtoull(a, NULL, 16);
		}
	if (s->nuregs != __builtin_popcountll(s->umask)) {
		free(s->uregs);
		s->uregs = NULL;
		s->nuregs = 0;
	}
	dyn = strtoull(f[8], NULL, 10);
	len = strlen(f[9]);
	/* perf copies at most 64 KiB of user stack (sample_stack_user is a u16) */
	if (dyn && dyn <= 65535 && len == 2 * dyn) {
		s->ustack = xmalloc(dyn);
		for (i = 0; i < dyn; i++) {
			int hi = hexval(f[9][2 * i]), lo = hexval(f[9][2 * i + 1]);

			if (hi < 0 || lo < 0)
				break;
			s->ustack[i] = hi << 4 | lo;
		}
		s->nustack = i;
	}
}

/*
 * @s, all of it, as an unsigned number of base @base into @v; false on
 * anything else (empty, a sign, other characters, more than 64 bits).
 */
static bool strict_ull(const char *s, int base, unsigned long long *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	*v = strtoull(s, &end, base);
	return !*end && errno != ERANGE;
}

/*
 * "TIME_NS PID ADDR LEN PGOFF PATH" (docs/plan.md "perf-mmap"): a line
 * not of that form (a field missing or not a number, a number past 64
 * bits, a PID past INT_MAX, an empty LEN or one where ADDR + LEN wraps,
 * a PATH neither absolute nor "[name]") is counted as unread, with its
 * reason, so no verdict passes on a dump whose mappings are unknown.
 */
static void perf_mmap_line(struct dump *d, char *line)
{
	unsigned long long ns, pid, addr, len, pgoff;
	const char *why = NULL;
	char *f[6];
	struct umap *m;

	if (!tab_fields(line, f, 6))
		why = "fewer than 6 fields";
	else if (!strict_ull(f[0], 10, &ns))
		why = "TIME_NS is not a decimal number";
	else if (!strict_ull(f[1], 10, &pid) || !pid || pid > INT_MAX)
		why = "PID is not a decimal number from 1 to 2147483647";
	else if (!strict_ull(f[2], 16, &addr) || !strict_ull(f[3], 16, &len) ||
		 !strict_ull(f[4], 16, &pgoff))
		why = "ADDR, LEN or PGOFF is not a hex number of at most 64 bits";
	else if (!len || addr + len < addr)
		why = "LEN is 0 or ADDR + LEN wraps";
	else if (f[5][0] != '/' && (f[5][0] != '[' || f[5][strlen(f[5]) - 1] != ']'))
		why = "PATH is neither absolute nor [name]";
	if (why) {
		if (!d->unread++)
			dr_why(&d->unread_why, "perf-mmap: %s", why);
		return;
	}
	ALLOC_GROW(d->umaps, d->numaps + 1, d->capumaps);
	m = &d->umaps[d->numaps++];
	m->ts = ns / 1e9;
	m->pid = (long)pid;
	m->addr = addr;
	m->len = len;
	m->pgoff = pgoff;
	m->path = xstrdup(f[5]);
}

/* "NAME BASE SIZE SEC=ADDR,SEC=ADDR" (docs/plan.md "module"). */
static void module_line(struct dump *d, char *line)
{
	char *f[4], *save = NULL, *sec;
	struct module *m;
	int cap = 0;

	if (!tab_fields(line, f, 4))
		return;
	ALLOC_GROW(d->mods, d->nmods + 1, d->capmods);
	m = &d->mods[d->nmods++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(f[0]);
	m->base = strtoull(f[1], NULL, 16);
	m->size = strtoull(f[2], NULL, 10);
	for (sec = strtok_r(f[3], ",", &save); sec; sec = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(sec, '=');

		if (!eq)
			continue;
		if (m->nsecs == cap) {	/* two arrays of one capacity */
			cap = (int)alloc_nr(cap, m->nsecs + 1);
			m->secs = xrealloc_array(m->secs, cap, sizeof(*m->secs));
			m->secaddr = xrealloc_array(m->secaddr, cap, sizeof(*m->secaddr));
		}
		m->secs[m->nsecs] = xstrndup(sec, eq - sec);
		m->secaddr[m->nsecs++] = strtoull(eq + 1, NULL, 16);
	}
}

/* "TIME EPC TASK" (docs/plan.md "kprobe-oops"): the first one is kept. */
static void oops_line(struct dump *d, char *line)
{
	char *f[3];

	if (!tab_fields(line, f, 3))
		return;
	if (!d->noops++) {
		/* unreadable: -1, which no "before init" takes as earlier */
		if (!decimal(f[0], false, "", &d->oops_time))
			d->oops_time = -1;
		d->oops_epc = xstrdup(f[1]);
		d->oops_task = xstrdup(f[2]);
	}
}

/* "EVENT HITS MISSED" (docs/plan.md "kprobe-profile"). */
static void kcount_line(struct dump *d, char *line)
{
	char *f[3];

	if (!tab_fields(line, f, 3))
		return;
	ALLOC_GROW(d->kcounts, d->nkcounts + 1, d->capkcounts);
	d->kcounts[d->nkcounts].probe = xstrdup(f[0]);
	d->kcounts[d->nkcounts].hits = strtoull(f[1], NULL, 10);
	d->kcounts[d->nkcounts++].missed = strtoull(f[2], NULL, 10);
}

/* "PROBE samples N lost L throttled T bad B" (docs/plan.md "perf-stat"). */
static void pstat_line(struct dump *d, char *line)
{
	struct perf_stat *p;
	char *f[9];

	if (!tab_fields(line, f, 9))
		return;
	ALLOC_GROW(d->pstats, d->npstats + 1, d->cappstats);
	p = &d->pstats[d->npstats++];
	p->probe = xstrdup(f[0]);
	p->samples = strtoull(f[2], NULL, 10);
	p->lost = strtoull(f[4], NULL, 10);
	p->throttled = strtoull(f[6], NULL, 10);
	p->bad = strtoull(f[8], NULL, 10);
}

/*
 * perf_stat_of() - the last "perf-stat" line of perf probe @probe (each
 * dump repeats them: the latest counts), or NULL when there is none.
 */
const struct perf_stat *perf_stat_of(const struct dump *d, const char *probe)
{
	const struct perf_stat *p = NULL;
	int i;

	for (i = 0; i < d->npstats; i++)
		if (!strcmp(d->pstats[i].probe, probe))
			p = &d->pstats[i];
	return p;
}

/*
 * Why the agent's own hits stay in @d, when it was PID 1 and tried to
 * keep them out (NULL when it did not: an agent that is not PID 1).
 */
static void agent_own_kept(struct dump *d)
{
	const struct timebase *f = &d->tb_first;
	const char *kind = f->own ? "own" : "notrace";

	if (!f->notrace_line) {
		if (d->notrace_note)
			dr_why(&d->agent_own_kept, "%s", d->notrace_note);
		return;
	}
	if (f->n != 1)
		dr_why(&d->agent_own_kept, "dump 1 is not among the dumps");
	else if (f->own_and_notrace)
		dr_why(&d->agent_own_kept, "dump 1 has both an own and a notrace line: not the agent's, which writes one");
	else if (!f->notrace_pid)
		dr_why(&d->agent_own_kept, "dump 1's %s line is not the agent's (not a PID%s and a time between its start and its clock mark)",
		       kind, f->own ? " other than 1" : "");
	else if (f->notrace_ts == -1)
		dr_why(&d->agent_own_kept, "no %s mark of PID %ld in the trace (an agent before the marks, or not the buffer it marked)",
		       kind, f->notrace_pid);
	else
		dr_why(&d->agent_own_kept, "the %s mark of PID %ld is twice in the trace, or another task's",
		       kind, f->notrace_pid);
}

/* dumpread_agent_own() - see dumpread.h. */
void dumpread_agent_own(struct dump *d)
{
	const struct timebase *f = &d->tb_first;
	double from, until;
	int i, k = 0;

	if (f->n != 1 || !f->notrace_pid || f->notrace_ts < 0) {
		agent_own_kept(d);
		return;
	}
	until = f->notrace_ts;
	/* NS was read just before the mark's write: no later than its stamp */
	from = until - (f->notrace_ns - f->start) / 1e9;
	d->agent_own_exec = false;
	/*
	 * A PID other than 1 is the agent's worker (initramfs/agent.c), the
	 * PID's only task (PIDs are not reused before pid_max wraps): every
	 * hit of it up to the mark ("notrace": the PID lists kept it out
	 * after), or all of them ("own": in no list), with no start to map
	 * from CLOCK_BOOTTIME (a mark stamped late, its write preempted,
	 * moved that start past the agent's first open).
	 */
	d->agent_own_worker = f->notrace_pid != 1;
	if (d->agent_own_worker)
		from = -1;
	for (i = 0; i < d->nhits && !d->agent_own_worker; i++) {
		const struct hit *h = &d->hits[i];

		if (task_pid(h->task) == f->notrace_pid && h->ts <= until &&
		    h->ts >= from && !strcmp(h->probe, "sched_process_exec")) {
			from = h->ts;
			d->agent_own_exec = true;
		}
	}
	for (i = 0; i < d->nhits; i++) {
		const struct hit *h = &d->hits[i];

		if (task_pid(h->task) == f->notrace_pid &&
		    (h->ts <= until || f->own) &&
		    (d->agent_own_worker ||
		     (d->agent_own_exec ? h->ts > from : h->ts >= from))) {
			d->agent_own++;
			continue;
		}
		d->hits[k++] = d->hits[i];
	}
	d->nhits = k;
	d->agent_own_window = true;
	d->agent_own_from = from;
	d->agent_own_until = until;
}

/*
 * perf_armed_by() - the trace-clock time, in seconds, by which the agent
 * had opened its perf events: the clock mark of its first dump (dump 1,
 * written after it ran the plan: initramfs/agent.c), else its start
 * (userspace's); -1 when neither is on the trace's clock.  A perf
 * probe's hit before it has no callchain: perf saw none of it.
 */
double perf_armed_by(const struct dump *d)
{
	if (!d->timebase)
		return -1;
	if (d->tb_first.n == 1 && d->tb_first.trace_ts >= 0)
		return d->tb_first.trace_ts;
	return d->init_time;
}

/*
 * hit_before_perf() - whether @h is a hit of a perf probe (one with a
 * "perf-stat" line) with no stack that came before the agent had armed
 * perf (perf_armed_by()): perf could not see it.
 */
bool hit_before_perf(const struct dump *d, const struct hit *h)
{
	double armed;

	if (h->nframes || h->nuframes || !perf_stat_of(d, h->probe))
		return false;
	armed = perf_armed_by(d);
	return armed >= 0 && h->ts < armed;
}

/*
 * perf_lossy() - whether perf probe @p (may be NULL: false) has samples
 * the report cannot see: lost by the kernel, throttled, unreadable, or
 * read by the agent past its text limit (counted for all probes).
 */
bool perf_lossy(const struct dump *d, const struct perf_stat *p)
{
	return p && (p->lost || p->throttled || p->bad || d->perf_notkept ||
		     d->perf_maps_notkept);
}

/*
 * perf_loss_why() - append "; the samples of PROBE: ..." to @why (a
 * string in @size bytes, cut to fit) when perf probe @probe lost any
 * (perf_lossy()): a verdict on its stacks saw only the ones kept.
 */
void perf_loss_why(const struct dump *d, const char *probe, char *why, size_t size)
{
	const struct perf_stat *p = perf_stat_of(d, probe);
	size_t n = strlen(why);

	if (!perf_lossy(d, p) || n + 1 >= size)
		return;
	n += snprintf(why + n, size - n, "; perf samples of %s: %llu read", probe, p->samples);
	if (p->lost && n < size)
		n += snprintf(why + n, size - n, ", %llu lost to a full perf ring", p->lost);
	if (p->throttled && n < size)
		n += snprintf(why + n, size - n, ", throttled %llu time(s)", p->throttled);
	if (p->bad && n < size)
		n += snprintf(why + n, size - n, ", %llu unreadable", p->bad);
	if (d->perf_notkept && n < size)
		n += snprintf(why + n, size - n, "; %llu read but not kept (the agent's sample text was full)",
			      d->perf_notkept);
	if (d->perf_maps_notkept && n < size)
		snprintf(why + n, size - n, "; %llu mapping(s) not kept (the agent's bound)",
			 d->perf_maps_notkept);
}

/*
 * The trace's own count ("# entries-in-buffer/entries-written: N/M",
 * kernel/trace/trace.c print_event_info()) against the event lines read
 * (@shaped) and not read (@unread): entries missing from both are counted
 * as not read, so that no upper bound passes on them.  More event lines
 * than entries are lines a traced string printed (trace_marker text or a
 * file name holding a newline, written by any program: the kernel prints
 * it as it is): which lines are events is unknown, so they count as not
 * read too, and no verdict passes on them.  A cut dump (manifest "cut",
 * docs/plan.md: its trace ends at its clock mark while the ring buffer
 * went on recording) misses the entries after the mark by design: the
 * next dump has them; more lines than entries still count.
 */
static void entries_check(struct dump *d, long entries, long shaped, int unread,
			  bool cut)
{
	long missing = entries - shaped - unread;

	if (entries < 0 || missing == 0 || (cut && missing > 0))
		return;
	if (missing < 0 && shaped <= entries)
		return;	/* lines not read stand for entries the shaped ones do not */
	if (!d->unread)
		d->unread_by_count = true;
	if (missing < 0) {
		missing = shaped - entries;
		if (!d->unread)
			dr_why(&d->unread_why, "%ld event line(s) more than the buffer's %ld entries: a traced string holding a newline (trace_marker text, a file name) printed lines that look like events",
			       missing, entries);
	} else if (!d->unread) {
		dr_why(&d->unread_why, "%ld of the buffer's %ld entries are in no event line",
		       missing, entries);
	}
	d->unread = missing > INT_MAX - d->unread ? INT_MAX : d->unread + (int)missing;
}

static void item_line(struct dump *d, char *v)
{
	sb_addf(&d->items, "%s\n", v);
}

static void cpu_line(struct dump *d, char *v)
{
	sb_addf(&d->cpus, "%s\n", v);
}

static void perf_notkept_line(struct dump *d, char *v)
{
	d->perf_notkept = strtoull(v, NULL, 10);
}

static void maps_notkept_line(struct dump *d, char *v)
{
	d->perf_maps_notkept = strtoull(v, NULL, 10);
}

/* the first "note notrace TEXT": the agent could not take its PID out */
static void notrace_note_line(struct dump *d, char *v)
{
	if (!d->notrace_note)
		d->notrace_note = xstrdup(v);
}

static void stext_line(struct dump *d, char *v)
{
	d->stext = strtoull(v, NULL, 16);
}

static void last_boot_line(struct dump *d, char *v)
{
	d->text_delta = strtoll(v, NULL, 10);
}

/*
 * The manifest's lines (docs/plan.md "Dump format"): KEY, a tab, the
 * value, which the row's reader takes, or, for a row with no reader,
 * which replaces the string of struct dump at offset @str (the last one
 * counts).  A line of no row is left alone (a newer agent's).
 */
static const struct {
	const char *key;
	void (*read)(struct dump *d, char *v);
	size_t str;
} sections[] = {
	{ "item", item_line, 0 },
	{ "cpu", cpu_line, 0 },
	{ "stage", NULL, offsetof(struct dump, stage) },
	{ "buffer", NULL, offsetof(struct dump, buffer) },
	{ "cmdline", NULL, offsetof(struct dump, cmdline) },
	{ "uname", NULL, offsetof(struct dump, uname) },
	{ "arch", NULL, offsetof(struct dump, arch) },
	{ "perf", perf_line, 0 },
	{ "perf-user", perf_user_line, 0 },
	{ "perf-mmap", perf_mmap_line, 0 },
	{ "perf-stat", pstat_line, 0 },
	{ "note\tperf", perf_notkept_line, 0 },
	{ "note\tperf-mmap", maps_notkept_line, 0 },
	{ "note\tnotrace", notrace_note_line, 0 },
	{ "module", module_line, 0 },
	{ "stext", stext_line, 0 },
	{ "last_boot", last_boot_line, 0 },
	{ "kprobe-oops", oops_line, 0 },
	{ "kprobe-profile", kcount_line, 0 },
};

static void manifest_line(struct dump *d, char *line)
{
	size_t i, n;
	char **str;

	for (i = 0; i < ARRAY_SIZE(sections); i++) {
		n = strlen(sections[i].key);
		if (strncmp(line, sections[i].key, n) || line[n] != '\t')
			continue;
		if (sections[i].read) {
			sections[i].read(d, line + n + 1);
		} else {
			str = (char **)((char *)d + sections[i].str);
			free(*str);
			*str = xstrdup(line + n + 1);
		}
		return;
	}
}

static void parse_dump(struct dump *d, const struct dumpread_opts *o, char *dump)
{
	char *line, *save = NULL;
	bool trace = false, cut = false;
	long entries = -1, shaped = 0;
	int unread = d->unread, bad_time = d->bad_time;

	for (line = strtok_r(dump, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *cr = strchr(line, '\r');

		if (cr)
			*cr = '\0';
		if (!trace) {
			if (!strcmp(line, "--- trace ---")) {
				trace = true;
			} else if (!strcmp(line, "--- raw ---")) {
				/* binary records follow: decode.c reads them */
				d->raw = true;
				break;
			} else {
				cut |= !strcmp(line, "cut\tmark");
				manifest_line(d, line);
			}
			continue;
		}
		/* the header's, before any event: a traced string can print one too */
		if (!strncmp(line, "# entries-in-buffer/entries-written: ", 37) && entries < 0 && !shaped)
			entries = strtol(line + 37, NULL, 10);
		else if (event_shaped(line))
			shaped++;
		trace_line(d, o, line);
	}
	entries_check(d, entries, shaped + d->bad_time - bad_time, d->unread - unread,
		      cut);
}

long task_pid(const char *task)
{
	const char *dash = strrchr(task, '-');

	return dash ? strtol(dash + 1, NULL, 10) : -1;
}

static int hit_time_cmp(const void *pa, const void *pb)
{
	const struct hit *a = pa, *b = pb;

	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

/* An event's identity for the join: one pid, one probe, one microsecond. */
struct event_key {
	long pid;
	long long us;
	const char *probe;
	int idx;		/* console hit; -1: the agent's */
};

static int event_key_cmp(const void *pa, const void *pb)
{
	const struct event_key *a = pa, *b = pb;
	int c;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->us != b->us)
		return a->us < b->us ? -1 : 1;
	if ((c = strcmp(a->probe, b->probe)))
		return c;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/*
 * Join the console's hits @con to @d's: each event once, whether the
 * agent's dump holds it or the console printed it twice; sorted, not
 * compared pairwise (n log n for any number of either).
 */
static void join_console(struct dump *d, struct dump *con)
{
	size_t n = (size_t)d->nhits + con->nhits, k = 0, i;
	struct event_key *keys = xcalloc(n ? n : 1, sizeof(*keys));
	bool *keep = xcalloc(con->nhits ? con->nhits : 1, sizeof(*keep));
	int j;

	for (j = 0; j < d->nhits + con->nhits; j++) {
		const struct hit *h = j < d->nhits ? &d->hits[j] : &con->hits[j - d->nhits];
		double us = h->ts * 1e6 + 0.5;

		keys[k].pid = task_pid(h->task);
		keys[k].us = us > -9e18 && us < 9e18 ? (long long)us : (us < 0 ? LLONG_MIN : LLONG_MAX);
		keys[k].probe = h->probe;
		keys[k++].idx = j < d->nhits ? -1 : j - d->nhits;
	}
	qsort(keys, n, sizeof(*keys), event_key_cmp);
	for (i = 0; i < n; i++) {
		struct event_key *a = &keys[i], *b = i ? &keys[i - 1] : NULL;

		if (a->idx < 0)
			continue;
		if (b && a->pid == b->pid && a->us == b->us && !strcmp(a->probe, b->probe))
			continue;
		keep[a->idx] = true;
	}
	free(keys);
	for (j = 0; j < con->nhits; j++)
		if (keep[j]) {
			con->hits[j].console = true;
			add_hit(d, &con->hits[j]);
			d->console_new++;
		}
	free(keep);
}

/*
 * One line of the kernel's ftrace dump in the latency form ftrace_dump()
 * prints (kernel/trace/trace_output.c, lat_print_generic() and
 * lat_print_timestamp(): "COMM-PID  CPU FLAGS  TIMEus : BODY", the comm
 * cut to 8 bytes, the time in microseconds, with ".NNN" for a clock in
 * nanoseconds) made into the default form trace_line() reads:
 * "COMM-PID [CPU] FLAGS SECONDS: BODY".  NULL when it is not one.
 */
static char *console_event(const char *t)
{
	const char *p = t + strspn(t, " "), *task = p, *cpu, *us, *body;
	size_t ntask, ncpu;
	double micro;

	ntask = strcspn(p, " ");
	p += ntask;
	p += strspn(p, " ");
	cpu = p;
	ncpu = strcspn(p, " ");
	p += ncpu;
	p += strspn(p, " ");
	us = p;
	body = strstr(p, "us : ");
	if (!ntask || ncpu < 2 || !body || !decimal(us, false, "u", &micro))
		return NULL;
	return xasprintf("%.*s [%03ld] %.*s %.6f: %s", (int)ntask, task,
			 strtol(cpu, NULL, 10), (int)(ncpu - strspn(cpu, "0123456789")),
			 cpu + strspn(cpu, "0123456789"), micro / 1e6, body + 5);
}

/* dumpread_console() - see dumpread.h. */
void dumpread_console(struct dump *d, const struct dumpread_opts *o,
		      const char *text)
{
	struct dump tmp = { 0 };
	char *copy = xstrdup(text), *line, *save = NULL;
	int state = 0;
	bool dead = false;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *t, *ev;
		double ts;

		/* printk's lines after the kernel's death: any program can print the rest */
		t = dumpread_printk_text(line, &ts);
		if (ts < 0)
			continue;
		if (dumpread_death_line(t))
			dead = true;
		if (dead && !strncmp(t, "Dumping ftrace buffer:", 22)) {
			state = 1;
			d->console_dumps++;
			continue;
		}
		if (!state)
			continue;
		if (!strncmp(t, "---------------------------------", 33)) {
			state = state == 1 ? 2 : 0;
			continue;
		}
		if (strstr(t, "(ftrace buffer empty)")) {
			state = 0;
			continue;
		}
		if (state != 2)
			continue;
		if (!strncmp(t, " => ", 4)) {
			trace_line(&tmp, o, t);
		} else if (lost_line(t, &d->console_lost)) {
			;
		} else if ((ev = console_event(t))) {
			trace_line(&tmp, o, ev);
			free(ev);
		} else if (*t && !tmp.in_string) {
			if (!d->unread++)
				dr_why(&d->unread_why, "console: %.140s", t);
		}
	}
	free(copy);
	d->console_events = tmp.nhits;
	join_console(d, &tmp);
	free(tmp.hits);
	if (d->console_new)
		qsort(d->hits, d->nhits, sizeof(*d->hits), hit_time_cmp);
}

/*
 * The raw dumps of the capture @text (@len bytes) decoded into @d:
 * rawdump.c checks the records of the complete dumps (a hit in a cut
 * dump is no evidence, as for text dumps), decode.c decodes the pages.
 * What could not be read is in d->raw_err.
 */
static void raw_read(struct dump *d, const char *text, size_t len)
{
	struct rawset rs = { 0 };
	struct page_layout pl;

	if (!raw_collect(text, len, true, &rs, &pl, NULL, &d->raw_err))
		raw_decode(&rs, &pl, d, &d->raw_err);
	rawset_free(&rs);
}

/* dumpread_capture() - see dumpread.h. */
void dumpread_capture(struct dump *d, const struct dumpread_opts *o,
		      char *text, size_t len)
{
	char *body = last_dump(text, len, d);

	if (o && o->prev_text) {
		/*
		 * --previous: the next boot's capture, its frames checked with
		 * its own nonce; its "previous" dump is this boot's trace, the
		 * timing stays this boot's (its init dump)
		 */
		struct dump p = { 0 };
		char *pb = last_dump(o->prev_text, o->prev_len, &p);

		d->ndumps += p.ndumps;
		d->stray += p.stray;
		if (p.ncut) {
			d->ncut += p.ncut;
			dr_why(&d->why, "%.150s: %.240s", o->prev_name, p.why ? p.why : "");
		}
		if (p.previous) {
			body = pb;
			d->previous = true;
			d->last_time = -1;	/* the hang's time is not known */
		} else {
			d->ncut++;
			dr_why(&d->why, "%s: no dump of the previous boot's trace (the kernel kept no persistent ring buffer over the reset)",
			       o->prev_name);
		}
	}
	parse_dump(d, o, body);
	if (d->raw)
		raw_read(d, text, len);
	timebase_apply(d);
}

/* dumpread_frames() - see dumpread.h. */
int dumpread_frames(const char *text, size_t len, FILE *list, int extract,
		    const char **body, size_t *body_len, const char **why,
		    int *stray, const char **stray_why)
{
	static struct frames f;	/* the bodies handed out live on */
	const struct framed *pick = NULL;
	int i;

	frames_read(text, len, &f);
	for (i = 0; i < f.n; i++) {
		if (list && f.d[i].state == FRAME_COMPLETE)
			fprintf(list, "%u\n", f.d[i].n);
		if (extract && (int)f.d[i].n == extract &&
		    (!pick || pick->state != FRAME_COMPLETE || f.d[i].state == FRAME_COMPLETE))
			pick = &f.d[i];
	}
	*stray = f.stray;
	*stray_why = dr_text(f.stray_why);
	if (!pick)
		return 1;
	*body = pick->body;
	*body_len = pick->body_len;
	*why = dr_text(pick->why);
	return pick->state == FRAME_COMPLETE ? 0 : pick->state == FRAME_CUT ? 3 : 4;
}
