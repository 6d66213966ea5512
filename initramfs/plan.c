// SPDX-License-Identifier: GPL-2.0
/*
 * probecc early-init agent: the plan (docs/plan.md) and its tracefs
 * actions: "expect" checks, "arm" appends, error_log reasons.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "agent.h"

#define MAX_FIELDS	8
#define ERRLOG_MAX	(128 * 1024)	/* 8 entries of <= ~8 KiB, with room */

/*
 * file_has_token() - does @path hold @match as one whole
 * whitespace-separated token (docs/plan.md "expect")?
 * @path: file to stream (any size; read in 4 KiB chunks, O(1) memory)
 * @match: non-empty token
 *
 * Returns 1 when found, 0 when not, -errno when @path cannot be read.
 */
int file_has_token(const char *path, const char *match)
{
	size_t mlen = strlen(match), pos = 0;
	int in_token = 0, same = 1, found = 0, fd;
	char buf[4096];

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf)), i;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return found ? 1 : (int)n;
		}
		if (n == 0)
			break;
		for (i = 0; i < n && !found; i++) {
			unsigned char c = buf[i];

			if (isspace(c)) {
				if (in_token && same && pos == mlen)
					found = 1;
				in_token = 0;
				same = 1;
				pos = 0;
			} else {
				in_token = 1;
				if (same && pos < mlen && match[pos] == (char)c)
					pos++;
				else
					same = 0;
			}
		}
		if (found)
			break;
	}
	if (in_token && same && pos == mlen && mlen)
		found = 1;
	close(fd);
	return found;
}

/* text_has_token(): file_has_token() on @n bytes of @t in memory. */
static int text_has_token(const char *t, size_t n, const char *match)
{
	size_t mlen = strlen(match), i = 0, s;

	while (i < n) {
		while (i < n && isspace((unsigned char)t[i]))
			i++;
		s = i;
		while (i < n && !isspace((unsigned char)t[i]))
			i++;
		if (i > s && i - s == mlen && !memcmp(t + s, match, mlen))
			return 1;
	}
	return 0;
}

/*
 * text_lists_def() - does the probe listing @t (@n bytes: kprobe_events,
 * uprobe_events) define "GROUP/EVENT" @ev?  The kernel lists each
 * definition as "TYPE[MAXACTIVE]:GROUP/EVENT ARGS..." (kernel/trace/
 * trace_kprobe.c: trace_kprobe_show(), trace_uprobe.c: probes_seq_show()),
 * so @ev must follow the line's first ':' and end at a space or the
 * line's end.  TYPE and MAXACTIVE are not compared: a kretprobe "r:"
 * lists as "r10:" once registered (maxactive defaults to 2 x CPUs, at
 * least 10, kernel/kprobes.c: register_kretprobe()).
 */
static int text_lists_def(const char *t, size_t n, const char *ev)
{
	size_t elen = strlen(ev), i, end, at;
	const char *colon;

	for (i = 0; i < n; i = end + 1) {
		const char *nl = memchr(t + i, '\n', n - i);

		end = nl ? (size_t)(nl - t) : n;
		colon = memchr(t + i, ':', end - i);
		if (!colon)
			continue;
		at = colon + 1 - t;
		if (end - at >= elen && !memcmp(t + at, ev, elen) &&
		    (at + elen == end || t[at + elen] == ' '))
			return 1;
	}
	return 0;
}

/* Forget the files expect lines read: the agent is about to write. */
static void seen_drop(struct agent *a)
{
	size_t i;

	for (i = 0; i < AGENT_SEEN_FILES; i++) {
		free(a->seen[i].file);
		free(a->seen[i].text);
		a->seen[i].file = NULL;
		a->seen[i].text = NULL;
	}
}

/* @match in @t (@n bytes): a token, or with @def a listed definition. */
static int has(const char *t, size_t n, const char *match, int def)
{
	return text_has_token(t, n, match) ||
	       (def && text_lists_def(t, n, match));
}

/*
 * SEQ_RECORD_MAX - longer than any line of a tracefs listing an expect
 * line reads: the longest, set_ftrace_filter's function probe, is two
 * symbols of KSYM_NAME_LEN (512) with a module name and a count
 * (kernel/trace/ftrace.c t_probe_show()).
 */
#define SEQ_RECORD_MAX	2048

/*
 * listing_ended() - did a read(2) that got @got of the @asked bytes
 * reach the end of a tracefs listing?  A listing is a seq_file, whose
 * read comes back short at the end, when the next line did not fit the
 * kernel's buffer of a page, or on an error, which loses lines and so
 * can only fail a check (fs/seq_file.c seq_read_iter()): short by more
 * than a line can take, it was the end.  Reading on to the 0 of EOF
 * costs a second walk, as each read starts the listing anew: for
 * set_ftrace_filter every ftrace record of the kernel
 * (kernel/trace/ftrace.c t_start(); 29,844 on Malta, 22-35 M
 * instructions a walk).  A regular file (test mode) is short only at
 * its end.
 */
static int listing_ended(size_t got, size_t asked)
{
	long page = sysconf(_SC_PAGESIZE);

	return got < asked && page > SEQ_RECORD_MAX &&
	       got <= (size_t)page - SEQ_RECORD_MAX;
}

