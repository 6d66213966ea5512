// SPDX-License-Identifier: GPL-2.0
/*
 * The dump reader: the raw capture of the dump channel (docs/plan.md) ->
 * struct dump.  The capture holds several framed dumps (frame.c reads
 * and checks the frames); the last complete one holds every event the
 * ring buffer kept, the first tells when userspace started (its uptime
 * minus the agent's own time).  Trace lines
 * are the kernel's text format (kernel/trace/trace_output.c): "TASK-PID
 * [CPU] FLAGS TIME: BODY", a "<stack trace>" line followed by " => FUNC"
 * frames.
 *
 * The agent's "perf" samples are joined to the trace's hits of the same
 * probe, task and time: their callchain becomes the hit's stack, in place
 * of the kernel's own (truncated on MIPS).  Frames printed as addresses
 * are named from the kernel's symbols (--system-map, --target,
 * --vmlinux) and the modules' (--modules); an address nothing names is
 * shown as such ("0x..." or "[module]+0x..."), never dropped.  A
 * "<user stack trace>" (the userstacktrace option) is kept apart, its
 * frames named from the uprobe's file under --sysroot.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>

#include "report-int.h"
#include "uelf.h"

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
 * The "timebase" line of the manifest @body into @tb (dump @n): four
 * CLOCK_BOOTTIME nanosecond counts in the order the agent read them.  A
 * line out of that order or not of four numbers is left out (tb->n 0).
 */
static void timebase_of(const char *body, unsigned int n, struct timebase *tb)
{
	const char *p = strstr(body, "\ntimebase\t");
	long long v[4];
	int i;
	char *e;

	memset(tb, 0, sizeof(*tb));
	tb->trace_ts = -1;
	if (!p)
		return;
	p += 10;
	for (i = 0; i < 4; i++) {
		if (*p < '0' || *p > '9')
			return;
		errno = 0;
		v[i] = strtoll(p, &e, 10);
		if (errno || *e != (i < 3 ? '\t' : '\n') || (i && v[i] < v[i - 1]))
			return;
		p = e + 1;
	}
	tb->n = n;
	tb->start = v[0];
	tb->mark = v[1];
	tb->marked = v[2];
	tb->stop = v[3];
}

/*
 * clock_mark() - take the agent's trace_marker text @msg ("probecc-clock
 * N NS"), stamped @ts on the trace clock, as the mark of the first or
 * last dump whose timebase line has that NS.  True when @msg is a clock
 * mark (of this boot or not): it is the report's, never a hit.
 */
bool clock_mark(struct dump *d, const char *msg, double ts)
{
	unsigned int n;
	long long ns;
	int end = 0;

	if (sscanf(msg, "probecc-clock %u %lld%n", &n, &ns, &end) != 2 ||
	    (msg[end] && msg[end] != '\n'))
		return false;
	if (d->tb_first.n && d->tb_first.mark == ns)
		d->tb_first.trace_ts = ts;
	if (d->tb_last.n && d->tb_last.mark == ns)
		d->tb_last.trace_ts = ts;
	return true;
}

/*
 * timebase_apply() - put the dumps' and userspace's times on the trace
 * clock: the last dump's mark gives when its recording stopped (at most
 * stop - mark after the marker event: the kernel stamped it after
 * "mark"), the first dump's mark the agent's start (start is the same
 * CLOCK_BOOTTIME, the offset taken at the middle of the marker's write).
 * Without marks the manifests' CLOCK_BOOTTIME times stay, and
 * d->timebase_why says so.
 */
