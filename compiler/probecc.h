/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probecc: a boot-time tracing compiler.
 *
 * Data flow, top to bottom (one file a stage):
 *   main.c    reads the probe file and the options
 *   lex.c     text -> tokens
 *   parse.c   tokens -> struct program (checks the language's own rules)
 *   abi.c     argument N -> register / stack slot of the target ABI
 *   dwarf.c   C names (dev->name) -> fetches, from --vmlinux/--sysroot DWARF
 *   fetch.c   struct fetch -> the kernel's fetcharg text
 *   kernel.c  --target / --system-map / --vmlinux / --kconfig -> struct kernel
 *   check.c   struct program + struct kernel: what the kernel will refuse
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
/*
 * The same, without exiting, for checks that report every problem
 * before giving up; @kind is "error" or "note".
 */
void diag_at(const struct pos *p, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same without a position ("probecc: error: MSG"), for CLI errors. */
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * All of @path, NUL-terminated (not counted in
 * *@len), owned by the caller; an unreadable file is fatal, naming it.
 */
char *read_file_or_die(const char *path, size_t *len);

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
	F_VAR,		/* a C name with member accesses: resolved from DWARF (dwarf.c) */
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
	bool string_at;		/* string: the fetch already ends at the string (dwarf.c) */
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

/* ---- the target kernel as it is (kernel.c, vmlinux.c, kconfig.c) ---- */

#define KS_FTRACE	0x1	/* has an mcount/fentry site: ftrace can filter it */
#define KS_BLACKLIST	0x2	/* in the kernel's kprobe blacklist */
#define KS_GLOBAL	0x4	/* binding: global (nm upper case) */

/* One symbol.  Strings are owned by the struct kernel. */
struct ksym {
	char *name;
	unsigned long long addr;
	unsigned long long size;	/* bytes; from ELF, else to the next symbol */
	char type;		/* nm letter, lower case: t (text), w, d, r, b, ... */
	unsigned char flags;	/* KS_* */
	const char *module;	/* NULL: vmlinux; else the module's name */
	int next;		/* next symbol with the same name hash, or -1 */
};

/* An address range [start, end) of the kprobe blacklist. */
struct krange {
	unsigned long long start, end;
};

/*
 * What probecc knows of the target kernel, from any subset of a target
 * capture (docs/plan.md, "Target"), a vmlinux, a System.map, a .config
 * and a modules directory.  Each "known" flag says whether a check that
 * needs it can run; --explain reports the ones that cannot.
 */
struct kernel {
	char *release;		/* "6.1.0-50-4kc-malta"; NULL: unknown */
	char *arch;		/* an --arch name; NULL: unknown */
	struct ksym *syms;
	size_t nsyms, cap;
	int *buckets;		/* name hash -> first symbol index, or -1 */
	size_t nbuckets;
	unsigned long long *mcount;	/* __mcount_loc addresses (vmlinux) */
	size_t nmcount;
	char **ftrace_names;	/* available_filter_functions (target) */
	size_t nftrace_names;
	struct krange *blacklist;
	size_t nblacklist;
	char **events;		/* "group:event", sorted; NULL: unknown */
	size_t nevents;
	char **config;		/* "CONFIG_X=v" lines, sorted; NULL: unknown */
	size_t nconfig;
	bool syms_known, sizes_exact, ftrace_known, blacklist_known;
	bool events_known, modules_known;
	struct strbuf sources;	/* "read ..." / "cannot check ..." lines */
};

struct kernel *kernel_new(void);
/*
 * Append a symbol (@len bytes of @name are copied; @type is the nm
 * letter, upper case for global; @module is kept, not copied).  Index
 * with kernel_index() after the last one.
 */
struct ksym *kernel_add_sym(struct kernel *k, const char *name, size_t len,
			    unsigned long long addr, unsigned long long size,
			    char type, const char *module);
/* Levenshtein distance of @a and @b, or @max + 1 once it exceeds @max. */
int edit_distance(const char *a, const char *b, int max);
/*
 * Loaders: each adds what its input holds and notes it in k->sources.
 * Unreadable or malformed input is fatal, with the path and the line.
 *  - target capture (qemu-images/capture): kallsyms, the functions
 *    ftrace can filter, the kprobe blacklist, events, config.gz
 *  - System.map ("ADDR TYPE NAME"); Debian's placeholder is refused
 *  - vmlinux (libelf): symbols with sizes, __mcount_loc, the blacklist
 *    (_kprobe_blacklist, __kprobes and noinstr text), linux_banner,
 *    machine and endianness, the IKCONFIG blob
 *  - a .config, plain or gzip'd
 *  - a modules directory: FUNC symbols of every *.ko below it
 */
void kernel_load_target(struct kernel *k, const char *path);
void kernel_load_system_map(struct kernel *k, const char *path);
void kernel_load_vmlinux(struct kernel *k, const char *path);
void kernel_load_kconfig(struct kernel *k, const char *path);
void kernel_load_modules(struct kernel *k, const char *dir);
/* A function of a module file: its offset in its code section. */
struct ko_sym {
	char *name;
	char *section;		/* ".text", ".init.text", ... */
	unsigned long long off, size;	/* bytes */
};
/* FUNC symbols of module @name's code sections, below @dir; see vmlinux.c. */
struct ko_sym *ko_symbols(const char *dir, const char *name, size_t *n);
/* Parse .config text (@len bytes) into k->config; @what names it. */
void kernel_set_kconfig(struct kernel *k, const char *text, size_t len,
			const char *what);
/*
 * Inflate the gzip stream of @n bytes at @in (zlib).  Returns a new
 * NUL-terminated buffer (owned by the caller) with its length in
 * *@outlen, or NULL if the data is not a complete gzip stream.
 */
char *kernel_gunzip(const void *in, size_t n, size_t *outlen);
/* Symbols and flags once all loaders ran: sort, size, hash, flag. */
void kernel_index(struct kernel *k);
/* The first symbol named @name (then ->next filtered by name), or NULL. */
const struct ksym *ksym_find(const struct kernel *k, const char *name);
const struct ksym *ksym_next(const struct kernel *k, const struct ksym *s);
/* The symbol whose [addr, addr+size) holds @addr, or NULL. */
const struct ksym *ksym_at(const struct kernel *k, unsigned long long addr);
/* "y", "m", a value, or NULL (not set); k->config NULL: returns NULL. */
const char *kconfig_get(const struct kernel *k, const char *name);
/* 1 when @name is y or m, 0 when not set, -1 when k has no config. */
int kconfig_tristate(const struct kernel *k, const char *name);
/*
 * Up to @max names closest to @name by edit distance (functions only if
 * @funcs), written to @out; returns how many.  Names are k's.
 */
int ksym_suggest(const struct kernel *k, const char *name, bool funcs,
		 const char **out, int max);

/* ---- checks against the kernel (check.c) ---- */

void resolve_uprobes(struct program *prog, const char *sysroot);

/*
 * Report everything in @prog that @k would refuse or that could never
 * match (file:line:col, with did-you-mean candidates) and exit(1) if
 * there was any; notes what could not be checked into @explain.
 */
void check_program(const struct program *prog, const struct kernel *k,
		   const struct target *t, struct strbuf *explain);

/*
 * ---- C names from DWARF (dwarf.c, elfutils libdw) ----
 * Declared here rather than in a dwarf.h: under -Icompiler such a file
 * would shadow elfutils' <dwarf.h>, which dwarf.c needs.
 */

/*
 * dwarf_resolve() - replace every field of @prog written with C names
 * (F_VAR) by the fetch it stands for, and give it the DWARF type unless
 * the field has an explicit ":TYPE".
 *
 * Kprobes use the DWARF of @vmlinux (a path, NULL: none given) and the
 * function's address from @k's symbols; uprobes use the DWARF of
 * @sysroot + the probe's PATH (NULL sysroot: none), after
 * resolve_uprobes().  Fields without C names are left alone, and
 * nothing is opened when there are none.
 *
 * Each resolved field gets f->c_expr (the C text) and a line in
 * @explain saying where every step came from (DWARF location at the
 * probe address -> fetcharg).  Errors (no debug info, no such variable,
 * optimised out, no location at that address, not a pointer, no such
 * member with did-you-mean, a location a fetcharg cannot express) are
 * reported at the name's position, all of them, then exit(1).
 *
 * Ownership: the new fetches and strings belong to @prog (never freed,
 * like the rest of the program).  @k, @t are only read.
 */
void dwarf_resolve(struct program *prog, const struct kernel *k,
		   const char *vmlinux, const char *sysroot,
		   const struct target *t, struct strbuf *explain);

/*
 * dwarf_list_vars() - like perf probe -V: append to @out the
 * parameters and the local variables in scope at @where, with their C
 * types and the fetcharg each one is at (or why it cannot be reached).
 * @where is FUNC[+OFF] (a kernel function, with @vmlinux) or
 * PATH:FUNC[+OFF] (a user program under @sysroot); OFF is in bytes.
 * Returns 0, or 1 after printing "probecc: error: ..." to stderr.
 */
int dwarf_list_vars(const char *where, const struct kernel *k,
		    const char *vmlinux, const char *sysroot,
		    const struct target *t, struct strbuf *out);

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

/* ---- probecc report (report/) ---- */

#include "../report/report.h"

/* "probecc bootargs ..." (bootargs.c) with argv[0] = "bootargs". */
int bootargs_main(int argc, char **argv);

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
