// SPDX-License-Identifier: GPL-2.0
/*
 * probecc early-init agent: small helpers (notes, items, I/O, paths,
 * a PID out of a ring buffer's trace: notrace_buffer()).
 *
 * Nothing here is fatal: an allocation failure or an I/O error is turned
 * into a value the caller reports, because the agent must always go on
 * to exec the real init.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "agent.h"

/*
 * xstrdup() - strdup() that never returns NULL.
 * @s: string to copy (NULL is taken as "-")
 *
 * Returns a heap copy owned by the caller, or a static "(oom)" when memory
 * is exhausted; the agent never frees these (it execs soon after).
 */
char *xstrdup(const char *s)
{
	static char oom[] = "(oom)";
	char *p = strdup(s ? s : "-");

	return p ? p : oom;
}

/*
 * sanitize_field() - make @s safe as one TAB-separated manifest field.
 * @s: NUL-terminated string, changed in place
 *
 * TAB, CR and LF become spaces (docs/plan.md: no TAB or newline inside a
 * field).  An empty string becomes "-" only if the caller left room; the
 * callers never pass empty strings.
 */
void sanitize_field(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}

/*
 * agent_note() - record a "note TOPIC TEXT" line for the manifest.
 * @a: agent state (owns the copy)
 * @topic: short word: mount, plan, sink, tracefs, init, window
 * @fmt: printf format of TEXT, at most 1 KiB is kept
 *
 * At most AGENT_MAX_NOTES notes are kept; later ones are counted in
 * @a->dropped_notes and reported as one line by the dump.
 */
