/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report-int.h - the report's parts, shared among report/ only:
 *
 *   dump.c         the capture -> struct dump by the dump reader
 *                  (dumpread/dumpread.h), then perf samples joined to
 *                  hits, frames named, user stacks unwound and named
 *                  through --sysroot (facts/ustack.c)
 *   initcall.c     the initcall events paired per initcall and level
 *   baseline.c     boots against a baseline (--baseline, several DUMPs)
 *   expect.c       one verdict per "expect" line of the probe file
 *   boot.c         how the boot ended (the console log, the runner's word,
 *                  the dumps): one verdict and its exit status
 *   text.c         the report for a person (stdout)
 *   json.c, folded.c, svg.c, junit.c, perfetto.c
 *                  one machine output each, written to a FILE *, a row
 *                  each of report-main.c's outputs[] table
 *   escape.c       the outputs' escaping: UTF-8, JSON strings, XML text
 *   report-main.c  the command line, loading, the outputs staged together
 *
 * All state is in struct report, passed down: no globals.  Arrays grow
 * as needed; nothing is cut at a fixed count.
 */
#ifndef PROBECC_REPORT_INT_H
#define PROBECC_REPORT_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "common.h"
#include "compiler.h"
#include "dumpread.h"
#include "kernel.h"

/* How a boot ended: an index into boot_rows[] (boot.c). */
enum boot_end {
	BOOT_CLEAN,
	BOOT_HANG,
	BOOT_PANIC,
	BOOT_QEMU,
	BOOT_REBOOT,
	BOOT_NO_DUMP,
	BOOT_CMDLINE_CUT,
	BOOT_INIT_EXITED,
	BOOT_OOPS,
	BOOT_WINDOW_MISSING,
	BOOT_RC_FAILED,
	BOOT_NR
};

/* A verdict's name, the exit status it gives and what it means. */
struct boot_row {
	const char *name;
	int status;
	const char *what;
};
extern const struct boot_row boot_rows[BOOT_NR];

/* The boot verdict (boot_decide()), when --console or --boot-end was given. */
struct boot {
	bool known;
	enum boot_end end;
	char msg[1024];		/* one line: what ended the boot */
	int init_status;	/* BOOT_INIT_EXITED: PID 1's exit status; -1 a signal */
	int rc_status;		/* "probecc-rc: exit N" of rc/run-rc; -1: none */
	double time;		/* the panic or oops line's printk time; -1 */
	bool panic, oops, poweroff;	/* what the console showed */
	char panic_msg[256], oops_msg[256];
	char task[96];		/* "COMM-PID" of the dying task */
	char pc[160];		/* its EPC/RIP/pc as the kernel printed it */
	char **stack;		/* the death's "Call Trace:", innermost first */
	int nstack, capstack;
	char **tail;		/* the console's last lines */
	int ntail, captail;
};

/*
 * One initcall, paired from the initcall:initcall_start and
 * initcall_finish events (initcall.c): the function, its module, the
 * level initcall_level announced before it ("module" for a module's
 * init from do_init_module()), and its times on the trace clock.
 */
struct initcall {
	char *func;		/* "bonding_init" */
	char *module;		/* "bonding"; NULL: built in */
	const char *level;	/* points into a hit's args, or "module" */
	char *task;		/* the task that ran it (points into its hit) */
	double start, end;	/* seconds; end < 0: no duration (-1: no finish yet) */
	int ret;
	const char *unpaired;	/* why no finish was paired with it, or NULL */
};

/* One initcall level: its initcalls' count and summed durations. */
struct icall_level {
	const char *name;
	double start, end;	/* its initcall_level event to the next, or its last finish */
	double sum;		/* seconds spent in its initcalls */
	int n;
};

/* One verdict per expectation, computed once. */
struct verdict {
	bool ok;
	bool console;	/* ok differs without the hits of the console's ftrace dump */
	char why[512];
};

#define KCIDB_FILES_MAX	16	/* --kcidb-file options */

struct report {
	/* the command line */
	const char *dumppath, *probes, *json, *folded, *svg, *junit, *perfetto;
	const char *kcidb, *kcidb_build;	/* --kcidb OUT, --kcidb-build ID */
	const char *kcidb_files[KCIDB_FILES_MAX];	/* --kcidb-file NAME=URL */
	int nkcidb_files;
	const char *previous;	/* --previous: the next boot's capture */
	char *prev_text;	/* its bytes */
	size_t prev_len;
	const char *sysmap, *target, *vmlinux, *modules_dir;
	const char *sysroot;		/* --sysroot: user ELF files; NULL: none */
	bool all_hits;			/* --hits: every hit's arguments */
	int extract;			/* --extract N; 0: none */
	bool list;			/* --list */
	const char *trace_dat;		/* --trace-dat OUT; NULL: none */
	const char *console;		/* --console LOG: the boot's console log */
	char *console_text;		/* its text, read whole */
	const char *boot_end;		/* --boot-end WORD: what the runner saw */
	const char *append;		/* --append FILE: the command line given */
	char *append_text;		/* its first line */
	bool boot_only;			/* --boot-only: the verdict alone */
	struct boot boot;
	const char **dumps, **bases;	/* every DUMP, and --baseline's */
	int ndumps, nbases;
	bool force;			/* --force: compare boots that are not comparable */

