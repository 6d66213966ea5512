// SPDX-License-Identifier: GPL-2.0
/*
 * Boots against a baseline: probecc report DUMP... --baseline BASE...
 *
 * Each boot (one capture, read as any report reads it) gives metrics:
 *
 *   hits P          how many hits probe or event P had (count)
 *   first P         its first hit, seconds since boot (time)
 *   phase kernel    when userspace started: boot -> /init (time)
 *   phase userspace /init's start to the last dump (time)
 *   initcall F      initcall F's duration (time; "initcall MOD:init_module"
 *                   for a module's init its .ko did not name)
 *   level L         the time spent in level L's initcalls (time)
 *   oops            kprobe single-step oopses (count)
 *   not armed       plan items failed or missing (count)
 *   values P.F      the values field F of probe P took (set)
 *   callers P       the stacks of P's hits, innermost four functions (set)
 *
 * A count or time is compared by its median over the current boots
 * against the baseline's median and spread (min..max).  It changed when
 * it lies outside the baseline's spread; a change is a regression when
 * it also passes the class's threshold: a count by at least N (default
 * 1: counts repeat exactly in clean boots), a time later by both an
 * absolute and a relative amount (only later: an earlier time or a
 * shorter initcall is a change, never a regression).  A set's member is
 * new when no baseline boot had it, gone when every baseline boot had it
 * and no current boot does: both are regressions.  A metric only one
 * side has is new or gone (an initcall that no longer runs).
 *
 * Boots are comparable when their kernel release, machine and command
 * line are the same, the command line without rd_start= and rd_size=
 * (where the boot loader put the initrd, which changes with its size).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"
#include "strmap.h"

enum mkind { M_COUNT, M_TIME, M_SET };

/* One metric of one side: a value per boot, or a set's members with the boots that had each. */
struct series {
	char *key;
	enum mkind kind;
	double *v;		/* per boot, -1: the boot has no value */
	int nv;
	struct strmap members;	/* M_SET: member -> (intptr_t)boots that had it */
	struct strmap seen;	/* M_SET: "BOOT<TAB>member" already counted */
	char **mnames;
	int nm, capm;
};

struct side {
	struct strmap map;	/* key -> struct series * */
	struct series **s;
	int n, cap;
	int boots;
};

/* One compared metric: what the text, JSON and JUnit print. */
struct change {
	char *key;
	enum mkind kind;
	double cur[3], base[3];	/* median, min, max; -1: none */
	bool beyond;		/* outside the baseline's spread */
	bool regression;
	char what[400];		/* the change in words */
};

/* A class's threshold: counts by abs, times later by abs s and rel. */
struct threshold {
	const char *cls;
	double abs, rel;
};

struct compare {
	int ncur, nbase;
	bool comparable, forced;
	char why[600];		/* not comparable: which fact differs */
	struct side cur, base;
	struct change *ch;
	int nch, capch, nbeyond, nreg;
	struct threshold th[8];
	int nth;
	double *speed;		/* per boot, current then baseline: 1 the baseline's median */
	int *nspeed;		/* per boot, the initcalls its speed is the median of */
	struct side rcur, rbase;	/* the same metrics, times not divided by the speed */
};

/*
 * The default thresholds, from clean Malta boots under TCG on the shared
 * 2-core host (docs/baselines.md; bench/README.md, "Baselines: false positives, spread and cost": 15 clean boots, three 5-against-5
 * comparisons): counts repeat exactly; first hits and phases move by
 * seconds with the host's load; any initcall stalls by up to ~1.8 s in a
 * single boot now and then, which the median of 5 boots hides: at 100 ms
 * the three 5-against-5 comparisons had no false regression, while 11 of
 * 14 one-against-one comparisons had some.  A time is a regression when
 * its median is later than the baseline's slowest by the absolute amount
 * and than its median by the relative one.
 */
static const struct threshold defaults[] = {
	{ "hits", 1, 0 },
	{ "oops", 1, 0 },
	{ "not armed", 1, 0 },
	{ "first", 2.0, 1.0 },
	{ "phase", 2.0, 1.0 },
	{ "initcall", 0.1, 1.0 },
	{ "level", 1.0, 1.0 },
};

static struct compare *compare_new(void)
{
	struct compare *c = xcalloc(1, sizeof(*c));

