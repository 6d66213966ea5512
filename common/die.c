// SPDX-License-Identifier: GPL-2.0
/*
 * The ends of the process, for the CLI edge and the allocators:
 * "probecc: error: MSG" and an exit status (fatal() 1, input_error() and
 * output_error() 2), internal_error() (abort).  It calls nothing of
 * common/ (alloc.c's x* allocators call fatal()).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

void internal_error(const char *fmt, ...)
{
	va_list ap;

	fputs("probecc: internal error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
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

void output_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(2, fmt, ap);
}

void stdout_flush(void)
{
	if (fflush(stdout) || ferror(stdout))
		output_error("cannot write to standard output: %s",
			     strerror(errno ? errno : EIO));
}
