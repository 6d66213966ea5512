// SPDX-License-Identifier: GPL-2.0
/*
 * probecc early-init agent: the raw dump (docs/plan.md, "Raw dump").
 *
 * Instead of tracefs/trace as text, the ring buffer's own pages
 * (per_cpu/cpuN/trace_pipe_raw, the form trace-cmd records) and the files
 * a reader needs to decode them: the page and event headers, the format
 * file of every event that can be in the buffer, printk_formats,
 * saved_cmdlines, saved_tgids, trace_clock and /proc/kallsyms.  On the
 * host, "probecc report --trace-dat" rebuilds a tracefs-like directory
 * from these records and has trace-cmd turn it into a trace.dat.
 *
 * Each file goes as records inside the dump's chunks (common/dumpframe.h):
 *
 *   raw<TAB>NAME<TAB>LEN\n          then exactly LEN bytes, appended to NAME
 *   rawz<TAB>NAME<TAB>LEN<TAB>SIZE\n then LEN bytes of zlib stream that
 *                                   inflate to SIZE bytes (raw_record())
 *
 * NAME is relative to tracefs ("events/header_page",
 * "per_cpu/cpu0/trace_pipe_raw"), or "kallsyms".  A file may come in
 * several records; a damaged chunk ends the dump's body there (the host
 * keeps what came before), so records need no checksums of their own.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef AGENT_ZLIB
#include <zlib.h>
#endif

#include "agent.h"

#define RAW_PIECE	(60 * 1024)	/* bytes per record: under a chunk */

/*
 * One record: its header line, then @n bytes of @data.  With zlib
 * (AGENT_ZLIB: initramfs/Makefile.initramfs) a piece that deflates
 * smaller goes as "rawz<TAB>NAME<TAB>LEN<TAB>SIZE": LEN bytes of a zlib
 * stream (compress2(), RFC 1950) of SIZE bytes, each piece on its own so
 * that a damaged chunk costs only the pieces in it.  Measured on a
 * 110k-entry Malta function trace: pages 6.2x, kallsyms 3.6x
 * (bench/README.md, "Dump: raw against text").
 */
static void raw_record(struct out *o, const char *name, const void *data,
		       size_t n)
{
#ifdef AGENT_ZLIB
	static unsigned char z[RAW_PIECE + RAW_PIECE / 1000 + 64];
	uLongf zlen = sizeof(z);

	if (n <= RAW_PIECE &&
	    compress2(z, &zlen, data, n, Z_DEFAULT_COMPRESSION) == Z_OK &&
	    zlen < n) {
		out_printf(o, "rawz\t%s\t%lu\t%zu\n", name, (unsigned long)zlen, n);
		out_write(o, (const char *)z, zlen);
		return;
	}
#endif
	out_printf(o, "raw\t%s\t%zu\n", name, n);
	out_write(o, data, n);
}

/*
 * Copy the file @path into records named @name, read in RAW_PIECE reads
 * (@nonblock: O_NONBLOCK, stop at EAGAIN, as trace_pipe_raw wants; at most
 * @max_bytes then, so a writer that never stops cannot hold the boot).
 * Returns the bytes copied, or -errno when the file cannot be opened.
 */
static long long raw_file(struct out *o, const char *path, const char *name,
			  int nonblock, long long max_bytes)
{
	static char buf[RAW_PIECE];
	long long total = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
	if (fd < 0)
		return -errno;
	while (!o->err && (!max_bytes || total < max_bytes)) {
		size_t have = 0;
		ssize_t n = 0;

		/* fill a piece: trace_pipe_raw gives one page per read */
		while (have < sizeof(buf)) {
			n = read(fd, buf + have, sizeof(buf) - have);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			have += n;
		}
		if (have)
			raw_record(o, name, buf, have);
		total += have;
		if (n <= 0)
			break;
	}
	close(fd);
	return total;
}

