// SPDX-License-Identifier: GPL-2.0
/*
 * The target frame of a serial console log (probecc capture --from-log):
 * the lines the agent's capture mode wrote between "=== probecc target
 * begin ===" and "=== probecc target end ===" (initramfs/capture.c), with
 * the kernel's messages taken out.  A line that starts with a printk time
 * stamp ("[   12.345678] ", CONFIG_PRINTK_TIME) is a kernel message and
 * dropped; one with a stamp after some text is the agent's line cut by a
 * message, so the text before the stamp is joined with the next line.
 * Carriage returns are dropped (a console's CRLF; the agent writes none).
 * The markers are whole lines once that is done: a kernel message that
 * quotes one is not one.
 *
 * One log, one frame: a second "begin" inside a frame, a second complete
 * frame, an empty one, a NUL byte or a line longer than LOGFRAME_LINE_MAX
 * is refused with its line, never taken half or twice.  Linear in the
 * log's size (a 100 MB line is refused at its first LOGFRAME_LINE_MAX
 * bytes).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

static const char begin_mark[] = "=== probecc target begin ===";
static const char end_mark[] = "=== probecc target end ===";

/* Where a printk stamp "[ *DIGITS.DIGITS] " starts in @s (@n bytes), or -1. */
static long stamp_at(const char *s, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (s[i] != '[')
			continue;
		j = i + 1;
		while (j < n && s[j] == ' ')
			j++;
		if (j >= n || s[j] < '0' || s[j] > '9')
			continue;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		if (j >= n || s[j] != '.')
			continue;
		j++;
		if (j >= n || s[j] < '0' || s[j] > '9')
			continue;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		if (j + 1 < n && s[j] == ']' && s[j + 1] == ' ')
			return (long)i;
		if (j + 1 == n && s[j] == ']')
			continue;	/* "[ 1.2]" ending the line: not a stamp */
	}
	return -1;
}

int logframe_find(const char *log, size_t len, const char *name,
		  struct strbuf *out, struct errmsg *e)
{
	struct strbuf held = { 0 }, line = { 0 };
	size_t pos = 0, begun = 0, frames = 0, first_begin = 0, first_end = 0;
	size_t body = 0, lineno = 0, held_line = 0, i, j;
	int rc = 0;

	out->len = 0;
	if (out->s)
		out->s[0] = '\0';
	while (pos < len) {
		const char *s = log + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		long st;

		lineno++;
		pos += n + (nl != NULL);
		if (n > LOGFRAME_LINE_MAX) {
			rc = errmsg_set(e, -E2BIG, "%s:%zu: a line of more than %d bytes: not a console log of a capture",
					name, lineno, LOGFRAME_LINE_MAX);
			goto out;
		}
		if (memchr(s, '\0', n)) {
			rc = errmsg_set(e, -EINVAL, "%s:%zu:%zu: a NUL byte: a damaged log (the frame is text)",
					name, lineno,
					(size_t)((const char *)memchr(s, '\0', n) - s) + 1);
			goto out;
		}
		/* the agent's line: what a kernel message cut, then this */
		line.len = 0;
		if (line.s)
			line.s[0] = '\0';
		if (held.len)
			sb_addf(&line, "%s", held.s);
		sb_addf(&line, "%.*s", (int)n, s);
		/* no CR: a console's CRLF, which the agent never writes */
		for (i = j = 0; i < line.len; i++)
			if (line.s[i] != '\r')
				line.s[j++] = line.s[i];
		line.s[j] = '\0';
		line.len = j;
		if (!held.len)
			held_line = lineno;
		held.len = 0;
		if (held.s)
			held.s[0] = '\0';
		st = stamp_at(line.s, line.len);
		if (st == 0)
			continue;		/* a whole kernel message */
		if (st > 0) {
			if (line.len > LOGFRAME_LINE_MAX) {
				rc = errmsg_set(e, -E2BIG, "%s:%zu: a line of more than %d bytes: not a console log of a capture",
						name, lineno, LOGFRAME_LINE_MAX);
				goto out;
			}
			sb_addf(&held, "%.*s", (int)st, line.s);
			continue;		/* cut by a message */
		}
		if (!strcmp(line.s, begin_mark)) {
			if (begun) {
				rc = errmsg_set(e, -EINVAL, "%s:%zu: a frame begins inside the frame begun at line %zu (a boot cut short, then another?): give the log of one boot",
						name, lineno, begun);
				goto out;
			}
			if (frames) {
				rc = errmsg_set(e, -EINVAL, "%s:%zu: a second target frame (the first: lines %zu-%zu): give the log of one boot, one capture",
						name, lineno, first_begin, first_end);
				goto out;
			}
			begun = held_line;
			body = 0;
			continue;
		}
		if (!strcmp(line.s, end_mark)) {
			if (!begun)
				continue;	/* the end of no frame: not ours */
			if (!body) {
				rc = errmsg_set(e, -ENODATA, "%s:%zu: the target frame begun at line %zu is empty",
						name, lineno, begun);
				goto out;
			}
			first_begin = begun;
			first_end = lineno;
			frames++;
			begun = 0;
			continue;
		}
		if (begun) {
			sb_addf(out, "%s\n", line.s);
			body++;
		}
	}
	if (begun && !frames)
		rc = errmsg_set(e, -ENODATA, "%s: the target frame begun at line %zu has no end (=== probecc target end ===): the log is cut",
				name, begun);
	else if (!frames)
		rc = errmsg_set(e, -ENODATA, "%s: no target frame (=== probecc target begin/end ===)",
				name);
out:
	free(held.s);
	free(line.s);
	return rc;
}