	struct kernel *k;		/* NULL: no kernel symbols */
	unsigned long long kaslr;	/* the boot's _stext minus the symbols' */
	struct program *prog;		/* NULL: no --probes */
	struct dump d;

	const char **names;		/* distinct probes, in order of first hit */
	int nnames;
	struct initcall *ics;		/* initcalls, slowest first */
	int nics, ics_open;		/* paired; of them never finished */
	struct icall_level *levels;	/* in the order the kernel ran them */
	int nlevels;
	struct compare *cmp;		/* --baseline / several DUMPs; NULL: one boot */
	struct verdict *verdicts;	/* one per prog->expects */
	int nexp, failed;
};

/* kcidb.c */
int kcidb_file_check(const char *arg);

/* dump.c: the capture read (dumpread/), then the samples joined and frames named */
void dump_read(struct report *r, char *text, size_t len);
void dump_console_trace(struct report *r, const char *text);
/* Module @name of @d: its "module" line's entry, else a new one without sections. */
struct module *module_named(struct dump *d, const char *name);
/*
 * Module @m's file under --modules, @file (NULL: not known), could not
 * be read, @why (elf_file_open()'s reason): kept for every output (the
 * first reason only).
 */
void module_unread(struct module *m, const char *file, const char *why);

/*
 * The uprobe @name's file and offset: from the "uprobe_events" item the
 * agent wrote, else from the probe file.  *@path is malloc'd; false
 * when neither says.
 */
bool uprobe_def(const struct report *r, const char *name, char **path,
		unsigned long long *off);
/* Is the uprobe @name a uretprobe (its item's "r:" definition, else the probe file)? */
bool uprobe_is_return(const struct report *r, const char *name);
void dump_probe_names(struct report *r);

/* baseline.c */
struct compare;
/* A threshold for a class of metric ("initcall=50ms", "hits=2"): 0 or -EINVAL. */
int compare_threshold(struct compare **c, const char *spec);
void compare_boots(struct compare **c, struct report *const *cur, int ncur,
		   struct report *const *base, int nbase, bool force);
bool compare_comparable(const struct compare *c, const char **why);
int compare_regressions(const struct compare *c);
void compare_text(FILE *f, const struct report *r);
void compare_json(FILE *f, const struct report *r);
void compare_junit(FILE *f, const struct report *r, int *tests, int *failures);

/* initcall.c */
void initcalls_pair(struct report *r);
const struct initcall *initcall_find(const struct report *r, const char *func);
void initcalls_text(FILE *out, const struct report *r, int max);
void initcalls_json(FILE *f, const struct report *r);

/* expect.c */
/* The value of @field in a hit's args ("name=\"bond%d\" ret=-2"), malloc'd, or NULL. */
char *arg_value(const char *args, const char *field);
const struct kcount *kprobe_count(const struct dump *d, const char *target);
int oops_reason(const struct dump *d, char *buf, size_t size);
void expect_all(struct report *r);

/*
 * stacks_from_probed() - every kernel stack of @d's hits of a function
 * or kprobe starts at the probed function: the tracing machinery's
 * frames above it are dropped, and a stack of those frames alone is cut
 * (no frames; hit.cut_frame and hit.cut_why say what and the way to a
 * real one).  A static event's stack and one without the probed
 * function's frame (a tail call) stay as they are.  (stackrule.c)
 */
void stacks_from_probed(struct dump *d);

/* boot.c */
int boot_runner_word(const char *word);
void boot_decide(struct report *r);
bool window_missing(const struct report *r);
void boot_rows_print(FILE *f);
int boot_last_events(const struct report *r, int n);

/* text.c */
void text_write(FILE *out, const struct report *r);
void text_summary(FILE *out, const struct report *r);

/* escape.c */
int utf8_len(const unsigned char *s);

void json_string(FILE *f, const char *s);
void xml_escaped(FILE *f, const char *s);

/* json.c, folded.c, svg.c, junit.c, perfetto.c: the outputs */
void json_write(FILE *f, const struct report *r);
void json_value(FILE *f, const char *v, size_t n);
void json_fields(FILE *f, const char *args);
void perfetto_write(FILE *f, const struct report *r);
void kcidb_write(FILE *f, const struct report *r);
void folded_write(FILE *f, const struct report *r);
void svg_write(FILE *f, const struct report *r);
void junit_write(FILE *f, const struct report *r);

#endif
