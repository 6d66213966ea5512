// SPDX-License-Identifier: GPL-2.0
/*
 * Diagnostics: FILE:LINE:COL with the line and a caret, one at a time or
 * collected in a list and printed in source order; errmsg_set(), the
 * error of a library call.  fatal() and its kin are die.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

int diag_limit = 20;

/* A few bytes at a time to @f: stderr is unbuffered, a write per byte. */
struct linebuf {
	char b[256];
	size_t n;
	FILE *f;
};

static void lb_put(struct linebuf *lb, char c)
{
	if (lb->n == sizeof(lb->b)) {
		fwrite(lb->b, 1, lb->n, lb->f);
		lb->n = 0;
	}
	lb->b[lb->n++] = c;
}

static void lb_flush(struct linebuf *lb)
{
	fwrite(lb->b, 1, lb->n, lb->f);
	lb->n = 0;
}

/* Print the source line holding @p and a caret under its column. */
static void show_line(const struct pos *p)
{
	const char *start = p->loc, *end = p->loc;
	const char *text = p->src->text;
	struct linebuf lb = { .f = stderr };
	int i;

	while (start > text && start[-1] != '\n')
		start--;
	while (*end && *end != '\n')
		end++;
	if (end > start && end[-1] == '\r' && *end == '\n')
		end--;		/* CRLF: the CR is part of the line end */
	/* control bytes as '?': no terminal escapes, the caret stays aligned */
	for (i = 0; i < (int)(end - start); i++) {
		unsigned char c = start[i];

		lb_put(&lb, (c < 0x20 && c != '\t') || c == 0x7f ? '?' : c);
	}
	lb_put(&lb, '\n');
	for (i = 0; i < (int)(p->loc - start); i++)
		lb_put(&lb, start[i] == '\t' ? '\t' : ' ');
	lb_put(&lb, '^');
	lb_put(&lb, '\n');
	lb_flush(&lb);
}

static void vdiag_at(const struct pos *p, const char *kind, const char *fmt,
		     va_list ap)
{
	fprintf(stderr, "%s:%d:%d: %s: ", p->src->name, p->line, p->col, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	show_line(p);
}

void diag_at(const struct pos *p, const char *kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(p, kind, fmt, ap);
	va_end(ap);
}

static int cmp_diag(const void *a, const void *b)
{
	const struct diag *x = a, *y = b;

	if (!x->pos.src != !y->pos.src)
		return x->pos.src ? 1 : -1;
	if (x->pos.src && x->pos.line != y->pos.line)
		return x->pos.line < y->pos.line ? -1 : 1;
	if (x->pos.src && x->pos.col != y->pos.col)
		return x->pos.col < y->pos.col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Where the next diagnostic goes: a new slot while fewer than diag_limit
 * are kept; then the slot of the last one in source order, if @p comes
 * before it; else NULL (counted, not kept).  The slot's message is the
 * caller's to set.
 */
static struct diag *diag_slot(struct diags *d, const struct pos *p)
{
	struct diag g = { .seq = d->n++ }, *slot;
	int i;

	if (p)
		g.pos = *p;
	if (!diag_limit || d->nv < diag_limit) {
		ALLOC_GROW(d->v, d->nv + 1, d->cap);
		slot = &d->v[d->nv++];
		*slot = g;
		d->last = -1;	/* zero-initialised lists start with 0 */
		return slot;
	}
	/* full: d->last is found once, again only when it is replaced */
	if (d->last < 0)
		for (d->last = 0, i = 1; i < d->nv; i++)
			if (cmp_diag(&d->v[i], &d->v[d->last]) > 0)
				d->last = i;
	slot = &d->v[d->last];
	if (cmp_diag(&g, slot) > 0)
		return NULL;
	free(slot->msg);
	*slot = g;
	d->last = -1;
	return slot;
}

void diag_vadd(struct diags *d, const struct pos *p, const char *fmt,
	       va_list ap)
{
	struct diag *g = diag_slot(d, p);
	va_list aq;
	int n;

	if (!g)
		return;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	g->msg = xmalloc(n + 1);
	vsnprintf(g->msg, n + 1, fmt, ap);
}

void diag_add(struct diags *d, const struct pos *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, p, fmt, ap);
	va_end(ap);
}

void diag_free(struct diags *d)
{
	int i;

	for (i = 0; i < d->nv; i++)
		free(d->v[i].msg);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

int diag_print_as(struct diags *d, const char *kind)
{
	int i;

	if (d->nv)
		qsort(d->v, d->nv, sizeof(*d->v), cmp_diag);
	d->last = -1;
	for (i = 0; i < d->nv; i++) {
		if (d->v[i].pos.src)
			diag_at(&d->v[i].pos, kind, "%s", d->v[i].msg);
		else
			fprintf(stderr, "probecc: %s: %s\n", kind, d->v[i].msg);
	}
	if (d->n > d->nv)
		fprintf(stderr, "probecc: note: %d more %s%s not shown (the first %d in source order are)\n",
			d->n - d->nv, kind, d->n - d->nv == 1 ? "" : "s", d->nv);
	return d->n;
}

int diag_print(struct diags *d)
{
	return diag_print_as(d, "error");
}

int errmsg_set(struct errmsg *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (e) {
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}
