/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report-int.h - the report's parts, shared among report/ only:
 *
 *   frame.c        the raw capture -> its framed dumps, checked (lengths,
 *                  CRC-32s, nonce: common/dumpframe.h)
 *   tracedat.c     raw dumps -> trace.dat (through trace-cmd restore)
 *   events.c       raw dumps -> hits, each record decoded by its format
 *                  file (libtracecmd, libtraceevent)
 *   dump.c         the dumps -> struct dump (manifest lines, trace hits,
 *                  perf samples joined to hits, frames named, user
 *                  stacks named through --sysroot)
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
#include "dumpframe.h"
#include "compiler.h"
#include "kernel.h"

struct hit {
	char *probe;		/* event name, or the traced function */
	char *task;
	double ts;		/* seconds since boot */
	char *args;		/* the body after "NAME: " ("" for functions) */
	char *parent;		/* function tracer: the caller after "<-" */
	char **frames;		/* the <stack trace>, innermost first */
	int nframes, capframes;
	bool stack;		/* a <stack trace> followed */
	bool perf;		/* frames are a perf callchain */
	char **uframes;		/* the <user stack trace>, innermost first */
	int nuframes, capuframes;
	bool ustack;		/* a <user stack trace> followed */
	bool console;		/* from the kernel's ftrace dump on the console only */
};

/*
 * A "perf" line: one sample of a probe with its kernel callchain; or a
 * "perf-user" line: one with the user registers (the bits of umask in
 * order, arch/ARCH/include/uapi/asm/perf_regs.h) and stack copy.
 */
struct sample {
	char *probe;
	double ts;		/* seconds, perf's clock (local_clock) */
	long pid;		/* the task (TID) */
	long tgid;		/* its process (PID), as "perf-mmap" lines' */
	unsigned long long *addrs;
	int n;
	bool user;		/* a "perf-user" line */
	bool kernel;		/* ... of a kernel probe ("stack user"): addrs its kernel callchain */
	int machine;		/* ELF e_machine of the dump's arch (EM_NONE: unknown) */
	unsigned long long umask, *uregs;
	int nuregs;
	unsigned char *ustack;	/* the bytes from the user stack pointer up */
	size_t nustack;
};

/*
 * A "perf-mmap" line: an executable mapping of a process, as the
 * kernel's PERF_RECORD_MMAP2 gave it (the file offset @pgoff of @path at
 * @addr for @len bytes), from @ts on.  addr + len does not wrap.
 */
struct umap {
	double ts;		/* seconds, perf's clock, as struct sample's */
	long pid;
	unsigned long long addr, len, pgoff;
	char *path;		/* the target's path ("/lib/libc.so.6", "[vdso]") */
};

/* A "module" line: where a module's core and code sections were. */
struct module {
	char *name;
	unsigned long long base, size;
	char **secs;		/* code section names ... */
	unsigned long long *secaddr;	/* ... and addresses in that boot */
	int nsecs;
	struct ko_sym *syms;	/* from --modules; NULL: none */
	size_t nsyms;
	bool loaded;		/* syms looked up */
};

/* One dump of the capture as frame.c read it. */
enum frame_state { FRAME_COMPLETE, FRAME_CUT, FRAME_DAMAGED };
struct framed {
	unsigned int n;		/* its number in the boot: 1 init, 2 window */
	char nonce[DUMP_FRAME_NONCE_LEN + 1];
	char *body;		/* the chunks' data joined, NUL-terminated */
	size_t body_len;
	unsigned int chunks;	/* chunks read and checked */
	enum frame_state state;
	char why[320];		/* not complete: what went wrong */
};

/* Every dump of a capture (frames_read()). */
struct frames {
	struct framed *d;
	int n, cap;
	int stray;		/* frame lines not taken (no nonce, another's) */
	char stray_why[256];	/* the first of them, "line N: ..." */
	bool any;		/* a line looked like a frame */
};

/* A "kprobe-profile" line: a kprobe event's hits as the kernel counted them. */
struct kcount {
	char *probe;
	unsigned long long hits, missed;	/* kprobe_profile at dump time */
};

