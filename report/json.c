// SPDX-License-Identifier: GPL-2.0
/*
 * --json: every hit (probe, time, task, args as printed and as typed
 * "fields", parent, stack, and the user stack when the kernel recorded
 * one), the items the agent could not arm, every expectation's verdict;
 * the kernel's kprobe single-step oops when the dump reports one.  The
 * file is valid UTF-8 whatever bytes the kernel traced (json_string(),
 * escape.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"

/*
 * json_value() - one field value as the kernel printed it, typed: a
 * quoted string as a JSON string (the quotes taken off), a decimal or
 * 0x hex integer that a double holds exactly (|v| < 2^53) as a JSON
 * number, anything else as a string.
 */
void json_value(FILE *f, const char *v, size_t n)
{
	char buf[64], *end;
	unsigned long long u;
	long long sv;

	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		char *t = xstrndup(v + 1, n - 2);

		json_string(f, t);
		free(t);
		return;
	}
	if (n && n < sizeof(buf)) {
		memcpy(buf, v, n);
		buf[n] = '\0';
		errno = 0;
		if (!strncmp(buf, "0x", 2) && buf[2]) {
			u = strtoull(buf + 2, &end, 16);
			if (!*end && !errno && u < (1ULL << 53)) {
				fprintf(f, "%llu", u);
				return;
			}
		} else if ((buf[0] == '-' || (buf[0] >= '0' && buf[0] <= '9'))) {
			sv = strtoll(buf, &end, 10);
			if (!*end && end != buf && !errno &&
			    sv < (1LL << 53) && sv > -(1LL << 53) &&
			    (buf[0] != '0' || !buf[1]) && strcmp(buf, "-0")) {
				fprintf(f, "%lld", sv);
				return;
			}
		}
	}
	{
		char *t = xstrndup(v, n);

		json_string(f, t);
		free(t);
	}
}

/*
 * json_fields() - the "NAME=VALUE" fields of a hit's args (a kprobe's
 * "(ip) name=\"bond%d\" ret=0x11", as trace_output.c prints them) as a
 * JSON object of typed values (json_value()).  A quoted value runs to
 * the quote that ends it before a space and the next NAME=, or the end.
 */
void json_fields(FILE *f, const char *args)
{
	const char *p = args;
	int first = 1;

	fputc('{', f);
	while (*p) {
		const char *name, *eq, *v, *end;

		while (*p == ' ')
			p++;
		name = p;
		eq = p + strcspn(p, "= ");
		if (*eq != '=') {	/* "(ip)" and other words: not a field */
			p = eq;
			continue;
		}
		v = eq + 1;
		if (*v == '"') {
			end = v + 1;
			for (;;) {
				const char *q = strchr(end, '"');

				if (!q) {
					end = v + strlen(v);
					break;
				}
				end = q + 1;
				if (!*end || (*end == ' ' && strchr(end, '=') &&
					      strcspn(end + 1, "= ") == strcspn(end + 1, "=")))
					break;
			}
		} else {
			end = v + strcspn(v, " ");
		}
		fprintf(f, "%s", first ? "" : ", ");
		first = 0;
		{
			char *k = xstrndup(name, eq - name);

			json_string(f, k);
			free(k);
		}
		fprintf(f, ": ");
		json_value(f, v, end - v);
		p = end;
	}
	fputc('}', f);
}

/* The agent's items that failed or are missing: probe, state, file, detail. */
static void json_not_armed(FILE *f, const struct dump *d)
{
	const char *p;
	int n = 0;

	for (p = d->items.s; p && *p; p = strchr(p, '\n') + 1) {
		const char *nl = strchr(p, '\n');
		char *line = xstrndup(p, nl - p), *fld[4] = { 0 }, *save = NULL;
		int i;

		for (i = 0; i < 4; i++)
			fld[i] = strtok_r(i ? NULL : line, "\t", &save);
		if (fld[1] && (!strcmp(fld[1], "failed") || !strcmp(fld[1], "missing"))) {
			static const char *const key[] = { "probe", "state", "file", "detail" };

			fprintf(f, "%s\n  {", n++ ? "," : "");
			for (i = 0; i < 4; i++) {
				fprintf(f, "%s\"%s\": ", i ? ", " : "", key[i]);
				json_string(f, fld[i] ? fld[i] : "");
			}
			fprintf(f, "}");
		}
		free(line);
	}
}

