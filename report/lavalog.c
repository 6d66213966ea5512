// SPDX-License-Identifier: GPL-2.0
/*
 * lavalog.c - a LAVA job log back into the console it recorded, and the
 * job's own end (lavalog.h).  One job: read the log's records; the dump
 * frames, the boot verdict and everything after are the report's, on the
 * console bytes this gives.
 *
 * A record is one line, a YAML flow mapping as lava-dispatcher's logger
 * writes it (lava_dispatcher/log.py: yaml.dump of {"dt", "lvl", "msg"}
 * with double-quoted strings, one line each): keys are double-quoted
 * strings, values double-quoted strings, plain scalars (null, numbers)
 * or nested flow mappings ("results" records).  Only that subset is
 * read; anything else is an error at its line and column, so a log of
 * another shape is never half-taken.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lavalog.h"

/* @cp as UTF-8 (at most 4 bytes); a code point past U+10FFFF as U+FFFD. */
static void buf_utf8(struct strbuf *b, uint32_t cp)
{
	char u[4];
	size_t n;

	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		u[0] = (char)cp, n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12), u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18), u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f)), u[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
	}
	sb_add(b, u, n);
}

/* The reader's place in one record line. */
struct cur {
	const char *line, *p, *end;	/* the line, the place, its end (no '\n') */
	const char *path;
	size_t lineno;
	struct errmsg *e;
};

static int cur_error(struct cur *c, const char *what)
{
	return errmsg_set(c->e, -EINVAL, "%s:%zu:%zu: %s (not a LAVA job log record)",
			  c->path, c->lineno, (size_t)(c->p - c->line) + 1, what);
}

