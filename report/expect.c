// SPDX-License-Identifier: GPL-2.0
/*
 * Expectations: one verdict per "expect" line of the probe file
 * (docs/language.md), checked against the dump, with a one-line reason.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"

/* The value of FIELD in a hit's args ("name=\"bond%d\" ret=-2"), or NULL. */
char *arg_value(const char *args, const char *field)
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

/*
 * The function a frame names: "func+0x10/0x20 [mod]", "func+0x10" or
 * "func" -> "func" (a new string).  Addresses stay what they are.
 */
static char *frame_func(const char *frame)
{
	return xstrndup(frame, strcspn(frame, " +["));
}

/*
 * @func names @frame's function: the same name, or an ftrace glob
 * (*, ?, [...]) matching it as set_ftrace_filter would
 * (kernel/trace/ftrace.c: ftrace_match(), glob_match()), so that
 * "*sys_ioctl" is __x64_sys_ioctl on x86_64 and sys_ioctl on MIPS.  A
 * plain name also names its GCC clones ("foo" is "foo.isra.0").
 */
static bool frame_is(const char *frame, const char *func)
{
	char *name = frame_func(frame), *dot = strchr(name, '.');
	bool yes;

	/* a GCC clone (name.isra.0, name.constprop.0) is the function */
	if (dot && !strchr(func, '.') && !strpbrk(func, "*?["))
		*dot = '\0';
	yes = strpbrk(func, "*?[") ? !fnmatch(func, name, 0) : !strcmp(name, func);

	free(name);
	return yes;
}

/* @func is in the hit's stack, or is the caller the function tracer saw. */
static bool has_frame(const struct hit *h, const char *func)
{
	int i;

	if (h->parent && frame_is(h->parent, func))
		return true;
	for (i = 0; i < h->nframes; i++)
		if (frame_is(h->frames[i], func))
			return true;
	for (i = 0; i < h->nuframes; i++)
		if (frame_is(h->uframes[i], func))
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
 * saturating, so that no sum wraps to 0.
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
	/* the kernel's own dump on the console says what it lost too, and the trace */
	if (d->console_lost > 0)
		lost = add_sat(lost, d->console_lost);
	if (d->trace_lost > 0)
		lost = add_sat(lost, d->trace_lost);
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
	if (e->when != W_ANY && d->init_time < 0)
		snprintf(why, size, "%lld hit(s): %s", count,
			 d->init_why ? d->init_why : "userspace's start is not known");
	else
		snprintf(why, size, "%lld hit(s)", count);
	if (!strcmp(e->op, ">="))
		ok = count >= e->n;
	else if (!strcmp(e->op, "<="))
		ok = count <= e->n;
	else
		ok = count == e->n;
	return hits_after_oops(e, d, count, ok, why, size);
}

/*
 * Are @h's user frames addresses, not names?  The kernel's
 * userstacktrace prints "<ADDR>"; a perf user stack not unwound (no
 * --sysroot: facts/ustack.c) is "0xADDR" and a USTACK_MARK frame that
 * says so.  Either way --sysroot is what names them.
 */
static bool user_frames_unnamed(const struct hit *h)
{
	int j;

	for (j = 0; j < h->nuframes; j++)
		if (h->uframes[j][0] == '<' ||
		    (!strncmp(h->uframes[j], USTACK_MARK, strlen(USTACK_MARK)) &&
		     strstr(h->uframes[j], "not unwound: --sysroot")))
			return true;
	return false;
}

static bool expect_stack(const struct expectation *e, const struct dump *d,
			 char *why, size_t size)
{
	long long count = 0, hits = 0, cut = 0, early = 0;
	bool raw = false;	/* user frames the kernel printed as addresses */
	const char *cut_why = NULL;
	int i;

	for (i = 0; i < d->nhits; i++) {
		if (!hit_is(&d->hits[i], e->target))
			continue;
		hits++;
		if (d->hits[i].cut_why) {
			cut++;
			cut_why = d->hits[i].cut_why;
		}
		raw |= user_frames_unnamed(&d->hits[i]);
		early += hit_before_perf(d, &d->hits[i]);
		if (d->hits[i].stack || d->hits[i].nuframes || d->hits[i].parent) {
			count++;
			if (has_frame(&d->hits[i], e->func)) {
				snprintf(why, size, "in the stack of a hit at %.6f s",
					 d->hits[i].ts);
				return true;
			}
		}
	}
	if (!hits)
		snprintf(why, size, "no hit, so no stack");
	else if (!count)	/* not "0 stacks": the stacks are what is missing */
		snprintf(why, size, "%lld hit(s), none with a stack", hits);
	else if (count < hits)
		snprintf(why, size, "not in the stacks of %lld hit(s) (%lld more without a stack)",
			 count, hits - count);
	else
		snprintf(why, size, "not in the stacks of %lld hit(s)%s", count,
			 raw ? "; user frames are addresses: --sysroot names them" : "");
	if (cut) {
		size_t n = strlen(why);

		snprintf(why + n, size - n, "; %lld stack(s) cut by the kernel, the tracer's own frames alone: %s",
			 cut, cut_why);
	}
	if (early) {
		size_t n = strlen(why);

		snprintf(why + n, size - n, "; %lld hit(s) before the agent armed its perf callchains (by %.6f s) have none",
			 early, perf_armed_by(d));
	}
	if (hits)	/* the stacks the kernel or the agent dropped */
		perf_loss_why(d, strchr(e->target, ':') ? strchr(e->target, ':') + 1 : e->target,
			      why, size);
	add_oops_reason(d, why, size);
	return false;
}

