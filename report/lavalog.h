/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lavalog.h - a LAVA job log read back into the console it recorded
 * (report/lavalog.c).  The log is what `lava-run` writes on stderr and
 * lava-server keeps (`lavacli jobs logs --raw ID`): one YAML flow mapping
 * a line, {"dt": TIME, "lvl": LEVEL, "msg": MESSAGE}, optionally as a
 * YAML list item ("- {...}").  The console's lines are the "target"
 * records (and "feedback", the lines LAVA drained after the test's end);
 * the job's own verdict is the "results" record of case "job",
 * definition "lava".
 */
#ifndef PROBECC_LAVALOG_H
#define PROBECC_LAVALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "common.h"

/* The job's own end, as LAVA logged it. */
struct lava_job {
	bool ended;		/* a job result record was found */
	bool passed;		/* its result was "pass" */
	char error_type[64];	/* "Infrastructure", "Test", "Job", ... or "" */
	char error_msg[512];	/* LAVA's error_msg, or "" */
	size_t records;		/* records read */
	size_t console_lines;	/* of them, the console's */
};

/*
 * lavalog_is() - true when @text (@len bytes) starts as a LAVA job log:
 * its first line is a flow mapping whose first key is "dt".
 */
bool lavalog_is(const char *text, size_t len);

/*
 * lavalog_console() - the console byte stream of the LAVA job log @text
 * (@len bytes, named @path in messages): each console record's message,
 * its YAML escapes undone (\t, \", \\, \xNN, \uNNNN as UTF-8 ...), then a
 * newline.  What LAVA changed on the way is not undone, because it cannot
 * be: "\r" and ESC removed, invalid UTF-8 as U+FFFD, "\n\n" as "\n"; a
 * dump's CRC-32 tells the difference.  *@out (malloc'd, NUL-terminated,
 * the caller's to free) and *@out_len; *@job gets the job's end.
 * 0, or -EINVAL with @e set to "PATH:LINE:COL: ..." for a record that is
 * not a LAVA log record; a last line without its newline (a log cut while
 * written) ends the log without an error, and job->ended says whether the
 * job's result came.
 */
int lavalog_console(const char *path, const char *text, size_t len,
		    char **out, size_t *out_len, struct lava_job *job,
		    struct errmsg *e);

/*
 * lavalog_boot_end() - the word of qemu-images/boot's table that the
 * job's end makes (report/boot.c runner_words): "until" for a job that
 * passed (the monitor's end matched, LAVA powered the DUT off), "timeout"
 * for a LAVA timeout, "panic" for the job's kernel-panic failure,
 * "reboot" for the DUT's connection closed before the end (QEMU exited),
 * "qemu" for any other error of the runner; NULL when the job's result
 * never came (a log cut short).
 */
const char *lavalog_boot_end(const struct lava_job *job);

#endif /* PROBECC_LAVALOG_H */