/*
 * "perf": each perf probe's samples as its last "perf-stat" line counts
 * them (read by the agent, lost to a full ring, throttling records,
 * unreadable), its hits, those with a stack and those before the agent
 * armed perf (by "armed_by", trace clock s: none of theirs); "not_kept" the samples
 * of all probes read past the agent's text limit, "mappings_not_kept"
 * the executable mappings past its bound.  Absent without perf probes.
 */
static void json_perf(FILE *f, const struct dump *d)
{
	int i, j, n = 0;

	if (!d->npstats)
		return;
	fprintf(f, "\"perf\": {\"not_kept\": %llu, \"mappings_not_kept\": %llu, \"probes\": [",
		d->perf_notkept, d->perf_maps_notkept);
	for (i = 0; i < d->npstats; i++) {
		const struct perf_stat *p = &d->pstats[i];
		int hits = 0, stacks = 0, early = 0;

		if (perf_stat_of(d, p->probe) != p)	/* an earlier dump's */
			continue;
		for (j = 0; j < d->nhits; j++)
			if (!strcmp(d->hits[j].probe, p->probe)) {
				hits++;
				stacks += d->hits[j].nframes || d->hits[j].nuframes;
				early += hit_before_perf(d, &d->hits[j]);
			}
		fprintf(f, "%s\n  {\"probe\": ", n++ ? "," : "");
		json_string(f, p->probe);
		fprintf(f, ", \"samples\": %llu, \"lost\": %llu, \"throttled\": %llu, \"unreadable\": %llu, \"hits\": %d, \"hits_with_stack\": %d, \"hits_before_armed\": %d",
			p->samples, p->lost, p->throttled, p->bad, hits, stacks, early);
		if (perf_armed_by(d) >= 0)
			fprintf(f, ", \"armed_by\": %.6f", perf_armed_by(d));
		fprintf(f, "}");
	}
	fprintf(f, "\n]}, ");
}

/* "boot": the verdict, its status, and the death when the console had one. */
static void json_boot(FILE *f, const struct report *r)
{
	const struct boot *b = &r->boot;
	int i, first;

	fprintf(f, "\"boot\": {\"verdict\": ");
	json_string(f, boot_rows[b->end].name);
	fprintf(f, ", \"status\": %d, \"pass\": %s, \"message\": ", boot_rows[b->end].status,
		b->end == BOOT_CLEAN ? "true" : "false");
	json_string(f, b->msg);
	if (b->end == BOOT_INIT_EXITED)
		fprintf(f, ", \"init_status\": %d", b->init_status);
	if (b->rc_status >= 0)
		fprintf(f, ", \"rc_status\": %d", b->rc_status);
	if (b->time >= 0)
		fprintf(f, ", \"time\": %.6f", b->time);
	if (b->task[0]) {
		fprintf(f, ", \"task\": ");
		json_string(f, b->task);
	}
	if (b->pc[0]) {
		fprintf(f, ", \"pc\": ");
		json_string(f, b->pc);
	}
	if (b->nstack) {
		fprintf(f, ", \"stack\": [");
		for (i = 0; i < b->nstack; i++) {
			fprintf(f, "%s", i ? ", " : "");
			json_string(f, b->stack[i]);
		}
		fprintf(f, "]");
	}
	if (b->end == BOOT_PANIC || b->end == BOOT_OOPS || b->end == BOOT_INIT_EXITED) {
		fprintf(f, ", \"last_events\": [");
		for (i = boot_last_events(r, 5), first = 1;
		     i < r->d.nhits && (b->time < 0 || r->d.hits[i].ts <= b->time); i++, first = 0) {
			fprintf(f, "%s{\"time\": %.6f, \"task\": ", first ? "" : ", ", r->d.hits[i].ts);
			json_string(f, r->d.hits[i].task);
			fprintf(f, ", \"probe\": ");
			json_string(f, r->d.hits[i].probe);
			fprintf(f, "}");
		}
		fprintf(f, "]");
	}
	fprintf(f, ", \"console_tail\": [");
	for (i = 0; i < b->ntail; i++) {
		fprintf(f, "%s\n    ", i ? "," : "");
		json_string(f, b->tail[i]);
	}
	fprintf(f, "]}, ");
}