/* The field @e compares, as the probe file declares it; NULL: not known. */
static const struct field *expect_field_decl(const struct program *prog,
					     const struct expectation *e)
{
	const struct probe *p;
	const struct field *f;

	for (p = prog->probes; p; p = p->next)
		if (p->kind != P_EVENT && !strcmp(p->name, e->target))
			for (f = p->fields; f; f = f->next)
				if (!strcmp(f->name, e->field))
					return f;
	return NULL;
}

/* @s without the quotes the trace or the probe file put around a string. */
static char *unquoted(const char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"')
		return xstrndup(s + 1, n - 2);
	return xstrdup(s);
}

/* A whole number as the kernel prints it (decimal, -decimal, 0x hex). */
static bool read_number(const char *s, bool *neg, unsigned long long *mag)
{
	char *end;

	*neg = *s == '-';
	if (*neg)
		s++;
	if (!*s || *s == '-' || *s == '+')
		return false;
	*mag = strtoull(s, &end, 0);
	return end != s && !*end;
}

/* @v (the magnitude @mag, negated when @neg) as a @bits-wide signed value. */
static long long as_signed(bool neg, unsigned long long mag, int bits)
{
	unsigned long long u = neg ? -mag : mag;

	if (bits > 0 && bits < 64) {
		unsigned long long sign = 1ULL << (bits - 1);

		u &= (sign << 1) - 1;
		return (long long)((u ^ sign) - sign);
	}
	return (long long)u;
}

/*
 * Compare the value a hit printed, @got, with the expectation's @want as
 * the field's type says (field_value_kind(); unknown: as @got looks):
 * strings without their quotes; sN as signed N-bit numbers; uN and xN
 * (@typed) as unsigned, but against a negative @want as signed of their
 * width; the default type (not @typed: the kernel's xBITS_PER_LONG says
 * no sign) as signed of 32 bits when the value fits, else 64.  So an
 * untyped $retval printed 0x164 is 356 and 0xfffffffe is -2, below 0.
 * *@cmp gets <0, 0, >0; false: not comparable (a number field printed
 * something else, "(fault)").
 */
static bool compare(const char *got, const char *want, enum value_kind vk,
		    int bits, bool typed, int *cmp)
{
	unsigned long long g, w;
	bool gneg, wneg;

	if (vk == VK_UNKNOWN)	/* as it looks: a number, else a string */
		vk = !read_number(got, &gneg, &g) ? VK_STRING :
		     gneg || strncmp(got, "0x", 2) ? VK_SIGNED : VK_UNSIGNED;
	if (vk == VK_STRING) {
		char *a = unquoted(got), *b = unquoted(want);

		*cmp = strcmp(a, b);
		free(a);
		free(b);
		return true;
	}
	if (!read_number(got, &gneg, &g) || !read_number(want, &wneg, &w))
		return false;
	if (vk == VK_SIGNED) {	/* both at the type's width: 0xfffffffe is -2 in s32 */
		long long gs = as_signed(gneg, g, bits), ws = as_signed(wneg, w, bits);

		*cmp = gs < ws ? -1 : gs > ws;
		return true;
	}
	if (wneg || !typed) {	/* @got read as signed of its width */
		int width = bits ? bits : g > 0xffffffffULL ? 64 : 32;
		long long gs = as_signed(gneg, g, gneg ? 64 : width);
		long long ws = as_signed(wneg, w, 64);

		*cmp = gs < ws ? -1 : gs > ws;
		return true;
	}
	*cmp = g < w ? -1 : g > w;
	return true;
}

