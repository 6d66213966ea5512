// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation that cannot fail (out of memory exits, as dtc's and git's
 * x* allocators do), the one way arrays grow (ALLOC_GROW()), and the
 * growable strbuf.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		fatal("out of memory (%zu bytes)", size);
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		fatal("out of memory (%zu bytes)", size);
	return p;
}

void *xrealloc_array(void *p, size_t n, size_t size)
{
	if (n && size > (size_t)-1 / n)
		fatal("out of memory (%zu elements of %zu bytes)", n, size);
	p = realloc(p, n && size ? n * size : 1);
	if (!p)
		fatal("out of memory (%zu elements of %zu bytes)", n, size);
	return p;
}

size_t alloc_nr(size_t cap, size_t need)
{
	size_t n = cap ? cap : 16;

	while (n < need) {
		if (n > (size_t)-1 / 2)
			fatal("out of memory (%zu elements)", need);
		n *= 2;
	}
	return n;
}

void push_str(char ***arr, int *n, int *cap, char *s)
{
	ALLOC_GROW(*arr, *n + 1, *cap);
	(*arr)[(*n)++] = s;
}

FILE *xopen_memstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		fatal("out of memory");
	return f;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		fatal("out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		fatal("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

static void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	size_t avail = sb->cap - sb->len;
	va_list aq;
	int n;

	/* into the room left when it fits: one vsnprintf(), not two */
	va_copy(aq, ap);
	n = vsnprintf(avail ? sb->s + sb->len : NULL, avail, fmt, aq);
	va_end(aq);
	if (n < 0)
		fatal("bad format");
	if ((size_t)n < avail) {
		sb->len += n;
		return;
	}
	if (sb->len + n + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 256;

		while (cap < sb->len + n + 1)
			cap *= 2;
		sb->s = xrealloc(sb->s, cap);
		sb->cap = cap;
	}
	vsnprintf(sb->s + sb->len, n + 1, fmt, ap);
	sb->len += n;
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sb_add(struct strbuf *sb, const void *bytes, size_t n)
{
	ALLOC_GROW(sb->s, sb->len + n + 1, sb->cap);
	memcpy(sb->s + sb->len, bytes, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

char *xvasprintf(const char *fmt, va_list ap)
{
	struct strbuf sb = { 0 };

	sb_vaddf(&sb, fmt, ap);
	return sb.s ? sb.s : xstrdup("");
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
