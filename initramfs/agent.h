/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probecc early-init agent: shared declarations.
 *
 * The agent reads the plan (docs/plan.md), acts on it against tracefs,
 * dumps a manifest plus the trace to a sink, and execs the real init.
 * See agent.c for the command line and initramfs/README.md.
 */
#ifndef PROBECC_AGENT_H
#define PROBECC_AGENT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "../common/dumpframe.h"
#include "../common/plan.h"
#include "../common/textline.h"

#define AGENT_PATH_MAX		4096
/*
 * Overlay mode's root: a tmpfs on a top-level directory of the initramfs,
 * holding the agent's own mounts (agent.c says why a top-level one).
 */
#define AGENT_OVERLAY_ROOT	"/.probecc"
#define AGENT_MAX_INITS		16
#define AGENT_MAX_ITEMS		4096
#define AGENT_MAX_NOTES		256
#define AGENT_DETAIL_MAX	8192	/* bytes of one DETAIL field, NUL incl. */
#define AGENT_PLAN_MAX		PLAN_MAX	/* bytes of plan read (common/plan.h) */
#define AGENT_WINDOW_MAX	86400	/* seconds */
#define AGENT_MAX_PERF		64	/* "perf" plan lines */
#define AGENT_MAX_OOPS		8	/* kprobe-oops lines of one dump */
#define AGENT_NAME_MAX		64	/* a persistent instance's name, NUL incl. */
#define AGENT_MARK_MAX		1024	/* bytes of an error_log header kept */
#define AGENT_SEEN_FILES	4	/* files kept for expect lines */
#define AGENT_SEEN_MAX		(1024 * 1024)	/* bytes of one kept file */

/* One CPU's perf ring of a "perf" probe (perf.c). */
struct perf_ring {
	int fd;
	int cpu;
	void *base;		/* the mmap: control page, then data */
	char *data;
	size_t size;		/* bytes of data, a power of two */
};

#define PERF_USTACK_MAX		PLAN_USTACK_MAX	/* bytes of user stack per sample */

/* A "perf PROBE GROUP/EVENT [USTACK [callchain]]" plan line: its rings and counts. */
struct perf_probe {
	char *probe;
	char *event;		/* the plan's GROUP/EVENT or kprobe:SYM[+OFF] */
	/* 1 + the index of the probe whose rings it shares (same event), or 0 */
	size_t same;
	unsigned long ustack;	/* bytes of user stack per sample; 0: kernel callchain */
	int callchain;		/* with ustack: the kernel callchain too (a kprobe's "stack user") */
	struct perf_ring *rings;
	size_t nrings;
	unsigned long long samples, lost, throttled, bad;
};

/*
 * An executable mapping (PERF_RECORD_MMAP2) held until a dump, which
 * writes it only for a process with a kept user-stack sample (perf.c).
 */
struct perf_map {
	uint64_t time;		/* ns, the trace clock */
	uint32_t pid;		/* tgid */
	char *rest;		/* "ADDR\tLEN\tPGOFF\tPATH\n", owned */
};

/* A new process (PERF_RECORD_FORK with pid != ppid): it inherits ppid's maps. */
struct perf_fork {
	uint64_t time;
	uint32_t pid, ppid;
};

/* An exec (PERF_RECORD_COMM with PERF_RECORD_MISC_COMM_EXEC): older maps are gone. */
struct perf_exec {
	uint64_t time;
	uint32_t pid;
};

/* One manifest "item" line; strings are owned by the item (never freed). */
struct item {
	char *probe;
	char *file;
	const char *state;	/* static: "ok", "armed", ... */
	char *detail;
};

