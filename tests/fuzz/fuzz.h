/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - what the libFuzzer harnesses of tests/fuzz/ share
 * (fuzz-util.c): the oracles' failure, a sink for outputs, the tree's
 * files read once, dumps framed as the agent frames them, the kernel's
 * command-line splitter; and, for the report's harnesses (fuzz-util.c
 * built with -DFUZZ_REPORT: tests/fuzz/fuzz-util-report.fuzz.o), the
 * probe file parsed once, the report's oracles and its outputs.
 */
#ifndef PROBECC_FUZZ_H
#define PROBECC_FUZZ_H

#include <stdbool.h>
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

/*
 * fuzz_load() - the file @path of the tree (relative to its top, found
 * from the harness's own path: tests/fuzz/..), whole and NUL-terminated,
 * its size in *@len.  Read once per path and process, never freed (call
 * it before trk_begin(): a block allocated while recording is freed at
 * the input's end).  fuzz_fail() when it cannot be read.
 */
char *fuzz_load(const char *path, size_t *len);

/*
 * fuzz_keep_begin(), fuzz_keep_end() - what is allocated between them
 * is the process's, read once and kept for every input (a probe file
 * parsed, a real boot read: the report's data has no free functions,
 * and blocks it drops are no leak of an input): LeakSanitizer leaves
 * it out (__lsan_disable()).  Call them before trk_begin().
 */
void fuzz_keep_begin(void);
void fuzz_keep_end(void);

/*
 * fuzz_tmpdir() - the harness's private directory for the files its
 * readers take by path, made at the first call: on /dev/shm (tmpfs)
 * when it can be, else in $TMPDIR or /tmp (rewriting a file on ext4
 * flushed it to the disk at each close, auto_da_alloc: 55% of
 * fuzz-facts' time, bench/README.md), named probecc-fuzz.PID.XXXXXX.
 * Removed with what it holds when the harness ends, crashed or not (a
 * child waits for it to end).  fuzz_fail() when it cannot be made.
 */
const char *fuzz_tmpdir(void);

/* fuzz_put() - the file @path made to hold the @size bytes at @data; fuzz_fail() when it cannot. */
void fuzz_put(const char *path, const void *data, size_t size);

/*
 * fuzz_xz() - @size bytes at @data packed as one .xz stream
 * (--check=crc32, LZMA2 with liblzma's smallest dictionary, 4 KiB; the
 * x86 BCJ filter first when @x86) into @out, at most @cap bytes
 * (lzma_stream_buffer_bound(@size) holds it); the packed size.
 * fuzz_fail() when it cannot.  tests/fuzz/xz.c: link with it and -llzma.
 */
size_t fuzz_xz(const uint8_t *data, size_t size, bool x86, uint8_t *out, size_t cap);

/* fuzz_path() - the tree's file @path as a path from anywhere (malloc'd, the caller's). */
char *fuzz_path(const char *path);

/* fuzz_copy() - @size bytes of @data and a NUL (malloc'd, through track.h). */
char *fuzz_copy(const uint8_t *data, size_t size);

/*
 * fuzz_frame() - dump @n with @body (@len bytes) into @f as the agent
 * frames it (initramfs/dump.c, common/dumpframe.h): a begin line, chunks
 * of at most DUMP_FRAME_CHUNK_MAX bytes with their lengths and CRC-32s,
 * and, with @end, the end line; the nonce FUZZ_NONCE.  A random change
 * to a framed dump fails its chunk's CRC and never reaches what is
 * inside: a harness frames what the fuzzer mutates.
 */
#define FUZZ_NONCE	"0123456789abcdef"
void fuzz_frame(FILE *f, unsigned int n, const char *body, size_t len, bool end);

/*
 * fuzz_dumps() - a capture of the dumps whose bodies are @data (@size
 * bytes): dump 1, then, after FUZZ_DUMP_SEP, dump 2, each framed by
 * fuzz_frame(); the last without its end line when @cut.  Returns the
 * capture (malloc'd through track.h, NUL-terminated), its size in *@len.
 */
#define FUZZ_DUMP_SEP	"\n=probecc-fuzz-dump-2=\n"
char *fuzz_dumps(const uint8_t *data, size_t size, bool cut, size_t *len);

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

/* ---- the report's harnesses only (fuzz-util-report.fuzz.o) ---- */

struct report;
struct program;

/*
 * fuzz_program() - the probe file @path of the tree (fuzz_load()), lexed
 * and parsed once per process (it is read, never written, by the
 * report): call it before trk_begin().  fuzz_fail() when it does not
 * parse.
 */
struct program *fuzz_program(const char *path);

/*
 * fuzz_judged() - the oracles every report harness shares: a boot
 * verdict, when taken, is one of the table's; without a complete dump
 * (dump_evidence()) no expectation passes (probecc(1), "EXIT STATUS").
 */
void fuzz_judged(const struct report *r);

/*
 * fuzz_outputs() - every output of @r written as report-main.c writes
 * them: text, its summary, folded stacks, JSON, SVG, JUnit, Perfetto.
 * Oracle: the JSON holds no control byte but '\n' (a JSON string allows
 * none raw), the SVG and JUnit none but TAB, LF and CR (XML 1.0's Char:
 * not even as a character reference).  Each output goes through a sink
 * that checks what it is given and keeps nothing.
 */
void fuzz_outputs(const struct report *r);

/*
 * fuzz_report() - @r, its dump read (dump_read()), judged as
 * report-main.c judges it: probe names, the boot verdict, the initcalls
 * paired, the expectations; then fuzz_judged() and fuzz_outputs().
 */
void fuzz_report(struct report *r);

/* fuzz_read() - dump_read() of a copy of @len bytes at @text (the reader writes into it). */
void fuzz_read(struct report *r, const char *text, size_t len);

/*
 * fuzz_sink() - the sink fuzz_outputs() writes each output through: a
 * FILE * (full-buffered, fclose() it before the next) that keeps
 * nothing and fails on a control byte but those in @allowed (NULL: any)
 * in output @what.
 */
FILE *fuzz_sink(const char *what, const char *allowed);

#endif
