/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compiler/: the probecc compiler, a probe file in, what a boot needs out.
 *
 * Data flow, top to bottom (one file a stage), as cli/compile.c (the
 * CLI edge above this folder: options, the target kernel's facts loaded
 * from facts/, outputs staged and committed) runs them:
 *   lex.c     text -> tokens (first error stops it)
 *   parse.c   tokens -> struct program (the language's own rules; every
 *             statement's first error, listed)
 *   resolve.c what the program names in the target's terms, against the
 *             target's facts: uprobe PATH:SYMBOL to file offsets and each
 *             file's ABI (resolve_uprobes(), facts/uelf.c), C names in
 *             fields to fetchargs (resolve_cnames(), facts/debuginfo.c)
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
 *   initrd.c  --initrd: the user's initrd, the overlay cpio, the bootconfig
 * and what the stages share, below them:
 *   fetcharg.c   struct fetcharg -> the kernel's fetcharg text (never fails)
 *   abi.c     argument N -> register / stack slot of the target ABI
 *   options.c trace option and clock names the kernel knows
 *   kfeatures.c  what the target's probe events take past 6.1 (BTF
 *             argument names, $argN at a return), and from what evidence
 * Errors: lex, parse, resolve_uprobes, resolve_cnames, check and
 * budget_check record them in a struct diags (common/) and return a
 * count; nothing in this folder exits on a user error.
 */
#ifndef PROBECC_COMPILER_H
#define PROBECC_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common.h"
#include "plan.h"

/* taken by the functions of stages declared before them: struct probe and
 * struct target below, struct kernel in facts/kernel.h */
struct kernel;
struct probe;
struct target;

/* ---- tokens (lex.c) ---- */

enum tok_kind {
	TK_WORD,	/* [A-Za-z_.][A-Za-z0-9_.*?]* (globs checked by the parser) */
	TK_NUM,		/* decimal or 0x hex, with an optional alphabetic suffix */
	TK_STR,		/* "..." on one line, no escapes; text excludes the quotes */
	TK_PATH,	/* /[A-Za-z0-9_./+-]* */
	TK_PUNCT,	/* one of { } ; : = + - ( ) % @ $ < > [ ] ! */
	TK_NL,		/* end of a line */
	TK_EOF,
};

struct token {
	enum tok_kind kind;
	char *text;		/* owned copy of the token's text */
	unsigned long long num;	/* TK_NUM: the value without the suffix */
	char *suffix;		/* TK_NUM: letters after the digits ("" if none) */
	char *frac;		/* TK_NUM: the digits after "." of a duration ("2.5s"); NULL: none */
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
	F_VAR,		/* a C name with member accesses: resolved from DWARF (compiler/resolve.c) */
	F_BTF,		/* a C name the kernel resolves from its BTF: name is the text ("dev->name") */
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
	bool string_at;		/* string: the fetch already ends at the string (compiler/resolve.c) */
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
	const struct abi *abi;	/* uprobe: its file's ABI (resolve_uprobes()); NULL: the kernel's (probe_abi()) */
	char *abi_why;		/* uprobe: what the file's header said, for --explain */
	char *usym_why;		/* uprobe: its symbol read from a separate debug file, for --explain; NULL: from the program */
	char *ustack_why;	/* uprobe: the files 'stack has' names were checked in, for --explain */
	struct pos target_pos, usym_pos;
	struct field *fields;
	bool stack;
	unsigned int ustack;	/* "stack BYTES", "stack user BYTES": user stack copied; 0: default */
	bool stack_user;	/* kprobe "stack user": the hit's task's user stack too */
	struct pos stack_user_pos;	/* that "user" */
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
	E_STACK,	/* TARGET stack has FUNC (an ftrace glob allowed) */
	E_FIELD,	/* TARGET.FIELD OP VALUE, OP one of == != < <= > >= */
	E_ARMED,	/* every plan item armed */
	E_NOLOST,	/* no ring-buffer overrun or dropped event */
	E_FIRST,	/* TARGET first OP DURATION: its first hit's time */
	E_INIT,		/* init OP DURATION: userspace's start */
	E_INITCALL,	/* initcall NAME OP DURATION: the initcall's duration */
};

