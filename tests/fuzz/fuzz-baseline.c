// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-baseline: "probecc report DUMP --baseline BASE" where one of the
 * two is the input, as the traced system wrote it, and the other the
 * real Malta initcalls boot (tests/report/mipsel-initcalls/ttyS1.raw,
 * with its initcalls.probes), cut as the seeds are: each dump's trace
 * to its first 48 events, its counts made to agree (body-head.sh),
 * framed by the harness (fuzz_dumps()).  The whole boot's 442 initcalls
 * and 900 events a dump made each comparison's metrics of that side
 * most of an input's time (40 exec/s); the seeds are the same boots cut
 * the same way, so that the two sides share their initcalls.  Each is
 * read as the report reads it
 * (dump_read(), the initcalls paired: initcalls_pair()), the verdicts
 * taken, the boots compared (compare_boots(): the boot speed, each
 * initcall against the others' speed) and every output written (with
 * the input as the baseline, the comparison's parts of them: the rest
 * is the real boot's alone).  The real boot is read and paired once per
 * process, before the first input (compare_boots() and the outputs only
 * read a boot).
 *
 * Input: byte 0 bit 0 says whether the input is the baseline (else the
 * current boot), bit 1 --force, bit 2 that the rest is the dump bodies
 * (fuzz_dumps(): the harness frames them, so that a change reaches the
 * initcall events), bit 3 with it that dump 2 has no end line; else the
 * rest is the capture.
 *
 * Oracles beyond the sanitizers and fuzz_judged(), fuzz_outputs():
 *  - a paired initcall never ends before it starts, and its duration
 *    is a finite number;
 *  - the regressions are counted from 0.
 */
#define _GNU_SOURCE	/* asprintf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"
#include "fuzz.h"

#define CAPTURE	"tests/report/mipsel-initcalls/ttyS1.raw"
#define PROBES	"tests/report/mipsel-initcalls/initcalls.probes"
#define EVENTS	48

/* CAPTURE's dump bodies cut to EVENTS events (body-head.sh), malloc'd, the size in *@len. */
static char *fixed_bodies(size_t *len)
{
	char *script = fuzz_path("tests/fuzz/body-head.sh"), *capture = fuzz_path(CAPTURE);
	char *out, *cmd, *text;
	FILE *f;
	long n;

	if (asprintf(&out, "%s/fixed", fuzz_tmpdir()) < 0 ||
	    asprintf(&cmd, "'%s' '%s' %d > '%s'", script, capture, EVENTS, out) < 0)
		fuzz_fail("out of memory");
	if (system(cmd))
		fuzz_fail("%s failed", cmd);
	f = fopen(out, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
		fuzz_fail("%s: cannot read", out);
	text = malloc(n);
	if (!text || fread(text, 1, n, f) != (size_t)n)
		fuzz_fail("%s: cannot read", out);
	fclose(f);
	*len = n;
	free(cmd);
	free(out);
	free(capture);
	free(script);
	return text;
}

/* @r read from @text (@len bytes, the reader writes into it), its initcalls checked. */
static void boot_read(struct report *r, struct program *prog, char *text, size_t len)
{
	int i;

	r->prog = prog;
	dump_read(r, text, len);
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
	static struct program *prog;
	static struct report real;
	struct report in = { 0 }, fixed, *pc, *pb;
	size_t len;

	if (!prog) {
		size_t nbodies;
		char *bodies = fixed_bodies(&nbodies);

		prog = fuzz_program(PROBES);
		fuzz_keep_begin();
		boot_read(&real, prog, fuzz_dumps((const uint8_t *)bodies, nbodies, false, &len), len);
		fuzz_keep_end();
		free(bodies);
	}
	if (size < 1)
		return 0;
	trk_begin();
	fixed = real;
	fixed.cmp = NULL;
	if (data[0] & 4) {
		char *text = fuzz_dumps(data + 1, size - 1, data[0] & 8, &len);

		boot_read(&in, prog, text, len);
	} else {
		boot_read(&in, prog, fuzz_copy(data + 1, size - 1), size - 1);
	}
	pc = (data[0] & 1) ? &fixed : &in;
	pb = (data[0] & 1) ? &in : &fixed;
	compare_boots(&pc->cmp, &pc, 1, &pb, 1, data[0] & 2);
	if (compare_regressions(pc->cmp) < 0)
		fuzz_fail("%d regressions", compare_regressions(pc->cmp));
	fuzz_judged(pc);
	if (pc == &in) {
		fuzz_outputs(pc);
	} else {	/* the real boot's own outputs are the input's only here */
		FILE *f = fuzz_sink("text", NULL);
		int tests = 0, failures = 0;

		compare_text(f, pc);
		fclose(f);
		compare_json(f = fuzz_sink("JSON", "\n"), pc);
		fclose(f);
		compare_junit(f = fuzz_sink("JUnit", "\t\n\r"), pc, &tests, &failures);
		fclose(f);
	}
	trk_release();
	return 0;
}