static bool holds(const char *op, int cmp)
{
	if (!strcmp(op, "=="))
		return cmp == 0;
	if (!strcmp(op, "!="))
		return cmp != 0;
	if (!strcmp(op, "<"))
		return cmp < 0;
	if (!strcmp(op, "<="))
		return cmp <= 0;
	if (!strcmp(op, ">"))
		return cmp > 0;
	return cmp >= 0;
}

/*
 * The hits FIELD OP VALUE covers (e->quant): the first hit of the probe
 * (the earliest), or every hit (none at all is no evidence: it fails).
 */
static bool expect_field_quant(const struct expectation *e, const struct report *r,
			       enum value_kind vk, int bits, bool typed,
			       char *why, size_t size)
{
	const struct dump *d = &r->d;
	const struct hit *first = NULL;
	long long count = 0;
	int i, cmp;

	for (i = 0; i < d->nhits; i++) {
		const struct hit *h = &d->hits[i];
		char *v;
		bool ok;

		if (!hit_is(h, e->target))
			continue;
		count++;
		if (e->quant == Q_FIRST) {
			if (!first || h->ts < first->ts)
				first = h;
			continue;
		}
		v = arg_value(h->args, e->field);
		ok = v && compare(v, e->value, vk, bits, typed, &cmp) && holds(e->op, cmp);
		if (!ok) {
			if (v)
				snprintf(why, size, "hit %lld at %.6f s: %s=%s", count, h->ts,
					 e->field, v);
			else
				snprintf(why, size, "hit %lld at %.6f s has no field '%s'",
					 count, h->ts, e->field);
			free(v);
			add_oops_reason(d, why, size);
			return false;
		}
		free(v);
	}
	if (!count) {
		snprintf(why, size, "no hit");
		add_oops_reason(d, why, size);
		return false;
	}
	if (e->quant == Q_EVERY) {
		snprintf(why, size, "all %lld hit(s)", count);
		return true;
	}
	{
		char *v = arg_value(first->args, e->field);
		bool ok = v && compare(v, e->value, vk, bits, typed, &cmp) && holds(e->op, cmp);

		if (!v)
			snprintf(why, size, "the first hit, at %.6f s, has no field '%s'",
				 first->ts, e->field);
		else
			snprintf(why, size, "the first hit, at %.6f s: %s=%s", first->ts,
				 e->field, v);
		free(v);
		if (!ok)
			add_oops_reason(d, why, size);
		return ok;
	}
}

/* @t seconds against @us microseconds by @op ("<", "<=", ">", ">="). */
static bool time_holds(double t, const char *op, unsigned long long us)
{
	double w = us / 1e6;

	return holds(op, t < w ? -1 : t > w);
}

/* TARGET first OP DURATION: the earliest hit of the target. */
static bool expect_first(const struct expectation *e, const struct dump *d,
			 char *why, size_t size)
{
	const struct hit *first = NULL;
	int i;

	for (i = 0; i < d->nhits; i++)
		if (hit_is(&d->hits[i], e->target) &&
		    (!first || d->hits[i].ts < first->ts))
			first = &d->hits[i];
	if (!first) {
		snprintf(why, size, "no hit");
		add_oops_reason(d, why, size);
		return false;
	}
	snprintf(why, size, "first hit at %.6f s", first->ts);
	return time_holds(first->ts, e->op, e->us);
}

/* init OP DURATION: userspace's start, on the trace clock when measured. */
static bool expect_init(const struct expectation *e, const struct dump *d,
			char *why, size_t size)
{
	if (d->init_time < 0) {
		snprintf(why, size, "%s", d->init_why ? d->init_why :
			 "userspace's start is not known");
		return false;
	}
	snprintf(why, size, "userspace started at %.3f s%s", d->init_time,
		 d->timebase ? "" : " (CLOCK_BOOTTIME: no timebase)");
	return time_holds(d->init_time, e->op, e->us);
}

/* initcall NAME OP DURATION: from initcall_start to initcall_finish. */
static bool expect_initcall(const struct expectation *e, const struct report *r,
			    char *why, size_t size)
{
	const struct initcall *ic = initcall_find(r, e->target);

	if (!ic) {
		bool unnamed = initcall_find(r, "init_module");

		/* a module's init without its .ko: only the module is known */
		snprintf(why, size, "no initcall %s in the trace (%d paired)%s",
			 e->target, r->nics, unnamed ?
			 "; modules' inits are named from their .ko with --modules, or by the module's name" : "");
		add_oops_reason(&r->d, why, size);
		return false;
	}
	if (ic->end < 0) {
		if (ic->unpaired)
			snprintf(why, size, "started at %.6f s, no duration: %s", ic->start,
				 ic->unpaired);
		else
			snprintf(why, size, "started at %.6f s and never finished in the trace",
				 ic->start);
		return false;	/* no duration: no evidence either way */
	}
	snprintf(why, size, "%.3f ms, at %.6f s", (ic->end - ic->start) * 1e3,
		 ic->start);
	return time_holds(ic->end - ic->start, e->op, e->us);
}

