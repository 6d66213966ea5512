// SPDX-License-Identifier: GPL-2.0
/*
 * The report for a person: the dump's kernel and timing, what was not
 * armed (and why, for a uprobe the kernel would not enable), the ring
 * buffer's counts, per probe its hits, arguments (up to TEXT_HITS, all
 * with --hits) and the kernel and user callers merged into trees, then
 * the expectations' verdicts.
 */
#include <stdlib.h>
#include <string.h>

#include "report-int.h"
#include "sysroot.h"
#include "uelf.h"

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

/*
 * Indented two columns a level up to TREE_INDENT levels, deeper with the
 * level's number: a chain of N frames is O(N) bytes, not O(N^2).
 */
#define TREE_INDENT	32

static void tree_print(FILE *out, const struct node *n, int depth)
{
	for (; n; n = n->next) {
		if (depth < TREE_INDENT)
			fprintf(out, "%*s%d %s\n", 6 + 2 * depth, "", n->count, n->name);
		else
			fprintf(out, "%*s[%d] %d %s\n", 6 + 2 * TREE_INDENT, "",
				depth, n->count, n->name);
		tree_print(out, n->child, depth + 1);
	}
}

/*
 * Why a uprobe's set_event failed with EINVAL: uprobe_register() refuses
 * an offset past the file's end only when the event is enabled
 * (kernel/events/uprobes.c, __uprobe_register(): "offset >
 * i_size_read(inode)"), and an nm/readelf address written for the file
 * offset is the usual cause.  With --sysroot the file says
 * (uelf_check_offset()); without, an offset that looks like an address.
 */
static void uprobe_refused(FILE *out, const struct report *r, const char *item,
			   const char *nl)
{
	char *name, *path;
	unsigned long long off;
	struct errmsg e;

	if (!strstr(item, "\tset_event\tInvalid argument") ||
	    strstr(item, "\tset_event\tInvalid argument") > nl)
		return;
	name = xstrndup(item, strcspn(item, "\t"));
	if (!uprobe_def(r, name, &path, &off)) {
		free(name);
		return;
	}
	if (r->sysroot) {
		/* the dump's uprobe_events item is the guest's word: inside --sysroot only */
		char *file = sysroot_path(r->sysroot, path, &e);

		if (!file)
			fprintf(out, "    %s: its file not read: %s\n", name, e.msg);
		else if (uelf_check_offset(file, off, &e))
			fprintf(out, "    %s: the kernel enables a uprobe only inside its file: %s\n",
				name, e.msg);
		free(file);
	} else if (off >= UELF_VADDR_HINT) {
		fprintf(out, "    %s: %s:0x%llx looks like a virtual address (nm, readelf -s), not a file offset; the kernel refuses an offset past the file's end when the event is enabled (--sysroot DIR checks it)\n",
			name, path, off);
	} else {
		fprintf(out, "    %s: is 0x%llx inside %s? the kernel refuses an offset past the file's end when the event is enabled (--sysroot DIR checks it)\n",
			name, off, path);
	}
	free(path);
	free(name);
}

/*
 * ring_buffer() - the agent's "cpu" lines (initramfs/dump.c cpu_lines():
 * "N\tentries\tE\toverrun\tO\tdropped\tD", from tracefs
 * per_cpu/cpuN/stats) as "cpu N: entries E, overrun O, dropped D".
 * An overrun is events the ring buffer overwrote: said, since the
 * oldest hits of the boot are then missing from the trace.
 */
static void ring_buffer(FILE *out, const char *lines)
{
	const char *p;

	fprintf(out, "ring buffer:\n");
	for (p = lines; *p; p = strchr(p, '\n') + 1) {
		const char *nl = strchr(p, '\n'), *t = p, *o;
		int field = 0;

		fprintf(out, "  cpu ");
		while (t < nl) {
			const char *e = memchr(t, '\t', nl - t);

			if (!e)
				e = nl;
			fprintf(out, "%s%.*s", field == 0 ? "" : field % 2 ? (field == 1 ? ": " : ", ") : " ",
				(int)(e - t), t);
			field++;
			t = e < nl ? e + 1 : nl;
		}
		o = strstr(p, "\toverrun\t");
		if (o && o < nl && o[9] != '0')
			fprintf(out, " (the ring buffer overwrote the oldest events: a larger buffer_size_kb keeps them)");
		fprintf(out, "\n");
	}
}

