// SPDX-License-Identifier: GPL-2.0
/*
 * The hits of raw dumps, each event decoded by its own format file.
 *
 * tracedat.c makes the trace.dat of the boot's raw dumps; here Debian's
 * libtracecmd reads it back, record by record in time order over the
 * CPUs, and libtraceevent decodes each record through the format file
 * the target's tracefs gave for it.  So no trace option (latency-format,
 * a changed column layout) and no tracer can make the report misread a
 * line: there are no lines.  Each record becomes the struct hit that
 * dump.c's text reader makes of a trace line:
 *
 *   ftrace:function        FUNC, called from PARENT (the caller)
 *   ftrace:funcgraph_entry FUNC (a function_graph entry; exits are not hits)
 *   ftrace:kernel_stack    the frames of the task's previous hit
 *   ftrace:user_stack      the user frames of the task's previous hit,
 *                          as " <%016llx>" for --sysroot naming
 *   any other event        its name, and its fields as the kernel prints
 *                          them (TEP_PRINT_INFO: "(ip) name=..." for a
 *                          kprobe), which expect.c reads as it reads text
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <event-parse.h>
#include <trace-seq.h>

#include "report-int.h"

struct walk {
	struct report *r;
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

static int one_record(struct tracecmd_input *in, struct tep_record *rec,
		      int cpu, void *data)
{
	struct walk *w = data;
	struct dump *d = &w->r->d;
	struct tep_handle *tep = tracecmd_get_tep(in);
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	struct hit h = { 0 };
	unsigned long long ip, parent;
	const char *comm;
	int pid;

	(void)cpu;
	w->events++;
	if (!ev) {
		w->unknown++;
		return 0;
	}
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
	} else if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "funcgraph_entry") &&
		   field_num(ev, rec, "func", &ip)) {
		h.probe = func_name(tep, ip);
		h.args = xstrdup("");
	} else if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "print")) {
		/*
		 * trace_marker: the agent's clock marks (dump.c), printed
		 * "tracing_mark_write: TEXT" by the event's print format
		 * (its buf is a flexible array, no length in the record)
		 */
		struct trace_seq s;
		const char *m;

		trace_seq_init(&s);
		tep_print_event(tep, &s, rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&s);
		if (s.buffer && (m = strstr(s.buffer, ": ")))
			clock_mark(d, m + 2, h.ts);
		trace_seq_destroy(&s);
		free(h.task);
		return 0;
	} else if (!strcmp(ev->system, "ftrace") &&
		   (!strcmp(ev->name, "funcgraph_exit") ||
		    !strcmp(ev->name, "bprint"))) {
		free(h.task);
		return 0;
	} else {
		struct trace_seq s;

		trace_seq_init(&s);
		tep_print_event(tep, &s, rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&s);
		h.probe = xstrdup(ev->name);
		h.args = xstrdup(s.buffer ? s.buffer : "");
		trace_seq_destroy(&s);
	}
	add_hit(d, &h);
	return 0;
}

/*
 * Every record of the trace.dat @dat read as events_read() reads it, by
 * libtracecmd and libtraceevent, into @r.  0, or -EINVAL when libtracecmd
 * cannot open it.
 */
static int read_all(struct report *r, const char *dat, struct walk *w)
{
	struct tracecmd_input *in;

	w->r = r;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	in = tracecmd_open(dat, 0);
	if (!in)
		return -EINVAL;
	tracecmd_iterate_events(in, NULL, 0, one_record, w);
	tracecmd_close(in);
	return 0;
}

/*
 * events_try() - read every record of the trace.dat @dat (tracedat.c
 * made it) in a child process first, as events_read() does: libtracecmd
 * and libtraceevent trust the file (kbuffer, the format files' offsets,
 * print formats), and tracedat.c checks what it knows of them, but a
 * crash they still have must end the child, not the report.  At most
 * EVENTS_TRY_SECONDS.  Returns 0, or -EIO with @e naming the signal, or
 * -EINVAL when libtracecmd cannot open it.
 */
#define EVENTS_TRY_SECONDS	60

static int read_in_child(void *arg)
{
	struct report r = { 0 };
	struct walk w = { 0 };

	return read_all(&r, arg, &w) ? 3 : 0;
}

int events_try(const char *dat, struct errmsg *e)
{
	char how[96];
	int status, rc;

	rc = child_call(read_in_child, (void *)dat, EVENTS_TRY_SECONDS, &status, e);
	if (rc)
		return rc;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
		return errmsg_set(e, -EINVAL, "libtracecmd cannot open the trace.dat made of the raw dumps");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return errmsg_set(e, -EIO, "libtracecmd/libtraceevent reading the trace.dat made of the raw dumps ended with %s%s",
				  child_status(status, how, sizeof(how)),
				  WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ?
				  ", its time up" : "");
	return 0;
}

/*
 * events_read() - the hits of the complete raw dumps framed in @text
 * (@len bytes) into r->d, in time order, through tracedat_build() and
 * libtracecmd: read in a child first (events_try()), then here.  Only
 * complete dumps count, as for text dumps (dump.c reads the last complete
 * one): a hit in a cut dump is no evidence.  Returns 0, or -errno with @e
 * set (no trace.dat could be made or read: the report then has no hits
 * and says why).
 */
int events_read(struct report *r, const char *text, size_t len,
		struct errmsg *e)
{
	struct walk w = { .r = r };
	char *dat = NULL;
	int rc;

	rc = tracedat_build(text, len, true, &dat, NULL, e);
	if (!rc)
		rc = events_try(dat, e);
	if (!rc && read_all(r, dat, &w))
		rc = errmsg_set(e, -EINVAL, "libtracecmd cannot open the trace.dat made of the raw dumps");
	tracedat_done(dat);
	if (rc)
		return rc;
	r->d.raw_events = w.events;
	r->d.raw_unknown = w.unknown;
	return 0;
}