/* Some hit of the probe took a value with FIELD OP VALUE. */
static bool expect_field(const struct expectation *e, const struct report *r,
			 char *why, size_t size)
{
	const struct dump *d = &r->d;
	const struct field *f = expect_field_decl(r->prog, e);
	long long count = 0, with = 0;
	enum value_kind vk = VK_UNKNOWN;
	int i, bits = 0;

	if (f)
		vk = field_value_kind(f, &bits);
	if (e->quant != Q_SOME)
		return expect_field_quant(e, r, vk, bits, f && f->type, why, size);
	for (i = 0; i < d->nhits; i++) {
		char *v;
		int cmp;

		if (!hit_is(&d->hits[i], e->target))
			continue;
		count++;
		v = arg_value(d->hits[i].args, e->field);
		if (!v)
			continue;
		with++;
		if (compare(v, e->value, vk, bits, f && f->type, &cmp) &&
		    holds(e->op, cmp)) {
			if (strcmp(v, e->value))
				snprintf(why, size, "at %.6f s: %s=%s", d->hits[i].ts,
					 e->field, v);
			else
				snprintf(why, size, "at %.6f s", d->hits[i].ts);
			free(v);
			return true;
		}
		free(v);
	}
	if (count && !with)
		snprintf(why, size, "%lld hit(s), none with a field '%s'", count, e->field);
	else if (!strcmp(e->op, "=="))
		snprintf(why, size, "no hit of %lld took that value", count);
	else
		snprintf(why, size, "no hit of %lld had %s %s %s", count, e->field,
			 e->op, e->value);
	add_oops_reason(d, why, size);
	return false;
}

/*
 * Whether the agent defined kprobe @name itself (an "item NAME armed
 * kprobe_events" line: a probe the kernel defined from its command line
 * or bootconfig is checked, "ok").
 */
static bool agent_defined(const struct dump *d, const char *name)
{
	static const char armed[] = "\tarmed\tkprobe_events\t";
	size_t n = strlen(name);
	const char *p;

	for (p = d->items.s ? d->items.s : ""; *p; p = strchr(p, '\n') + 1)
		if (!strncmp(p, name, n) &&
		    !strncmp(p + n, armed, sizeof(armed) - 1))
			return true;
	return false;
}

/*
 * A miss of a kprobe the agent defined: its hits before /init were never
 * traced (the command line had no room for it, or its filter or stack
 * needed the agent).  Said where that is what the miss is: a count
 * before init that fell short, or a probe with no hit at all in
 * complete dumps.
 */
static void add_agent_reason(const struct expectation *e, const struct dump *d,
			     char *why, size_t size)
{
	size_t n = strlen(why);
	bool any = false;
	int i;

	for (i = 0; i < d->nhits && !any; i++)
		any = hit_is(&d->hits[i], e->target);
	if (e->kind == E_HITS && !strcmp(e->op, "<="))
		return;
	if (!(e->kind == E_HITS && e->when == W_BEFORE_INIT) &&
	    (any || !dump_complete(d)))
		return;
	if (!agent_defined(d, e->target) || n + 2 >= size)
		return;
	snprintf(why + n, size - n, "; the agent defined %s when /init started, not the kernel's command line, so hits before then are not traced (probecc --explain says why it went there)",
		 e->target);
}

/*
 * A "stack has FUNC" that failed on stacks that exist: FUNC may be a
 * caller that leaves no frame.  A function that ends in a jump to its
 * callee (a tail call: x86_64's tun_chr_ioctl jumps to __tun_chr_ioctl)
 * is gone from the stack by the time the callee runs, and GCC's clones
 * (FUNC.isra.N, FUNC.part.N, FUNC.constprop.N, FUNC.cold) carry their
 * own names on it.  Said when the kernel's symbols know FUNC or a clone.
 */
