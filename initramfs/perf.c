// SPDX-License-Identifier: GPL-2.0
/*
 * probecc early-init agent: kernel call stacks from perf (plan verb
 * "perf", docs/plan.md).
 *
 * A stack taken by the tracer itself is truncated on MIPS: a kprobe's
 * stacktrace trigger ends in the breakpoint handler, func_stack_trace
 * in ftrace_caller (kernel-patches/mipsel/ mends the kernel).
 * perf's callchain starts from the probe's pt_regs instead
 * (perf_callchain_kernel() in arch/mips/kernel/perf_event.c), so it
 * reaches the probed function's callers on a stock kernel.  For each
 * "perf PROBE GROUP/EVENT" line the agent opens the trace event on every
 * CPU (PERF_TYPE_TRACEPOINT, period 1; perf_event_open(2) and
 * include/uapi/linux/perf_event.h), reads the rings while it waits, and
 * writes each sample into the dump as a "perf" line.  Only hits after
 * the agent started are seen: earlier ones need the kernel's own stacks.
 *
 * A "perf" line with a user stack size (a uprobe's "stack") samples the
 * user registers and that many bytes of user stack from the stack
 * pointer up (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER, as
 * "perf record --call-graph dwarf" does) instead of a callchain: MIPS
 * and arm64 kernels keep no user callchain without frame pointers, and
 * the host unwinds the copy with the program's CFI (facts/ustack.c).
 * With "callchain" too (a kprobe's "stack user") the sample has both:
 * the kernel callchain from the probe's pt_regs, and the registers and
 * stack of the task the hit is in (perf_sample_regs_user() in
 * kernel/events/core.c: task_pt_regs(current), saved at its entry to
 * the kernel; none in a kernel thread).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

#define PERF_DATA_PAGES	16	/* per ring: 64 KiB with 4 KiB pages */
#define PERF_TEXT_MAX	(2 * 1024 * 1024)	/* bytes of "perf" lines kept */
/*
 * A user-stack probe's ring holds PERF_USTACK_SAMPLES samples of its
 * copy (8 KiB: 64 KiB held 7, and a tight loop lost 92-96 %, bench/),
 * rounded up to a power of two pages (kernel/events/core.c perf_mmap()
 * refuses any other count; perf_event_open(2): "1+2^n pages"), at most
 * PERF_USTACK_RING bytes: what "perf record" maps per CPU by default,
 * the kernel's perf_event_mlock_kb (516: 512 KiB and the control page,
 * kernel/events/core.c) past which only CAP_IPC_LOCK maps more; and all
 * user-stack rings together at most
 * 1/PERF_RING_RAM_DIV of the RAM, so a small board keeps its memory
 * (halved down to PERF_DATA_PAGES).  On MIPS the ring is vmalloc'ed
 * (CONFIG_PERF_USE_VMALLOC, kernel/events/ring_buffer.c rb_alloc()).
 */
#define PERF_USTACK_SAMPLES	64
#define PERF_USTACK_RING	(512 * 1024)
#define PERF_RING_RAM_DIV	64
/*
 * The "perf-mmap" lines are held apart from the sample text, at most
 * PERF_MAPS_MAX of them (a boot with a few dozen dynamic programs maps
 * ~10 objects each; more are counted), and written only for a process
 * with a kept sample: PERF_UPIDS_MAX such processes, PERF_FORKS_MAX
 * fork records read.
 */
#define PERF_MAPS_MAX	8192
#define PERF_UPIDS_MAX	1024
#define PERF_FORKS_MAX	8192
#define PERF_FORK_DEPTH	16	/* ancestors whose mappings a process inherits */
#define PERF_POLL_MS	200

static const uint64_t sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				    PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;
static const uint64_t sample_type_user = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					 PERF_SAMPLE_CPU | PERF_SAMPLE_REGS_USER |
					 PERF_SAMPLE_STACK_USER;
#define CALLCHAIN_TEXT_MAX	(20 * 128)	/* "ADDR " of 128 frames */

/*
 * The user registers a sample keeps, as bits of the arch's
 * arch/ARCH/include/uapi/asm/perf_regs.h: every register the kernel's
 * perf_reg_validate() accepts and perf_reg_value() reads.  x86_64
 * refuses DS, ES, FS, GS (bits 12-15, arch/x86/kernel/perf_regs.c).
 * MIPS's perf_reg_validate() lets bits 26 and 27 ($k0, $k1) through but
 * its perf_reg_value() has no case for them and WARNs
 * (arch/mips/kernel/perf_regs.c): a kernel warning on the console at
 * the first sample, so they stay out.  riscv64 has PC, then x1-x31 in
 * bits 1-31 (PERF_REG_RISCV_MAX 32).  The host reads the bits in the
 * same headers' order (facts/ustack.c).
 */
#if defined(__x86_64__)
#define USER_REGS_MASK	(((1ULL << 24) - 1) & ~(0xfULL << 12))
#elif defined(__aarch64__)
#define USER_REGS_MASK	((1ULL << 33) - 1)	/* x0-x30, sp, pc */
#elif defined(__mips__)
#define USER_REGS_MASK	(((1ULL << 32) - 1) & ~(3ULL << 26))	/* pc, $1-$25, $28-$31 */
#elif defined(__riscv) && __riscv_xlen == 64
#define USER_REGS_MASK	((1ULL << 32) - 1)	/* pc, x1-x31 */
#else
#define USER_REGS_MASK	0	/* unknown: the open fails, said in the item */
#endif

static long page_size(void)
{
	long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? n : 4096;
}

/*
 * Append to the sample text; past PERF_TEXT_MAX the sample is counted,
 * not kept, and so is every later one (a->perf_full: they cost no
 * formatting).  0, or -1 when not kept.
 */
