// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-raw: the raw-dump path of "probecc report" (report/tracedat.c)
 * on the payload of the frames, not on the frames: a random change to a
 * framed dump fails its chunk's CRC-32 and never reaches the records.
 * The harness frames the payload itself as the agent does (common/
 * dumpframe.h: a begin line with a nonce, chunks of at most 64 KiB with
 * their lengths and CRC-32s, an end line), so every mutation reaches the
 * record reader (raw, rawz), header_page, the pages and their events,
 * the format files and kallsyms: tracedat_check(), all that runs before
 * trace-cmd and libtracecmd are given the files.
 *
 * Input: byte 0: bit 0 complete dumps only (the report's reading; else
 * --trace-dat's), bit 1 dump 2 left without its end line (cut); then the
 * records of dump 1 ("raw\tNAME\tLEN\n" + LEN bytes ...), and, after
 * the separator "\n=probecc-fuzz-dump-2=\n", those of dump 2.
 *
 * What tracedat_check() passes goes to libtraceevent as libtracecmd
 * gives it (trace-input.c): header_page, the format files, kallsyms,
 * printk_formats and saved_cmdlines parsed, each page walked by kbuffer
 * and each event found by its id and printed.  The report runs these
 * in a child (report/events.c, events_try()); here a crash in them is
 * a check tracedat.c lacks.
 *
 * Oracle beyond the sanitizers: each page is walked from the end of a
 * mapping followed by an inaccessible page, so a read past the page
 * faults, and each event kbuffer gives lies inside the page.
 */
#define _GNU_SOURCE	/* memmem */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <trace-seq.h>

#include "dumpframe.h"
#include "report-int.h"
#include "fuzz.h"

#define SEP		"\n=probecc-fuzz-dump-2=\n"
#define NONCE		"0123456789abcdef"
#define MAP_SIZE	(64 * 1024)	/* the largest page tracedat.c takes */

static unsigned char *guarded;	/* MAP_SIZE bytes, then PROT_NONE */

static void map_guarded(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, MAP_SIZE + pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || mprotect(m + MAP_SIZE, pg, PROT_NONE))
		fuzz_fail("mmap: %s", strerror(errno));
	guarded = m;
}

/*
 * A block libtraceevent loses on some input (a parse error path) is the
 * library's, and the report's child exits after it: not a finding.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

struct lib {
	struct tep_handle *tep;
	unsigned int page_size, long_size;
	bool big_endian;
};

static void lib_layout(unsigned int page_size, unsigned int long_size,
		       bool big_endian, void *arg)
{
	struct lib *l = arg;

	l->page_size = page_size;
	l->long_size = long_size;
	l->big_endian = big_endian;
	tep_set_long_size(l->tep, long_size);
	tep_set_page_size(l->tep, page_size);
	tep_set_file_bigendian(l->tep, big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
}

/* A file as libtracecmd's reader gives it to libtraceevent. */
static void lib_file(const char *name, const char *data, size_t len, void *arg)
{
	struct lib *l = arg;
	char *buf, *sys, *slash;

	if (!strcmp(name, "events/header_page")) {
		buf = malloc(len + 1);
		memcpy(buf, data, len + 1);
		tep_parse_header_page(l->tep, buf, len, l->long_size);
		free(buf);
	} else if (!strncmp(name, "events/", 7) && strcmp(name, "events/header_event")) {
		sys = strdup(name + 7);
		slash = strchr(sys, '/');
		if (slash)
			*slash = '\0';
		tep_parse_event(l->tep, data, len, sys);
		free(sys);
	} else if (!strcmp(name, "kallsyms")) {
		tep_parse_kallsyms(l->tep, data);
	} else if (!strcmp(name, "printk_formats")) {
		tep_parse_printk_formats(l->tep, data);
	} else if (!strcmp(name, "saved_cmdlines")) {
		tep_parse_saved_cmdlines(l->tep, data);
	}
}