	memcpy(c->th, defaults, sizeof(defaults));
	c->nth = sizeof(defaults) / sizeof(defaults[0]);
	return c;
}

/* The class of @key: its first word ("initcall bonding_init" -> "initcall"). */
static const struct threshold *threshold_of(const struct compare *c, const char *key)
{
	int i;

	for (i = 0; i < c->nth; i++)
		if (!strncmp(key, c->th[i].cls, strlen(c->th[i].cls)) &&
		    key[strlen(c->th[i].cls)] == ' ')
			return &c->th[i];
	return NULL;
}

/*
 * compare_threshold() - "CLASS=VALUE[%]": a count's class takes a whole
 * number, a time's a duration with s or ms (the absolute amount) or a
 * percentage (the relative one).  0, or -EINVAL for anything else.
 */
int compare_threshold(struct compare **cp, const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct threshold *t = NULL;
	double v;
	char *end;
	int i;

	if (!*cp)
		*cp = compare_new();
	if (!eq)
		return -EINVAL;
	for (i = 0; i < (*cp)->nth; i++)
		if (strlen((*cp)->th[i].cls) == (size_t)(eq - spec) &&
		    !strncmp((*cp)->th[i].cls, spec, eq - spec))
			t = &(*cp)->th[i];
	if (!t || eq[1] < '0' || eq[1] > '9')
		return -EINVAL;
	v = strtod(eq + 1, &end);
	if (!isfinite(v) || v < 0)
		return -EINVAL;
	if (!strcmp(end, "%") && t->rel) {
		t->rel = v / 100;
		return 0;
	}
	if (t->rel && !strcmp(end, "ms"))
		v /= 1000;
	else if (t->rel ? strcmp(end, "s") : *end || v != floor(v) || v < 1)
		return -EINVAL;
	t->abs = v;
	return 0;
}

static struct series *series_of(struct side *sd, const char *key, enum mkind kind)
{
	struct series *s = strmap_get(&sd->map, key, strlen(key));

	if (s)
		return s;
	s = xcalloc(1, sizeof(*s));
	s->key = xstrdup(key);
	s->kind = kind;
	if (strmap_put(&sd->map, s->key, strlen(s->key), s))
		fatal("out of memory");
	if (sd->n == sd->cap) {
		sd->cap = sd->cap ? sd->cap * 2 : 64;
		sd->s = xrealloc_array(sd->s, sd->cap, sizeof(*sd->s));
	}
	sd->s[sd->n++] = s;
	return s;
}

/* Boot @boot's value of @key (a later value of the same boot replaces it). */
static void put(struct side *sd, int boot, const char *key, enum mkind kind, double v)
{
	struct series *s = series_of(sd, key, kind);

	if (s->nv <= boot) {
		s->v = xrealloc_array(s->v, sd->boots, sizeof(*s->v));
		while (s->nv < sd->boots)
			s->v[s->nv++] = -1;
	}
	if (kind == M_COUNT && s->v[boot] >= 0)
		s->v[boot] += v;
	else
		s->v[boot] = v;
}

/* Boot @boot had @member in set @key (counted once per boot). */
static void put_member(struct side *sd, int boot, const char *key, const char *member)
{
	struct series *s = series_of(sd, key, M_SET);
	char *k = xasprintf("%d\t%s", boot, member);	/* the map keeps its keys */
	intptr_t n;

	if (strmap_get(&s->seen, k, strlen(k))) {
		free(k);
		return;
	}
	if (strmap_put(&s->seen, k, strlen(k), (void *)1))
		fatal("out of memory");
	n = (intptr_t)strmap_get(&s->members, member, strlen(member));
	if (!n) {	/* a new key: stored, since the map keeps the pointer */
		if (s->nm == s->capm) {
			s->capm = s->capm ? s->capm * 2 : 8;
			s->mnames = xrealloc_array(s->mnames, s->capm, sizeof(*s->mnames));
		}
		member = s->mnames[s->nm++] = xstrdup(member);
	}
	/* an existing key keeps its stored pointer (common/strmap.c) */
	if (strmap_put(&s->members, member, strlen(member), (void *)(n + 1)))
		fatal("out of memory");
}

/* How many boots had @member of set @s. */
static int member_boots(const struct series *s, const char *member)
{
	return s ? (int)(intptr_t)strmap_get(&s->members, member, strlen(member)) : 0;
}

