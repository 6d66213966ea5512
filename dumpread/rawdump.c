// SPDX-License-Identifier: GPL-2.0
/*
 * A raw dump's records, read and checked (dumpread-local.h: raw_collect()).
 *
 * The agent's raw dump (initramfs/raw.c, docs/plan.md "Raw dump") holds
 * the ring buffer's pages and the tracefs files a reader needs, as
 * records "raw<TAB>NAME<TAB>LEN\n" + LEN bytes, or "rawz<TAB>NAME<TAB>
 * LEN<TAB>SIZE\n" + LEN bytes of zlib stream inflating to SIZE (zlib's
 * uncompress()).  Here they become a set of named files
 * (events/header_page, events/SYS/EV/format, printk_formats,
 * saved_cmdlines, kallsyms, per_cpu/cpuN/trace_pipe_raw), and everything
 * libtraceevent would otherwise trust is checked: record names and
 * lengths, header_page, every page and event in it (walked once, which
 * also tells the event types the pages hold), the format files' fields
 * and print formats, the text files' lines.
 *
 * The ring buffer pages of every dump of the boot are joined per CPU in
 * dump order: reading trace_pipe_raw consumes them, so the window dump
 * holds what came after the init dump.  kallsyms is joined too: the
 * window dump sends only the modules' symbols.  Other files are the last
 * dump's (it knows the events defined since).  A damaged or cut dump gives what
 * came before the damage, whole pages only.
 */
#define _GNU_SOURCE	/* memmem, strchrnul */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "dumpread-local.h"


/* Digits of a decimal number only, at most @max; no sign, no wrap. */
bool dec_num(const char *s, size_t n, unsigned long long max,
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
struct rawfile *rawfile(struct rawset *rs, const char *name)
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

void rawset_free(struct rawset *rs)
{
	int i;

	for (i = 0; i < rs->n; i++) {
		free(rs->f[i].name);
		free(rs->f[i].data);
	}
	free(rs->f);
	free(rs->need);
	free(rs->why);
	free(rs->now);
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

bool is_cpu_data(const char *name)
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
	dr_vwhy(&rs->now, fmt, ap);
	va_end(ap);
	if (!rs->why)
		rs->why = xstrdup(rs->now);
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
			if (!rs->why) {
				snprintf(why, size, "%s: %zu bytes, not whole pages of %u",
					 rs->f[i].name, rs->f[i].len, pl->page_size);
				return -1;
			}
			rs->f[i].len -= rs->f[i].len % pl->page_size;
		}
		for (off = 0; off < rs->f[i].len; off += pl->page_size)
			if ((bad = page_check(pg + off, pl, rs->used))) {
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

void raw_say(FILE *info, const char *fmt, ...)
{
	va_list ap;

	if (!info)
		return;
	va_start(ap, fmt);
	vfprintf(info, fmt, ap);
	va_end(ap);
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
static int texts_fit(const struct rawset *rs, struct dumpread_error *e)
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
			return dr_error(e, DR_FORMAT, "%s: a NUL byte at %zu", f->name, strlen(f->data));
		/* the kernel's own text: printable ASCII, TAB and LF (a task's
		 * name in saved_cmdlines may hold any byte) */
		if (strcmp(f->name, "saved_cmdlines")) {
			const unsigned char *c;

			for (c = (const unsigned char *)f->data; *c; c++)
				if ((*c < ' ' && *c != '\t' && *c != '\n') || *c > '~')
					return dr_error(e, DR_FORMAT, "%s: byte 0x%02x at %zu, not the kernel's text",
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
				return dr_error(e, DR_FORMAT, "%s: a line not as the kernel writes it: %.*s",
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
static int printfmt_fit(const struct rawfile *f, struct dumpread_error *e)
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
			return dr_error(e, DR_FORMAT, "%s: %s", f->name, why);
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
		       struct dumpread_error *e)
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
				return dr_error(e, DR_FORMAT, "%s: a field that does not fit in a page's %u bytes of data: %.*s",
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
int raw_collect(const char *text, size_t len, bool complete_only,
		       struct rawset *rs, struct page_layout *pl, FILE *info,
		       struct dumpread_error *e)
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
			raw_say(info, "dump %u: %s: what came before the trouble is used\n",
				d->n, dr_text(d->why));
		free(rs->now);
		rs->now = NULL;
		read_records(rs, d, m + strlen(RAW_MARK), d->body + d->body_len);
		/* a complete dump came as the agent wrote it: wrong, not damaged */
		if (rs->now && d->state == FRAME_COMPLETE)
			return dr_error(e, DR_RECORD, "%s", rs->now);
	}
	if (!rs->dumps)
		return dr_error(e, DR_NO_DUMP, "no %sraw dump in the capture%s",
				  complete_only && incomplete ? "complete " : "",
				  incomplete ? "" : fr.n ? " (the probe file's \"dump SINK raw\" makes one)" :
				  " (the probe file's \"dump SINK raw\" makes one): no dump at all");
	if (rs->why)
		raw_say(info, "%s\n", rs->why);
	if (target_layout(rs, pl, why, sizeof(why)))
		return dr_error(e, DR_LAYOUT, "%s", why);
	if (texts_fit(rs, e))
		return -EINVAL;
	return formats_fit(rs, pl, e);
}

/*
 * Whether the format file @f (events/SYS/EVENT/format) can decode no
 * record in the pages: its "ID: N" line (kernel/trace/trace_events.c,
 * f_show()) is missing, unreadable or a type not set in @used (*@noid
 * counts the first two).  The dumps carry the formats of whole systems;
 * a trace.dat needs those of the events it holds, and each format left
 * out is a directory and a file less for trace-cmd restore to read.
 */
bool format_unused(const struct rawfile *f, const unsigned char *used,
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
