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

/*
 * text_nul_at() - whether the @len bytes at @text hold a NUL byte, which
 * would end the text for text_next_line() and drop all after it
 * silently: 1 with its 1-based line and column (in bytes) in *@line and
 * *@col, else 0.  Readers refuse such a file at that position.
 */
static inline int text_nul_at(const char *text, size_t len, int *line,
			      int *col)
{
	const char *nul = memchr(text, '\0', len), *bol = text, *q;
	int no = 1;

	if (!nul)
		return 0;
	for (q = text; q < nul; q++)
		if (*q == '\n') {
			no++;
			bol = q + 1;
		}
	*line = no;
	*col = (int)(nul - bol) + 1;
	return 1;
}

#endif
