/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dumpread.h - the dump reader (dumpread/), public: a capture of the
 * agent's dump channel (a serial log, ttyS1.raw, a console log: any
 * bytes holding the framed dumps of docs/plan.md, common/dumpframe.h)
 * turned into one struct dump: the boot's dumps, the last dump's items,
 * its events (struct hit), perf samples, mappings and modules, and the
 * evidence how far they can be trusted (dumps cut, lines not read, the
 * raw dumps' decode).  The report (report/: verdicts, baselines,
 * initcall pairing, outputs) reads only this header; dumpread-local.h is
 * the reader's own.
 *
 * The way of a capture, read once top to bottom (dumpread_capture()):
 *   frame.c     the frames found and checked (lengths, CRC-32s, nonce)
 *   read.c      the last complete dump's manifest and text trace lines
 *   rawdump.c   a raw dump's records, header_page, format files and
 *               ring-buffer pages checked, each page walked once
 *   decode.c    the pages decoded in process: libtraceevent's format
 *               parser and kbuffer, for the dump's long size and byte
 *               order (no child process, no temporary directory)
 *   timebase.c  the agent's clock marks: dump times on the trace clock
 *   evidence.c  the errors (dumpread_strerror()) and what the dump is worth
 *   console.c   a console line's printk time and the kernel's death lines
 *   tracedat.c  only for --trace-dat OUT: a trace.dat by trace-cmd restore
 *   child.c     a library call in a child process (decode.c's format
 *               parse, tracedat.c's other-byte-order head)
 * Each file calls only files below it in this list's way (read.c down to
 * evidence.c; tests/layers.py checks calls, not only includes).
 * Another source of console bytes (a LAVA log) plugs in by handing its
 * bytes to dumpread_capture().
 */
#ifndef PROBECC_DUMPREAD_H
#define PROBECC_DUMPREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common.h"
#include "dumpframe.h"
#include "kernel.h"
#include "ustack.h"

/*
 * What the reader can fail with: one kind of value, its code one of
 * these, its text dumpread_strerror()'s, with the particulars after it.
 */
enum dumpread_errno {
	DR_OK,
	DR_NO_DUMP,		/* no (complete) raw dump in the capture */
	DR_RECORD,		/* a raw record refused (name, length, zlib) */
	DR_LAYOUT,		/* header_page or a ring-buffer page refused */
	DR_FORMAT,		/* a format file or text file refused */
	DR_LIBTRACEEVENT,	/* libtraceevent refused or crashed on a file */
	DR_UNSUPPORTED,		/* built without libtraceevent (make TRACEDAT=no) */
	DR_TRACECMD,		/* trace-cmd restore failed (--trace-dat only) */
	DR_IO,			/* a file could not be written (--trace-dat only) */
	DR_NR
};

/* A reason of struct dump or struct dumpread_error as text: "" for none. */
static inline const char *dr_text(const char *why)
{
	return why ? why : "";
}

struct dumpread_error {
	enum dumpread_errno code;
	char *why;		/* "REASON: particulars" (dumpread_strerror() first); malloc'd, NULL with DR_OK */
};

/* The reason of @code, a static string ("unknown error" out of range). */
const char *dumpread_strerror(enum dumpread_errno code);

/*
 * The most frames a hit's stack keeps.  The kernel's perf callchains
 * are at most PERF_MAX_STACK_DEPTH (127, include/uapi/linux/perf_event.h)
 * entries deep, the default of kernel.perf_event_max_stack, which the
 * agent leaves; a ftrace <stack trace> at most FTRACE_KSTACK_ENTRIES
 * (kernel/trace/trace.c: SZ_4K / FTRACE_KSTACK_NESTING, 1024).  Deeper
 * is forged or broken: the frames past it are counted (deep), not kept,
 * and the cut is said.
 */
