// SPDX-License-Identifier: GPL-2.0
/*
 * The initcall timeline: initcall:initcall_level, initcall_start and
 * initcall_finish hits (the probe file's "initcalls", enabled from the
 * command line before the first initcall) paired into one duration per
 * initcall and per level, a bootgraph that needs no dmesg format
 * (scripts/bootgraph.pl reads initcall_debug's printk lines instead).
 *
 * The events print (include/trace/events/initcall.h) "level=%s",
 * "func=%pS" and "func=%pS ret=%d"; %pS is "NAME+0xOFF/0xSIZE", with
 * " [MODULE]" for a module's function (lib/vsprintf.c, sprint_symbol()).
 * A start is paired with the next finish of the same function in the
 * same task (module inits of several insmods may interleave).  Built-in
 * initcalls run in the task that printed the levels (PID 1 before it
 * execs /init, init/main.c: do_initcalls()); any other is a module's
 * init (kernel/module/main.c: do_init_module() calls do_one_initcall()).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"
#include "strmap.h"

/* Why a start and a finish are not made one duration. */
static const char twice[] = "started again in its task before it finished: which start a finish ends is unknown";
static const char backwards[] = "its finish is stamped before its start (per-CPU trace clocks are not synchronised; a module's init can migrate)";

/* "func=NAME+0x0/0x1c [MOD] ret=0" -> NAME, MOD (or NULL), ret. */
static char *parse_func(const char *args, char **module, int *ret)
{
	const char *f = strstr(args, "func="), *end, *br;
	char *name;

	*module = NULL;
	if (ret)
		*ret = 0;
	if (!f)
		return NULL;
	f += 5;
	end = f + strcspn(f, "+ ");
	name = xstrndup(f, end - f);
	br = strstr(end, " [");
	if (br && (!strstr(end, " ret=") || br < strstr(end, " ret=")) && strchr(br, ']'))
		*module = xstrndup(br + 2, strchr(br, ']') - br - 2);
	if (ret && (f = strstr(end, " ret=")))
		*ret = atoi(f + 5);
	return name;
}

/*
 * A module's init function by name: the module_init() alias
 * init_module (include/linux/module.h) and the function at the same
 * place in its .ko under --modules; else "init_module".  The trace
 * prints a module's freed .init.text as a bare address.
 */
static char *module_init_name(struct report *r, const char *module)
{
	struct ko_sym *syms;
	size_t n = 0, i, j;
	char *name = NULL, *file = NULL;
	struct errmsg e = { "" };

	syms = r->modules_dir ? ko_symbols(r->modules_dir, module, &n, &file, &e) : NULL;
	if (e.msg[0]) {	/* and in every output, with the module's frames */
		fprintf(stderr, "probecc report: warning: module %s's init named init_module: %s\n",
			module, e.msg);
		module_unread(module_named(&r->d, module), file, e.msg);
	}
	free(file);
	for (i = 0; i < n && !name; i++)
		if (!strcmp(syms[i].name, "init_module"))
			for (j = 0; j < n && !name; j++)
				if (j != i && syms[j].off == syms[i].off &&
				    !strcmp(syms[j].section, syms[i].section))
					name = xstrdup(syms[j].name);
	for (i = 0; i < n; i++) {
		free(syms[i].name);
		free(syms[i].section);
	}
	free(syms);
	return name ? name : xstrdup("init_module");
}

/* The module a "module_load" hit of @task named last, or NULL. */
static const char *loading(const struct dump *d, int upto, const char *task)
{
	int i;

	for (i = upto - 1; i >= 0; i--)
		if (!strcmp(d->hits[i].probe, "module_load") &&
		    !strcmp(d->hits[i].task, task))
			return d->hits[i].args;
	return NULL;
}

