// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-console: "probecc report --console LOG" on the real Malta boot of
 * examples/ci-bond0.probes (tests/report/mipsel-ci/ttyS1.raw, read once)
 * with tests/report/ci-fail.probes' expectations: the console log is
 * the input, as the traced system wrote it.  It is read as the report
 * reads it: the kernel's ftrace dump on the console joined to the
 * agent's hits (dump_console_trace()), the boot verdict (boot_decide()),
 * the initcalls, the verdicts and every output.
 *
 * Input: byte 0 bit 0 says whether the capture is read (else no dump:
 * the console alone); the rest is the console log.
 *
 * Oracles beyond the sanitizers:
 *  - a console with no oops header, panic line or "Unable to handle
 *    kernel" line joins no event (any program can print a dump's form);
 *  - without the capture, no expectation passes;
 *  - the boot verdict is one of the table's.
 */
#define _GNU_SOURCE	/* memmem */
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

/* A death the boot verdict's reader knows, anywhere in @t (@n bytes). */
static bool has_death(const char *t, size_t n)
{
	static const char *const words[] = { "Kernel panic - not syncing: ", "[#", "Unable to handle kernel " };
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (memmem(t, n, words[i], strlen(words[i])))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source src = { .name = "ci-fail.probes" };
	struct report r = { 0 };
	struct diags d = { 0 };
	struct token *toks;
	char *console, *dump;
	int i;

	if (!capture) {
		capture = load("tests/report/mipsel-ci/ttyS1.raw", &ncapture);
		probes = load("tests/report/ci-fail.probes", &nprobes);
	}
	if (size < 1)
		return 0;
	trk_begin();
	src.text = probes;
	src.len = nprobes;
	toks = tokenize(&src, &d);
	r.prog = toks ? parse(toks, &d) : NULL;
	if (!r.prog)
		fuzz_fail("tests/report/ci-fail.probes does not parse");
	console = malloc(size);
	memcpy(console, data + 1, size - 1);
	console[size - 1] = '\0';
	r.console_text = console;
	r.console = "fuzz.log";
	dump = malloc(ncapture + 1);
	memcpy(dump, capture, ncapture + 1);
	dump_read(&r, (data[0] & 1) ? dump : "", (data[0] & 1) ? ncapture : 0);
	dump_console_trace(&r, console);
	if (r.d.console_new && !has_death((const char *)data + 1, size - 1))
		fuzz_fail("%d console event(s) joined with no oops or panic in the console",
			  r.d.console_new);
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
