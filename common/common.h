/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common/: what every part of probecc uses, and nothing of any one part.
 *
 *   diag.c      FILE:LINE:COL diagnostics with a caret, one at a time or
 *               as a list printed in source order; errmsg_set()
 *   die.c       fatal() and its kin for the CLI edge (and the x*
 *               allocators' out of memory): print and exit
 *   alloc.c     allocation that cannot fail (x*), the growable strbuf
 *   readfile.c  the one whole-file reader (returns an error, never exits)
 *   output.c    atomic outputs: stage every file, then commit or abort
 *   elffile.c   the one ELF opener (its own header, elffile.h: <gelf.h>)
 *   unpack.c    the one unpacker of a compressed stream (libarchive)
 *   suggest.c   "did you mean": the one edit distance and suggestion rule
 *   strmap.c    a string -> pointer hash map (its own header, strmap.h:
 *               no exits, for bootconfig/ too)
 *   argnum.c    a command-line option's number, range-checked
 *
 * Error convention for library code (facts/, bootargs/, common/): a
 * function that can fail returns 0 or a negative errno-style code and
 * writes a one-line message (no "error:" prefix, no newline) into the
 * caller's struct errmsg; only the CLI edge (the *main*.c files) prints
 * it and exits.  Running out of memory is the one exception: the x*
 * allocators exit, as dtc's do.
 */
#ifndef PROBECC_COMMON_H
#define PROBECC_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The number of elements of the array @a (not a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- diagnostics (diag.c) ---- */

struct source {
	const char *name;	/* file name as given on the command line */
	const char *text;	/* whole file, NUL-terminated, owned */
	size_t len;
};

struct pos {
	const struct source *src;
	const char *loc;	/* points into src->text */
	int line, col;		/* 1-based; col counts bytes */
};

/*
 * Print "FILE:LINE:COL: KIND: MSG", the source line (control bytes as
 * '?') and a caret under the column to stderr; @kind is "error",
 * "warning" or "note".  Used by diag_print(); it never exits.
 */
void diag_at(const struct pos *p, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * A list of diagnostics, for a stage that reports every problem it
 * finds and returns their number instead of exiting: diag_add() records
 * one (@p NULL: about the whole input, printed "probecc: error: MSG"),
 * diag_print() prints them in source order (those without a position
 * first, then by line and column, ties in the order added) and returns
 * how many there were; diag_print_as() the same with another @kind
 * ("warning": a list of warnings, which stop nothing).
 *
 * @n counts every diagnostic added (a stage compares it before and
 * after); only the first diag_limit in source order are kept in
 * v[0..nv) and printed, then a note with how many more there were.
 * The default, 20, is clang's -ferror-limit: a file of 20,000 bad lines
 * gives 20 caret lines, not 20,000, and costs no more memory; probecc's
 * --error-limit sets it, 0 for all.
 * diag_free() frees the kept messages and the array; the struct is
 * zeroed and can be used again.
 */
extern int diag_limit;
struct diag {
	struct pos pos;		/* pos.src NULL: no position */
	char *msg;
	int seq;
};
struct diags {
	struct diag *v;		/* v[0..nv): the kept ones, malloc'ed */
	int n, nv, cap;
	int last;		/* when full: v[last] is last in source order; -1 unknown */
};
void diag_add(struct diags *d, const struct pos *p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_vadd(struct diags *d, const struct pos *p, const char *fmt,
	       va_list ap) __attribute__((format(printf, 3, 0)));
void diag_free(struct diags *d);
int diag_print(struct diags *d);
int diag_print_as(struct diags *d, const char *kind);
/*
 * "probecc: internal error: MSG", then abort(): for a stage that cannot
 * fail on checked input (place) finding that it was not.
 */
void internal_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/*
 * The same without a position ("probecc: error: MSG"), for the CLI edge
 * only (the *main*.c files): fatal() exits 1 (the input was refused),
 * input_error() exits 2 (bad usage, or an input that cannot be read or
 * is not what its option says).
 */
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void input_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* An output that cannot be written: "probecc: error: MSG", exit 2. */
void output_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* At the CLI edge's end: standard output flushed, or output_error(). */
void stdout_flush(void);

/*
 * A library function's error: it returns a negative errno-style code
 * and, when @e is not NULL, the one-line reason goes to e->msg.
 * errmsg_set() returns @code, so that "return errmsg_set(e, -EINVAL,
 * ...)" is the whole error path.
 */
struct errmsg {
	char msg[1024];
};
int errmsg_set(struct errmsg *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Allocation that cannot fail: out of memory prints "probecc: error: out
 * of memory (...)" and exits 2 (fatal()).  A size of 0 allocates one
 * byte, so NULL is never returned.  xrealloc_array() also refuses an
 * @n * @size that would wrap.
 */
void *xmalloc(size_t size);
void *xrealloc(void *p, size_t size);
void *xrealloc_array(void *p, size_t n, size_t size);
void *xcalloc(size_t n, size_t size);
/*
 * The capacity an array of @cap elements grows to so as to hold @need:
 * doubled (from 16) until it does, so appending one at a time stays
 * linear.  Exits as the x* allocators do when it would wrap.
 */
size_t alloc_nr(size_t cap, size_t need);
/*
 * ALLOC_GROW(arr, nr, cap): room for @nr elements in the array @arr of
 * capacity @cap (both lvalues, as git's ALLOC_GROW): grows @arr and @cap
 * when @nr is more than @cap, else nothing.
 */
#define ALLOC_GROW(arr, nr, cap)						\
	do {								\
		if ((size_t)(nr) > (size_t)(cap)) {			\
			(cap) = alloc_nr((size_t)(cap), (size_t)(nr));	\
			(arr) = xrealloc_array((arr), (size_t)(cap),	\
					       sizeof(*(arr)));		\
		}							\
	} while (0)
/* open_memstream() that cannot fail (POSIX 2008: @buf, @len as it says). */
FILE *xopen_memstream(char **buf, size_t *len);
/* Append @s to the array *@arr of *@n (capacity *@cap) strings; not copied. */
void push_str(char ***arr, int *n, int *cap, char *s);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* A growable string; s is always NUL-terminated once used. */
struct strbuf {
	char *s;
	size_t len, cap;
};
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append @n bytes at @bytes (any bytes, NULs too), then a NUL after them. */
void sb_add(struct strbuf *sb, const void *bytes, size_t n);

/* ---- option numbers (argnum.c) ---- */

/*
 * arg_int() - the decimal number @s (digits only: no sign, space or
 * suffix) into *@out when it is in [@min, @max].  Returns 0, -EINVAL
 * (not a number) or -ERANGE (out of range, however many digits: never
 * wrapped into range); *@out is untouched on error.
 */
int arg_int(const char *s, int min, int max, int *out);

/* ---- files (readfile.c) ---- */

/*
 * file_read() - all of @path into *@text, NUL-terminated (the NUL not
 * counted in *@len; @len may be NULL), malloc'd, the caller's.  Returns
 * 0, or -errno with "cannot open PATH: REASON" or "cannot read PATH:
 * REASON" in @e.  file_read_stream() reads an open stream to its end
 * (standard input for "-"), returning 0 or -errno, no message.
 *
 * Every read has a limit, so that an endless stream (/dev/zero, a pipe
 * that never ends) is refused instead of filling memory: file_read_max()
 * and file_read_stream_max() take it in bytes and return -EFBIG ("cannot
 * read PATH: more than MAX bytes, ...") past it; file_read() and
 * file_read_stream() use FILE_READ_MAX.  Readers of a kind of input with
 * a smaller bound (a probe file, a target capture) pass their own.
 */
#define FILE_READ_MAX ((size_t)1 << 30)		/* 1 GiB */
int file_read(const char *path, char **text, size_t *len, struct errmsg *e);
int file_read_max(const char *path, size_t max, char **text, size_t *len,
		  struct errmsg *e);
int file_read_stream(FILE *f, char **text, size_t *len);
int file_read_stream_max(FILE *f, size_t max, char **text, size_t *len);
/*
 * regular_open() - open(2) @path read-only without blocking on a FIFO,
 * and only a regular file: the fd, or -errno (-EINVAL: not a regular
 * file; a FIFO, a device or a directory would block or never end);
 * *@size (when not NULL) its size in bytes, the most a read may take.
 */
int regular_open(const char *path, long long *size);

/* ---- compressed streams (unpack.c) ---- */

struct archive;

/*
 * unpack_whole() - the data of the entry libarchive @a has open (raw
 * format; the caller chose the filters and opened it) read to its end
 * into a malloc'd *@out of *@len bytes, owned by the caller.  The buffer
 * starts at @cap bytes (at least 64 KiB) and doubles; a stream of @max
 * bytes or more is refused.  Returns 0; -EFBIG past @max, -ENOEXEC when
 * libarchive cannot read it (archive_error_string(@a) says why).  On an
 * error *@out is NULL.
 */
int unpack_whole(struct archive *a, size_t cap, size_t max,
		 unsigned char **out, size_t *len);

/* ---- "did you mean" (suggest.c) ---- */

/*
 * edit_distance() - optimal string alignment distance of @a and @b
 * (insert, delete, substitute, swap two adjacent characters: one edit
 * each), or @max + 1 once it is certainly above @max.  Names over 255
 * bytes are always @max + 1.
 */
int edit_distance(const char *a, const char *b, int max);

/* The most edits a suggestion for @want may be: strlen/3 + 1, in 2..4. */
int suggest_limit(const char *want);

#define SUGGEST_MAX 3
/*
 * Suggestions for one name: suggest_init(), suggest_add() for every
 * candidate (kept when within suggest_limit() and among the SUGGEST_MAX
 * closest; ties in name order; @name is borrowed, not copied, and must
 * outlive @sg), then suggest_text(): "; did you mean a, b or c?" (those
 * within one edit of the closest), or "" when nothing was close,
 * malloc'd, the caller's.
 */
struct suggest {
	const char *want;
	int limit;
	int n;
	const char *name[SUGGEST_MAX];
	int dist[SUGGEST_MAX];
};
void suggest_init(struct suggest *sg, const char *want);
void suggest_add(struct suggest *sg, const char *name);
char *suggest_text(const struct suggest *sg);

/* ---- outputs (output.c) ---- */

/*
 * Stage @len bytes of @data (copied; NULs allowed) for @path: written in
 * full to a temporary file in the same directory (so the rename is
 * atomic) and fsync'd.  A file replaced keeps its mode; a new one gets
 * 0666 less the umask.  Standard output ("-", /dev/stdout) and special
 * files are written at out_commit().  Returns 0, or -errno with "cannot
 * write PATH: REASON" (or, -EEXIST, "PATH is named for two outputs") in
 * @e (may be NULL), every file staged so far removed (out_abort()) and
 * nothing left behind.  While files are staged, SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT and SIGPIPE (those not ignored) remove them, then end the
 * process under the handler they had before.
 */
int out_stage(const char *path, const char *data, size_t len,
	      struct errmsg *e);
/*
 * Write the direct outputs, then rename every staged file into place.
 * Returns 0, or -errno with "cannot write PATH: ..." or "cannot rename
 * PATH into place: ..." in @e (may be NULL), what was not yet in place
 * removed.  A second out_stage() of a destination already staged fails
 * (see there).
 */
int out_commit(struct errmsg *e);
/* Remove every staged temporary file; destinations stay untouched. */
void out_abort(void);
/*
 * out_is_input() - output @out and input @in are one file (same device
 * and inode, through any link: /dev/stdout, a hard or symbolic link), so
 * writing @out would overwrite what is read.  False when either is NULL,
 * "-" or not there, or @out is no regular file (/dev/null is not
 * overwritten).
 */
bool out_is_input(const char *out, const char *in);
/*
 * Unlink every staged temporary file, the list kept: async-signal-safe,
 * for a signal handler that ends the process (dumpread/tracedat.c's).
 */
void out_unlink_staged(void);

#endif
