// SPDX-License-Identifier: GPL-2.0
/*
 * The report's escaping, one place for every output: UTF-8 sequences
 * recognised (utf8_len()), a string as JSON (json_string(): json.c,
 * perfetto.c) and as XML (xml_escaped(): svg.c, junit.c).  Whatever
 * bytes the kernel traced, every JSON and XML output stays valid UTF-8.
 */
#include <stdio.h>

#include "report-int.h"

/*
 * utf8_len() - the length in bytes of the valid UTF-8 sequence at @s
 * (RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF), 1
 * for an ASCII byte, 0 when @s starts none.  Reads at most 4 bytes, and
 * stops at a NUL (which is no continuation byte).
 */
int utf8_len(const unsigned char *s)
{
	int n, i;
	unsigned int c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and past U+10FFFF are not UTF-8 */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/*
 * The bytes each escape writes as they are: printable ASCII (0x20-0x7e)
 * but its special characters (JSON: '"' 0x22, '\\' 0x5c; XML: '"',
 * '&' 0x26, '<' 0x3c, '>' 0x3e).  A run of them is one fwrite(): a call
 * per byte was most of what the fuzzed report spent on its outputs.
 */
static const unsigned char json_plain[256] = {
	[0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7e] = 1,
};
static const unsigned char xml_plain[256] = {
	[0x20 ... 0x21] = 1, [0x23 ... 0x25] = 1, [0x27 ... 0x3b] = 1,
	[0x3d] = 1, [0x3f ... 0x7e] = 1,
};

/* The length of the run of bytes at @s that @plain marks. */
static size_t plain_run(const unsigned char *s, const unsigned char *plain)
{
	size_t n = 0;

	while (plain[s[n]])
		n++;
	return n;
}

/*
 * json_string() - @s as a JSON string (RFC 8259) on @f, always valid
 * UTF-8: '"', '\\' and control bytes escaped, valid UTF-8 sequences
 * kept, and every other byte (what the kernel traced need not be text)
 * written as the code point of that byte, "\u00XX", so that no byte is
 * lost and the file stays readable by every JSON parser.
 */
void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		int n = utf8_len(p);
		size_t run = plain_run(p, json_plain);

		if (run) {	/* bytes that stand for themselves, in one write */
			fwrite(p, 1, run, f);
			p += run;
			continue;
		}
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f || !n)
			fprintf(f, "\\u%04x", *p);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

/*
 * xml_escaped() - @s as XML character data or an attribute value:
 * the five special characters escaped, and a control byte XML 1.0 has
 * no Char for (all below 0x20 but TAB, LF, CR; a traced string may hold
 * them) written as \xNN, so that the file stays well-formed.
 */
void xml_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;
		int n = utf8_len((const unsigned char *)s);
		size_t run = plain_run((const unsigned char *)s, xml_plain);

		if (run) {	/* bytes that stand for themselves, in one write */
			fwrite(s, 1, run, f);
			s += run - 1;
			continue;
		}
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
