// SPDX-License-Identifier: GPL-2.0
/*
 * Raw dumps -> trace.dat ("probecc report --trace-dat OUT CAPTURE"), the
 * one path of the reader that runs a program and writes a temporary
 * directory: its product is trace-cmd's file, so trace-cmd writes it.
 *
 * The records rawdump.c read and checked (and decode.c decoded once, in
 * process: a file libtraceevent cannot read is not written) are put back
 * as a tracefs-like directory (events/header_page, events/SYS/EV/format,
 * printk_formats, saved_cmdlines, kallsyms, per_cpu/cpuN/trace_pipe_raw)
 * and Debian's trace-cmd writes the trace.dat from it, as it does for an
 * embedded box (trace-cmd-restore(1): "restore -c -t DIR -k KALLSYMS"
 * makes the headers, "restore -i HEAD CPUFILES..." adds the per-CPU
 * data).  The file format stays trace-cmd's: nothing here writes it but
 * libtracecmd, besides the two header fields patched below.
 *
 * Three fields of the headers are the host's, not the target's
 * (trace-cmd 3.1.6, lib/trace-cmd/trace-output.c: the byte order, the
 * size of a long and the page size of the machine that runs restore -c;
 * restore -i writes the long size again): the long size and page size
 * are set, in the head and in the trace.dat, from the target's own
 * events/header_page (the commit field is a local_t, a long; the page's
 * data field ends at the page size).
 *
 * The byte order cannot be patched afterwards: every number of the file
 * (section sizes, counts, offsets) is written in it, and the ring-buffer
 * pages are copied as they are, so they must be read in the target's
 * order (trace-cmd.dat.v6(5): the endian byte after the version, "now all
 * numbers are written in file defined endianess").  trace-cmd restore has
 * no option for it: its output inherits the byte order of the machine
 * (restore -c) or of its input file (restore -i, through tracecmd_copy()
 * and tracecmd_output_set_from_input(), which takes the input's
 * tep_is_file_bigendian()).  So for a target of the other byte order the
 * head restore -c wrote is written again by libtracecmd's own writer
 * (other_order_head()), in the target's order, in a child process, and
 * restore -i then adds the pages to that head, keeping its order.
 */
#define _GNU_SOURCE	/* memrchr, mkdtemp */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PROBECC_NO_LIBTRACECMD
#include <trace-cmd/trace-cmd.h>
#endif

#include "dumpread-local.h"

#ifndef PROBECC_NO_LIBTRACECMD
/*
 * libtracecmd's trace.dat writer.  Debian's libtracecmd1 3.1.6 exports
 * these functions (trace-cmd restore and record are built on them) but
 * libtracecmd-dev ships only trace-cmd.h, the reading API; trace-cmd
 * declares them in lib/trace-cmd/include/private/trace-cmd-private.h.
 * Declared here as that version has them; the link fails if a libtracecmd
 * lacks one.
 */
struct tracecmd_output;
struct tracecmd_event_list;
struct tracecmd_output *tracecmd_output_create(const char *output_file);
int tracecmd_output_set_from_input(struct tracecmd_output *handle,
				   struct tracecmd_input *ihandle);
int tracecmd_output_set_version(struct tracecmd_output *handle, int file_version);
int tracecmd_output_set_trace_dir(struct tracecmd_output *handle,
				  const char *tracing_dir);
int tracecmd_output_set_kallsyms(struct tracecmd_output *handle,
				 const char *kallsyms);
int tracecmd_output_write_headers(struct tracecmd_output *handle,
				  struct tracecmd_event_list *list);
int tracecmd_write_cmdlines(struct tracecmd_output *handle);
void tracecmd_output_close(struct tracecmd_output *handle);
#endif

#ifndef __BYTE_ORDER__
#error "the host's byte order is needed (__BYTE_ORDER__)"
#endif
#define HOST_BIG_ENDIAN	(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