static int text_add(struct agent *a, const char *s, size_t n)
{
	if (a->perf_len + n > PERF_TEXT_MAX) {
		a->perf_full = 1;
		a->perf_dropped++;
		return -1;
	}
	if (a->perf_len + n + 1 > a->perf_cap) {
		size_t cap = a->perf_cap ? a->perf_cap * 2 : 65536;
		char *p;

		while (cap < a->perf_len + n + 1)
			cap *= 2;
		p = realloc(a->perf_text, cap);
		if (!p) {
			a->perf_full = 1;
			a->perf_dropped++;
			return -1;
		}
		a->perf_text = p;
		a->perf_cap = cap;
	}
	memcpy(a->perf_text + a->perf_len, s, n);
	a->perf_len += n;
	a->perf_text[a->perf_len] = '\0';
	return 0;
}

/* Note @pid as a process with a kept user-stack sample (its maps are written). */
static void upid_add(struct agent *a, uint32_t pid)
{
	size_t i;
	uint32_t *p;

	for (i = a->n_upids; i-- > 0;)
		if (a->upids[i] == pid)
			return;
	if (a->n_upids == PERF_UPIDS_MAX)
		return;
	if (!a->upids) {
		p = malloc(PERF_UPIDS_MAX * sizeof(*p));
		if (!p)
			return;
		a->upids = p;
	}
	a->upids[a->n_upids++] = pid;
}

/* The head both sample types share: u32 pid, tid; u64 time; u32 cpu, res. */
struct sample_head {
	uint32_t pid, tid, cpu;
	uint64_t time;
};

/* @rec's head into @h (@rec holds at least 24 bytes). */
static void sample_head(const char *rec, struct sample_head *h)
{
	memcpy(&h->pid, rec, 4);
	memcpy(&h->tid, rec + 4, 4);
	memcpy(&h->time, rec + 8, 8);
	memcpy(&h->cpu, rec + 16, 4);
}

/*
 * The callchain at @rec (u64 nr; u64 ips[nr]; at most @len bytes) as
 * "ADDR ADDR ..." after line[@n], at most @room bytes: the context
 * markers (PERF_CONTEXT_*) dropped, user addresses written "u:ADDR", "-"
 * for none.  Returns the new length; *@used the callchain's bytes (0:
 * @len cannot hold its nr).
 */
static size_t callchain_text(char *line, size_t n, size_t room,
			     const char *rec, size_t len, size_t *used)
{
	uint64_t nr, ip, i;
	size_t start = n;
	int user = 0;

	*used = 0;
	if (len < 8)
		return n;
	memcpy(&nr, rec, 8);
	if (nr > (len - 8) / 8)
		nr = (len - 8) / 8;
	*used = 8 + 8 * nr;
	for (i = 0; i < nr && n + 24 < room; i++) {
		memcpy(&ip, rec + 8 + 8 * i, 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			user = ip == (uint64_t)PERF_CONTEXT_USER;
			continue;
		}
		n += snprintf(line + n, room - n, "%s%s%llx",
			      n == start ? "" : " ", user ? "u:" : "",
			      (unsigned long long)ip);
	}
	if (n == start && n < room)
		line[n++] = '-';
	return n;
}

/*
 * One PERF_RECORD_SAMPLE of sample_type: u32 pid, tid; u64 time; u32 cpu,
 * res; u64 nr; u64 ips[nr] (the order of include/uapi/linux/perf_event.h).
 * Becomes "perf PROBE TIME_NS CPU PID TID ADDR..." with the context
 * markers (PERF_CONTEXT_*) dropped and user addresses written "u:ADDR".
 */
static void sample(struct agent *a, struct perf_probe *p, const char *rec,
		   size_t len)
{
	struct sample_head h;
	char line[64 + CALLCHAIN_TEXT_MAX], alias[AGENT_PATH_MAX];
	size_t n, used, room = sizeof(line) - 2, i;
	int m;

	if (len < 32)
		return;
	p->samples++;
	if (a->perf_full) {
		a->perf_dropped++;
		return;
	}
	sample_head(rec, &h);
	n = snprintf(line, room, "perf\t%s\t%llu\t%u\t%u\t%u\t", p->probe,
		     (unsigned long long)h.time, h.cpu, h.pid, h.tid);
	n = callchain_text(line, n, room, rec + 24, len - 24, &used);
	if (line[n - 1] == '-')	/* a "perf" line has no "-": nothing after the TID */
		n--;
	line[n++] = '\n';
	text_add(a, line, n);
	/* the probes sharing this event: the same sample, each its own line */
	for (i = 0; i < a->n_perf; i++) {
		const struct perf_probe *q = &a->perf[i];
		size_t skip = strlen("perf\t") + strlen(p->probe);

		if (q->same != (size_t)(p - a->perf) + 1)
			continue;
		m = snprintf(alias, sizeof(alias), "perf\t%s", q->probe);
		if (m < 0 || (size_t)m >= sizeof(alias))
			continue;
		text_add(a, alias, m);
		text_add(a, line + skip, n - skip);
	}
}

/*
 * One PERF_RECORD_SAMPLE of sample_type_user: u32 pid, tid; u64 time;
 * u32 cpu, res; (with p->callchain: u64 nr; u64 ips[nr]); u64 abi; u64
 * regs[weight(USER_REGS_MASK)] (when abi is not
 * PERF_SAMPLE_REGS_ABI_NONE); u64 size; u8 data[size]; u64 dyn_size
 * (when size is not 0) (include/uapi/linux/perf_event.h).  Becomes
 * "perf-user PROBE TIME_NS CPU PID TID ABI MASK REGS DYN_SIZE STACK
 * [KADDRS]": REGS the registers in hex separated by spaces, STACK the
 * dyn_size bytes copied from the stack pointer up, in hex ("-" when
 * none), KADDRS (with p->callchain) the kernel callchain as a "perf"
 * line's addresses ("-" when none).
 */
