// SPDX-License-Identifier: GPL-2.0
/* What the harnesses share: see fuzz.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/*
 * libFuzzer calls it once before the first input: the code's stderr
 * (diagnostics, byte by byte in diag.c's caret lines) fully buffered,
 * not a write(2) per byte; fuzz_fail() flushes it before abort().
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char buf[1 << 16];

	(void)argc;
	(void)argv;
	setvbuf(stderr, buf, _IOFBF, sizeof(buf));
	return 0;
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: oracle: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

FILE *fuzz_null(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		fuzz_fail("cannot open /dev/null");
	return null;
}

/* lib/ctype.c: the bytes with _S. */
static int kspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static char *skip_spaces(char *s)
{
	while (kspace(*s))
		s++;
	return s;
}

/* next_arg() of lib/cmdline.c (linux-source-6.1), step for step. */
static char *next_arg(char *args, char **param, char **val)
{
	unsigned int i, equals = 0;
	int in_quote = 0, quoted = 0;
	char *next;

	if (*args == '"') {
		args++;
		in_quote = 1;
		quoted = 1;
	}
	for (i = 0; args[i]; i++) {
		if (kspace(args[i]) && !in_quote)
			break;
		if (equals == 0 && args[i] == '=')
			equals = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}
	*param = args;
	if (!equals) {
		*val = NULL;
	} else {
		args[equals] = '\0';
		*val = args + equals + 1;
		/* the kernel drops the quotes around a value */
		if (**val == '"') {
			(*val)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i - 1] == '"')
		args[i - 1] = '\0';
	if (args[i]) {
		args[i] = '\0';
		next = args + i + 1;
	} else {
		next = args + i;
	}
	return skip_spaces(next);
}

int fuzz_split_cmdline(const char *line, struct fuzz_arg **args)
{
	char *copy = strdup(line), *p;
	int n = 0, cap = 8;

	*args = malloc(cap * sizeof(**args));
	if (!copy || !*args)
		fuzz_fail("out of memory");
	p = skip_spaces(copy);
	while (*p) {
		if (n == cap) {
			cap *= 2;
			*args = realloc(*args, cap * sizeof(**args));
			if (!*args)
				fuzz_fail("out of memory");
		}
		p = next_arg(p, &(*args)[n].param, &(*args)[n].value);
		n++;
	}
	return n;
}