/* Write @len bytes to DIR/@name, making its directories. */
static int put_file(const char *dir, const char *name, const char *data,
		    size_t len, struct errmsg *e)
{
	char *path = xasprintf("%s/%s", dir, name), *slash;
	int fd, rc = 0;

	for (slash = strchr(path + strlen(dir) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			rc = errmsg_set(e, -errno, "%s: %s", path, strerror(errno));
		*slash = '/';
	}
	fd = rc ? -1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (!rc && (fd < 0 || (len && write(fd, data, len) != (ssize_t)len)))
		rc = errmsg_set(e, -EIO, "%s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(path);
	return rc;
}
/* The last line of trace-cmd's output in DIR/log, for an error message. */
static void log_tail(const char *dir, char *buf, size_t size)
{
	char *log = xasprintf("%s/log", dir), *text = NULL, *p;
	struct errmsg e = { 0 };
	size_t len;

	buf[0] = '\0';
	if (!file_read(log, &text, &len, &e) && len) {
		while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
			text[--len] = '\0';
		p = memrchr(text, '\n', len);
		snprintf(buf, size, ": %.200s", p ? p + 1 : text);
	}
	free(text);
	free(log);
}

/* Run trace-cmd with @argv (NULL-ended), its output into DIR/log. */
static int run_trace_cmd(const char *dir, char **argv, struct errmsg *e)
{
	char *log = xasprintf("%s/log", dir), how[96], tail[220];
	int status, fd;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(log);
		return errmsg_set(e, -errno, "fork: %s", strerror(errno));
	}
	if (!pid) {
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp("trace-cmd", argv);
		_exit(127);
	}
	free(log);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return errmsg_set(e, -errno, "waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return errmsg_set(e, -ENOENT, "trace-cmd not found (Debian package trace-cmd)");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		log_tail(dir, tail, sizeof(tail));
		return errmsg_set(e, -EIO, "trace-cmd %s %s failed (%s)%s", argv[1], argv[2],
				  child_status(status, how, sizeof(how)), tail);
	}
	return 0;
}

/*
 * Set the long size and page size in the header of the trace.dat at
 * @path, a file in the byte order @big_endian says (trace-cmd.dat(5), v6
 * and v7 alike: magic, "tracing", the version string, then endian, long
 * size (1 byte each) and the page size, 4 bytes in the file's byte order).
 */
static int patch_header(const char *path, bool big_endian, unsigned int long_size,
			unsigned int page_size, struct errmsg *e)
{
	unsigned char h[32], ps[4];
	size_t v;
	int fd = open(path, O_RDWR | O_CLOEXEC), rc = 0, i;

	if (fd < 0)
		return errmsg_set(e, -errno, "%s: %s", path, strerror(errno));
	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h, "\027\010Dtracing", 10)) {
		close(fd);
		return errmsg_set(e, -EINVAL, "%s: trace-cmd wrote no trace.dat header", path);
	}
	v = strnlen((char *)h + 10, 8);
	if (v >= 8 || h[10 + v + 1] != big_endian) {
		close(fd);
		return errmsg_set(e, -EINVAL, "%s: a %s-endian trace.dat header was expected",
				  path, big_endian ? "big" : "little");
	}
	for (i = 0; i < 4; i++)
		ps[big_endian ? 3 - i : i] = page_size >> (8 * i);
	h[10 + v + 2] = long_size;
	if (pwrite(fd, &h[10 + v + 2], 1, 10 + v + 2) != 1 ||
	    pwrite(fd, ps, 4, 10 + v + 3) != 4)
		rc = errmsg_set(e, -EIO, "%s: %s", path, strerror(errno));
	close(fd);
	return rc;
}

/*
 * The head @host (written by trace-cmd restore -c from the tracefs-like
 * @dir and @kallsyms, in the host's byte order, its page size already the
 * target's) written again as @out in the other byte order, by
 * libtracecmd's writer: the output takes its byte order from the input's
 * tep (tracecmd_output_set_from_input() reads tep_is_file_bigendian()),
 * so the input's is set to the target's once its headers are read, and
 * the headers are read again from @dir as restore -c does
 * (tracecmd_output_write_headers(), tracecmd_write_cmdlines()).  File
 * version 6: in 3.1.6 the version 7 writer puts some option data (the
 * CPU count, the buffer offsets) in the host's order, version 6 converts
 * every number.  Returns 0, or -EIO with @e set.
 */
