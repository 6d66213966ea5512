// SPDX-License-Identifier: GPL-2.0
/*
 * --svg: a timeline, one lane per probe, a mark per hit against boot
 * time, a red line where userspace started.
 */
#include <string.h>

#include "report-int.h"

/*
 * @s as XML character data or an attribute value (also for junit.c):
 * the five special characters escaped, and a control byte XML 1.0 has
 * no Char for (all below 0x20 but TAB, LF, CR; a traced string may hold
 * them) written as \xNN, so that the file stays well-formed.
 */
void xml_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;
		int n = utf8_len((const unsigned char *)s);

		if (c >= 0x80 && n) {
			/* a whole UTF-8 sequence: the character */
			fwrite(s, 1, n, f);
			s += n - 1;
		} else if (c >= 0x80) {
			/* a byte of no UTF-8 sequence: not text, \xNN as above */
			fprintf(f, "\\x%02x", c);
		} else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '&')
			fputs("&amp;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
			/* XML 1.0 has no such Char, not even as &#x1a;: \xNN */
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

void svg_write(FILE *f, const struct report *r)
{
	const struct dump *d = &r->d;
	double end = 1;
	int i, j, w = 800, row = 20, left = 180;

	for (i = 0; i < d->nhits; i++)
		if (d->hits[i].ts > end)
			end = d->hits[i].ts;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" font-size=\"12\">\n",
		left + w + 20, row * (r->nnames + 2));
	fprintf(f, "<text x=\"4\" y=\"14\">probe hits against boot time (0 to %.2f s)</text>\n", end);
	if (d->init_time >= 0)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"red\"><title>userspace starts at %.3f s</title></line>\n",
			left + w * d->init_time / end, row, left + w * d->init_time / end,
			row * (r->nnames + 1), d->init_time);
	for (i = 0; i < r->nnames; i++) {
		fprintf(f, "<text x=\"4\" y=\"%d\">", row * (i + 2) - 6);
		xml_escaped(f, r->names[i]);
		fprintf(f, "</text>\n");
		for (j = 0; j < d->nhits; j++)
			if (!strcmp(d->hits[j].probe, r->names[i]))
				fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"2\" height=\"%d\" fill=\"steelblue\"><title>%.6f s</title></rect>\n",
					left + w * d->hits[j].ts / end, row * (i + 1) + 4, row - 8,
					d->hits[j].ts);
	}
	fprintf(f, "</svg>\n");
}