/*
 * A dump's "perf-stat" line (docs/plan.md, initramfs/perf.c perf_dump()):
 * per perf probe, the samples the agent read from its rings, those the
 * kernel dropped because a ring was full (PERF_RECORD_LOST), throttled
 * (PERF_RECORD_THROTTLE records) and records it could not read.
 */
struct perf_stat {
	char *probe;
	unsigned long long samples, lost, throttled, bad;
};

/*
 * A dump's "timebase" line (docs/plan.md): CLOCK_BOOTTIME nanoseconds of
 * the agent's start, just before and just after its trace_marker write
 * "probecc-clock N MARK", and when the ring buffer stopped for the dump;
 * and the trace-clock time the kernel gave that marker event.
 */
struct timebase {
	unsigned int n;		/* the dump's number; 0: no timebase line */
	long long start, mark, marked, stop;
	double trace_ts;	/* the marker's time in the trace; -1: not seen */
};

struct dump {
	int ndumps;		/* complete dumps (begin and end frames) */
	char nonce[DUMP_FRAME_NONCE_LEN + 1];	/* the last one's; "" with none */
	int ncut;		/* dumps cut short or damaged: no evidence */
	char why[400];		/* the last of them: what went wrong */
	int stray;		/* frame lines not taken */
	char stray_why[256];
	int bad_time;		/* trace lines whose time is not the kernel's form */
	char bad_time_why[160];	/* the first of them */
	int unread;		/* trace lines of no form the report reads */
	bool in_string;		/* parsing: a traced string goes on over lines */
	int console_dumps;	/* the kernel's ftrace dumps on the console (--console) */
	int console_events;	/* the events they held */
	int console_new;	/* of them, not in the agent's dump: joined */
	long console_lost;	/* their "CPU:N [LOST N EVENTS]" */
	char unread_why[160];	/* the first of them */
	bool unframed;		/* no frames: the file is one dump's body */
	double init_time;	/* uptime of userspace start; -1: unknown */
	char init_why[200];	/* why it is unknown, when the dump should have told */
	double last_time;	/* when the last dump stopped recording; -1: unknown */
	/*
	 * The timebase: with the first and last dumps' clock marks found in
	 * the trace, init_time and last_time are on the trace's clock, as
	 * every hit, sample and oops (timebase true); else they are
	 * CLOCK_BOOTTIME as the manifests said (timebase_why says why).
	 */
	struct timebase tb_first, tb_last;
	bool timebase;
	double offset_first, offset_last;	/* trace clock minus CLOCK_BOOTTIME, s */
	char timebase_why[240];
	int after_dump;		/* hits later than the last dump's stop */
	double after_dump_ts;	/* the latest of them */
	struct strbuf items;	/* "item" lines of the last dump */
	struct strbuf cpus;	/* "cpu" lines of the last dump */
	char *uname;		/* "RELEASE\tMACHINE" as uname(2) says */
	/*
	 * The plan's arch (probecc --arch: mipsel, mips64el, ...): uname's
	 * machine has no byte order on MIPS ("mips64" for a little-endian
	 * Loongson-3 too), this has.  NULL: not in the dump.
	 */
	char *arch;
	char *cmdline;		/* the last dump's "cmdline": what the kernel got */
	struct hit *hits;
	int nhits, cap;
	struct sample *samples;
	int nsamples, capsamples, unmatched;
	struct module *mods;
	int nmods, capmods;
	struct umap *umaps;	/* "perf-mmap" lines, in the dump's order */
	int numaps, capumaps;
	unsigned long long stext;	/* "stext": _stext in that boot; 0: unknown */
	/*
	 * The events are a "previous" dump's: the trace a boot left in the
	 * persistent instance, dumped by the next boot's agent (after a
	 * hang and a reset); its "last_boot" line gives that next boot's
	 * kernel text minus the hung boot's (text_delta).
	 */
	bool previous;
	long long text_delta;
	bool in_ustack;		/* parsing: " => " lines are a user stack's */
	int noops;		/* "kprobe-oops" lines: the MIPS single-step oops */
	double oops_time;	/* the first one's, seconds since boot */
	char *oops_epc, *oops_task;
	struct kcount *kcounts;	/* "kprobe-profile" lines */
	int nkcounts, capkcounts;
	struct perf_stat *pstats;	/* "perf-stat" lines */
	int npstats, cappstats;
	/* "note perf N samples not kept": read, but past the agent's text limit */
	unsigned long long perf_notkept;
	/* "note perf-mmap N mappings not kept": past the agent's bound */
	unsigned long long perf_maps_notkept;
	bool raw;		/* raw dumps: hits from their trace.dat (events.c) */
	long raw_events, raw_unknown;	/* records read, of no known format */
	char raw_why[1024];	/* the trace.dat could not be read: why */
	char *stage;		/* the last dump's "stage": init or window */
	/*
	 * the last dump's "buffer": "instances/NAME/" when probecc's events
	 * were in an instance of their own ("instance NAME"); NULL or "top"
	 */
	char *buffer;
};

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
	char msg[640];		/* one line: what ended the boot */
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
	double start, end;	/* seconds; end -1: never finished in the trace */
	int ret;
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

