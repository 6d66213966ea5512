// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-console: "probecc report --console LOG" on the real Malta boot of
 * examples/ci-bond0.probes (tests/report/mipsel-ci/ttyS1.raw) with
 * tests/report/ci-fail.probes' expectations, both read once: the console
 * log is the input, as the traced system wrote it.  It is read as the
 * report reads it: the kernel's ftrace dump on the console joined to the
 * agent's hits (dump_console_trace()), the boot verdict (boot_decide()),
 * the initcalls, the verdicts and every output (fuzz_outputs()).
 *
 * Input: byte 0 bit 0 says whether the capture is read (else no dump:
 * the console alone); the rest is the console log.
 *
 * Oracles beyond the sanitizers and fuzz_judged(), fuzz_outputs():
 *  - a console with no oops header, panic line or "Unable to handle
 *    kernel" line joins no event (any program can print a dump's form).
 */
#define _GNU_SOURCE	/* memmem */
#include <stdlib.h>
#include <string.h>

#include "report-int.h"
#include "fuzz.h"

#define CAPTURE	"tests/report/mipsel-ci/ttyS1.raw"
#define PROBES	"tests/report/ci-fail.probes"

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
	static struct program *prog;
	struct report r = { 0 };
	size_t ncapture;
	const char *capture = fuzz_load(CAPTURE, &ncapture);
	char *console;

	if (!prog)
		prog = fuzz_program(PROBES);
	if (size < 1)
		return 0;
	trk_begin();
	r.prog = prog;
	console = fuzz_copy(data + 1, size - 1);
	r.console_text = console;
	r.console = "fuzz.log";
	fuzz_read(&r, capture, data[0] & 1 ? ncapture : 0);
	dump_console_trace(&r, console);
	if (r.d.console_new && !has_death((const char *)data + 1, size - 1))
		fuzz_fail("%d console event(s) joined with no oops or panic in the console",
			  r.d.console_new);
	fuzz_report(&r);
	trk_release();
	return 0;
}