#ifdef PROBECC_NO_LIBTRACECMD
/* make TRACEDAT=no: no libtracecmd to write the head with. */
static int other_order_head(const char *host, const char *out, const char *dir,
			    const char *kallsyms, struct errmsg *e)
{
	(void)host;
	(void)dir;
	(void)kallsyms;
	return errmsg_set(e, -EIO, "the %s-endian head %s needs libtracecmd, which this probecc was built without (make TRACEDAT=no)",
			  HOST_BIG_ENDIAN ? "little" : "big", out);
}
#else
static int other_order_head(const char *host, const char *out, const char *dir,
			    const char *kallsyms, struct errmsg *e)
{
	struct tracecmd_input *in;
	struct tracecmd_output *o;
	int rc = 0;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	in = tracecmd_open_head(host, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!in)
		return errmsg_set(e, -EIO, "libtracecmd cannot read the head trace-cmd restore -c wrote (%s)", host);
	tep_set_file_bigendian(tracecmd_get_tep(in),
			       HOST_BIG_ENDIAN ? TEP_LITTLE_ENDIAN : TEP_BIG_ENDIAN);
	o = tracecmd_output_create(out);
	if (!o || tracecmd_output_set_from_input(o, in) ||
	    tracecmd_output_set_version(o, 6) ||
	    tracecmd_output_set_trace_dir(o, dir) ||
	    tracecmd_output_set_kallsyms(o, kallsyms) ||
	    tracecmd_output_write_headers(o, NULL) ||
	    tracecmd_write_cmdlines(o) < 0)
		rc = errmsg_set(e, -EIO, "libtracecmd could not write the %s-endian head %s",
				HOST_BIG_ENDIAN ? "little" : "big", out);
	if (o)
		tracecmd_output_close(o);
	tracecmd_close(in);
	return rc;
}
#endif

/*
 * other_order_head() in a child process: libtracecmd parses the head's
 * header_page, format files and kallsyms there, and a crash it still has
 * is an error naming the signal (as events_try()).  Returns 0, or -EIO
 * with @e set.
 */
struct head_args {
	const char *host, *out, *dir, *kallsyms;
};

static int head_in_child(void *arg)
{
	const struct head_args *a = arg;
	struct errmsg ce = { 0 };

	return other_order_head(a->host, a->out, a->dir, a->kallsyms, &ce) ? 1 : 0;
}

static int other_order_head_child(const char *host, const char *out,
				  const char *dir, const char *kallsyms,
				  struct errmsg *e)
{
	struct head_args a = { host, out, dir, kallsyms };
	char how[96];
	int status, rc;

	rc = child_call(head_in_child, &a, 0, &status, e);
	if (rc)
		return rc;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	return errmsg_set(e, -EIO, "libtracecmd could not write the %s-endian head %s (%s)",
			  HOST_BIG_ENDIAN ? "little" : "big", out,
			  child_status(status, how, sizeof(how)));
}

