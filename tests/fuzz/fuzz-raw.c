// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-raw: the raw-dump path of "probecc report" (dumpread/rawdump.c
 * and decode.c) on the payload of the frames, not on the frames: a
 * random change to a framed dump fails its chunk's CRC-32 and never
 * reaches the records.  The harness frames the payload itself as the
 * agent does (common/dumpframe.h: a begin line with a nonce, chunks of
 * at most 64 KiB with their lengths and CRC-32s, an end line), so every
 * mutation reaches the record reader (raw, rawz), header_page, the pages
 * and their events, the format files and kallsyms: raw_collect(), then
 * the report's own decode in process (raw_decode(): libtraceevent's
 * parsers, kbuffer, every event found by its id and printed), its format
 * parse in process here too (-DDUMPREAD_PARSE_IN_PROCESS), so a crash in
 * libtraceevent is a check rawdump.c lacks.
 *
 * Input: byte 0: bit 0 complete dumps only (the report's reading; else
 * --trace-dat's), bit 1 dump 2 left without its end line (cut); then the
 * records of dump 1 ("raw\tNAME\tLEN\n" + LEN bytes ...), and, after
 * the separator FUZZ_DUMP_SEP ("\n=probecc-fuzz-dump-2=\n"), those of dump 2.
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

#include <kbuffer.h>

#include "dumpframe.h"
#include "dumpread-local.h"
#include "fuzz.h"

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

/*
 * The oracle: @pg (@pl->page_size bytes) walked by kbuffer from the end
 * of the guarded mapping, each event inside the page.  The decode itself
 * (decode.c) walks the pages where rawdump.c keeps them.
 */
static void page_oracle(const char *pg, const struct page_layout *pl)
{
	unsigned char *p = guarded + MAP_SIZE - pl->page_size;
	struct kbuffer *kb;
	unsigned long long ts;
	unsigned char *ev;
	unsigned int n = 0;
	int size;

	memcpy(p, pg, pl->page_size);
	kb = kbuffer_alloc(pl->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			   pl->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!kb)
		fuzz_fail("kbuffer_alloc failed");
	if (kbuffer_load_subbuffer(kb, p))
		fuzz_fail("kbuffer_load_subbuffer refused a page rawdump.c passed");
	for (ev = kbuffer_read_event(kb, &ts); ev; ev = kbuffer_next_event(kb, &ts)) {
		if (ev < p || ev > p + pl->page_size)
			fuzz_fail("kbuffer gave an event at %td of a page of %u bytes",
				  ev - p, pl->page_size);
		if (++n > pl->page_size / 4)
			fuzz_fail("kbuffer gave more events than a page of %u bytes holds",
				  pl->page_size);
		size = kbuffer_event_size(kb);
		if (size < 0 || ev + size > p + pl->page_size)
			fuzz_fail("kbuffer gave an event of %d bytes at %td of a page of %u bytes",
				  size, ev - p, pl->page_size);
	}
	kbuffer_free(kb);
}

static void framed_dump(FILE *f, unsigned int n, const uint8_t *rec, size_t len, bool end)
{
	static const char head[] = "probecc-manifest\t1\nstage\tinit\n--- raw ---\n";
	char *body = malloc(sizeof(head) - 1 + len + 1);

	memcpy(body, head, sizeof(head) - 1);
	memcpy(body + sizeof(head) - 1, rec, len);
	fuzz_frame(f, n, body, sizeof(head) - 1 + len, end);
	free(body);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dumpread_error e = { 0 };
	struct rawset rs = { 0 };
	struct page_layout pl;
	struct dump d = { 0 };
	const uint8_t *sep;
	char *text = NULL;
	size_t len = 0, off;
	FILE *f;
	int i;

	if (size < 1)
		return 0;
	if (!guarded)
		map_guarded();
	trk_begin();
	f = open_memstream(&text, &len);
	if (!f)
		fuzz_fail("out of memory");
	sep = memmem(data + 1, size - 1, FUZZ_DUMP_SEP, strlen(FUZZ_DUMP_SEP));
	if (sep) {
		framed_dump(f, 1, data + 1, sep - data - 1, true);
		sep += strlen(FUZZ_DUMP_SEP);
		framed_dump(f, 2, sep, data + size - sep, !(data[0] & 2));
	} else {
		framed_dump(f, 1, data + 1, size - 1, !(data[0] & 2));
	}
	fclose(f);
	if (!raw_collect(text, len, data[0] & 1, &rs, &pl, NULL, &e)) {
		for (i = 0; i < rs.n; i++)
			if (is_cpu_data(rs.f[i].name))
				for (off = 0; off + pl.page_size <= rs.f[i].len; off += pl.page_size)
					page_oracle(rs.f[i].data + off, &pl);
		raw_decode(&rs, &pl, &d, &e);
	}
	rawset_free(&rs);
	free(text);
	trk_release();
	return 0;
}