/* Which hits an E_FIELD expectation covers. */
enum expect_quant { Q_SOME, Q_FIRST, Q_EVERY };

enum expect_when { W_ANY, W_BEFORE_INIT, W_AFTER_INIT };

struct expectation {
	enum expect_kind kind;
	char *target;		/* probe name, GROUP:EVENT or function name */
	char *op;		/* E_HITS: ">=", "<=", "=="; E_FIELD: also "!=", "<", ">" */
	long long n;		/* E_HITS count */
	enum expect_when when;
	char *func;		/* E_STACK: a function name or an ftrace glob */
	struct pos func_pos;
	char *field, *value;	/* E_FIELD; a string value keeps its quotes */
	enum expect_quant quant;	/* E_FIELD: some hit (default), the first, every */
	unsigned long long us;	/* E_FIRST, E_INIT, E_INITCALL: the duration, microseconds */
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
	struct pos func_stack_pos;	/* that "stack" */
	struct name *options;	/* trace and tracer options, as written */
	unsigned long long buffer_size;	/* bytes per CPU; 0: unset */
	struct pos buffer_pos;
	char *clock;
	struct pos clock_pos;
	struct probe *probes;
	char *sink;		/* NULL: console */
	bool dump_raw;		/* "dump SINK raw": binary ring-buffer pages (docs/plan.md "Raw dump") */
	bool dump_text;		/* "dump SINK text": the text form, said outright */
	bool dump_raw_implied;	/* raw because of 'graph', the file naming no form */
	unsigned window_ms;	/* 0: no second dump */
	bool capture;		/* "capture": the agent writes a target frame */
	int crash_dump;		/* "crash dump" 1, "crash nodump" -1, unset 0 */
	unsigned panic_on;	/* "panic on ...": PANIC_ON_* */
	/*
	 * "persist off" (true) or "persist SIZE" (persist_size bytes): the
	 * persistent ring buffer of 6.12+ (place.c persist())
	 */
	bool persist_off;
	unsigned long long persist_size;	/* 0: the default */
	struct pos persist_pos;
	struct name *inits;
	struct expectation *expects;
	bool initcalls;			/* "initcalls": the initcall events from boot */
	struct pos initcalls_pos;
	/*
	 * "instance NAME": probecc's events go into the tracefs instance
	 * NAME (instances/NAME/), not the top buffer, and the agent dumps
	 * that instance (place.c instance rules); NULL: the top buffer
	 */
	char *instance;
	struct pos instance_pos;
};

/*
 * The longest "instance" name: the agent keeps "instances/NAME/" in a
 * fixed buffer (initramfs/agent.h AGENT_NAME_MAX, 64 with its NUL).
 */
#define INSTANCE_NAME_MAX	63

/* What "panic on" turns into a panic (kernel parameters, place.c). */
enum {
	PANIC_ON_OOPS = 1,		/* oops=panic */
	PANIC_ON_WARN = 2,		/* panic_on_warn=1 */
	PANIC_ON_SOFTLOCKUP = 4,	/* softlockup_panic=1 */
	PANIC_ON_HUNG_TASK = 8,		/* hung_task_panic=1 */
};

/*
 * Parse the tokens of one file.  Errors go to @d; after one, the parser
 * goes on at the next item of a block or the next statement.  Returns
 * NULL when there was any.
 */
struct program *parse(struct token *tok, struct diags *d);

/* PLAN_MAX, the most plan the agent reads, is common/plan.h's. */

/* ---- target ABIs (abi.c) ---- */

struct abi {
	const char *arch;	/* --arch name, a row of common/arch.def */
	const char *abi;	/* o32, n64, sysv, aapcs64, lp64 */
	int long_bytes;		/* sizeof(long): the unit of $stackN */
	int nregs;		/* arguments passed in registers */
	const char *const *argregs;	/* their fetchargs: "%r4" */
	int stack_first;	/* $stackN of the first stack-passed argument */
	const char *const *regnames;	/* every name regs_query_register_offset() accepts, NULL-terminated */
	int cmdline_size;	/* COMMAND_LINE_SIZE */
	const char *source;	/* where the table comes from */
	/*
	 * A user ABI under a 64-bit kernel (abi_user()): the bytes of one
	 * stack slot (0: long_bytes), and the type an argument without one
	 * is read as (NULL: the kernel's default, x32 or x64 by its long).
	 */
	int slot_bytes;
	const char *arg_type;
	const struct arch_quirks *quirks;	/* its kernel's */
};

