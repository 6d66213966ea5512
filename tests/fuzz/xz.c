// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_xz() (fuzz.h): an input packed as .xz by the harnesses whose
 * reader unpacks it (fuzz-btf's bzImage payload, fuzz-modules'
 * .ko.xz), so that a change reaches the bytes inside the xz's CRC.
 * The harness's own work, not code under test: built without coverage
 * (Makefile.fuzz), linked with liblzma only where it is used.
 */
#include <lzma.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz.h"

size_t fuzz_xz(const uint8_t *data, size_t size, bool x86, uint8_t *out, size_t cap)
{
	/*
	 * One encoder for the process: lzma_stream_encoder() on a stream
	 * already used with the same filter chain re-initialises it in its
	 * own memory.  lzma_stream_buffer_encode() made and freed the LZMA2
	 * encoder (about 300 KiB, mapped, poisoned and quarantined by ASan)
	 * on every input: 58% of fuzz-btf's time.
	 */
	static lzma_stream strm = LZMA_STREAM_INIT;
	lzma_options_lzma opt;
	lzma_filter filters[3], *f = filters;
	lzma_ret ret;

	if (lzma_lzma_preset(&opt, 0))
		fuzz_fail("liblzma: no preset 0");
	opt.dict_size = LZMA_DICT_SIZE_MIN;
	if (x86)
		*f++ = (lzma_filter){ .id = LZMA_FILTER_X86 };
	*f++ = (lzma_filter){ .id = LZMA_FILTER_LZMA2, .options = &opt };
	*f = (lzma_filter){ .id = LZMA_VLI_UNKNOWN };
	if (lzma_stream_encoder(&strm, filters, LZMA_CHECK_CRC32) != LZMA_OK)
		fuzz_fail("liblzma: no encoder");
	strm.next_in = data;
	strm.avail_in = size;
	strm.next_out = out;
	strm.avail_out = cap;
	ret = lzma_code(&strm, LZMA_FINISH);
	if (ret != LZMA_STREAM_END)
		fuzz_fail("liblzma: cannot pack %zu bytes into %zu (%d)", size, cap, (int)ret);
	return cap - strm.avail_out;
}
