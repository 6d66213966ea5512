// SPDX-License-Identifier: GPL-2.0
/*
 * Expectations: one verdict per "expect" line of the probe file
 * (docs/language.md), checked against the dump, with a one-line reason.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"

/* The value of FIELD in a hit's args ("name=\"bond%d\" ret=-2"), or NULL. */
static char *arg_value(const char *args, const char *field)
{
	size_t n = strlen(field);
	const char *p = args;

	while ((p = strstr(p, field))) {
		if ((p == args || p[-1] == ' ') && p[n] == '=') {
			const char *v = p + n + 1, *e;

			if (*v == '"') {
				e = strchr(v + 1, '"');
				e = e ? e + 1 : v + strlen(v);
			} else {
				e = v + strcspn(v, " ");
			}
			return xstrndup(v, e - v);
		}
		p += n;
	}
	return NULL;
}

/* A static event's hit is named by its EVENT; a target may be GROUP:EVENT. */
static bool hit_is(const struct hit *h, const char *target)
{
	const char *colon = strchr(target, ':');

	return !strcmp(h->probe, colon ? colon + 1 : target);
}

/* @func is in the hit's stack, or is the caller the function tracer saw. */
static bool has_frame(const struct hit *h, const char *func)
{
	size_t n = strlen(func);
	int i;

	if (h->parent && !strcmp(h->parent, func))
		return true;
	for (i = 0; i < h->nframes; i++)
		if (!strncmp(h->frames[i], func, n) &&
		    (!h->frames[i][n] || strchr(" +[", h->frames[i][n])))
			return true;
	return false;
}

/*
 * kprobe_count() - the "kprobe-profile" entry of @target (a probe name,
 * or GROUP:EVENT), or NULL: the kernel's own count of a kprobe event's
 * hits, given with the MIPS kprobe single-step oops (docs/plan.md
 * "kprobe-oops"), which the trace no longer holds after the oops.
 */
const struct kcount *kprobe_count(const struct dump *d, const char *target)
{
	const char *colon = strchr(target, ':');
	int i;

	for (i = 0; i < d->nkcounts; i++)
		if (!strcmp(d->kcounts[i].probe, colon ? colon + 1 : target))
			return &d->kcounts[i];
	return NULL;
}

/*
 * oops_reason() - "the kernel's kprobe single-step oops at T s (epc X,
 * TASK): ..." into @buf when the dump has one; returns its length, 0
 * when there is none.
 */
int oops_reason(const struct dump *d, char *buf, size_t size)
{
	int n;

	if (!d->noops) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	n = snprintf(buf, size, "the kernel's kprobe single-step oops at %.6f s (epc %s, %s) stopped the trace",
		     d->oops_time, d->oops_epc, d->oops_task);
	return n < 0 ? 0 : n;
}

/* Append "; REASON" of the oops to @why (of @size bytes) when there is one. */
static void add_oops_reason(const struct dump *d, char *why, size_t size)
{
	size_t n = strlen(why);
	char reason[256];

	if (oops_reason(d, reason, sizeof(reason)) && n + 2 < size)
		snprintf(why + n, size - n, "; %s", reason);
}

static bool expect_armed(const struct dump *d, char *why, size_t size)
{
	const char *p = d->items.s ? d->items.s : "";
	int bad = 0;

	for (; *p; p = strchr(p, '\n') + 1) {
		const char *st = strchr(p, '\t');

		if (st && (!strncmp(st + 1, "failed\t", 7) || !strncmp(st + 1, "missing\t", 8)))
			bad++;
	}
	snprintf(why, size, "%d item(s) failed or missing", bad);
	/* the oops killed a task in a kprobe; the kprobes are broken */
	add_oops_reason(d, why, size);
	return bad == 0 && !d->noops;
}

/*
 * The per-CPU counts are the kernel's unsigned longs: summed unsigned,
 * saturating, so that no sum wraps to 0 (issue 18).
 */
static unsigned long long add_sat(unsigned long long a, unsigned long long b)
{
	return a > ULLONG_MAX - b ? ULLONG_MAX : a + b;
}

static bool expect_no_lost(const struct dump *d, char *why, size_t size)
{
	const char *p = d->cpus.s ? d->cpus.s : "";
	unsigned long long lost = 0;

	for (; *p; p = strchr(p, '\n') + 1) {
		const char *o = strstr(p, "overrun\t"), *dr = strstr(p, "dropped\t");

		if (o)
			lost = add_sat(lost, strtoull(o + 8, NULL, 10));
		if (dr)
			lost = add_sat(lost, strtoull(dr + 8, NULL, 10));
	}
	if (lost == ULLONG_MAX)
		snprintf(why, size, "%llu or more event(s) overrun or dropped", lost);
	else
		snprintf(why, size, "%llu event(s) overrun or dropped", lost);
	return lost == 0;
}