/*
 * "bond_create+0x9c [bonding]" -> "bond_create [bonding]": offsets move
 * with a build; an address no symbol named is "?".
 */
static void add_frame(struct strbuf *sb, const char *frame)
{
	size_t n = strcspn(frame, "+ ");
	const char *mod = strchr(frame, '[');

	if (!strncmp(frame, "0x", 2)) {	/* unnamed: the address moves with KASLR */
		sb_addf(sb, "%s?", sb->len ? " <- " : "");
		return;
	}

	sb_addf(sb, "%s%.*s", sb->len ? " <- " : "", (int)n, frame);
	if (mod && mod > frame + n)
		sb_addf(sb, " %s", mod);
}

struct speed_ctx;
static double initcall_speed(const struct speed_ctx *ctx, int boot, const char *key);

/* The hits of one probe name: their indexes in the dump's hits, in order. */
struct hits_of {
	const char *name;
	int *idx;
	int n, cap;
};

/* @name's entry of @all through @map (which holds 1-based indexes), or NULL. */
static struct hits_of *hits_of(const struct strmap *map, struct hits_of *all, const char *name)
{
	intptr_t k = (intptr_t)strmap_get(map, name, strlen(name));

	return k ? &all[k - 1] : NULL;
}

/*
 * The metrics of boot @boot, report @r, into @sd; its times divided by
 * @scale (the boot's speed against the baseline's, median_without()),
 * each initcall's by the speed the other initcalls give (@ctx; NULL:
 * @scale too).
 */
