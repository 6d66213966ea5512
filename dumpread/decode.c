// SPDX-License-Identifier: GPL-2.0
/*
 * The events of raw dumps, decoded in process, as trace-cmd's own reader
 * decodes a trace.dat (lib/trace-cmd/trace-input.c): libtraceevent
 * parses header_page and the format files the pages use
 * (tep_parse_header_page(), tep_parse_event()), kallsyms, printk_formats
 * and saved_cmdlines; each CPU's pages are walked by kbuffer for the
 * dump's long size and byte order (kbuffer_alloc(), kbuffer_load_subbuffer(),
 * kbuffer_read_event()), and the CPUs' records are taken in time order
 * (the earliest first, the lower CPU on a tie: tracecmd_iterate_events()).
 * No child process, no temporary directory, no trace.dat: rawdump.c has
 * checked everything libtraceevent would trust (record names, the pages
 * and their events, the format files' fields and print formats).
 *
 * libtraceevent's plugins are loaded as trace-cmd's reader loads them
 * (sched_switch, kmem, ... print through them).
 *
 * Two calls are isolated, the ones that can still fault on what the
 * guest wrote: the format files' print-fmt parser (tep_parse_event())
 * runs once in a child first (one fork per report, at most
 * PARSE_SECONDS), its crash an error naming the signal; and printing an
 * event (tep_print_event()) divides by whatever a record's field holds
 * where its print fmt divides by a field, so a SIGFPE there ends the
 * decode with an error (sigsetjmp), not the report.
 *
 * Each record becomes the struct hit that read.c's text reader makes of
 * a trace line:
 *
 *   ftrace:function        FUNC, called from PARENT (the caller)
 *   ftrace:funcgraph_entry FUNC (a function_graph entry; exits are not hits)
 *   ftrace:kernel_stack    the frames of the task's previous hit
 *   ftrace:user_stack      the user frames of the task's previous hit,
 *                          as " <%016llx>" for --sysroot naming
 *   ftrace:print           the agent's clock marks (timebase.c)
 *   any other event        its name, and its fields as the kernel prints
 *                          them (TEP_PRINT_INFO: "(ip) name=..." for a
 *                          kprobe), which expect.c reads as it reads text
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <trace-seq.h>

#include "dumpread-local.h"

#define PARSE_SECONDS	60

#ifndef __BYTE_ORDER__
#error "the host's byte order is needed (__BYTE_ORDER__)"
#endif
#define HOST_BIG_ENDIAN	(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

/* A handle for the dump's long size and byte order, libtraceevent's plugins loaded. */
static struct tep_handle *tep_for(const struct page_layout *pl)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		fatal("out of memory (tep_alloc)");
	tep_set_long_size(tep, pl->long_size);
	tep_set_page_size(tep, pl->page_size);
	tep_set_file_bigendian(tep, pl->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, HOST_BIG_ENDIAN ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	return tep;
}

/* The format files of the event types the pages hold, parsed into @tep. */
static void parse_formats(struct tep_handle *tep, const struct rawset *rs)
{
	int i, noid = 0;

	for (i = 0; i < rs->n; i++) {
		const struct rawfile *f = &rs->f[i];
		char sys[RAW_NAME_MAX + 1];
		const char *slash;

		if (strncmp(f->name, "events/", 7) || !strcmp(f->name, "events/header_page") ||
		    !strcmp(f->name, "events/header_event") ||
		    format_unused(f, rs->used, &noid))
			continue;
		slash = strchr(f->name + 7, '/');
		if (!slash || (size_t)(slash - f->name - 7) >= sizeof(sys))
			continue;
		memcpy(sys, f->name + 7, slash - f->name - 7);
		sys[slash - f->name - 7] = '\0';
		/* a format libtraceevent refuses leaves its records unknown */
		tep_parse_event(tep, f->data, f->len, sys);
	}
}

struct parse_args {
	const struct rawset *rs;
	const struct page_layout *pl;
};

static int parse_in_child(void *arg)
{
	const struct parse_args *a = arg;
	struct tep_handle *tep = tep_for(a->pl);

	parse_formats(tep, a->rs);
	tep_free(tep);	/* in process too, where the fuzz harnesses run it */
	return 0;
}