/*
 * A hits expectation after the oops: oops_enter() turns tracing off
 * (kernel/panic.c), so no probe's hits after it are in the trace.  Only a
 * lower bound already met holds; a count before userspace is whole when
 * the oops came after userspace started.  A kprobe event's count as the
 * kernel kept it (kprobe_profile) is given beside.
 */
static bool hits_after_oops(const struct expectation *e, const struct dump *d,
			    long long count, bool ok, char *why, size_t size)
{
	const struct kcount *x = kprobe_count(d, e->target);
	char reason[256], kept[64] = "";

	if (!d->noops ||
	    (e->when == W_BEFORE_INIT && d->init_time >= 0 && d->oops_time >= d->init_time))
		return ok;
	oops_reason(d, reason, sizeof(reason));
	if (x)
		snprintf(kept, sizeof(kept), "; the kernel counted %llu", x->hits);
	if (!strcmp(e->op, ">=") && ok) {
		snprintf(why, size, "%lld hit(s), enough before %s", count, reason);
		return true;
	}
	snprintf(why, size, "%lld hit(s) before %s%s", count, reason, kept);
	return false;
}

static bool expect_hits(const struct expectation *e, const struct dump *d,
			char *why, size_t size)
{
	long long count = 0;
	bool ok;
	int i;

	for (i = 0; i < d->nhits; i++) {
		const struct hit *h = &d->hits[i];

		if (!hit_is(h, e->target))
			continue;
		if (e->when != W_ANY && d->init_time < 0)
			continue;
		if (e->when == W_BEFORE_INIT && h->ts >= d->init_time)
			continue;
		if (e->when == W_AFTER_INIT && h->ts < d->init_time)
			continue;
		count++;
	}
	snprintf(why, size, "%lld hit(s)", count);
	if (!strcmp(e->op, ">="))
		ok = count >= e->n;
	else if (!strcmp(e->op, "<="))
		ok = count <= e->n;
	else
		ok = count == e->n;
	return hits_after_oops(e, d, count, ok, why, size);
}

static bool expect_stack(const struct expectation *e, const struct dump *d,
			 char *why, size_t size)
{
	long long count = 0;
	int i;

	for (i = 0; i < d->nhits; i++)
		if (hit_is(&d->hits[i], e->target) &&
		    (d->hits[i].stack || d->hits[i].parent)) {
			count++;
			if (has_frame(&d->hits[i], e->func)) {
				snprintf(why, size, "in the stack of a hit at %.6f s",
					 d->hits[i].ts);
				return true;
			}
		}
	snprintf(why, size, "not in the stacks of %lld hit(s)", count);
	add_oops_reason(d, why, size);
	return false;
}

static bool expect_field(const struct expectation *e, const struct dump *d,
			 char *why, size_t size)
{
	long long count = 0;
	int i;

	for (i = 0; i < d->nhits; i++) {
		char *v;

		if (!hit_is(&d->hits[i], e->target))
			continue;
		count++;
		v = arg_value(d->hits[i].args, e->field);
		if (v && !strcmp(v, e->value)) {
			snprintf(why, size, "at %.6f s", d->hits[i].ts);
			free(v);
			return true;
		}
		free(v);
	}
	snprintf(why, size, "no hit of %lld took that value", count);
	add_oops_reason(d, why, size);
	return false;
}

/* Evaluate @e; a one-line reason goes to @why. */
static bool evaluate(const struct expectation *e, const struct dump *d,
		     char *why, size_t size)
{
	switch (e->kind) {
	case E_ARMED:
		return expect_armed(d, why, size);
	case E_NOLOST:
		return expect_no_lost(d, why, size);
	case E_HITS:
		return expect_hits(e, d, why, size);
	case E_STACK:
		return expect_stack(e, d, why, size);
	case E_FIELD:
		return expect_field(e, d, why, size);
	}
	return false;
}

/*
 * expect_all() - r->verdicts, r->nexp and r->failed from r->prog's
 * expectations; all fail when the capture holds no complete dump.
 */
void expect_all(struct report *r)
{
	const struct expectation *e;
	int i;

	r->nexp = 0;
	for (e = r->prog ? r->prog->expects : NULL; e; e = e->next)
		r->nexp++;
	r->verdicts = xcalloc(r->nexp + 1, sizeof(*r->verdicts));
	for (i = 0, e = r->prog ? r->prog->expects : NULL; e; e = e->next, i++) {
		struct verdict *v = &r->verdicts[i];

		if (dump_evidence(&r->d))
			v->ok = evaluate(e, &r->d, v->why, sizeof(v->why));
		else	/* never a PASS without evidence (issue 18) */
			snprintf(v->why, sizeof(v->why), "no complete dump to check it against");
		r->failed += !v->ok;
	}
}
