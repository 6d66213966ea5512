// SPDX-License-Identifier: GPL-2.0
/*
 * Raw dumps -> trace.dat ("probecc report --trace-dat OUT CAPTURE").
 *
 * The agent's raw dump (initramfs/raw.c, docs/plan.md "Raw dump") holds
 * the ring buffer's pages and the tracefs files a reader needs, as
 * records "raw<TAB>NAME<TAB>LEN\n" + LEN bytes, or "rawz<TAB>NAME<TAB>
 * LEN<TAB>SIZE\n" + LEN bytes of zlib stream inflating to SIZE (zlib's
 * uncompress()).  Here they are put back
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
 * (other_order_head()), in the target's order, and restore -i then adds
 * the pages to that head, keeping its order.
 *
 * The ring buffer pages of every dump of the boot are joined per CPU in
 * dump order: reading trace_pipe_raw consumes them, so the window dump
 * holds what came after the init dump.  kallsyms is joined too: the
 * window dump sends only the modules' symbols.  Other files are the last
 * dump's (it knows the events defined since).  A damaged or cut dump gives what
 * came before the damage, whole pages only.
 */
#define _GNU_SOURCE	/* memmem, mkdtemp */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <trace-cmd/trace-cmd.h>

#include "report-int.h"

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

#ifndef __BYTE_ORDER__
#error "the host's byte order is needed (__BYTE_ORDER__)"
#endif
#define HOST_BIG_ENDIAN	(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

#define RAW_MARK	"--- raw ---\n"
#define RAW_SIZE_MAX	(1 << 20)	/* a rawz piece inflates to at most this */
#define MAX_CPUS	4096

struct rawfile {
	char *name;
	char *data;
	size_t len, cap;
	unsigned int dump;	/* the dump it last came from */
};

struct rawset {
	struct rawfile *f;
	int n, cap;
	int dumps;		/* dumps that had a raw body */
	char why[512];		/* the first record cut or refused */
};

/* The names a record may have: tracefs-relative, no "..", no "//". */
static bool name_ok(const char *s)
{
	if (!*s || *s == '/' || strstr(s, "..") || strstr(s, "//"))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("_./-:+", *s)))
			return false;
	return true;
}

static struct rawfile *rawfile(struct rawset *rs, const char *name)
{
	int i;

	for (i = 0; i < rs->n; i++)
		if (!strcmp(rs->f[i].name, name))
			return &rs->f[i];
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 64;
		rs->f = xrealloc_array(rs->f, rs->cap, sizeof(*rs->f));
	}
	memset(&rs->f[rs->n], 0, sizeof(rs->f[0]));
	rs->f[rs->n].name = xstrdup(name);
	return &rs->f[rs->n++];
}

static void append(struct rawfile *f, const char *data, size_t n)
{
	if (f->len + n + 1 > f->cap) {
		f->cap = (f->len + n + 1) * 2;
		f->data = xrealloc_array(f->data, f->cap, 1);
	}
	memcpy(f->data + f->len, data, n);
	f->len += n;
}

static bool is_cpu_data(const char *name)
{
	return !strncmp(name, "per_cpu/cpu", 11) &&
	       strstr(name, "/trace_pipe_raw");
}

/*
 * The records of one dump's body after RAW_MARK into @rs.  Per-CPU data
 * is appended to what earlier dumps gave; any other file is replaced by
 * this dump's copy (the window dump knows more event formats).
 */
