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
#define _GNU_SOURCE	/* memmem, memrchr, mkdtemp, strchrnul, sigabbrev_np */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#ifndef PROBECC_NO_LIBTRACECMD
#include <trace-cmd/trace-cmd.h>
#endif

#include "report-int.h"
#include "strmap.h"

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

#define RAW_MARK	"--- raw ---\n"
#define RAW_SIZE_MAX	(1 << 20)	/* a rawz piece inflates to at most this */
#define RAW_NAME_MAX	255		/* bytes of a record's name */
#define RAW_TOTAL_MAX	(256 << 20)	/* rawz records inflate to at most this, all told */
#define MAX_CPUS	4096

struct rawfile {
	char *name;
	char *data;		/* len bytes, then a NUL (append()) */
	size_t len, cap;
	unsigned int dump;	/* the dump it last came from */
};

struct rawset {
	struct rawfile *f;
	int n, cap;
	struct strmap names;	/* name -> index in f, plus 1 */
	int dumps;		/* dumps that had a raw body */
	size_t inflated;	/* bytes of rawz records inflated */
	char why[512];		/* the first record cut or refused */
	char now[512];		/* the last one */
	unsigned int *need;	/* 65536 entries: formats_need() */
};

/*
 * The target's ring-buffer page, from its events/header_page
 * (kernel/trace/ring_buffer.c: ring_buffer_print_page_header()).
 */
struct page_layout {
	unsigned int long_size;	/* the commit field: a local_t */
	unsigned int commit_off;
	unsigned int data_off;	/* the events start here */
	unsigned int page_size;	/* data_off + the data field's size */
	bool big_endian;
	const unsigned int *need;	/* per common_type, or NULL: formats_need() */
};

/* Digits of a decimal number only, at most @max; no sign, no wrap. */
static bool dec_num(const char *s, size_t n, unsigned long long max,
		    unsigned long long *v)
{
	size_t i;

	*v = 0;
	if (!n || n > 20)
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' ||
		    *v > (max - (unsigned long long)(s[i] - '0')) / 10)
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/*
 * The names a record may have: those the agent sends (initramfs/raw.c:
 * events/header_page, events/header_event, events/SYS/EVENT/format,
 * printk_formats, saved_cmdlines, saved_tgids, trace_clock, kallsyms,
 * per_cpu/cpuN/trace_pipe_raw), at most RAW_NAME_MAX bytes of
 * [A-Za-z0-9_.+:-] between the slashes, no "." or ".." component.
 */
static bool name_ok(const char *s)
{
	static const char *const plain[] = {
		"events/header_page", "events/header_event", "printk_formats",
		"saved_cmdlines", "saved_tgids", "trace_clock", "kallsyms",
	};
	const char *c, *sys, *ev;
	unsigned long long cpu;
	size_t i;

	if (strlen(s) > RAW_NAME_MAX)
		return false;
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (!strcmp(s, plain[i]))
			return true;
	if (!strncmp(s, "per_cpu/cpu", 11)) {
		c = strchr(s + 11, '/');
		return c && !strcmp(c, "/trace_pipe_raw") &&
		       (c - s == 12 || s[11] != '0') &&
		       dec_num(s + 11, c - s - 11, MAX_CPUS - 1, &cpu);
	}
	if (strncmp(s, "events/", 7))
		return false;
	sys = s + 7;
	ev = strchr(sys, '/');
	c = ev ? strchr(ev + 1, '/') : NULL;
	if (!c || strcmp(c, "/format") || ev == sys || c == ev + 1)
		return false;
	for (c = sys; *c != '/' || c != ev; c++) {
		if (*c == '/')
			continue;
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || strchr("_.-:+", *c)))
			return false;
	}
	for (c = ev + 1; *c != '/'; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || strchr("_.-:+", *c)))
			return false;
	return strcmp(ev + 1, ".format") && strncmp(sys, "./", 2) &&
	       strncmp(sys, "../", 3) && strncmp(ev, "/./", 3) &&
	       strncmp(ev, "/../", 4);
}

/* The file @name of @rs, made (empty) when it is not there. */
static struct rawfile *rawfile(struct rawset *rs, const char *name)
{
	size_t len = strlen(name);
	uintptr_t i = (uintptr_t)strmap_get(&rs->names, name, len);
	struct rawfile *f;

	if (i)
		return &rs->f[i - 1];
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 64;
		rs->f = xrealloc_array(rs->f, rs->cap, sizeof(*rs->f));
	}
	f = &rs->f[rs->n];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->data = xcalloc(1, 1);
	f->cap = 1;
	xstrmap_put(&rs->names, f->name, len, (void *)(uintptr_t)(rs->n + 1));
	return &rs->f[rs->n++];
}

