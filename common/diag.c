// SPDX-License-Identifier: GPL-2.0
/* Diagnostics: FILE:LINE:COL with the line and a caret; fatal() for the CLI edge. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/* Print the source line holding @p and a caret under its column. */
static void show_line(const struct pos *p)
{
	const char *start = p->loc, *end = p->loc;
	const char *text = p->src->text;
	int i;

	while (start > text && start[-1] != '\n')
		start--;
	while (*end && *end != '\n')
		end++;
	fprintf(stderr, "%.*s\n", (int)(end - start), start);
	for (i = 0; i < (int)(p->loc - start); i++)
		fputc(start[i] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
}

static void vdiag_at(const struct pos *p, const char *kind, const char *fmt,
		     va_list ap)
{
	fprintf(stderr, "%s:%d:%d: %s: ", p->src->name, p->line, p->col, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	show_line(p);
}

void error_at(const struct pos *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(p, "error", fmt, ap);
	va_end(ap);
	exit(1);
}

void diag_at(const struct pos *p, const char *kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(p, kind, fmt, ap);
	va_end(ap);
}

/* "probecc: error: MSG" on stderr, then exit(@status). */
static void vdie(int status, const char *fmt, va_list ap)
	__attribute__((noreturn));
static void vdie(int status, const char *fmt, va_list ap)
{
	fputs("probecc: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(status);
}

void fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(1, fmt, ap);
}

void input_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(2, fmt, ap);
}

int errmsg_set(struct errmsg *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (e) {
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}
