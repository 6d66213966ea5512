// SPDX-License-Identifier: GPL-2.0
/*
 * --folded: folded stacks, the input of flamegraph.pl and speedscope:
 * "outermost;...;innermost;probe COUNT", one line per distinct stack,
 * sorted, with the number of hits that had it.
 *
 * A frame is named one way wherever it comes from: the function's name
 * alone, without the "+0xOFF" of a perf callchain or a sym-offset stack,
 * the "/0xSIZE" of a kernel stack, or the " [module]" tag, so that the
 * same caller seen by the kernel's stack trace and by the agent's perf
 * callchain merges into one frame.  flamegraph.pl splits frames at ';':
 * one in a name becomes ':'.  A uprobe hit's user frames, and a kprobe's
 * with "stack user", come first (outermost), below its kernel frames, as
 * perf script prints them; a
 * user stack whose unwind stopped or was not done starts with
 * "[incomplete]" (a kernel thread's hit, with no user context, has its
 * kernel frames alone); a user frame found by prologue analysis keeps its
 * " (heuristic)" after the name.
 */
#include <stdlib.h>
#include <string.h>

#include "report-int.h"

/* Append frame @s to @sb as its bare function name, then ';'. */
static void add_frame(struct strbuf *sb, const char *s)
{
	size_t n = strcspn(s, "+/ ");
	bool heur;

	if (!strncmp(s, USTACK_MARK "absent:", strlen(USTACK_MARK "absent:")))
		return;	/* no user context (a kernel thread): the kernel frames are the stack */
	if (!strncmp(s, USTACK_MARK, strlen(USTACK_MARK))) {
		sb_addf(sb, "[incomplete];");
		return;
	}
	heur = ustack_heuristic(s);
	for (; n && *s; s++, n--)
		sb_addf(sb, "%c", *s == ';' ? ':' : *s);
	sb_addf(sb, "%s;", heur ? USTACK_HEUR : "");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void folded_write(FILE *f, const struct report *r)
{
	const struct dump *d = &r->d;
	char **lines;
	int i, j, n;

	if (!d->nhits)
		return;
	lines = xcalloc(d->nhits, sizeof(*lines));
	for (i = 0; i < d->nhits; i++) {
		const struct hit *h = &d->hits[i];
		struct strbuf sb = { 0 };

		for (j = h->nuframes - 1; j >= 0; j--)
			add_frame(&sb, h->uframes[j]);
		for (j = h->nframes - 1; j >= 0; j--)
			add_frame(&sb, h->frames[j]);
		if (!h->nframes && h->parent)
			add_frame(&sb, h->parent);
		/* a function hit's stack starts at the function: not twice */
		if (!h->nframes || !h->parent || strncmp(h->frames[0], h->probe, strlen(h->probe)) ||
		    (h->frames[0][strlen(h->probe)] && h->frames[0][strlen(h->probe)] != '+'))
			add_frame(&sb, h->probe);
		sb.s[sb.len - 1] = '\0';	/* the last ';' */
		lines[i] = sb.s;
	}
	qsort(lines, d->nhits, sizeof(*lines), cmp_str);
	for (i = 0; i < d->nhits; i = j) {
		for (j = i + 1, n = 1; j < d->nhits && !strcmp(lines[i], lines[j]); j++)
			n++;
		fprintf(f, "%s %d\n", lines[i], n);
	}
	for (i = 0; i < d->nhits; i++)
		free(lines[i]);
	free(lines);
}