/* The file @name of @rs, or NULL. */
static struct rawfile *rawfile_get(const struct rawset *rs, const char *name)
{
	uintptr_t i = (uintptr_t)strmap_get(&rs->names, name, strlen(name));

	return i ? &rs->f[i - 1] : NULL;
}

static void rawset_free(struct rawset *rs)
{
	int i;

	for (i = 0; i < rs->n; i++) {
		free(rs->f[i].name);
		free(rs->f[i].data);
	}
	free(rs->f);
	free(rs->need);
	strmap_free(&rs->names);
	memset(rs, 0, sizeof(*rs));
}

/* Append @n bytes to @f, keeping a NUL after its data. */
static void append(struct rawfile *f, const char *data, size_t n)
{
	if (n >= f->cap - f->len) {
		if (f->len + n > (size_t)-1 / 2 - 1)
			fatal("out of memory (%zu bytes)", f->len + n);
		f->cap = (f->len + n + 1) * 2;
		f->data = xrealloc_array(f->data, f->cap, 1);
	}
	memcpy(f->data + f->len, data, n);
	f->len += n;
	f->data[f->len] = '\0';
}

static bool is_cpu_data(const char *name)
{
	return !strncmp(name, "per_cpu/cpu", 11) &&
	       strstr(name, "/trace_pipe_raw");
}

static void set_why(struct rawset *rs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_why(struct rawset *rs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rs->now, sizeof(rs->now), fmt, ap);
	va_end(ap);
	if (!rs->why[0])
		memcpy(rs->why, rs->now, sizeof(rs->why));
}

/*
 * The records of one dump's body after RAW_MARK into @rs.  Per-CPU data
 * is appended to what earlier dumps gave; any other file is replaced by
 * this dump's copy (the window dump knows more event formats).  The
 * first record refused or cut is said in rs->why, and ends the body.
 */