/* The item lines that failed or are missing. */
static void not_armed(FILE *out, const struct report *r)
{
	const char *p;
	bool head = false;

	for (p = r->d.items.s; *p; p = strchr(p, '\n') + 1) {
		const char *nl = strchr(p, '\n'), *f = strstr(p, "\tfailed\t");
		const char *m = strstr(p, "\tmissing\t");

		if ((f && f < nl) || (m && m < nl)) {
			/* the heading only over a line: every item may be armed */
			if (!head)
				fprintf(out, "not armed:\n");
			head = true;
			fprintf(out, "  %.*s\n", (int)(nl - p), p);
		}
		if (f && f < nl)
			uprobe_refused(out, r, p, nl);
	}
}

/* Hits with arguments printed per probe without --hits: a screenful. */
#define TEXT_HITS	8

/*
 * The samples of perf probe @name that no hit got: what the kernel lost
 * to a full perf ring (PERF_RECORD_LOST: the agent read too slowly),
 * throttled, what the agent could not read, and what it read but did not
 * keep (its dump holds a bounded sample text).  @n hits, @stacks of them
 * with a stack.
 */
static void perf_losses(FILE *out, const struct dump *d, const char *name,
			int n, int stacks)
{
	const struct perf_stat *p = perf_stat_of(d, name);

	if (!perf_lossy(d, p))
		return;
	fprintf(out, "    perf samples: %llu read by the agent", p->samples);
	if (p->lost)
		fprintf(out, ", %llu lost by the kernel to a full perf ring (PERF_RECORD_LOST)",
			p->lost);
	if (p->throttled)
		fprintf(out, ", throttled %llu time(s) (PERF_RECORD_THROTTLE)", p->throttled);
	if (p->bad)
		fprintf(out, ", %llu unreadable", p->bad);
	fprintf(out, "\n");
	if (d->perf_notkept)
		fprintf(out, "    (the agent read %llu sample(s), of all probes, that it did not keep: its dump's sample text was full)\n",
			d->perf_notkept);
	if (d->perf_maps_notkept)
		fprintf(out, "    (the agent did not keep %llu executable mapping(s), of all processes: past its bound, frames in them stay unnamed)\n",
			d->perf_maps_notkept);
	if (stacks < n)
		fprintf(out, "    %d of %d hit(s) have no stack: not in these trees\n",
			n - stacks, n);
}

