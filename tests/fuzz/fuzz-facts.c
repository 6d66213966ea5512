// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-facts: the readers of what the target is (facts/): an ELF kernel
 * (kernel_load_vmlinux: symbols, mcount sites, blacklist, banner,
 * IKCONFIG), a user ELF (uelf: arch check, symbol to file offset, raw
 * offset check, through itself as its own debug file too; its separate
 * debug file looked for, facts/debugfile.c; its DT_NEEDED libraries,
 * facts/ulibs.c), its DWARF (resolve_list_vars(): every parameter's type
 * and location at a function), a System.map and a target capture.
 *
 * Input: byte 0 chooses the reader (its value modulo 5: vmlinux, user
 * ELF, DWARF, System.map, capture; for DWARF then "FUNC\0", the function
 * whose parameters and variables are listed), the rest is the file, written to a
 * file in the private directory (libelf reads from a descriptor;
 * fuzz_tmpdir(): tmpfs when there is one), which is also the sysroot of
 * the DWARF reader (PATH /bin/f).
 *
 * Oracle: the sanitizers, and every reader returns (a loop found in a
 * file is a hang, which libFuzzer's -timeout reports).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler.h"
#include "debugfile.h"
#include "debuginfo.h"
#include "kernel.h"
#include "uelf.h"
#include "ulibs.h"
#include "fuzz.h"

static char dir[PATH_MAX], path[PATH_MAX + 8];

/* The private directory (fuzz_tmpdir()) and its bin/f, at the first input. */
static void setup(void)
{
	char sub[PATH_MAX + 8];

	if (dir[0])
		return;
	snprintf(dir, sizeof(dir), "%s", fuzz_tmpdir());
	snprintf(sub, sizeof(sub), "%s/bin", dir);
	if (mkdir(sub, 0700))
		fuzz_fail("%s: %s", sub, strerror(errno));
	snprintf(path, sizeof(path), "%s/bin/f", dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const archs[] = { "mipsel", "x86_64" };
	struct kernel *k;
	struct errmsg e;
	struct uelf_sym sym;
	struct debugfile df;
	struct ulib *libs;
	int n;
	struct strbuf out = { 0 };
	struct target t = { .kmajor = 6, .kminor = 1 };
	const char *abi;
	static char where[96];
	uint8_t mode = data ? data[0] : 0;

	if (size < 1)
		return 0;
	setup();
	if (data[0] % 5 == 2) {
		/* "FUNC\0" then the program: the function whose scope is listed */
		const uint8_t *nul = memchr(data + 1, 0, size - 1 < 64 ? size - 1 : 64);

		if (!nul)
			return 0;
		snprintf(where, sizeof(where), "/bin/f:%s", (const char *)data + 1);
		size -= (size_t)(nul - data);
		data = nul;
	}
	trk_begin();
	fuzz_put(path, data + 1, size - 1);
	k = kernel_new();
	switch (mode % 5) {
	case 0:
		if (!kernel_load_vmlinux(k, path, &e))
			kernel_index(k);
		break;
	case 1:
		uelf_check_arch(path, archs[mode / 5 % 2], &abi, &e);
		uelf_resolve_sym(path, "main", mode / 10, &sym, &e);
		uelf_check_offset(path, 0x400, &e);
		/* its notes, link and .dynamic: the debug file and libraries looked for */
		if (!debugfile_find_path(dir, "/bin/f", &df))
			uelf_resolve_dbg(path, df.path, "main", 0, &sym, &e);
		debugfile_release(&df);
		uelf_resolve_dbg(path, path, "main", 0, &sym, &e);
		n = ulibs_find(dir, "/bin/f", &libs, &e);
		if (n > 0)
			ulibs_free(libs, n);
		break;
	case 2:
		t.abi = abi_find(archs[mode / 5 % 2]);
		resolve_list_vars(where, k, NULL, dir, &t, &out);
		dw_forget();
		break;
	case 3:
		if (!kernel_load_system_map(k, path, &e))
			kernel_index(k);
		break;
	case 4:
		if (!kernel_load_target(k, path, &e))
			kernel_index(k);
		break;
	}
	trk_release();
	return 0;
}