/*
 * What a kernel of the arch does its own way: its row's fields in
 * common/arch.def, which says each (and from where).
 */
struct arch_quirks {
	const char *const *dwarf;	/* DWARF number -> a regnames name (NULL: none) */
	unsigned int ndwarf;
	unsigned int dwarf_sp;		/* the sp's DWARF number */
	int entry_cfa;			/* CFA - sp at a function's entry, bytes */
	const char *clocks;		/* ARCH_TRACE_CLOCKS: "x86-tsc", "" */
	bool arg_access;		/* HAVE_FUNCTION_ARG_ACCESS_API */
	bool user_stacks;		/* USER_STACKTRACE_SUPPORT */
	const char *uret_retval;	/* a uretprobe's return value: "$retval", "%r2" */
	bool kstack_perf;		/* kprobes' kernel stacks truncated: perf callchains */
	bool ftrace_entry;		/* the ftrace patch site is a function's entry */
	bool kprobe_nmi;		/* kprobe handlers run as NMIs */
	const struct reg_alias *reg_aliases;	/* NULL-ended, or NULL */
	const char *reg_prefixes;	/* letters before a known name: "re" */
};

/* An ABI register name the kernel does not accept, and the one it does. */
struct reg_alias {
	const char *alias, *reg;
};

/* The ABI of --arch @name, or NULL if unknown. */
const struct abi *abi_find(const char *name);
/*
 * abi_user() - the ABI a program of user ABI @uabi ("o32", "n32",
 * "n64"... as uelf_check_arch() names it, facts/uelf.h) follows under
 * a kernel of ABI @kernel: @kernel itself when they are the same (or
 * @uabi is NULL), an o32 or n32 table under a 64-bit MIPS kernel, NULL
 * for a pair probecc has no table for.  Static result.  Sources:
 * o32 SysV MIPS psABI ch. 3, n32 MIPSpro N32/N64 ABI Handbook ch. 2.
 */
const struct abi *abi_user(const struct abi *kernel, const char *uabi);
/*
 * probe_abi() - the one answer to "which ABI do @p's arguments follow":
 * a uprobe's file's (p->abi, set by resolve_uprobes() from the ELF
 * header), else the kernel's (t->abi; kprobes, and uprobes without
 * --sysroot).  Static result, never NULL.
 */
const struct abi *probe_abi(const struct probe *p, const struct target *t);
/*
 * Whether @a's stack slots are narrower than the kernel's long (o32
 * under a 64-bit kernel): its stack arguments are "+OFF($stack)", read
 * whole only with a 4-byte type, and cannot be dereferenced (the
 * kernel's inner dereference reads a long: trace_probe_tmpl.h).
 */
bool abi_narrow_slots(const struct abi *a);
/* Whether argument @n (1-based) of @a is passed on the stack. */
bool abi_arg_on_stack(const struct abi *a, int n);
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

/*
 * bitfield_type() - the fetcharg of a bitfield of @width bits that starts
 * @start bits after a base (bits numbered in memory order, as DWARF's
 * DW_AT_data_bit_offset and BTF's member offsets are): the smallest
 * aligned container of 8, 16, 32 or 64 bits holding every bit of it, at
 * *@byte_off bytes from the base, and @type (@tlen bytes) its kernel type
 * "b<width>@<shift>/<container bits>", the shift counted from the
 * container's least significant bit, so from its other end on a
 * big-endian kernel (Documentation/trace/kprobetrace.rst, "bitfield").
 * False when no container of 64 bits holds it.
 */
bool bitfield_type(long long start, unsigned width, bool big_endian,
		   long long *byte_off, char *type, size_t tlen);

/* The kernel limit on one argument's text after "NAME=": MAX_ARGSTR_LEN. */
#define MAX_ARGSTR_LEN	63

