// SPDX-License-Identifier: GPL-2.0
/*
 * probecc early-init agent: the kernel log at dump time (docs/plan.md,
 * "kprobe-oops").
 *
 * MIPS kernels (6.1, Debian's Malta and Loongson ones and the test
 * kernel alike) sometimes oops in their own kprobe single-step: the
 * second break of a kprobe's instruction slot (BRK_KPROBE_SSTEPBP, 516,
 * arch/mips/include/uapi/asm/break.h) is taken when the kprobe is no
 * longer current, post_kprobe_handler() declines it and do_bp() dies
 * with "Break instruction in kernel code" (arch/mips/kernel/traps.c).
 * The task is killed, the boot goes on, and oops_enter() has turned
 * tracing off (kernel/panic.c): from then on no probe's hits reach the
 * trace (kernel-patches/README.md).  Without a word from the agent that
 * is a silent miss; the dump says when it happened, where, in which
 * task, and how often the kernel counted each kprobe event's hits.
 *
 * The log is read from ROOT/dev/kmsg opened O_NONBLOCK: the read that
 * would wait for a new record returns EAGAIN instead, so the boot never
 * waits on it.  Reading /dev/kmsg does not consume anything (unlike
 * /proc/kmsg).  A regular file in its place (tests) is read line by line
 * in the same format.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

/* "break 516": the single-step break of a MIPS kprobe's insn slot */
#define SSTEP_BREAK	0x0000810dUL
/* bounds: a log being written while it is read is not chased forever */
#define KMSG_MAX_BYTES	(8 * 1024 * 1024)
#define KMSG_REC_MAX	8192	/* a read of /dev/kmsg returns one record */
#define TAINT_DIE_BIT	7	/* include/linux/panic.h: TAINT_DIE */

/* One oops being read: its header seen, its "end trace" line not yet. */
struct oops_scan {
	int open;
	char time[32];		/* SECONDS.MICROS of the header record */
	char epc[24];		/* hex, "-" until an "epc   :" line */
	char task[64];		/* COMM-PID, "-" until a "CPU:"/"Process" line */
	int word_known;
	unsigned long word;	/* the instruction at epc, from "Code:" */
};

static void oops_start(struct oops_scan *s, const char *ts)
{
	unsigned long long us = strtoull(ts, NULL, 10);

	memset(s, 0, sizeof(*s));
	s->open = 1;
	snprintf(s->time, sizeof(s->time), "%llu.%06llu", us / 1000000,
		 us % 1000000);
	strcpy(s->epc, "-");
	strcpy(s->task, "-");
}

/*
 * An oops ends (its "---[ end trace" line, the next oops or the end of
 * the log): kept when it is the kprobe single-step one, or when the
 * Code line that would tell is missing.
 */
static void oops_end(struct agent *a, struct oops_scan *s)
{
	if (s->open && (!s->word_known || s->word == SSTEP_BREAK) &&
	    a->n_oops < AGENT_MAX_OOPS) {
		snprintf(a->oops[a->n_oops], sizeof(a->oops[0]), "%s\t%s\t%s",
			 s->time, s->epc, s->task);
		a->n_oops++;
	}
	s->open = 0;
}

/* The task of "CPU: 0 PID: 1 Comm: init Not tainted ..." (lib/dump_stack.c). */
static void task_of_cpu_line(struct oops_scan *s, const char *text)
{
	const char *pid = strstr(text, " PID: "), *comm = strstr(text, " Comm: ");
	size_t len;
	long n;

	if (!pid || !comm)
		return;
	comm += 7;
	len = strcspn(comm, " \t\n");
	if (!len)
		return;
	n = strtol(pid + 6, NULL, 10);
	snprintf(s->task, sizeof(s->task), "%.*s-%ld", (int)(len < 20 ? len : 20), comm, n);
	sanitize_field(s->task);
}

/* One record's text (after "PRI,SEQ,TS,FLAGS;"), its time field @ts. */
static void kmsg_text(struct agent *a, struct oops_scan *s, const char *ts,
		      const char *text)
{
	const char *lt;

	if (!strncmp(text, "Break instruction in kernel code[#", 34)) {
		oops_end(a, s);
		oops_start(s, ts);
		return;
	}
	if (!s->open)
		return;
	if (!strncmp(text, "epc   : ", 8)) {
		size_t n = strspn(text + 8, "0123456789abcdefABCDEF");

		if (n && n < sizeof(s->epc)) {
			memcpy(s->epc, text + 8, n);
			s->epc[n] = '\0';
		}
	} else if (!strncmp(text, "CPU: ", 5)) {
		task_of_cpu_line(s, text);
	} else if (!strncmp(text, "Code: ", 6) && (lt = strchr(text, '<')) &&
		   strspn(lt + 1, "0123456789abcdef") == 8 && lt[9] == '>') {
		s->word = strtoul(lt + 1, NULL, 16);
		s->word_known = 1;
	} else if (!strncmp(text, "---[ end trace", 14)) {
		oops_end(a, s);
	}
}

/* One log line "PRI,SEQ,TS,FLAGS[,...];TEXT" (a " KEY=VALUE" line is skipped). */
static void kmsg_line(struct agent *a, struct oops_scan *s, char *line)
{
	char *semi = strchr(line, ';'), *c1, *c2;

	if (line[0] == ' ' || !semi)
		return;
	*semi = '\0';
	c1 = strchr(line, ',');
	c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	if (!c2)
		return;
	kmsg_text(a, s, c2 + 1, semi + 1);
}

