// SPDX-License-Identifier: GPL-2.0
/*
 * --json: every hit (probe, time, task, args, parent, stack, and the
 * user stack when the kernel recorded one) and every expectation's
 * verdict; the kernel's kprobe single-step oops when the dump reports
 * one.
 */
#include "report-int.h"

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

void json_write(FILE *f, const struct report *r)
{
	const struct dump *d = &r->d;
	const struct expectation *e;
	int i, j;

	fprintf(f, "{\"dumps\": %d, \"init_time\": %.6f, ", d->ndumps, d->init_time);
	if (d->noops) {	/* the MIPS kprobe single-step oops: the trace stops there */
		fprintf(f, "\"kprobe_oops\": {\"time\": %.6f, \"epc\": ", d->oops_time);
		json_string(f, d->oops_epc);
		fprintf(f, ", \"task\": ");
		json_string(f, d->oops_task);
		fprintf(f, ", \"count\": %d}, ", d->noops);
	}
	fprintf(f, "\"hits\": [");
	for (i = 0; i < d->nhits; i++) {
		const struct hit *h = &d->hits[i];

		fprintf(f, "%s\n  {\"probe\": ", i ? "," : "");
		json_string(f, h->probe);
		fprintf(f, ", \"time\": %.6f, \"task\": ", h->ts);
		json_string(f, h->task);
		fprintf(f, ", \"args\": ");
		json_string(f, h->args);
		if (h->parent) {
			fprintf(f, ", \"parent\": ");
			json_string(f, h->parent);
		}
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
	fprintf(f, "\n], \"expectations\": [");
	for (i = 0, e = r->prog ? r->prog->expects : NULL; e; e = e->next, i++) {
		fprintf(f, "%s\n  {\"expect\": ", i ? "," : "");
		json_string(f, e->text);
		fprintf(f, ", \"pass\": %s, \"why\": ", r->verdicts[i].ok ? "true" : "false");
		json_string(f, r->verdicts[i].why);
		fprintf(f, "}");
	}
	fprintf(f, "\n]}\n");
}
