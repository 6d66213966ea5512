/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compiler/: the probecc compiler, a probe file in, what a boot needs out.
 *
 * Data flow, top to bottom (one file a stage):
 *   main.c    the CLI edge: options, the target kernel loaded (target/),
 *             the stages below called in order, outputs staged and
 *             committed (common/); the one place that prints a stage's
 *             errors and exits
 *   lex.c     text -> tokens (first error stops it)
 *   parse.c   tokens -> struct program (the language's own rules; every
 *             statement's first error, listed)
 *             then uprobe offsets (resolve_uprobes(), check.c) and C names
 *             in fields (target/cname.c) are resolved against the target
 *   check.c   struct program + struct target + struct kernel: every rule
 *             the target would refuse, all errors listed in one pass
 *   place.c   checked program + target -> struct placement: where each
 *             part goes (command-line parameters, bootconfig keys, plan
 *             lines, a note per decision), as data; cannot fail on a
 *             checked program
 *   budget.c  the command-line budget (COMMAND_LINE_SIZE): the fragment's
 *             length, used by place, and budget_check() on place's result
 *             (a fragment over budget even without kprobes is refused)
 *   warn.c    placement + kernel -> warnings, not errors: a kprobe the
 *             agent arms on an __init function (freed before /init), a
 *             "function" name the agent's check will find gone
 *   emit.c    struct placement -> the texts: the command-line fragment,
 *             the bootconfig file, the agent's plan, --explain; never
 *             fails but for memory
 * and what the stages share, below them:
 *   fetcharg.c   struct fetcharg -> the kernel's fetcharg text (never fails)
 *   abi.c     argument N -> register / stack slot of the target ABI
 *   options.c trace option and clock names the kernel knows
 * Errors: lex, parse, resolve_uprobes, cname_resolve, check and
 * budget_check record them in a struct diags (common/) and return a
 * count; nothing below main exits on a user error.
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

/*
 * Tokenize @src.  The first error (bad character, unterminated string)
 * goes to @d and stops it: returns NULL.
 */
struct token *tokenize(const struct source *src, struct diags *d);

/* ---- the program (parse.c) ---- */

enum fetcharg_kind {
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

struct fetcharg {
	enum fetcharg_kind kind;
	long long n;
	char *name;		/* F_REG, F_SYM */
	struct fetcharg *inner;	/* F_DEREF */
	struct access *path;	/* F_VAR: the accesses after the name, in order */
	struct pos pos;
};

struct field {
	char *name;
	struct fetcharg *fetcharg;
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

/*
 * Parse the tokens of one file.  Errors go to @d; after one, the parser
 * goes on at the next item of a block or the next statement.  Returns
 * NULL when there was any.
 */
struct program *parse(struct token *tok, struct diags *d);

/* The most plan the agent reads: AGENT_PLAN_MAX of initramfs/agent.h. */
#define PLAN_MAX	(1024 * 1024)

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

/* ---- fetchargs (fetcharg.c) ---- */

/* The kernel limit on one argument's text after "NAME=": MAX_ARGSTR_LEN. */
#define MAX_ARGSTR_LEN	63

/*
 * The kernel's text for one field, "name=FETCHARG[:TYPE]", for a probe
 * of kind @kind on @a.  Never fails: check_program() reports what the
 * kernel would refuse.  Returns a new string.  Rules:
 * Documentation/trace/kprobetrace.rst, uprobetracer.rst,
 * kernel/trace/trace_probe.c:parse_probe_arg().
 */
struct target;
char *fetch_field(const struct field *f, const struct probe *p,
		  const struct target *t);

/* ---- trace options and clocks (options.c) ---- */

struct target;
/* @name (without "no") is a global trace option of trace.h TRACE_FLAGS. */
bool trace_option_is_global(const char *name);
/* The tracer ("function", "function_graph") owning option @name, or NULL. */
const char *trace_option_tracer(const char *name);
/* @name is a trace clock of the target kernel. */
bool trace_clock_known(const struct target *t, const char *name);

/* ---- checks (check.c) ---- */

struct kernel;

/*
 * resolve_uprobes() - every uprobe PATH:SYMBOL[+OFF] to the file offset
 * uprobe_events wants, every PATH:OFFSET checked, against the ELF files
 * under @sysroot (NULL: none given), each file fitting --arch @arch.
 * Problems go to @d; returns their
 * number.
 */
int resolve_uprobes(struct program *prog, const char *sysroot,
		    const char *arch, struct diags *d);

/*
 * check_program() - every rule of the target a checked program must
 * keep, in one pass: fetchargs against the ABI and kernel version,
 * trace options and clocks, what bootconfig can hold, and against @k
 * what the kernel would refuse or could never
 * match (with did-you-mean candidates).  Every problem goes to @d (in
 * any order: diag_print() sorts them); *@kernel_errors counts those
 * against @k.  What could not be checked is noted into @explain.
 * Returns the number of problems: 0 means place() cannot fail (the
 * command-line budget is checked on place()'s result: budget_check()).
 */
int check_program(const struct program *prog, const struct kernel *k,
		  const struct target *t, struct strbuf *explain,
		  struct diags *d, int *kernel_errors);

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

/*
 * Whether the target kernel is @major.@minor or later: the one version
 * test of check, fetcharg, place and target/cname.c (sources of each
 * feature's version where it is tested).
 */
static inline bool kernel_at_least(const struct target *t, int major, int minor)
{
	return t->kmajor > major || (t->kmajor == major && t->kminor >= minor);
}

struct bc_tree;

/* One parameter of the command-line fragment: "ftrace=" "function". */
struct cmdline_param {
	const char *param;	/* with its '=' when it takes a value */
	char *value;		/* "" for a bare parameter ("bootconfig") */
	struct cmdline_param *next;
};

/*
 * One line of the agent's plan (docs/plan.md): @kind ("expect", "arm",
 * "perf") and its tab-separated fields.
 */
struct plan_line {
	const char *kind;
	char *f[5];
	int n;
	struct plan_line *next;
};

/* One line of --explain: a part of the program, where it went, and why. */
struct note {
	char *s;
	struct note *next;
};

/*
 * Where every part of the program goes, as data (emit.c writes it out):
 * the parameters of the command-line fragment, the bootconfig keys, the
 * agent's plan lines, and one note per decision for --explain.
 */
struct placement {
	struct cmdline_param *cmdline;	/* in order */
	struct bc_tree *bootconfig;	/* NULL unless VIA_BOOTCONFIG */
	struct plan_line *plan;		/* expects, then arms */
	struct note *explain;		/* in order */
};

/*
 * Decide where every part of @prog goes for @t.  Cannot fail on a
 * program check_program() passed (an inconsistency is an
 * internal_error()).  Kprobes go on the command line while the fragment
 * stays within t->cmdline_max; when even the smallest fragment (no
 * kprobe on it) is over the budget, that one is returned, and
 * budget_check() refuses it.
 */
struct placement *place(const struct program *prog, const struct target *t);

/* ---- warnings after placement (warn.c) ---- */

struct kernel;
/*
 * warn_placement() - "FILE:LINE:COL: warning:" on stderr for each kprobe
 * @pl has the agent arm on an __init function of @k (freed before /init:
 * it can never fire), with why and where it would work, and for each
 * "function" name of the init text (the agent's check at /init fails);
 * the number of warnings.  Warnings do not change the outputs or the exit status.
 */
int warn_placement(const struct program *prog, const struct kernel *k,
		   const struct target *t, const struct placement *pl);

/* ---- the command-line budget (budget.c) ---- */

/*
 * The length of the fragment emit_cmdline() writes for @pl, in bytes
 * (no terminating NUL).
 */
size_t cmdline_len(const struct placement *pl);
/* The default --cmdline-max of @a: COMMAND_LINE_SIZE less the boot loader's room. */
int budget_default(const struct abi *a);
/*
 * budget_check() - the fragment of @pl fits in t->cmdline_max, or the
 * error goes to @d.  Returns the number of errors (0 or 1).  Run on
 * place()'s result, which is the smallest fragment the program can
 * have when it does not fit.
 */
int budget_check(const struct placement *pl, const struct target *t,
		 struct diags *d);

/* ---- emission (emit.c) ---- */

/* The command-line fragment: the parameters, one space between them. */
char *emit_cmdline(const struct placement *pl);
/*
 * The bootconfig file (lib/bootconfig.c's syntax) into *@text, *@len
 * (malloc'd, the caller's).  Returns 0, or a negative errno with the
 * reason in @e.
 */
int emit_bootconfig(const struct placement *pl, char **text, size_t *len,
		    struct errmsg *e);
/* The agent's plan (docs/plan.md): its head from @prog and @t, then @pl's lines. */
char *emit_plan(const struct program *prog, const struct target *t,
		const struct placement *pl, size_t *len);
/* The --explain text: @pl's notes, one a line, then @checks (check's and cname's notes). */
void emit_explain(const struct placement *pl, const char *checks, FILE *f);

#endif
