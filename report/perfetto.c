// SPDX-License-Identifier: GPL-2.0
/*
 * --perfetto: the hits as a Trace Event Format file (the JSON that
 * Perfetto's UI, chrome://tracing and speedscope open; "Trace Event
 * Format", Google, the document Perfetto links to):
 *
 *   {"traceEvents": [...], "stackFrames": {...}, "displayTimeUnit": "ms"}
 *
 * - one process, "boot" (pid 1), and one thread track per task (tid: the
 *   task's pid, named by a "thread_name" metadata event "M");
 * - one instant event ("ph": "i", thread scope) per hit at its time in
 *   microseconds since boot, named by its probe, with its fields typed as
 *   "args" (json_fields()) and, when it has a stack, "sf": the id of its
 *   innermost frame in "stackFrames", where each frame names its function
 *   and its "parent" frame (the caller), shared by every stack through it;
 * - a global instant event "userspace starts" at the real init's start,
 *   and the agent's arming failures as global instants at time 0.
 * Frames are bare function names, as in --folded.
 */
#include <stdlib.h>
#include <string.h>

#include "report-int.h"
#include "strmap.h"

struct frame_ids {
	struct strmap ids;	/* "PARENT;NAME" -> id (1-based, as a pointer) */
	/*
	 * the "stackFrames" members written so far: one stream for all of
	 * them (a stream per frame cost glibc's zeroed buffer each time)
	 */
	FILE *out;
	char *buf;
	size_t len;
	long n;
};

/*
 * The id of frame @name called from @parent (0: outermost), added once,
 * of category "user" when @user, else "kernel".
 */
static long frame_id(struct frame_ids *fr, long parent, const char *name,
		     bool user)
{
	size_t len = !strncmp(name, USTACK_MARK, strlen(USTACK_MARK)) ? strlen(name) :
		     strcspn(name, "+/ ");
	const char *heur = ustack_heuristic(name) ? USTACK_HEUR : "";
	char *key = xasprintf("%ld;%c%.*s%s", parent, user ? 'u' : 'k', (int)len, name, heur);
	void *v = strmap_get(&fr->ids, key, strlen(key));
	char *bare;

	if (v) {
		free(key);
		return (long)(size_t)v;
	}
	xstrmap_put(&fr->ids, key, strlen(key), (void *)(size_t)(fr->n + 1));
	fr->n++;
	bare = xasprintf("%.*s%s", (int)len, name, heur);
	if (!fr->out)
		fr->out = xopen_memstream(&fr->buf, &fr->len);
	fprintf(fr->out, "%s\n  \"%ld\": {\"name\": ", fr->n > 1 ? "," : "", fr->n);
	json_string(fr->out, bare);
	if (parent)
		fprintf(fr->out, ", \"parent\": \"%ld\"", parent);
	fprintf(fr->out, ", \"category\": \"%s\"}", user ? "user" : "kernel");
	free(bare);
	return fr->n;	/* the key stays: the map does not copy it */
}

/* "comm-PID" -> PID (the task's tid); 0 when there is none. */
static long task_tid(const char *task)
{
	const char *dash = strrchr(task, '-');

	return dash ? strtol(dash + 1, NULL, 10) : 0;
}

void perfetto_write(FILE *f, const struct report *r)
{
	const struct dump *d = &r->d;
	struct frame_ids fr = { 0 };
	struct strmap named = { 0 };
	const char *p;
	int i, j;

	fprintf(f, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
	fprintf(f, "  {\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"tid\": 0, \"args\": {\"name\": \"boot\"}}");
	for (i = 0; i < d->nhits; i++) {
		const struct hit *h = &d->hits[i];
		long tid = task_tid(h->task), sf = 0;

		if (!strmap_get(&named, h->task, strlen(h->task))) {
			xstrmap_put(&named, h->task, strlen(h->task), (void *)1);
			fprintf(f, ",\n  {\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": %ld, \"args\": {\"name\": ", tid);
			json_string(f, h->task);
			fprintf(f, "}}");
		}
		/* outermost first: each frame's parent is its caller; user frames below kernel ones */
		for (j = h->nuframes - 1; j >= 0; j--)
			sf = frame_id(&fr, sf, h->uframes[j], true);
		for (j = h->nframes - 1; j >= 0; j--)
			sf = frame_id(&fr, sf, h->frames[j], false);
		if (!h->nframes && h->parent)
			sf = frame_id(&fr, sf, h->parent, false);
		fprintf(f, ",\n  {\"ph\": \"i\", \"s\": \"t\", \"cat\": \"probecc\", \"name\": ");
		json_string(f, h->probe);
		fprintf(f, ", \"ts\": %.3f, \"pid\": 1, \"tid\": %ld, \"args\": ", h->ts * 1e6, tid);
		json_fields(f, h->args);
		if (sf)
			fprintf(f, ", \"sf\": \"%ld\"", sf);
		fprintf(f, "}");
	}
	/* the bootgraph: each initcall a complete event on its task's track */
	for (i = 0; i < r->nics; i++) {
		const struct initcall *ic = &r->ics[i];

		if (ic->end < 0)
			continue;
		fprintf(f, ",\n  {\"ph\": \"X\", \"cat\": \"initcall\", \"name\": ");
		json_string(f, ic->func);
		fprintf(f, ", \"ts\": %.3f, \"dur\": %.3f, \"pid\": 1, \"tid\": %ld, \"args\": {\"level\": ",
			ic->start * 1e6, (ic->end - ic->start) * 1e6, task_tid(ic->task));
		json_string(f, ic->level);
		if (ic->module) {
			fprintf(f, ", \"module\": ");
			json_string(f, ic->module);
		}
		fprintf(f, ", \"ret\": %d}}", ic->ret);
	}
	if (d->timebase && d->init_time >= 0)
		fprintf(f, ",\n  {\"ph\": \"i\", \"s\": \"g\", \"cat\": \"probecc\", \"name\": \"userspace starts\", \"ts\": %.3f, \"pid\": 1, \"tid\": 0}",
			d->init_time * 1e6);
	if (d->timebase && d->last_time >= 0)
		fprintf(f, ",\n  {\"ph\": \"i\", \"s\": \"g\", \"cat\": \"probecc\", \"name\": \"last dump\", \"ts\": %.3f, \"pid\": 1, \"tid\": 0}",
			d->last_time * 1e6);
	for (p = d->items.s; p && *p; p = strchr(p, '\n') + 1) {
		const char *nl = strchr(p, '\n');
		char *line = xstrndup(p, nl - p);

		if (strstr(line, "\tfailed\t") || strstr(line, "\tmissing\t")) {
			fprintf(f, ",\n  {\"ph\": \"i\", \"s\": \"g\", \"cat\": \"probecc\", \"name\": \"not armed\", \"ts\": 0, \"pid\": 1, \"tid\": 0, \"args\": {\"item\": ");
			json_string(f, line);
			fprintf(f, "}}");
		}
		free(line);
	}
	if (fr.out)
		fclose(fr.out);
	fprintf(f, "\n], \"stackFrames\": {%s\n}}\n", fr.buf ? fr.buf : "");
	free(fr.buf);
	strmap_free(&fr.ids);
	strmap_free(&named);
}
