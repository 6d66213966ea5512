/* SPDX-License-Identifier: GPL-2.0 */
/*
 * textline.h - cutting a NUL-terminated text into lines in place, shared
 * by the host tools (facts/kernel.c: kallsyms, System.map) and the agent
 * (initramfs/plan.c: the plan).  Self-contained, as common/dumpframe.h:
 * the agent is built without the rest of common/.
 */
#ifndef PROBECC_TEXTLINE_H
#define PROBECC_TEXTLINE_H

#include <string.h>

/*
 * text_next_line() - the next line of the text at *@p: its '\n' becomes
 * the NUL that ends it and *@p moves past it.  The line points into the
 * caller's buffer (no copy).  NULL at the end of the text.
 */
static inline char *text_next_line(char **p)
{
	char *line = *p, *nl;

	if (!*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*p = nl + 1;
	} else {
		*p = line + strlen(line);
	}
	return line;
}

#endif