/*
 * parse_in_child() in a child process: 0, or -1 with @e naming the
 * signal that ended it.  The fuzz harnesses (tests/fuzz/Makefile.fuzz)
 * build it with DUMPREAD_PARSE_IN_PROCESS: there a crash belongs in the
 * process, where libFuzzer sees it.
 */
static int parse_isolated(struct parse_args *pa, struct dumpread_error *e)
{
#ifdef DUMPREAD_PARSE_IN_PROCESS
	(void)e;
	return parse_in_child(pa);
#else
	struct errmsg ce = { 0 };
	char how[96];
	int status;

	if (child_call(parse_in_child, pa, PARSE_SECONDS, &status, &ce))
		return dr_error(e, DR_LIBTRACEEVENT, "%s", ce.msg);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return dr_error(e, DR_LIBTRACEEVENT,
				"libtraceevent parsing the raw dumps' format files ended with %s%s",
				child_status(status, how, sizeof(how)),
				WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ?
				", its time up" : "");
	return 0;
#endif
}

/* The files libtraceevent parses besides the formats. */
static int parse_texts(struct tep_handle *tep, const struct rawset *rs,
		       const struct page_layout *pl, struct dumpread_error *e)
{
	int i;

	for (i = 0; i < rs->n; i++) {
		const struct rawfile *f = &rs->f[i];

		if (!strcmp(f->name, "events/header_page")) {
			if (tep_parse_header_page(tep, f->data, f->len, pl->long_size))
				return dr_error(e, DR_LIBTRACEEVENT, "libtraceevent cannot read events/header_page");
		} else if (!strcmp(f->name, "kallsyms")) {
			tep_parse_kallsyms(tep, f->data);
		} else if (!strcmp(f->name, "printk_formats")) {
			tep_parse_printk_formats(tep, f->data);
		} else if (!strcmp(f->name, "saved_cmdlines")) {
			tep_parse_saved_cmdlines(tep, f->data);
		}
	}
	return 0;
}

/* One CPU's pages, walked by kbuffer. */
struct cursor {
	const struct rawfile *f;
	int cpu;
	size_t off;		/* the next page */
	struct kbuffer *kb;
	void *ev;		/* the current event, NULL before a page */
	unsigned long long ts;
};

/* The cursor's next event (the first on the first call); false at the end. */
static bool cursor_next(struct cursor *c, unsigned int page_size)
{
	if (c->ev && (c->ev = kbuffer_next_event(c->kb, &c->ts)))
		return true;
	while (c->off + page_size <= c->f->len) {
		kbuffer_load_subbuffer(c->kb, c->f->data + c->off);
		c->off += page_size;
		if ((c->ev = kbuffer_read_event(c->kb, &c->ts)))
			return true;
	}
	return false;
}

struct walk {
	struct tep_handle *tep;
	struct dump *d;
	long events, unknown;
};

static char *func_name(struct tep_handle *tep, unsigned long long addr)
{
	const char *f = tep_find_function(tep, addr);

	return f ? xstrdup(f) : xasprintf("0x%llx", addr);
}

/* A number field of @rec by name; false when the event has none. */
static bool field_num(struct tep_event *ev, struct tep_record *rec,
		      const char *name, unsigned long long *val)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	return f && !tep_read_number_field(f, rec->data, val);
}

/* The task's last hit (a stack event follows the event it belongs to). */
static struct hit *last_hit_of(struct dump *d, const char *task)
{
	int i;

	for (i = d->nhits - 1; i >= 0; i--)
		if (!strcmp(d->hits[i].task, task))
			return &d->hits[i];
	return NULL;
}

/* The "caller" array of a kernel_stack or user_stack record. */
static void stack_frames(struct tep_handle *tep, struct tep_event *ev,
			 struct tep_record *rec, struct hit *h, bool user)
{
	struct tep_format_field *f = tep_find_field(ev, "caller");
	unsigned long long n = 0, addr;
	int ls = tep_get_long_size(tep), i, max;