static void boot_metrics(struct side *sd, int boot, const struct report *r, double scale,
			 const struct speed_ctx *ctx)
{
	const struct dump *d = &r->d;
	const struct probe *p;
	struct strmap by_name = { 0 };
	struct hits_of *all = NULL, *ho;
	char key[512];
	const char *s;
	int i, j, items = 0, nall = 0, capall = 0;

	/*
	 * Each name's hits, in order, from one pass: looking for each name
	 * in every hit was names x hits string compares (a function trace
	 * of 90,000 hits over 700 functions: 63 million per boot).
	 */
	for (j = 0; j < d->nhits; j++) {
		const char *name = d->hits[j].probe;

		if (!(ho = hits_of(&by_name, all, name))) {
			ALLOC_GROW(all, nall + 1, capall);
			ho = &all[nall++];
			*ho = (struct hits_of){ .name = name };
		}
		ALLOC_GROW(ho->idx, ho->n + 1, ho->cap);
		ho->idx[ho->n++] = j;
		/* the map holds indexes: @all moves as it grows */
		if (ho->n == 1)
			xstrmap_put(&by_name, name, strlen(name), (void *)(intptr_t)nall);
	}
	for (i = 0; i < r->nnames; i++) {
		double first = -1;

		ho = hits_of(&by_name, all, r->names[i]);
		for (j = 0; ho && j < ho->n; j++)
			if (first < 0 || d->hits[ho->idx[j]].ts < first)
				first = d->hits[ho->idx[j]].ts;
		snprintf(key, sizeof(key), "hits %s", r->names[i]);
		put(sd, boot, key, M_COUNT, 0);
		if (ho)
			put(sd, boot, key, M_COUNT, ho->n);
		snprintf(key, sizeof(key), "first %s", r->names[i]);
		put(sd, boot, key, M_TIME, first < 0 ? first : first / scale);
	}
	/* what the probe file traces counts 0 when it had no hit */
	for (p = r->prog ? r->prog->probes : NULL; p; p = p->next) {
		snprintf(key, sizeof(key), "hits %s", p->name);
		put(sd, boot, key, M_COUNT, 0);
		ho = hits_of(&by_name, all, p->name);
		for (i = 0; ho && i < ho->n; i++) {
			const struct field *f;

			for (f = p->fields; f; f = f->next) {
				char *v = arg_value(d->hits[ho->idx[i]].args, f->name);

				snprintf(key, sizeof(key), "values %s.%s", p->name, f->name);
				if (v)
					put_member(sd, boot, key, v);
				free(v);
			}
		}
	}
	for (i = 0; i < nall; i++)
		free(all[i].idx);
	free(all);
	strmap_free(&by_name);
	for (i = 0; i < d->nhits; i++) {
		const struct hit *h = &d->hits[i];
		struct strbuf sb = { 0 };

		if (!h->nframes && !h->parent)
			continue;
		for (j = 0; j < h->nframes && j < 4; j++)
			add_frame(&sb, h->frames[j]);
		if (!h->nframes)
			add_frame(&sb, h->parent);
		snprintf(key, sizeof(key), "callers %s", h->probe);
		put_member(sd, boot, key, sb.s);
		free(sb.s);
	}
	if (d->init_time >= 0)
		put(sd, boot, "phase kernel", M_TIME, d->init_time / scale);
	if (d->timebase && d->init_time >= 0 && d->last_time >= d->init_time)
		put(sd, boot, "phase userspace", M_TIME, (d->last_time - d->init_time) / scale);
	for (i = 0; i < r->nics; i++) {
		const struct initcall *ic = &r->ics[i];

		if (ic->end < 0)
			continue;
		if (ic->module && !strcmp(ic->func, "init_module"))
			snprintf(key, sizeof(key), "initcall %s:init_module", ic->module);
		else
			snprintf(key, sizeof(key), "initcall %s", ic->func);
		put(sd, boot, key, M_TIME, (ic->end - ic->start) /
		    (ctx ? initcall_speed(ctx, boot, key) : scale));
	}
	for (i = 0; i < r->nlevels; i++) {
		snprintf(key, sizeof(key), "level %s", r->levels[i].name);
		put(sd, boot, key, M_TIME, r->levels[i].sum / scale);
	}
	put(sd, boot, "oops", M_COUNT, d->noops);
	for (s = d->items.s; s && *s; s = strchr(s, '\n') + 1)
		items += !!strstr(s, "\tfailed\t") + !!strstr(s, "\tmissing\t");
	put(sd, boot, "not armed", M_COUNT, items);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median, min, max of @s's values of @boots boots; a count missing is 0, a time missing is left out. */
static bool stats(const struct series *s, int boots, double out[3])
{
	double *v = xcalloc(boots + 1, sizeof(*v));
	int i, n = 0;

	for (i = 0; s && i < boots; i++) {
		double x = i < s->nv ? s->v[i] : -1;

		if (x >= 0)
			v[n++] = x;
		else if (s->kind == M_COUNT)
			v[n++] = 0;
	}
	if (!s || !n) {
		if (s && s->kind == M_COUNT)
			n = 0;
		out[0] = out[1] = out[2] = -1;
		free(v);
		if (!s || s->kind != M_COUNT)
			return false;
		out[0] = out[1] = out[2] = 0;
		return true;
	}
	qsort(v, n, sizeof(*v), cmp_double);
	out[0] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	out[1] = v[0];
	out[2] = v[n - 1];
	free(v);
	return true;
}

/*
 * How fast boot @boot of side @sd ran against @ref, per initcall: the
 * ratio of its duration to @ref's median of it, for every initcall both
 * have, sorted (malloc'd, *@n of them).
 */
static double *boot_ratios(const struct side *sd, int boot, const struct side *ref, int *n)
{
	double *ratio = xcalloc(ref->n + 1, sizeof(*ratio)), out[3];
	int i;

	*n = 0;
	for (i = 0; i < ref->n; i++) {
		const struct series *rs = ref->s[i];
		const struct series *bs;
		double x;

		if (strncmp(rs->key, "initcall ", 9) ||
		    !(bs = strmap_get(&sd->map, rs->key, strlen(rs->key))) ||
		    boot >= bs->nv || !((x = bs->v[boot]) > 0) || !isfinite(x) ||
		    !stats(rs, ref->boots, out) || !(out[0] > 0))
			continue;
		ratio[(*n)++] = x / out[0];
	}
	qsort(ratio, *n, sizeof(*ratio), cmp_double);
	return ratio;
}

/*
 * A boot's speed is the median of at least this many initcalls' ratios:
 * one slowed initcall (the one judged, or the one the phases hold) can
 * then never be the median alone.  With fewer, times are as measured.
 */
#define SPEED_MIN	3

/*
 * The median of the sorted @r[0..n) with one element equal to @x left
 * out (none when @leave is false or no element is @x); 1 when fewer than
 * SPEED_MIN are left, or it is not a positive finite number.
 */
static double median_without(const double *r, int n, bool leave, double x)
{
	int j = n, m, a, b;
	double speed;

	if (leave) {	/* the first not below @x: @r is sorted */
		int lo = 0, hi = n;

		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;

			if (r[mid] < x)
				lo = mid + 1;
			else
				hi = mid;
		}
		j = lo;
	}
	if (j < n && r[j] != x)
		j = n;
	m = n - (j < n);
	if (m < SPEED_MIN)
		return 1;
	a = (m - 1) / 2;	/* the middle ones of what is left */
	b = m / 2;
	a += a >= j;
	b += b >= j;
	speed = (r[a] + r[b]) / 2;
	return speed > 0 && isfinite(speed) ? speed : 1;
}