static void read_records(struct rawset *rs, const struct framed *d,
			 const char *p, const char *end)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		char name[256], *tab, *lenp, *stop;
		unsigned long long n;
		struct rawfile *f;

		bool z = nl && !strncmp(p, "rawz\t", 5);
		unsigned long long size = 0;
		size_t h = z ? 5 : 4;

		if (!nl || nl - p >= (long)sizeof(name) + 64 ||
		    (!z && strncmp(p, "raw\t", 4))) {
			if (!rs->why[0])
				snprintf(rs->why, sizeof(rs->why), "dump %u: not a record at byte %zu of its body",
					 d->n, (size_t)(p - d->body));
			return;
		}
		memcpy(name, p + h, nl - p - h);
		name[nl - p - h] = '\0';
		tab = strrchr(name, '\t');
		/* rawz: NAME LEN SIZE, the last field the inflated size */
		if (z && tab) {
			size = strtoull(tab + 1, &stop, 10);
			if (!tab[1] || *stop || size > RAW_SIZE_MAX)
				tab = NULL;
			else {
				*tab = '\0';
				tab = strrchr(name, '\t');
			}
		}
		lenp = tab ? tab + 1 : NULL;
		n = lenp ? strtoull(lenp, &stop, 10) : 0;
		if (tab)
			*tab = '\0';
		if (!tab || !*lenp || *stop || !name_ok(name)) {
			if (!rs->why[0])
				snprintf(rs->why, sizeof(rs->why), "dump %u: a record header that is not NAME and LEN at byte %zu",
					 d->n, (size_t)(p - d->body));
			return;
		}
		p = nl + 1;
		if (n > (unsigned long long)(end - p)) {
			/* cut by damage: whole pages of CPU data are kept */
			if (!rs->why[0])
				snprintf(rs->why, sizeof(rs->why), "dump %u: %s cut after %zu of its %llu bytes (the dump is %s)",
					 d->n, name, (size_t)(end - p), n,
					 d->state == FRAME_CUT ? "cut short" : "damaged");
			if (is_cpu_data(name)) {
				f = rawfile(rs, name);
				append(f, p, (end - p) / 4096 * 4096);
			}
			return;
		}
		f = rawfile(rs, name);
		/* a later dump's kallsyms holds only the modules' lines */
		if (!is_cpu_data(name) && strcmp(name, "kallsyms") && f->dump != d->n)
			f->len = 0;	/* this dump's copy replaces it */
		f->dump = d->n;
		if (z) {
			uLongf out = size;
			char *buf = xcalloc(1, size + 1);

			if (uncompress((Bytef *)buf, &out, (const Bytef *)p, n) != Z_OK ||
			    out != size) {
				if (!rs->why[0])
					snprintf(rs->why, sizeof(rs->why), "dump %u: a compressed record of %s does not inflate to its %llu bytes",
						 d->n, name, size);
				free(buf);
				return;
			}
			append(f, buf, size);
			free(buf);
		} else {
			append(f, p, n);
		}
		p += n;
	}
}

/* "field: ... NAME; offset:O; size:S;" of a header_page line -> O, S. */
static bool header_field(const struct rawfile *hp, const char *field,
			 unsigned long *off, unsigned long *size)
{
	char pat[64];
	const char *p;

	if (!hp || !hp->len)
		return false;
	snprintf(pat, sizeof(pat), " %s;", field);
	p = memmem(hp->data, hp->len, pat, strlen(pat));
	if (!p || !(p = strstr(p, "offset:")))
		return false;
	*off = strtoul(p + 7, NULL, 10);
	p = strstr(p, "size:");
	if (!p)
		return false;
	*size = strtoul(p + 5, NULL, 10);
	return true;
}

/*
 * Whether the commit field of a page, read as @v, can be one: the data's
 * length, 1 to @dsize bytes, once the flags of its bits 30 and 31 are
 * cleared (kernel/trace/ring_buffer.c: RB_MISSED_EVENTS, RB_MISSED_STORED);
 * read in the wrong order, the length lands in the high bytes.
 */
static bool commit_ok(unsigned long long v, unsigned long dsize)
{
	v &= ~(3ULL << 30);
	return v && v <= dsize;
}

/*
 * The target's long size and page size from its events/header_page
 * (kernel/trace/ring_buffer.c: ring_buffer_print_page_header(): commit
 * is a local_t, data runs to the page's end), and its byte order from the
 * pages of CPU data: the first page whose commit is a length in one byte
 * order only tells (no page tells: little-endian, and the trace has no
 * events to misread).  -1 (@why set) when the layout cannot be told.
 */