static void probe_hits(FILE *out, const struct report *r, const char *name)
{
	const struct dump *d = &r->d;
	struct node root = { 0 }, uroot = { 0 };
	int j, n = 0, before = 0, shown = 0, more = 0, stacks = 0, cut = 0, deep = 0;
	long long deep_frames = 0;
	const struct hit *cut_hit = NULL;
	double first = -1;
	/*
	 * A perf probe's hits without a stack are not in its caller tree,
	 * whose stacks start at the probed function: the function
	 * tracer's one-level parent field would sit there as a frame.
	 * Those before the agent armed perf (@early) are said apart.
	 */
	const struct perf_stat *ps = perf_stat_of(d, name);
	double armed = ps ? perf_armed_by(d) : -1;
	struct node proot = { 0 };
	int early = 0;

	for (j = 0; j < d->nhits; j++) {
		const struct hit *h = &d->hits[j];

		if (h->probe != name)	/* one pointer per name: dump_probe_names() */
			continue;
		n++;
		if (first < 0)
			first = h->ts;
		if (d->init_time >= 0 && h->ts < d->init_time)
			before++;
		if (h->nframes)
			tree_add(&root, h->frames, h->nframes);
		else if (h->parent)
			tree_add(ps ? &proot : &root, &h->parent, 1);
		early += hit_before_perf(d, h);
		if (h->nuframes)
			tree_add(&uroot, h->uframes, h->nuframes);
		if (h->nuframes || h->nframes)
			stacks++;
		if (h->cut_why) {
			cut++;
			cut_hit = h;
		}
		if (h->deep) {
			deep++;
			deep_frames += h->deep;
		}
	}
	if (!n) {
		fprintf(out, "  %-24s %5d hit(s)\n", name, n);
		return;
	}
	fprintf(out, "  %-24s %5d hit(s), first at %.6f s, %d before userspace\n",
		name, n, first, before);
	for (j = 0; j < d->nhits; j++) {
		const struct hit *h = &d->hits[j];

		if (h->probe != name || !h->args[0])
			continue;
		if (shown == TEXT_HITS && !r->all_hits) {
			more++;
			continue;
		}
		fprintf(out, "      %.6f %s: %s\n", h->ts, h->task, h->args);
		shown++;
	}
	if (more)
		fprintf(out, "      ... %d more: --hits prints them all, --json has every hit\n",
			more);
	if (cut)
		fprintf(out, "    %d stack(s) cut by the kernel, %s alone: %s%s\n",
			cut, cut_hit->cut_frame, cut_hit->cut_why,
			cut_hit->parent ? "; the callers below are the function tracer's parent field (one level)" : "");
	if (deep)
		fprintf(out, "    %d stack(s) deeper than the kernel's deepest (%d perf callchain entries, PERF_MAX_STACK_DEPTH; %d ftrace stack trace entries, FTRACE_KSTACK_ENTRIES): cut there, %lld frame(s) not kept\n",
			deep, DUMPREAD_MAX_PERF_STACK, DUMPREAD_MAX_STACK, deep_frames);
	if (root.child) {
		fprintf(out, "    callers (innermost first, with counts):\n");
		tree_print(out, root.child, 0);
	}
	if (uroot.child) {
		fprintf(out, "    user callers (innermost first, with counts%s):\n",
			r->sysroot ? "" : "; --sysroot names them");
		tree_print(out, uroot.child, 0);
	}
	if (early)
		fprintf(out, "    %d hit(s) before the agent armed its perf callchains (by %.6f s) have no stack\n",
			early, armed);
	if (proot.child) {
		const struct node *c;

		fprintf(out, "    hits without a stack, their callers by the function tracer's parent field:");
		for (c = proot.child; c; c = c->next)
			fprintf(out, " %s (%d)", c->name, c->count);
		fprintf(out, "\n");
	}
	if (ps && !perf_lossy(d, ps) && n - stacks - early > 0)
		fprintf(out, "    %d hit(s) have no stack: no perf sample of theirs in the dumps\n",
			n - stacks - early);
	perf_losses(out, d, name, n, stacks + early);
}