/* rm -rf @dir, by fork and execve only: safe in a signal handler. */
static void remove_tree(const char *dir)
{
	char *const argv[] = { "rm", "-rf", "--", (char *)dir, NULL };
	char *const envp[] = { NULL };
	pid_t pid = fork();

	if (!pid) {
		execve("/bin/rm", argv, envp);
		execve("/usr/bin/rm", argv, envp);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

/*
 * The temporary directory being made or used (one at a time): a signal
 * that ends probecc removes it and the staged outputs (common/output.c)
 * first, then ends probecc as the default action does.  A signal ignored
 * (nohup's SIGHUP) stays ignored; a handler put over this one is left in
 * place.
 */
static char tmp_dir[4096];
static const int tmp_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
static struct sigaction tmp_old[sizeof(tmp_signals) / sizeof(tmp_signals[0])];

static void tmp_on_signal(int sig)
{
	if (tmp_dir[0])
		remove_tree(tmp_dir);
	out_unlink_staged();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The handlers before tmp_make(), where this one is still in place. */
static void tmp_restore(void)
{
	struct sigaction cur;
	size_t i;

	for (i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++) {
		sigaction(tmp_signals[i], NULL, &cur);
		if (cur.sa_handler == tmp_on_signal)
			sigaction(tmp_signals[i], &tmp_old[i], NULL);
	}
}

/* mkdtemp() under $TMPDIR (or /tmp), the name kept for tmp_on_signal(). */
static char *tmp_make(struct errmsg *e)
{
	const char *base = getenv("TMPDIR");
	struct sigaction sa = { .sa_handler = tmp_on_signal };
	sigset_t block, old;
	size_t i;

	if (!base || base[0] != '/')
		base = "/tmp";
	if (snprintf(tmp_dir, sizeof(tmp_dir), "%s/probecc-tracedat-XXXXXX", base) >=
	    (int)sizeof(tmp_dir) - 1) {
		tmp_dir[0] = '\0';
		errmsg_set(e, -ENAMETOOLONG, "TMPDIR is too long");
		return NULL;
	}
	sigemptyset(&block);
	for (i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++)
		sigaddset(&block, tmp_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++) {
		sigaction(tmp_signals[i], NULL, &tmp_old[i]);
		if (tmp_old[i].sa_handler == tmp_on_signal) {
			tmp_old[i].sa_handler = SIG_DFL;
			tmp_old[i].sa_flags = 0;
		}
		if (tmp_old[i].sa_handler != SIG_IGN)
			sigaction(tmp_signals[i], &sa, NULL);
	}
	if (!mkdtemp(tmp_dir)) {
		errmsg_set(e, -errno, "mkdtemp %s: %s", tmp_dir, strerror(errno));
		tmp_dir[0] = '\0';
		tmp_restore();
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return tmp_dir[0] ? xstrdup(tmp_dir) : NULL;
}

/* Remove the temporary directory and restore the signals' handlers. */
static void tmp_remove(void)
{
	sigset_t block, old;
	size_t i;

	sigemptyset(&block);
	for (i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++)
		sigaddset(&block, tmp_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (tmp_dir[0]) {
		remove_tree(tmp_dir);
		tmp_dir[0] = '\0';
		tmp_restore();
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * tracedat_build() - the trace.dat of the raw dumps framed in @text (@len
 * bytes, a capture as frames_read() takes it), made in a new directory
 * under $TMPDIR (or /tmp): *@dat (malloc'd) is its path, tracedat_done()
 * removes it.  @complete_only: as raw_collect(); the records are
 * decoded once in process first (raw_decode()).  What it holds (per CPU,
 * dumps cut or damaged) is said on @info, a line each; @info may be NULL.
 * Returns 0, or -errno with @e set: no raw dump, a record, header_page,
 * page or format file refused (raw_collect()), trace-cmd or libtracecmd
 * missing or failing (the signal that ended it, its last line of
 * output), a file not written.  The directory is removed on every error
 * and on a signal that ends probecc while it exists.
 */
static int tracedat_build(const char *text, size_t len, bool complete_only,
		   char **dat_out, FILE *info, struct errmsg *e)
{
	struct rawset rs = { 0 };
	struct page_layout pl;
	char *argv[8 + MAX_CPUS], *head = NULL, *other = NULL, *dat = NULL, *dir;
	char *cpufile[MAX_CPUS] = { 0 }, *ks = NULL;
	struct dumpread_error de = { 0 };
	int i, ncpu = 0, rc, argc, noid = 0;

	rc = raw_collect(text, len, complete_only, &rs, &pl, info, &de);
	if (!rc)
		rc = raw_decode(&rs, &pl, NULL, &de);
	if (rc) {
		rawset_free(&rs);
		return errmsg_set(e, -EINVAL, "%s", dr_text(de.why));
	}
	dir = tmp_make(e);
	if (!dir) {
		rawset_free(&rs);
		return -EIO;
	}
	for (i = 0; i < rs.n && !rc; i++) {
		const struct rawfile *f = &rs.f[i];
		unsigned long long cpu;

		if (format_unused(f, rs.used, &noid))
			continue;
		rc = put_file(dir, f->name, f->data, f->len, e);
		if (rc || !is_cpu_data(f->name))
			continue;
		/* name_ok(): "per_cpu/cpuN/trace_pipe_raw", N < MAX_CPUS */
		if (dec_num(f->name + 11, strcspn(f->name + 11, "/"), MAX_CPUS - 1, &cpu)) {
			cpufile[cpu] = xasprintf("%s/%s", dir, f->name);
			if ((int)cpu + 1 > ncpu)
				ncpu = cpu + 1;
			raw_say(info, "cpu %llu: %zu bytes, %zu pages of %u bytes\n",
				cpu, f->len, f->len / pl.page_size, pl.page_size);
		}
	}
	if (noid)
		raw_say(info, "format files: %d without a readable 'ID: N' line, left out\n", noid);
	if (!rc && !ncpu)
		rc = errmsg_set(e, -ENOENT, "the raw dumps hold no ring-buffer pages (per_cpu/cpuN/trace_pipe_raw)");
	/* a CPU with no data still needs its (empty) file, in order */
	for (i = 0; i < ncpu && !rc; i++)
		if (!cpufile[i]) {
			char name[64];

			snprintf(name, sizeof(name), "per_cpu/cpu%d/trace_pipe_raw", i);
			rc = put_file(dir, name, "", 0, e);
			cpufile[i] = xasprintf("%s/%s", dir, name);
		}
	if (!rc && !rawfile(&rs, "kallsyms")->len)
		rc = put_file(dir, "kallsyms", "", 0, e);
	head = xasprintf("%s/head.dat", dir);
	other = xasprintf("%s/head-%s.dat", dir, pl.big_endian ? "be" : "le");
	dat = xasprintf("%s/trace.dat", dir);
	ks = xasprintf("%s/kallsyms", dir);
	if (!rc) {
		argc = 0;
		argv[argc++] = "trace-cmd";
		argv[argc++] = "restore";
		argv[argc++] = "-c";
		argv[argc++] = "-t";
		argv[argc++] = dir;
		argv[argc++] = "-k";
		argv[argc++] = ks;
		argv[argc++] = "-o";
		argv[argc++] = head;
		argv[argc] = NULL;
		rc = run_trace_cmd(dir, argv, e);
	}
	if (!rc)
		rc = patch_header(head, HOST_BIG_ENDIAN, pl.long_size, pl.page_size, e);
	/* a target of the other byte order: its head written again in it */
	if (!rc && pl.big_endian != HOST_BIG_ENDIAN) {
		rc = other_order_head_child(head, other, dir, ks, e);
		if (!rc)
			rc = patch_header(other, pl.big_endian, pl.long_size, pl.page_size, e);
	}
	if (!rc) {
		argc = 0;
		argv[argc++] = "trace-cmd";
		argv[argc++] = "restore";
		argv[argc++] = "-i";
		argv[argc++] = pl.big_endian != HOST_BIG_ENDIAN ? other : head;
		argv[argc++] = "-o";
		argv[argc++] = dat;
		for (i = 0; i < ncpu; i++)
			argv[argc++] = cpufile[i];
		argv[argc] = NULL;
		rc = run_trace_cmd(dir, argv, e);
	}
	/* restore -i writes the host's long size again (its page size is the head's) */
	if (!rc)
		rc = patch_header(dat, pl.big_endian, pl.long_size, pl.page_size, e);
	if (!rc)
		raw_say(info, "trace.dat: %d CPU(s), long %u, page %u, %s-endian, from %d raw dump(s)\n",
			ncpu, pl.long_size, pl.page_size, pl.big_endian ? "big" : "little", rs.dumps);
	if (rc) {
		tmp_remove();
		free(dat);
	} else {
		*dat_out = dat;
	}
	free(dir);
	free(head);
	free(other);
	free(ks);
	for (i = 0; i < ncpu; i++)
		free(cpufile[i]);
	rawset_free(&rs);
	return rc;
}

/* tracedat_done() - remove the directory of @dat (tracedat_build()), free @dat. */
static void tracedat_done(char *dat)
{
	if (dat)
		tmp_remove();
	free(dat);
}

/* dumpread_tracedat() - see dumpread.h. */
int dumpread_tracedat(const char *text, size_t len, const char *out,
		      FILE *info, struct dumpread_error *e)
{
	struct errmsg em = { 0 };
	char *dat = NULL, *data;
	size_t datlen;
	int rc = tracedat_build(text, len, false, &dat, info, &em);

	if (!rc)
		rc = file_read(dat, &data, &datlen, &em);
	if (!rc) {
		rc = out_stage(out, data, datlen, &em);
		free(data);
		if (!rc)
			raw_say(info, "%s: %zu bytes\n", out, datlen);
	}
	tracedat_done(dat);
	return rc ? dr_error(e, DR_TRACECMD, "%s", em.msg) : 0;
}
