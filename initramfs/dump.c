// SPDX-License-Identifier: GPL-2.0
/*
 * probecc early-init agent: the sink and the dump (docs/plan.md, "Dump").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <termios.h>
#include <unistd.h>

#include "agent.h"

#define MAX_CPUS	4096

/* Is @path (a plan path, before rooting) a device under /dev/? */
static int under_dev(const char *path)
{
	return !strncmp(path, "/dev/", 5);
}

/* Open the console (rooted) for the sink; -1 and errno on failure. */
static int open_console(const struct agent *a)
{
	char path[AGENT_PATH_MAX];

	if (rooted(a, path, sizeof(path), "/dev/console")) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
}

/*
 * sink_open() - open where dumps go into @a->sink_fd (O_CLOEXEC, so the
 * real init does not inherit it; the window child keeps it).
 *
 * --sink (a host path) wins over the plan's sink.  "console" is
 * /dev/console.  A path under /dev/ is opened without O_CREAT: without
 * devtmpfs, /dev/ttyS1 would otherwise become a regular file in the
 * initramfs (shared/notes/qemu-facts.md).  Another path is created and
 * truncated.  On failure the agent notes it and falls back to the console,
 * then to a copy of fd 1; @a->sink_fd stays -1 only if all fail.  A tty
 * sink other than the console gets OPOST cleared so the dump arrives
 * byte for byte (no "\r\n"); the console is left as the kernel set it.
 */
void sink_open(struct agent *a)
{
	char path[AGENT_PATH_MAX];
	const char *want = a->sink_override[0] ? a->sink_override : a->sink;
	int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC, fd = -1, console;
	struct termios t;

	console = !a->sink_override[0] && !strcmp(a->sink, "console");
	if (console) {
		fd = open_console(a);
		if (fd < 0)
			agent_note(a, "sink", "console: %s; using stdout",
				   strerror(errno));
	} else {
		if (under_dev(want))
			flags |= O_APPEND;
		else
			flags |= O_CREAT | O_TRUNC;
		if (a->sink_override[0])
			snprintf(path, sizeof(path), "%s", want);
		else if (rooted(a, path, sizeof(path), want))
			path[0] = '\0';
		fd = path[0] ? open(path, flags, 0644) : -1;
		if (fd >= 0 && a->overlay && !under_dev(want))
			agent_note(a, "sink", "%s is %s in the initramfs, which the real init frees at switch_root: copy it out before, or dump to a device",
				   want, path);
		if (fd < 0) {
			agent_note(a, "sink", "%s: %s; using console", want,
				   path[0] ? strerror(errno) :
				   strerror(ENAMETOOLONG));
			fd = open_console(a);
			if (fd < 0)
				agent_note(a, "sink", "console: %s; using stdout",
					   strerror(errno));
			console = 1;
		}
	}
	if (fd < 0)
		fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (fd >= 0 && !console && isatty(fd) && !tcgetattr(fd, &t)) {
		t.c_oflag &= ~OPOST;
		tcsetattr(fd, TCSANOW, &t);
	}
	a->sink_fd = fd;
}

/*
 * "SECONDS.MILLIS" from the first field of @a->root/proc/uptime; as PID 1
 * from CLOCK_BOOTTIME, which /proc/uptime reads (fs/proc/uptime.c, the
 * initial time namespace), without the file's first open and read on the
 * way to the real init's exec.
 */
static void uptime(const struct agent *a, char *out, size_t size)
{
	char path[AGENT_PATH_MAX], buf[128], frac[4] = "000";
	size_t i, n;
	struct timespec ts;

	if (!a->pid1 && !rooted(a, path, sizeof(path), "/proc/uptime") &&
	    read_small(path, buf, sizeof(buf)) > 0) {
		n = strspn(buf, "0123456789");
		if (n && n < 24 && buf[n] == '.') {
			for (i = 0; i < 3 && buf[n + 1 + i] >= '0' &&
				    buf[n + 1 + i] <= '9'; i++)
				frac[i] = buf[n + 1 + i];
			snprintf(out, size, "%.*s.%s", (int)n, buf, frac);
			return;
		}
	}
	/* /proc/uptime reads CLOCK_BOOTTIME too (fs/proc/uptime.c) */
	clock_gettime(CLOCK_BOOTTIME, &ts);
	snprintf(out, size, "%lld.%03ld", (long long)ts.tv_sec,
		 ts.tv_nsec / 1000000);
}

