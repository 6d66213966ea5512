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
