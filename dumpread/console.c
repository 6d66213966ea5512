// SPDX-License-Identifier: GPL-2.0
/*
 * console.c - a console line as the kernel's printk wrote it: its text
 * after the printk time, and whether it is where the kernel starts to die.
 * The one reading of a console line for the reader's console ftrace dump
 * (read.c) and the report's boot verdict (report/boot.c): any program on
 * the board can print to the console, so a line without a printk time is
 * no word of the kernel's.
 */
#include <stdlib.h>
#include <string.h>

#include "dumpread.h"

/* dumpread_printk_text() - see dumpread.h. */
char *dumpread_printk_text(char *line, double *ts)
{
	char *p = line, *end;
	size_t n = strlen(line);

	while (n && (line[n - 1] == '\r' || line[n - 1] == '\n'))
		line[--n] = '\0';
	*ts = -1;
	if (*p == '[' && (end = strchr(p, ']')) && end[1] == ' ') {
		char *q = p + 1;

		q += strspn(q, " ");
		if (q < end && strspn(q, "0123456789.") == (size_t)(end - q)) {
			*ts = strtod(q, NULL);
			p = end + 2;
		}
	}
	return p;
}

/* dumpread_oops_header() - see dumpread.h. */
bool dumpread_oops_header(const char *t)
{
	const char *p;

	if (!strncmp(t, "Kernel panic", 12))
		return false;
	for (p = strstr(t, "[#"); p; p = strstr(p + 1, "[#")) {
		size_t n = strspn(p + 2, "0123456789");

		if (n && p[2 + n] == ']')
			return true;
	}
	return false;
}

/* dumpread_death_line() - see dumpread.h. */
bool dumpread_death_line(const char *t)
{
	return dumpread_oops_header(t) || strstr(t, "Kernel panic - not syncing: ");
}
