// SPDX-License-Identifier: GPL-2.0
/*
 * --junit: one testcase per expectation, for GitLab, Jenkins and the
 * like, and one "complete dump" that fails when the capture is no
 * complete evidence (dump_incomplete_why()): then nothing passes.
 * And one testcase per metric compared with a baseline (baseline.c).
 */
#include "report-int.h"

void junit_write(FILE *f, const struct report *r)
{
	const struct expectation *e;
	const char *why;
	char buf[1400];
	int i, tests, failures;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	why = dump_incomplete_why(&r->d, buf, sizeof(buf));
	tests = r->nexp + 1;
	failures = r->failed + !!why;
	compare_junit(NULL, r, &tests, &failures);	/* counts the baseline's cases */
	fprintf(f, "<testsuite name=\"probecc\" tests=\"%d\" failures=\"%d\">\n",
		tests, failures);
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
