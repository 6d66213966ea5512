// SPDX-License-Identifier: GPL-2.0
/*
 * The dump framing reader: a raw capture (a serial log, a console log,
 * a sink file) -> the dumps in it, each with its body put together from
 * its chunks and a verdict: complete, cut short or damaged, with the
 * reason.  The format is common/dumpframe.h (docs/plan.md, "Dump
 * framing"); the agent (initramfs/dump.c) is its one writer.
 *
 * Only text outside chunks is searched for frame lines, and a chunk's
 * bytes are taken by its length, never scanned: a traced string holding
 * "=== probecc dump 1 end ===" is data.  Outside chunks, a console log
 * has the kernel's own lines (ignored) and may have a frame line after
 * kernel text on the same line (taken: a frame is matched at line end).
 * The boot's nonce is that of the first begin line: the agent, PID 1,
 * writes before any other process exists, so a begin line of another
 * nonce is another boot or an imitation, and is not taken; neither is a
 * frame line with a nonce other than its dump's, none at all (the
 * agent's frames before this format) or a broken layout.  They are
 * counted in frames->stray.
 *
 * A chunk line ending in "\r\n" means the sink translated "\n" into
 * "\r\n" (a console with OPOST|ONLCR, as the kernel sets it): its data
 * is read back with every "\r\n" taken as "\n" (the tty adds a CR before
 * each LF and changes nothing else, so this is exact).
 */
#define _GNU_SOURCE	/* memmem */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "dumpframe.h"
#include "dumpread-local.h"

#define FRAME_PREFIX	"=== probecc dump "

enum frame_kind { FL_NONE, FL_BEGIN, FL_CHUNK, FL_END, FL_STRAY };

struct frame_line {
	enum frame_kind kind;
	unsigned int n, seq, count;
	size_t len;
	unsigned long long bytes;
	unsigned int crc;
	char nonce[DUMP_FRAME_NONCE_LEN + 1];
	bool crlf;		/* the line ended in "\r\n" */
};

/* Is @s exactly @n lower-case hex digits? */
static bool hex_word(const char *s, size_t n)
{
	return strspn(s, "0123456789abcdef") == n && strlen(s) == n;
}

/*
 * Classify one line @line of @len bytes (no "\n"): a frame line of the
 * three kinds, FL_STRAY for text from FRAME_PREFIX to the line end that
 * is none of them (no nonce, broken), or FL_NONE.  A frame line is taken
 * only when printing its fields back with the writer's format gives the
 * same bytes: no sign, no leading zero, no space of its own.
 */
static void classify(const char *line, size_t len, struct frame_line *fl)
{
	char buf[192], word[8], h1[24], h2[24], again[192];
	const char *start = NULL, *p;

	memset(fl, 0, sizeof(*fl));
	if (len && line[len - 1] == '\r') {
		len--;
		fl->crlf = true;
	}
	/* the last FRAME_PREFIX of the line: kernel text may come before it */
	for (p = line; (p = memmem(p, len - (p - line), FRAME_PREFIX,
				   strlen(FRAME_PREFIX))); p++)
		start = p;
	if (!start)
		return;
	fl->kind = FL_STRAY;
	if ((size_t)(line + len - start) >= sizeof(buf))
		return;
	memcpy(buf, start, line + len - start);
	buf[line + len - start] = '\0';
	if (sscanf(buf, FRAME_PREFIX "%u %7s", &fl->n, word) != 2)
		return;
	if (!strcmp(word, "begin") &&
	    sscanf(buf, FRAME_PREFIX "%*u begin %20s ===", h1) == 1 &&
	    hex_word(h1, DUMP_FRAME_NONCE_LEN)) {
		strcpy(fl->nonce, h1);
		snprintf(again, sizeof(again), DUMP_FRAME_BEGIN, fl->n, fl->nonce);
		fl->kind = FL_BEGIN;
	} else if (!strcmp(word, "chunk") &&
		   sscanf(buf, FRAME_PREFIX "%*u chunk %u %zu %10s %20s ===",
			  &fl->seq, &fl->len, h2, h1) == 4 &&
		   hex_word(h2, 8) && hex_word(h1, DUMP_FRAME_NONCE_LEN)) {
		strcpy(fl->nonce, h1);
		fl->crc = strtoul(h2, NULL, 16);
		snprintf(again, sizeof(again), DUMP_FRAME_CHUNK, fl->n, fl->seq,
			 fl->len, fl->crc, fl->nonce);
		fl->kind = FL_CHUNK;
	} else if (!strcmp(word, "end") &&
		   sscanf(buf, FRAME_PREFIX "%*u end %u %llu %20s ===",
			  &fl->count, &fl->bytes, h1) == 3 &&
		   hex_word(h1, DUMP_FRAME_NONCE_LEN)) {
		strcpy(fl->nonce, h1);
		snprintf(again, sizeof(again), DUMP_FRAME_END, fl->n, fl->count,
			 fl->bytes, fl->nonce);
		fl->kind = FL_END;
	} else {
		return;
	}
	again[strcspn(again, "\n")] = '\0';
	if (strcmp(again, buf) || !fl->n || (fl->kind == FL_CHUNK &&
	    (!fl->seq || fl->len > DUMP_FRAME_CHUNK_MAX)))
		fl->kind = FL_STRAY;
}