struct agent {
	int pid1;		/* running as PID 1: mount, exec */
	/*
	 * Overlay mode: started as something other than /init (rdinit=
	 * /probecc/init, appended to a user's initrd).  The agent's own
	 * mounts go under root AGENT_OVERLAY_ROOT, where the real /init
	 * never looks, and /init is the first init tried.
	 */
	int overlay;
	char *argv0;		/* our argv[0], for the window child's '@' */
	int no_exec;		/* test mode: do not exec an init */
	char root[AGENT_PATH_MAX];	/* prefix of /proc, /dev, /run, inits */
	char tracefs[AGENT_PATH_MAX];	/* "" when there is none */
	char plan_path[AGENT_PATH_MAX];
	char sink[AGENT_PATH_MAX];	/* plan's sink ("console" default) */
	char sink_override[AGENT_PATH_MAX];	/* --sink: a host path */
	int sink_fd;		/* -1 until opened */
	char arch[64];
	char kernel[64];
	unsigned int window;	/* seconds, 0: no window dump */
	int capture;		/* plan "capture": write the target frame */
	int dump_raw;		/* plan "dump raw": ring-buffer pages (raw.c) */
	int lava_signals;	/* probecc_signals=lava in init's environment (lava.c) */
	/*
	 * "" or "instances/NAME/": the tracefs directory dump() reads and
	 * stops, marks and pauses: buf_dir (plan "instance NAME": the
	 * instance probecc's events are in), or the previous boot's
	 * persistent instance while persist_dump() runs (previous set)
	 */
	char dump_dir[AGENT_NAME_MAX + 16];
	char buf_dir[AGENT_NAME_MAX + 16];
	int previous;
	/*
	 * Set by the worker (agent.c worker_run()) when the real init may
	 * start during the init dump: dump() calls it once its clock mark is
	 * in the trace, and then reads the trace up to that mark without
	 * pausing the ring buffer ("cut" in the manifest).  NULL otherwise.
	 */
	void (*release)(struct agent *a);
	char *inits[AGENT_MAX_INITS];
	int n_inits;
	struct item *items;
	size_t n_items, cap_items, dropped_items;
	char *notes[AGENT_MAX_NOTES];
	size_t n_notes, dropped_notes;
	struct timespec t0;	/* CLOCK_MONOTONIC at start of main() */
	long long t0_boot_ns;	/* CLOCK_BOOTTIME at the same moment */
	/*
	 * The PID the agent marked in the trace (0: none) and the
	 * CLOCK_BOOTTIME of its mark: the manifest's self_kind() line.  The
	 * worker's is in no PID list of the top buffer ("own": its every
	 * hit the agent's); PID 1 working without a worker went into them
	 * first ("notrace": its hits up to the mark).  Either goes into the
	 * plan's instance's lists (initramfs/agent.c agent_work()).
	 */
	long self_pid;
	long long self_ns;
	/*
	 * Where the agent's time before the real init goes, in microseconds
	 * (the manifest's *_us lines; -1: not yet, or not done): mounts_us
	 * from t0 to the end of the mounts, plan_us the plan's run
	 * (plan_run()), sink_us the sink's open, dump_us the last dump (the
	 * init dump in the window dump's manifest), fork_us from t0 to the
	 * worker's release of PID 1 (worker_run(): the real init may start).
	 */
	long long mounts_us, plan_us, sink_us, dump_us, fork_us;
	long long plan_cpu_us;	/* the plan's CPU time of this thread */
	struct perf_probe perf[AGENT_MAX_PERF];
	size_t n_perf;
	char *perf_text;	/* "perf" lines read so far (perf.c) */
	size_t perf_len, perf_cap;
	unsigned long long perf_dropped;	/* samples not kept */
	int perf_mmaps;	/* a user-stack probe's events report mmaps */
	unsigned long long perf_ring_bytes;	/* data bytes of every ring mapped */
	long long kprobe_pmu;	/* the kprobe PMU's type once read, else 0 */
	int perf_full;	/* the sample text was full once: samples only counted */
	struct perf_map *maps;	/* at most PERF_MAPS_MAX */
	size_t n_maps;
	unsigned long long maps_dropped;
	struct perf_fork *forks;	/* at most PERF_FORKS_MAX */
	size_t n_forks;
	struct perf_exec *execs;	/* at most PERF_FORKS_MAX */
	size_t n_execs;
	uint32_t *upids;	/* tgids with a kept user-stack sample, PERF_UPIDS_MAX */
	size_t n_upids;
	char oops[AGENT_MAX_OOPS][128];	/* "TIME\tEPC\tTASK" (kmsg.c) */
	size_t n_oops;
	unsigned int n_dumps;	/* dumps written so far (the window child's
				 * copy counts the parent's init dump) */
	char nonce[DUMP_FRAME_NONCE_LEN + 1];	/* this boot's, boot_nonce() */
	/*
	 * error_log's last entry header seen (plan.c): read once before the
	 * first write, then again only after a write fails.
	 */
	char errlog_mark[AGENT_MARK_MAX];
	int errlog_read;	/* errlog_mark holds error_log's state */
	/*
	 * Files "expect" lines read, kept until the agent's next write
	 * (plan.c): set_ftrace_filter's read walks every ftrace record.
	 */
	struct {
		char *file;	/* FILE of the plan line; NULL: free slot */
		char *text;
		size_t len;
	} seen[AGENT_SEEN_FILES];
};