static int target_layout(struct rawset *rs, unsigned int *long_size,
			 unsigned int *page_size, bool *big_endian,
			 char *why, size_t size)
{
	struct rawfile *hp = NULL;
	unsigned long coff, csize, doff, dsize;
	size_t off;
	int i, j;

	for (i = 0; i < rs->n; i++)
		if (!strcmp(rs->f[i].name, "events/header_page"))
			hp = &rs->f[i];
	if (!header_field(hp, "commit", &coff, &csize) ||
	    !header_field(hp, "data", &doff, &dsize) ||
	    (csize != 4 && csize != 8) || doff + dsize > 65536 ||
	    doff + dsize < 1024 || coff + csize > doff) {
		snprintf(why, size, "no readable events/header_page in the dumps (commit and data fields)");
		return -1;
	}
	*long_size = csize;
	*page_size = doff + dsize;
	*big_endian = false;
	for (i = 0; i < rs->n; i++) {
		const unsigned char *pg = (const unsigned char *)rs->f[i].data;

		if (!is_cpu_data(rs->f[i].name))
			continue;
		for (off = 0; off + *page_size <= rs->f[i].len; off += *page_size) {
			unsigned long long le = 0, be = 0;

			for (j = 0; j < (int)csize; j++) {
				le |= (unsigned long long)pg[off + coff + j] << (8 * j);
				be = be << 8 | pg[off + coff + j];
			}
			if (commit_ok(le, dsize) != commit_ok(be, dsize)) {
				*big_endian = commit_ok(be, dsize);
				return 0;
			}
		}
	}
	return 0;
}

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

