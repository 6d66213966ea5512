// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-report: "probecc report" on a dump, in memory (report/): the
 * probe file's expect lines (lex, parse), the dump (dump_read(): frames,
 * manifest, trace lines, perf samples, module lines), the verdicts
 * (expect_all()), and every output (text, JSON, folded, SVG, JUnit)
 * written to /dev/null, as report-main.c runs them.
 *
 * Input: byte 0 bit 0 says whether the kernel's symbols are known (the
 * System.map of tests/report/mipsel-6.1, read once); then either the
 * dump alone, or a probe file, a NUL byte, and the dump.
 *
 * Oracles beyond the sanitizers:
 *  - no verdict without evidence: with no complete dump at all, every
 *    expectation fails (probecc(1), "EXIT STATUS"; a dump
 *    cut after a complete one is judged on that one, and exits 2);
 *  - the JSON output holds no control byte but '\n' (a JSON string
 *    allows none raw), the SVG and JUnit outputs none but TAB, LF and
 *    CR (XML 1.0's Char: not even as a character reference).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "kernel.h"
#include "report-int.h"
#include "fuzz.h"

static struct kernel *symbols;

static void load_symbols(void)
{
	static const char *const maps[] = {
		"tests/report/mipsel-6.1/System.map",
		"../report/mipsel-6.1/System.map",
	};
	struct errmsg e;
	size_t i;

	symbols = kernel_new();
	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		if (!kernel_load_system_map(symbols, maps[i], &e))
			break;
	kernel_index(symbols);
}

/* Write with @write into memory: no control byte but those in @allowed. */
static void no_controls(const struct report *r, const char *what,
			const char *allowed,
			void (*write)(FILE *, const struct report *))
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		fuzz_fail("out of memory");
	write(f, r);
	fclose(f);
	for (i = 0; i < len; i++) {
		unsigned char c = buf[i];

		if (c < 0x20 && !(c && strchr(allowed, c)))
			fuzz_fail("the %s output holds byte 0x%02x at %zu: %.*s",
				  what, c, i, (int)(len - i < 80 ? len - i : 80), buf + i);
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source src = { .name = "fuzz.probes" };
	struct report r = { 0 };
	struct diags d = { 0 };
	const char *nul;
	char *text, *dump;
	int i;

	if (!symbols)
		load_symbols();
	if (size < 1)
		return 0;
	trk_begin();
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	nul = memchr(text, '\0', size - 1);
	dump = text;
	if (nul) {
		struct token *toks;

		src.text = text;
		src.len = nul - text;
		dump = text + src.len + 1;
		toks = tokenize(&src, &d);
		r.prog = toks ? parse(toks, &d) : NULL;
		if (!r.prog) {
			diag_print(&d);
			goto out;
		}
	}
	r.k = (data[0] & 1) ? symbols : NULL;
	dump_read(&r, dump, size - 1 - (size_t)(dump - text));
	dump_probe_names(&r);
	expect_all(&r);
	if (!dump_evidence(&r.d))
		for (i = 0; i < r.nexp; i++)
			if (r.verdicts[i].ok)
				fuzz_fail("expectation %d passed without a complete dump", i + 1);
	text_write(fuzz_null(), &r);
	folded_write(fuzz_null(), &r);
	no_controls(&r, "JSON", "\n", json_write);
	no_controls(&r, "SVG", "\t\n\r", svg_write);
	no_controls(&r, "JUnit", "\t\n\r", junit_write);
	text_summary(fuzz_null(), &r);
out:
	trk_release();
	return 0;
}
