// SPDX-License-Identifier: GPL-2.0
/*
 * --junit: one testcase per expectation, for GitLab, Jenkins and the
 * like, one "complete dump" that fails when the capture is no complete
 * evidence (dump_incomplete_why()): then nothing passes; one per metric
 * compared with a baseline (baseline.c); and, with a boot verdict
 * (--console, --boot-end), a testcase "boot ends clean" first: failing,
 * with the console's last lines, when the boot did not end clean.
 */
#include "report-int.h"

static void junit_boot(FILE *f, const struct boot *b)
{
	int i;

	/* one name whatever the verdict: CI systems follow a test by its name */
	fprintf(f, "  <testcase classname=\"probecc.boot\" name=\"boot ends clean\">");
	if (b->end != BOOT_CLEAN) {
		fprintf(f, "<failure type=\"");
		xml_escaped(f, boot_rows[b->end].name);
		fprintf(f, "\" message=\"");
		xml_escaped(f, b->msg);
		fprintf(f, "\">");
		if (b->task[0]) {
			fprintf(f, "task: ");
			xml_escaped(f, b->task);
			fprintf(f, "\n");
		}
		if (b->pc[0]) {
			fprintf(f, "pc: ");
			xml_escaped(f, b->pc);
			fprintf(f, "\n");
		}
		for (i = 0; i < b->nstack; i++) {
			fprintf(f, " => ");
			xml_escaped(f, b->stack[i]);
			fprintf(f, "\n");
		}
		if (b->ntail)
			fprintf(f, "the console's last lines:\n");
		for (i = 0; i < b->ntail; i++) {
			xml_escaped(f, b->tail[i]);
			fprintf(f, "\n");
		}
		fprintf(f, "</failure>");
	}
	fprintf(f, "</testcase>\n");
}

/*
 * The perf probes that lost samples (perf_lossy()) as the suite's
 * properties "perf PROBE": "N read, L lost, T throttled, B unreadable",
 * and "perf not kept": samples read past the agent's text limit.  A
 * failed `stack has` says the same in its failure message.
 */
static void junit_perf(FILE *f, const struct dump *d)
{
	bool head = false;
	int i;

	for (i = 0; i < d->npstats; i++) {
		const struct perf_stat *p = &d->pstats[i];

		if (perf_stat_of(d, p->probe) != p || !perf_lossy(d, p))
			continue;
		if (!head)
			fprintf(f, "  <properties>\n");
		head = true;
		fprintf(f, "    <property name=\"perf ");
		xml_escaped(f, p->probe);
		fprintf(f, "\" value=\"%llu read, %llu lost, %llu throttled, %llu unreadable\"/>\n",
			p->samples, p->lost, p->throttled, p->bad);
	}
	if (!head)
		return;
	if (d->perf_notkept)
		fprintf(f, "    <property name=\"perf not kept\" value=\"%llu\"/>\n",
			d->perf_notkept);
	if (d->perf_maps_notkept)
		fprintf(f, "    <property name=\"perf mappings not kept\" value=\"%llu\"/>\n",
			d->perf_maps_notkept);
	fprintf(f, "  </properties>\n");
}

void junit_write(FILE *f, const struct report *r)
{
	const struct expectation *e;
	bool boot = r->boot.known;
	const char *why;
	char buf[1400];
	int i, tests, failures;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	why = dump_incomplete_why(&r->d, buf, sizeof(buf));
	tests = r->nexp + 1;
	failures = r->failed + !!why;
	compare_junit(NULL, r, &tests, &failures);	/* counts the baseline's cases */
	fprintf(f, "<testsuite name=\"probecc\" tests=\"%d\" failures=\"%d\">\n",
		tests + boot, failures + (boot && r->boot.end != BOOT_CLEAN));
	junit_perf(f, &r->d);
	if (boot)
		junit_boot(f, &r->boot);
	fprintf(f, "  <testcase classname=\"probecc\" name=\"complete dump\">");
	if (why) {
		fprintf(f, "<failure message=\"");
		xml_escaped(f, why);
		fprintf(f, "\"/>");
	}
	fprintf(f, "</testcase>\n");
	for (i = 0, e = r->prog ? r->prog->expects : NULL; e; e = e->next, i++) {
		fprintf(f, "  <testcase classname=\"probecc\" name=\"");
		xml_escaped(f, e->text);
		fprintf(f, "\">");
		if (r->verdicts[i].console)	/* console-only evidence: said on a PASS too */
			fprintf(f, "<properties><property name=\"evidence\" value=\"console\"/></properties>");
		if (!r->verdicts[i].ok) {
			fprintf(f, "<failure message=\"");
			xml_escaped(f, r->verdicts[i].why);
			fprintf(f, "\"/>");
		}
		fprintf(f, "</testcase>\n");
	}
	compare_junit(f, r, &tests, &failures);
	fprintf(f, "</testsuite>\n");
}