/* Run trace-cmd with @argv (NULL-ended), its output into DIR/log. */
static int run_trace_cmd(const char *dir, char **argv, struct errmsg *e)
{
	char *log = xasprintf("%s/log", dir);
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
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return errmsg_set(e, -EIO, "trace-cmd %s failed (exit %d); its output is in %s/log",
				  argv[1], WIFEXITED(status) ? WEXITSTATUS(status) : -1, dir);
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

static void say(FILE *info, const char *fmt, ...)
{
	va_list ap;

	if (!info)
		return;
	va_start(ap, fmt);
	vfprintf(info, fmt, ap);
	va_end(ap);
}

static void remove_tree(const char *dir)
{
	pid_t pid = fork();

	if (!pid) {
		execlp("rm", "rm", "-rf", "--", dir, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/*
 * tracedat_build() - the trace.dat of the raw dumps framed in @text (@len
 * bytes, a capture as frames_read() takes it), made in a new directory
 * under /tmp: *@dat (malloc'd) is its path, tracedat_done() removes it.
 * What it holds (per CPU, dumps cut or damaged) is said on @info, a line
 * each; @info may be NULL.  Returns 0, or -errno with @e set: no raw
 * dump, no header_page, trace-cmd or libtracecmd missing or
 * failing (its directory and log kept and named), a file not written.
 * A record cut by a damaged dump is not an error: @info says so.
 */
int tracedat_build(const char *text, size_t len, char **dat_out, FILE *info,
		   struct errmsg *e)
{
	struct frames fr = { 0 };
	struct rawset rs = { 0 };
	unsigned int long_size, page_size;
	char tmpl[] = "/tmp/probecc-tracedat-XXXXXX", *dir, why[256];
	char *argv[8 + MAX_CPUS], *head, *other, *dat, *cpufile[MAX_CPUS] = { 0 };
	int i, ncpu = 0, rc = 0, argc;
	bool big;

	frames_read(text, len, &fr);
	for (i = 0; i < fr.n; i++) {
		const struct framed *d = &fr.d[i];
		const char *m;

		if (!d->body)
			continue;
		m = !strncmp(d->body, RAW_MARK, strlen(RAW_MARK)) ? d->body :
		    memmem(d->body, d->body_len, "\n" RAW_MARK, strlen(RAW_MARK) + 1);
		if (!m)
			continue;
		m += *m == '\n';
		rs.dumps++;
		if (d->state != FRAME_COMPLETE)
			say(info, "dump %u: %s: what came before the trouble is used\n",
				d->n, d->why);
		read_records(&rs, d, m + strlen(RAW_MARK), d->body + d->body_len);
	}
	if (!rs.dumps)
		return errmsg_set(e, -ENOENT, "no raw dump in the capture (the probe file's \"dump SINK raw\" makes one)%s",
				  fr.n ? "" : ": no dump at all");
	if (rs.why[0])
		say(info, "%s\n", rs.why);
	if (target_layout(&rs, &long_size, &page_size, &big, why, sizeof(why)))
		return errmsg_set(e, -EINVAL, "%s", why);

	dir = mkdtemp(tmpl);
	if (!dir)
		return errmsg_set(e, -errno, "mkdtemp: %s", strerror(errno));
	for (i = 0; i < rs.n && !rc; i++) {
		const struct rawfile *f = &rs.f[i];
		char *stop;
		long cpu;

		rc = put_file(dir, f->name, f->data, f->len, e);
		if (rc || !is_cpu_data(f->name))
			continue;
		cpu = strtol(f->name + 11, &stop, 10);
		if (cpu >= 0 && cpu < MAX_CPUS && *stop == '/') {
			cpufile[cpu] = xasprintf("%s/%s", dir, f->name);
			if (cpu + 1 > ncpu)
				ncpu = cpu + 1;
			say(info, "cpu %ld: %zu bytes, %zu pages of %u bytes\n",
				cpu, f->len, f->len / page_size, page_size);
		}
	}
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
	other = xasprintf("%s/head-%s.dat", dir, big ? "be" : "le");
	dat = xasprintf("%s/trace.dat", dir);
	if (!rc) {
		char *ks = xasprintf("%s/kallsyms", dir);

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
		free(ks);
	}
	if (!rc)
		rc = patch_header(head, HOST_BIG_ENDIAN, long_size, page_size, e);
	/* a target of the other byte order: its head written again in it */
	if (!rc && big != HOST_BIG_ENDIAN) {
		char *ks = xasprintf("%s/kallsyms", dir);

		rc = other_order_head(head, other, dir, ks, e);
		if (!rc)
			rc = patch_header(other, big, long_size, page_size, e);
		free(ks);
	}
	if (!rc) {
		argc = 0;
		argv[argc++] = "trace-cmd";
		argv[argc++] = "restore";
		argv[argc++] = "-i";
		argv[argc++] = big != HOST_BIG_ENDIAN ? other : head;
		argv[argc++] = "-o";
		argv[argc++] = dat;
		for (i = 0; i < ncpu; i++)
			argv[argc++] = cpufile[i];
		argv[argc] = NULL;
		rc = run_trace_cmd(dir, argv, e);
	}
	/* restore -i writes the host's long size again (its page size is the head's) */
	if (!rc)
		rc = patch_header(dat, big, long_size, page_size, e);
	if (!rc)
		say(info, "trace.dat: %d CPU(s), long %u, page %u, %s-endian, from %d raw dump(s)\n",
			ncpu, long_size, page_size, big ? "big" : "little", rs.dumps);
	/* when trace-cmd failed, the directory stays for its log */
	if (rc && rc != -EIO)
		remove_tree(dir);
	free(head);
	free(other);
	if (rc)
		free(dat);
	else
		*dat_out = dat;
	for (i = 0; i < ncpu; i++)
		free(cpufile[i]);
	for (i = 0; i < rs.n; i++) {
		free(rs.f[i].name);
		free(rs.f[i].data);
	}
	free(rs.f);
	return rc;
}

/* tracedat_done() - remove the directory of @dat (tracedat_build()), free @dat. */
void tracedat_done(char *dat)
{
	char *slash = dat ? strrchr(dat, '/') : NULL;

	if (slash && !strncmp(dat, "/tmp/probecc-tracedat-", 22)) {
		*slash = '\0';
		remove_tree(dat);
	}
	free(dat);
}

/*
 * tracedat_write() - tracedat_build()'s trace.dat staged for @out
 * (common/output.c: out_commit() puts it in place).  Returns 0 or -errno
 * with @e set, as tracedat_build().
 */
int tracedat_write(const char *text, size_t len, const char *out,
		   FILE *info, struct errmsg *e)
{
	char *dat = NULL, *data;
	size_t datlen;
	int rc = tracedat_build(text, len, &dat, info, e);

	if (!rc)
		rc = file_read(dat, &data, &datlen, e);
	if (!rc) {
		rc = out_stage(out, data, datlen, e);
		free(data);
		if (!rc)
			say(info, "%s: %zu bytes\n", out, datlen);
	}
	tracedat_done(dat);
	return rc;
}