/*
 * The speed of a boot for one of its initcalls: the median of the OTHER
 * initcalls' ratios (boot_ratios()), so that an initcall that got slower
 * is not divided by its own slowdown; @ctx NULL: 1.
 */
struct speed_ctx {
	const struct side *raw, *ref;	/* the boot's times as measured, the reference */
	const double *ratio;
	int n;
};

static double initcall_speed(const struct speed_ctx *ctx, int boot, const char *key)
{
	const struct series *rs, *bs;
	double out[3], x;

	if (!ctx)
		return 1;
	if (!(rs = strmap_get(&ctx->ref->map, key, strlen(key))) ||
	    !(bs = strmap_get(&ctx->raw->map, key, strlen(key))) ||
	    boot >= bs->nv || !((x = bs->v[boot]) > 0) || !isfinite(x) ||
	    !stats(rs, ctx->ref->boots, out) || !(out[0] > 0))
		return median_without(ctx->ratio, ctx->n, false, 0);
	return median_without(ctx->ratio, ctx->n, true, x / out[0]);
}

static struct change *new_change(struct compare *c, const char *key, enum mkind kind)
{
	struct change *ch;

	if (c->nch == c->capch) {
		c->capch = c->capch ? c->capch * 2 : 64;
		c->ch = xrealloc_array(c->ch, c->capch, sizeof(*c->ch));
	}
	ch = &c->ch[c->nch++];
	memset(ch, 0, sizeof(*ch));
	ch->key = xstrdup(key);
	ch->kind = kind;
	ch->cur[0] = ch->cur[1] = ch->cur[2] = -1;
	ch->base[0] = ch->base[1] = ch->base[2] = -1;
	return ch;
}

static void compare_number(struct compare *c, const char *key, enum mkind kind)
{
	const struct series *cs = strmap_get(&c->cur.map, key, strlen(key));
	const struct series *bs = strmap_get(&c->base.map, key, strlen(key));
	const struct threshold *t = threshold_of(c, key);
	struct change *ch = new_change(c, key, kind);
	bool hc = stats(cs, c->ncur, ch->cur), hb = stats(bs, c->nbase, ch->base);
	const char *unit = kind == M_TIME ? " s" : "";
	double d;

	if (!hc && !hb)
		return;
	if (!hb || !hc) {	/* a time only one side has: the thing ran or stopped running */
		ch->beyond = true;
		ch->regression = true;
		snprintf(ch->what, sizeof(ch->what), "%s: %s", hb ? "gone" : "new",
			 hb ? "the baseline had it, no current boot does" :
			 "no baseline boot had it");
		return;
	}
	d = ch->cur[0] - ch->base[0];
	ch->beyond = ch->cur[0] < ch->base[1] || ch->cur[0] > ch->base[2];
	if (kind == M_COUNT) {
		double out = ch->cur[0] > ch->base[2] ? ch->cur[0] - ch->base[2] :
			     ch->base[1] - ch->cur[0];

		ch->regression = ch->beyond && t && out >= t->abs;
		snprintf(ch->what, sizeof(ch->what), "%g -> %g (%+g; baseline %g..%g%s)",
			 ch->base[0], ch->cur[0], d, ch->base[1], ch->base[2],
			 ch->base[0] == 0 && ch->cur[0] > 0 ? ": new" :
			 ch->cur[0] == 0 && ch->base[1] > 0 ? ": gone" : "");
		return;
	}
	ch->regression = ch->beyond && t && ch->cur[0] > ch->base[2] + t->abs &&
			 ch->cur[0] > ch->base[0] * (1 + t->rel);
	{
		double rc[3], rb[3];
		bool ms = !strncmp(key, "initcall ", 9) || !strncmp(key, "level ", 6);
		double k = ms ? 1e3 : 1;

		unit = ms ? " ms" : " s";
		stats(strmap_get(&c->rcur.map, key, strlen(key)), c->ncur, rc);
		stats(strmap_get(&c->rbase.map, key, strlen(key)), c->nbase, rb);
		snprintf(ch->what, sizeof(ch->what),
			 "%.3f -> %.3f%s (%+.3f%s; baseline %.3f..%.3f%s; as measured, not divided by the boot speed: %.3f -> %.3f%s)",
			 ch->base[0] * k, ch->cur[0] * k, unit, d * k, unit,
			 ch->base[1] * k, ch->base[2] * k, unit, rb[0] * k, rc[0] * k, unit);
	}
}