/*
 * The kernel's text for one field, "name=FETCHARG[:TYPE]", for a probe
 * of kind @kind on @a.  Never fails: check_program() reports what the
 * kernel would refuse.  Returns a new string.  Rules:
 * Documentation/trace/kprobetrace.rst, uprobetracer.rst,
 * kernel/trace/trace_probe.c:parse_probe_arg().
 */
char *fetch_field(const struct field *f, const struct probe *p,
		  const struct target *t);

/*
 * How the kernel prints a field, for comparing what a hit took with an
 * expectation's value (probecc report): VK_STRING for string, ustring,
 * symbol and $comm ("..." or sym+off), VK_SIGNED for sN (decimal),
 * VK_UNSIGNED for uN, xN, bitfields and the default type of every other
 * fetcharg (xBITS_PER_LONG: "0x164"), VK_UNKNOWN for a C name without a
 * ":TYPE" (its type comes from DWARF at compile time) and for a static
 * event's own fields.  *@bits gets N of the type, 0 when the type does not
 * say (the default's width is the target's long).  Source: the print
 * formats of kernel/trace/trace_probe.c (probe_fetch_types).
 */
enum value_kind { VK_UNKNOWN, VK_STRING, VK_SIGNED, VK_UNSIGNED };
enum value_kind field_value_kind(const struct field *f, int *bits);

/* ---- trace options and clocks (options.c) ---- */

/* @name (without "no") is a global trace option of trace.h TRACE_FLAGS. */
bool trace_option_is_global(const char *name);
/* The tracer ("function", "function_graph") owning option @name, or NULL. */
const char *trace_option_tracer(const char *name);
/* @name is a trace clock of the target kernel. */
bool trace_clock_known(const struct target *t, const char *name);

/* ---- what the target kernel's probe events take (kfeatures.c) ---- */

/*
 * kernel_btf_names() - whether the kernel of @t resolves the C names of
 * a probed function's arguments from its own BTF (PROBE_EVENTS_BTF_ARGS,
 * 6.5; with @fields, their members through "->" and ".", 6.6): 1 or 0,
 * and *@why (static or new, never freed) says from what: the arch, the
 * version, the capture's tracefs README, the config, or assumed.
 */
int kernel_btf_names(const struct target *t, bool fields, const char **why);
/*
 * kernel_ret_args() - whether a kretprobe of the kernel of @t takes
 * $argN (and BTF names), the entry's arguments kept by the kernel
 * (6.10; trace_probe.c store_trace_entry_data()): 1 or 0, *@why as above.
 */
int kernel_ret_args(const struct target *t, const char **why);

/* ---- the resolve phase (resolve.c) ---- */


/*
 * resolve_uprobes() - every uprobe PATH:SYMBOL[+OFF] to the file offset
 * uprobe_events wants, every PATH:OFFSET checked, against the ELF files
 * under @sysroot (NULL: none given), each file fitting the kernel of
 * ABI @kabi (--arch).  Sets each such uprobe's p->abi to its file's ABI
 * (abi_user() of uelf_check_arch_desc()'s answer) and p->abi_why to
 * what the ELF header said.  Problems go to @d; returns their number.
 * Without @sysroot, an offset that looks like a virtual address
 * (UELF_VADDR_HINT) is a warning into @warn.
 */
int resolve_uprobes(struct program *prog, const char *sysroot,
		    const struct abi *kabi, struct diags *d, struct diags *warn);

/*
 * resolve_cnames() - replace every field of @prog written with C names
 * (F_VAR) by the fetch it stands for, and give it the DWARF type unless
 * the field has an explicit ":TYPE".
 *
 * Kprobes use the DWARF of @vmlinux (a path, NULL: none given) and the
 * function's address from @k's symbols; with no @vmlinux, a kprobe at
 * a function's entry or a kretprobe on a kernel that resolves C names
 * from its own BTF (kernel_btf_names(), kernel_ret_args()) keeps them
 * as the kernel's text (F_BTF, "dev->name"); uprobes use the DWARF of
 * @sysroot + the probe's PATH (NULL sysroot: none), after
 * resolve_uprobes().  Fields without C names are left alone, and
 * nothing is opened when there are none.
 *
 * Each resolved field gets f->c_expr (the C text) and a line in
 * @explain saying where every step came from (DWARF location at the
 * probe address -> fetcharg).  Errors (no debug info, no such variable,
 * optimised out, no location at that address, not a pointer, no such
 * member with did-you-mean, a location a fetcharg cannot express, a
 * debug file that cannot be opened) all go to @d, at the name's
 * position where there is one; returns their number (the caller prints
 * them and stops: nothing here exits).
 *
 * Ownership: the new fetches and strings belong to @prog (never freed,
 * like the rest of the program).  @k, @t are only read.
 */