/* frame.c */
void frames_read(const char *text, size_t len, struct frames *f);

/* kcidb.c */
int kcidb_file_check(const char *arg);

/* frame64.c */
char *frames_unb64(const char *text, size_t *len);

/* tracedat.c */
int tracedat_build(const char *text, size_t len, bool complete_only,
		   char **dat_out, FILE *info, struct errmsg *e);
/* What tracedat_check() passed, for the fuzz harness (tracedat.c). */
struct tracedat_visit {
	void (*layout)(unsigned int page_size, unsigned int long_size,
		       bool big_endian, void *arg);
	void (*file)(const char *name, const char *data, size_t len, void *arg);
	void (*page)(const unsigned char *pg, void *arg);
	void *arg;
};
int tracedat_check(const char *text, size_t len, bool complete_only,
		   const struct tracedat_visit *v, struct errmsg *e);
const char *child_status(int status, char *buf, size_t size);
int child_call(int (*fn)(void *arg), void *arg, unsigned int seconds,
	       int *status, struct errmsg *e);
void tracedat_done(char *dat);
int tracedat_write(const char *text, size_t len, const char *out,
		   FILE *info, struct errmsg *e);

/* printfmt.c */
int printfmt_check(const char *args, size_t len, char *why, size_t size);

/* events.c */
int events_read(struct report *r, const char *text, size_t len,
		struct errmsg *e);
int events_try(const char *dat, struct errmsg *e);

/* Append a copy of @h to @d's hits (dump.c, events.c). */
static inline void add_hit(struct dump *d, const struct hit *h)
{
	ALLOC_GROW(d->hits, d->nhits + 1, d->cap);
	d->hits[d->nhits++] = *h;
}

/* dump.c */
bool dump_evidence(const struct dump *d);
bool dump_complete(const struct dump *d);
const char *dump_incomplete_why(const struct dump *d, char *buf, size_t size);
const struct perf_stat *perf_stat_of(const struct dump *d, const char *probe);
bool perf_lossy(const struct dump *d, const struct perf_stat *p);
void perf_loss_why(const struct dump *d, const char *probe, char *why, size_t size);
bool clock_mark(struct dump *d, const char *msg, double ts);
void dump_read(struct report *r, char *text, size_t len);
void dump_console_trace(struct report *r, const char *text);

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

/* ustack.c; a user frame that says why the stack is cut or missing starts with USTACK_MARK */
#define USTACK_MARK	"[user stack "
void ustack_frames(const struct sample *s, const struct umap *maps, int nmaps,
		   const char *sysroot, const char *path, unsigned long long off,
		   bool ret, char ***frames, int *n, int *cap);
/*
 * Was user frame @frame found by prologue analysis (no CFI: MIPS)?  Every
 * output keeps the mark USTACK_HEUR after the frame's name.
 */
#define USTACK_HEUR	" (heuristic)"
bool ustack_heuristic(const char *frame);
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
