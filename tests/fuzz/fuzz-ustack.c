// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-ustack: the user-stack unwinder with a sysroot (facts/ustack.c,
 * through the report: "probecc report --sysroot DIR"): the dump is the
 * input, as the traced system wrote it: its "perf-user" samples (user
 * registers, the stack copy), its "perf-mmap" mappings (paths, offsets),
 * the uprobe's PATH:0xOFF in its items.  Read as the report reads it
 * (dump_read(): each sample unwound, with the CFI of the files the
 * mappings name under the sysroot, their separate debug files looked up
 * by build-id or .gnu_debuglink: facts/debugfile.c, facts/sysroot.c),
 * the verdicts of bench/ustack/chain.probes taken, every output written.
 *
 * The sysroots: tests/fuzz/ustack-sysroot.sh, made once per process in
 * the harness's private directory (fuzz_tmpdir()) from the stored real programs of bench/ustack/:
 * each arch's /bin/chain whole, stripped with its debug file, stripped
 * with a /dev/zero link or a FIFO where its debug file goes; and in each
 * a FIFO, a link to /dev/zero and links inside and out of the root.
 *
 * Input: byte 0 (modulo 6) picks the sysroot: x86_64, mipsel, each
 * -stripped, each -baddebug; the rest is the dump (unframed, as
 * bench/ustack/ARCH.dump2).
 *
 * Oracles beyond the sanitizers and fuzz_judged(), fuzz_outputs():
 *  - every path sysroot_path() gives (the only way a guest's path
 *    becomes a host file here; the harness is linked with
 *    -Wl,--wrap=sysroot_path) is a regular file inside the sysroot once
 *    every link is resolved (realpath(3));
 *  - an input ends in bounded time: no FIFO or /dev/zero is read
 *    (libFuzzer's -timeout).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report-int.h"
#include "sysroot.h"
#include "ustack.h"
#include "fuzz.h"

#define PROBES	"bench/ustack/chain.probes"

static const char *const roots[] = {
	"x86_64", "mipsel", "x86_64-stripped", "mipsel-stripped",
	"x86_64-baddebug", "mipsel-baddebug",
};
#define NROOTS	(sizeof(roots) / sizeof(roots[0]))

static char *sysroots[NROOTS];		/* fuzz_tmpdir()/ROOT, links resolved */
static const char *cur;			/* the input's */

static void setup(void)
{
	char *script = fuzz_path("tests/fuzz/ustack-sysroot.sh"), *cmd, *p;
	size_t i;

	if (asprintf(&cmd, "'%s' '%s'", script, fuzz_tmpdir()) < 0)
		fuzz_fail("out of memory");
	if (system(cmd))
		fuzz_fail("%s failed", cmd);
	for (i = 0; i < NROOTS; i++) {
		if (asprintf(&p, "%s/%s", fuzz_tmpdir(), roots[i]) < 0)
			fuzz_fail("out of memory");
		sysroots[i] = realpath(p, NULL);
		if (!sysroots[i])
			fuzz_fail("%s: not made", p);
		free(p);
	}
	free(cmd);
	free(script);
}

char *__real_sysroot_path(const char *sysroot, const char *path, struct errmsg *e);
char *__wrap_sysroot_path(const char *sysroot, const char *path, struct errmsg *e);

char *__wrap_sysroot_path(const char *sysroot, const char *path, struct errmsg *e)
{
	char *p = __real_sysroot_path(sysroot, path, e), real[PATH_MAX];
	size_t n = strlen(cur);
	struct stat st;

	if (!p)
		return NULL;
	if (!realpath(p, real))
		fuzz_fail("sysroot_path(%s, %s) gave %s, which does not resolve", sysroot, path, p);
	if (strncmp(real, cur, n) || real[n] != '/')
		fuzz_fail("sysroot_path(%s, %s) gave %s: %s, outside the sysroot", sysroot, path, p, real);
	if (stat(real, &st) || !S_ISREG(st.st_mode))
		fuzz_fail("sysroot_path(%s, %s) gave %s: not a regular file", sysroot, path, p);
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct program *prog;
	struct report r = { 0 };

	if (!prog) {
		setup();
		prog = fuzz_program(PROBES);
	}
	if (size < 1)
		return 0;
	trk_begin();
	cur = sysroots[data[0] % NROOTS];
	r.prog = prog;
	r.sysroot = cur;
	fuzz_read(&r, (const char *)data + 1, size - 1);
	fuzz_report(&r);
	ustack_release();
	trk_release();
	return 0;
}