int resolve_cnames(struct program *prog, const struct kernel *k,
		  const char *vmlinux, const char *sysroot,
		  const struct target *t, struct strbuf *explain,
		  struct diags *d);

/* ---- C names from the kernel's BTF (btfname.c) ---- */

struct kbtf;

/*
 * btf_resolve_probe() - the C names of kprobe @p (F_VAR fields) from
 * the kernel's BTF @b: the parameter by its position in the prototype
 * (argN), members by their offsets, the type from the last one (a char
 * array as a string, an int by its size and sign, a pointer xN, a
 * bitfield b<w>@<bit>/<bits>), as resolve_cnames() does from DWARF.
 * Only at a function's entry (offset 0) of a function of @b.  A line
 * per field in @explain; errors (no such function, parameter or member
 * with did-you-mean, not a pointer, a parameter after a struct or a
 * register pair) in @d; returns their number.
 */
/*
 * btf_for_function() - the BTF that has function @func: @t->btf when the
 * kernel's own BTF has it, else, for a function the kernel has only in
 * module M (its symbols, --modules), M's BTF split on the kernel's (the
 * .BTF of M.ko under @t->modules, facts/btf.h kbtf_open_module()), read
 * once and kept in @t->btf_mods.  NULL with why in @why (a module with
 * no file, no .BTF, another release's; no --modules), or "" when @func
 * is neither the kernel's nor a module's.
 */
const struct kbtf *btf_for_function(const struct target *t, const char *func,
				    char *why, size_t n);
/* btf_modules_new() - an empty set of modules' BTF for struct target (never freed: the compiler's life). */
struct btf_modules *btf_modules_new(void);

int btf_resolve_probe(const struct kbtf *b, struct probe *p,
		      const struct target *t, struct strbuf *explain,
		      struct diags *d);

/*
 * btf_check_raw() - for every field written +OFF(argN):TYPE of a kprobe
 * at the entry of a function of @b whose parameter N points to a struct
 * or union: a warning in @warn when no member there can be read as
 * TYPE (":string" wants a char array, uN/sN/xN a whole member of N/8
 * bytes or an element of such an array), naming the member at OFF and
 * where a member named like the field is.  Returns the warnings.
 */
int btf_check_raw(const struct kbtf *b, const struct program *prog,
		  const struct target *t, struct diags *warn);

/*
 * resolve_list_vars() - like perf probe -V: append to @out the
 * parameters and the local variables in scope at @where, with their C
 * types and the fetcharg each one is at (or why it cannot be reached).
 * @where is FUNC[+OFF] (a kernel function, with @vmlinux) or
 * PATH:FUNC[+OFF] (a user program under @sysroot); OFF is in bytes.
 * Returns 0, or 1 after printing "probecc: error: ..." to stderr.
 */
int resolve_list_vars(const char *where, const struct kernel *k,
		    const char *vmlinux, const char *sysroot,
		    const struct target *t, struct strbuf *out);

/* ---- checks (check.c) ---- */


/*
 * check_program() - every rule of the target a checked program must
 * keep, in one pass: fetchargs against the ABI and kernel version,
 * trace options and clocks, what bootconfig can hold, and against @k
 * what the kernel would refuse or could never
 * match (with did-you-mean candidates).  Every problem goes to @d (in
 * any order: diag_print() sorts them); *@kernel_errors counts those
 * against @k.  What could not be checked is noted into @explain; what
 * is allowed but will not do what it says (a uprobe's "stack" where the
 * kernel keeps no user stack) goes to @warn, which does not count.
 * Returns the number of problems: 0 means place() cannot fail (the
 * command-line budget is checked on place()'s result: budget_check()).
 */