static void sample_user(struct agent *a, struct perf_probe *p,
			const char *rec, size_t len)
{
	static char line[256 + 64 * 17 + 2 * PERF_USTACK_MAX + CALLCHAIN_TEXT_MAX];
	static char kchain[CALLCHAIN_TEXT_MAX + 2];
	static const char hex[] = "0123456789abcdef";
	uint64_t abi, v, size = 0, dyn = 0, i, nregs = 0;
	struct sample_head h;
	const unsigned char *stack = NULL;
	size_t n, at = 24, kn = 0, used;

	if (len < 32)
		return;
	if (a->perf_full) {	/* not kept: counted, never hex-encoded */
		p->samples++;
		a->perf_dropped++;
		return;
	}
	sample_head(rec, &h);
	if (p->callchain) {
		kn = callchain_text(kchain, 0, sizeof(kchain), rec + at, len - at, &used);
		if (!used || len - at - used < 8) {
			p->bad++;
			return;
		}
		at += used;
	}
	memcpy(&abi, rec + at, 8);
	at += 8;
	if (abi)
		nregs = __builtin_popcountll(USER_REGS_MASK);
	if (nregs * 8 > len - at) {
		p->bad++;
		return;
	}
	n = snprintf(line, sizeof(line), "perf-user\t%s\t%llu\t%u\t%u\t%u\t%llu\t%llx\t",
		     p->probe, (unsigned long long)h.time, h.cpu, h.pid, h.tid,
		     (unsigned long long)abi, (unsigned long long)USER_REGS_MASK);
	for (i = 0; i < nregs; i++) {
		memcpy(&v, rec + at + 8 * i, 8);
		n += snprintf(line + n, sizeof(line) - n, "%s%llx", i ? " " : "",
			      (unsigned long long)v);
	}
	if (!nregs)
		line[n++] = '-';
	at += 8 * nregs;
	if (len - at >= 8) {
		memcpy(&size, rec + at, 8);
		at += 8;
	}
	if (size && size <= len - at && len - at - size >= 8) {
		stack = (const unsigned char *)rec + at;
		memcpy(&dyn, rec + at + size, 8);
		if (dyn > size)
			dyn = size;
	}
	n += snprintf(line + n, sizeof(line) - n, "\t%llu\t", (unsigned long long)dyn);
	if (a->perf_len + n + (dyn ? 2 * dyn : 1) + 1 > PERF_TEXT_MAX) {
		p->samples++;	/* does not fit: the text is full, no hex */
		a->perf_full = 1;
		a->perf_dropped++;
		return;
	}
	for (i = 0; i < dyn && n + 4 < sizeof(line); i++) {
		line[n++] = hex[stack[i] >> 4];
		line[n++] = hex[stack[i] & 15];
	}
	if (!dyn)
		line[n++] = '-';
	if (p->callchain) {
		line[n++] = '\t';
		memcpy(line + n, kchain, kn);
		n += kn;
	}
	line[n++] = '\n';
	p->samples++;
	if (!text_add(a, line, n))
		upid_add(a, h.pid);
}

/* Keep process @pid's mapping @rest ("ADDR\tLEN\tPGOFF\tPATH\n", copied) of @time in a->maps. */
static void map_keep(struct agent *a, uint32_t pid, uint64_t time, const char *rest)
{
	struct perf_map *m;

	if (a->n_maps == PERF_MAPS_MAX) {
		a->maps_dropped++;
		return;
	}
	if (!a->maps) {
		a->maps = malloc(PERF_MAPS_MAX * sizeof(*a->maps));
		if (!a->maps) {
			a->maps_dropped++;
			return;
		}
	}
	m = &a->maps[a->n_maps];
	m->rest = strdup(rest);
	if (!m->rest) {
		a->maps_dropped++;
		return;
	}
	m->time = time;
	m->pid = pid;
	a->n_maps++;
}

/*
 * Keep process @pid's mapping of @time at @addr, @len bytes, file offset
 * @pgoff, of the path @path (at most @pathmax bytes, up to a NUL) as
 * map_keep()'s "ADDR\tLEN\tPGOFF\tPATH\n": control characters of the
 * path as '?', an empty path as "?".
 */
static void map_add(struct agent *a, uint32_t pid, uint64_t time,
		    unsigned long long addr, unsigned long long len,
		    unsigned long long pgoff, const char *path, size_t pathmax)
{
	char line[128 + 4096];
	size_t n, k;

	n = snprintf(line, sizeof(line), "%llx\t%llx\t%llx\t", addr, len, pgoff);
	for (k = 0; k < pathmax && path[k] && n + 2 < sizeof(line); k++)
		line[n++] = (unsigned char)path[k] < 0x20 || path[k] == 0x7f ? '?' : path[k];
	if (!k)
		line[n++] = '?';
	line[n++] = '\n';
	line[n] = '\0';
	map_keep(a, pid, time, line);
}

/*
 * One PERF_RECORD_MMAP2 (include/uapi/linux/perf_event.h): u32 pid, tid;
 * u64 addr, len, pgoff; u32 maj, min; u64 ino, ino_generation (or the
 * build id, PERF_RECORD_MISC_MMAP_BUILD_ID); u32 prot, flags; char
 * filename[] (NUL-padded to 8 bytes); then sample_id_all's u32 pid,
 * tid; u64 time; u32 cpu, res (the sample type's TID, TIME, CPU).
 * Held in a->maps as "ADDR LEN PGOFF PATH" (in hex; control characters
 * of PATH as '?') until perf_dump() writes it as a "perf-mmap" line, so
 * the host knows which shared object holds a user pc.  Only executable
 * mappings are reported (attr.mmap without mmap_data).
 */