/* text_write() - everything but the closing count (text_summary()). */
void text_write(FILE *out, const struct report *r)
{
	const struct dump *d = &r->d;
	const struct expectation *e;
	int i;

	fprintf(out, "probecc report: %s: %d dump(s), kernel ", r->dumppath,
		d->ndumps);
	if (d->uname && d->arch)	/* the release, and the arch with its byte order */
		fprintf(out, "%.*s (%s)\n", (int)strcspn(d->uname, "\t"),
			d->uname, d->arch);
	else
		fprintf(out, "%s\n", d->uname ? d->uname : "?");
	if (d->buffer && strcmp(d->buffer, "top"))
		fprintf(out, "trace instance: %s (the file's instance: probecc's events apart from the top buffer's)\n",
			d->buffer);
	if (d->ncut)
		fprintf(out, "not complete: %d dump(s) cut short or damaged, the last: %s%s\n",
			d->ncut, dr_text(d->why), d->ndumps ? "; the report reads the last complete one, but no verdict can pass" : "");
	if (d->stray)
		fprintf(out, "not taken: %d frame line(s), the first at %s\n", d->stray, dr_text(d->stray_why));
	if (d->bad_time)
		fprintf(out, "not read: %d trace line(s) whose time is not the kernel's (digits, or digits.digits), so no verdict can pass; the first: %s\n",
			d->bad_time, dr_text(d->bad_time_why));
	if (d->console_dumps)
		fprintf(out, "the kernel's ftrace dump on the console (ftrace_dump_on_oops): %d event(s), %d of them not in the agent's dump and joined%s\n",
			d->console_events, d->console_new,
			d->console_lost ? ", some lost (CPU:N [LOST N EVENTS])" : "");
	if (d->unread && !strncmp(dr_text(d->unread_why), "perf-mmap: ", 11))
		fprintf(out, "not read: %d line(s) of no form the report reads (the first a malformed agent's mapping line), so no verdict can pass; the first: %s\n",
			d->unread, dr_text(d->unread_why));
	else if (d->unread && d->unread_by_count)
		fprintf(out, "not read: %d trace line(s): the trace's own count of entries disagrees with its event lines, so no verdict can pass: %s\n",
			d->unread, dr_text(d->unread_why));
	else if (d->unread)
		fprintf(out, "not read: %d trace line(s) of no form the report reads (a function_graph trace, or an option that changes the text: latency-format, nocontext-info, raw, hex, bin; \"dump SINK raw\" is read whatever the form), so no verdict can pass; the first: %s\n",
			d->unread, dr_text(d->unread_why));
	if (d->raw && d->raw_err.code)
		fprintf(out, "raw dumps not read: %s\n", dr_text(d->raw_err.why));
	else if (d->raw)
		fprintf(out, "raw dumps: %ld event(s) decoded by their format files%s\n",
			d->raw_events - d->raw_unknown,
			d->raw_unknown ? ", some of no format (see below)" : "");
	if (d->raw_unknown)
		fprintf(out, "not decoded: %ld event(s) of an id no format file names\n",
			d->raw_unknown);
	if (!dump_evidence(d))
		fprintf(out, "no complete dump in %s: nothing to check the expectations against\n",
			r->dumppath);
	if (d->timebase && d->tb_first.n && d->tb_first.n != d->tb_last.n &&
	    d->tb_first.trace_ts >= 0)
		fprintf(out, "timebase: the trace clock (CLOCK_BOOTTIME %+.3f s at dump %u, %+.3f s at dump %u: the agent's clock marks)\n",
			d->offset_first, d->tb_first.n, d->offset_last, d->tb_last.n);
	else if (d->timebase)
		fprintf(out, "timebase: the trace clock (CLOCK_BOOTTIME %+.3f s at dump %u: the agent's clock mark)\n",
			d->offset_last, d->tb_last.n);
	else if (d->timebase_why)
		fprintf(out, "timebase: not measured: %s\n", d->timebase_why);
	if (d->timebase && d->timebase_note)
		fprintf(out, "timebase: %s\n", d->timebase_note);
	if (d->init_time >= 0)
		fprintf(out, "userspace started at %.3f s%s\n", d->init_time,
			d->timebase ? "" : " (CLOCK_BOOTTIME)");
	else if (d->init_why)
		fprintf(out, "%s\n", d->init_why);
	if (d->agent_own_window && d->tb_first.own)
		fprintf(out, "the agent's own: %d hit(s) of its worker (PID %ld, its every hit: in no PID list, its mark at %.6f s), left out\n",
			d->agent_own, d->tb_first.notrace_pid, d->agent_own_until);
	else if (d->agent_own_window && d->agent_own_worker)
		fprintf(out, "the agent's own: %d hit(s) of its worker (PID %ld, its every hit) until the kernel took it out of the trace (set_event_notrace_pid, its mark at %.6f s), left out\n",
			d->agent_own, d->tb_first.notrace_pid, d->agent_own_until);
	else if (d->agent_own_window)
		fprintf(out, "the agent's own: %d hit(s) of its PID from %.6f s (%s) until the kernel took it out of the trace (set_event_notrace_pid, its mark at %.6f s), left out\n",
			d->agent_own, d->agent_own_from,
			d->agent_own_exec ? "after the kernel's exec event" : "its start",
			d->agent_own_until);
	else if (d->agent_own_kept)
		fprintf(out, "the agent's own: hits of its PID kept: %s\n", d->agent_own_kept);
	if (d->timebase && d->last_time >= 0)
		fprintf(out, "last dump stopped recording at %.6f s\n", d->last_time);
	if (d->after_dump)
		fprintf(out, "clock marks disagree: %d hit(s) after the last dump stopped recording (the latest at %.6f s)\n",
			d->after_dump, d->after_dump_ts);
	if (d->items.s)
		not_armed(out, r);
	if (d->noops) {
		char reason[256];

		oops_reason(d, reason, sizeof(reason));
		fprintf(out, "%s%s\n", reason,
			d->noops > 1 ? " (the first of several)" : "");
		fprintf(out, "  (oops_enter() turns tracing off: no probe's hits after it are in the trace)\n");
		for (i = 0; i < d->nkcounts; i++)
			fprintf(out, "  %-24s %llu hit(s) and %llu missed as the kernel counted them (kprobe_profile)\n",
				d->kcounts[i].probe, d->kcounts[i].hits, d->kcounts[i].missed);
	}
	if (d->cpus.s)
		ring_buffer(out, d->cpus.s);
	if (d->nsamples)
		fprintf(out, "perf callchains: %d sample(s), %d joined to trace hits%s\n",
			d->nsamples, d->nsamples - d->unmatched,
			!r->k ? " (no kernel symbols: --target, --vmlinux or --system-map names them)" :
			r->kaslr ? " (kernel text relocated this boot: symbols shifted by _stext)" : "");
	for (i = 0; i < d->nmods; i++)
		if (d->mods[i].unread)
			fprintf(out, "module %s: its file under --modules not read (%s): its frames are addresses\n",
				d->mods[i].name, d->mods[i].unread);
	fprintf(out, "hits:\n");
	for (i = 0; i < r->nnames; i++)
		probe_hits(out, r, r->names[i]);
	initcalls_text(out, r, r->all_hits ? r->nics : 10);
	compare_text(out, r);

	if (r->prog && r->prog->expects)
		fprintf(out, "expectations:\n");
	for (i = 0, e = r->prog ? r->prog->expects : NULL; e; e = e->next, i++)
		fprintf(out, "  %s  %s  (%s)\n", r->verdicts[i].ok ? "PASS" : "FAIL",
			e->text, r->verdicts[i].why);
}

