// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-logframe: the frame finder of probecc capture --from-log
 * (facts/logframe.c), in memory.  Input: a console log.
 *
 * Oracle beyond the sanitizers: a frame found is whole lines (it ends
 * in '\n'), holds no NUL, no CR at a line's end and no printk stamp at
 * a line's start (kernel messages are out), no line over
 * LOGFRAME_LINE_MAX, and neither marker as a line; an error says where
 * ("NAME:" first).
 */
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf out = { 0 };
	struct errmsg e;
	const char *p, *end;

	trk_begin();
	if (logframe_find((const char *)data, size, "log", &out, &e)) {
		if (strncmp(e.msg, "log", 3))
			fuzz_fail("an error that does not name the log: %s", e.msg);
	} else {
		if (!out.len || out.s[out.len - 1] != '\n' || strlen(out.s) != out.len)
			fuzz_fail("a frame of %zu bytes not of whole lines", out.len);
		for (p = out.s; p < out.s + out.len; p = end + 1) {
			end = strchr(p, '\n');
			if (end - p > LOGFRAME_LINE_MAX)
				fuzz_fail("a line of %zu bytes", (size_t)(end - p));
			if (end > p && end[-1] == '\r')
				fuzz_fail("a CR kept at a line's end");
			if (!strncmp(p, "=== probecc target ", 19) &&
			    (!strncmp(p, "=== probecc target begin ===\n", 29) ||
			     !strncmp(p, "=== probecc target end ===\n", 27)))
				fuzz_fail("a marker inside the frame");
			if (*p == '[') {
				const char *q = p + 1;

				while (*q == ' ')
					q++;
				if (*q >= '0' && *q <= '9') {
					while (*q >= '0' && *q <= '9')
						q++;
					if (*q == '.' && q[1] >= '0' && q[1] <= '9') {
						q++;
						while (*q >= '0' && *q <= '9')
							q++;
						if (q[0] == ']' && q[1] == ' ')
							fuzz_fail("a kernel message kept: %.40s", p);
					}
				}
			}
		}
	}
	free(out.s);
	trk_release();
	return 0;
}