void agent_note(struct agent *a, const char *topic, const char *fmt, ...)
{
	char text[1024], line[1200];
	va_list ap;

	if (a->n_notes >= AGENT_MAX_NOTES) {
		a->dropped_notes++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	sanitize_field(text);
	snprintf(line, sizeof(line), "%s\t%s", topic, text);
	a->notes[a->n_notes++] = xstrdup(line);
}

/*
 * agent_item() - record the result of one expect/arm line.
 * @a: agent state (owns the copies)
 * @probe, @file, @detail: copied and sanitized; NULL or "" become "-"
 * @state: a static string ("ok", "armed", "armed-late", "missing",
 *         "failed"), not copied
 *
 * The array grows by doubling up to AGENT_MAX_ITEMS entries; beyond that,
 * or when realloc() fails, the item is counted in @a->dropped_items.
 */
void agent_item(struct agent *a, const char *probe, const char *state,
		const char *file, const char *detail)
{
	struct item *it;

	if (a->n_items == a->cap_items) {
		size_t cap = a->cap_items ? a->cap_items * 2 : 32;
		struct item *n;

		if (cap > AGENT_MAX_ITEMS)
			cap = AGENT_MAX_ITEMS;
		n = cap > a->cap_items ?
			realloc(a->items, cap * sizeof(*n)) : NULL;
		if (!n) {
			a->dropped_items++;
			return;
		}
		a->items = n;
		a->cap_items = cap;
	}
	it = &a->items[a->n_items++];
	it->probe = xstrdup(probe && *probe ? probe : "-");
	it->file = xstrdup(file && *file ? file : "-");
	it->detail = xstrdup(detail && *detail ? detail : "-");
	it->state = state;
	sanitize_field(it->probe);
	sanitize_field(it->file);
	sanitize_field(it->detail);
}

/*
 * write_all() - write(2) all of @buf to @fd, retrying on EINTR and on
 * short writes.
 * @len: bytes
 *
 * Returns 0, or -errno of the failing write (-EIO if write returns 0).
 */
int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * path_join() - "@a/@b" into @out (@size bytes, NUL incl.).
 * A leading '/' of @b is not doubled.  Returns 0 or -ENAMETOOLONG (then
 * @out holds "").
 */
int path_join(char *out, size_t size, const char *a, const char *b)
{
	int n;

	while (*b == '/')
		b++;
	n = snprintf(out, size, "%s/%s", a, b);
	if (n < 0 || (size_t)n >= size) {
		if (size)
			out[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

/*
 * rooted() - the path of the absolute @path under the agent's root
 * (--root in test mode, "" as PID 1) into @out (@size bytes).
 * Returns 0 or -ENAMETOOLONG.
 */
int rooted(const struct agent *a, char *out, size_t size, const char *path)
{
	int n;

	if (!a->root[0]) {
		n = snprintf(out, size, "%s", path);
		if (n < 0 || (size_t)n >= size)
			return -ENAMETOOLONG;
		return 0;
	}
	return path_join(out, size, a->root, path);
}

/*
 * notrace_buffer() - keep @pid's own work out of what the ring buffer of
 * tracefs directory @dir ("" the top buffer, "instances/NAME/")
 * records: the probes the kernel armed from its command line
 * (kprobe_event=, trace_event=) fire on the agent's own opens and
 * writes otherwise, and the function tracer traces its system calls.
 * set_event_notrace_pid and set_ftrace_notrace_pid (5.8+, in the top
 * buffer and in every instance: kernel/trace/trace_events.c
 * event_pid_write(), kernel/trace/ftrace.c pid_write()) take effect at
 * once on every CPU (ignore_task_cpu() by on_each_cpu()); O_TRUNC
 * empties a list first, so @pid 0 empties both.  A kernel without the
 * files (before 5.8) is left as it is, with a note the report gives:
 * its trace has the agent's own hits.  Only the open of the first file
 * is traced (the kprobe fires before the write): the report leaves out
 * the agent's hits up to its mark (notrace_mark()).  Returns 0 when the
 * events' list took it.
 */
int notrace_buffer(struct agent *a, const char *dir, long pid)
{
	static const char *const files[] = {
		"set_event_notrace_pid", "set_ftrace_notrace_pid",
	};
	char path[AGENT_PATH_MAX], rel[AGENT_NAME_MAX + 48], buf[24];
	/*
	 * O_TRUNC empties a list at the open: the agent's later system
	 * calls are traced from then on.  Taking itself in, the events'
	 * list comes first (the open of the second file is not an event);
	 * emptying, last (the events see no open of the second file).
	 */
	const size_t nfiles = sizeof(files) / sizeof(files[0]);
	int self = pid == (long)getpid();
	size_t k, i;
	int fd, n, rc = -1;

	if (!a->tracefs[0])
		return -1;
	n = pid ? snprintf(buf, sizeof(buf), "%ld\n", pid) : 0;
	for (k = 0; k < nfiles; k++) {
		i = self ? k : nfiles - 1 - k;
		snprintf(rel, sizeof(rel), "%s%s", dir, files[i]);
		if (path_join(path, sizeof(path), a->tracefs, rel))
			continue;
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT)
				agent_note(a, "notrace", "%s: %s", rel,
					   strerror(errno));
			else if (i == 0)
				agent_note(a, "notrace", "no %s (a kernel before 5.8): the agent's own hits are in the trace",
					   rel);
			continue;
		}
		if (n && write_all(fd, buf, n))
			agent_note(a, "notrace", "%s: %s", rel,
				   strerror(errno));
		else if (i == 0)
			rc = 0;
		close(fd);
	}
	return rc;
}

/*
 * buf_path() - the tracefs path of @rel in the buffer dump() reads
 * (@a->dump_dir: the top buffer, or an instance's directory) into @out
 * of @size bytes.  Returns 0, or -1 when it does not fit.
 */
int buf_path(const struct agent *a, char *out, size_t size, const char *rel)
{
	char r[AGENT_PATH_MAX];

	if (snprintf(r, sizeof(r), "%s%s", a->dump_dir, rel) >= (int)sizeof(r))
		return -1;
	return path_join(out, size, a->tracefs, r);
}

/*
 * read_fd() - read @fd into @buf (the caller's, @size bytes) until end of
 * file or @size bytes, retrying EINTR.  Returns the byte count, or -errno
 * when a read(2) failed (the bytes before it are in @buf, uncounted).
 * Not NUL-terminated: the callers below do that, each with its own room.
 */
ssize_t read_fd(int fd, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		ssize_t n = read(fd, buf + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += n;
	}
	return got;
}

/*
 * read_small() - read at most @size - 1 bytes of @path into @buf and
 * NUL-terminate it (for /proc/uptime, stats files: a few hundred bytes).
 * Returns the byte count or -errno.
 */
ssize_t read_small(const char *path, char *buf, size_t size)
{
	ssize_t got;
	int fd;

	if (!size)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	got = read_fd(fd, buf, size - 1);
	close(fd);
	buf[got < 0 ? 0 : got] = '\0';
	return got;
}

/*
 * next_word() - the next word of the line at *@s: blanks (spaces, tabs)
 * before it are skipped, the blank after it becomes NUL and *@s moves
 * past it.  Returns NULL at the end of the string or at a newline.  For
 * the kernel's whitespace-separated files (/proc/PID/maps,
 * /proc/modules, kprobe_profile): the agent uses no scanf, whose
 * floating-point conversions (musl's __floatscan, long double) cost
 * ~13 KB an agent.
 */
char *next_word(char **s)
{
	char *w = *s + strspn(*s, " \t"), *end;

	if (!*w || *w == '\n')
		return NULL;
	end = w + strcspn(w, " \t\n");
	*s = *end ? end + 1 : end;
	if (*end == '\n')
		*s = end;	/* the newline ends the line for the next call */
	*end = '\0';
	return w;
}

/*
 * word_ull() - @w, a whole number in @base with no sign and no blank
 * (strtoull() alone takes "-1", " 7" and "7x"), into *@v.  Returns 0, or
 * -EINVAL (not such a number) or -ERANGE (over 64 bits).
 */
int word_ull(const char *w, int base, unsigned long long *v)
{
	char *end;

	if (!w || !isxdigit((unsigned char)*w))
		return -EINVAL;
	errno = 0;
	*v = strtoull(w, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	return *end || end == w ? -EINVAL : 0;
}

/* write_all() to @o->fd unless an earlier write failed. */
static void out_raw(struct out *o, const void *data, size_t n)
{
	if (!o->err && n)
		o->err = o->fd < 0 ? -EBADF : write_all(o->fd, data, n);
}

/*
 * b64_encode() - base64 of @n bytes at @in (RFC 4648, "=" padding, no line
 * breaks) into @out, which has room for 4 * ((@n + 2) / 3) characters (not
 * NUL-terminated).  Returns the characters written.
 */
size_t b64_encode(const unsigned char *in, size_t n, char *out)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0;

	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = in[i] << 16 | in[i + 1] << 8 | in[i + 2];

		out[o++] = tab[v >> 18];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = tab[v >> 6 & 63];
		out[o++] = tab[v & 63];
	}
	if (i < n) {
		unsigned v = in[i] << 16 | (i + 1 < n ? in[i + 1] << 8 : 0);

		out[o++] = tab[v >> 18];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		out[o++] = '=';
	}
	return o;
}

/*
 * Would LAVA's log give @n bytes at @data back unchanged, as the text after a
 * chunk line?  ShellLogger.write() (lava_dispatcher/shell.py) drops "\r" and
 * ESC, collapses "\n\n" and replaces invalid UTF-8; the reader undoes only
 * its '"' escape.  So: printable ASCII, TAB and single newlines.
 */
static int lava_safe(const char *data, size_t n)
{
	size_t i;
	char prev = '\n';	/* the chunk line's own */

	for (i = 0; i < n; i++) {
		unsigned char c = data[i];

		if (c == '\n' ? prev == '\n' : (c != '\t' && (c < 0x20 || c > 0x7e)))
			return 0;
		prev = c;
	}
	return 1;
}

/* The b64 form of out_chunk(): DUMP_FRAME_B64 and the lines of base64. */
static void out_chunk_b64(struct out *o, const char *data, size_t n)
{
	/* whole lines of DUMP_FRAME_B64_LINE characters (57 bytes each) */
	static char buf[64 * (DUMP_FRAME_B64_LINE + 1)];
	const size_t per = DUMP_FRAME_B64_LINE / 4 * 3;
	char line[128];
	size_t i, k = 0;
	int len;

	len = snprintf(line, sizeof(line), DUMP_FRAME_B64, o->dump,
		       o->chunks + 1, n, (unsigned int)crc32_update(0, data, n),
		       o->nonce);
	out_raw(o, line, len);
	for (i = 0; i < n; i += per) {
		k += b64_encode((const unsigned char *)data + i,
				n - i < per ? n - i : per, buf + k);
		buf[k++] = '\n';
		if (k > sizeof(buf) - DUMP_FRAME_B64_LINE - 1) {
			out_raw(o, buf, k);
			k = 0;
		}
	}
	out_raw(o, buf, k);
}

/*
 * out_chunk() - one chunk of the framed dump of @o (common/dumpframe.h):
 * the chunk line with @n, the CRC-32 of the @n bytes at @data and the
 * nonce, the bytes, and a newline after them when they do not end with
 * one (so the next frame line starts a line).  With @o->seven_bit (the
 * boot goes through LAVA), a chunk whose bytes LAVA's log would change
 * goes in the b64 form instead (common/dumpframe.h).  @n at most
 * DUMP_FRAME_CHUNK_MAX; 0 writes nothing.  Not framed: a plain write.
 */
void out_chunk(struct out *o, const char *data, size_t n)
{
	char line[128];
	int k;

	if (!n || o->err)
		return;
	if (!o->nonce) {
		out_raw(o, data, n);
		return;
	}
	if (o->seven_bit && !lava_safe(data, n)) {
		out_chunk_b64(o, data, n);
		o->chunks++;
		o->bytes += n;
		return;
	}
	k = snprintf(line, sizeof(line), DUMP_FRAME_CHUNK, o->dump,
		     o->chunks + 1, n, (unsigned int)crc32_update(0, data, n),
		     o->nonce);
	out_raw(o, line, k);
	out_raw(o, data, n);
	if (data[n - 1] != '\n')
		out_raw(o, "\n", 1);
	o->chunks++;
	o->bytes += n;
}

/*
 * Write @n bytes of lines as chunks of at most DUMP_FRAME_CHUNK_MAX, each
 * cut after its last newline when it has one.  When @all is false, a last
 * piece with no newline is not written: its length is returned (the
 * caller keeps it), else 0.
 */
static size_t out_lines(struct out *o, const char *s, size_t n, int all)
{
	while (n && !o->err) {
		size_t k = n < DUMP_FRAME_CHUNK_MAX ? n : DUMP_FRAME_CHUNK_MAX;
		const char *nl = memrchr(s, '\n', k);

		if (nl)
			k = nl - s + 1;
		else if (!all && k == n)
			return n;	/* a line not yet ended */
		out_chunk(o, s, k);
		s += k;
		n -= k;
	}
	return 0;
}

/* The buffered writer of struct out (agent.h): stops at the first error. */
void out_flush(struct out *o)
{
	if (o->nonce)
		out_lines(o, o->buf, o->len, 1);
	else
		out_raw(o, o->buf, o->len);
	o->len = 0;
}

void out_write(struct out *o, const char *s, size_t n)
{
	if (o->sum) {
		o->sum_crc = crc32_update(o->sum_crc, s, n);
		o->sum_bytes += n;
	}
	if (o->err)
		return;
	if (o->len + n > sizeof(o->buf)) {
		if (o->nonce) {
			/* whole lines out, an unended one stays buffered */
			size_t keep = out_lines(o, o->buf, o->len, 0);

			memmove(o->buf, o->buf + o->len - keep, keep);
			o->len = keep;
		}
		if (o->len + n > sizeof(o->buf))
			out_flush(o);
		if (n > sizeof(o->buf)) {
			if (o->nonce)
				out_lines(o, s, n, 1);
			else
				out_raw(o, s, n);
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

/*
 * out_frame_begin() - start dump @dump of this boot on @o (reset to no
 * chunks): its begin line with @nonce (static or owned by the caller,
 * kept until out_frame_end()).  What @o holds is written first, plain.
 */
void out_frame_begin(struct out *o, const char *nonce, unsigned int dump)
{
	char line[128];
	int k;

	out_flush(o);
	o->nonce = NULL;
	o->dump = dump;
	o->chunks = 0;
	o->bytes = 0;
	k = snprintf(line, sizeof(line), DUMP_FRAME_BEGIN, dump, nonce);
	out_raw(o, line, k);
	o->nonce = nonce;
}

/* out_frame_end() - what is buffered as chunks, then the end line. */
void out_frame_end(struct out *o)
{
	char line[160];
	const char *nonce = o->nonce;
	int k;

	if (!nonce)
		return;
	out_flush(o);
	k = snprintf(line, sizeof(line), DUMP_FRAME_END, o->dump, o->chunks,
		     o->bytes, nonce);
	out_raw(o, line, k);
	o->nonce = NULL;
}

long long cpu_us(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return -1;
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

long long boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

long long agent_us(const struct agent *a)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - a->t0.tv_sec) * 1000000LL +
	       (now.tv_nsec - a->t0.tv_nsec) / 1000;
}

/*
 * boot_nonce() - this boot's frame nonce into @a->nonce: 16 hex digits
 * of 64 bits mixed from the kernel's AT_RANDOM bytes (16 random bytes
 * every process gets, fs/binfmt_elf.c: create_elf_tables), getrandom(2)
 * when it does not block (before the kernel's CRNG is ready it would)
 * and the monotonic clock.  AT_RANDOM also seeds glibc's stack guard, so
 * its bytes are never printed as they are: 128 bits folded into 64
 * through the splitmix64 finalizer.  Called once in main(): the window
 * child, a clone, writes the same nonce (one boot, one nonce).
 */
void boot_nonce(struct agent *a)
{
	const unsigned char *at = (const unsigned char *)getauxval(AT_RANDOM);
	uint64_t x = 0x9e3779b97f4a7c15ull, y = 0, r = 0;
	struct timespec ts;
	int i;

	if (at)
		for (i = 0; i < 8; i++) {
			x ^= (uint64_t)at[i] << (8 * i);
			y ^= (uint64_t)at[8 + i] << (8 * i);
		}
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	x ^= (y << 29 | y >> 35) ^ r ^ ((uint64_t)ts.tv_sec << 32) ^ ts.tv_nsec;
	for (i = 0; i < 2; i++) {
		x ^= x >> 30;
		x *= 0xbf58476d1ce4e5b9ull;
		x ^= x >> 27;
		x *= 0x94d049bb133111ebull;
		x ^= x >> 31;
	}
	snprintf(a->nonce, sizeof(a->nonce), "%016llx", (unsigned long long)x);
}

void out_printf(struct out *o, const char *fmt, ...)
{
	char line[AGENT_DETAIL_MAX + 8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line)) {
		/* cannot happen with the field limits; keep the frame sane */
		n = sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	out_write(o, line, n);
}


/*
 * frame_begin() - what every frame on the sink starts from: @o reset to
 * write plain to a->sink_fd; @u from uname(2) ("-" for release and machine when
 * it fails); @cmdline (@size bytes) the first line of /proc/cmdline, "-"
 * when unreadable.  The strings are sanitized to be one TAB-separated
 * field each (docs/plan.md).
 */
void frame_begin(struct agent *a, struct out *o, struct utsname *u,
		 char *cmdline, size_t size)
{
	char path[AGENT_PATH_MAX];

	o->fd = a->sink_fd;
	o->err = 0;
	o->len = 0;
	o->nonce = NULL;
	if (uname(u))
		strcpy(u->release, "-"), strcpy(u->machine, "-");
	sanitize_field(u->release);
	sanitize_field(u->machine);
	if (rooted(a, path, sizeof(path), "/proc/cmdline") ||
	    read_small(path, cmdline, size) <= 0)
		strcpy(cmdline, "-");
	cmdline[strcspn(cmdline, "\n")] = '\0';
	sanitize_field(cmdline);
}