static void skip_space(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* The byte a one-character escape stands for, or NULL. */
static const char *simple_escape(char ch)
{
	static const char from[] = "0abtnvfre\"\\/ \t";
	static const char to[] = "\0\a\b\t\n\v\f\r\033\"\\/ \t";
	const char *p = ch ? strchr(from, ch) : NULL;

	if (ch == '0')
		return to;
	return p ? to + (p - from) : NULL;
}

/*
 * A YAML double-quoted scalar at c->p (on its opening quote) into @b,
 * its escapes undone (YAML 1.1 section 5.7, the set PyYAML's emitter
 * writes: \0 \a \b \t \n \v \f \r \e \" \\ \/ \N \_ \L \P, space, \xXX,
 * \uXXXX, \UXXXXXXXX), each character as UTF-8: LAVA's logger dumps
 * with PyYAML's default allow_unicode=False (lava_common/log.py), so all
 * that is not printable ASCII is escaped.  @b may be NULL to skip it.
 */
static int read_quoted(struct cur *c, struct strbuf *b)
{
	const char *run;

	c->p++;
	for (;;) {
		run = c->p;
		while (c->p < c->end && *c->p != '"' && *c->p != '\\')
			c->p++;
		if (b)
			sb_add(b, run, (size_t)(c->p - run));
		if (c->p >= c->end)
			return cur_error(c, "a string without its closing quote");
		if (*c->p++ == '"')
			return 0;
		if (c->p >= c->end)
			return cur_error(c, "a string ending in a backslash");
		char ch = *c->p++;
		const char *s;
		int digits = ch == 'x' ? 2 : ch == 'u' ? 4 : ch == 'U' ? 8 : 0;

		if (digits) {
			uint32_t cp = 0;
			int i, v;

			for (i = 0; i < digits; i++) {
				if (c->p >= c->end || (v = hexval(*c->p)) < 0)
					return cur_error(c, "a \\x, \\u or \\U escape without its hex digits");
				cp = cp << 4 | (uint32_t)v;
				c->p++;
			}
			/* \xNN is a code point (U+0000..U+00FF), not a byte */
			if (b)
				buf_utf8(b, cp);
			continue;
		}
		if ((s = simple_escape(ch))) {
			if (b)
				sb_add(b, s, 1);
		} else if (ch == 'N' || ch == '_' || ch == 'L' || ch == 'P') {
			if (b)
				buf_utf8(b, ch == 'N' ? 0x85 : ch == '_' ? 0xa0 :
					 ch == 'L' ? 0x2028 : 0x2029);
		} else {
			c->p--;
			return cur_error(c, "an unknown escape in a string");
		}
	}
}

/* A plain scalar (null, a number, true): up to ',' or '}'. */
static void read_plain(struct cur *c, struct strbuf *b)
{
	const char *s = c->p;

	while (c->p < c->end && *c->p != ',' && *c->p != '}')
		c->p++;
	if (b)
		sb_add(b, s, (size_t)(c->p - s));
}

struct field {
	const char *key;
	struct strbuf *val;	/* the scalar's text; NULL: not wanted */
	bool map;		/* set when the value was a mapping */
};

/*
 * A flow mapping at c->p ('{') whose keys are double-quoted strings; a
 * value of a key in @f (@nf of them) goes to its buffer, a nested
 * mapping of key @sub is read with @subf (@nsub) and any other is
 * skipped.
 */
static int read_map(struct cur *c, struct field *f, size_t nf,
		    const char *sub, struct field *subf, size_t nsub, int depth)
{
	struct strbuf key = { 0 };
	size_t i;
	int err = 0;

	if (depth > 8)
		return cur_error(c, "mappings nested too deep");
	c->p++;
	skip_space(c);
	if (c->p < c->end && *c->p == '}') {
		c->p++;
		return 0;
	}
	for (;;) {
		skip_space(c);
		if (c->p >= c->end || *c->p != '"') {
			err = cur_error(c, "a key that is not a double-quoted string");
			break;
		}
		key.len = 0;
		if ((err = read_quoted(c, &key)))
			break;
		skip_space(c);
		if (c->p >= c->end || *c->p != ':') {
			err = cur_error(c, "no ':' after a key");
			break;
		}
		c->p++;
		skip_space(c);
		struct field *want = NULL;

		for (i = 0; i < nf; i++)
			if (!strcmp(key.s, f[i].key))
				want = &f[i];
		if (c->p < c->end && *c->p == '{') {
			if (want)
				want->map = true;
			if (sub && !strcmp(key.s, sub))
				err = read_map(c, subf, nsub, NULL, NULL, 0, depth + 1);
			else
				err = read_map(c, NULL, 0, NULL, NULL, 0, depth + 1);
		} else if (c->p < c->end && *c->p == '"') {
			err = read_quoted(c, want ? want->val : NULL);
		} else {
			read_plain(c, want ? want->val : NULL);
		}
		if (err)
			break;
		skip_space(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == '}') {
			c->p++;
			break;
		}
		err = cur_error(c, "neither ',' nor '}' after a value");
		break;
	}
	free(key.s);
	return err;
}

/*
 * @s (@n bytes) into @b with the backslash LAVA put before each '"' taken
 * out: ShellLogger.write() (lava_dispatcher/shell.py) escapes '"' as '\"'
 * and nothing else, so the byte before every '"' is its own backslash.
 */
static void unescape_quotes(struct strbuf *b, const char *s, size_t n)
{
	const char *q;

	while ((q = memchr(s, '"', n))) {
		size_t k = (size_t)(q - s);

		sb_add(b, s, k && s[k - 1] == '\\' ? k - 1 : k);
		sb_add(b, "\"", 1);
		n -= k + 1;
		s = q + 1;
	}
	sb_add(b, s, n);
}

bool lavalog_is(const char *text, size_t len)
{
	static const char head[] = "{\"dt\": ";

	if (len >= 2 && !memcmp(text, "- ", 2))
		text += 2, len -= 2;
	return len >= sizeof(head) - 1 && !memcmp(text, head, sizeof(head) - 1);
}

static void copy_str(char *dst, size_t size, const struct strbuf *b)
{
	size_t n = b->len < size - 1 ? b->len : size - 1;

	if (n)
		memcpy(dst, b->s, n);
	dst[n] = '\0';
}

int lavalog_console(const char *path, const char *text, size_t len,
		    char **out, size_t *out_len, struct lava_job *job,
		    struct errmsg *e)
{
	struct strbuf con = { 0 }, lvl = { 0 }, msg = { 0 };
	struct strbuf rcase = { 0 }, rdef = { 0 }, rresult = { 0 }, etype = { 0 }, emsg = { 0 };
	const char *p = text, *end = text + len;
	struct cur c = { .path = path, .e = e };
	int err = 0;

	memset(job, 0, sizeof(*job));
	sb_add(&con, "", 0);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct field top[] = { { "lvl", &lvl, false }, { "msg", &msg, false } };
		struct field res[] = {
			{ "case", &rcase, false }, { "definition", &rdef, false },
			{ "result", &rresult, false }, { "error_type", &etype, false },
			{ "error_msg", &emsg, false },
		};

		c.lineno++;
		if (!nl)
			break;		/* a last line cut while written */
		c.line = c.p = p;
		c.end = nl;
		p = nl + 1;
		if (c.end > c.p && c.end[-1] == '\r')
			c.end--;
		if (c.p == c.end)
			continue;
		if (c.end - c.p >= 2 && !memcmp(c.p, "- ", 2))
			c.p += 2;
		if (*c.p != '{') {
			err = cur_error(&c, "a line that is not a flow mapping");
			break;
		}
		lvl.len = msg.len = rcase.len = rdef.len = rresult.len = etype.len = emsg.len = 0;
		if (lvl.s)
			lvl.s[0] = '\0';
		if (rcase.s)
			rcase.s[0] = '\0';
		if (rdef.s)
			rdef.s[0] = '\0';
		if ((err = read_map(&c, top, 2, "msg", res, 5, 0)))
			break;
		skip_space(&c);
		if (c.p != c.end) {
			err = cur_error(&c, "text after the record");
			break;
		}
		job->records++;
		if (!lvl.s) {
			err = cur_error(&c, "a record without \"lvl\"");
			break;
		}
		if (!strcmp(lvl.s, "target") || !strcmp(lvl.s, "feedback")) {
			if (top[1].map) {
				err = cur_error(&c, "a console record whose \"msg\" is no string");
				break;
			}
			unescape_quotes(&con, msg.s ? msg.s : "", msg.len);
			sb_add(&con, "\n", 1);
			job->console_lines++;
		} else if (!strcmp(lvl.s, "results") && top[1].map && rcase.s && rdef.s &&
			   !strcmp(rcase.s, "job") && !strcmp(rdef.s, "lava")) {
			job->ended = true;
			job->passed = rresult.s && !strcmp(rresult.s, "pass");
			copy_str(job->error_type, sizeof(job->error_type), &etype);
			copy_str(job->error_msg, sizeof(job->error_msg), &emsg);
		}
	}
	free(lvl.s);
	free(msg.s);
	free(rcase.s);
	free(rdef.s);
	free(rresult.s);
	free(etype.s);
	free(emsg.s);
	if (err) {
		free(con.s);
		return err;
	}
	*out = con.s;
	*out_len = con.len;
	return 0;
}

const char *lavalog_boot_end(const struct lava_job *job)
{
	if (!job->ended)
		return NULL;
	if (job->passed)
		return "until";
	if (strstr(job->error_msg, "timed out"))
		return "timeout";
	if (strstr(job->error_msg, "anic"))	/* the job's "kernel panic" failure */
		return "panic";
	if (strstr(job->error_msg, "Connection closed"))
		return "reboot";
	return "qemu";
}