#define DUMPREAD_MAX_PERF_STACK	127
#define DUMPREAD_MAX_STACK	1024

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
	int deep;		/* frames past the bound (DUMPREAD_MAX_STACK), not kept */
	bool console;		/* from the kernel's ftrace dump on the console only */
	/* a kernel stack of the tracing machinery alone (report/stackrule.c): its first frame, and why */
	const char *cut_frame, *cut_why;
};

/* A "module" line: where a module's core and code sections were. */
struct module {
	char *name;
	unsigned long long base, size;
	char **secs;		/* code section names ... */
	unsigned long long *secaddr;	/* ... and addresses in that boot */
	int nsecs;
	struct ko_sym *syms;	/* from --modules; NULL: none (the report's) */
	size_t nsyms;
	bool loaded;		/* syms looked up */
	char *unread;		/* its module file, unreadable: why (naming it); NULL: read or none */
	char *unread_file;	/* that file under --modules */
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
	/*
	 * The target's CLOCK_BOOTTIME went back (seen on loongson3-virt
	 * under TCG): START_NS after MARK_NS (the agent's start is not known
	 * from it), STOP_NS before MARKED_NS (when the recording stopped is
	 * not known); the mark's offset holds in both.
	 */
	bool start_back, stop_back;
	double trace_ts;	/* the marker's time in the trace; -1: not seen */
	/*
	 * The "notrace" line: the PID the agent kept out of the top
	 * buffer's events and function tracer, and the CLOCK_BOOTTIME when
	 * the kernel took it (0: none, or not between start and mark);
	 * notrace_line: the manifest has such a line, taken or not.  And
	 * its mark "probecc-notrace PID NS", written by that PID once the
	 * kernel took it: its time in the trace (-1: not seen, -2: twice,
	 * or another task's).  own: the line was "own PID NS" instead, the
	 * agent's worker in no PID list, every hit of PID its own, and the
	 * mark "probecc-own PID NS", written once it started.
	 */
	long notrace_pid;
	long long notrace_ns;
	bool notrace_line;
	bool own, own_and_notrace;	/* own_and_notrace: both lines, taken neither */
	double notrace_ts;
};

struct dump {
	int ndumps;		/* complete dumps (begin and end frames) */
	char nonce[DUMP_FRAME_NONCE_LEN + 1];	/* the last one's; "" with none */
	int ncut;		/* dumps cut short or damaged: no evidence */
	/*
	 * The reasons below are malloc'd (dr_why()), NULL while there is
	 * none to give: never cut to a buffer's size.
	 */
	char *why;		/* the last of them: what went wrong */
	int stray;		/* frame lines not taken */
	char *stray_why;	/* the first of them, "line N: ..." */
	int bad_time;		/* trace lines whose time is not the kernel's form */
	char *bad_time_why;	/* the first of them */
	int unread;		/* trace lines of no form the report reads */
	bool unread_by_count;	/* the first reason: the trace's entries count disagrees */
	bool in_string;		/* parsing: a traced string goes on over lines */
	int console_dumps;	/* the kernel's ftrace dumps on the console (--console) */
	int console_events;	/* the events they held */
	int console_new;	/* of them, not in the agent's dump: joined */
	long console_lost;	/* their "CPU:N [LOST N EVENTS]" */
	long trace_lost;	/* the agent's trace's own "CPU:N [LOST N EVENTS]" */
	char *unread_why;	/* the first of them */
	bool unframed;		/* no frames: the file is one dump's body */
	double init_time;	/* uptime of userspace start; -1: unknown */
	char *init_why;		/* why it is unknown, when the dump should have told */
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
	char *timebase_why;
	char *timebase_note;	/* a measured timebase's reading that went back */
	/*
	 * The agent's own hits (its worker's every one; or PID 1's from its
	 * exec until the kernel took its notrace PID: its mounts' work),
	 * left out by dumpread_agent_own(): how many, from when (after
	 * the kernel's exec event of its PID when agent_own_exec) until
	 * when, on the trace clock.  agent_own_kept: why none were left
	 * out though the agent was PID 1 (malloc'd; NULL: not so), such as
	 * the manifest's "note notrace" (notrace_note: its first one) of a
	 * kernel without set_event_notrace_pid.
	 */
	int agent_own;
	bool agent_own_window;	/* the window was taken (from, until set) */
	double agent_own_from, agent_own_until;
	bool agent_own_exec;
	bool agent_own_worker;	/* a worker's PID: from its first hit (from -1) */
	char *agent_own_kept;
	char *notrace_note;
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
	bool raw;		/* raw dumps: hits decoded from their pages (decode.c) */
	long raw_events, raw_unknown;	/* records read, of no known format */
	struct dumpread_error raw_err;	/* the raw dumps could not be read: why (code DR_OK: read) */
	char *stage;		/* the last dump's "stage": init or window */
	/*
	 * the last dump's "buffer": "instances/NAME/" when probecc's events
	 * were in an instance of their own ("instance NAME"); NULL or "top"
	 */
	char *buffer;
};

