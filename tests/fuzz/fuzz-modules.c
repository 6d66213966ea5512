// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-modules: the readers of kernel module files under --modules,
 * whose bytes come from the image the traced system booted (a .ko, or a
 * .ko.xz of MODULE_COMPRESS_XZ): the compiler's (kernel_load_modules():
 * every *.ko below the directory, facts/vmlinux.c) and the report's
 * (ko_symbols(): one module's code symbols and sections), both through
 * common/elffile.c (libelf; an xz unpacked in memory with libarchive,
 * at most 256 MB).  With byte 0 bit 2 the report reads the real Malta
 * capture of examples/ci-bond0.probes (tests/report/mipsel-ci, its
 * System.map tests/report/mipsel-6.1) with --modules on that directory:
 * the module frames named from the file (report/dump.c), the verdicts
 * and every output (fuzz_outputs()).
 *
 * Input: byte 0 bit 0: the file is kernel/bonding.ko.xz (else .ko); bit
 * 1 with it: the rest is the module, xz-compressed by the harness
 * (liblzma, so that a change reaches the ELF inside the xz's CRC),
 * else the rest is the file as is; bit 2 the report's run.
 *
 * Oracles beyond the sanitizers and fuzz_judged(), fuzz_outputs():
 *  - the two readers agree whether the file can be read: ko_symbols()
 *    names it unreadable exactly when kernel_load_modules() counts it
 *    in modules_unread;
 *  - ko_symbols() names the file it found, under the directory;
 *  - every symbol ko_symbols() gives has a name and a code section.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lzma.h>

#include "kernel.h"
#include "report-int.h"
#include "fuzz.h"

#define CAPTURE	"tests/report/mipsel-ci/ttyS1.raw"
#define PROBES	"tests/report/mipsel-ci/ci-bond0.probes"
#define SYSMAP	"tests/report/mipsel-6.1/System.map"

static char dir[PATH_MAX], ko[PATH_MAX + 32], koxz[PATH_MAX + 32];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "%s/modules", fuzz_tmpdir());
	snprintf(ko, sizeof(ko), "%s/kernel", dir);
	if (mkdir(dir, 0700) || mkdir(ko, 0700))
		fuzz_fail("%s: %s", ko, strerror(errno));
	snprintf(ko, sizeof(ko), "%s/kernel/bonding.ko", dir);
	snprintf(koxz, sizeof(koxz), "%s/kernel/bonding.ko.xz", dir);
}

/*
 * @size bytes at @data as an xz file into @path, as modules_install
 * packs a module (scripts/Makefile.modinst: --check=crc32, LZMA2) but
 * with liblzma's smallest dictionary, 4 KiB: libarchive's xz writer
 * (preset 0, a 256 KiB dictionary and its match finder) took 2 ms per
 * input, five times the readers' own time, and the reader then made
 * the 256 KiB dictionary again.  The kernel's own 1 MiB dictionary is
 * in the seeds' .ko.xz (byte 0: 1), read as the files are.
 */
static void put_xz(const char *path, const uint8_t *data, size_t size)
{
	size_t cap = lzma_stream_buffer_bound(size), used;
	uint8_t *buf = malloc(cap ? cap : 1);

	if (!buf)
		fuzz_fail("out of memory");
	used = fuzz_xz(data, size, false, buf, cap);
	fuzz_put(path, buf, used);
	free(buf);
}

/* The report on the real capture with --modules @dir (module frames named from it). */
static void report_run(struct kernel *k, struct program *prog)
{
	size_t n;
	const char *capture = fuzz_load(CAPTURE, &n);	/* read before the first input */
	struct report r = { 0 };

	r.prog = prog;
	r.k = k;
	r.modules_dir = dir;
	fuzz_read(&r, capture, n);
	fuzz_report(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kernel *symbols;
	static struct program *prog;
	struct kernel *k;
	struct ko_sym *syms;
	char *file;
	struct errmsg e;
	size_t n, i;

	if (!prog) {
		char *map = fuzz_path(SYSMAP);

		setup();
		fuzz_load(CAPTURE, &n);
		prog = fuzz_program(PROBES);
		fuzz_keep_begin();
		symbols = kernel_new();
		if (kernel_load_system_map(symbols, map, &e))
			fuzz_fail("%s", e.msg);
		kernel_index(symbols);
		fuzz_keep_end();
		free(map);
	}
	if (size < 1)
		return 0;
	trk_begin();
	unlink(ko);
	unlink(koxz);
	if ((data[0] & 3) == 3)
		put_xz(koxz, data + 1, size - 1);
	else
		fuzz_put(data[0] & 1 ? koxz : ko, data + 1, size - 1);
	k = kernel_new();
	if (kernel_load_modules(k, dir, &e))
		fuzz_fail("kernel_load_modules: %s", e.msg);
	syms = ko_symbols(dir, "bonding", &n, &file, &e);
	if (!!e.msg[0] != !!k->modules_unread)
		fuzz_fail("the readers disagree: ko_symbols() \"%s\", kernel_load_modules() %zu unread (%s)",
			  e.msg, k->modules_unread, k->modules_unread_why);
	if (!file || strncmp(file, dir, strlen(dir)))
		fuzz_fail("ko_symbols() found \"%s\", not the file under %s", file ? file : "(none)", dir);
	for (i = 0; i < n; i++)
		if (!syms[i].name[0] || !syms[i].section[0])
			fuzz_fail("symbol %zu: name \"%s\", section \"%s\"", i,
				  syms[i].name, syms[i].section);
	if (data[0] & 4)
		report_run(symbols, prog);
	trk_release();
	return 0;
}