static void read_records(struct rawset *rs, const struct framed *d,
			 const char *p, const char *end)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		/* NAME \t LEN [\t SIZE]: the name and two 20-digit numbers */
		char line[RAW_NAME_MAX + 48], *name = line, *tab, *lenp;
		unsigned long long n, size = 0;
		struct rawfile *f;
		bool z = nl && !strncmp(p, "rawz\t", 5);
		size_t h = z ? 5 : 4, hl;

		if (!nl || (!z && strncmp(p, "raw\t", 4))) {
			set_why(rs, "dump %u: not a record at byte %zu of its body",
				d->n, (size_t)(p - d->body));
			return;
		}
		hl = nl - p - h;
		if (hl >= sizeof(line) || memchr(p + h, '\0', hl)) {
			set_why(rs, "dump %u: a record header that is not NAME and LEN at byte %zu",
				d->n, (size_t)(p - d->body));
			return;
		}
		memcpy(line, p + h, hl);
		line[hl] = '\0';
		tab = strrchr(line, '\t');
		/* rawz: NAME LEN SIZE, the last field the inflated size */
		if (z && tab) {
			if (!dec_num(tab + 1, strlen(tab + 1), RAW_SIZE_MAX, &size))
				tab = NULL;
			else {
				*tab = '\0';
				tab = strrchr(line, '\t');
			}
		}
		lenp = tab ? tab + 1 : NULL;
		if (tab)
			*tab = '\0';
		if (!tab || !dec_num(lenp, strlen(lenp), ~0ULL, &n) || !name_ok(name)) {
			set_why(rs, "dump %u: a record header that is not NAME and LEN at byte %zu",
				d->n, (size_t)(p - d->body));
			return;
		}
		p = nl + 1;
		if (n > (unsigned long long)(end - p)) {
			/* cut by damage: whole pages of CPU data are kept */
			set_why(rs, "dump %u: %s cut after %zu of its %llu bytes (the dump is %s)",
				d->n, name, (size_t)(end - p), n,
				d->state == FRAME_CUT ? "cut short" :
				d->state == FRAME_COMPLETE ? "complete: the record is wrong" : "damaged");
			if (is_cpu_data(name) && !z) {
				f = rawfile(rs, name);
				append(f, p, (end - p) / 4096 * 4096);
			}
			return;
		}
		f = rawfile(rs, name);
		/* a later dump's kallsyms holds only the modules' lines */
		if (!is_cpu_data(name) && strcmp(name, "kallsyms") && f->dump != d->n) {
			f->len = 0;	/* this dump's copy replaces it */
			f->data[0] = '\0';
		}
		f->dump = d->n;
		if (z && size > RAW_TOTAL_MAX - rs->inflated) {
			/* a zlib stream inflates up to about 1000 times */
			set_why(rs, "dump %u: the compressed records inflate to more than %d MiB",
				d->n, RAW_TOTAL_MAX >> 20);
			return;
		}
		if (z) {
			uLongf out = size;
			char *buf = xcalloc(1, size + 1);

			rs->inflated += size;

			if (uncompress((Bytef *)buf, &out, (const Bytef *)p, n) != Z_OK ||
			    out != size) {
				set_why(rs, "dump %u: a compressed record of %s does not inflate to its %llu bytes",
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

/*
 * "\tfield: TYPE NAME;\toffset:O;\tsize:S;..." of a header_page or format
 * file @data (NUL-terminated) for the field @field -> O, S, each at most
 * 65536 (no page is larger).  False when no line names that field or its
 * numbers are not that.
 */
static bool format_field(const char *data, const char *field,
			 unsigned long long *off, unsigned long long *size)
{
	size_t flen = strlen(field);
	const char *line, *nl, *semi, *o, *s;

	for (line = data; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		semi = memchr(line, ';', nl - line);
		if (!semi || semi - line < (long)flen + 1 ||
		    memcmp(semi - flen, field, flen) ||
		    (*(semi - flen - 1) != ' ' && *(semi - flen - 1) != '\t') ||
		    !memmem(line, semi - line, "field:", 6)) {
			if (!*nl)
				break;
			continue;
		}
		o = memmem(semi, nl - semi, "offset:", 7);
		s = memmem(semi, nl - semi, "size:", 5);
		if (!o || !s)
			return false;
		o += 7;
		s += 5;
		return dec_num(o, strspn(o, "0123456789"), 65536, off) && o[strspn(o, "0123456789")] == ';' &&
		       dec_num(s, strspn(s, "0123456789"), 65536, size) && s[strspn(s, "0123456789")] == ';';
	}
	return false;
}

/*
 * The ring-buffer page from events/header_page @hp, as the kernel prints
 * it (ring_buffer_print_page_header()): timestamp a u64 at 0, commit a
 * local_t (4 or 8 bytes) at 8, data right after it up to the page's end,
 * a page of 1 KiB to 64 KiB, a power of two.  libtraceevent's kbuffer
 * reads pages with that layout whatever the file says, so no other is
 * taken.
 */
static bool page_layout_of(const struct rawfile *hp, struct page_layout *pl)
{
	unsigned long long toff, tsize, coff, csize, doff, dsize, page;

	if (!hp || !format_field(hp->data, "timestamp", &toff, &tsize) ||
	    !format_field(hp->data, "commit", &coff, &csize) ||
	    !format_field(hp->data, "data", &doff, &dsize))
		return false;
	page = doff + dsize;	/* each at most 65536: no wrap */
	if (toff != 0 || tsize != 8 || coff != 8 || (csize != 4 && csize != 8) ||
	    doff != coff + csize || page < 1024 || page > 65536 || (page & (page - 1)))
		return false;
	pl->long_size = csize;
	pl->commit_off = coff;
	pl->data_off = doff;
	pl->page_size = page;
	return true;
}

/* A number of @n bytes at @p in the target's byte order. */
static unsigned long long read_num(const unsigned char *p, unsigned int n, bool big)
{
	unsigned long long v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (unsigned long long)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

/* kernel/trace/ring_buffer.c: the flags in the commit word, and its length */
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)
#define RB_COMMIT_MASK		((1ULL << 27) - 1)	/* libtraceevent's COMMIT_MASK */

/*
 * Whether the commit field of a page, read as @v, can be one: the data's
 * length, 1 to @dsize bytes, once the flags of its bits 30 and 31 are
 * cleared (RB_MISSED_EVENTS, RB_MISSED_STORED); read in the wrong order,
 * the length lands in the high bytes.
 */
static bool commit_ok(unsigned long long v, unsigned long dsize)
{
	v &= ~(RB_MISSED_EVENTS | RB_MISSED_STORED);
	return v && v <= dsize;
}

/*
 * Check one ring-buffer page @pg (pl->page_size bytes) as libtraceevent's
 * kbuffer will walk it (kbuffer-parse.c, the kernel's struct
 * ring_buffer_event: a 4-byte word of type_len:5 and time_delta:27, in
 * the target's bit order): its commit (the data's length, flags aside)
 * within the page, the lost-event count after it within the page, and
 * every event's words and data within the commit.  NULL when it is one,
 * else what is wrong.  @used (NULL, or a bitmap of 65536 bits) gets the
 * type of every data event: the u16 common_type its payload starts with
 * (struct trace_entry, include/linux/trace_events.h).  With pl->need,
 * every data event's payload holds at least the fields of its type's
 * format (the kernel writes the whole entry struct, then the dynamic
 * data after it).
 */
static const char *page_check(const unsigned char *pg, const struct page_layout *pl,
			      unsigned char *used)
{
	unsigned long long flags = read_num(pg + pl->commit_off, pl->long_size, pl->big_endian);
	unsigned long long size = flags & ~(RB_MISSED_EVENTS | RB_MISSED_STORED);
	unsigned int dsize = pl->page_size - pl->data_off;
	const unsigned char *data = pg + pl->data_off;
	unsigned long long pos = 0;

	if (size > dsize || size > RB_COMMIT_MASK)
		return "its commit is larger than the page's data";
	if ((flags & RB_MISSED_EVENTS) && (flags & RB_MISSED_STORED) &&
	    size + pl->long_size > dsize)
		return "its count of lost events lies past the page";
	while (pos < size) {
		unsigned int w, type_len, type;
		unsigned long long len, payload = 0;
		uint32_t next32;

		if (pos + 8 > dsize)
			return "an event's header lies past the page";
		w = read_num(data + pos, 4, pl->big_endian);
		type_len = pl->big_endian ? w >> 27 : w & 31;
		switch (type_len) {
		case 29:	/* padding: the next event 4 + array[0] on */
			/* kbuffer adds in 32 bits: a sum that wraps loops it */
			next32 = pos + 4 + read_num(data + pos + 4, 4, pl->big_endian);
			if (next32 <= pos)
				return "a padding event whose length wraps";
			len = next32 - pos;
			break;
		case 30:	/* time extend */
		case 31:	/* absolute time stamp */
			len = 8;
			break;
		case 0:		/* the length in array[0], its own 4 bytes too */
			len = read_num(data + pos + 4, 4, pl->big_endian);
			if (len < 4)
				return "an event's length is less than its length word";
			payload = pos + 8;
			len = 8 + ((len - 4 + 3) & ~3ULL);
			if (pos + len > size)
				return "an event runs past the commit";
			break;
		default:
			payload = pos + 4;
			len = 4 + type_len * 4;
			if (pos + len > size)
				return "an event runs past the commit";
			break;
		}
		if (payload && payload + 2 <= pos + len) {
			type = read_num(data + payload, 2, pl->big_endian);
			if (used)
				used[type / 8] |= 1 << (type % 8);
			/* libtraceevent takes a zero-size field (char buf[])
			 * as "the rest of the record" and allocates its length
			 * less the field's offset: a record shorter than its
			 * format's fields would be a length that wrapped */
			if (pl->need && pos + len - payload < pl->need[type])
				return "a record is shorter than the fields of its event's format";
		}
		pos += len;
	}
	return NULL;
}

/*
 * field_line() - a format file's line @line..@nl: 0 when it is not a
 * field ("field:" missing), 1 with its offset and size (each at most
 * 65536: their sum does not wrap), -1 when they do not read.
 */
static int field_line(const char *line, const char *nl,
		      unsigned long long *off, unsigned long long *size)
{
	const char *o, *s;

	if (!memmem(line, nl - line, "field:", 6))
		return 0;
	o = memmem(line, nl - line, "offset:", 7);
	s = memmem(line, nl - line, "size:", 5);
	if (!o || !s || !dec_num(o + 7, strspn(o + 7, "0123456789"), 65536, off) ||
	    !dec_num(s + 5, strspn(s + 5, "0123456789"), 65536, size))
		return -1;
	return 1;
}

/*
 * formats_need() - per common_type (the "ID: N" of a format file,
 * kernel/trace/trace_events.c f_show()), the bytes its records hold at
 * least: the largest offset + size of the format's fields.  65536
 * entries, malloc'd; 0 where no format tells.  A line that does not
 * read is skipped here (formats_fit() refuses it); two formats with one
 * ID need the larger.
 */
static unsigned int *formats_need(const struct rawset *rs)
{
	unsigned int *need = xcalloc(65536, sizeof(*need));
	int i;

	for (i = 0; i < rs->n; i++) {
		const char *line, *nl, *id;
		unsigned long long type, most = 0;

		if (strncmp(rs->f[i].name, "events/", 7))
			continue;
		id = !strncmp(rs->f[i].data, "ID: ", 4) ? rs->f[i].data :
		     strstr(rs->f[i].data, "\nID: ");
		if (!id)
			continue;
		id += *id == '\n' ? 5 : 4;
		if (!dec_num(id, strspn(id, "0123456789"), 65535, &type))
			continue;
		for (line = rs->f[i].data; *line; line = *nl ? nl + 1 : nl) {
			unsigned long long off, size;

			nl = strchrnul(line, '\n');
			if (field_line(line, nl, &off, &size) > 0 && off + size > most)
				most = off + size;
		}
		if (most > need[type])
			need[type] = most;
	}
	return need;
}

/*
 * The target's page layout (page_layout_of()) and its byte order from
 * the pages of CPU data: the first page whose commit is a length in one
 * byte order only tells (no page tells: little-endian, and the trace has
 * no events to misread).  Then every page is checked (page_check()).
 * -1 (@why set) when the layout cannot be told or a page is wrong.
 */
static int target_layout(struct rawset *rs, struct page_layout *pl,
			 char *why, size_t size)
{
	size_t off, dsize;
	int i;

	if (!page_layout_of(rawfile_get(rs, "events/header_page"), pl)) {
		snprintf(why, size, "no readable events/header_page in the dumps (timestamp, commit and data fields as the kernel writes them)");
		return -1;
	}
	rs->need = formats_need(rs);
	pl->need = rs->need;
	dsize = pl->page_size - pl->data_off;
	pl->big_endian = false;
	for (i = 0; i < rs->n; i++) {
		const unsigned char *pg = (const unsigned char *)rs->f[i].data;
		bool told = false;

		if (!is_cpu_data(rs->f[i].name))
			continue;
		for (off = 0; off + pl->page_size <= rs->f[i].len; off += pl->page_size) {
			unsigned long long le = read_num(pg + off + pl->commit_off, pl->long_size, false);
			unsigned long long be = read_num(pg + off + pl->commit_off, pl->long_size, true);

			if (commit_ok(le, dsize) != commit_ok(be, dsize)) {
				pl->big_endian = commit_ok(be, dsize);
				told = true;
				break;
			}
		}
		if (told)
			break;
	}
	for (i = 0; i < rs->n; i++) {
		const unsigned char *pg = (const unsigned char *)rs->f[i].data;
		const char *bad;

		if (!is_cpu_data(rs->f[i].name))
			continue;
		if (rs->f[i].len % pl->page_size) {
			/* a dump cut or damaged in a page: the whole pages */
			if (!rs->why[0]) {
				snprintf(why, size, "%s: %zu bytes, not whole pages of %u",
					 rs->f[i].name, rs->f[i].len, pl->page_size);
				return -1;
			}
			rs->f[i].len -= rs->f[i].len % pl->page_size;
		}
		for (off = 0; off < rs->f[i].len; off += pl->page_size)
			if ((bad = page_check(pg + off, pl, NULL))) {
				snprintf(why, size, "%s: page %zu: %s (commit %llu, data %zu bytes)",
					 rs->f[i].name, off / pl->page_size, bad,
					 read_num(pg + off + pl->commit_off, pl->long_size,
						  pl->big_endian) & ~(RB_MISSED_EVENTS | RB_MISSED_STORED),
					 dsize);
				return -1;
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

/*
 * "signal SIGSEGV (Segmentation fault)" or "exit N" for a child's
 * @status (waitpid()), into @buf.
 */
const char *child_status(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status)) {
		const char *abbrev = sigabbrev_np(WTERMSIG(status));

		snprintf(buf, size, "signal %s%s (%s)", abbrev ? "SIG" : "",
			 abbrev ? abbrev : "", strsignal(WTERMSIG(status)));
	} else {
		snprintf(buf, size, "exit %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	return buf;
}

/*
 * child_call() - @fn(@arg) in a forked child, its return value its exit
 * status (0..255), ended by SIGALRM after @seconds (0: no limit); *@status
 * gets the child's wait status.  For the library calls that trust their
 * input (libtracecmd, libtraceevent): a crash there ends the child, not
 * the report.  Returns 0, or -errno with @e set when fork() or waitpid()
 * failed.
 */
int child_call(int (*fn)(void *arg), void *arg, unsigned int seconds,
	       int *status, struct errmsg *e)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return errmsg_set(e, -errno, "fork: %s", strerror(errno));
	if (!pid) {
		if (seconds)
			alarm(seconds);
		_exit(fn(arg) & 0xff);
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return errmsg_set(e, -errno, "waitpid: %s", strerror(errno));
	return 0;
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

static void say(FILE *info, const char *fmt, ...)
{
	va_list ap;

	if (!info)
		return;
	va_start(ap, fmt);
	vfprintf(info, fmt, ap);
	va_end(ap);
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

/* "0x%lx : \"FMT\"" (kernel/trace/trace_printk.c, t_show()) */
static bool printk_line(const char *l, size_t n)
{
	size_t h = l[0] == '0' && l[1] == 'x' ? strspn(l + 2, "0123456789abcdef") : 0;

	return h && h <= 16 && n >= 2 + h + 5 && !memcmp(l + 2 + h, " : \"", 4) &&
	       l[n - 1] == '"';
}

/* "%d %s" (kernel/trace/trace.c, saved_cmdlines_show()) */
static bool cmdline_line(const char *l, size_t n)
{
	size_t d = strspn(l, "0123456789");

	return d && d <= 10 && d + 1 < n && l[d] == ' ';
}

/* "%d %d" (kernel/trace/trace.c, saved_tgids_show()) */
static bool tgid_line(const char *l, size_t n)
{
	size_t d = strspn(l, "0123456789"), e;

	if (!d || d > 10 || l[d] != ' ')
		return false;
	e = strspn(l + d + 1, "0123456789");
	return e && e <= 10 && d + 1 + e == n;
}

/* "%px %c %s" or "%px %c %s\t[%s]" (kernel/kallsyms.c, s_show()) */
static bool kallsyms_line(const char *l, size_t n)
{
	size_t h = strspn(l, "0123456789abcdef"), name;
	const char *tab;

	if (!h || h > 16 || n < h + 4 || l[h] != ' ' || l[h + 2] != ' ' ||
	    l[h + 1] <= ' ' || l[h + 1] > '~')
		return false;
	name = n - h - 3;
	tab = memchr(l + h + 3, '\t', name);
	if (!tab)
		return name > 0 && !memchr(l + h + 3, ' ', name);
	return tab > l + h + 3 && !memchr(l + h + 3, ' ', tab - (l + h + 3)) &&
	       tab[1] == '[' && l[n - 1] == ']' && l + n - tab > 3;
}

/*
 * The text files libtraceevent parses, each line as the kernel writes
 * it, no NUL byte in any file but the CPU data, and the kernel's own
 * files (formats, header_page, printk_formats...) in printable ASCII:
 * its parsers take C strings and the layout on trust (a printk_formats
 * line cut before its " : " made tep_parse_printk_formats() read past
 * its copy; a control byte in a format file's array size made
 * tep_parse_event() call strcmp() on NULL).
 */
static int texts_fit(const struct rawset *rs, struct errmsg *e)
{
	static const struct {
		const char *name;
		bool (*line)(const char *l, size_t n);
	} texts[] = {
		{ "printk_formats", printk_line },
		{ "saved_cmdlines", cmdline_line },
		{ "saved_tgids", tgid_line },
		{ "kallsyms", kallsyms_line },
	};
	size_t t;
	int i;

	for (i = 0; i < rs->n; i++) {
		const struct rawfile *f = &rs->f[i];
		const char *l, *nl;

		if (is_cpu_data(f->name))
			continue;
		if (strlen(f->data) != f->len)
			return errmsg_set(e, -EINVAL, "%s: a NUL byte at %zu", f->name, strlen(f->data));
		/* the kernel's own text: printable ASCII, TAB and LF (a task's
		 * name in saved_cmdlines may hold any byte) */
		if (strcmp(f->name, "saved_cmdlines")) {
			const unsigned char *c;

			for (c = (const unsigned char *)f->data; *c; c++)
				if ((*c < ' ' && *c != '\t' && *c != '\n') || *c > '~')
					return errmsg_set(e, -EINVAL, "%s: byte 0x%02x at %zu, not the kernel's text",
							  f->name, *c, (size_t)(c - (const unsigned char *)f->data));
		}
		for (t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
			if (!strcmp(f->name, texts[t].name))
				break;
		if (t == sizeof(texts) / sizeof(texts[0]))
			continue;
		for (l = f->data; *l; l = *nl ? nl + 1 : nl) {
			nl = strchrnul(l, '\n');
			if (!texts[t].line(l, nl - l))
				return errmsg_set(e, -EINVAL, "%s: a line not as the kernel writes it: %.*s",
						  f->name, (int)(nl - l > 80 ? 80 : nl - l), l);
		}
	}
	return 0;
}

/*
 * The "print fmt:" line of the format file @f (its last, f_show() in
 * kernel/trace/trace_events.c), that libtraceevent can parse and print
 * it without dividing by zero (printfmt_check()).
 */
static int printfmt_fit(const struct rawfile *f, struct errmsg *e)
{
	static const char key[] = "print fmt: ";
	const char *p = f->data, *end = f->data + f->len, *nl;
	char why[160];

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if ((size_t)(nl - p) >= strlen(key) && !memcmp(p, key, strlen(key)) &&
		    printfmt_check(p + strlen(key), nl - p - strlen(key), why, sizeof(why)))
			return errmsg_set(e, -EINVAL, "%s: %s", f->name, why);
	}
	return 0;
}

/*
 * Every field of every event's format file (events/SYS/EVENT/format)
 * inside a page's data: libtraceevent reads a record's fields at the
 * offsets the format file gives, without looking at the record's size.
 * And its print fmt without a division by zero (printfmt_fit()).
 */
static int formats_fit(const struct rawset *rs, const struct page_layout *pl,
		       struct errmsg *e)
{
	unsigned int dsize = pl->page_size - pl->data_off;
	int i;

	for (i = 0; i < rs->n; i++) {
		const char *line, *nl;

		if (strncmp(rs->f[i].name, "events/", 7) ||
		    !strcmp(rs->f[i].name, "events/header_page") ||
		    !strcmp(rs->f[i].name, "events/header_event"))
			continue;
		for (line = rs->f[i].data; *line; line = *nl ? nl + 1 : nl) {
			unsigned long long off, size;
			int f;

			nl = strchrnul(line, '\n');
			f = field_line(line, nl, &off, &size);
			if (!f)
				continue;
			if (f < 0 || off + size > dsize)
				return errmsg_set(e, -EINVAL, "%s: a field that does not fit in a page's %u bytes of data: %.*s",
						  rs->f[i].name, dsize,
						  (int)(nl - line > 120 ? 120 : nl - line), line);
		}
		if (printfmt_fit(&rs->f[i], e))
			return -EINVAL;
	}
	return 0;
}

/*
 * The records of the raw dumps framed in @text (@len bytes) into @rs and
 * the page layout they have into @pl, everything checked that
 * libtracecmd and libtraceevent would otherwise trust: record names and
 * lengths, header_page, every page and event in it, the format files'
 * fields.  A record refused in a complete dump is an error.
 * @complete_only: only complete dumps are read (the report's verdicts);
 * otherwise a cut or damaged dump gives what came before the damage,
 * said on @info.
 * Returns 0, or -errno with @e set.
 */
static int raw_collect(const char *text, size_t len, bool complete_only,
		       struct rawset *rs, struct page_layout *pl, FILE *info,
		       struct errmsg *e)
{
	struct frames fr = { 0 };
	char why[512];
	int i, incomplete = 0;

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
		if (complete_only && d->state != FRAME_COMPLETE) {
			incomplete++;
			continue;
		}
		m += *m == '\n';
		rs->dumps++;
		if (d->state != FRAME_COMPLETE)
			say(info, "dump %u: %s: what came before the trouble is used\n",
				d->n, d->why);
		rs->now[0] = '\0';
		read_records(rs, d, m + strlen(RAW_MARK), d->body + d->body_len);
		/* a complete dump came as the agent wrote it: wrong, not damaged */
		if (rs->now[0] && d->state == FRAME_COMPLETE)
			return errmsg_set(e, -EINVAL, "%s", rs->now);
	}
	if (!rs->dumps)
		return errmsg_set(e, -ENOENT, "no %sraw dump in the capture%s",
				  complete_only && incomplete ? "complete " : "",
				  incomplete ? "" : fr.n ? " (the probe file's \"dump SINK raw\" makes one)" :
				  " (the probe file's \"dump SINK raw\" makes one): no dump at all");
	if (rs->why[0])
		say(info, "%s\n", rs->why);
	if (target_layout(rs, pl, why, sizeof(why)))
		return errmsg_set(e, -EINVAL, "%s", why);
	if (texts_fit(rs, e))
		return -EINVAL;
	return formats_fit(rs, pl, e);
}

static bool format_unused(const struct rawfile *f, const unsigned char *used,
			  int *noid);

/*
 * tracedat_check() - raw_collect() alone, no file written: 0 when the raw
 * dumps of @text (@len bytes) would be given to trace-cmd, else -errno
 * with @e set.  Then, when @v is not NULL, v->layout() is told the page
 * layout, v->file() is given every file tracedat_build() writes but the
 * CPU data (the format files of the events the pages hold; @data
 * NUL-terminated after its @len bytes), and v->page() each page of CPU
 * data, in the order trace-cmd reads them.  For the fuzz harness
 * (tests/fuzz/fuzz-raw.c), which gives them to libtraceevent.
 */
int tracedat_check(const char *text, size_t len, bool complete_only,
		   const struct tracedat_visit *v, struct errmsg *e)
{
	struct rawset rs = { 0 };
	struct page_layout pl;
	int rc = raw_collect(text, len, complete_only, &rs, &pl, NULL, e);
	unsigned char *used = xcalloc(65536 / 8, 1);
	size_t off;
	int i, noid = 0;

	if (!rc && v) {
		v->layout(pl.page_size, pl.long_size, pl.big_endian, v->arg);
		for (i = 0; i < rs.n; i++)
			if (is_cpu_data(rs.f[i].name))
				for (off = 0; off + pl.page_size <= rs.f[i].len; off += pl.page_size)
					page_check((const unsigned char *)rs.f[i].data + off, &pl, used);
		/* the files tracedat_build() writes: the formats the pages use */
		for (i = 0; i < rs.n; i++)
			if (!is_cpu_data(rs.f[i].name) && !format_unused(&rs.f[i], used, &noid))
				v->file(rs.f[i].name, rs.f[i].data, rs.f[i].len, v->arg);
		for (i = 0; i < rs.n; i++)
			if (is_cpu_data(rs.f[i].name))
				for (off = 0; off + pl.page_size <= rs.f[i].len; off += pl.page_size)
					v->page((const unsigned char *)rs.f[i].data + off, v->arg);
	}
	free(used);
	rawset_free(&rs);
	return rc;
}

/*
 * Whether the format file @f (events/SYS/EVENT/format) can decode no
 * record in the pages: its "ID: N" line (kernel/trace/trace_events.c,
 * f_show()) is missing, unreadable or a type not set in @used (*@noid
 * counts the first two).  The dumps carry the formats of whole systems;
 * a trace.dat needs those of the events it holds, and each format left
 * out is a directory and a file less for trace-cmd restore to read.
 */
static bool format_unused(const struct rawfile *f, const unsigned char *used,
			  int *noid)
{
	const char *id = NULL, *p = f->data, *end = f->data + f->len;
	unsigned long long v;
	size_t n;

	if (strncmp(f->name, "events/", 7) || strlen(f->name) < 14 ||
	    strcmp(f->name + strlen(f->name) - 7, "/format"))
		return false;
	while (p && p < end) {
		if (end - p > 4 && !memcmp(p, "ID: ", 4)) {
			id = p + 4;
			break;
		}
		p = memchr(p, '\n', end - p);
		if (p)
			p++;
	}
	for (n = 0; id && id + n < end && id[n] != '\n'; n++)
		;
	if (!id || !dec_num(id, n, 65535, &v)) {
		(*noid)++;
		return true;
	}
	return !(used[v / 8] & (1 << (v % 8)));
}

/*
 * tracedat_build() - the trace.dat of the raw dumps framed in @text (@len
 * bytes, a capture as frames_read() takes it), made in a new directory
 * under $TMPDIR (or /tmp): *@dat (malloc'd) is its path, tracedat_done()
 * removes it.  @complete_only: as raw_collect().  What it holds (per CPU,
 * dumps cut or damaged) is said on @info, a line each; @info may be NULL.
 * Returns 0, or -errno with @e set: no raw dump, a record, header_page,
 * page or format file refused (raw_collect()), trace-cmd or libtracecmd
 * missing or failing (the signal that ended it, its last line of
 * output), a file not written.  The directory is removed on every error
 * and on a signal that ends probecc while it exists.
 */
int tracedat_build(const char *text, size_t len, bool complete_only,
		   char **dat_out, FILE *info, struct errmsg *e)
{
	struct rawset rs = { 0 };
	struct page_layout pl;
	char *argv[8 + MAX_CPUS], *head = NULL, *other = NULL, *dat = NULL, *dir;
	char *cpufile[MAX_CPUS] = { 0 }, *ks = NULL;
	unsigned char used[65536 / 8] = { 0 };
	int i, ncpu = 0, rc, argc, noid = 0;
	size_t off;

	rc = raw_collect(text, len, complete_only, &rs, &pl, info, e);
	if (rc) {
		rawset_free(&rs);
		return rc;
	}
	dir = tmp_make(e);
	if (!dir) {
		rawset_free(&rs);
		return -EIO;
	}
	for (i = 0; i < rs.n; i++)
		if (is_cpu_data(rs.f[i].name))
			for (off = 0; off + pl.page_size <= rs.f[i].len; off += pl.page_size)
				page_check((const unsigned char *)rs.f[i].data + off, &pl, used);
	for (i = 0; i < rs.n && !rc; i++) {
		const struct rawfile *f = &rs.f[i];
		unsigned long long cpu;

		if (format_unused(f, used, &noid))
			continue;
		rc = put_file(dir, f->name, f->data, f->len, e);
		if (rc || !is_cpu_data(f->name))
			continue;
		/* name_ok(): "per_cpu/cpuN/trace_pipe_raw", N < MAX_CPUS */
		if (dec_num(f->name + 11, strcspn(f->name + 11, "/"), MAX_CPUS - 1, &cpu)) {
			cpufile[cpu] = xasprintf("%s/%s", dir, f->name);
			if ((int)cpu + 1 > ncpu)
				ncpu = cpu + 1;
			say(info, "cpu %llu: %zu bytes, %zu pages of %u bytes\n",
				cpu, f->len, f->len / pl.page_size, pl.page_size);
		}
	}
	if (noid)
		say(info, "format files: %d without a readable 'ID: N' line, left out\n", noid);
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
		say(info, "trace.dat: %d CPU(s), long %u, page %u, %s-endian, from %d raw dump(s)\n",
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
void tracedat_done(char *dat)
{
	if (dat)
		tmp_remove();
	free(dat);
}

/*
 * tracedat_write() - tracedat_build()'s trace.dat staged for @out
 * (common/output.c: out_commit() puts it in place), once libtracecmd and
 * libtraceevent have read every record of it in a child process
 * (events_try(): a file they crash on is not written).  Returns 0 or
 * -errno with @e set, as tracedat_build().
 */
int tracedat_write(const char *text, size_t len, const char *out,
		   FILE *info, struct errmsg *e)
{
	char *dat = NULL, *data;
	size_t datlen;
	int rc = tracedat_build(text, len, false, &dat, info, e);

	if (!rc)
		rc = events_try(dat, e);
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
