// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-dtb: "probecc bootargs --dtb IN -o OUT" in memory (bootargs/fdt.c
 * with libfdt, bootargs.c): the device tree IN, which the user's board
 * or boot loader supplies, is the input.  It is checked as dtb_read()
 * checks a file (dtb_check()), its /chosen/bootargs read
 * (dtb_bootargs()), tests/bootargs/good-keep-user.frag merged into it
 * (ba_merge(), as bootargs-main.c does) and the tree written with the
 * merged line (dtb_with_bootargs(), which checks what it wrote and reads
 * the property back).
 *
 * Input: byte 0 bit 0: --replace; the rest is the blob.
 *
 * Oracles beyond the sanitizers:
 *  - what dtb_with_bootargs() writes is never refused by its own check
 *    (no "internal:" error);
 *  - the tree written passes dtb_check() again, and its /chosen/bootargs
 *    is the merged line.
 */
#include <stdlib.h>
#include <string.h>

#include "bootargs.h"
#include "fuzz.h"

#define FRAGMENT	"tests/bootargs/good-keep-user.frag"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *frag;
	const char *existing, *back;
	char *blob, *merged;
	void *out;
	size_t len, n;
	struct errmsg e;

	if (!frag) {
		frag = fuzz_load(FRAGMENT, &n);
		frag[strcspn(frag, "\n")] = '\0';
	}
	if (size < 1)
		return 0;
	trk_begin();
	/* a malloc'd copy: libfdt's alignment, and ASan sees every byte past it */
	blob = malloc(size - 1 ? size - 1 : 1);
	memcpy(blob, data + 1, size - 1);
	if (dtb_check(blob, size - 1, "fuzz.dtb", &e) ||
	    dtb_bootargs(blob, "fuzz.dtb", &existing, &e) ||
	    ba_merge(existing, "fuzz.dtb's /chosen/bootargs", frag, data[0] & 1, &merged, &e))
		goto out;
	if (dtb_with_bootargs(blob, merged, &out, &len, &e)) {
		if (!strncmp(e.msg, "internal:", 9))
			fuzz_fail("dtb_with_bootargs: %s", e.msg);
		goto out;
	}
	if (dtb_check(out, len, "out.dtb", &e))
		fuzz_fail("the tree written does not pass its own check: %s", e.msg);
	if (dtb_bootargs(out, "out.dtb", &back, &e) || !back || strcmp(back, merged))
		fuzz_fail("the tree written has /chosen/bootargs \"%s\", not \"%s\"",
			  back ? back : "(none)", merged);
out:
	trk_release();
	return 0;
}