static void compare_set(struct compare *c, const char *key)
{
	const struct series *cs = strmap_get(&c->cur.map, key, strlen(key));
	const struct series *bs = strmap_get(&c->base.map, key, strlen(key));
	int i;

	for (i = 0; cs && i < cs->nm; i++)
		if (!member_boots(bs, cs->mnames[i])) {
			struct change *ch = new_change(c, key, M_SET);

			ch->beyond = ch->regression = true;
			snprintf(ch->what, sizeof(ch->what), "new: %s (%d of %d boot(s); no baseline boot)",
				 cs->mnames[i], member_boots(cs, cs->mnames[i]), c->ncur);
		}
	for (i = 0; bs && i < bs->nm; i++)
		if (member_boots(bs, bs->mnames[i]) == c->nbase &&
		    !member_boots(cs, bs->mnames[i])) {
			struct change *ch = new_change(c, key, M_SET);

			ch->beyond = ch->regression = true;
			snprintf(ch->what, sizeof(ch->what), "gone: %s (every baseline boot had it)",
				 bs->mnames[i]);
		}
}

/* The manifest's cmdline without where the initrd was put. */
static char *cmdline_of(const struct report *r)
{
	struct strbuf sb = { 0 };
	char *c = xstrdup(r->d.cmdline ? r->d.cmdline : ""), *w, *save = NULL;

	for (w = strtok_r(c, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (strncmp(w, "rd_start=", 9) && strncmp(w, "rd_size=", 8))
			sb_addf(&sb, "%s%s", sb.len ? " " : "", w);
	free(c);
	return sb.s ? sb.s : xstrdup("");
}

/* @a and @b booted the same kernel the same way; else the reason into @why. */
static bool same_boot(const struct report *a, const struct report *b, char *why, size_t size)
{
	const char *ua = a->d.uname ? a->d.uname : "-", *ub = b->d.uname ? b->d.uname : "-";
	char *ca, *cb;
	bool same;

	if (strcmp(ua, ub)) {
		snprintf(why, size, "kernel release and machine differ: %s has '%s', %s '%s'",
			 a->dumppath, ua, b->dumppath, ub);
		return false;
	}
	ca = cmdline_of(a);
	cb = cmdline_of(b);
	same = !strcmp(ca, cb);
	if (!same)
		snprintf(why, size, "command lines differ (rd_start=, rd_size= aside): %s has '%.200s', %s '%.200s'",
			 a->dumppath, ca, b->dumppath, cb);
	free(ca);
	free(cb);
	return same;
}

/*
 * compare_boots() - *@c: the current boots @cur (@ncur) against the
 * baseline @base (@nbase; 0: only the current boots' spread).  Not
 * comparable (kernel, machine or command line differ between any two
 * boots) stops unless @force.
 */
void compare_boots(struct compare **cp, struct report *const *cur, int ncur,
		   struct report *const *base, int nbase, bool force)
{
	struct compare *c;
	int i;

	if (!*cp)
		*cp = compare_new();
	c = *cp;
	c->ncur = ncur;
	c->nbase = nbase;
	c->comparable = true;
	c->forced = force;
	for (i = 1; i < ncur + nbase && c->comparable; i++)
		c->comparable = same_boot(cur[0], i < ncur ? cur[i] : base[i - ncur],
					  c->why, sizeof(c->why));
	if (!c->comparable && !force)
		return;
	c->cur.boots = ncur;
	c->base.boots = nbase;
	/*
	 * Each boot's speed: the median of its initcalls' durations, each
	 * against that initcall's median in the baseline (in the boots
	 * themselves without one).  Under TCG on a shared host a whole boot
	 * runs 2-3x slower at times (measured: docs/baselines.md; bench/README.md,
	 * "Baselines: false positives, spread and cost"); its times are divided
	 * by it, so that one initcall that got slower stands out of a boot that
	 * did.  A median of ratios, not a ratio of sums: one initcall slowed by
	 * a second, or one absurd time in the dump, does not move it; an
	 * initcall is divided by the median of the others' (leave-one-out),
	 * so its own slowdown never hides itself.  The phases, first hits and
	 * levels hold every initcall: their speed is the median of at least
	 * SPEED_MIN, so that no one initcall is it alone.  With fewer
	 * initcalls the speed is 1 (said in the text).
	 */
	c->rcur.boots = ncur;
	c->rbase.boots = nbase;
	for (i = 0; i < ncur; i++)
		boot_metrics(&c->rcur, i, cur[i], 1, NULL);
	for (i = 0; i < nbase; i++)
		boot_metrics(&c->rbase, i, base[i], 1, NULL);
	c->speed = xcalloc(ncur + nbase, sizeof(*c->speed));
	c->nspeed = xcalloc(ncur + nbase, sizeof(*c->nspeed));
	for (i = 0; i < ncur + nbase; i++) {
		struct speed_ctx ctx = {
			.raw = i < ncur ? &c->rcur : &c->rbase,
			.ref = nbase ? &c->rbase : &c->rcur,
		};
		int b = i < ncur ? i : i - ncur;
		double *ratio = boot_ratios(ctx.raw, b, ctx.ref, &ctx.n);

		ctx.ratio = ratio;
		c->speed[i] = median_without(ratio, ctx.n, false, 0);
		c->nspeed[i] = ctx.n;
		/* an initcall's own time by the others' speed: it is judged */
		boot_metrics(i < ncur ? &c->cur : &c->base, b, i < ncur ? cur[i] : base[b],
			     c->speed[i], &ctx);
		free(ratio);
	}
	/* every key of either side, the current boots' order first */
	for (i = 0; i < c->cur.n + c->base.n; i++) {
		const struct series *s = i < c->cur.n ? c->cur.s[i] : c->base.s[i - c->cur.n];

		if (i >= c->cur.n && strmap_get(&c->cur.map, s->key, strlen(s->key)))
			continue;
		if (s->kind == M_SET)
			compare_set(c, s->key);
		else if (nbase)
			compare_number(c, s->key, s->kind);
		else {	/* no baseline: the current boots' spread alone */
			struct change *ch = new_change(c, s->key, s->kind);

			stats(s, ncur, ch->cur);
		}
	}
	for (i = 0; i < c->nch; i++) {
		c->nbeyond += c->ch[i].beyond;
		c->nreg += c->ch[i].regression;
	}
}

bool compare_comparable(const struct compare *c, const char **why)
{
	*why = c->why;
	return c->comparable;
}

int compare_regressions(const struct compare *c)
{
	return c && c->nbase && (c->comparable || c->forced) ? c->nreg : 0;
}

/* The text report's part: the boots' spread, the changes against the baseline. */
void compare_text(FILE *f, const struct report *r)
{
	const struct compare *c = r->cmp;
	int i, shown = 0;

	if (!c)
		return;
	if (!c->comparable)
		fprintf(f, "not comparable%s: %s\n", c->forced ? " (compared anyway: --force)" : "",
			c->why);
	if (!c->comparable && !c->forced)
		return;
	if (!c->nbase) {
		fprintf(f, "%d boot(s): median (min..max) per metric:\n", c->ncur);
		for (i = 0; i < c->nch; i++) {
			const struct change *ch = &c->ch[i];

			if (ch->kind == M_SET || ch->cur[0] < 0)
				continue;
			/* initcalls: those above 10 ms, the rest is in the JSON */
			if (!strncmp(ch->key, "initcall ", 9) && ch->cur[0] < 0.01)
				continue;
			if (ch->kind == M_COUNT)
				fprintf(f, "  %-40s %g (%g..%g)\n", ch->key, ch->cur[0], ch->cur[1], ch->cur[2]);
			else
				fprintf(f, "  %-40s %.6f s (%.6f..%.6f)\n", ch->key, ch->cur[0],
					ch->cur[1], ch->cur[2]);
		}
		return;
	}
	fprintf(f, "baseline: %d boot(s) against %d: %d metric(s) compared, %d beyond the baseline's spread, %d regression(s)\n",
		c->ncur, c->nbase, c->nch, c->nbeyond, c->nreg);
	fprintf(f, "  boot speed (the median of the initcalls' durations against the baseline's; times are divided by it):");
	for (i = 0; i < c->ncur + c->nbase; i++)
		fprintf(f, "%s %.2f%s", i == c->ncur ? " | baseline" : "", c->speed[i],
			c->nspeed[i] < SPEED_MIN ? " (not estimated: fewer than 3 initcalls shared with the baseline)" : "");
	fprintf(f, "\n");
	for (i = 0; i < c->nch; i++) {
		const struct change *ch = &c->ch[i];

		if (!ch->beyond)
			continue;
		fprintf(f, "  %-10s  %s  %s\n", ch->regression ? "REGRESSION" : "change",
			ch->key, ch->what);
		shown++;
	}
	if (!shown)
		fprintf(f, "  no metric beyond the baseline's spread\n");
}

static void json_num(FILE *f, double v)
{
	if (v < 0)
		fprintf(f, "null");
	else
		fprintf(f, "%.6f", v);
}

/* "baseline": {...} for json.c (then ", "). */
void compare_json(FILE *f, const struct report *r)
{
	const struct compare *c = r->cmp;
	int i;

	if (!c)
		return;
	fprintf(f, "\"baseline\": {\"boots\": %d, \"baseline_boots\": %d, \"comparable\": %s, \"why\": ",
		c->ncur, c->nbase, c->comparable ? "true" : "false");
	json_string(f, c->why);
	fprintf(f, ", \"regressions\": %d, \"beyond_spread\": %d, \"metrics\": [",
		compare_regressions(c), c->nbeyond);
	for (i = 0; i < c->nch; i++) {
		const struct change *ch = &c->ch[i];

		fprintf(f, "%s\n  {\"metric\": ", i ? "," : "");
		json_string(f, ch->key);
		fprintf(f, ", \"kind\": \"%s\", \"current\": {\"median\": ",
			ch->kind == M_COUNT ? "count" : ch->kind == M_TIME ? "seconds" : "set");
		json_num(f, ch->cur[0]);
		fprintf(f, ", \"min\": ");
		json_num(f, ch->cur[1]);
		fprintf(f, ", \"max\": ");
		json_num(f, ch->cur[2]);
		fprintf(f, "}, \"baseline\": {\"median\": ");
		json_num(f, ch->base[0]);
		fprintf(f, ", \"min\": ");
		json_num(f, ch->base[1]);
		fprintf(f, ", \"max\": ");
		json_num(f, ch->base[2]);
		fprintf(f, "}, \"beyond_spread\": %s, \"regression\": %s, \"change\": ",
			ch->beyond ? "true" : "false", ch->regression ? "true" : "false");
		json_string(f, ch->what);
		fprintf(f, "}");
	}
	fprintf(f, "]}, ");
}

/*
 * One JUnit testcase per compared metric (classname probecc.baseline);
 * with @f NULL only counts them into *@tests and *@failures.
 */
void compare_junit(FILE *f, const struct report *r, int *tests, int *failures)
{
	const struct compare *c = r->cmp;
	int i;

	if (!c || !c->nbase || (!c->comparable && !c->forced)) {
		if (c && !c->comparable && !c->forced) {
			*tests += 1;
			*failures += 1;
			if (f) {
				fprintf(f, "  <testcase classname=\"probecc.baseline\" name=\"comparable\"><failure message=\"");
				xml_escaped(f, c->why);
				fprintf(f, "\"/></testcase>\n");
			}
		}
		return;
	}
	for (i = 0; i < c->nch; i++) {
		const struct change *ch = &c->ch[i];

		*tests += 1;
		*failures += ch->regression;
		if (!f)
			continue;
		fprintf(f, "  <testcase classname=\"probecc.baseline\" name=\"");
		xml_escaped(f, ch->key);
		fprintf(f, "\">");
		if (ch->regression) {
			fprintf(f, "<failure message=\"");
			xml_escaped(f, ch->what);
			fprintf(f, "\"/>");
		}
		fprintf(f, "</testcase>\n");
	}
}