/* Walk one page as libtracecmd does: kbuffer_load_subbuffer(), then each event. */
static void lib_page(const unsigned char *pg, void *arg)
{
	struct lib *l = arg;
	unsigned char *p = guarded + MAP_SIZE - l->page_size;
	struct kbuffer *kb;
	unsigned long long ts;
	unsigned char *ev;
	unsigned int n = 0;

	memcpy(p, pg, l->page_size);
	kb = kbuffer_alloc(l->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			   l->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!kb)
		fuzz_fail("kbuffer_alloc failed");
	if (kbuffer_load_subbuffer(kb, p))
		fuzz_fail("kbuffer_load_subbuffer refused a page tracedat.c passed");
	for (ev = kbuffer_read_event(kb, &ts); ev; ev = kbuffer_next_event(kb, &ts)) {
		struct tep_record rec = { .ts = ts, .data = ev };
		struct trace_seq s;

		if (ev < p || ev > p + l->page_size)
			fuzz_fail("kbuffer gave an event at %td of a page of %u bytes",
				  ev - p, l->page_size);
		if (++n > l->page_size / 4)
			fuzz_fail("kbuffer gave more events than a page of %u bytes holds",
				  l->page_size);
		rec.size = kbuffer_event_size(kb);
		if (rec.size < 0 || ev + rec.size > p + l->page_size)
			fuzz_fail("kbuffer gave an event of %d bytes at %td of a page of %u bytes",
				  rec.size, ev - p, l->page_size);
		if (!tep_find_event_by_record(l->tep, &rec))
			continue;
		trace_seq_init(&s);
		tep_print_event(l->tep, &s, &rec, "%s %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
		trace_seq_destroy(&s);
	}
	kbuffer_free(kb);
}

/* Dump @n with @body (@len bytes) framed into @f as initramfs/dump.c does. */
static void frame(FILE *f, unsigned int n, const char *body, size_t len, bool end)
{
	unsigned int seq = 0;
	size_t off, k;

	fprintf(f, DUMP_FRAME_BEGIN, n, NONCE);
	for (off = 0; off < len || !seq; off += k) {
		k = len - off < DUMP_FRAME_CHUNK_MAX ? len - off : DUMP_FRAME_CHUNK_MAX;
		fprintf(f, DUMP_FRAME_CHUNK, n, ++seq, k,
			(unsigned int)crc32(0, (const Bytef *)body + off, k), NONCE);
		fwrite(body + off, 1, k, f);
		if (!k || body[off + k - 1] != '\n')
			fputc('\n', f);
	}
	if (end)
		fprintf(f, DUMP_FRAME_END, n, seq, (unsigned long long)len, NONCE);
}

static void framed_dump(FILE *f, unsigned int n, const uint8_t *rec, size_t len, bool end)
{
	static const char head[] = "probecc-manifest\t1\nstage\tinit\n--- raw ---\n";
	char *body = malloc(sizeof(head) - 1 + len + 1);

	memcpy(body, head, sizeof(head) - 1);
	memcpy(body + sizeof(head) - 1, rec, len);
	frame(f, n, body, sizeof(head) - 1 + len, end);
	free(body);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errmsg e = { 0 };
	struct lib l = { 0 };
	struct tracedat_visit v = {
		.layout = lib_layout, .file = lib_file, .page = lib_page, .arg = &l,
	};
	const uint8_t *sep;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (size < 1)
		return 0;
	if (!guarded)
		map_guarded();
	trk_begin();
	f = open_memstream(&text, &len);
	if (!f)
		fuzz_fail("out of memory");
	sep = memmem(data + 1, size - 1, SEP, strlen(SEP));
	if (sep) {
		framed_dump(f, 1, data + 1, sep - data - 1, true);
		sep += strlen(SEP);
		framed_dump(f, 2, sep, data + size - sep, !(data[0] & 2));
	} else {
		framed_dump(f, 1, data + 1, size - 1, !(data[0] & 2));
	}
	fclose(f);
	l.tep = tep_alloc();
	if (!l.tep)
		fuzz_fail("tep_alloc failed");
	tracedat_check(text, len, data[0] & 1, &v, &e);
	tep_free(l.tep);
	free(text);
	trk_release();
	return 0;
}