/*
 * A small buffered writer for the sink that stops at the first error.
 * Framed (out_frame_begin() to out_frame_end()), what is written goes out
 * in the chunks of common/dumpframe.h, cut at line ends.
 */
struct out {
	int fd;
	int err;		/* -errno of the first failed write, or 0 */
	size_t len;
	const char *nonce;	/* NULL: plain writes */
	unsigned int dump;	/* the dump's number, framed */
	unsigned int chunks;	/* chunks written so far */
	unsigned long long bytes;	/* data bytes in them */
	int sum;		/* 1: out_write() sums what it is given */
	unsigned long long sum_bytes;	/* bytes summed */
	uint32_t sum_crc;	/* their CRC-32 (crc32_update()) */
	int seven_bit;		/* 1: chunks LAVA's log would change go as b64 */
	char buf[8192];
};

/* lava.c */
void lava_signals(struct agent *a, struct out *o, long long us0);

/* util.c */
void out_flush(struct out *o);
void out_frame_begin(struct out *o, const char *nonce, unsigned int dump);
void out_chunk(struct out *o, const char *data, size_t n);
size_t b64_encode(const unsigned char *in, size_t n, char *out);
void out_frame_end(struct out *o);
void boot_nonce(struct agent *a);
void out_write(struct out *o, const char *s, size_t n);
void out_printf(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Nanoseconds of CLOCK_BOOTTIME now (the clock of /proc/uptime). */
long long boot_ns(void);
/* Microseconds of CLOCK_MONOTONIC from @a->t0 (the agent's start) to now. */
long long agent_us(const struct agent *a);
/* Microseconds of this thread's CPU time (CLOCK_THREAD_CPUTIME_ID), -1 on error. */
long long cpu_us(void);
void agent_note(struct agent *a, const char *topic, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void agent_item(struct agent *a, const char *probe, const char *state,
		const char *file, const char *detail);
char *xstrdup(const char *s);
void sanitize_field(char *s);
int write_all(int fd, const void *buf, size_t len);
int path_join(char *out, size_t size, const char *a, const char *b);
int rooted(const struct agent *a, char *out, size_t size, const char *path);
ssize_t read_fd(int fd, char *buf, size_t size);
ssize_t read_small(const char *path, char *buf, size_t size);
char *next_word(char **s);
int word_ull(const char *w, int base, unsigned long long *v);
struct utsname;
void frame_begin(struct agent *a, struct out *o, struct utsname *u,
		 char *cmdline, size_t size);
/* @pid out of the trace of tracefs directory @dir ("" or "instances/NAME/") */
int notrace_buffer(struct agent *a, const char *dir, long pid);
/* "notrace" when @a->self_pid is PID 1 (in the PID lists), else "own". */
static inline const char *self_kind(const struct agent *a)
{
	return a->self_pid == 1 ? "notrace" : "own";
}
/* the tracefs path of @rel in the buffer dump() reads (a->dump_dir): 0, or -1 when it does not fit */
int buf_path(const struct agent *a, char *out, size_t size, const char *rel);

/* plan.c */
void plan_run(struct agent *a);
void plan_text(struct agent *a, char *buf, size_t len);
int file_has_token(const char *path, const char *match);
void errlog_mark(const char *tracefs, char *mark, size_t size);
void errlog_detail(const char *tracefs, char *mark, size_t msize, int err,
		   char *out, size_t size);

/* capture.c */
int capture(struct agent *a);

/* perf.c */
void perf_open(struct agent *a, const char *probe, const char *event,
	       unsigned long ustack, int callchain);
void perf_drain(struct agent *a);
void perf_wait(struct agent *a, const struct timespec *until);
void perf_dump(struct agent *a, struct out *o);
/* "stext ADDR" of this boot from /proc/kallsyms into @o (nothing when unreadable) */
void stext_line(struct agent *a, struct out *o);

/* kmsg.c */
void kmsg_scan(struct agent *a, const char *machine);
void kprobe_profile_lines(const struct agent *a, struct out *o);

/* dump.c */
void sink_open(struct agent *a);
int dump(struct agent *a, const char *stage);
void persist_dump(struct agent *a, const char *name);
int instance_use(struct agent *a, const char *name);

/* raw.c */
void raw_dump(struct agent *a, struct out *o, int was_on);
int tracing_on(const struct agent *a, int on);

#endif /* PROBECC_AGENT_H */