int check_program(const struct program *prog, const struct kernel *k,
		  const struct target *t, struct strbuf *explain,
		  struct diags *d, struct diags *warn, int *kernel_errors);

/*
 * check_field_fetch() - the rules of check_program() for one field @f of
 * probe @p alone, on the kernel of @t (@p->abi: a uprobe's program's ABI,
 * NULL for the kernel's); for --vars.  Problems go to @d; returns their
 * number.
 */
int check_field_fetch(const struct field *f, const struct probe *p,
		      const struct target *t, struct diags *d);

/*
 * probe_named() - the kprobe, kretprobe, uprobe or uretprobe of @prog
 * called @name (a plan line's PROBE field); NULL when none is (an event
 * line's "group:name" is not one).  Borrowed from @prog.  O(probes).
 */
const struct probe *probe_named(const struct program *prog, const char *name);

/*
 * user_stacks_kept() - whether the kernel of @t records a user stack
 * (the userstacktrace option, "stack" on a uprobe): its config's
 * CONFIG_USER_STACKTRACE_SUPPORT when @k has the config, else x86_64
 * only (6.1: x86 and loongarch select it; ftrace_trace_userstack(),
 * kernel/trace/trace.c, records nothing elsewhere).
 */
bool user_stacks_kept(const struct kernel *k, const struct target *t);

/*
 * module_only_function() - the module of function @name when the kernel
 * has it only in modules: @k knows the kernel's own symbols (a target,
 * vmlinux or System.map) and the modules' (--modules, or a capture
 * taken with them loaded), and every function of that name is a
 * module's.  ftrace can filter such a function only once its module is
 * loaded (kernel/trace/ftrace.c: match_records() walks the loaded
 * ftrace records), so an append at /init, before any module loads, is
 * refused.  Returns the module name (owned by @k), or NULL: a
 * vmlinux function, a name @k does not know, or @k NULL.
 */
const char *module_only_function(const struct kernel *k, const char *name);

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
	/*
	 * Where cmdline_max comes from, said by a front end that computed
	 * it (PROBECC_CMDLINE_MAX_FROM, run-probes: the machine's room);
	 * "--cmdline-max": the option; NULL: probecc's default.
	 */
	const char *cmdline_max_from;
	enum stack_method stack_method;
	bool crash_dump;	/* --crash-dump: ftrace_dump_on_oops unless "crash nodump" */
	bool arch_default, version_default;
	/*
	 * From the target's config (--kconfig, a capture's config.gz, a
	 * vmlinux's IKCONFIG): 1 set, 0 not set, -1 unknown (no config).
	 */
	signed char boot_config;	/* CONFIG_BOOT_CONFIG: reads the initrd's bootconfig */
	signed char boottime_tracing;	/* CONFIG_BOOTTIME_TRACING: ftrace.* keys */
	signed char hist_triggers;	/* CONFIG_HIST_TRIGGERS: ftrace.event.*.actions */
	bool overlay;		/* --initrd: the agent is rdinit=OVERLAY_INIT */
	const char *vmlinux;	/* --vmlinux: its DWARF tells inlined functions; NULL: none */
	const struct kernel *k;	/* what is known of the kernel's symbols; never NULL in main.c */
	/* the kernel's BTF (--btf, a capture's btf): C names without DWARF; NULL: none */
	const struct kbtf *btf;
	const char *modules;	/* --modules DIR: the modules' files (their BTF); NULL: none */
	struct btf_modules *btf_mods;	/* modules' BTF read so far (btfname.c); NULL: none read */
};

/* Where the overlay puts the agent (initrd.c, initramfs/agent.c). */
#define OVERLAY_INIT	"/probecc/init"

/*
 * Whether the target kernel is @major.@minor or later: the one version
 * test of check, fetcharg, place and resolve.c (sources of each
 * feature's version where it is tested).
 */
static inline bool kernel_at_least(const struct target *t, int major, int minor)
{
	return t->kmajor > major || (t->kmajor == major && t->kminor >= minor);
}

struct bc_tree;

