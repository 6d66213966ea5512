// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-baseline: "probecc report DUMP --baseline BASE" where one of the
 * two is the input, as the traced system wrote it, and the other the
 * real Malta initcalls boot (tests/report/mipsel-initcalls/ttyS1.raw,
 * with its initcalls.probes, read once).  Each is read as the report
 * reads it (dump_read(), the initcalls paired: initcalls_pair()), the
 * verdicts taken, the boots compared (compare_boots(): the boot speed,
 * each initcall against the others' speed) and every output written.
 *
 * Input: byte 0 bit 0 says whether the input is the baseline (else the
 * current boot), bit 1 --force; the rest is the capture.
 *
 * Oracles beyond the sanitizers:
 *  - a paired initcall never ends before it starts, and its duration
 *    is a finite number;
 *  - the regressions are counted from 0.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "report-int.h"
#include "fuzz.h"

static char *capture, *probes;
static size_t ncapture, nprobes;

/* @path from the top of the tree or from tests/fuzz/, whole; exits when neither. */
static char *load(const char *path, size_t *len)
{
	char *alt = xasprintf("../../%s", path), *text = NULL;
	struct errmsg e;

	if (file_read(path, &text, len, &e) && file_read(alt, &text, len, &e))
		fuzz_fail("%s", e.msg);
	free(alt);
	return text;
}

/* @r read from @text (@len bytes, copied: the reader writes into it). */
static void boot_read(struct report *r, struct program *prog, const char *text, size_t len)
{
	char *copy = malloc(len + 1);
	int i;

	memcpy(copy, text, len);
	copy[len] = '\0';
	r->prog = prog;
	dump_read(r, copy, len);
	dump_probe_names(r);
	initcalls_pair(r);
	expect_all(r);
	for (i = 0; i < r->nics; i++) {
		const struct initcall *ic = &r->ics[i];

		if (ic->end >= 0 && (ic->end < ic->start || !isfinite(ic->end - ic->start)))
			fuzz_fail("initcall %s: %.9f to %.9f s", ic->func, ic->start, ic->end);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source src = { .name = "initcalls.probes" };
	struct report cur = { 0 }, base = { 0 }, *pc = &cur, *pb = &base;
	struct diags d = { 0 };
	struct program *prog;
	struct token *toks;

	if (!capture) {
		capture = load("tests/report/mipsel-initcalls/ttyS1.raw", &ncapture);
		probes = load("tests/report/mipsel-initcalls/initcalls.probes", &nprobes);
	}
	if (size < 1)
		return 0;
	trk_begin();
	src.text = probes;
	src.len = nprobes;
	toks = tokenize(&src, &d);
	prog = toks ? parse(toks, &d) : NULL;
	if (!prog)
		fuzz_fail("tests/report/mipsel-initcalls/initcalls.probes does not parse");
	if (data[0] & 1) {
		boot_read(&cur, prog, capture, ncapture);
		boot_read(&base, prog, (const char *)data + 1, size - 1);
	} else {
		boot_read(&cur, prog, (const char *)data + 1, size - 1);
		boot_read(&base, prog, capture, ncapture);
	}
	compare_boots(&cur.cmp, &pc, 1, &pb, 1, data[0] & 2);
	if (compare_regressions(cur.cmp) < 0)
		fuzz_fail("%d regressions", compare_regressions(cur.cmp));
	text_write(fuzz_null(), &cur);
	json_write(fuzz_null(), &cur);
	junit_write(fuzz_null(), &cur);
	text_summary(fuzz_null(), &cur);
	trk_release();
	return 0;
}

/* Raw dumps are not read in the fuzz build (fuzz-report.c says why). */
int events_read(struct report *r, const char *text, size_t len,
		struct errmsg *e)
{
	(void)r;
	(void)text;
	(void)len;
	return errmsg_set(e, -ENOSYS, "raw dumps are not read in the fuzz build");
}