/*
 * The oops is MIPS's own ("Break instruction in kernel code" is do_bp()'s,
 * arch/mips/kernel/traps.c): elsewhere the scan can find nothing, and it
 * is not free (one read(2) per record: 20-28 ms of the init dump on
 * arm64 under QEMU, bench/README.md).  As PID 1 the running kernel
 * says what it is (@machine, uname(2)'s: "mips" or "mips64"; "-" when
 * uname failed, which is scanned); in test mode the host's kernel says
 * nothing about the target, so the plan's arch does, and a plan without
 * one is scanned.
 */
static int may_oops(const struct agent *a, const char *machine)
{
	if (a->pid1)
		return !strcmp(machine, "-") || !strncmp(machine, "mips", 4);
	return !a->arch[0] || !strncmp(a->arch, "mips", 4);
}

/*
 * Has the kernel oopsed at all?  die() taints the kernel with TAINT_DIE
 * (bit 7, 'D') right after printing an oops (arch/mips/kernel/traps.c,
 * include/linux/panic.h), and ROOT/proc/sys/kernel/tainted gives the
 * mask in decimal (kernel/sysctl.c): one read instead of one per log
 * record on the boots that have no oops, most of them.  A mask that
 * cannot be read (no proc, a test root without it) says nothing: 1.
 */
static int oopsed(const struct agent *a)
{
	char path[AGENT_PATH_MAX], buf[32], *end;
	unsigned long long mask;

	if (rooted(a, path, sizeof(path), "/proc/sys/kernel/tainted") ||
	    read_small(path, buf, sizeof(buf)) <= 0)
		return 1;
	errno = 0;
	mask = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return 1;
	return (mask >> TAINT_DIE_BIT) & 1;
}

/*
 * kmsg_scan() - find the MIPS kprobe single-step oopses in the kernel
 * log into @a->oops (at most AGENT_MAX_OOPS, "TIME EPC TASK" each).
 *
 * Reads ROOT/dev/kmsg from its first record to the last one there now
 * (O_NONBLOCK: EAGAIN ends it; EPIPE, records overwritten while read,
 * is skipped), at most KMSG_MAX_BYTES, on MIPS only (may_oops()) and
 * only once the kernel is tainted by an oops (oopsed()).  No
 * kmsg (ENOENT: a kernel without devtmpfs, a test root) finds nothing;
 * another failure to open or read it is a "note kmsg" line.  Called
 * before each dump, so each dump holds every such oops of the boot so
 * far.  @machine: the running kernel's, as frame_begin() read it.
 */
void kmsg_scan(struct agent *a, const char *machine)
{
	static char rec[KMSG_REC_MAX], line[KMSG_REC_MAX];
	char path[AGENT_PATH_MAX];
	struct oops_scan s = { 0 };
	size_t len = 0, total = 0;
	int fd;

	a->n_oops = 0;
	if (!may_oops(a, machine) || !oopsed(a) ||
	    rooted(a, path, sizeof(path), "/dev/kmsg"))
		return;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			agent_note(a, "kmsg", "%s: %s", path, strerror(errno));
		return;
	}
	while (total < KMSG_MAX_BYTES) {
		ssize_t n = read(fd, rec, sizeof(rec));
		ssize_t i;

		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (n < 0 && errno != EAGAIN)
			agent_note(a, "kmsg", "%s: %s", path, strerror(errno));
		if (n <= 0)
			break;
		total += n;
		for (i = 0; i < n; i++) {
			if (rec[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = rec[i];
				continue;
			}
			line[len] = '\0';
			kmsg_line(a, &s, line);
			len = 0;
		}
	}
	if (len) {
		line[len] = '\0';
		kmsg_line(a, &s, line);
	}
	oops_end(a, &s);
	close(fd);
}

/*
 * kprobe_profile_lines() - after a kprobe-oops line, one "kprobe-profile
 * EVENT HITS MISSED" line per kprobe event of tracefs/kprobe_profile
 * (kernel/trace/trace_kprobe.c: probes_profile_seq_show, "  NAME HITS
 * MISSED"): the kernel counts hits in the kprobe's handler, also those
 * after the oops that the trace (turned off) no longer gets.  The oops
 * names the instruction slot, which no file maps back to its kprobe
 * (debugfs kprobes/list gives the probed addresses), so every kprobe
 * event is given.
 */
void kprobe_profile_lines(const struct agent *a, struct out *o)
{
	char path[AGENT_PATH_MAX], line[256];
	unsigned long long hits, missed;
	FILE *f;

	if (!a->n_oops || !a->tracefs[0] ||
	    path_join(path, sizeof(path), a->tracefs, "kprobe_profile"))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	/* "  %-44s %15lu %15lu\n" (kernel/trace/trace_kprobe.c probes_profile_seq_show()) */
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *name = next_word(&s);

		if (!name || strlen(name) > 127 || word_ull(next_word(&s), 10, &hits) ||
		    word_ull(next_word(&s), 10, &missed))
			break;
		out_printf(o, "kprobe-profile\t%s\t%llu\t%llu\n", name, hits, missed);
	}
	fclose(f);
}
