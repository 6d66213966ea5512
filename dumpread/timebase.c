// SPDX-License-Identifier: GPL-2.0
/*
 * The dumps' timebase (docs/plan.md "timebase"): each dump's manifest
 * line of CLOCK_BOOTTIME readings around the agent's trace_marker write
 * "probecc-clock N MARK", the marker's own time in the trace (read.c and
 * decode.c hand every trace_marker text to clock_mark(), then to
 * notrace_mark()), and the dump and userspace times put on the trace
 * clock from them; and the agent's "notrace" line with its mark
 * "probecc-notrace PID NS", the end of its own hits (docs/plan.md "The
 * agent's own").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dumpread-local.h"


/*
 * The manifest's "notrace PID NS" or "own PID NS" line (docs/plan.md)
 * into @tb, when the PID is one (for "own" a PID other than 1: the
 * worker's) and NS lies between the agent's start and its clock mark,
 * as the agent wrote it; searched in the manifest only (before the
 * trace, whose strings the guest wrote).
 */
static void notrace_of(const char *body, struct timebase *tb)
{
	const char *end = strstr(body, "\n--- trace ---\n");
	const char *p = strstr(body, "\nnotrace\t");
	const char *o = strstr(body, "\nown\t");
	long pid;
	long long ns;
	char *e;

	if (p && end && p > end)
		p = NULL;
	if (o && end && o > end)
		o = NULL;
	if (!p && !o)
		return;
	tb->notrace_line = true;
	tb->own_and_notrace = p && o;	/* the agent writes one */
	if (tb->own_and_notrace)
		return;
	tb->own = !p;
	p = p ? p + 9 : o + 5;
	errno = 0;
	pid = strtol(p, &e, 10);
	if (errno || *e != '\t' || pid < 1 || e == p || (tb->own && pid == 1))
		return;
	p = e + 1;
	if (*p < '0' || *p > '9')
		return;
	ns = strtoll(p, &e, 10);
	if (errno || *e != '\n' || ns < tb->start || ns > tb->mark)
		return;
	tb->notrace_pid = pid;
	tb->notrace_ns = ns;
}

/*
 * The "timebase" line of the manifest @body into @tb (dump @n): four
 * CLOCK_BOOTTIME nanosecond counts in the order the agent read them.  A
 * line not of four numbers, or whose MARKED_NS is before its MARK_NS, is
 * left out (tb->n 0).  The target's clock going back around the mark
 * (seen on loongson3-virt under TCG) leaves the mark usable: a START_NS
 * after MARK_NS sets tb->start_back (the agent's start is not known from
 * it), a STOP_NS before MARKED_NS tb->stop_back.
 */
void timebase_of(const char *body, unsigned int n, struct timebase *tb)
{
	const char *p = strstr(body, "\ntimebase\t");
	long long v[4];
	int i;
	char *e;

	memset(tb, 0, sizeof(*tb));
	tb->trace_ts = -1;
	tb->notrace_ts = -1;
	if (!p)
		return;
	p += 10;
	for (i = 0; i < 4; i++) {
		if (*p < '0' || *p > '9')
			return;
		errno = 0;
		v[i] = strtoll(p, &e, 10);
		if (errno || *e != (i < 3 ? '\t' : '\n') || (i == 2 && v[2] < v[1]))
			return;
		p = e + 1;
	}
	tb->n = n;
	tb->start = v[0];
	tb->mark = v[1];
	tb->marked = v[2];
	tb->stop = v[3];
	tb->start_back = v[1] < v[0];
	tb->stop_back = v[3] < v[2];
	notrace_of(body, tb);
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
	/* the same mark twice: which one is the agent's is unknown (-2) */
	if (d->tb_first.n && d->tb_first.mark == ns)
		d->tb_first.trace_ts = d->tb_first.trace_ts == -1 ? ts : -2;
	if (d->tb_last.n && d->tb_last.mark == ns)
		d->tb_last.trace_ts = d->tb_last.trace_ts == -1 ? ts : -2;
	return true;
}

/*
 * notrace_mark() - take the agent's trace_marker text @msg
 * ("probecc-notrace PID NS", written once the kernel took its PID out of
 * the trace, or "probecc-own PID NS", its worker's: initramfs/agent.c
 * self_mark()), stamped @ts on the trace clock by the task of PID @by,
 * as the end of the first dump's "notrace" window, or the proof of its
 * worker's PID, when the kind, PID and NS are the line's.  The same
 * mark twice, or written by another task, is no end (-2):
 * dumpread_agent_own() then leaves nothing out.  True when @msg is a
 * notrace or own mark: it is the report's, never a hit.
 */
