// SPDX-License-Identifier: GPL-2.0
/*
 * What the reading is worth: the reader's errors (one kind of value, a
 * code and its reason: dumpread_strerror()'s table) and whether the dump
 * read is evidence a verdict may stand on (dump_evidence(),
 * dump_complete(), dump_incomplete_why()).  Every other file of the
 * reader calls down to here, none back.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dumpread-local.h"

static const char *const dr_reasons[DR_NR] = {
	[DR_OK] = "no error",
	[DR_NO_DUMP] = "no raw dump to read",
	[DR_RECORD] = "a raw record refused",
	[DR_LAYOUT] = "the ring-buffer layout refused",
	[DR_FORMAT] = "a format or text file refused",
	[DR_LIBTRACEEVENT] = "libtraceevent could not read the raw dumps",
	[DR_UNSUPPORTED] = "built without libtraceevent",
	[DR_TRACECMD] = "trace-cmd restore failed",
	[DR_IO] = "a file could not be written",
};

const char *dumpread_strerror(enum dumpread_errno code)
{
	return (unsigned int)code < DR_NR && dr_reasons[code] ? dr_reasons[code] :
	       "unknown error";
}

int dr_error(struct dumpread_error *e, enum dumpread_errno code,
	     const char *fmt, ...)
{
	va_list ap;

	e->code = code;
	va_start(ap, fmt);
	dr_vwhy(&e->why, fmt, ap);
	va_end(ap);
	return -1;
}

void dr_vwhy(char **why, const char *fmt, va_list ap)
{
	char *old = *why;	/* freed after: the text may quote it */

	*why = xvasprintf(fmt, ap);
	free(old);
}

void dr_why(char **why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dr_vwhy(why, fmt, ap);
	va_end(ap);
}

/* True when the capture held something to check expectations against. */
bool dump_evidence(const struct dump *d)
{
	/* raw dumps that could not be decoded hold no events */
	if (d->raw && d->raw_err.code)
		return false;
	return d->ndumps > 0 || d->unframed;
}

/*
 * True when the report may pass: evidence, no dump cut short or damaged,
 * no event left undecoded, no trace line whose time could not be read and
 * none the report cannot read at all.
 */
bool dump_complete(const struct dump *d)
{
	/* an event no format file decodes may be a hit the verdicts miss */
	return dump_evidence(d) && !d->ncut && !d->raw_unknown && !d->bad_time && !d->unread;
}

/*
 * dump_incomplete_why() - NULL when dump_complete(), else why no verdict
 * can pass, in @buf (@size bytes): the one reason the text, JSON and
 * JUnit outputs all give.
 */
const char *dump_incomplete_why(const struct dump *d, char *buf, size_t size)
{
	if (dump_complete(d))
		return NULL;
	if (d->raw && d->raw_err.code)
		snprintf(buf, size, "the raw dumps were not read: %s", dr_text(d->raw_err.why));
	else if (!dump_evidence(d))
		snprintf(buf, size, "no complete dump in the capture");
	else if (d->ncut)
		snprintf(buf, size, "%d dump(s) cut short or damaged, the last: %s",
			 d->ncut, dr_text(d->why));
	else if (d->raw_unknown)
		snprintf(buf, size, "%ld event(s) of an id no format file names",
			 d->raw_unknown);
	else if (d->bad_time)
		snprintf(buf, size, "%d trace line(s) whose time is not the kernel's",
			 d->bad_time);
	else
		snprintf(buf, size, "%d %sline(s) of no form the report reads, the first: %s",
			 d->unread, strncmp(dr_text(d->unread_why), "perf-mmap: ", 11) ? "trace " : "",
			 dr_text(d->unread_why));
	return buf;
}