static void stray(struct frames *f, int lineno, const char *why)
{
	if (!f->stray++)
		dr_why(&f->stray_why, "line %d: %s", lineno, why);
}

static struct framed *new_dump(struct frames *f, const struct frame_line *fl)
{
	struct framed *d;

	ALLOC_GROW(f->d, f->n + 1, f->cap);
	d = &f->d[f->n++];
	memset(d, 0, sizeof(*d));
	d->n = fl->n;
	strcpy(d->nonce, fl->nonce);
	d->state = FRAME_CUT;
	d->body = xstrdup("");
	return d;
}

static void verdict(struct framed *d, enum frame_state state, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void verdict(struct framed *d, enum frame_state state, const char *fmt, ...)
{
	va_list ap;

	d->state = state;
	va_start(ap, fmt);
	dr_vwhy(&d->why, fmt, ap);
	va_end(ap);
}

/*
 * The @want data bytes of a chunk from @p (up to @end) into @out, "\r\n"
 * read as "\n" when @crlf.  Returns where the data ends in the capture,
 * or NULL when the capture ends first.
 */
static const char *chunk_data(const char *p, const char *end, size_t want,
			      bool crlf, char *out)
{
	size_t got = 0;

	if (!crlf) {
		if ((size_t)(end - p) < want)
			return NULL;
		memcpy(out, p, want);
		return p + want;
	}
	while (got < want && p < end) {
		if (*p == '\r' && p + 1 < end && p[1] == '\n')
			p++;
		out[got++] = *p++;
	}
	return got == want ? p : NULL;
}

/*
 * Past the @len data bytes of a chunk at @p (and the newline the writer
 * adds when they do not end with one), counting lines into *@lineno; the
 * end of the capture at most.  For a chunk whose bytes are not taken.
 */
static const char *skip_data(const char *p, const char *end, size_t len,
			     bool crlf, int *lineno)
{
	char last = '\n';

	while (len && p < end) {
		if (crlf && *p == '\r' && p + 1 < end && p[1] == '\n')
			p++;
		last = *p++;
		*lineno += last == '\n';
		len--;
	}
	if (last != '\n' && p < end && *p == '\n') {
		p++;
		++*lineno;
	}
	return p;
}

/* text_nul() - see dumpread-local.h. */
long text_nul(const char *body, size_t len)
{
	size_t n = strlen(body);

	if (n == len || strstr(body, "\n--- raw ---\n"))
		return -1;
	return (long)n;
}

/*
 * frames_read() - every dump of the boot framed in @text (@len bytes)
 * into @f (zeroed by the caller), in the order they begin.  Each gets its body (owned,
 * NUL-terminated; NUL bytes of the data are kept in body_len) and its
 * state: FRAME_COMPLETE when its begin line, chunks 1..C (lengths and
 * CRC-32s right) and its end line (C chunks, the bytes counted) all came
 * with one nonce; FRAME_CUT when the capture ends (or the dump begins
 * again) before that; FRAME_DAMAGED when a chunk is missing, out of
 * order or fails its checksum, or the end line disagrees, or a text
 * dump holds a NUL byte (text_nul()).  A cut or
 * damaged dump keeps the chunks before the trouble; @why says what.
 */
void frames_read(const char *text, size_t len, struct frames *f)
{
	/* b64 chunks (a LAVA job's console) as plain ones: frame64.c */
	char *plain = frames_unb64(text, &len);
	const char *p = plain ? plain : text, *end = p + len;
	struct framed *cur = NULL, *dead = NULL;	/* dead: damaged, its frames skipped */
	char boot[DUMP_FRAME_NONCE_LEN + 1] = "";	/* the first begin line's nonce */
	int lineno = 1;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *next = nl ? nl + 1 : end;
		struct frame_line fl;

		classify(p, (nl ? nl : end) - p, &fl);
		if (fl.kind != FL_NONE)
			f->any = true;
		p = next;
		if (fl.kind == FL_NONE) {
			lineno++;
			continue;
		}
		if (fl.kind == FL_STRAY) {
			stray(f, lineno++, "a frame line without a nonce or of another layout (an agent before frame format 2, or text imitating a frame)");
			continue;
		}
		if (fl.kind == FL_BEGIN && boot[0] && strcmp(fl.nonce, boot)) {
			stray(f, lineno++, "a begin line of another nonce than the boot's (the first begin line's): another boot, or text imitating a frame");
			continue;
		}
		if (fl.kind == FL_BEGIN)
			strcpy(boot, fl.nonce);
		if (fl.kind != FL_BEGIN && dead && fl.n == dead->n &&
		    !strcmp(fl.nonce, dead->nonce)) {
			/* the rest of a damaged dump: its bytes skipped, not searched */
			lineno++;
			if (fl.kind == FL_CHUNK)
				p = skip_data(p, end, fl.len, fl.crlf, &lineno);
			else
				dead = NULL;
			continue;
		}
		if (fl.kind != FL_BEGIN && (!cur || fl.n != cur->n ||
					    strcmp(fl.nonce, cur->nonce))) {
			stray(f, lineno++, "a chunk or end line of no dump begun with its number and nonce");
			continue;
		}
		lineno++;
		dead = NULL;
		if (fl.kind == FL_BEGIN) {
			if (cur)
				verdict(cur, FRAME_CUT, "dump %u begun again before its end line (chunk %u was the last)",
					cur->n, cur->chunks);
			cur = new_dump(f, &fl);
		} else if (fl.kind == FL_CHUNK) {
			char *data;
			const char *after;

			if (fl.seq != cur->chunks + 1) {
				verdict(cur, FRAME_DAMAGED, "chunk %u of dump %u where chunk %u was due: a chunk lost on the way",
					fl.seq, cur->n, cur->chunks + 1);
				dead = cur;
				cur = NULL;
				p = skip_data(p, end, fl.len, fl.crlf, &lineno);
				continue;
			}
			cur->body = xrealloc_array(cur->body, cur->body_len + fl.len + 1, 1);
			data = cur->body + cur->body_len;
			after = chunk_data(p, end, fl.len, fl.crlf, data);
			if (!after) {
				cur->body[cur->body_len] = '\0';
				verdict(cur, FRAME_CUT, "chunk %u of dump %u: the capture ends inside its %zu bytes",
					fl.seq, cur->n, fl.len);
				cur = NULL;
				break;
			}
			/*
			 * zlib's crc32(), the sum crc32_update() computes
			 * (dumpframe.h) several bytes per step: 4-5 times
			 * faster on a dump of megabytes.  The agent keeps
			 * its own loop to be built without zlib.
			 */
			if (crc32(0, (const Bytef *)data, fl.len) != fl.crc) {
				cur->body[cur->body_len] = '\0';
				verdict(cur, FRAME_DAMAGED, "chunk %u of dump %u (%zu bytes) fails its CRC-32: bytes changed or lost on the way, or other output mixed in (a console shares its line with the kernel's messages)",
					fl.seq, cur->n, fl.len);
				dead = cur;
				cur = NULL;
				/* its bytes are not searched for frames either */
				p = skip_data(p, end, fl.len, fl.crlf, &lineno);
				continue;
			}
			for (; p < after; p++)
				lineno += *p == '\n';
			if (fl.len && data[fl.len - 1] != '\n' && p < end &&
			    (*p == '\n' || (fl.crlf && *p == '\r'))) {
				p += *p == '\r' && p + 1 < end && p[1] == '\n';
				p++;
				lineno++;
			}
			cur->body_len += fl.len;
			cur->body[cur->body_len] = '\0';
			cur->chunks++;
		} else {
			long nul;

			if (fl.count != cur->chunks || fl.bytes != cur->body_len)
				verdict(cur, FRAME_DAMAGED, "dump %u ends after %u chunk(s) of %llu bytes, read %u of %zu: chunks lost on the way",
					cur->n, fl.count, fl.bytes, cur->chunks, cur->body_len);
			else if ((nul = text_nul(cur->body, cur->body_len)) >= 0)
				verdict(cur, FRAME_DAMAGED, "dump %u holds a NUL byte at byte %ld of its %zu: no trace text holds one, and what follows it could not be read",
					cur->n, nul, cur->body_len);
			else
				cur->state = FRAME_COMPLETE;
			cur = NULL;
		}
	}
	if (cur)
		verdict(cur, FRAME_CUT, "dump %u has no end line after chunk %u: the capture stops mid-dump",
			cur->n, cur->chunks);
	free(plain);
}