/*
 * "modules_not_read": each module whose file under --modules could not
 * be read (its frames stay addresses), the file and why; left out when
 * every module file was read.
 */
static void json_modules_not_read(FILE *f, const struct dump *d)
{
	int i, n = 0;

	for (i = 0; i < d->nmods; i++) {
		const struct module *m = &d->mods[i];

		if (!m->unread)
			continue;
		fprintf(f, "%s{\"module\": ", n++ ? ", " : "\"modules_not_read\": [");
		json_string(f, m->name);
		fprintf(f, ", \"file\": ");
		json_string(f, m->unread_file);
		fprintf(f, ", \"why\": ");
		json_string(f, m->unread);
		fprintf(f, "}");
	}
	if (n)
		fprintf(f, "], ");
}

void json_write(FILE *f, const struct report *r)
{
	const struct dump *d = &r->d;
	const struct expectation *e;
	const char *why;
	char buf[1400];
	int i, j;

	fprintf(f, "{\"dumps\": %d, \"init_time\": %.6f, ", d->ndumps, d->init_time);
	/* no verdict passes without it, whatever "pass" says below */
	why = dump_incomplete_why(d, buf, sizeof(buf));
	fprintf(f, "\"complete\": %s, ", why ? "false" : "true");
	/* an instance's dumps say which; the top buffer's key is left out */
	if (d->buffer && strcmp(d->buffer, "top")) {
		fprintf(f, "\"buffer\": ");
		json_string(f, d->buffer);
		fprintf(f, ", ");
	}
	if (why) {
		fprintf(f, "\"incomplete\": ");
		json_string(f, why);
		fprintf(f, ", ");
	}
	/* which clock init_time is on: the trace's with the agent's marks */
	if (d->timebase) {
		fprintf(f, "\"timebase\": {\"measured\": true, \"clock\": \"trace\", \"offset_first\": %.6f, \"offset_last\": %.6f, \"last_dump\": ",
			d->offset_first, d->offset_last);
		if (d->last_time >= 0)
			fprintf(f, "%.6f", d->last_time);
		else
			fprintf(f, "null");
		fprintf(f, ", \"hits_after_dump\": %d, \"agent_own_left_out\": %d, \"note\": ",
			d->after_dump, d->agent_own);
		if (d->timebase_note)
			json_string(f, d->timebase_note);
		else
			fprintf(f, "null");
		fprintf(f, "}, ");
	} else {
		fprintf(f, "\"timebase\": {\"measured\": false, \"clock\": \"CLOCK_BOOTTIME\", \"why\": ");
		json_string(f, dr_text(d->timebase_why));
		if (d->agent_own)
			fprintf(f, ", \"agent_own_left_out\": %d", d->agent_own);
		fprintf(f, "}, ");
	}
	/* the agent's own hits left out: from when until when */
	if (d->agent_own_window && d->tb_first.own)
		fprintf(f, "\"agent_own\": {\"left_out\": %d, \"from\": null, \"worker\": %ld, \"after_exec\": false, \"until\": null, \"mark\": %.6f}, ",
			d->agent_own, d->tb_first.notrace_pid, d->agent_own_until);
	else if (d->agent_own_window && d->agent_own_worker)
		fprintf(f, "\"agent_own\": {\"left_out\": %d, \"from\": null, \"worker\": %ld, \"after_exec\": false, \"until\": %.6f}, ",
			d->agent_own, d->tb_first.notrace_pid, d->agent_own_until);
	else if (d->agent_own_window)
		fprintf(f, "\"agent_own\": {\"left_out\": %d, \"from\": %.6f, \"worker\": null, \"after_exec\": %s, \"until\": %.6f}, ",
			d->agent_own, d->agent_own_from,
			d->agent_own_exec ? "true" : "false", d->agent_own_until);
	/* the agent was PID 1 and its own hits are in: why */
	if (d->agent_own_kept) {
		fprintf(f, "\"agent_own_kept\": ");
		json_string(f, d->agent_own_kept);
		fprintf(f, ", ");
	}
	if (d->noops) {	/* the MIPS kprobe single-step oops: the trace stops there */
		fprintf(f, "\"kprobe_oops\": {\"time\": %.6f, \"epc\": ", d->oops_time);
		json_string(f, d->oops_epc);
		fprintf(f, ", \"task\": ");
		json_string(f, d->oops_task);
		fprintf(f, ", \"count\": %d}, ", d->noops);
	}
	if (r->boot.known)
		json_boot(f, r);
	if (d->console_dumps)
		fprintf(f, "\"console_trace\": {\"dumps\": %d, \"events\": %d, \"joined\": %d, \"lost\": %ld}, ",
			d->console_dumps, d->console_events, d->console_new, d->console_lost);
	if (r->nics || r->nlevels)
		initcalls_json(f, r);
	json_modules_not_read(f, d);
	compare_json(f, r);
	fprintf(f, "\"hits\": [");
	for (i = 0; i < d->nhits; i++) {
		const struct hit *h = &d->hits[i];

		fprintf(f, "%s\n  {\"probe\": ", i ? "," : "");
		json_string(f, h->probe);
		fprintf(f, ", \"time\": %.6f, \"task\": ", h->ts);
		json_string(f, h->task);
		fprintf(f, ", \"args\": ");
		json_string(f, h->args);
		fprintf(f, ", \"fields\": ");
		json_fields(f, h->args);
		if (h->console)
			fprintf(f, ", \"source\": \"console\"");
		if (h->parent) {
			fprintf(f, ", \"parent\": ");
			json_string(f, h->parent);
		}
		if (h->cut_why) {
			fprintf(f, ", \"stack_cut\": {\"frame\": ");
			json_string(f, h->cut_frame);
			fprintf(f, ", \"why\": ");
			json_string(f, h->cut_why);
			fprintf(f, "}");
		}
		if (hit_before_perf(d, h))
			fprintf(f, ", \"stack_missing\": \"before the agent armed its perf callchains\"");
		if (h->deep)	/* frames past the kernel's deepest stack, not kept */
			fprintf(f, ", \"stack_frames_not_kept\": %d", h->deep);
		fprintf(f, ", \"stack\": [");
		for (j = 0; j < h->nframes; j++) {
			fprintf(f, "%s", j ? ", " : "");
			json_string(f, h->frames[j]);
		}
		fprintf(f, "]");
		if (h->ustack) {
			fprintf(f, ", \"user_stack\": [");
			for (j = 0; j < h->nuframes; j++) {
				fprintf(f, "%s", j ? ", " : "");
				json_string(f, h->uframes[j]);
			}
			fprintf(f, "]");
		}
		fprintf(f, "}");
	}
	fprintf(f, "\n], \"not_armed\": [");
	json_not_armed(f, d);
	fprintf(f, "\n], ");
	json_perf(f, d);
	fprintf(f, "\"expectations\": [");
	for (i = 0, e = r->prog ? r->prog->expects : NULL; e; e = e->next, i++) {
		fprintf(f, "%s\n  {\"expect\": ", i ? "," : "");
		json_string(f, e->text);
		fprintf(f, ", \"pass\": %s, \"why\": ", r->verdicts[i].ok ? "true" : "false");
		json_string(f, r->verdicts[i].why);
		if (r->verdicts[i].console)
			fprintf(f, ", \"evidence\": \"console\"");
		fprintf(f, "}");
	}
	fprintf(f, "\n]}\n");
}