/*
 * One statement's share of a command-line parameter's value, for
 * budget_check()'s breakdown: where it was asked for (pos.src NULL:
 * by an option, such as --initrd's rdinit=) and the bytes it adds,
 * with its separator.
 */
struct cmdline_use {
	struct pos pos;
	size_t bytes;
	struct cmdline_use *next;
};

/* One parameter of the command-line fragment: "ftrace=" "function". */
struct cmdline_param {
	const char *param;	/* with its '=' when it takes a value */
	char *value;		/* "" for a bare parameter ("bootconfig") */
	struct cmdline_use *uses;	/* the statements that make the value, in order */
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

/*
 * warn_placement() - a warning into @warnings (printed with the file's
 * other warnings, at most --error-limit of them) for each kprobe
 * @pl has the agent arm because the command line had no room left (its
 * hits before /init are missed), for each kprobe
 * @pl has the agent arm on an __init function of @k (freed before /init:
 * it can never fire), with why and where it would work, and for each
 * "function" name of the init text (the agent's check at /init fails);
 * the number of warnings.  Warnings do not change the outputs or the exit status.
 */
int warn_placement(const struct program *prog, const struct kernel *k,
		   const struct target *t, const struct placement *pl,
		   struct diags *warnings);

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
 * error goes to @d (the bytes of each parameter), to @notes a note at
 * each statement that takes room (its bytes), and to @hints the ways
 * out that apply to @t (bootconfig only when the kernel may have
 * CONFIG_BOOT_CONFIG; --cmdline-max only when the budget is probecc's
 * own default or option, not a front end's: t->cmdline_max_from).
 * Returns the number of errors (0 or 1).  Run on place()'s result,
 * which is the smallest fragment the program can have when it does
 * not fit.
 */
int budget_check(const struct placement *pl, const struct target *t,
		 struct diags *d, struct diags *notes, struct diags *hints);

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

/* ---- the overlay initrd (initrd.c) ---- */

/*
 * agent_find() - the path of the agent for @arch (a name such as mipsel),
 * found from this probecc (/proc/self/exe): installed,
 * BINDIR/../lib/probecc/ARCH/agent (make install), else
 * initramfs/agent-ARCH beside a checkout's binary.  Writes the resolved
 * path into @out (@size bytes).  Returns 0, or -EINVAL (a bad name),
 * -ENOENT (both places named in @e), -ENAMETOOLONG.
 */
int agent_find(const char *arch, char *out, size_t size, struct errmsg *e);

/*
 * initrd_read_base() - all of --base-initrd @path into *@data (malloc'd,
 * NUL-terminated, *@len bytes not counting it), once its first bytes
 * (after up to 512 zero bytes) are what the kernel unpacks: a newc cpio
 * or one of the compressions it knows.  Returns 0, or -EINVAL ("PATH is
 * not an initramfs: ...", also for /dev/zero), -errno or -EFBIG (over
 * FILE_READ_MAX) with the reason in @e.
 */
int initrd_read_base(const char *path, char **data, size_t *len,
		     struct errmsg *e);

/* What initrd_build() puts together; all borrowed, none freed. */
struct initrd_parts {
	const unsigned char *base;	/* the user's initrd, or NULL */
	size_t base_len;
	const char *base_name;		/* its path, for messages */
	const void *agent;		/* the agent binary */
	size_t agent_len;
	const char *plan;		/* the plan text */
	size_t plan_len;
	const char *bootconfig;		/* bootconfig text (C string) or NULL */
	int order;			/* its footer's byte order: enum bc_order,
					 * bc_footer_order() of the target */
};

/*
 * initrd_build() - the final initrd: @p->base, zero-padded to 4 bytes,
 * then the overlay cpio (newc: probecc/init, probecc/plan), then the
 * bootconfig with its footer, last (the order and its reasons: the top
 * of initrd.c).  *@out is malloc'd (the caller frees it), *@len bytes.
 * Returns 0, or -errno with the reason in @e: a corrupt bootconfig
 * footer at the end of the base (-EINVAL), a bootconfig in both the base
 * and the probe file (-EEXIST), -ENOMEM, -EIO (libarchive).
 */
int initrd_build(const struct initrd_parts *p, unsigned char **out,
		 size_t *len, struct errmsg *e);

#endif