static void mmap_line(struct agent *a, struct perf_probe *p, const char *rec,
		      size_t len)
{
	uint32_t pid;
	uint64_t addr, mlen, pgoff, time;

	if (len < 64 + 1 + 24) {
		p->bad++;
		return;
	}
	memcpy(&pid, rec, 4);
	memcpy(&addr, rec + 8, 8);
	memcpy(&mlen, rec + 16, 8);
	memcpy(&pgoff, rec + 24, 8);
	memcpy(&time, rec + len - 16, 8);
	map_add(a, pid, time, addr, mlen, pgoff, rec + 64, len - 24 - 64);
}

/*
 * One PERF_RECORD_FORK (include/uapi/linux/perf_event.h): u32 pid, ppid;
 * u32 tid, ptid; u64 time.  The kernel sends it to every event with
 * attr.mmap2 (kernel/events/core.c perf_event_task_match()); ppid is the
 * forking task's tgid (perf_event_task_output()).  A new thread has
 * pid == ppid and is not kept: a new process starts with its parent's
 * mappings and reports none of them itself.
 */
static void fork_record(struct agent *a, const char *rec, size_t len)
{
	struct perf_fork *f;

	if (len < 24 || a->n_forks == PERF_FORKS_MAX)
		return;
	if (!a->forks) {
		a->forks = malloc(PERF_FORKS_MAX * sizeof(*a->forks));
		if (!a->forks)
			return;
	}
	f = &a->forks[a->n_forks];
	memcpy(&f->pid, rec, 4);
	memcpy(&f->ppid, rec + 4, 4);
	memcpy(&f->time, rec + 16, 8);
	if (f->pid != f->ppid)
		a->n_forks++;
}

/*
 * One PERF_RECORD_COMM of an exec (misc PERF_RECORD_MISC_COMM_EXEC,
 * attr.comm_exec; include/uapi/linux/perf_event.h): u32 pid, tid; char
 * comm[] (NUL-padded to 8 bytes); then sample_id_all's u32 pid, tid;
 * u64 time; u32 cpu, res.  The kernel sends it from begin_new_exec()
 * (fs/exec.c, __set_task_comm()), after the old mm is gone and before
 * the new program's mmaps: mappings of @pid older than it are dead.
 */
static void exec_record(struct agent *a, const char *rec, size_t len)
{
	struct perf_exec *x;

	if (len < 8 + 24 || a->n_execs == PERF_FORKS_MAX)
		return;
	if (!a->execs) {
		a->execs = malloc(PERF_FORKS_MAX * sizeof(*a->execs));
		if (!a->execs)
			return;
	}
	x = &a->execs[a->n_execs++];
	memcpy(&x->pid, rec, 4);
	memcpy(&x->time, rec + len - 16, 8);
}

/*
 * The executable mappings of the processes that exist when the first
 * user-stack probe's events open, which no PERF_RECORD_MMAP2 will
 * report (perf record does the same: perf_event__synthesize_mmap_events
 * in tools/perf/util/synthetic-events.c).  The agent runs first, but
 * the kernel may have started user processes before it: usermode
 * helpers run from rootfs_initcall on (usermodehelper_enable() in
 * init/initramfs.c), e.g. a uevent helper per device
 * (CONFIG_UEVENT_HELPER_PATH, UMH_NO_WAIT in lib/kobject_uevent.c) or
 * request_module_nowait()'s modprobe, still running when /init starts;
 * and the agent itself (PID 1, until it execs the real init).  Each
 * "r-xp" line of /proc/PID/maps ("START-END PERMS OFFSET DEV INODE
 * PATH", fs/proc/task_mmu.c show_map_vma()) with a path is kept as a
 * mapping of time 0 (mapped before the events opened: any later one of
 * the process at the same place is newer), written as the records' are
 * (map_lines(): the sampled processes' and what they inherited).  Kernel threads
 * have no mappings.  Best effort: a process that ends meanwhile is
 * skipped.
 */
