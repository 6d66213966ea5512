// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-report: "probecc report" on a dump, in memory (report/): the
 * probe file's expect lines (lex, parse), the dump (dump_read(): frames,
 * manifest, trace lines, perf samples, module lines), the verdicts
 * (expect_all()), and every output (text, JSON, folded, SVG, JUnit)
 * (fuzz_outputs()), as report-main.c runs them.
 *
 * Input: byte 0 bit 0 says whether the kernel's symbols are known (the
 * System.map of tests/report/mipsel-6.1, read once); then either the
 * dump alone, or a probe file, a NUL byte, and the dump.
 *
 * Oracles beyond the sanitizers: fuzz_judged() (no verdict without
 * evidence: with no complete dump at all, every expectation fails; a
 * dump cut after a complete one is judged on that one, and exits 2) and
 * fuzz_outputs() (no control byte in the JSON, SVG and JUnit outputs).
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
	char *map = fuzz_path("tests/report/mipsel-6.1/System.map");
	struct errmsg e;

	symbols = kernel_new();
	if (kernel_load_system_map(symbols, map, &e))
		fuzz_fail("%s", e.msg);
	kernel_index(symbols);
	free(map);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source src = { .name = "fuzz.probes" };
	struct report r = { 0 };
	struct diags d = { 0 };
	const char *nul;
	char *text, *dump;

	if (!symbols)
		load_symbols();
	if (size < 1)
		return 0;
	trk_begin();
	text = fuzz_copy(data + 1, size - 1);
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
	fuzz_judged(&r);
	fuzz_outputs(&r);
out:
	trk_release();
	return 0;
}