/*
 * How the reader names a kernel frame of a text dump's "<stack trace>"
 * (" => 0xADDR" where the kernel had no symbol): @fn(@arg, @frame)
 * returns @frame or a malloc'd name in its place (freeing @frame).
 * NULL: frames stay as printed.
 */
struct dumpread_opts {
	char *(*name_frame)(void *arg, char *frame);
	void *arg;
	/*
	 * --previous: the next boot's capture (@prev_len bytes), whose
	 * "previous" dump holds this boot's trace; @prev_name names it in
	 * the reasons.  NULL: none.
	 */
	char *prev_text;
	size_t prev_len;
	const char *prev_name;
};

/*
 * dumpread_capture() - the capture @text (@len bytes, any bytes; a body
 * in it may be modified in place, so @text stays the caller's and must
 * outlive nothing: struct dump owns copies) read into @d (zeroed by the
 * caller): the last complete dump's lines and events, raw dumps decoded
 * in process, the timebase applied.  Never fails as a whole: what could
 * not be read is in @d (ncut/why, unread, bad_time, raw_err...), and
 * dump_evidence()/dump_complete() say what it is worth.
 */
void dumpread_capture(struct dump *d, const struct dumpread_opts *o,
		      char *text, size_t len);

/*
 * dumpread_printk_text() - @line (NUL-terminated, changed: its "\r" and
 * "\n" at the end cut) after the "[    1.234567] " of printk time; *@ts
 * that time in seconds, -1 when the line has none (then the whole line:
 * a line printk did not write, which any program on the board can).
 */
char *dumpread_printk_text(char *line, double *ts);

/*
 * dumpread_oops_header() - @t (a console line's text, printk time
 * removed) is an oops header: "STR[#N]" (arch die(): "Oops[#1]",
 * "Internal error: Oops: ... [#1]"), not a "Kernel panic" line.
 */
bool dumpread_oops_header(const char *t);

/*
 * dumpread_death_line() - @t (as above) is where the kernel starts to
 * die: an oops header or a panic line, the deaths report/boot.c gives a
 * verdict of their own, so that a console ftrace dump is never read in a
 * clean boot.  MIPS' and arm64's "Unable to handle kernel" is not one:
 * die() prints the oops header after it (arch/mips/mm/fault.c,
 * arch/arm64/mm/fault.c), before the dump (its die notifier), and the
 * line alone is any program's to print.
 */
bool dumpread_death_line(const char *t);

/*
 * dumpread_console() - the kernel's own ftrace dump in the console log
 * @text (NUL-terminated; ftrace_dump_on_oops: kernel/trace/trace.c
 * ftrace_dump() prints "Dumping ftrace buffer:", a line of dashes, the
 * events, a line of dashes; or "(ftrace buffer empty)"), read only from
 * printk's lines (dumpread_printk_text()) after a line where the kernel
 * dies (dumpread_death_line()): any program can print the rest.  Read into hits
 * like the agent's and joined to @d's (dumpread_capture() first): an
 * event the agent's dump holds too (one pid, one probe, one microsecond)
 * is counted once.  The hits end sorted by time.  @text is not changed.
 */
