// SPDX-License-Identifier: GPL-2.0
/*
 * frame64.c - the b64 form of a dump's chunks (common/dumpframe.h), which
 * the agent writes when the boot goes through LAVA, turned back into
 * plain chunks before the frame reader (frame.c) sees the capture.  One
 * job, kept apart from the reader so that any reader of frames can take
 * the capture it gives.
 *
 * A b64 chunk becomes its plain chunk line (same dump, sequence number,
 * length, CRC-32 and nonce) and its decoded bytes, so the reader's
 * checks decide it as any chunk: the decoded bytes must match the CRC.
 * Damaged base64 (a character outside the alphabet, a line of the wrong
 * length) decodes to bytes that fail the CRC; a capture that ends inside
 * the lines gives a chunk that is cut.  Plain chunks' bytes are copied
 * as they are and never searched, as the reader never searches them.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "dumpframe.h"
#include "dumpread-local.h"

#define FRAME_PREFIX	"=== probecc dump "

/* The value of base64 character @c (RFC 4648 table 1), -1 for others. */
static int b64val(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* A chunk line of either form, as the writer prints it (frame.c's rule). */
struct chunk_line {
	bool b64;
	unsigned int n, seq, crc;
	size_t len;
	char nonce[DUMP_FRAME_NONCE_LEN + 1];
	const char *start;	/* where FRAME_PREFIX starts in the line */
};

/*
 * Is the line @line (@len bytes, no "\n", a "\r" at its end allowed) a
 * chunk line of either form at its end?  Taken only when printing the
 * fields back gives the same bytes.
 */
static bool chunk_line(const char *line, size_t len, struct chunk_line *cl)
{
	char buf[192], word[8], h1[24], h2[24], again[192];
	const char *p;
	size_t k;

	if (len && line[len - 1] == '\r')
		len--;
	cl->start = NULL;
	for (p = line; (p = memmem(p, len - (p - line), FRAME_PREFIX,
				   strlen(FRAME_PREFIX))); p++)
		cl->start = p;
	if (!cl->start || (k = line + len - cl->start) >= sizeof(buf))
		return false;
	memcpy(buf, cl->start, k);
	buf[k] = '\0';
	if (sscanf(buf, FRAME_PREFIX "%u %7s %u %zu %10s %20s ===", &cl->n, word,
		   &cl->seq, &cl->len, h2, h1) != 6 ||
	    strspn(h2, "0123456789abcdef") != 8 || h2[8] ||
	    strspn(h1, "0123456789abcdef") != DUMP_FRAME_NONCE_LEN ||
	    h1[DUMP_FRAME_NONCE_LEN] || cl->len > DUMP_FRAME_CHUNK_MAX)
		return false;
	cl->b64 = !strcmp(word, "b64");
	if (!cl->b64 && strcmp(word, "chunk"))
		return false;
	cl->crc = strtoul(h2, NULL, 16);
	strcpy(cl->nonce, h1);
	snprintf(again, sizeof(again), cl->b64 ? DUMP_FRAME_B64 : DUMP_FRAME_CHUNK,
		 cl->n, cl->seq, cl->len, cl->crc, cl->nonce);
	again[strcspn(again, "\n")] = '\0';
	return !strcmp(again, buf);
}

/*
 * Decode the base64 lines of a b64 chunk of @cl->len bytes from @p (up to
 * @end) into @out.  Returns where its lines end in the capture, and in
 * *@got the bytes decoded: fewer than @cl->len when the capture ends
 * first.  A malformed line decodes as zero bytes in its place.
 */
static const char *b64_lines(const char *p, const char *end,
			     const struct chunk_line *cl, unsigned char *out,
			     size_t *got, bool *bad)
{
	const size_t per = DUMP_FRAME_B64_LINE / 4 * 3;
	size_t at = 0;

	*bad = false;
	while (at < cl->len) {
		size_t want = cl->len - at < per ? cl->len - at : per;
		size_t chars = (want + 2) / 3 * 4, i, o = 0;
		const char *nl = memchr(p, '\n', end - p);
		size_t n;
		unsigned int acc = 0;
		int bits = 0;

		if (!nl)
			break;	/* the capture ends inside the chunk */
		n = nl - p;
		if (n && p[n - 1] == '\r')
			n--;
		if (n != chars)
			*bad = true;
		for (i = 0; i < chars && i < n && o < want; i++) {
			int v = b64val(p[i]);

			if (v < 0) {
				/* "=" only as the padding of the last group */
				if (p[i] != '=' || i < chars - 2)
					*bad = true;
				break;
			}
			acc = acc << 6 | v;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				out[at + o++] = (unsigned char)(acc >> bits);
			}
		}
		memset(out + at + o, 0, want - o);
		if (o < want)
			*bad = true;
		at += want;
		p = nl + 1;
	}
	*got = at;
	return p;
}

/*
 * frames_unb64() - @text (*@len bytes, a capture as frames_read() takes
 * it) with each b64 chunk in the plain chunk form.  Returns a new buffer
 * (the caller's to free; *@len set to its length, NUL after it), or NULL
 * when @text has no b64 chunk line (take it as it is).  Bytes decoded
 * from damaged base64 are made to fail the chunk's CRC-32.
 */
char *frames_unb64(const char *text, size_t *len)
{
	const char *p = text, *end = text + *len, *copied = text;
	struct strbuf b = { 0 };
	unsigned char *data = NULL;

	if (!memmem(text, *len, " b64 ", 5))
		return NULL;
	data = xmalloc(DUMP_FRAME_CHUNK_MAX);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *next = nl ? nl + 1 : end;
		struct chunk_line cl;
		char line[192];
		size_t got;
		bool bad, crlf = nl && nl > p && nl[-1] == '\r';
		int k;

		if (!chunk_line(p, (nl ? nl : end) - p, &cl)) {
			p = next;
			continue;
		}
		if (!cl.b64) {
			/* a plain chunk: its bytes are data, never lines */
			size_t left = cl.len;

			p = next;
			while (left && p < end) {
				p += crlf && *p == '\r' && p + 1 < end && p[1] == '\n';
				p++;
				left--;
			}
			continue;
		}
		sb_add(&b, copied, cl.start - copied);
		k = snprintf(line, sizeof(line), DUMP_FRAME_CHUNK, cl.n, cl.seq,
			     cl.len, cl.crc, cl.nonce);
		sb_add(&b, line, k);
		p = b64_lines(next, end, &cl, data, &got, &bad);
		/* damaged: never taken, even when zeros happen to match */
		if (bad && got && crc32(0, data, got) == cl.crc)
			data[0] ^= 1;
		sb_add(&b, (const char *)data, got);
		if (got == cl.len && got && data[got - 1] != '\n')
			sb_add(&b, "\n", 1);
		copied = p;
	}
	sb_add(&b, copied, end - copied);
	b.s[b.len] = '\0';
	free(data);
	*len = b.len;
	return b.s;
}