/* Copy the number after "@key: " in a per_cpu stats file into @out. */
static void stat_field(const char *stats, const char *key, char *out,
		       size_t size)
{
	size_t k = strlen(key), n;
	const char *p = stats;

	for (; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (!strncmp(p, key, k) && p[k] == ':' && p[k + 1] == ' ') {
			n = strspn(p + k + 2, "0123456789-");
			if (n && n < size) {
				memcpy(out, p + k + 2, n);
				out[n] = '\0';
				return;
			}
		}
	snprintf(out, size, "-");
}

static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return a < b ? -1 : a > b;
}

/*
 * cpu_lines() - one "cpu N entries E overrun O dropped D" line per
 * per_cpu/cpuN/stats, N ascending (kernel/trace/trace.c:
 * tracing_stats_read prints "entries: ", "overrun: ", "dropped events: ").
 */
static void cpu_lines(struct agent *a, struct out *o)
{
	char rel[sizeof(a->dump_dir) + 8];
	char path[AGENT_PATH_MAX], stats[1024], e[32], ov[32], dr[32];
	static int cpus[MAX_CPUS];
	struct dirent *de;
	size_t n = 0, i;
	DIR *d;

	snprintf(rel, sizeof(rel), "%sper_cpu", a->dump_dir);
	if (path_join(path, sizeof(path), a->tracefs, rel))
		return;
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) && n < MAX_CPUS) {
		char *end;
		long c;

		if (strncmp(de->d_name, "cpu", 3) || !de->d_name[3])
			continue;
		c = strtol(de->d_name + 3, &end, 10);
		if (!*end && c >= 0 && c < 1000000)
			cpus[n++] = c;
	}
	closedir(d);
	qsort(cpus, n, sizeof(cpus[0]), cmp_int);
	for (i = 0; i < n; i++) {
		char srel[sizeof(rel) + 32];

		snprintf(srel, sizeof(srel), "%s/cpu%d/stats", rel, cpus[i]);
		if (path_join(path, sizeof(path), a->tracefs, srel) ||
		    read_small(path, stats, sizeof(stats)) < 0)
			stats[0] = '\0';
		stat_field(stats, "entries", e, sizeof(e));
		stat_field(stats, "overrun", ov, sizeof(ov));
		stat_field(stats, "dropped events", dr, sizeof(dr));
		out_printf(o, "cpu\t%d\tentries\t%s\toverrun\t%s\tdropped\t%s\n",
			   cpus[i], e, ov, dr);
	}
}

/*
 * pause_on_trace() - make the kernel stop recording while tracefs/trace
 * is open.  trace is read to its end while the kernel appends to it, and
 * the dump's own reads, writes and serial interrupts are events too: on
 * Malta with "function do_* vfs_*" the reader chased them for 400 s and
 * the real init never ran.  The option pause-on-trace (off by default in
 * 6.1, kernel/trace/trace.c: __tracing_open() calls tracing_stop_tr(),
 * tracing_release() tracing_start_tr()) stops the ring buffer without
 * the tracer's start/stop hooks: writing tracing_on instead would run
 * function_trace_start(), which empties the buffer.  Kernels before the
 * option (5.10) always paused on open.
 *
 * Returns 2 when it turned the option on (pause_restore() turns it off
 * again after trace is closed, through *@fd, which stays open until
 * then: one open of the option's file for the whole dump), 1 when it
 * was on already, 0 when it is not there or cannot be set (*@fd -1 for
 * both).  What happens during the dump is not recorded: the manifest
 * says so (paused line).
 */
