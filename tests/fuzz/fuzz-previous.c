// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-previous: "probecc report FIRST --previous NEXT" on the real hang
 * of Debian 6.12 amd64 (tests/report/hang/first.raw and hang.probes,
 * read once): NEXT, the next boot's capture with its dump of the
 * persistent ring buffer (stage previous), is the input, as the traced
 * system wrote it.  It is read as the report reads it (dump_read() with
 * prev_text), the boot verdict taken, the initcalls paired, the
 * verdicts taken and every output written.
 *
 * Input: byte 0 bit 0 says whether FIRST is read (else an empty
 * capture: NEXT alone); the rest is NEXT.
 *
 * Oracles beyond the sanitizers:
 *  - without a complete dump no expectation passes;
 *  - the boot verdict is one of the table's.
 */
#include <errno.h>
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source src = { .name = "hang.probes" };
	struct report r = { 0 };
	struct diags d = { 0 };
	struct token *toks;
	char *next, *dump;
	int i;

	if (!capture) {
		capture = load("tests/report/hang/first.raw", &ncapture);
		probes = load("tests/report/hang/hang.probes", &nprobes);
	}
	if (size < 1)
		return 0;
	trk_begin();
	src.text = probes;
	src.len = nprobes;
	toks = tokenize(&src, &d);
	r.prog = toks ? parse(toks, &d) : NULL;
	if (!r.prog)
		fuzz_fail("tests/report/hang/hang.probes does not parse");
	next = malloc(size);
	memcpy(next, data + 1, size - 1);
	next[size - 1] = '\0';
	r.previous = "next.raw";
	r.prev_text = next;
	r.prev_len = size - 1;
	dump = malloc(ncapture + 1);
	memcpy(dump, capture, ncapture + 1);
	dump_read(&r, (data[0] & 1) ? dump : "", (data[0] & 1) ? ncapture : 0);
	dump_probe_names(&r);
	boot_decide(&r);
	if (r.boot.end >= BOOT_NR)
		fuzz_fail("boot verdict %d is none of the table's", r.boot.end);
	initcalls_pair(&r);
	expect_all(&r);
	if (!dump_evidence(&r.d))
		for (i = 0; i < r.nexp; i++)
			if (r.verdicts[i].ok)
				fuzz_fail("expectation %d passed without a complete dump", i + 1);
	text_write(fuzz_null(), &r);
	json_write(fuzz_null(), &r);
	junit_write(fuzz_null(), &r);
	svg_write(fuzz_null(), &r);
	text_summary(fuzz_null(), &r);
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
