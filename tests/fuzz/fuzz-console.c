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
 * The capture is read once per process (dump_read(): the same bytes
 * give the same dump each time); each input works on a copy of it, with
 * its own hits array, which the console's events join and the probe
 * names rewrite (the strings stay the process's: nothing after the
 * read writes into them).
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
	static struct report captured;	/* the capture, read once */
	struct report r = { 0 };
	size_t ncapture;
	char *console;

	if (!prog) {
		const char *capture = fuzz_load(CAPTURE, &ncapture);

		prog = fuzz_program(PROBES);
		fuzz_keep_begin();
		captured.prog = prog;
		fuzz_read(&captured, capture, ncapture);
		fuzz_keep_end();
	}
	if (size < 1)
		return 0;
	trk_begin();
	if (data[0] & 1) {
		r = captured;
		r.d.hits = malloc((captured.d.nhits ? captured.d.nhits : 1) * sizeof(*r.d.hits));
		if (!r.d.hits)
			fuzz_fail("out of memory");
		memcpy(r.d.hits, captured.d.hits, captured.d.nhits * sizeof(*r.d.hits));
		r.d.cap = captured.d.nhits;
	} else {
		r.prog = prog;
		fuzz_read(&r, "", 0);
	}
	console = fuzz_copy(data + 1, size - 1);
	r.console_text = console;
	r.console = "fuzz.log";
	dump_console_trace(&r, console);
	if (r.d.console_new && !has_death((const char *)data + 1, size - 1))
		fuzz_fail("%d console event(s) joined with no oops or panic in the console",
			  r.d.console_new);
	fuzz_report(&r);
	trk_release();
	return 0;
}
