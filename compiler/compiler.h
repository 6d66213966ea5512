/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compiler/: the probecc compiler, a probe file in, what a boot needs out.
 *
 * Data flow, top to bottom (one file a stage):
 *   main.c    the CLI edge: options, the target kernel loaded (target/),
 *             the stages below run in order, outputs written (common/)
 *   lex.c     text -> tokens
 *   parse.c   tokens -> struct program (checks the language's own rules)
 *   abi.c     argument N -> register / stack slot of the target ABI
 *   fetch.c   struct fetch -> the kernel's fetcharg text
 *   check.c   struct program + struct kernel: what the kernel will refuse
 *   place.c   struct program + target -> struct placement
 *             (what goes to the cmdline, the bootconfig, the agent plan,
 *             and the --explain text)
 * C names in fields are resolved between parse and check by target/cname.c.
 */
#ifndef PROBECC_COMPILER_H
#define PROBECC_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common.h"

/* ---- tokens (lex.c) ---- */

enum tok_kind {
	TK_WORD,	/* [A-Za-z_.][A-Za-z0-9_.*?]* (globs checked by the parser) */
	TK_NUM,		/* decimal or 0x hex, with an optional alphabetic suffix */
	TK_STR,		/* "..." on one line, no escapes; text excludes the quotes */
	TK_PATH,	/* /[A-Za-z0-9_./+-]* */
	TK_PUNCT,	/* one of { } ; : = + - ( ) % @ $ < > [ ] */
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
	F_VAR,		/* a C name with member accesses: resolved from DWARF (target/cname.c) */
};

/* One step of a C access path: .member, ->member, [index]. */
enum access_kind { A_DOT, A_ARROW, A_INDEX };

struct access {
	enum access_kind kind;
	char *member;		/* A_DOT, A_ARROW */
	long long index;	/* A_INDEX */
	struct pos pos;
	struct access *next;
};

struct fetch {
	enum fetch_kind kind;
	long long n;
	char *name;		/* F_REG, F_SYM */
	struct fetch *inner;	/* F_DEREF */
	struct access *path;	/* F_VAR: the accesses after the name, in order */
	struct pos pos;
};

struct field {
	char *name;
	struct fetch *fetch;
	char *type;		/* NULL: the kernel's default for the fetcharg */
	bool string_at;		/* string: the fetch already ends at the string (target/cname.c) */
	char *c_expr;		/* the C expression as written, once resolved from DWARF */
	struct pos pos, type_pos;
	struct field *next;
};

enum probe_kind { P_KPROBE, P_KRETPROBE, P_UPROBE, P_URETPROBE, P_EVENT };

struct probe {
	enum probe_kind kind;
	char *name;		/* event name; for P_EVENT the EVENT part */
	char *group;		/* "kprobes", "uprobes" or the event's GROUP */
	char *target;		/* kprobe symbol, uprobe path; NULL for events */
	long long offset;	/* kprobe +offset, uprobe file offset (or +offset of usym) */
	bool has_offset;	/* uprobe: offset is the file offset */
	char *usym;		/* uprobe PATH:SYMBOL: resolved with --sysroot */
	long long usym_off;	/* the +OFF of PATH:SYMBOL+OFF, kept once resolved */
	struct pos target_pos, usym_pos;
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
/*
 * The kernel's name ("r4", "di") of DWARF register @regno on @a, or
 * NULL when the kernel's regs_query_register_offset() has none for it.
 * Numbering: each arch's psABI DWARF register mapping (see abi.c).
 */
const char *abi_dwarf_reg(const struct abi *a, unsigned regno);
/* DWARF register number of the stack pointer on @a. */
unsigned abi_dwarf_sp(const struct abi *a);
/*
 * The canonical frame address at a function's first instruction is
 * sp + abi_entry_cfa(a) bytes (the psABI's CIE initial rule).
 */
int abi_entry_cfa(const struct abi *a);

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

/* ---- checks against the kernel (check.c) ---- */

struct kernel;

void resolve_uprobes(struct program *prog, const char *sysroot);

/*
 * Report everything in @prog that @k would refuse or that could never
 * match (file:line:col, with did-you-mean candidates) and exit(1) if
 * there was any; notes what could not be checked into @explain.
 */
void check_program(const struct program *prog, const struct kernel *k,
		   const struct target *t, struct strbuf *explain);

/* ---- placement (place.c) ---- */

enum via { VIA_CMDLINE, VIA_BOOTCONFIG };

/* How a "stack" on a kprobe or event is taken (--stack-method). */
enum stack_method {
	STACK_AUTO,	/* perf on MIPS, the kernel's own elsewhere */
	STACK_KERNEL,	/* stacktrace option, trigger or bootconfig action */
	STACK_PERF,	/* the agent's perf callchains (docs/plan.md "perf") */
};

struct target {
	const struct abi *abi;
	int kmajor, kminor;	/* --kernel-version */
	enum via via;		/* where the kernel-side setup goes */
	int cmdline_max;	/* bytes the fragment may use */
	enum stack_method stack_method;
	bool arch_default, version_default;
	/*
	 * From the target's config (--kconfig, a capture's config.gz, a
	 * vmlinux's IKCONFIG): 1 set, 0 not set, -1 unknown (no config).
	 */
	signed char boot_config;	/* CONFIG_BOOT_CONFIG: reads the initrd's bootconfig */
	signed char boottime_tracing;	/* CONFIG_BOOTTIME_TRACING: ftrace.* keys */
	signed char hist_triggers;	/* CONFIG_HIST_TRIGGERS: ftrace.event.*.actions */
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


#endif
