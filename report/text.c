// SPDX-License-Identifier: GPL-2.0
/*
 * The report for a person: the dump's kernel and timing, what was not
 * armed, the ring buffer's counts, per probe its hits, arguments and the
 * callers merged into a tree, then the expectations' verdicts.
 */
#include <string.h>

#include "report-int.h"

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

/* The item lines that failed or are missing. */
static void not_armed(FILE *out, const struct dump *d)
{
	const char *p;

	fprintf(out, "not armed:\n");
	for (p = d->items.s; *p; p = strchr(p, '\n') + 1) {
		const char *nl = strchr(p, '\n'), *f = strstr(p, "\tfailed\t");
		const char *m = strstr(p, "\tmissing\t");

		if ((f && f < nl) || (m && m < nl))
			fprintf(out, "  %.*s\n", (int)(nl - p), p);
	}
}

static void probe_hits(FILE *out, const struct report *r, const char *name)
{
	const struct dump *d = &r->d;
	struct node root = { 0 };
	int j, n = 0, before = 0;
	double first = -1;

	for (j = 0; j < d->nhits; j++) {
		const struct hit *h = &d->hits[j];

		if (strcmp(h->probe, name))
			continue;
		n++;
		if (first < 0)
			first = h->ts;
		if (d->init_time >= 0 && h->ts < d->init_time)
			before++;
		if (h->nframes)
			tree_add(&root, h->frames, h->nframes);
		else if (h->parent)
			tree_add(&root, &h->parent, 1);
	}
	fprintf(out, "  %-24s %5d hit(s), first at %.6f s, %d before userspace\n",
		name, n, first, before);
	for (j = 0; j < d->nhits && n <= 8; j++)
		if (!strcmp(d->hits[j].probe, name) && d->hits[j].args[0])
			fprintf(out, "      %.6f %s: %s\n", d->hits[j].ts, d->hits[j].task,
				d->hits[j].args);
	if (root.child) {
		fprintf(out, "    callers (innermost first, with counts):\n");
		tree_print(out, root.child, 0);
	}
}

/* text_write() - everything but the closing count (text_summary()). */
void text_write(FILE *out, const struct report *r)
{
	const struct dump *d = &r->d;
	const struct expectation *e;
	int i;

	fprintf(out, "probecc report: %s: %d dump(s), kernel %s\n", r->dumppath,
		d->ndumps, d->uname ? d->uname : "?");
	if (d->ncut)
		fprintf(out, "cut short: %d dump(s) begun with no end line (the capture stopped mid-dump)%s\n",
			d->ncut, d->ndumps ? "; the report reads the last complete one" : "");
	if (!dump_evidence(d))
		fprintf(out, "no complete dump in %s: nothing to check the expectations against\n",
			r->dumppath);
	if (d->init_time >= 0)
		fprintf(out, "userspace started at %.3f s\n", d->init_time);
	if (d->items.s)
		not_armed(out, d);
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
		fprintf(out, "ring buffer:\n%s", d->cpus.s);
	if (d->nsamples)
		fprintf(out, "perf callchains: %d sample(s), %d joined to trace hits%s\n",
			d->nsamples, d->nsamples - d->unmatched,
			!r->k ? " (no kernel symbols: --target, --vmlinux or --system-map names them)" :
			r->kaslr ? " (kernel text relocated this boot: symbols shifted by _stext)" : "");
	fprintf(out, "hits:\n");
	for (i = 0; i < r->nnames; i++)
		probe_hits(out, r, r->names[i]);

	if (r->prog && r->prog->expects)
		fprintf(out, "expectations:\n");
	for (i = 0, e = r->prog ? r->prog->expects : NULL; e; e = e->next, i++)
		fprintf(out, "  %s  %s  (%s)\n", r->verdicts[i].ok ? "PASS" : "FAIL",
			e->text, r->verdicts[i].why);
}

void text_summary(FILE *out, const struct report *r)
{
	if (r->nexp)
		fprintf(out, "%d of %d expectation(s) hold\n", r->nexp - r->failed, r->nexp);
}
