// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-lavalog: the LAVA job log reader (report/lavalog.c), in memory.
 * Input: a LAVA job log (lava-run's stderr, lavacli jobs logs --raw).
 *
 * Oracle beyond the sanitizers: an error names the log and its place
 * ("log:LINE:COL: "); a read gives a NUL-terminated console whose length
 * is what it says, with no more lines than the log's console records; a
 * job end is only said when a job result record came, and its boot word
 * is one qemu-images/boot gives.
 */
#include <stdlib.h>
#include <string.h>

#include "lavalog.h"
#include "report-int.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lava_job job;
	struct errmsg e;
	const char *word;
	char *out = NULL;
	size_t len = 0, nl = 0, i;

	trk_begin();
	(void)lavalog_is((const char *)data, size);
	if (lavalog_console("log", (const char *)data, size, &out, &len, &job, &e)) {
		if (strncmp(e.msg, "log:", 4))
			fuzz_fail("an error that does not name the log: %s", e.msg);
	} else {
		if (out[len] != '\0')
			fuzz_fail("a console not NUL-terminated at its length %zu", len);
		for (i = 0; i < len; i++)
			nl += out[i] == '\n';
		/* a message's escapes may hold "\n": at least one line each */
		if (nl < job.console_lines)
			fuzz_fail("%zu newlines for %zu console records", nl, job.console_lines);
		word = lavalog_boot_end(&job);
		if (!job.ended != !word)
			fuzz_fail("a boot word %s with ended=%d", word ? word : "(none)", job.ended);
		if (word && boot_runner_word(word))
			fuzz_fail("a boot word qemu-images/boot never gives: %s", word);
	}
	free(out);
	trk_release();
	return 0;
}