	if (!f || ls <= 0)
		return;
	/* kernel_stack: "size" entries; user_stack: the array, 0-ended */
	max = (rec->size - f->offset) / ls;
	if (!user && field_num(ev, rec, "size", &n) && (int)n < max)
		max = n;
	for (i = 0; i < max; i++) {
		if (i == DUMPREAD_MAX_STACK) {
			h->deep += max - i;
			break;
		}
		addr = tep_read_number(tep, (char *)rec->data + f->offset + i * ls, ls);
		if (!addr || addr == (ls == 4 ? 0xffffffffULL : ~0ULL))
			break;
		if (user)
			push_str(&h->uframes, &h->nuframes, &h->capuframes,
				 xasprintf("<%016llx>", addr));
		else
			push_str(&h->frames, &h->nframes, &h->capframes,
				 func_name(tep, addr));
	}
	if (user)
		h->ustack = true;
	else
		h->stack = true;
}

/*
 * tep_print_event(TEP_PRINT_INFO) of @rec into a malloc'd string, or
 * NULL when it divided by zero (SIGFPE: a print fmt that divides by a
 * record's field, printfmt.c).
 */
static sigjmp_buf fpe_jmp;

static void on_fpe(int sig)
{
	(void)sig;
	siglongjmp(fpe_jmp, 1);
}

/* tep_print_event() of @rec into @s; false when it raised SIGFPE. */
static bool print_guarded(struct tep_handle *tep, struct trace_seq *s,
			  struct tep_record *rec)
{
	if (sigsetjmp(fpe_jmp, 1))
		return false;
	tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO);
	return true;
}

static char *event_info(struct tep_handle *tep, struct tep_record *rec)
{
	struct sigaction sa = { .sa_handler = on_fpe }, old;
	struct trace_seq s;
	char *info = NULL;
	bool fpe;

	trace_seq_init(&s);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGFPE, &sa, &old);
	fpe = !print_guarded(tep, &s, rec);
	sigaction(SIGFPE, &old, NULL);
	if (!fpe) {
		trace_seq_terminate(&s);
		info = xstrdup(s.buffer ? s.buffer : "");
	}
	trace_seq_destroy(&s);
	return info;
}

static int one_record(struct walk *w, struct tep_record *rec,
		      struct dumpread_error *e)
{
	struct dump *d = w->d;
	struct tep_handle *tep = w->tep;
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	struct hit h = { 0 };
	unsigned long long ip, parent;
	const char *comm;
	char *info;
	int pid = -1;	/* set when @d is given */

	w->events++;
	if (!ev) {
		w->unknown++;
		return 0;
	}
	if (!d)
		goto print;	/* a check: printed and dropped */
	pid = tep_data_pid(tep, rec);
	comm = tep_data_comm_from_pid(tep, pid);
	h.task = xasprintf("%s-%d", comm ? comm : "<...>", pid);
	h.ts = rec->ts / 1e9;
	if (!strcmp(ev->system, "ftrace") &&
	    (!strcmp(ev->name, "kernel_stack") || !strcmp(ev->name, "user_stack"))) {
		struct hit *last = last_hit_of(d, h.task);

		if (last)
			stack_frames(tep, ev, rec, last, ev->name[0] == 'u');
		free(h.task);
		return 0;
	}
	if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "function") &&
	    field_num(ev, rec, "ip", &ip) && field_num(ev, rec, "parent_ip", &parent)) {
		h.probe = func_name(tep, ip);
		h.parent = func_name(tep, parent);
		h.args = xstrdup("");
		add_hit(d, &h);
		return 0;
	}
	if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "funcgraph_entry") &&
	    field_num(ev, rec, "func", &ip)) {
		h.probe = func_name(tep, ip);
		h.args = xstrdup("");
		add_hit(d, &h);
		return 0;
	}
	if (!strcmp(ev->system, "ftrace") &&
	    (!strcmp(ev->name, "funcgraph_exit") || !strcmp(ev->name, "bprint"))) {
		free(h.task);
		return 0;
	}