void dumpread_console(struct dump *d, const struct dumpread_opts *o,
		      const char *text);

/* True when the capture held something to check expectations against. */
bool dump_evidence(const struct dump *d);
/*
 * True when the report may pass: evidence, no dump cut short or damaged,
 * no event left undecoded, no trace line whose time could not be read and
 * none the report cannot read at all.
 */
bool dump_complete(const struct dump *d);
/*
 * NULL when dump_complete(), else why no verdict can pass, in @buf
 * (@size bytes): the one reason the text, JSON and JUnit outputs all give.
 */
const char *dump_incomplete_why(const struct dump *d, char *buf, size_t size);
/* The "perf-stat" line of @probe, or NULL. */
const struct perf_stat *perf_stat_of(const struct dump *d, const char *probe);
/*
 * dumpread_agent_own() - leave out of @d's hits the agent's own: every
 * hit of the PID of dump 1's "own PID NS" line (the agent's worker, a
 * PID other than 1, in no PID list) when the trace has its mark
 * "probecc-own PID NS", written by that PID; or those
 * of the PID of dump 1's "notrace PID NS" line after its exec and up to
 * the agent's mark "probecc-notrace PID NS" (docs/plan.md), which that
 * PID wrote once the kernel took it (set_event_notrace_pid), on the
 * trace clock itself.  The window starts at the agent's start put on
 * the trace clock by that mark (NS less the timebase line's start), and
 * never before the kernel's sched_process_exec event of the PID when
 * the trace has one: the exec is the kernel's, and the two clocks drift
 * apart under QEMU.  A mark missing, twice, another task's or not of
 * the line's PID and NS leaves everything in (d->agent_own_kept says
 * why), as does a kernel without the notrace files (the manifest's
 * "note notrace").  Counted in d->agent_own.  Call after the console's
 * hits are joined.
 */
void dumpread_agent_own(struct dump *d);
/* When the agent had armed its perf events, trace clock (s); -1: unknown. */
double perf_armed_by(const struct dump *d);
/* A perf probe's hit without a stack from before perf was armed. */
bool hit_before_perf(const struct dump *d, const struct hit *h);
/* True when perf lost, throttled or dropped samples of @p's probe. */
bool perf_lossy(const struct dump *d, const struct perf_stat *p);
/* Why the samples of @probe are not all there, into @why (@size bytes). */
void perf_loss_why(const struct dump *d, const char *probe, char *why, size_t size);
/* The PID at the end of a trace task "COMM-PID", or -1. */
long task_pid(const char *task);

/*
 * dumpread_frames() - "--list" and "--extract N": the numbers of the
 * complete dumps of @text (@len bytes) printed one a line on @list (NULL:
 * none), and into *@body and *@body_len (pointing into a copy that lives
 * until the process ends) the last dump numbered @extract, complete if
 * one is (0: none wanted).  Returns 0 complete, 1 no such dump, 3 cut
 * short, 4 damaged (*@why then says what); *@stray and *@stray_why: frame
 * lines not taken.
 */
int dumpread_frames(const char *text, size_t len, FILE *list, int extract,
		    const char **body, size_t *body_len, const char **why,
		    int *stray, const char **stray_why);

/*
 * dumpread_tracedat() - the trace.dat of the raw dumps of the capture
 * @text (@len bytes), cut and damaged dumps too (what came before the
 * damage), staged for @out (common/output.c: out_commit() puts it in
 * place), made by Debian's trace-cmd restore from the records (the one
 * path that forks and writes a temporary directory: its product is
 * trace-cmd's file).  What it holds is said on @info, a line each.
 * Returns 0, or -1 with @e set.
 */
int dumpread_tracedat(const char *text, size_t len, const char *out,
		      FILE *info, struct dumpread_error *e);

#endif