/*
 * /proc/kallsyms at @path as "kallsyms" records, only the code symbols
 * (types t, T, w, W: a trace names code addresses only), and with
 * @modules_only only the lines of modules ("\t[MOD]"): the kernel's own
 * did not change since the init dump, which the host joins to this one.
 * Halves x86_64's 3.9 MB (measured on Debian's 6.1 amd64 kernel).
 */
static void raw_kallsyms(struct out *o, const char *path, int modules_only)
{
	static char buf[RAW_PIECE], keep[RAW_PIECE];
	size_t have = 0, k;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	for (;;) {
		char *p, *nl;

		n = read(fd, buf + have, sizeof(buf) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0)
			have += n;
		/* whole lines only; the rest waits for the next read */
		for (p = buf, k = 0; (nl = memchr(p, '\n', buf + have - p)); p = nl + 1) {
			char *type = memchr(p, ' ', nl - p);

			if (!type || nl - type < 3 || !strchr("tTwW", type[1]) ||
			    (modules_only && !memchr(p, '[', nl - p)))
				continue;
			memcpy(keep + k, p, nl + 1 - p);
			k += nl + 1 - p;
		}
		if (k)
			raw_record(o, "kallsyms", keep, k);
		memmove(buf, p, buf + have - p);
		have = buf + have - p;
		if (n <= 0 || have == sizeof(buf))
			break;	/* the end, an error, or a line over 60 KiB */
	}
	close(fd);
}

/* The file @rel under @base as a record named @rel; missing: skipped. */
static void raw_tracefs(struct out *o, const char *base, const char *rel)
{
	char path[AGENT_PATH_MAX];

	if (!path_join(path, sizeof(path), base, rel))
		raw_file(o, path, rel, 0, 0);
}

/*
 * The format files under @base of one event system (events/@sys/ * /format),
 * or of one event when @event is not NULL.
 */
static void raw_formats(struct out *o, const char *base, const char *sys,
			const char *event)
{
	char dir[AGENT_PATH_MAX], rel[AGENT_PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (event) {
		if (snprintf(rel, sizeof(rel), "events/%s/%s/format", sys,
			     event) < (int)sizeof(rel))
			raw_tracefs(o, base, rel);
		return;
	}
	if (snprintf(rel, sizeof(rel), "events/%s", sys) >= (int)sizeof(rel) ||
	    path_join(dir, sizeof(dir), base, rel))
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && strcmp(de->d_name, "enable") &&
		    strcmp(de->d_name, "filter") &&
		    snprintf(rel, sizeof(rel), "events/%s/%s/format", sys,
			     de->d_name) < (int)sizeof(rel))
			raw_tracefs(o, base, rel);
	closedir(d);
}