static void timebase_apply(struct dump *d)
{
	const struct timebase *f = &d->tb_first, *l = &d->tb_last;
	int i;

	if (!dump_evidence(d))
		return;
	if (!l->n && d->previous) {
		snprintf(d->timebase_why, sizeof(d->timebase_why),
			 "the trace is the hung boot's, dumped by the next boot: dump and userspace times are CLOCK_BOOTTIME, hits the trace clock");
		return;
	}
	if (!l->n) {
		snprintf(d->timebase_why, sizeof(d->timebase_why),
			 "no timebase line in the last dump (an agent before the clock marks): dump and userspace times are CLOCK_BOOTTIME, hits the trace clock");
		return;
	}
	if (l->trace_ts < 0) {
		snprintf(d->timebase_why, sizeof(d->timebase_why),
			 "dump %u's clock mark is not in the trace: dump and userspace times are CLOCK_BOOTTIME, hits the trace clock",
			 l->n);
		return;
	}
	d->timebase = true;
	d->offset_last = l->trace_ts - (l->mark + l->marked) / 2e9;
	d->last_time = l->trace_ts + (l->stop - l->mark) / 1e9;
	if (f->n && f->trace_ts >= 0) {
		d->offset_first = f->trace_ts - (f->mark + f->marked) / 2e9;
		d->init_time = f->start / 1e9 + d->offset_first;
	} else {
		d->offset_first = d->offset_last;
		d->init_time = l->start / 1e9 + d->offset_last;
	}
	d->init_why[0] = '\0';
	for (i = 0; i < d->nhits; i++)
		if (d->hits[i].ts > d->last_time) {
			if (!d->after_dump++ || d->hits[i].ts > d->after_dump_ts)
				d->after_dump_ts = d->hits[i].ts;
		}
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
	snprintf(d->stray_why, sizeof(d->stray_why), "%s", f.stray_why);
	for (i = 0; i < f.n; i++) {
		if (f.d[i].state == FRAME_COMPLETE) {
			d->ndumps++;
			last = &f.d[i];
			continue;
		}
		d->ncut++;
		snprintf(d->why, sizeof(d->why), "%s", f.d[i].why);
	}
	if (!f.any && !strncmp(text, "probecc-manifest\t", 17)) {
		d->unframed = true;
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
			snprintf(d->init_why, sizeof(d->init_why),
				 "userspace's start is not known: the hung boot's trace came from the next boot (dump %u), and no dump of the hung boot itself came before it",
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
				snprintf(d->init_why, sizeof(d->init_why),
					 "userspace's start is not known: dump %u says agent_us %.0f, the target's CLOCK_MONOTONIC read less than at the agent's start",
					 first->n, us);
		}
	}
	return last->body;
}

/* True when the capture held something to check expectations against. */
bool dump_evidence(const struct dump *d)
{
	/* raw dumps whose trace.dat could not be read hold no events */
	if (d->raw && d->raw_why[0])
		return false;
	return d->ndumps > 0 || d->unframed;
}

/*
 * True when the report may pass: evidence, no dump cut short or damaged,
 * no event left undecoded, no trace line whose time could not be read and
 * none the report cannot read at all.
 */
bool dump_complete(const struct dump *d)
{
	/* an event no format file decodes may be a hit the verdicts miss */
	return dump_evidence(d) && !d->ncut && !d->raw_unknown && !d->bad_time && !d->unread;
}

/*
 * dump_incomplete_why() - NULL when dump_complete(), else why no verdict
 * can pass, in @buf (@size bytes): the one reason the text, JSON and
 * JUnit outputs all give.
 */
const char *dump_incomplete_why(const struct dump *d, char *buf, size_t size)
{
	if (dump_complete(d))
		return NULL;
	if (d->raw && d->raw_why[0])
		snprintf(buf, size, "the raw dumps were not read: %s", d->raw_why);
	else if (!dump_evidence(d))
		snprintf(buf, size, "no complete dump in the capture");
	else if (d->ncut)
		snprintf(buf, size, "%d dump(s) cut short or damaged, the last: %s",
			 d->ncut, d->why);
	else if (d->raw_unknown)
		snprintf(buf, size, "%ld event(s) of an id no format file names",
			 d->raw_unknown);
	else if (d->bad_time)
		snprintf(buf, size, "%d trace line(s) whose time is not the kernel's",
			 d->bad_time);
	else
		snprintf(buf, size, "%d %sline(s) of no form the report reads, the first: %s",
			 d->unread, strncmp(d->unread_why, "perf-mmap: ", 11) ? "trace " : "",
			 d->unread_why);
	return buf;
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
/*
 * A trace line the report cannot read: not an event line of the kernel's
 * default text form ("TASK-PID [CPU] FLAGS TIME: BODY",
 * kernel/trace/trace_output.c), such as a function_graph line or one of
 * an option that changes the form (latency-format, nocontext-info, raw,
 * hex, bin).  A hit may hide in it, so no verdict can pass (a count of 0
 * would pass "hits == 0").  Blank lines, "#" comments and the kernel's
 * "CPU:N [LOST N EVENTS]" are not hits.
 */
static void unread_line(struct dump *d, const char *line)
{
	const char *p = line + strspn(line, " \t");

	if (!*p || *p == '#' || (!strncmp(p, "CPU:", 4) && strstr(p, " [LOST ")))
		return;
	if (!d->unread++)
		snprintf(d->unread_why, sizeof(d->unread_why), "%.150s", p);
}

/* How many '"' @s holds. */
static int quotes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '"';
	return n;
}