void text_summary(FILE *out, const struct report *r)
{
	const struct boot *b = &r->boot;
	char buf[1400];
	int i;

	if (b->known) {
		fprintf(out, "boot: %s: %s\n", boot_rows[b->end].name, b->msg);
		if (b->task[0])
			fprintf(out, "  task %s%s%s\n", b->task, b->pc[0] ? ", at " : "", b->pc);
		for (i = 0; i < b->nstack; i++)
			fprintf(out, "   => %s\n", b->stack[i]);
		if (b->end == BOOT_PANIC || b->end == BOOT_OOPS || b->end == BOOT_INIT_EXITED) {
			int from = boot_last_events(r, 5);

			if (from < r->d.nhits)
				fprintf(out, "  the last events before it:\n");
			for (i = from; i < r->d.nhits && (b->time < 0 || r->d.hits[i].ts <= b->time); i++)
				fprintf(out, "    %.6f %s %s%s%s%s\n", r->d.hits[i].ts, r->d.hits[i].task,
					r->d.hits[i].probe, r->d.hits[i].args[0] ? ": " : "",
					r->d.hits[i].args, r->d.hits[i].console ? " (console)" : "");
		}
		if (b->end != BOOT_CLEAN && b->ntail) {
			fprintf(out, "  the console's last lines:\n");
			for (i = 0; i < b->ntail; i++)
				fprintf(out, "    %s\n", b->tail[i]);
		}
	}

	if (r->nexp)
		fprintf(out, "%d of %d expectation(s) hold\n", r->nexp - r->failed, r->nexp);
	if (r->nexp && dump_incomplete_why(&r->d, buf, sizeof(buf)))
		fprintf(out, "no pass: %s\n", buf);
}
