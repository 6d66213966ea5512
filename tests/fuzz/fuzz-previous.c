// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-previous: "probecc report FIRST --previous NEXT" on the real hang
 * of Debian 6.12 amd64 (tests/report/hang/first.raw and hang.probes,
 * read once): NEXT, the next boot's capture with its dump of the
 * persistent ring buffer (stage previous), is the input, as the traced
 * system wrote it.  It is read as the report reads it (dump_read() with
 * prev_text), the boot verdict taken, the initcalls paired, the
 * verdicts taken and every output written (fuzz_outputs()).
 *
 * Input: byte 0 bit 0 says whether FIRST is read (else an empty
 * capture: NEXT alone); bit 1 that the rest is NEXT's dump bodies
 * (fuzz_dumps(): the harness frames them, so that a change reaches the
 * manifest and the trace), bit 2 with it that dump 2 has no end line;
 * else the rest is NEXT as captured.
 *
 * Oracles beyond the sanitizers: fuzz_judged(), fuzz_outputs().
 */
#include <stdlib.h>
#include <string.h>

#include "report-int.h"
#include "fuzz.h"

#define CAPTURE	"tests/report/hang/first.raw"
#define PROBES	"tests/report/hang/hang.probes"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct program *prog;
	struct report r = { 0 };
	size_t ncapture;
	const char *capture = fuzz_load(CAPTURE, &ncapture);

	if (!prog)
		prog = fuzz_program(PROBES);
	if (size < 1)
		return 0;
	trk_begin();
	r.prog = prog;
	r.previous = "next.raw";
	if (data[0] & 2) {
		r.prev_text = fuzz_dumps(data + 1, size - 1, data[0] & 4, &r.prev_len);
	} else {
		r.prev_text = fuzz_copy(data + 1, size - 1);
		r.prev_len = size - 1;
	}
	fuzz_read(&r, capture, data[0] & 1 ? ncapture : 0);
	fuzz_report(&r);
	trk_release();
	return 0;
}