static void trace_line(struct report *r, char *line)
{
	struct dump *d = &r->d;
	char *cpu = strstr(line, "] "), *colon, *body, *task, *sp, *name;
	struct hit h = { 0 };

	if (!strncmp(line, " => ", 4)) {
		struct hit *last = d->nhits ? &d->hits[d->nhits - 1] : NULL;

		if (last && d->in_ustack && last->ustack)
			push_str(&last->uframes, &last->nuframes, &last->capuframes,
				 xstrdup(line + 4 + strspn(line + 4, " ")));
		else if (last && last->stack)
			push_str(&last->frames, &last->nframes, &last->capframes,
				 symbolize(r, xstrdup(line + 4)));
		return;
	}
	/*
	 * A traced string holding a newline goes on over lines of its own
	 * (the kernel prints it between quotes, unescaped): they are data of
	 * the hit before, up to the line that closes the quote.
	 */
	if (d->in_string) {
		d->in_string = quotes(line) % 2 == 0;
		return;
	}
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
	if (!decimal(strrchr(cpu, ' ') + 1, false, "", &h.ts)) {
		/* an event the report cannot place: no verdict passes */
		if (!d->bad_time++)
			snprintf(d->bad_time_why, sizeof(d->bad_time_why), "%s: %.80s",
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
		if (!strcmp(name, "tracing_mark_write") && clock_mark(d, sp + 2, h.ts)) {
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
	if (dyn && len == 2 * dyn) {
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
			snprintf(d->unread_why, sizeof(d->unread_why), "perf-mmap: %s", why);
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
			else if (!strcmp(line, "--- raw ---")) {
				/* binary records follow: events.c reads them */
				d->raw = true;
				break;
			}
			else if (!strncmp(line, "item\t", 5))
				sb_addf(&d->items, "%s\n", line + 5);
			else if (!strncmp(line, "cpu\t", 4))
				sb_addf(&d->cpus, "%s\n", line + 4);
			else if (!strncmp(line, "stage\t", 6)) {
				free(d->stage);
				d->stage = xstrdup(line + 6);
			} else if (!strncmp(line, "buffer\t", 7)) {
				free(d->buffer);
				d->buffer = xstrdup(line + 7);
			} else if (!strncmp(line, "cmdline\t", 8)) {
				free(d->cmdline);
				d->cmdline = xstrdup(line + 8);
			} else if (!strncmp(line, "uname\t", 6)) {
				free(d->uname);
				d->uname = xstrdup(line + 6);
			} else if (!strncmp(line, "arch\t", 5)) {
				free(d->arch);
				d->arch = xstrdup(line + 5);
			}
			else if (!strncmp(line, "perf\t", 5))
				perf_line(d, line + 5);
			else if (!strncmp(line, "perf-user\t", 10))
				perf_user_line(d, line + 10);
			else if (!strncmp(line, "perf-mmap\t", 10))
				perf_mmap_line(d, line + 10);
			else if (!strncmp(line, "perf-stat\t", 10))
				pstat_line(d, line + 10);
			else if (!strncmp(line, "note\tperf\t", 10))
				d->perf_notkept = strtoull(line + 10, NULL, 10);
			else if (!strncmp(line, "note\tperf-mmap\t", 15))
				d->perf_maps_notkept = strtoull(line + 15, NULL, 10);
			else if (!strncmp(line, "module\t", 7))
				module_line(d, line + 7);
			else if (!strncmp(line, "stext\t", 6))
				d->stext = strtoull(line + 6, NULL, 16);
			else if (!strncmp(line, "last_boot\t", 10))
				d->text_delta = strtoll(line + 10, NULL, 10);
			else if (!strncmp(line, "kprobe-oops\t", 12))
				oops_line(d, line + 12);
			else if (!strncmp(line, "kprobe-profile\t", 15))
				kcount_line(d, line + 15);
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

/* The PID at the end of a trace task "COMM-PID", or -1. */
static long task_pid(const char *task)
{
	const char *dash = strrchr(task, '-');

	return dash ? strtol(dash + 1, NULL, 10) : -1;
}

/* The ELF machine of the dump's "arch" line (mipsel, x86_64, arm64...). */
static int dump_machine(const struct dump *d)
{
	if (!d->arch)
		return EM_NONE;
	if (!strncmp(d->arch, "mips", 4))
		return EM_MIPS;
	if (!strncmp(d->arch, "x86_64", 6))
		return EM_X86_64;
	if (!strncmp(d->arch, "arm64", 5) || !strncmp(d->arch, "aarch64", 7))
		return EM_AARCH64;
	if (!strncmp(d->arch, "riscv64", 7))
		return EM_RISCV;
	return EM_NONE;
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

static bool same_task(const struct hit *h, const struct sample *s)
{
	return !strcmp(h->probe, s->probe) && task_pid(h->task) == s->pid;
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
		nh += !d->hits[j].perf && same_task(&d->hits[j], s);
	if (ns != nh)
		return;
	i = 0;
	for (j = 0; j < d->nhits; j++) {
		if (d->hits[j].perf || !same_task(&d->hits[j], s))
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

			if (!h->perf && dt <= bestdt && same_task(h, s)) {
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
	char buf[320];
	int i, j;

	for (i = 0; r->sysroot && i < d->nhits; i++) {
		struct hit *h = &d->hits[i];
		unsigned long long off, ip;
		char *path, *file;

		if (!h->nuframes || !hit_ip(h, &ip) || !uprobe_def(r, h->probe, &path, &off))
			continue;
		file = xasprintf("%s%s", r->sysroot, path);
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

/*
 * dump_read() - read the capture @text (@len bytes; a body in it may be
 * modified in place) into r->d:
 * the last complete dump's lines and hits, perf callchains joined to
 * them and named with r->k (set r->k and r->modules_dir first), user
 * stack frames named through r->sysroot.
 */
void dump_read(struct report *r, char *text, size_t len)
{
	char *body = last_dump(text, len, &r->d);

	if (r->prev_text) {
		/*
		 * --previous: the next boot's capture, its frames checked with
		 * its own nonce; its "previous" dump is this boot's trace, the
		 * timing stays this boot's (its init dump)
		 */
		struct dump p = { 0 };
		char *pb = last_dump(r->prev_text, r->prev_len, &p);

		r->d.ndumps += p.ndumps;
		r->d.stray += p.stray;
		if (p.ncut) {
			r->d.ncut += p.ncut;
			snprintf(r->d.why, sizeof(r->d.why), "%.150s: %.240s", r->previous, p.why);
		}
		if (p.previous) {
			body = pb;
			r->d.previous = true;
			r->d.last_time = -1;	/* the hang's time is not known */
		} else {
			r->d.ncut++;
			snprintf(r->d.why, sizeof(r->d.why),
				 "%s: no dump of the previous boot's trace (the kernel kept no persistent ring buffer over the reset)",
				 r->previous);
		}
	}
	parse_dump(r, body);
	if (r->d.raw) {
		struct errmsg e = { 0 };

		if (events_read(r, text, len, &e))
			snprintf(r->d.raw_why, sizeof(r->d.raw_why), "%s", e.msg);
	}
	if (r->k && r->d.stext) {
		const struct ksym *s = ksym_find(r->k, "_stext");

		if (s)
			r->kaslr = r->d.stext - s->addr;
	}
	if (r->d.previous)
		name_previous_ips(r);
	timebase_apply(&r->d);
	join_samples(r);
	name_user_frames(r);
}

/* Add @name to r->names unless it is there (*@cap: the array's room). */
static void add_name(struct report *r, const char *name, int *cap)
{
	int j;

	for (j = 0; j < r->nnames && strcmp(r->names[j], name); j++)
		;
	if (j < r->nnames)
		return;
	ALLOC_GROW(r->names, r->nnames + 1, *cap);
	r->names[r->nnames++] = name;
}

/*
 * dump_probe_names() - r->names: the distinct probe names of the hits,
 * in order of first hit (pointing into the hits), then those of the
 * probe file (--probes) that no hit has, in the file's order: its
 * probes (an event by its EVENT, as its hits are named) and the
 * function tracer's names that are not globs, when there is a dump to
 * count them in: 0 hits is an answer too.  r->nnames of them.
 */
void dump_probe_names(struct report *r)
{
	const struct dump *d = &r->d;
	const struct probe *p;
	const struct name *n;
	int i, cap = 0;

	for (i = 0; i < d->nhits; i++)
		add_name(r, d->hits[i].probe, &cap);
	/* without a dump, 0 would be a claim nothing backs */
	if (!r->prog || !dump_evidence(d))
		return;
	for (n = r->prog->functions; n; n = n->next)
		if (!strpbrk(n->s, "*?["))
			add_name(r, n->s, &cap);
	for (n = r->prog->graph; n; n = n->next)
		if (!strpbrk(n->s, "*?["))
			add_name(r, n->s, &cap);
	for (p = r->prog->probes; p; p = p->next)
		add_name(r, p->name, &cap);
}

/* One event is the same in two sources: one pid, one probe, one microsecond. */
static bool same_event(const struct hit *a, const struct hit *b)
{
	return task_pid(a->task) == task_pid(b->task) && !strcmp(a->probe, b->probe) &&
	       (long long)(a->ts * 1e6 + 0.5) == (long long)(b->ts * 1e6 + 0.5);
}

static int hit_time_cmp(const void *pa, const void *pb)
{
	const struct hit *a = pa, *b = pb;

	return a->ts < b->ts ? -1 : a->ts > b->ts;
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

/*
 * dump_console_trace() - the kernel's own ftrace dump in the console log
 * @text (ftrace_dump_on_oops: kernel/trace/trace.c ftrace_dump() prints
 * "Dumping ftrace buffer:", a line of dashes, the events, a line of
 * dashes; or "(ftrace buffer empty)"), read into hits like the agent's
 * and joined to r->d's (dump_read() first): an event the agent's dump
 * holds too (one pid, one probe, one microsecond) is counted once.  The
 * hits end sorted by time.  @text is not changed.
 */
void dump_console_trace(struct report *r, const char *text)
{
	struct report tmp = *r;
	struct dump *d = &r->d;
	char *copy = xstrdup(text), *line, *save = NULL;
	int state = 0, i, j, nagent = d->nhits;

	memset(&tmp.d, 0, sizeof(tmp.d));
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *t = line, *end, *ev;
		size_t n = strlen(line);

		while (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (*t == '[' && (end = strchr(t, ']')) && end[1] == ' ')
			t = end + 2;
		if (strstr(t, "Dumping ftrace buffer:")) {
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
			trace_line(&tmp, t);
		} else if (!strncmp(t, "CPU:", 4) && strstr(t, "[LOST ")) {
			d->console_lost += strtol(strstr(t, "[LOST ") + 6, NULL, 10);
		} else if ((ev = console_event(t))) {
			trace_line(&tmp, ev);
			free(ev);
		} else if (*t && !tmp.d.in_string) {
			if (!d->unread++)
				snprintf(d->unread_why, sizeof(d->unread_why), "console: %.140s", t);
		}
	}
	free(copy);
	d->console_events = tmp.d.nhits;
	for (i = 0; i < tmp.d.nhits; i++) {
		for (j = 0; j < nagent && !same_event(&d->hits[j], &tmp.d.hits[i]); j++)
			;
		if (j < nagent)
			continue;
		tmp.d.hits[i].console = true;
		add_hit(d, &tmp.d.hits[i]);
		d->console_new++;
	}
	free(tmp.d.hits);
	if (d->console_new)
		qsort(d->hits, d->nhits, sizeof(*d->hits), hit_time_cmp);
}