static void mmaps_before(struct agent *a)
{
	char dir[AGENT_PATH_MAX], path[AGENT_PATH_MAX + 32], buf[512];
	struct dirent *e;
	DIR *d;

	if (rooted(a, dir, sizeof(dir), "/proc") || !(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		char *end;
		unsigned long pid = strtoul(e->d_name, &end, 10);
		FILE *f;

		if (*end || !pid || pid > 0x7fffffffUL)
			continue;
		snprintf(path, sizeof(path), "%s/%lu/maps", dir, pid);
		if (!(f = fopen(path, "re")))
			continue;
		while (fgets(buf, sizeof(buf), f)) {
			unsigned long long start, stop, off;
			char *s = buf, *range, *perms, *dash, *path;

			/*
			 * "START-END PERMS PGOFF DEV INODE   PATH" (fs/proc/
			 * task_mmu.c show_map_vma()); a path past the buffer:
			 * its tail, read as another line, does not parse
			 */
			range = next_word(&s);
			perms = next_word(&s);
			if (!range || !(dash = strchr(range, '-')))
				continue;
			*dash = '\0';
			if (word_ull(range, 16, &start) || word_ull(dash + 1, 16, &stop) ||
			    !perms || strlen(perms) < 3 || perms[2] != 'x' ||
			    word_ull(next_word(&s), 16, &off) || !next_word(&s) ||
			    !next_word(&s) || stop <= start)
				continue;
			path = s + strspn(s, " \t");
			if (*path != '/' && *path != '[')
				continue;
			map_add(a, (uint32_t)pid, 0, start, stop - start, off,
				path, strcspn(path, "\n"));
		}
		fclose(f);
	}
	closedir(d);
}

/* Copy @len bytes at ring offset @off (wrapping) to @dst. */
static void ring_copy(const struct perf_ring *r, uint64_t off, char *dst,
		      size_t len)
{
	size_t at = off & (r->size - 1), first = r->size - at;

	if (first > len)
		first = len;
	memcpy(dst, r->data + at, first);
	memcpy(dst + first, r->data, len - first);
}

/* Read every whole record between data_tail and data_head of @r. */
static void ring_drain(struct agent *a, struct perf_probe *p,
		       struct perf_ring *r)
{
	static char rec[65536];
	volatile struct perf_event_mmap_page *pg = r->base;
	uint64_t head, tail;

	/*
	 * On 32-bit MIPS the u64 head is two loads; its high word moves
	 * once per 4 GiB of data, far beyond a boot.
	 */
	head = pg->data_head;
	__sync_synchronize();	/* read data only after head */
	tail = pg->data_tail;
	while (tail < head) {
		struct perf_event_header h;

		ring_copy(r, tail, (char *)&h, sizeof(h));
		/* (h.size is a u16: a record always fits rec) */
		if (h.size < sizeof(h) || h.size > head - tail) {
			p->bad++;
			tail = head;	/* the ring is not what we think: skip it */
			break;
		}
		ring_copy(r, tail, rec, h.size);
		if (h.type == PERF_RECORD_SAMPLE && p->ustack) {
			sample_user(a, p, rec + sizeof(h), h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_SAMPLE) {
			sample(a, p, rec + sizeof(h), h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_MMAP2) {
			mmap_line(a, p, rec + sizeof(h), h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_FORK) {
			fork_record(a, rec + sizeof(h), h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_COMM &&
			   (h.misc & PERF_RECORD_MISC_COMM_EXEC)) {
			exec_record(a, rec + sizeof(h), h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t lost;

			memcpy(&lost, rec + sizeof(h) + 8, 8);
			p->lost += lost;
		} else if (h.type == PERF_RECORD_THROTTLE) {
			p->throttled++;
		}
		tail += h.size;
	}
	__sync_synchronize();	/* done reading before the kernel may reuse it */
	pg->data_tail = tail;
}

/*
 * perf_drain() - read every ring of every "perf" probe into the sample
 * text (a->perf_text, at most PERF_TEXT_MAX bytes; more is counted in
 * a->perf_dropped).  Cheap when the rings are empty.
 */
void perf_drain(struct agent *a)
{
	size_t i, j;

	for (i = 0; i < a->n_perf; i++)
		for (j = 0; j < a->perf[i].nrings; j++)
			ring_drain(a, &a->perf[i], &a->perf[i].rings[j]);
}

/*
 * The data pages of one ring of a probe: PERF_DATA_PAGES for a kernel
 * callchain; for @ustack bytes of user stack per sample, room for
 * PERF_USTACK_SAMPLES samples as a power of two, at most
 * PERF_USTACK_RING bytes, halved while @ncpu such rings and the ones
 * already mapped (a->perf_ring_bytes) pass 1/PERF_RING_RAM_DIV of the
 * RAM, never below PERF_DATA_PAGES.  @psz: the page size in bytes.
 */
static size_t ring_pages(const struct agent *a, unsigned long ustack,
			 long ncpu, long psz)
{
	/* a sample: header, TID TIME CPU, ABI, registers, size, data, dyn_size */
	unsigned long long want, ram;
	long phys = sysconf(_SC_PHYS_PAGES);
	size_t pages = PERF_DATA_PAGES;

	if (!ustack)
		return pages;
	want = (unsigned long long)PERF_USTACK_SAMPLES *
	       (8 + 24 + 8 + 8 * 64 + 8 + ustack + 8);
	while ((unsigned long long)pages * psz < want &&
	       (unsigned long long)pages * 2 * psz <= PERF_USTACK_RING)
		pages *= 2;
	ram = phys > 0 ? (unsigned long long)phys * psz : 0;
	while (pages > PERF_DATA_PAGES && ram &&
	       a->perf_ring_bytes + (unsigned long long)ncpu * pages * psz >
	       ram / PERF_RING_RAM_DIV)
		pages /= 2;
	return pages;
}

/* The id of tracefs events/@event/id (@event: "GROUP/NAME"), or -errno. */
static long long event_id(const struct agent *a, const char *event,
			  char *path, size_t size)
{
	char rel[AGENT_PATH_MAX], buf[32], *end;
	long long id;
	ssize_t n;

	if (!a->tracefs[0])
		return -ENOENT;
	if (snprintf(rel, sizeof(rel), "events/%s/id", event) >= (int)sizeof(rel) ||
	    path_join(path, size, a->tracefs, rel))
		return -ENAMETOOLONG;
	n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	id = strtoll(buf, &end, 10);
	if (end == buf || id < 0)
		return -EINVAL;
	return id;
}

/*
 * The kprobe PMU's type (/sys/bus/event_source/devices/kprobe/type,
 * kernel/events/core.c: perf_kprobe, 4.17+), or -errno (ENOENT without
 * it or without sysfs).  Read once: a registered PMU keeps its type, a
 * dynamic one above PERF_TYPE_MAX, never 0 (perf_pmu_register()).
 */
static long long kprobe_pmu_type(struct agent *a)
{
	char path[AGENT_PATH_MAX], buf[32], *end;
	long long type;
	ssize_t n;

	if (a->kprobe_pmu > 0)
		return a->kprobe_pmu;
	if (rooted(a, path, sizeof(path),
		   "/sys/bus/event_source/devices/kprobe/type"))
		return -ENAMETOOLONG;
	n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	type = strtoll(buf, &end, 10);
	if (end == buf || type < 0 || type > UINT32_MAX)
		return -EINVAL;
	a->kprobe_pmu = type;
	return type;
}

/*
 * pmu_kprobe() - @event "kprobe:SYM[+OFF]" into @attr as a kprobe of the
 * kprobe PMU (attr.config1 = the symbol's name, which @sym holds until
 * the event is open; attr.config2 = OFF, kernel/trace/trace_event_perf.c:
 * perf_kprobe_init()): the kernel registers a kprobe of perf's own, with
 * no tracefs event, no kprobe_events line and no id to read, so a kprobe
 * the kernel defined from its command line (kprobe_event=, which 6.1
 * often leaves without an events/ directory) gets its callchains here.
 * Returns 0, or -errno (no PMU, a bad offset).
 */
static int pmu_kprobe(struct agent *a, const char *event,
		      struct perf_event_attr *attr, char *sym, size_t size)
{
	const char *s = event + strlen("kprobe:");
	size_t n = strcspn(s, "+");
	unsigned long long off = 0;
	long long type;
	char *end;

	if (!n || n >= size)
		return -EINVAL;
	if (s[n]) {
		errno = 0;
		off = strtoull(s + n + 1, &end, 0);
		if (errno || end == s + n + 1 || *end || off > UINT32_MAX)
			return -EINVAL;
	}
	memcpy(sym, s, n);
	sym[n] = '\0';
	type = kprobe_pmu_type(a);
	if (type < 0)
		return (int)type;
	attr->type = type;
	attr->config = 0;	/* format/retprobe: bit 0, a kprobe here */
	attr->config1 = (uintptr_t)sym;
	attr->config2 = off;
	return 0;
}

/*
 * perf_open() - plan line "perf PROBE GROUP/EVENT [USTACK [callchain]]"
 * or "perf PROBE kprobe:SYM[+OFF]" (a kprobe of perf's own: pmu_kprobe()):
 * sample the trace event on every CPU with its kernel callchain, or,
 * when @ustack (bytes, a multiple of 8 up to PERF_USTACK_MAX) is not 0,
 * with the user registers and @ustack bytes of user stack, and the
 * kernel callchain as well when @callchain.  One item per line:
 * "armed" with "perf: N cpus, id ID", or "failed" with the reason
 * (no tracefs, no such event, perf_event_open's errno: ENOENT without
 * CONFIG_PERF_EVENTS, EACCES under perf_event_paranoid for non-root).
 * The events' fds are close-on-exec: the window child, which inherits
 * them, is what keeps sampling after the real init starts.
 */
void perf_open(struct agent *a, const char *probe, const char *event,
	       unsigned long ustack, int callchain)
{
	struct perf_event_attr attr;
	char path[AGENT_PATH_MAX], detail[200], sym[128], what[96];
	struct perf_probe *p;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), psz = page_size();
	int pmu = !strncmp(event, "kprobe:", 7);
	long long id = 0;
	size_t pages, i;
	int cpu, err = 0;

	if (a->n_perf == AGENT_MAX_PERF) {
		agent_item(a, probe, "failed", "perf", "too many perf probes");
		return;
	}
	/*
	 * Another probe's event with the same samples (a function's stack
	 * and a kprobe's at the same symbol): one perf event and ring, each
	 * sample written for both (sample()).
	 */
	for (i = 0; i < a->n_perf; i++) {
		const struct perf_probe *q = &a->perf[i];

		if (q->same || q->ustack || ustack || strcmp(q->event, event))
			continue;
		p = &a->perf[a->n_perf++];
		memset(p, 0, sizeof(*p));
		p->probe = xstrdup(probe);
		p->event = xstrdup(event);
		p->same = i + 1;
		snprintf(detail, sizeof(detail), "perf: %zu cpus, %.72s, the event of %.40s",
			 q->nrings, event, q->probe);
		agent_item(a, probe, "armed", "perf", detail);
		return;
	}
	memset(&attr, 0, sizeof(attr));
	if (pmu) {
		err = pmu_kprobe(a, event, &attr, sym, sizeof(sym));
		if (err) {
			snprintf(detail, sizeof(detail), "kprobe PMU: %s",
				 strerror(-err));
			agent_item(a, probe, "failed", "perf", detail);
			return;
		}
	} else {
		id = event_id(a, event, path, sizeof(path));
		if (id < 0) {
			agent_item(a, probe, "failed", "perf",
				   a->tracefs[0] ? strerror((int)-id) : "no tracefs");
			return;
		}
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = id;
	}
	if (ncpu < 1)
		ncpu = 1;
	p = &a->perf[a->n_perf];
	memset(p, 0, sizeof(*p));
	p->probe = xstrdup(probe);
	p->event = xstrdup(event);
	p->ustack = ustack;
	p->callchain = ustack && callchain;
	p->rings = calloc(ncpu, sizeof(*p->rings));
	if (!p->rings) {
		agent_item(a, probe, "failed", "perf", strerror(ENOMEM));
		return;
	}
	attr.size = sizeof(attr);
	attr.sample_period = 1;
	attr.sample_type = sample_type;
	attr.exclude_callchain_user = 1;	/* kernel stacks (MIPS records no user ones) */
	if (ustack) {
		attr.sample_type = sample_type_user |
				   (p->callchain ? PERF_SAMPLE_CALLCHAIN : 0);
		attr.sample_regs_user = USER_REGS_MASK;
		attr.sample_stack_user = ustack;
		/*
		 * The first user-stack probe's events also report every
		 * executable mmap on their CPU (PERF_RECORD_MMAP2, with the
		 * sample's TID, TIME, CPU: sample_id_all): which shared
		 * object holds a user pc.  One probe's are enough.
		 */
		if (!a->perf_mmaps) {
			attr.mmap = 1;
			attr.mmap2 = 1;
			attr.comm = 1;		/* with comm_exec: each exec */
			attr.comm_exec = 1;
			attr.sample_id_all = 1;
		}
	}
	pages = ring_pages(a, ustack, ncpu, psz);
	attr.watermark = 1;	/* wake the poll at half a ring */
	attr.wakeup_watermark = pages * psz / 2;
	for (cpu = 0; cpu < ncpu; cpu++) {
		struct perf_ring *r = &p->rings[p->nrings];
		size_t len = (1 + pages) * psz;
		int fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
				 PERF_FLAG_FD_CLOEXEC);

		if (fd < 0) {
			if (errno != ENODEV)	/* ENODEV: CPU offline */
				err = errno;
			continue;
		}
		r->base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, 0);
		if (r->base == MAP_FAILED && pages > PERF_DATA_PAGES) {
			/* no room for the big ring: a small one samples less */
			len = (1 + PERF_DATA_PAGES) * psz;
			r->base = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_SHARED, fd, 0);
		}
		if (r->base == MAP_FAILED) {
			err = errno;
			close(fd);
			continue;
		}
		r->fd = fd;
		r->cpu = cpu;
		r->data = (char *)r->base + psz;
		r->size = len - psz;
		p->nrings++;
		a->perf_ring_bytes += r->size;
	}
	if (!p->nrings) {
		snprintf(detail, sizeof(detail), "perf_event_open: %s",
			 strerror(err ? err : ENODEV));
		agent_item(a, probe, "failed", "perf", detail);
		free(p->rings);
		return;
	}
	if (pmu)
		snprintf(what, sizeof(what), "kprobe PMU at %.72s", event + 7);
	else
		snprintf(what, sizeof(what), "id %lld", id);
	snprintf(detail, sizeof(detail), "perf: %zu cpus, %s%s%s%s%s",
		 p->nrings, what, p->callchain ? ", kernel callchain" : "",
		 ustack ? ", user stack" : "",
		 err ? ", some cpus failed: " : "",
		 err ? strerror(err) : "");
	agent_item(a, probe, "armed", "perf", detail);
	if (attr.mmap2 && !a->perf_mmaps)
		mmaps_before(a);	/* after the open: nothing falls between */
	a->perf_mmaps |= attr.mmap2;
	a->n_perf++;
}

/*
 * perf_wait() - sleep until @until (CLOCK_MONOTONIC), reading the rings
 * whenever one is half full and every PERF_POLL_MS, so a boot's worth of
 * samples is not lost to a full ring.
 */
void perf_wait(struct agent *a, const struct timespec *until)
{
	struct pollfd fds[256];
	size_t i, j, n = 0;

	for (i = 0; i < a->n_perf; i++)
		for (j = 0; j < a->perf[i].nrings && n < 256; j++) {
			fds[n].fd = a->perf[i].rings[j].fd;
			fds[n++].events = POLLIN;
		}
	for (;;) {
		struct timespec now;
		long long ms;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (until->tv_sec - now.tv_sec) * 1000LL +
		     (until->tv_nsec - now.tv_nsec) / 1000000;
		if (ms <= 0)
			break;
		if (poll(fds, n, ms < PERF_POLL_MS ? (int)ms : PERF_POLL_MS) < 0 &&
		    errno != EINTR)
			usleep(PERF_POLL_MS * 1000);
		perf_drain(a);
	}
}

/*
 * One "module NAME BASE SIZE SECTIONS" line per loaded module, so the
 * host can name callchain addresses inside modules: BASE and SIZE are the
 * module's core (text and data) from /proc/modules; SECTIONS lists the
 * code sections (.text*, .init.text, .exit.text) as NAME=ADDR from
 * /sys/module/NAME/sections/ (root only; "-" when unreadable).  .init.text
 * lies outside the core: a module_init function such as bonding_init.
 */
static void module_lines(struct agent *a, struct out *o)
{
	static char mods[65536];
	char path[AGENT_PATH_MAX], rel[128], text[32], secs[1024], *line;
	char *save = NULL;

	if (rooted(a, path, sizeof(path), "/proc/modules") ||
	    read_small(path, mods, sizeof(mods)) <= 0)
		return;
	for (line = strtok_r(mods, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *s = line, *name, *state, *base, *w;
		unsigned long long size;

		/* "bonding 180224 0 - Live 0xc0020000 [(O)...]" */
		name = next_word(&s);
		w = next_word(&s);
		if (!name || strlen(name) > 63 || word_ull(w, 10, &size) ||
		    !next_word(&s) || !next_word(&s) ||
		    !(state = next_word(&s)) || strlen(state) > 15 ||
		    !(base = next_word(&s)) || strlen(base) > 31)
			continue;
		size_t n = 0;
		DIR *dir;
		struct dirent *de;

		secs[0] = '\0';
		snprintf(rel, sizeof(rel), "/sys/module/%s/sections", name);
		if (!rooted(a, path, sizeof(path), rel) && (dir = opendir(path))) {
			while ((de = readdir(dir))) {
				char spath[AGENT_PATH_MAX];

				if (strncmp(de->d_name, ".text", 5) &&
				    strcmp(de->d_name, ".init.text") &&
				    strcmp(de->d_name, ".exit.text"))
					continue;
				if (snprintf(rel, sizeof(rel), "/sys/module/%s/sections/%s",
					     name, de->d_name) >= (int)sizeof(rel) ||
				    rooted(a, spath, sizeof(spath), rel) ||
				    read_small(spath, text, sizeof(text)) <= 0)
					continue;
				text[strcspn(text, "\n")] = '\0';
				n += snprintf(secs + n, sizeof(secs) - n, "%s%s=%s",
					      n ? "," : "", de->d_name, text);
				if (n >= sizeof(secs))
					break;
			}
			closedir(dir);
		}
		if (n >= sizeof(secs) || !n)
			strcpy(secs, "-");
		out_printf(o, "module\t%s\t%s\t%llu\t%s\n", name, base, size, secs);
	}
}

/*
 * "stext ADDR": where _stext is in this boot (/proc/kallsyms, real
 * addresses for root).  A relocatable kernel (Debian's Malta one has
 * CONFIG_RANDOMIZE_BASE) moves its text each boot, so the host needs
 * this to name callchain addresses from a System.map, vmlinux or capture.
 * _stext is among the first lines; at most 256 KiB are read.
 */
void stext_line(struct agent *a, struct out *o)
{
	char path[AGENT_PATH_MAX], buf[4097], *hit = NULL;
	size_t have = 0, total = 0;
	int fd;

	if (rooted(a, path, sizeof(path), "/proc/kallsyms") ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	while (total < 256 * 1024) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		total += n;
		have += n;
		buf[have] = '\0';
		hit = strstr(buf, " T _stext\n");
		if (hit)
			break;
		/* keep the last partial line */
		nl = strrchr(buf, '\n');
		if (nl) {
			have = buf + have - (nl + 1);
			memmove(buf, nl + 1, have);
		} else {
			have = 0;
		}
	}
	close(fd);
	if (hit) {
		char *start = hit;

		while (start > buf && start[-1] != '\n')
			start--;
		out_printf(o, "stext\t%.*s\n", (int)(hit - start), start);
	}
}

/* The time of @pid's last exec no later than @until; 0: none seen. */
static uint64_t last_exec(const struct agent *a, uint32_t pid, uint64_t until)
{
	uint64_t t = 0;
	size_t k;

	for (k = 0; k < a->n_execs; k++)
		if (a->execs[k].pid == pid && a->execs[k].time <= until &&
		    a->execs[k].time > t)
			t = a->execs[k].time;
	return t;
}

/*
 * The "perf-mmap" lines of the processes with a kept user-stack sample,
 * oldest first (the host takes the last line of the sample's pid that
 * holds a pc): the mappings a process inherited at its fork, from its
 * parent's parent down (at most PERF_FORK_DEPTH up, each made before
 * the fork that passed it on), under its own pid and their own time,
 * then its own.  A process that exec'ed keeps only its mappings since
 * its last exec (PERF_RECORD_COMM, comm_exec): nothing older survives
 * an exec.  Other processes' mappings are not written.
 */
static void map_lines(struct agent *a, struct out *o)
{
	size_t i, j, k;

	for (i = 0; i < a->n_upids; i++) {
		uint32_t who[PERF_FORK_DEPTH + 1];
		uint64_t until[PERF_FORK_DEPTH + 1], from[PERF_FORK_DEPTH + 1];
		int depth = 0;

		who[0] = a->upids[i];
		until[0] = UINT64_MAX;
		for (;;) {
			const struct perf_fork *f = NULL;

			from[depth] = last_exec(a, who[depth], until[depth]);
			if (from[depth] || depth == PERF_FORK_DEPTH)
				break;
			/* the last fork that made who[depth] before until[depth] */
			for (k = 0; k < a->n_forks; k++)
				if (a->forks[k].pid == who[depth] &&
				    a->forks[k].time <= until[depth] &&
				    (!f || a->forks[k].time >= f->time))
					f = &a->forks[k];
			if (!f)
				break;
			depth++;
			who[depth] = f->ppid;
			until[depth] = f->time;
		}
		for (; depth >= 0; depth--)
			for (j = 0; j < a->n_maps; j++) {
				const struct perf_map *m = &a->maps[j];

				if (m->pid == who[depth] && m->time <= until[depth] &&
				    m->time >= from[depth])
					out_printf(o, "perf-mmap\t%llu\t%u\t%s",
						   (unsigned long long)m->time,
						   who[0], m->rest);
			}
	}
}

/*
 * perf_dump() - the "perf" lines of docs/plan.md into @o: the samples
 * read so far, then one "perf-stat" line per probe.  Drains first.
 * "stext", "module" and "perf-mmap", which only name the samples'
 * addresses, go with samples alone: the init dump, before the real
 * init's exec, rarely has any, and /proc/kallsyms, /proc/modules and
 * the maps cost the boot each first read (a few ms on Malta under TCG).
 */
void perf_dump(struct agent *a, struct out *o)
{
	size_t i;

	if (!a->n_perf)
		return;
	perf_drain(a);
	if (a->perf_len) {
		stext_line(a, o);
		module_lines(a, o);
		map_lines(a, o);
		out_write(o, a->perf_text, a->perf_len);
	}
	for (i = 0; i < a->n_perf; i++) {
		const struct perf_probe *q = &a->perf[i];
		const struct perf_probe *p = q->same ? &a->perf[q->same - 1] : q;

		out_printf(o, "perf-stat\t%s\tsamples\t%llu\tlost\t%llu\tthrottled\t%llu\tbad\t%llu\n",
			   q->probe, p->samples, p->lost, p->throttled, p->bad);
	}
	if (a->perf_dropped)
		out_printf(o, "note\tperf\t%llu samples not kept (more than %d bytes)\n",
			   a->perf_dropped, PERF_TEXT_MAX);
	if (a->maps_dropped)
		out_printf(o, "note\tperf-mmap\t%llu mappings not kept (more than %d)\n",
			   a->maps_dropped, PERF_MAPS_MAX);
}