/* The formats of the static events in set_event ("GROUP:EVENT" lines). */
static void raw_set_event_formats(struct agent *a, struct out *o,
				  const char *base)
{
	static char list[64 * 1024];
	char path[AGENT_PATH_MAX], *line, *save = NULL;

	if (buf_path(a, path, sizeof(path), "set_event") ||
	    read_small(path, list, sizeof(list)) <= 0)
		return;
	for (line = strtok_r(list, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		/* ftrace, kprobes and uprobes go whole */
		if (strcmp(line, "ftrace") && strcmp(line, "kprobes") &&
		    strcmp(line, "uprobes"))
			raw_formats(o, base, line, colon + 1);
	}
}

/*
 * tracing_on() - write "1" or "0" to tracefs/tracing_on; its old value
 * (1 on, 0 off), -1 if unknown.  dump() stops recording with it before
 * the manifest's per-CPU counts, so they count exactly what raw_dump()
 * reads.
 */
int tracing_on(const struct agent *a, int on)
{
	char path[AGENT_PATH_MAX], v[8];
	int fd, old = -1;

	if (buf_path(a, path, sizeof(path), "tracing_on"))
		return -1;
	if (read_small(path, v, sizeof(v)) > 0)
		old = v[0] == '1';
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return old;
	if (write_all(fd, on ? "1" : "0", 1))
		old = -1;
	close(fd);
	return old;
}

/*
 * raw_dump() - the raw body of a dump into @o, after the manifest:
 * "--- raw ---", then the records (see the top of this file); recording
 * is turned on again after when @was_on (tracing_on()'s value: dump()
 * turned it off before the manifest).
 *
 * The ring buffer is turned off (tracing_on 0) while its pages are read,
 * so the dump's own reads, writes and serial interrupts are not recorded
 * and trace_pipe_raw comes to its end (EAGAIN): the dump is bounded by
 * what the buffer held when it began (kernel/trace/trace.c,
 * tracing_buffers_read(); ring_buffer_read_page() hands out the partly
 * filled page too).  Reading consumes the pages: the window dump holds
 * only what came after the init dump, and the host joins the two.  When
 * tracing was on it is turned on again; for the function tracers that
 * empties the buffer (function_trace_start()), which the dump has just
 * emptied anyway.  Each CPU is read for at most twice its buffer size
 * (buffer_size_kb), a bound should the kernel keep writing.
 */
void raw_dump(struct agent *a, struct out *o, int was_on)
{
	char path[AGENT_PATH_MAX], inst[AGENT_PATH_MAX], rel[64], v[32];
	const char *base;
	long long max = 0;
	int cpu, misses = 0;

	out_printf(o, "--- raw ---\n");
	if (!a->tracefs[0])
		return;
	/*
	 * Formats come from a new instance when one can be made: on 6.1
	 * events/kprobes/NAME/ is often missing for kprobe_event= probes
	 * (the event exists, its directory was not made: shared/notes), and
	 * a new instance makes a directory for every event there is
	 * (kernel/trace/trace_events.c: __trace_early_add_events() through
	 * event_trace_add_tracer()).  The format, and the event's id in it,
	 * is the same in every instance.
	 */
	base = a->tracefs;
	if (!path_join(inst, sizeof(inst), a->tracefs, "instances/probecc-raw") &&
	    (!mkdir(inst, 0755) || errno == EEXIST))
		base = inst;
	raw_tracefs(o, base, "events/header_page");
	raw_tracefs(o, base, "events/header_event");
	raw_formats(o, base, "ftrace", NULL);
	raw_formats(o, base, "kprobes", NULL);
	raw_formats(o, base, "uprobes", NULL);
	raw_set_event_formats(a, o, base);
	if (base == inst && rmdir(inst))
		agent_note(a, "trace", "instances/probecc-raw: rmdir: %s",
			   strerror(errno));
	raw_tracefs(o, a->tracefs, "printk_formats");
	raw_tracefs(o, a->tracefs, "saved_cmdlines");
	raw_tracefs(o, a->tracefs, "saved_tgids");
	if (!buf_path(a, path, sizeof(path), "trace_clock"))
		raw_file(o, path, "trace_clock", 0, 0);
	if (!rooted(a, path, sizeof(path), "/proc/kallsyms"))
		raw_kallsyms(o, path, a->n_dumps > 1);
	if (!buf_path(a, path, sizeof(path), "buffer_size_kb") &&
	    read_small(path, v, sizeof(v)) > 0)
		max = strtoll(v, NULL, 10) * 2048;	/* 2 x KiB */
	/* CPUs by number until one is missing (possible CPUs have a dir) */
	for (cpu = 0; cpu < 4096 && misses < 1 && !o->err; cpu++) {
		long long got;

		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		if (buf_path(a, path, sizeof(path), rel))
			break;
		got = raw_file(o, path, rel, 1, max > 0 ? max : 64LL << 20);
		if (got == -ENOENT)
			misses++;
		else if (got < 0)
			agent_note(a, "trace", "%s: %s", rel, strerror(-got));
	}
	if (was_on == 1)
		tracing_on(a, 1);
}