print:
	info = event_info(tep, rec);
	if (!info) {
		free(h.task);
		return dr_error(e, DR_LIBTRACEEVENT,
				"libtraceevent divided by zero (SIGFPE) printing a %s:%s record (its print fmt divides by a field)",
				ev->system, ev->name);
	}
	if (!d) {
		free(info);
		return 0;
	}
	if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "print")) {
		/*
		 * trace_marker: the agent's clock marks (timebase.c),
		 * printed "tracing_mark_write: TEXT" by the event's print
		 * format (its buf is a flexible array, no length in the record)
		 */
		const char *m = strstr(info, ": ");

		if (m && !clock_mark(d, m + 2, h.ts))
			notrace_mark(d, m + 2, h.ts, pid);
		free(info);
		free(h.task);
		return 0;
	}
	h.probe = xstrdup(ev->name);
	h.args = info;
	add_hit(d, &h);
	return 0;
}

/*
 * raw_decode() - see dumpread-local.h.  The format files are parsed in a
 * child first (parse_in_child()): a crash there is an error naming the
 * signal.  Then every CPU's records in time order.
 */
int raw_decode(const struct rawset *rs, const struct page_layout *pl,
	       struct dump *d, struct dumpread_error *e)
{
	struct parse_args pa = { rs, pl };
	struct walk w = { .d = d };
	struct cursor *cur = NULL;
	struct tep_plugin_list *plugins;
	int i, ncur = 0, cap = 0, rc = 0;

	if (parse_isolated(&pa, e))
		return -1;
	w.tep = tep_for(pl);
#ifdef DUMPREAD_NO_PLUGINS
	/* the fuzz harnesses: a dlopen of every plugin per input left
	 * allocations that made libFuzzer's leak check run on each */
	plugins = NULL;
#else
	plugins = tep_load_plugins(w.tep);
#endif
	rc = parse_texts(w.tep, rs, pl, e);
	if (!rc)
		parse_formats(w.tep, rs);
	for (i = 0; !rc && i < rs->n; i++) {
		unsigned long long cpu;
		struct cursor *c;

		if (!is_cpu_data(rs->f[i].name) ||
		    !dec_num(rs->f[i].name + 11, strcspn(rs->f[i].name + 11, "/"),
			     MAX_CPUS - 1, &cpu))
			continue;
		ALLOC_GROW(cur, ncur + 1, cap);
		c = &cur[ncur++];
		memset(c, 0, sizeof(*c));
		c->f = &rs->f[i];
		c->cpu = cpu;
		c->kb = kbuffer_alloc(pl->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				      pl->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
		if (!c->kb)
			fatal("out of memory (kbuffer_alloc)");
		if (!cursor_next(c, pl->page_size))
			c->ev = NULL;
	}
	/* the CPUs in order: the lower one first on a tie */
	for (i = 0; i < ncur; i++) {
		int j, k;

		for (j = i + 1, k = i; j < ncur; j++)
			if (cur[j].cpu < cur[k].cpu)
				k = j;
		if (k != i) {
			struct cursor t = cur[i];

			cur[i] = cur[k];
			cur[k] = t;
		}
	}
	while (!rc) {
		struct cursor *c = NULL;
		struct tep_record rec = { 0 };

		for (i = 0; i < ncur; i++)
			if (cur[i].ev && (!c || cur[i].ts < c->ts))
				c = &cur[i];
		if (!c)
			break;
		rec.ts = c->ts;
		rec.cpu = c->cpu;
		rec.data = c->ev;
		rec.size = kbuffer_event_size(c->kb);
		rec.record_size = kbuffer_curr_size(c->kb);
		rec.missed_events = kbuffer_missed_events(c->kb);
		rc = one_record(&w, &rec, e);
		if (!cursor_next(c, pl->page_size))
			c->ev = NULL;
	}
	for (i = 0; i < ncur; i++)
		kbuffer_free(cur[i].kb);
	free(cur);
	if (plugins)
		tep_unload_plugins(plugins, w.tep);
	tep_free(w.tep);
	if (rc)
		return rc;
	if (d) {
		d->raw_events = w.events;
		d->raw_unknown = w.unknown;
	}
	return 0;
}