static int pause_on_trace(const struct agent *a, int *fd)
{
	char path[AGENT_PATH_MAX], v[8];
	ssize_t n;

	*fd = -1;
	if (!a->tracefs[0] ||
	    buf_path(a, path, sizeof(path), "options/pause-on-trace"))
		return 0;
	*fd = open(path, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return 0;
	do {
		n = pread(*fd, v, sizeof(v), 0);
	} while (n < 0 && errno == EINTR);
	/* at offset 0: the kernel's option file ignores it, a file (tests) not */
	if (n > 0 && v[0] != '1' && pwrite(*fd, "1", 1, 0) == 1)
		return 2;
	close(*fd);
	*fd = -1;
	return n > 0 && v[0] == '1';
}

static void pause_restore(struct agent *a, int fd)
{
	if (pwrite(fd, "0", 1, 0) != 1)
		agent_note(a, "trace", "options/pause-on-trace: cannot turn it off again: %s",
			   strerror(errno));
	close(fd);
}

/*
 * cut_at() - the end of the first line of @buf (@len bytes of whole
 * lines) that ends a cut dump: the one holding @mark (the dump's own
 * clock mark, "tracing_mark_write: probecc-clock N NS\n"), or the
 * kernel's "CPU:N [LOST ...]" line (the reader was overtaken: what
 * follows may be later than the mark, what came before is not).
 * Returns its length up to and with its newline, 0 when neither is in
 * @buf.
 */
static size_t cut_at(const char *buf, size_t len, const char *mark)
{
	const char *m = memmem(buf, len, mark, strlen(mark));
	const char *l = buf, *end = m ? m + strlen(mark) : NULL;

	while ((l = memmem(l, len - (l - buf), " [LOST ", 7))) {
		const char *bol = l;

		while (bol > buf && bol[-1] != '\n')
			bol--;
		if (end && bol >= end)
			break;
		if (!strncmp(bol, "CPU:", 4)) {
			end = memchr(l, '\n', len - (l - buf));
			end = end ? end + 1 : buf + len;
			break;
		}
		l += 7;
	}
	return end ? (size_t)(end - buf) : 0;
}

/*
 * copy_trace() - tracefs/trace (the open @tfd) into @o's chunks, read in
 * DUMP_FRAME_CHUNK_MAX pieces, each chunk cut after its last newline (the
 * rest starts the next one), and a newline added when the trace does not
 * end with one, so the end line starts a line.  @mark non-NULL: a cut
 * dump, whose ring buffer goes on recording while it is read: it ends
 * with the line cut_at() finds, the rest is not read.
 */
static void copy_trace(struct out *o, int tfd, const char *mark)
{
	static char chunk[DUMP_FRAME_CHUNK_MAX];
	size_t have = 0;

	while (!o->err) {
		ssize_t n = read(tfd, chunk + have, sizeof(chunk) - have);
		const char *nl;
		size_t k, cut;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += n;
		nl = memrchr(chunk, '\n', have);
		if (!nl && have < sizeof(chunk))
			continue;	/* a line not yet ended */
		k = nl ? (size_t)(nl - chunk + 1) : have;
		cut = mark ? cut_at(chunk, k, mark) : 0;
		if (cut) {
			out_chunk(o, chunk, cut);
			return;
		}
		out_chunk(o, chunk, k);
		memmove(chunk, chunk + k, have - k);
		have -= k;
	}
	if (have) {
		chunk[have++] = '\n';	/* have < sizeof(chunk): else written */
		out_chunk(o, chunk, have);
	}
}

/*
 * delta_line() - "KEY-?DIGITS" ending at a newline or the end of @s into
 * *@v, *@next after the newline.  Returns 0, or -EINVAL when @s is not
 * that line or the number is outside long long.
 */
static int delta_line(const char *s, const char *key, long long *v, char **next)
{
	size_t k = strlen(key), len;
	unsigned long long u, max = LLONG_MAX;
	const char *p = s + k;
	char num[24];
	int neg;

	if (strncmp(s, key, k))
		return -EINVAL;
	neg = *p == '-';
	p += neg;
	len = strcspn(p, "\n");
	if (!len || len >= sizeof(num))
		return -EINVAL;
	memcpy(num, p, len);
	num[len] = '\0';
	if (word_ull(num, 10, &u) || u > max + neg)
		return -EINVAL;
	*v = !neg ? (long long)u : u == max + 1 ? LLONG_MIN : -(long long)u;
	*next = (char *)p + len + (p[len] == '\n');
	return 0;
}

/*
 * "last_boot TEXT_DELTA DATA_DELTA" of the instance dump() reads: this
 * boot's kernel text and data minus the previous boot's, which its
 * addresses need (linux 6.12 kernel/trace/trace.c
 * tracing_last_boot_read(): "text delta:\t%ld\ndata delta:\t%ld\n";
 * ring_buffer.c: THIS_TEXT_PTR - meta->text_addr).
 */
static void last_boot_line(struct agent *a, struct out *o)
{
	char rel[sizeof(a->dump_dir) + 16], path[AGENT_PATH_MAX], buf[128];
	long long text, data;
	char *next;
	ssize_t n;
	int fd;

	snprintf(rel, sizeof(rel), "%slast_boot_info", a->dump_dir);
	if (path_join(path, sizeof(path), a->tracefs, rel) ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (!delta_line(buf, "text delta:\t", &text, &next) &&
	    !delta_line(next, "data delta:\t", &data, &next))
		out_printf(o, "last_boot\t%lld\t%lld\n", text, data);
	else
		agent_note(a, "persist", "%s: not understood", rel);
}

/*
 * clock_mark() - stamp both clocks into the trace: write "probecc-clock
 * N NS" to tracefs/trace_marker, NS the CLOCK_BOOTTIME nanoseconds read
 * just before the write, and return them in @tb[0] with the reading just
 * after in @tb[1].  The kernel stamps the marker event with the trace
 * clock (kernel/trace/trace.c: tracing_mark_write()) between the two, so
 * the host maps the manifest's CLOCK_BOOTTIME times (uptime, the agent's
 * start) onto the trace's clock from this boot's own readings: the
 * trace's default clock, local (sched_clock), and CLOCK_BOOTTIME
 * (timekeeping) drift apart under a loaded QEMU, 4 s by 31 s of a Malta
 * boot.  Returns 0, or -1 with a note (no timebase line then).
 */
static int clock_mark(struct agent *a, long long tb[2])
{
	char path[AGENT_PATH_MAX], msg[64];
	int fd, n, err = 0;

	if (!a->tracefs[0])
		return -1;
	if (buf_path(a, path, sizeof(path), "trace_marker"))
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		/* every tracefs has it: a missing one is a test's tracefs */
		if (errno != ENOENT)
			agent_note(a, "trace", "%s: %s: no timebase", path,
				   strerror(errno));
		return -1;
	}
	tb[0] = boot_ns();
	n = snprintf(msg, sizeof(msg), "probecc-clock %u %lld\n", a->n_dumps + 1,
		     tb[0]);
	if (write_all(fd, msg, n))
		err = errno;
	tb[1] = boot_ns();
	close(fd);
	if (err) {
		agent_note(a, "trace", "%s: %s: no timebase", path, strerror(err));
		return -1;
	}
	return 0;
}

/* "KEY\tUS" when @us was measured (>= 0). */
static void us_line(struct out *o, const char *key, long long us)
{
	if (us >= 0)
		out_printf(o, "%s\t%lld\n", key, us);
}

/*
 * dump() - write one framed dump (manifest, then tracefs/trace streamed
 * in DUMP_FRAME_CHUNK_MAX reads, never trace_pipe, which blocks; or, with
 * the plan's "dump raw", the ring buffer's pages: raw.c) to @a->sink_fd.
 * @stage: "init", "window" or "previous" (persist_dump())
 *
 * The frame (common/dumpframe.h, docs/plan.md "Dump framing") carries
 * the dump's number in the boot, 1 for the init dump, 2 for the window
 * dump (@a->n_dumps + 1), and the boot's nonce; the manifest and trace go
 * in length-prefixed chunks with a CRC-32 each, so no traced byte can be
 * read as a frame.  agent_us is taken when the dump starts; the dump's
 * duration goes to @a->dump_us (the window child's init_dump_us).  Returns 0 or
 * the -errno of the first failed write to the sink (the rest of that
 * dump is skipped).
 */
int dump(struct agent *a, const char *stage)
{
	static struct out o;
	static char cmdline[4096];	/* COMMAND_LINE_SIZE of MIPS, the largest */
	char up[64], path[AGENT_PATH_MAX], mark[80];
	struct utsname u;
	long long us = agent_us(a), tb[2], stop_ns;
	int tfd = -1, pfd = -1, paused, was_on, raw, marked, cut;
	size_t i;

	/*
	 * the mark goes in while the ring buffer still records; not for the
	 * previous boot's instance, whose trace is of another boot
	 */
	marked = !a->previous && !clock_mark(a, tb);
	/* raw: recording stops before the per-CPU counts, text: when trace opens */
	raw = a->dump_raw;
	if (a->previous)
		a->dump_raw = 0;	/* the previous boot's instance goes as text */
	/*
	 * A cut dump: everything up to the mark is before the release, so the
	 * real init starts now and the ring buffer records on; the trace is
	 * read up to the mark (copy_trace()), never paused.
	 */
	cut = marked && a->release && !a->dump_raw && a->tracefs[0];
	if (cut) {
		snprintf(mark, sizeof(mark),
			 "tracing_mark_write: probecc-clock %u %lld\n",
			 a->n_dumps + 1, tb[0]);
		a->release(a);
		a->release = NULL;
	}
	if (a->sink_fd < 0) {	/* not opened before the release */
		long long t = agent_us(a);

		sink_open(a);
		a->sink_us = agent_us(a) - t;
	}
	was_on = a->dump_raw && a->tracefs[0] ? tracing_on(a, 0) : -1;
	stop_ns = cut ? tb[1] : boot_ns();
	paused = a->dump_raw || cut ? 0 : pause_on_trace(a, &pfd);
	frame_begin(a, &o, &u, cmdline, sizeof(cmdline));
	kmsg_scan(a, u.machine);
	uptime(a, up, sizeof(up));

	if (a->tracefs[0] && !a->dump_raw) {
		char rel[sizeof(a->dump_dir) + 8];

		snprintf(rel, sizeof(rel), "%strace", a->dump_dir);
		if (path_join(path, sizeof(path), a->tracefs, rel))
			errno = ENAMETOOLONG;
		else
			tfd = open(path, O_RDONLY | O_CLOEXEC);
		if (tfd < 0)
			agent_note(a, "trace", "%s: %s", path, strerror(errno));
		if (!cut)
			stop_ns = boot_ns();	/* the open paused the ring buffer */
	}

	/* through LAVA's log (lava-job's probecc_signals=lava): 7-bit chunks */
	o.seven_bit = a->lava_signals;
	out_frame_begin(&o, a->nonce, ++a->n_dumps);
	out_printf(&o, "probecc-manifest\t1\nstage\t%s\nuptime\t%s\n", stage,
		   up);
	out_printf(&o, "agent_us\t%lld\n", us);
	us_line(&o, "mounts_us", a->mounts_us);
	us_line(&o, "plan_us", a->plan_us);
	us_line(&o, "plan_cpu_us", a->plan_cpu_us);
	us_line(&o, "sink_us", a->sink_us);
	us_line(&o, "init_dump_us", a->dump_us);
	us_line(&o, "fork_us", a->fork_us);
	out_printf(&o, "tracefs\t%s\n", a->tracefs[0] ? a->tracefs : "-");
	/* which ring buffer the dump holds: the top one or an instance */
	out_printf(&o, "buffer\t%s\n", a->dump_dir[0] ? a->dump_dir : "top");
	if (marked)
		out_printf(&o, "timebase\t%lld\t%lld\t%lld\t%lld\n", a->t0_boot_ns,
			   tb[0], tb[1], stop_ns);
	if (a->self_pid)
		out_printf(&o, "%s\t%ld\t%lld\n", self_kind(a), a->self_pid,
			   a->self_ns);
	/* the ring buffer stops when trace is opened: nothing is recorded until the end frame */
	if (paused)
		out_printf(&o, "paused\t%s\n", up);
	if (cut)
		out_printf(&o, "cut\tmark\n");
	out_printf(&o, "arch\t%s\nkernel\t%s\nuname\t%s\t%s\n",
		   a->arch[0] ? a->arch : "-", a->kernel[0] ? a->kernel : "-",
		   u.release, u.machine);
	/* What the kernel really got: firmware may truncate it (QEMU Malta: 256 bytes). */
	out_printf(&o, "cmdline\t%s\n", cmdline);
	for (i = 0; i < a->n_notes; i++)
		out_printf(&o, "note\t%s\n", a->notes[i]);
	if (a->dropped_notes)
		out_printf(&o, "note\tagent\t%zu more notes dropped\n",
			   a->dropped_notes);
	for (i = 0; i < a->n_items; i++)
		out_printf(&o, "item\t%s\t%s\t%s\t%s\n", a->items[i].probe,
			   a->items[i].state, a->items[i].file,
			   a->items[i].detail);
	if (a->dropped_items)
		out_printf(&o, "note\tagent\t%zu more items dropped\n",
			   a->dropped_items);
	for (i = 0; i < a->n_oops; i++)
		out_printf(&o, "kprobe-oops\t%s\n", a->oops[i]);
	kprobe_profile_lines(a, &o);
	if (a->tracefs[0])
		cpu_lines(a, &o);
	if (a->previous) {
		last_boot_line(a, &o);
		stext_line(a, &o);
	} else {
		perf_dump(a, &o);
	}
	if (a->dump_raw) {
		raw_dump(a, &o, was_on);
		lava_signals(a, &o, us);
		out_frame_end(&o);
		a->dump_us = agent_us(a) - us;
		a->dump_raw = raw;
		return o.err;
	}
	out_printf(&o, "--- trace ---\n");
	out_flush(&o);
	if (tfd >= 0) {
		copy_trace(&o, tfd, cut ? mark : NULL);
		close(tfd);
	}
	lava_signals(a, &o, us);
	out_frame_end(&o);
	if (paused == 2)
		pause_restore(a, pfd);
	a->dump_us = agent_us(a) - us;
	a->dump_raw = raw;
	return o.err;
}

/* Whether tracefs file @rel has a line that is not a '#' comment. */
static int has_events(struct agent *a, const char *rel)
{
	char path[AGENT_PATH_MAX], buf[8192];
	ssize_t n;
	int fd, bol = 1, i;

	if (path_join(path, sizeof(path), a->tracefs, rel) ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	/* the header is about 10 lines; the first event line ends it */
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++) {
			if (bol && buf[i] != '#' && buf[i] != '\n') {
				close(fd);
				return 1;
			}
			bol = buf[i] == '\n';
		}
	}
	close(fd);
	return 0;
}