bool notrace_mark(struct dump *d, const char *msg, double ts, long by)
{
	struct timebase *f = &d->tb_first;
	long pid;
	long long ns;
	int end = 0;
	bool own = !strncmp(msg, "probecc-own ", 12);

	if (sscanf(msg, own ? "probecc-own %ld %lld%n" :
		   "probecc-notrace %ld %lld%n", &pid, &ns, &end) != 2 ||
	    (msg[end] && msg[end] != '\n'))
		return false;
	if (!f->notrace_pid || pid != f->notrace_pid || ns != f->notrace_ns ||
	    own != f->own)
		return true;	/* another boot's, or a line not taken */
	if (by != pid)
		f->notrace_ts = -2;
	else
		f->notrace_ts = f->notrace_ts == -1 ? ts : -2;
	return true;
}

/*
 * timebase_apply() - put the dumps' and userspace's times on the trace
 * clock: the last dump's mark gives when its recording stopped (at most
 * stop - mark after the marker event: the kernel stamped it after
 * "mark"), the first dump's mark the agent's start (start is the same
 * CLOCK_BOOTTIME, the offset taken at the middle of the marker's write).
 * Without marks the manifests' CLOCK_BOOTTIME times stay, and
 * d->timebase_why says so.  A dump whose STOP_NS went back keeps its
 * offset; the last one's stop is then not known (last_time -1), and
 * d->timebase_note says which.
 */
void timebase_apply(struct dump *d)
{
	const struct timebase *f = &d->tb_first, *l = &d->tb_last, *sb;
	int i;

	if (!dump_evidence(d))
		return;
	if (!l->n && d->previous) {
		dr_why(&d->timebase_why, "the trace is the hung boot's, dumped by the next boot: dump and userspace times are CLOCK_BOOTTIME, hits the trace clock");
		return;
	}
	if (!l->n) {
		dr_why(&d->timebase_why, "no timebase line in the last dump (an agent before the clock marks): dump and userspace times are CLOCK_BOOTTIME, hits the trace clock");
		return;
	}
	if (l->trace_ts < 0) {
		dr_why(&d->timebase_why, "dump %u's clock mark is %s the trace: dump and userspace times are CLOCK_BOOTTIME, hits the trace clock",
			 l->n, l->trace_ts == -2 ? "twice in" : "not in");
		return;
	}
	d->timebase = true;
	/* in double: the sums of two nanosecond counts near INT64_MAX wrap */
	d->offset_last = l->trace_ts - ((double)l->mark + l->marked) / 2e9;
	d->last_time = l->stop_back ? -1 :
		       l->trace_ts + ((double)l->stop - l->mark) / 1e9;
	if (f->n && f->stop_back && f->n != l->n)
		dr_why(&d->timebase_note, "dump %u's CLOCK_BOOTTIME went back after its mark (STOP_NS %lld, MARKED_NS %lld): its mark still gives the offset",
		       f->n, f->stop, f->marked);
	if (l->stop_back)
		dr_why(&d->timebase_note, "%s%sdump %u's CLOCK_BOOTTIME went back after its mark (STOP_NS %lld, MARKED_NS %lld): when its recording stopped is not known",
		       d->timebase_note ? d->timebase_note : "",
		       d->timebase_note ? "; " : "", l->n, l->stop, l->marked);
	if (f->n && f->trace_ts >= 0)
		d->offset_first = f->trace_ts - ((double)f->mark + f->marked) / 2e9;
	else
		d->offset_first = d->offset_last;
	/* one reading at the agent's start, in every dump's line */
	sb = f->n && f->start_back ? f : l;
	if (sb->start_back) {
		d->init_time = -1;
		dr_why(&d->init_why, "userspace's start is not known: dump %u's START_NS %lld reads after its MARK_NS %lld (the target's clock went back after the agent's start)",
		       sb->n, sb->start, sb->mark);
	} else {
		d->init_time = (f->n && f->trace_ts >= 0 ? f->start : l->start) / 1e9 +
			       d->offset_first;
		free(d->init_why);	/* known now, on the trace's clock */
		d->init_why = NULL;
	}
	for (i = 0; i < d->nhits && d->last_time >= 0; i++)
		if (d->hits[i].ts > d->last_time) {
			if (!d->after_dump++ || d->hits[i].ts > d->after_dump_ts)
				d->after_dump_ts = d->hits[i].ts;
		}
}