static int slowest_first(const void *a, const void *b)
{
	const struct initcall *x = a, *y = b;
	double dx = x->end < 0 ? -1 : x->end - x->start;
	double dy = y->end < 0 ? -1 : y->end - y->start;

	if (dx != dy)
		return dx < dy ? 1 : -1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* @ic ends at @ts: a duration, unless the finish is stamped before the start. */
static void end_at(struct initcall *ic, double ts, int ret)
{
	if (ts < ic->start) {
		ic->end = -2;
		ic->unpaired = backwards;
		return;
	}
	ic->end = ts;
	ic->ret = ret;
}

/*
 * @ic, about to be r->ics[r->nics], is the open start of its function in
 * its task (@open: "TASK\nFUNC" -> index + 1; the keys in @keys, freed by
 * the caller).  One still open there makes both unpaired.
 */
static void open_start(struct report *r, struct strmap *open, char ***keys, int *nkeys,
		       int *capkeys, struct initcall *ic)
{
	char *key = xasprintf("%s\n%s", ic->task, ic->func);
	void *prev = strmap_get(open, key, strlen(key));

	if (prev) {
		struct initcall *p = &r->ics[(intptr_t)prev - 1];

		if (p->end == -1) {
			p->unpaired = twice;
			ic->unpaired = twice;
		}
	}
	push_str(keys, nkeys, capkeys, key);
	xstrmap_put(open, key, strlen(key), (void *)(intptr_t)(r->nics + 1));
}

/* A finish of @func in @h's task: the open start it ends, looked up, not walked to. */
static void finish(struct report *r, struct strmap *open, const struct hit *h,
		   const char *func, int ret)
{
	char *key = xasprintf("%s\n%s", h->task, func);
	void *idx = strmap_get(open, key, strlen(key));
	struct initcall *ic;

	free(key);
	if (!idx)
		return;
	ic = &r->ics[(intptr_t)idx - 1];
	if (ic->end != -1)
		return;
	if (ic->unpaired)
		ic->end = -2;	/* its finish came: no later one is its */
	else
		end_at(ic, h->ts, ret);
}

/*
 * initcalls_pair() - r->ics (slowest first, unfinished last) and
 * r->levels from the initcall events among r->d's hits.
 */
void initcalls_pair(struct report *r)
{
	const struct dump *d = &r->d;
	const char *level = NULL, *level_task = NULL;
	int i, j, cap = 0, lcap = 0, nkeys = 0, capkeys = 0;
	struct strmap open = { 0 };
	char **keys = NULL;

	for (i = 0; i < d->nhits; i++) {
		const struct hit *h = &d->hits[i];

		if (!strcmp(h->probe, "initcall_level")) {
			const char *l = strstr(h->args, "level=");

			level = l ? l + 6 : h->args;
			level_task = h->task;
			if (r->nlevels && r->levels[r->nlevels - 1].end < 0)
				r->levels[r->nlevels - 1].end = h->ts;
			if (r->nlevels == lcap) {
				lcap = lcap ? lcap * 2 : 16;
				r->levels = xrealloc_array(r->levels, lcap, sizeof(*r->levels));
			}
			r->levels[r->nlevels++] = (struct icall_level){
				.name = level, .start = h->ts, .end = -1 };
		} else if (!strcmp(h->probe, "initcall_start")) {
			struct initcall ic = { 0 };

			ic.func = parse_func(h->args, &ic.module, NULL);
			if (!ic.func)
				continue;
			if (!ic.module && !strncmp(ic.func, "0x", 2)) {
				/* a module's freed init text: module_load said which */
				const char *m = loading(d, i, h->task);

				if (m) {
					ic.module = xstrndup(m, strcspn(m, " "));
					free(ic.func);
					ic.func = module_init_name(r, ic.module);
				}
			}
			ic.task = h->task;
			ic.start = h->ts;
			ic.end = -1;
			open_start(r, &open, &keys, &nkeys, &capkeys, &ic);
			ic.level = level && level_task && !strcmp(h->task, level_task) &&
				   !ic.module ? level : "module";
			if (r->nics == cap) {
				cap = cap ? cap * 2 : 256;
				r->ics = xrealloc_array(r->ics, cap, sizeof(*r->ics));
			}
			r->ics[r->nics++] = ic;
		} else if (!strcmp(h->probe, "initcall_finish")) {
			char *mod, *func = parse_func(h->args, &mod, NULL);
			int ret;

			free(mod);
			if (!func)
				continue;
			free(func);
			func = parse_func(h->args, &mod, &ret);
			if (strncmp(func, "0x", 2)) {
				finish(r, &open, h, func, ret);
				free(func);
				free(mod);
				continue;
			}
			for (j = r->nics - 1; j >= 0; j--) {
				struct initcall *ic = &r->ics[j];

				/* a module's init was renamed from its address above */
				if (ic->end == -1 && !ic->unpaired && !strcmp(ic->task, h->task) &&
				    ic->module) {
					end_at(ic, h->ts, ret);
					break;
				}
			}
			free(func);
			free(mod);
		}
	}
	strmap_free(&open);
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	for (i = 0; i < r->nics; i++) {
		struct initcall *ic = &r->ics[i];

		if (ic->end < 0) {
			r->ics_open++;
			continue;
		}
		for (j = 0; j < r->nlevels; j++)
			if (ic->level == r->levels[j].name) {
				r->levels[j].n++;
				r->levels[j].sum += ic->end - ic->start;
				if (r->levels[j].end < ic->end &&
				    (j == r->nlevels - 1))
					r->levels[j].end = ic->end;
			}
	}
	if (r->nics)
		qsort(r->ics, r->nics, sizeof(*r->ics), slowest_first);
}

/*
 * The initcall of @func (the slowest, if it ran more than once), or
 * NULL; a module's init also by the module's name.
 */
const struct initcall *initcall_find(const struct report *r, const char *func)
{
	int i;

	for (i = 0; i < r->nics; i++)
		if (!strcmp(r->ics[i].func, func))
			return &r->ics[i];
	for (i = 0; i < r->nics; i++)
		if (r->ics[i].module && !strcmp(r->ics[i].level, "module") &&
		    !strcmp(r->ics[i].module, func))
			return &r->ics[i];
	return NULL;
}

/* The text report's part: per level, then the @max slowest initcalls. */
void initcalls_text(FILE *out, const struct report *r, int max)
{
	int i;

	if (!r->nics && !r->nlevels)
		return;
	fprintf(out, "initcalls: %d (%d never finished in the trace), by level:\n",
		r->nics, r->ics_open);
	for (i = 0; i < r->nlevels; i++) {
		const struct icall_level *l = &r->levels[i];

		fprintf(out, "  %-14s %4d initcall(s) %10.3f ms", l->name, l->n, l->sum * 1e3);
		if (l->end >= 0)
			fprintf(out, ", %.6f-%.6f s", l->start, l->end);
		fprintf(out, "\n");
	}
	{
		int n = 0;
		double sum = 0;

		for (i = 0; i < r->nics; i++)
			if (r->ics[i].level[0] == 'm' && !strcmp(r->ics[i].level, "module") &&
			    r->ics[i].end >= 0) {
				n++;
				sum += r->ics[i].end - r->ics[i].start;
			}
		if (n)
			fprintf(out, "  %-14s %4d initcall(s) %10.3f ms\n", "module", n, sum * 1e3);
	}
	fprintf(out, "  slowest:\n");
	for (i = 0; i < r->nics && i < max; i++) {
		const struct initcall *ic = &r->ics[i];

		if (ic->end < 0)
			fprintf(out, "  %12s  %s", ic->unpaired ? "unpaired" : "unfinished", ic->func);
		else
			fprintf(out, "  %9.3f ms  %s", (ic->end - ic->start) * 1e3, ic->func);
		if (ic->module)
			fprintf(out, " [%s]", ic->module);
		fprintf(out, " (%s, at %.6f s", ic->level, ic->start);
		if (ic->ret)
			fprintf(out, ", ret %d", ic->ret);
		if (ic->unpaired)
			fprintf(out, "; %s", ic->unpaired);
		fprintf(out, ")\n");
	}
	if (r->nics > max)
		fprintf(out, "  ... %d more (--json has them all)\n", r->nics - max);
}

/* "initcalls": [...], "initcall_levels": [...], for json.c */
void initcalls_json(FILE *f, const struct report *r)
{
	int i;

	fprintf(f, "\"initcalls\": [");
	for (i = 0; i < r->nics; i++) {
		const struct initcall *ic = &r->ics[i];

		fprintf(f, "%s\n  {\"func\": ", i ? "," : "");
		json_string(f, ic->func);
		fprintf(f, ", \"module\": ");
		if (ic->module)
			json_string(f, ic->module);
		else
			fprintf(f, "null");
		fprintf(f, ", \"level\": ");
		json_string(f, ic->level);
		fprintf(f, ", \"task\": ");
		json_string(f, ic->task);
		fprintf(f, ", \"start\": %.6f, ", ic->start);
		if (ic->end < 0 && ic->unpaired)
			fprintf(f, "\"duration_ms\": null, \"ret\": null, \"unpaired\": \"%s\"}",
				ic->unpaired);
		else if (ic->end < 0)
			fprintf(f, "\"duration_ms\": null, \"ret\": null}");
		else
			fprintf(f, "\"duration_ms\": %.3f, \"ret\": %d}",
				(ic->end - ic->start) * 1e3, ic->ret);
	}
	fprintf(f, "], \"initcall_levels\": [");
	for (i = 0; i < r->nlevels; i++) {
		const struct icall_level *l = &r->levels[i];

		fprintf(f, "%s\n  {\"level\": ", i ? "," : "");
		json_string(f, l->name);
		fprintf(f, ", \"initcalls\": %d, \"sum_ms\": %.3f, \"start\": %.6f, \"end\": ",
			l->n, l->sum * 1e3, l->start);
		if (l->end < 0)
			fprintf(f, "null}");
		else
			fprintf(f, "%.6f}", l->end);
	}
	fprintf(f, "], ");
}
