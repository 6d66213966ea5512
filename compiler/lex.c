// SPDX-License-Identifier: GPL-2.0
/*
 * The tokenizer: probe-file text to a list of tokens (docs/language.md).
 * The first bad character stops it: the error goes to the caller's list.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"

static bool is_word_start(int c)
{
	return isalpha(c) || c == '_' || c == '.' || c == '*' || c == '?';
}

static bool is_word_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '*' || c == '?';
}

/* strchr() finds the terminating NUL too: c == 0 ends a path. */
static bool is_path_char(int c)
{
	return isalnum(c) || (c && strchr("_./+-", c));
}

static struct token *new_token(enum tok_kind kind, const char *start,
			       size_t len, const struct pos *pos)
{
	/* the text in the same block: one allocation per token */
	struct token *t = xcalloc(1, sizeof(*t) + len + 1);

	t->kind = kind;
	t->text = memcpy(t + 1, start, len);
	t->text[len] = '\0';
	t->pos = *pos;
	t->pos.loc = start;
	return t;
}

/* NUM = digits ( "0x" hexdigits ) followed by an optional [A-Za-z]+ suffix */
static struct token *lex_number(const char **pp, const struct pos *pos,
				struct diags *d)
{
	const char *p = *pp, *start = p, *suf, *dot = NULL;
	int base = 10;
	struct token *t;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		if (!isxdigit((unsigned char)*p)) {
			diag_add(d, pos, "'0x' must be followed by hex digits");
			return NULL;
		}
		while (isxdigit((unsigned char)*p))
			p++;
	} else {
		while (isdigit((unsigned char)*p))
			p++;
		/* a duration's fraction, "2.5s" "0.5ms": only before s or ms */
		if (p[0] == '.' && isdigit((unsigned char)p[1])) {
			const char *q = p + 1;

			while (isdigit((unsigned char)*q))
				q++;
			if ((q[0] == 's' && !is_word_char((unsigned char)q[1])) ||
			    (q[0] == 'm' && q[1] == 's' && !is_word_char((unsigned char)q[2]))) {
				dot = p;
				p = q;
			}
		}
	}
	suf = p;
	while (isalpha((unsigned char)*p))
		p++;
	if (is_word_char((unsigned char)*p)) {
		diag_add(d, pos, "malformed number '%.*s'", (int)(p - start + 1), start);
		return NULL;
	}
	t = new_token(TK_NUM, start, p - start, pos);
	{
		/* the digits: strtoull() stops where the suffix begins */
		char *end;

		errno = 0;
		t->num = strtoull(t->text, &end, base);
		if (end != t->text + ((dot ? dot : suf) - start))
			internal_error("number '%s' read up to byte %td, its digits are %td",
				       t->text, end - t->text, (dot ? dot : suf) - start);
		if (errno == ERANGE) {
			/* never a wrapped or saturated value in an output */
			diag_add(d, pos, "number '%.*s' is too big (at most %llu)",
				 (int)(suf - start), start, ULLONG_MAX);
			return NULL;
		}
	}
	t->suffix = t->text + (suf - start);
	if (dot) {
		/* the digits between "." and the suffix, in a string of their own */
		t->frac = xstrndup(t->text + (dot - start) + 1, suf - dot - 1);
	}
	*pp = p;
	return t;
}

struct token *tokenize(const struct source *src, struct diags *d)
{
	struct token head = { 0 }, *cur = &head;
	const char *p = src->text, *line_start = p;
	struct pos pos = { .src = src, .line = 1 };

	for (;;) {
		pos.loc = p;
		pos.col = (int)(p - line_start) + 1;

		if (*p == '\0' || p == src->text + src->len) {
			if (p != src->text + src->len) {
				diag_add(d, &pos, "NUL byte in the probe file");
				return NULL;
			}
			cur = cur->next = new_token(TK_EOF, p, 0, &pos);
			return head.next;
		}
		if (*p == '\r' && p[1] != '\n') {
			/* a lone CR is no line end: "a\rb" would read as "a b" */
			diag_add(d, &pos, "carriage return without a line feed: lines end with \\n or \\r\\n");
			return NULL;
		}
		if (*p == ' ' || *p == '\t' || *p == '\r') {
			p++;
			continue;
		}
		if (*p == '#') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (*p == '\n') {
			cur = cur->next = new_token(TK_NL, p, 1, &pos);
			p++;
			pos.line++;
			line_start = p;
			continue;
		}
		if (*p == '"') {
			const char *q = p + 1;

			while (*q && *q != '"' && *q != '\n') {
				if ((unsigned char)*q < 0x20) {
					diag_add(d, &pos, "control character in a string");
					return NULL;
				}
				q++;
			}
			if (*q != '"') {
				diag_add(d, &pos, "unterminated string (strings end on the same line; there are no escapes)");
				return NULL;
			}
			cur = cur->next = new_token(TK_STR, p + 1, q - p - 1, &pos);
			p = q + 1;
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			cur = cur->next = lex_number(&p, &pos, d);
			if (!cur)
				return NULL;
			continue;
		}
		if (is_word_start((unsigned char)*p)) {
			const char *q = p;

			while (is_word_char((unsigned char)*q))
				q++;
			cur = cur->next = new_token(TK_WORD, p, q - p, &pos);
			p = q;
			continue;
		}
		if (*p == '/') {
			const char *q = p;

			while (is_path_char((unsigned char)*q))
				q++;
			cur = cur->next = new_token(TK_PATH, p, q - p, &pos);
			p = q;
			continue;
		}
		if (strchr("{};:=+-()%@$<>[]!", *p)) {
			cur = cur->next = new_token(TK_PUNCT, p, 1, &pos);
			p++;
			continue;
		}
		if ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f)
			diag_add(d, &pos, "unexpected character '%c'", *p);
		else
			diag_add(d, &pos, "unexpected byte 0x%02x", (unsigned char)*p);
		return NULL;
	}
}