/*
 * persist_dump() - plan "persist NAME": the trace the previous boot left
 * in the persistent instance NAME (a ring buffer mapped on memory that
 * reserve_mem= keeps, trace_instance=NAME@LABEL; linux 6.12,
 * Documentation/trace/debugging.rst).  When instances/NAME/ has
 * last_boot_info (a mapped buffer: trace.c init_tracer_tracefs()) and its
 * trace holds events, one dump of stage "previous" goes to the sink
 * (opened here if it is not yet), with "last_boot" and "stext" in its
 * manifest; then the instance is emptied (trace opened O_TRUNC), so this
 * boot's events do not mix with the previous boot's.  Run before any
 * event is enabled in the instance (enabling one clears a buffer whose
 * kernel moved: trace.c update_last_data()) and after the plan's probe
 * definitions, which decode the previous boot's dynamic events (their
 * type numbers follow the order of definition).  A failure is a note.
 */
void persist_dump(struct agent *a, const char *name)
{
	char rel[sizeof(a->dump_dir) + 16], path[AGENT_PATH_MAX];
	int fd, rc;

	if (!a->tracefs[0])
		return;
	if (strlen(name) >= AGENT_NAME_MAX || strchr(name, '/') || name[0] == '.') {
		agent_note(a, "persist", "bad instance name \"%.64s\"", name);
		return;
	}
	snprintf(a->dump_dir, sizeof(a->dump_dir), "instances/%s/", name);
	snprintf(rel, sizeof(rel), "%slast_boot_info", a->dump_dir);
	if (path_join(path, sizeof(path), a->tracefs, rel) || access(path, R_OK)) {
		agent_note(a, "persist", "%s: %s (no persistent buffer: reserve_mem= or trace_instance= not taken)",
			   rel, strerror(errno));
		snprintf(a->dump_dir, sizeof(a->dump_dir), "%s", a->buf_dir);
		return;
	}
	a->previous = 1;
	snprintf(rel, sizeof(rel), "%strace", a->dump_dir);
	if (has_events(a, rel)) {
		if (a->sink_fd < 0)
			sink_open(a);
		rc = dump(a, "previous");
		if (rc)
			agent_note(a, "persist", "the previous boot's dump: %s",
				   strerror(-rc));
	}
	if (path_join(path, sizeof(path), a->tracefs, rel) ||
	    (fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0)
		agent_note(a, "persist", "%s: cannot empty it: %s", rel,
			   strerror(errno));
	else
		close(fd);
	a->previous = 0;
	snprintf(a->dump_dir, sizeof(a->dump_dir), "%s", a->buf_dir);
}

/*
 * instance_use() - plan "instance NAME": probecc's events are in the
 * tracefs instance NAME, which every later plan line names by its
 * path (instances/NAME/...), and every dump reads it instead of the top
 * buffer.  The instance is made when missing (mkdir in instances/:
 * kernel/trace/trace.c instance_mkdir()); trace_instance= (6.3+) or
 * bootconfig's ftrace.instance may have made it at boot (EEXIST).  An
 * item "instance" says which: "ok" (it was there), "armed" (made here)
 * or "failed" with the errno, and the dumps then read the top buffer.
 * @name: at most AGENT_NAME_MAX - 1 bytes, no '/', not "." or "..".
 * Returns 0 or -errno.
 */
int instance_use(struct agent *a, const char *name)
{
	char rel[AGENT_NAME_MAX + 16], path[AGENT_PATH_MAX];
	int err = 0, made = 0;

	if (strlen(name) >= AGENT_NAME_MAX || strchr(name, '/') ||
	    !strcmp(name, ".") || !strcmp(name, "..")) {
		agent_item(a, "instance", "failed", "instances", "bad instance name");
		return -EINVAL;
	}
	snprintf(rel, sizeof(rel), "instances/%s", name);
	if (!a->tracefs[0])
		err = ENOENT;
	else if (path_join(path, sizeof(path), a->tracefs, rel))
		err = ENAMETOOLONG;
	else if (!mkdir(path, 0755))
		made = 1;
	else if (errno != EEXIST)
		err = errno;
	if (err) {
		agent_item(a, "instance", "failed", rel, strerror(err));
		return -err;
	}
	agent_item(a, "instance", made ? "armed" : "ok", rel, "-");
	snprintf(a->buf_dir, sizeof(a->buf_dir), "instances/%s/", name);
	/* the agent out of the instance's trace too, before its events */
	if (a->self_pid)
		notrace_buffer(a, a->buf_dir, a->self_pid);
	if (!a->previous)
		snprintf(a->dump_dir, sizeof(a->dump_dir), "%s", a->buf_dir);
	return 0;
}