static void tail_call_hint(const struct expectation *e, const struct report *r,
			   char *why, size_t size)
{
	const struct kernel *k = r->k;
	size_t n = strlen(why), len = strlen(e->func);
	const char *clone = NULL;
	size_t i;

	if (!k || !k->syms_known || strncmp(why, "not in the stacks", 17))
		return;
	for (i = 0; i < k->nsyms && !clone; i++) {
		const char *sn = k->syms[i].name;

		if (!strncmp(sn, e->func, len) && sn[len] == '.' &&
		    (!strncmp(sn + len, ".isra", 5) || !strncmp(sn + len, ".part", 5) ||
		     !strncmp(sn + len, ".constprop", 10) || !strcmp(sn + len, ".cold")))
			clone = sn;
	}
	if (clone)
		snprintf(why + n, size - n, "; the kernel has %s, a compiler clone whose frames carry that name: 'stack has %s'",
			 clone, clone);
	else if (ksym_find(k, e->func))
		snprintf(why + n, size - n, "; if %s ends in a jump to the function it calls (a tail call, as x86_64's tun_chr_ioctl to __tun_chr_ioctl), it leaves no frame: expect the function it calls, or probe %s itself",
			 e->func, e->func);
}

/* Evaluate @e against the dumps as they are; a one-line reason goes to @why. */
static bool evaluate_dumps(const struct expectation *e, const struct report *r,
			   char *why, size_t size)
{
	const struct dump *d = &r->d;
	bool ok;

	switch (e->kind) {
	case E_ARMED:
		return expect_armed(d, why, size);
	case E_NOLOST:
		return expect_no_lost(d, why, size);
	case E_HITS:
		ok = expect_hits(e, d, why, size);
		break;
	case E_STACK:
		ok = expect_stack(e, d, why, size);
		if (!ok)
			tail_call_hint(e, r, why, size);
		break;
	case E_FIELD:
		ok = expect_field(e, r, why, size);
		break;
	case E_FIRST:
		ok = expect_first(e, d, why, size);
		break;
	case E_INIT:
		ok = expect_init(e, d, why, size);
		break;
	case E_INITCALL:
		ok = expect_initcall(e, r, why, size);
		break;
	default:
		return false;
	}
	if (!ok)
		add_agent_reason(e, d, why, size);
	return ok;
}

/*
 * Evaluate @e.  Without the window dump the file asked for, what was
 * armed after the init dump, what the window lost and how many hits
 * there were in all are unknown: "armed", "no lost" and a hit count's
 * upper bound ("<=", "==") fail with that reason; a lower bound met, a
 * stack or a field seen, still hold (they happened).
 */
static bool evaluate(const struct expectation *e, const struct report *r,
		     char *why, size_t size)
{
	bool ok = evaluate_dumps(e, r, why, size);
	size_t n = strlen(why);

	/* a hit may hide in a line that was not read: no upper bound holds */
	if (r->d.unread && e->kind == E_HITS && strcmp(e->op, ">=")) {
		if (n + 2 < size)
			snprintf(why + n, size - n,
				 "; %d trace line(s) were not read (the first: %.60s), a hit may be among them",
				 r->d.unread, dr_text(r->d.unread_why));
		return false;
	}
	if (!window_missing(r))
		return ok;
	if (e->kind == E_ARMED || e->kind == E_NOLOST ||
	    (e->kind == E_HITS && strcmp(e->op, ">="))) {
		if (n + 2 < size)
			snprintf(why + n, size - n,
				 "; the window dump is missing (the last complete dump is the init dump), so this cannot hold");
		return false;
	}
	return ok;
}

/*
 * A verdict that would differ without the hits joined from the console's
 * ftrace dump (dump_console_trace()) rests on the console alone, which
 * any program on the board can print to: said in @v (why, console).
 */
static void console_evidence(const struct expectation *e, const struct report *r,
			     struct verdict *v)
{
	struct report agent = *r;
	char why[sizeof(v->why)];
	size_t n;
	int i;

	for (i = 0; i < r->d.nhits && !r->d.hits[i].console; i++)
		;
	if (i == r->d.nhits)
		return;
	agent.d.hits = xmalloc(r->d.nhits * sizeof(*agent.d.hits));
	for (agent.d.nhits = 0, i = 0; i < r->d.nhits; i++)
		if (!r->d.hits[i].console)
			agent.d.hits[agent.d.nhits++] = r->d.hits[i];
	v->console = evaluate(e, &agent, why, sizeof(why)) != v->ok;
	free(agent.d.hits);
	n = strlen(v->why);
	if (v->console && n + 2 < sizeof(v->why))
		snprintf(v->why + n, sizeof(v->why) - n,
			 "; console-only evidence: hits of the console's ftrace dump (the agent's dump alone: %s)",
			 v->ok ? "FAIL" : "PASS");
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

		if (dump_evidence(&r->d)) {
			v->ok = evaluate(e, r, v->why, sizeof(v->why));
			console_evidence(e, r, v);
		} else	/* never a PASS without evidence */
			snprintf(v->why, sizeof(v->why), "no complete dump to check it against");
		r->failed += !v->ok;
	}
}
