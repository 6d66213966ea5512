/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probecc: a boot-time tracing compiler.
 *
 * Data flow, top to bottom (one file a stage):
 *   main.c    reads the probe file and the options
 *   lex.c     text -> tokens
 *   parse.c   tokens -> struct program (checks the language's own rules)
 *   abi.c     argument N -> register / stack slot of the target ABI
 *   fetch.c   struct fetch -> the kernel's fetcharg text
 *   place.c   struct program + target -> struct placement
 *             (what goes to the cmdline, the bootconfig, the agent plan)
 *   emit.c    struct placement -> cmdline / bootconfig / plan / explain text
 *   output.c  atomic file writes
 */
#ifndef PROBECC_H
#define PROBECC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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
 * Print "FILE:LINE:COL: error: MSG", the source line and a caret under
 * the column to stderr, then exit(1).  Nothing has been written by then:
 * outputs are only written once the whole compilation succeeded.
 */
void error_at(const struct pos *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* The same without a position ("probecc: error: MSG"), for CLI errors. */
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable string; s is always NUL-terminated once used. */
struct strbuf {
	char *s;
	size_t len, cap;
};
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- tokens (lex.c) ---- */

enum tok_kind {
	TK_WORD,	/* [A-Za-z_.][A-Za-z0-9_.*?]* (globs checked by the parser) */
	TK_NUM,		/* decimal or 0x hex, with an optional alphabetic suffix */
	TK_STR,		/* "..." on one line, no escapes; text excludes the quotes */
	TK_PATH,	/* /[A-Za-z0-9_./+-]* */
	TK_PUNCT,	/* one of { } ; : = + - ( ) % @ $ < > */
	TK_NL,		/* end of a line */
	TK_EOF,
};

struct token {
	enum tok_kind kind;
	char *text;		/* owned copy of the token's text */
	unsigned long long num;	/* TK_NUM: the value without the suffix */
	char *suffix;		/* TK_NUM: letters after the digits ("" if none) */
	struct pos pos;
	struct token *next;
};

/* Tokenize @src; errors (bad character, unterminated string) exit. */
struct token *tokenize(const struct source *src);

/* ---- the program (parse.c) ---- */

enum fetch_kind {
	F_ARG,		/* argN: n = N (1-based) */
	F_RETVAL,	/* $retval */
	F_COMM,		/* $comm */
	F_STACK,	/* $stack (the stack pointer) */
	F_STACKN,	/* $stackN: n = N */
	F_REG,		/* %name */
	F_SYM,		/* @name[+-n] */
	F_ADDR,		/* @n: address (kprobe) or file offset (uprobe) */
	F_DEREF,	/* +n(inner) / -n(inner): n is the signed offset */
	F_IMM,		/* an immediate number */
};

struct fetch {
	enum fetch_kind kind;
	long long n;
	char *name;		/* F_REG, F_SYM */
	struct fetch *inner;	/* F_DEREF */
	struct pos pos;
};

struct field {
	char *name;
	struct fetch *fetch;
	char *type;		/* NULL: the kernel's default for the fetcharg */
	struct pos pos, type_pos;
	struct field *next;
};

enum probe_kind { P_KPROBE, P_KRETPROBE, P_UPROBE, P_URETPROBE, P_EVENT };

struct probe {
	enum probe_kind kind;
	char *name;		/* event name; for P_EVENT the EVENT part */
	char *group;		/* "kprobes", "uprobes" or the event's GROUP */
	char *target;		/* kprobe symbol, uprobe path; NULL for events */
	long long offset;	/* kprobe +offset, uprobe file offset */
	bool has_offset;
	struct field *fields;
	bool stack;
	char *filter;		/* NULL if none */
	struct pos pos, filter_pos;
	struct probe *next;
};

/* A list of names (functions, options, init paths) with positions. */
struct name {
	char *s;
	struct pos pos;
	struct name *next;
};

/* "expect ..." lines: checked by probecc report against a dump. */
enum expect_kind {
	E_HITS,		/* TARGET hits OP N [before|after init] */
	E_STACK,	/* TARGET stack has FUNC */
	E_FIELD,	/* TARGET.FIELD == VALUE */
	E_ARMED,	/* every plan item armed */
	E_NOLOST,	/* no ring-buffer overrun or dropped event */
};

enum expect_when { W_ANY, W_BEFORE_INIT, W_AFTER_INIT };

struct expectation {
	enum expect_kind kind;
	char *target;		/* probe name, GROUP:EVENT or function name */
	char *op;		/* E_HITS: ">=", "<=", "==" */
	long long n;		/* E_HITS count */
	enum expect_when when;
	char *func;		/* E_STACK */
	char *field, *value;	/* E_FIELD; value as the trace prints it */
	char *text;		/* the line as written, for reports */
	struct pos pos;
	struct expectation *next;
};

struct program {
	struct name *functions;	/* "function" lines: ftrace_filter */
	struct name *notrace;	/* ftrace_notrace */
	struct name *graph;	/* function_graph: ftrace_graph_filter */
	struct pos tracer_pos;	/* first function/graph line */
	int graph_depth;	/* 0: unset */
	bool func_stack;	/* "stack" on a function line */
	struct name *options;	/* trace and tracer options, as written */
	unsigned long long buffer_size;	/* bytes per CPU; 0: unset */
	char *clock;
	struct pos clock_pos;
	struct probe *probes;
	char *sink;		/* NULL: console */
	unsigned window_ms;	/* 0: no second dump */
	struct name *inits;
	struct expectation *expects;
};

/* Parse the tokens of one file; errors exit with a position. */
struct program *parse(struct token *tok);

/* ---- target ABIs (abi.c) ---- */

struct abi {
	const char *arch;	/* --arch name: mips, mipsel, mips64el, x86_64, arm64, riscv64 */
	const char *abi;	/* o32, n64, sysv, aapcs64, lp64 */
	int long_bytes;		/* sizeof(long): the unit of $stackN */
	int nregs;		/* arguments passed in registers */
	const char *const *argregs;	/* their fetchargs: "%r4" */
	int stack_first;	/* $stackN of the first stack-passed argument */
	const char *const *regnames;	/* every name regs_query_register_offset() accepts, NULL-terminated */
	int cmdline_size;	/* COMMAND_LINE_SIZE */
	const char *source;	/* where the table comes from */
};

/* The ABI of --arch @name, or NULL if unknown. */
const struct abi *abi_find(const char *name);
/* The list of known --arch names, for error messages. */
const char *abi_names(void);
/*
 * Fetcharg text for argument @n (1-based) at function entry: "%r4" or
 * "$stack4".  Integer or pointer arguments of at most one long each;
 * returns a static or interned string.
 */
const char *abi_arg(const struct abi *a, int n);
bool abi_has_reg(const struct abi *a, const char *reg);

/* ---- fetchargs (fetch.c) ---- */

/*
 * The kernel's text for one field, "name=FETCHARG[:TYPE]", for a probe
 * of kind @kind on @a.  Errors that depend on the probe kind (argN at a
 * return, $retval at entry, @sym in a uprobe) exit with the position.
 * Returns a new string.  Rules: Documentation/trace/kprobetrace.rst,
 * uprobetracer.rst, kernel/trace/trace_probe.c:parse_probe_arg().
 */
struct target;
char *fetch_field(const struct field *f, const struct probe *p,
		  const struct target *t);

/* ---- placement (place.c) ---- */

enum via { VIA_CMDLINE, VIA_BOOTCONFIG };

struct target {
	const struct abi *abi;
	int kmajor, kminor;	/* --kernel-version */
	enum via via;		/* where the kernel-side setup goes */
	int cmdline_max;	/* bytes the fragment may use */
	bool arch_default, version_default;
};

/* Kernel features by version (sources in place.c). */
bool kernel_at_least(const struct target *t, int major, int minor);

struct bc_tree;

struct placement {
	struct strbuf cmdline;	/* the fragment, space-separated */
	struct bc_tree *bootconfig;	/* NULL unless VIA_BOOTCONFIG */
	struct strbuf plan;	/* docs/plan.md */
	struct strbuf explain;	/* --explain text */
};

/* Decide where every part of @prog goes for @t. */
struct placement *place(const struct program *prog, const struct target *t);

/* ---- probecc report (report.c) ---- */

/* "probecc report ..." with argv[0] = "report"; returns the exit status. */
int report_main(int argc, char **argv);

/* ---- outputs (output.c) ---- */

/*
 * Stage @len bytes of @data for @path: written in full to a temporary
 * file in the same directory (so the rename is atomic) and fsync'd.
 * Returns 0, or -1 with errno set and nothing left behind.
 */
int out_stage(const char *path, const char *data, size_t len);
/* Rename every staged file into place; -1 with errno on failure. */
int out_commit(void);
/* Remove every staged temporary file; destinations stay untouched. */
void out_abort(void);

#endif
