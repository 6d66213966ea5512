/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - what the libFuzzer harnesses of tests/fuzz/ share
 * (fuzz-util.c): the oracles' failure, a sink for outputs, and the
 * kernel's command-line splitter.
 */
#ifndef PROBECC_FUZZ_H
#define PROBECC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "track.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* An oracle found a wrong output: "fuzz: oracle: MSG" on stderr, abort(). */
void fuzz_fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* A FILE * that discards what it is given (/dev/null, opened once). */
FILE *fuzz_null(void);

/* One parameter as the kernel's next_arg() returns it. */
struct fuzz_arg {
	char *param;
	char *value;	/* NULL: no '=' (or '=' first, which next_arg() ignores) */
};

/*
 * fuzz_split_cmdline() - @line split as the kernel's parse_args() splits
 * its command line: skip_spaces(), then next_arg() (lib/cmdline.c of
 * linux-source-6.1) until the end, with the kernel's isspace()
 * (lib/ctype.c: \t \n \v \f \r, space and 0xA0).  Sets *@args to the
 * parameters (malloc'd, with their strings, through track.h) and
 * returns their number.
 */
int fuzz_split_cmdline(const char *line, struct fuzz_arg **args);

#endif