/*
 * seen_has() - does an expect line's @file (its tracefs @path) hold
 * @match as one whole token (file_has_token()), or, with @def, also as
 * the "GROUP/EVENT" of a definition in a probe listing (text_lists_def())?
 * The file is read once for all the expect lines that check it until
 * the agent's next write (tracefs_write() drops the copies): the plan
 * checks each function name of a list, each kprobe in kprobe_events
 * and set_event, and a read of set_ftrace_filter walks every ftrace
 * record of the kernel (kernel/trace/ftrace.c: t_func_next(), 29,844 on
 * Malta); a short first read is the whole listing (listing_ended()).
 * With every slot taken the file is read for this line alone.
 * A file larger than AGENT_SEEN_MAX, or when memory is short, is
 * streamed each time, for a token only.
 * Returns 1, 0, or -errno.
 */
static int seen_has(struct agent *a, const char *file, const char *path,
		    const char *match, int def)
{
	size_t i, len = 0, cap, want;
	char *buf;
	int fd, slot = -1, r;

	for (i = 0; i < AGENT_SEEN_FILES; i++) {
		if (a->seen[i].file && !strcmp(a->seen[i].file, file))
			return has(a->seen[i].text, a->seen[i].len, match,
				   def);
		if (!a->seen[i].file && slot < 0)
			slot = i;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/*
	 * from 4 KiB, doubling: the listings checked are small, and an
	 * allocation of AGENT_SEEN_MAX at once is an mmap and munmap each
	 * (musl, glibc: over 128 KiB), 2-3 ms a file on Malta under TCG
	 */
	cap = 4096;
	buf = malloc(cap + 1);
	while (buf && len <= AGENT_SEEN_MAX) {
		ssize_t n;

		if (len == cap) {
			char *more;

			cap *= 2;
			if (cap > AGENT_SEEN_MAX + 1)
				cap = AGENT_SEEN_MAX + 1;
			more = realloc(buf, cap + 1);
			if (!more) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = more;
		}
		want = cap - len;
		n = read(fd, buf + len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			free(buf);
			close(fd);
			return err;
		}
		if (n == 0)
			break;
		len += n;
		if (listing_ended(n, want))
			break;
	}
	close(fd);
	if (!buf || len > AGENT_SEEN_MAX) {
		free(buf);
		return file_has_token(path, match);
	}
	r = has(buf, len, match, def);
	if (slot >= 0)
		a->seen[slot].file = strdup(file);
	if (slot < 0 || !a->seen[slot].file) {
		free(buf);
		return r;
	}
	a->seen[slot].text = buf;
	a->seen[slot].len = len;
	return r;
}

/*
 * read_errlog() - the tail (at most ERRLOG_MAX - 1 bytes) of
 * @tracefs/error_log into a malloc'd, NUL-terminated buffer owned by the
 * caller.  Returns NULL when there is no error_log (kernels before 5.8,
 * kernel/trace/trace.c:tracing_err_log_fops) or no memory.
 */
static char *read_errlog(const char *tracefs)
{
	char path[AGENT_PATH_MAX], *buf;
	size_t len = 0;
	int fd;

	if (!tracefs[0] || path_join(path, sizeof(path), tracefs, "error_log"))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(ERRLOG_MAX);
	if (!buf) {
		close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t n;

		if (len == ERRLOG_MAX - 1) {
			/* keep the newer half */
			memmove(buf, buf + len / 2, len - len / 2);
			len -= len / 2;
		}
		n = read(fd, buf + len, ERRLOG_MAX - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Is @line (up to '\n') an error_log entry header "[ sec.usec] ..."? */
static int is_header(const char *line)
{
	return line[0] == '[';
}

/* Copy the last entry header line of @log (NUL-terminated) into @mark. */
static void last_header(const char *log, char *mark, size_t size)
{
	const char *p, *last = NULL;
	size_t n;

	mark[0] = '\0';
	for (p = log; *p; ) {
		const char *nl = strchr(p, '\n');

		if (is_header(p))
			last = p;
		p = nl ? nl + 1 : p + strlen(p);
	}
	if (last) {
		n = strcspn(last, "\n");
		if (n >= size)
			n = size - 1;
		memcpy(mark, last, n);
		mark[n] = '\0';
	}
}

/*
 * errlog_mark() - remember where error_log ends before a write.
 * @tracefs: tracefs mount ("" for none)
 * @mark: out, the last entry header line of error_log (entries start
 *        with "[%5llu.%06u] ", kernel/trace/trace.c:
 *        tracing_err_log_seq_show), or "" when there is none
 * @size: bytes of @mark (a longer header is cut; it still compares)
 */
void errlog_mark(const char *tracefs, char *mark, size_t size)
{
	char *log = read_errlog(tracefs);

	mark[0] = '\0';
	if (!log)
		return;
	last_header(log, mark, size);
	free(log);
}

/* Append @s (@n bytes) to @out (@size bytes) at *@len, cutting with "...". */
static void append(char *out, size_t size, size_t *len, const char *s,
		   size_t n)
{
	if (*len + 1 >= size)
		return;
	if (*len + n + 1 > size) {
		n = size - 1 - *len;
		memcpy(out + *len, s, n);
		*len += n;
		if (size > 4)
			memcpy(out + size - 4, "...", 3);
		out[size - 1] = '\0';
		return;
	}
	memcpy(out + *len, s, n);
	*len += n;
	out[*len] = '\0';
}

/*
 * errlog_detail() - DETAIL of a failed write (docs/plan.md, "Dump"):
 * strerror(@err), then, for each line error_log gained after @mark,
 * " | " and the line with leading blanks dropped; the "[sec.usec] "
 * prefix of a header is dropped and the caret line under "  Command: "
 * (kernel/trace/trace.c:tracing_err_log_show_pos) becomes "^ at N",
 * N the 0-based column in the command.  error_log is read once.
 * @tracefs: tracefs mount
 * @mark: in, from errlog_mark() before the write; out, the last header
 *        of error_log now (so the next failure gets only its own lines);
 *        unchanged when error_log cannot be read.  @msize: its bytes
 * @err: positive errno of the write
 * @out, @size: result buffer, always NUL-terminated, cut with "..."
 */
void errlog_detail(const char *tracefs, char *mark, size_t msize, int err,
		   char *out, size_t size)
{
	char *log = read_errlog(tracefs), *p, *start;
	size_t len = 0, mlen = strlen(mark);
	long cmd_col = -1;

	out[0] = '\0';
	append(out, size, &len, strerror(err), strlen(strerror(err)));
	if (!log)
		return;
	start = log;
	if (mlen) {
		/* find the mark's entry, then skip to the next header */
		for (p = log; *p; ) {
			char *nl = strchr(p, '\n');

			if (!strncmp(p, mark, mlen)) {
				start = nl ? nl + 1 : p + strlen(p);
				while (*start && !is_header(start)) {
					nl = strchr(start, '\n');
					start = nl ? nl + 1 : start + strlen(start);
				}
			}
			p = nl ? nl + 1 : p + strlen(p);
		}
	}
	for (p = start; *p; ) {
		size_t n = strcspn(p, "\n");
		char *line = p, *t, tmp[64];
		size_t lead = strspn(line, " ");

		p += n + (p[n] == '\n');
		if (lead == n)
			continue;
		t = line + lead;
		if (is_header(line)) {
			char *rb = memchr(line, ']', n);

			if (rb) {
				t = rb + 1 + (rb[1] == ' ');
				cmd_col = -1;
			}
		} else if (!strncmp(t, "Command: ", 9)) {
			cmd_col = (t - line) + 9;
		} else if (*t == '^' && t + 1 == line + n) {
			long col = t - line - (cmd_col >= 0 ? cmd_col : 0);

			snprintf(tmp, sizeof(tmp), "^ at %ld", col);
			append(out, size, &len, " | ", 3);
			append(out, size, &len, tmp, strlen(tmp));
			continue;
		}
		append(out, size, &len, " | ", 3);
		append(out, size, &len, t, line + n - t);
	}
	last_header(log, mark, msize);
	free(log);
	sanitize_field(out);
}

/*
 * bad_rel_path() - FILE of a plan line must be relative to tracefs with
 * no ".." component (the plan is trusted, this only guards mistakes).
 */
static int bad_rel_path(const char *f)
{
	const char *p;

	if (!*f || *f == '/')
		return 1;
	for (p = f; (p = strstr(p, "..")); p += 2)
		if ((p == f || p[-1] == '/') && (p[2] == '/' || !p[2]))
			return 1;
	return 0;
}

/*
 * enable_file() - the events/GROUP/EVENT/enable file for a set_event
 * line @value "GROUP:EVENT" (no '!', glob or blank: one event of the
 * top instance), into @rel of @size bytes.  Returns 0, or -1 when
 * @value is another form.
 */
static int enable_file(const char *value, char *rel, size_t size)
{
	const char *colon = strchr(value, ':');
	size_t g;

	if (!colon || colon == value || !colon[1] ||
	    strpbrk(value, "!*?[]/ \t\n") || strchr(colon + 1, ':'))
		return -1;
	g = colon - value;
	if (snprintf(rel, size, "events/%.*s/%s/enable", (int)g, value,
		     colon + 1) >= (int)size)
		return -1;
	return 0;
}

/*
 * tracefs_write() - write @len bytes of @buf to @a->tracefs/@file with
 * one write(2) on an O_WRONLY|O_APPEND descriptor (no O_TRUNC: that
 * clears kprobe_events, uprobe_events and set_ftrace_filter, see
 * kernel/trace/trace_kprobe.c:probes_open, ftrace.c:ftrace_regex_open).
 *
 * One event "GROUP:EVENT\n" for set_event is written as "1\n" to
 * events/GROUP/EVENT/enable instead when that file opens: the same
 * ftrace_event_enable_disable() of the same event, without set_event's
 * walk of every event of the kernel for each line
 * (kernel/trace/trace_events.c: __ftrace_set_clr_event_nolock() against
 * event_enable_write()); 1,300 events on Malta.  Otherwise (no such
 * directory: 6.1 often makes none for a boot-time kprobe) set_event.
 *
 * error_log is read before the first write of the agent and after each
 * failed one, never around a write that succeeds: a successful write
 * adds no entry to it (kernel/trace/trace.c: tracing_log_err() is
 * called on errors only), and the agent is the only writer at /init.
 * @detail: on failure, the DETAIL text (errlog_detail()); @size bytes
 *
 * Returns 0 or -errno.
 */
static int tracefs_write(struct agent *a, const char *file, const char *buf,
			 size_t len, char *detail, size_t size)
{
	char path[AGENT_PATH_MAX], rel[AGENT_PATH_MAX];
	int fd = -1, err = 0;
	ssize_t n;

	if (!a->tracefs[0]) {
		snprintf(detail, size, "no tracefs");
		return -ENOENT;
	}
	if (bad_rel_path(file)) {
		snprintf(detail, size, "bad path");
		return -EINVAL;
	}
	seen_drop(a);
	if (!a->errlog_read) {
		errlog_mark(a->tracefs, a->errlog_mark, sizeof(a->errlog_mark));
		a->errlog_read = 1;
	}
	if (!strcmp(file, "set_event") && len > 1 && buf[len - 1] == '\n' &&
	    !memchr(buf, '\n', len - 1) && len < sizeof(rel)) {
		char value[AGENT_PATH_MAX];

		memcpy(value, buf, len - 1);
		value[len - 1] = '\0';
		if (!enable_file(value, rel, sizeof(rel)) &&
		    !path_join(path, sizeof(path), a->tracefs, rel)) {
			fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC |
				  O_NOCTTY);
			if (fd >= 0) {
				buf = "1\n";
				len = 2;
			}
		}
	}
	if (fd < 0) {
		if (path_join(path, sizeof(path), a->tracefs, file)) {
			snprintf(detail, size, "%s", strerror(ENAMETOOLONG));
			return -ENAMETOOLONG;
		}
		fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
	}
	if (fd < 0) {
		err = errno;
	} else {
		do {
			n = write(fd, buf, len);
		} while (n < 0 && errno == EINTR);
		if (n < 0)
			err = errno;
		else if ((size_t)n != len)
			err = EIO;	/* short write: the kernel took a part */
		if (close(fd) && !err)
			err = errno;
	}
	if (err)
		errlog_detail(a->tracefs, a->errlog_mark,
			      sizeof(a->errlog_mark), err, detail, size);
	return -err;
}

/*
 * tracefs_append() - append "@value\n" to @a->tracefs/@file, as
 * `echo VALUE >> FILE` would (tracefs_write()).
 * Returns 0 or -errno, with the DETAIL of a failure in @detail.
 */
static int tracefs_append(struct agent *a, const char *file,
			  const char *value, char *detail, size_t size)
{
	size_t len = strlen(value);
	char *line = malloc(len + 2);
	int r;

	if (!line) {
		snprintf(detail, size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	memcpy(line, value, len);
	line[len] = '\n';
	line[len + 1] = '\0';
	r = tracefs_write(a, file, line, len + 1, detail, size);
	free(line);
	return r;
}

/*
 * Plan lines a run of "arm" lines may share one write(2) for: the probe
 * definition files, where the kernel takes a write line by line and
 * stops at the first line it refuses, the lines before it defined
 * (kernel/trace/trace_dynevent.c: trace_parse_run_command()).
 */
static int batchable(const char *file)
{
	return !strcmp(file, "kprobe_events") ||
	       !strcmp(file, "uprobe_events");
}

/*
 * "expect PROBE FILE MATCH [VALUE [WFILE]]", docs/plan.md: VALUE goes to
 * WFILE when given, else to FILE.  In kprobe_events and uprobe_events
 * MATCH may be GROUP/EVENT, a definition listed there (seen_has()).
 */
static void do_expect(struct agent *a, char **f, int nf)
{
	const char *probe = f[1], *file = f[2], *match = f[3];
	const char *value = nf > 4 ? f[4] : NULL;
	const char *wfile = nf > 5 ? f[5] : file;
	char path[AGENT_PATH_MAX], detail[AGENT_DETAIL_MAX];
	int r = -ENOENT;

	if (a->tracefs[0] && !bad_rel_path(file) &&
	    !path_join(path, sizeof(path), a->tracefs, file))
		r = seen_has(a, file, path, match, batchable(file));
	if (r == 1) {
		agent_item(a, probe, "ok", file, "-");
		return;
	}
	if (!value) {
		agent_item(a, probe, "missing", file, "-");
		return;
	}
	if (tracefs_append(a, wfile, value, detail, sizeof(detail)))
		agent_item(a, probe, "failed", wfile, detail);
	else
		agent_item(a, probe, "armed-late", wfile, "-");
}

/* "arm PROBE FILE VALUE", docs/plan.md. */
static void do_arm(struct agent *a, char **f)
{
	char detail[AGENT_DETAIL_MAX];

	if (tracefs_append(a, f[2], f[3], detail, sizeof(detail)))
		agent_item(a, f[1], "failed", f[2], detail);
	else
		agent_item(a, f[1], "armed", f[2], f[3]);
}

/*
 * def_event() - "GROUP/EVENT" of a probe definition @def of the form
 * "[pr][MAXACTIVE]:GROUP/EVENT ..." (kernel/trace/trace_kprobe.c,
 * trace_uprobe.c: the form kprobe_events and uprobe_events list), into
 * @out (@size bytes).  Returns 0, or -1 for any other form (a generated
 * name, the default group, a removal), which is not batched.
 */
static int def_event(const char *def, char *out, size_t size)
{
	const char *p = def, *name;
	size_t n;

	if (*p != 'p' && *p != 'r')
		return -1;
	for (p++; *p >= '0' && *p <= '9'; p++)
		;
	if (*p++ != ':')
		return -1;
	name = p;
	n = strcspn(name, " \t");
	if (!n || name[n] != ' ' || !memchr(name, '/', n) || name[0] == '/' ||
	    name[n - 1] == '/' || n >= size)
		return -1;
	memcpy(out, name, n);
	out[n] = '\0';
	return 0;
}

/* The text of @a->tracefs/@file (malloc'd, at most 4 MiB), or NULL. */
static char *read_listing(const struct agent *a, const char *file)
{
	size_t cap = 4 * 1024 * 1024;
	char path[AGENT_PATH_MAX], *buf;
	ssize_t len;
	int fd;

	if (path_join(path, sizeof(path), a->tracefs, file))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap + 1);
	len = buf ? read_fd(fd, buf, cap) : -ENOMEM;
	close(fd);
	if (len < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/*
 * arm_batch() - the "arm PROBE FILE DEF" lines @l[0..@n) (one batchable
 * FILE, each DEF of def_event()'s form) in one write: each item "armed"
 * when it goes through.  When the kernel refuses a line, the lines
 * before it are defined and those after it were not tried: FILE's
 * listing tells which DEF failed (item "failed" with errno and the
 * error_log lines), and the rest is written again as a new batch.  When
 * the listing cannot be read, every line of the batch failed.
 */
static void arm_batch(struct agent *a, char *(*l)[4], size_t n)
{
	char detail[AGENT_DETAIL_MAX], ev[AGENT_PATH_MAX], *buf, *list;
	const char *file = l[0][2];
	size_t i, len, bad;

	while (n) {
		for (len = 0, i = 0; i < n; i++)
			len += strlen(l[i][3]) + 1;
		buf = malloc(len + 1);
		if (!buf) {
			for (i = 0; i < n; i++)
				do_arm(a, l[i]);
			return;
		}
		for (len = 0, i = 0; i < n; i++) {
			size_t k = strlen(l[i][3]);

			memcpy(buf + len, l[i][3], k);
			buf[len + k] = '\n';
			len += k + 1;
		}
		buf[len] = '\0';
		if (!tracefs_write(a, file, buf, len, detail, sizeof(detail))) {
			free(buf);
			for (i = 0; i < n; i++)
				agent_item(a, l[i][1], "armed", file, l[i][3]);
			return;
		}
		free(buf);
		list = read_listing(a, file);
		for (bad = 0; list && bad < n; bad++)
			if (def_event(l[bad][3], ev, sizeof(ev)) ||
			    !text_lists_def(list, strlen(list), ev))
				break;
		free(list);
		if (!list) {
			for (i = 0; i < n; i++)
				agent_item(a, l[i][1], "failed", file, detail);
			return;
		}
		for (i = 0; i < bad; i++)
			agent_item(a, l[i][1], "armed", file, l[i][3]);
		if (bad == n)	/* refused, yet all there: nothing to retry */
			return;
		agent_item(a, l[bad][1], "failed", file, detail);
		l += bad + 1;
		n -= bad + 1;
	}
}

/* Split @line at TABs into at most @max fields; -1 when there are more. */
static int split(char *line, char **f, int max)
{
	int n = 0;

	for (;;) {
		char *tab = strchr(line, '\t');

		if (n == max)
			return -1;
		f[n++] = line;
		if (!tab)
			return n;
		*tab = '\0';
		line = tab + 1;
	}
}

/* Copy a short setting, noting when it does not fit. */
static void set_text(struct agent *a, int lineno, char *dst, size_t size,
		     const char *src)
{
	if (strlen(src) >= size)
		agent_note(a, "plan", "line %d: value too long", lineno);
	else
		strcpy(dst, src);
}

/*
 * The plan's verbs (docs/plan.md), a row each: how many fields a line
 * of the verb has, the verb's included, and what it does.
 */
static void verb_expect(struct agent *a, int no, char **f, int nf)
{
	(void)no;
	do_expect(a, f, nf);
}

static void verb_arm(struct agent *a, int no, char **f, int nf)
{
	(void)no;
	(void)nf;
	do_arm(a, f);
}

static void verb_arch(struct agent *a, int no, char **f, int nf)
{
	(void)nf;
	set_text(a, no, a->arch, sizeof(a->arch), f[1]);
}

static void verb_kernel(struct agent *a, int no, char **f, int nf)
{
	(void)nf;
	set_text(a, no, a->kernel, sizeof(a->kernel), f[1]);
}

static void verb_sink(struct agent *a, int no, char **f, int nf)
{
	(void)nf;
	set_text(a, no, a->sink, sizeof(a->sink), f[1]);
	if (strcmp(a->sink, "console") && a->sink[0] != '/') {
		agent_note(a, "plan", "line %d: sink must be console or an absolute path",
			   no);
		strcpy(a->sink, "console");
	}
}

static void verb_window(struct agent *a, int no, char **f, int nf)
{
	char *end;
	unsigned long w = strtoul(f[1], &end, 10);

	(void)nf;
	if (*end || !isdigit((unsigned char)f[1][0]) || w > AGENT_WINDOW_MAX)
		agent_note(a, "plan", "line %d: bad window \"%s\"", no, f[1]);
	else
		a->window = w;
}

static void verb_perf(struct agent *a, int no, char **f, int nf)
{
	unsigned long ustack = 0;
	int callchain;
	char *end = NULL;

	if (nf > 4 && strcmp(f[4], "callchain")) {
		agent_note(a, "plan", "line %d: unknown perf flag \"%s\" (known: callchain)", no, f[4]);
		agent_item(a, f[1], "failed", "perf", "the plan's perf line is not this agent's");
		return;
	}
	callchain = nf > 4;
	if (nf > 3) {
		ustack = strtoul(f[3], &end, 10);
		/* perf_copy_attr(): a multiple of 8 below 64 KiB (a u16 record) */
		if (*end || !isdigit((unsigned char)f[3][0]) || !ustack ||
		    ustack % 8 || ustack > PERF_USTACK_MAX) {
			agent_note(a, "plan", "line %d: bad user stack size \"%s\"", no, f[3]);
			ustack = 0;
		}
	}
	perf_open(a, f[1], f[2], ustack, callchain && ustack);
}

static void verb_dump(struct agent *a, int no, char **f, int nf)
{
	(void)nf;
	if (!strcmp(f[1], "raw") || !strcmp(f[1], "text"))
		a->dump_raw = !strcmp(f[1], "raw");
	else
		agent_note(a, "plan", "line %d: dump must be raw or text", no);
}

static void verb_capture(struct agent *a, int no, char **f, int nf)
{
	(void)no;
	(void)f;
	(void)nf;
	a->capture = 1;
}

static void verb_persist(struct agent *a, int no, char **f, int nf)
{
	(void)no;
	(void)nf;
	persist_dump(a, f[1]);
}

static void verb_instance(struct agent *a, int no, char **f, int nf)
{
	(void)no;
	(void)nf;
	instance_use(a, f[1]);
}

static void verb_init(struct agent *a, int no, char **f, int nf)
{
	(void)nf;
	if (f[1][0] != '/')
		agent_note(a, "plan", "line %d: init must be an absolute path", no);
	else if (a->n_inits == AGENT_MAX_INITS)
		agent_note(a, "plan", "line %d: too many init lines", no);
	else
		a->inits[a->n_inits++] = xstrdup(f[1]);
}

static void verb_header(struct agent *a, int no, char **f, int nf)
{
	(void)f;
	(void)nf;
	agent_note(a, "plan", "line %d: probecc-plan only on line 1", no);
}

static const struct plan_verb {
	const char *name;
	int min_fields, max_fields;	/* of a line, the verb's included */
	void (*run)(struct agent *a, int no, char **f, int nf);
} plan_verbs[] = {
	{ "expect", 4, 6, verb_expect },
	{ "arm", 4, 4, verb_arm },
	{ "arch", 2, 2, verb_arch },
	{ "kernel", 2, 2, verb_kernel },
	{ "sink", 2, 2, verb_sink },
	{ "window", 2, 2, verb_window },
	{ "perf", 3, 5, verb_perf },
	{ "dump", 2, 2, verb_dump },
	{ "capture", 1, 1, verb_capture },
	{ "persist", 2, 2, verb_persist },
	{ "instance", 2, 2, verb_instance },
	{ "init", 2, 2, verb_init },
	{ "probecc-plan", 1, MAX_FIELDS, verb_header },	/* only line 1, read before */
};

/* Act on one plan line @no (1-based) split into @nf fields @f. */
static void plan_line(struct agent *a, int no, char **f, int nf)
{
	const struct plan_verb *v = NULL;
	size_t i;

	for (i = 0; i < (size_t)nf; i++)
		if (!f[i][0]) {
			agent_note(a, "plan", "line %d: empty field", no);
			return;
		}
	for (i = 0; i < sizeof(plan_verbs) / sizeof(plan_verbs[0]); i++)
		if (!strcmp(f[0], plan_verbs[i].name))
			v = &plan_verbs[i];
	if (!v)
		agent_note(a, "plan", "line %d: unknown verb \"%.64s\"", no, f[0]);
	else if (nf < v->min_fields || nf > v->max_fields)
		agent_note(a, "plan", "line %d: %s: wrong number of fields (%d)",
			   no, v->name, nf - 1);
	else
		v->run(a, no, f, nf);
}

static void plan_file(struct agent *a);

/*
 * plan_run() - read the plan at @a->plan_path and act on it line by line
 * (plan_text()).  The file is read whole, up to AGENT_PLAN_MAX bytes
 * (more is reported and ignored, the line the limit cuts with it: a cut
 * line is another line).  Nothing here fails the boot.  The
 * time it all took (CLOCK_MONOTONIC, microseconds) goes to @a->plan_us,
 * the manifest's plan_us: what the plan added to the boot; the CPU time
 * of the agent itself in it (CLOCK_THREAD_CPUTIME_ID, in the kernel
 * too) to @a->plan_cpu_us: its own cost, without what other tasks (the
 * kernel's modprobe helpers, kworkers) ran meanwhile.  -1 when the
 * clock cannot be read.
 */
void plan_run(struct agent *a)
{
	long long t0 = agent_us(a), c0 = cpu_us(), c1;

	plan_file(a);
	a->plan_us = agent_us(a) - t0;
	c1 = cpu_us();
	a->plan_cpu_us = c0 < 0 || c1 < c0 ? -1 : c1 - c0;
}

/* plan_run()'s read of the plan file and its acting on it. */
static void plan_file(struct agent *a)
{
	struct stat st;
	char *buf;
	size_t len, size;
	ssize_t got;
	int fd;

	fd = open(a->plan_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		agent_note(a, "plan", "%s: %s", a->plan_path, strerror(errno));
		return;
	}
	/*
	 * One byte more than the limit tells a longer plan from a full one.
	 * A regular file is read into a buffer of its own size: the 1 MiB
	 * one cost 4.5-6.4 ms of a Malta boot (bench/README.md).
	 */
	size = AGENT_PLAN_MAX + 1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_size >= 0 && (size_t)st.st_size < size)
		size = st.st_size + 1;
	buf = malloc(size);
	if (!buf) {
		agent_note(a, "plan", "%s", strerror(ENOMEM));
		close(fd);
		return;
	}
	got = read_fd(fd, buf, size);
	if (got == (ssize_t)size && size <= AGENT_PLAN_MAX) {
		/* grew since fstat(): say so rather than act on a part */
		agent_note(a, "plan", "%s: changed while read", a->plan_path);
		got = 0;
	}
	if (got < 0) {
		agent_note(a, "plan", "%s: %s", a->plan_path, strerror(-got));
		got = 0;
	} else if (got > AGENT_PLAN_MAX) {
		char *nl = memrchr(buf, '\n', AGENT_PLAN_MAX);

		/* a line the limit cuts is not that line: never acted on */
		len = nl ? (size_t)(nl - buf) + 1 : 0;
		agent_note(a, "plan", "longer than %d bytes, rest ignored%s",
			   AGENT_PLAN_MAX, len < AGENT_PLAN_MAX ?
			   " (the line the limit cuts too)" : "");
		got = len;
	}
	len = got;
	close(fd);
	buf[len] = '\0';
	plan_text(a, buf, len);
	free(buf);
}

/*
 * next_line() - the next line of the plan text at *@p (cut in place,
 * a final CR dropped), its number in *@no; NULL at the end.
 */
static char *next_line(char **p, int *no)
{
	char *line = text_next_line(p);
	size_t n;

	if (!line)
		return NULL;
	(*no)++;
	n = strlen(line);
	if (n && line[n - 1] == '\r')
		line[n - 1] = '\0';
	return line;
}

/*
 * Can the line of fields @f (@nf) be part of a run: a definition for
 * arm_batch(), or a set_event line of one event for enable_run()?
 */
static int run_line(char **f, int nf)
{
	char ev[AGENT_PATH_MAX];

	if (nf != 4 || strcmp(f[0], "arm") || !f[1][0] || !f[2][0])
		return 0;
	if (!strcmp(f[2], "set_event"))
		return !enable_file(f[3], ev, sizeof(ev));
	return batchable(f[2]) && !def_event(f[3], ev, sizeof(ev));
}

/* Do the run lines @f and @g go in one run (one file; set_event: one group)? */
static int same_run(char **f, char **g)
{
	size_t n = strcspn(f[3], ":");

	return !strcmp(f[2], g[2]) &&
	       (strcmp(f[2], "set_event") || !strncmp(f[3], g[3], n + 1));
}

/* Is the @len bytes at @ev a whole line of @list? */
static int in_list(const char *list, const char *ev, size_t len)
{
	const char *p;

	for (p = list; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n'))
		if (strcspn(p, "\n") == len && !memcmp(p, ev, len))
			return 1;
	return 0;
}

/* One event of a run: "GROUP:EVENT" (@len bytes) and whether it is listed. */
struct run_ev {
	const char *v;
	size_t len;
	int listed;
};

static int cmp_run_ev(const void *x, const void *y)
{
	const struct run_ev *a = x, *b = y;
	int c = memcmp(a->v, b->v, a->len < b->len ? a->len : b->len);

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

/*
 * group_is_run() - may one write of 1 to events/GROUP/enable stand for
 * the run @l[0..@n) of GROUP (its first @glen bytes)?  Yes when every
 * line's event is in @avail (available_events) and every event of GROUP
 * there is one of the run's or enabled already (in @set, set_event).
 * One pass over @avail with the run sorted and searched: a walk of
 * @avail per line made 500 kprobes 500 walks of the kernel's ~1,700
 * events.  Returns 1 or 0 (0 also when out of memory).
 */
static int group_is_run(char *(*l)[4], size_t n, size_t glen,
			const char *avail, const char *set)
{
	struct run_ev *ev = calloc(n, sizeof(*ev)), key, *hit;
	const char *p;
	size_t i, j, len;
	int ok = ev != NULL;

	for (i = 0; ok && i < n; i++) {
		ev[i].v = l[i][3];
		ev[i].len = strlen(l[i][3]);
	}
	if (ok)
		qsort(ev, n, sizeof(*ev), cmp_run_ev);
	for (p = avail; ok && *p; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		if (len <= glen || strncmp(p, l[0][3], glen + 1))
			continue;
		key.v = p;
		key.len = len;
		hit = bsearch(&key, ev, n, sizeof(*ev), cmp_run_ev);
		if (!hit) {
			ok = in_list(set, p, len);
			continue;
		}
		/* the same event on two lines: both are listed */
		for (j = hit - ev; j > 0 && !cmp_run_ev(&ev[j - 1], &key); j--)
			;
		for (; j < n && !cmp_run_ev(&ev[j], &key); j++)
			ev[j].listed = 1;
	}
	for (i = 0; ok && i < n; i++)
		ok = ev[i].listed;
	free(ev);
	return ok;
}

/*
 * enable_run() - the "arm PROBE set_event GROUP:EVENT" lines @l[0..@n)
 * of one GROUP.  When every event of GROUP the kernel has
 * (available_events) is one of them or enabled already (set_event), one
 * write of 1 to events/GROUP/enable enables exactly them: one walk of
 * the kernel's events (kernel/trace/trace_events.c: system_enable_write(),
 * __ftrace_set_clr_event()) instead of an open, a write and a close each,
 * and none of them fires on the agent's own system calls while the
 * others are still being enabled.  Each line is its own item "armed".
 * Every line's event must be in available_events too.  Otherwise, or
 * when that write fails (the events it did enable stay enabled; enabling
 * again changes nothing), line by line (do_arm()).
 */
static void enable_run(struct agent *a, char *(*l)[4], size_t n)
{
	char rel[AGENT_PATH_MAX], detail[AGENT_DETAIL_MAX];
	size_t glen = strcspn(l[0][3], ":"), i;
	char *avail = NULL, *set = NULL;
	int ok = a->tracefs[0] != '\0';

	if (ok) {
		avail = read_listing(a, "available_events");
		set = read_listing(a, "set_event");
	}
	/* an event the kernel does not have (its definition failed) is the
	 * line's own failure: the group write would report it armed */
	ok = avail && set && group_is_run(l, n, glen, avail, set);
	free(avail);
	free(set);
	if (ok && snprintf(rel, sizeof(rel), "events/%.*s/enable", (int)glen,
			   l[0][3]) < (int)sizeof(rel) &&
	    !tracefs_write(a, rel, "1\n", 2, detail, sizeof(detail))) {
		for (i = 0; i < n; i++)
			agent_item(a, l[i][1], "armed", "set_event", l[i][3]);
		return;
	}
	for (i = 0; i < n; i++)
		do_arm(a, l[i]);
}

/* A run of batchable "arm" lines: the fields of each (grows by doubling). */
struct run {
	char *(*l)[4];
	size_t n, cap;
};

static int run_add(struct run *r, char **f)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		char *(*l)[4] = realloc(r->l, cap * sizeof(*l));

		if (!l)
			return -1;
		r->l = l;
		r->cap = cap;
	}
	memcpy(r->l[r->n++], f, 4 * sizeof(char *));
	return 0;
}

/*
 * plan_text() - act on the plan @buf of @len bytes (@buf[@len] is a NUL;
 * the text is cut into fields in place) line by line: the agent's plan
 * reader, apart from the file (tests/fuzz/fuzz-plan.c runs it alone).
 * A NUL byte in the text refuses the plan, as does a first line other
 * than "probecc-plan<TAB>1": a note, no action, default sink and init.
 * A bad line is noted and skipped; every other line is acted on in order.
 * The files expect lines read are kept until the next write (and freed
 * at the end), seen_has().
 * Consecutive "arm" lines that define probes in the same file
 * (batchable(), def_event()) go to the kernel in one write (arm_batch()),
 * consecutive set_event lines of one group are one write to the group's
 * enable file when that enables exactly them (enable_run()), each line
 * with the same item as on its own; empty lines do not end a run.
 */
void plan_text(struct agent *a, char *buf, size_t len)
{
	char *p = buf, *line, *f[MAX_FIELDS], *g[MAX_FIELDS];
	struct run run = { 0 };
	int no = 0, nf, ng, have = 0, first_no;

	if (memchr(buf, '\0', len)) {
		agent_note(a, "plan", "%s: holds a NUL byte, refused",
			   a->plan_path);
		return;
	}
	line = next_line(&p, &no);
	if (!line) {
		agent_note(a, "plan", "%s: empty, refused", a->plan_path);
		return;
	}
	{
		char first[65];

		snprintf(first, sizeof(first), "%s", line);
		nf = split(line, f, MAX_FIELDS);
		if (nf != 2 || strcmp(f[0], "probecc-plan") ||
		    strcmp(f[1], "1")) {
			agent_note(a, "plan", "%s: not a version 1 plan (first line \"%s\"), refused",
				   a->plan_path, first);
			return;
		}
	}
	for (;;) {
		if (!have) {
			line = next_line(&p, &no);
			if (!line)
				break;
			if (!*line)
				continue;
			nf = split(line, f, MAX_FIELDS);
			if (nf < 0) {
				agent_note(a, "plan", "line %d: too many fields",
					   no);
				continue;
			}
		}
		have = 0;
		if (!run_line(f, nf)) {
			plan_line(a, no, f, nf);
			continue;
		}
		run.n = 0;
		first_no = no;
		if (run_add(&run, f)) {
			plan_line(a, no, f, nf);
			continue;
		}
		while ((line = next_line(&p, &no))) {
			if (!*line)
				continue;
			ng = split(line, g, MAX_FIELDS);
			if (ng > 0 && run_line(g, ng) && same_run(f, g) &&
			    !run_add(&run, g))
				continue;
			if (ng < 0) {
				agent_note(a, "plan", "line %d: too many fields",
					   no);
			} else {
				memcpy(f, g, sizeof(f));
				nf = ng;
				have = 1;
			}
			break;
		}
		if (run.n == 1)
			plan_line(a, first_no, run.l[0], 4);
		else if (!strcmp(run.l[0][2], "set_event"))
			enable_run(a, run.l, run.n);
		else
			arm_batch(a, run.l, run.n);
	}
	free(run.l);
	seen_drop(a);
}
