// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-bootconfig: the bootconfig reader and writer (bootconfig/), and
 * the initrd footer, in memory.
 *
 * Input: the bootconfig text (the reader's input, any bytes), which is
 * also an initrd image for bc_footer_find().
 *
 * Oracles beyond the sanitizers:
 *  - round trip: a text bc_parse() accepts, written by bc_write(), is
 *    read back by bc_parse() into the same keys and values in the same
 *    order (tests/fuzz/oracle.sh checks the writer's output with the
 *    kernel's own parser, tools/bootconfig);
 *  - the tree rebuilt key by key with bc_add() (which refuses what
 *    probecc must never write) is written and read back the same too;
 *  - the footer: the text appended to the input as an initrd by
 *    bc_footer_append() is found again by bc_footer_find() at the right
 *    place with the right size, and the image before it kept.
 */
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "footer.h"
#include "fuzz.h"

static void same_tree(const struct bc_tree *a, const struct bc_tree *b,
		      const char *what, const char *text)
{
	const struct bc_key *x, *y;
	const char *const *xv, *const *yv;
	int i, nx, ny;

	for (x = bc_first_key(a), y = bc_first_key(b); x && y;
	     x = bc_next_key(x), y = bc_next_key(y)) {
		nx = bc_key_values(x, &xv);
		ny = bc_key_values(y, &yv);
		if (strcmp(bc_key_name(x), bc_key_name(y)) || nx != ny || !xv != !yv)
			fuzz_fail("%s: key '%s' (%d values) came back as '%s' (%d values)\n%s",
				  what, bc_key_name(x), nx, bc_key_name(y), ny, text);
		for (i = 0; i < nx; i++)
			if (strcmp(xv[i], yv[i]))
				fuzz_fail("%s: %s[%d] '%s' came back as '%s'\n%s",
					  what, bc_key_name(x), i, xv[i], yv[i], text);
	}
	if (x || y)
		fuzz_fail("%s: key '%s' did not come back\n%s", what,
			  bc_key_name(x ? x : y), text);
}

/* @t written and read back: the same tree; BC_OK or the writer's error. */
static int round_trip(const struct bc_tree *t, const char *what)
{
	struct bc_tree *back;
	const char *msg = NULL;
	char *buf = NULL;
	size_t len = 0;
	int line, col, err;
	FILE *f;

	if (bc_empty(t))
		return BC_OK;	/* the kernel refuses an empty text: none is written */
	f = open_memstream(&buf, &len);
	if (!f)
		fuzz_fail("out of memory");
	err = bc_write(t, f);
	if (fclose(f))
		fuzz_fail("out of memory");
	if (err) {
		free(buf);
		return err;
	}
	err = bc_parse(buf, len, &back, &line, &col, &msg);
	if (err)
		fuzz_fail("%s: the writer's text is refused at %d:%d: %s (%s)\n%s",
			  what, line, col, msg ? msg : "", bc_strerror(err), buf);
	same_tree(t, back, what, buf);
	bc_free(back);
	free(buf);
	return BC_OK;
}

static void footer(const uint8_t *data, size_t size)
{
	static const char text[] = "ftrace.tracer = function\n";
	unsigned char *img;
	size_t len, start, fsize, s0, z0;
	/* both byte orders of the footer's words (bootconfig/footer.h) */
	enum bc_order order = (size & 1) ? BC_ORDER_BE : BC_ORDER_LE;
	int had, r;

	had = bc_footer_find(data, size, order, &s0, &z0);
	if (had == 1 && (s0 > size || z0 > size - s0))
		fuzz_fail("bc_footer_find: text at %zu, %zu bytes, past the %zu-byte image",
			  s0, z0, size);
	if (had < 0)
		return;		/* corrupt: append refuses it too */
	r = bc_footer_append(data, size, text, order, &img, &len);
	if (r)
		return;
	if (bc_footer_find(img, len, order, &start, &fsize) != 1 ||
	    start > len || fsize < sizeof(text) || fsize - sizeof(text) > 3 ||
	    memcmp(img + start, text, sizeof(text)))
		fuzz_fail("bc_footer_append's footer is not found back");
	if (start != (had == 1 ? s0 : size))
		fuzz_fail("bc_footer_append kept %zu bytes of the image, not the %zu before its bootconfig",
			  start, had == 1 ? s0 : size);
	if (memcmp(img, data, start))
		fuzz_fail("bc_footer_append changed the image before the bootconfig");
	free(img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_tree *t, *added;
	const struct bc_key *k;
	const char *const *v;
	const char *msg = NULL;
	int line, col, i, n, err;

	trk_begin();
	footer(data, size);
	if (bc_parse((const char *)data, size, &t, &line, &col, &msg))
		goto out;
	round_trip(t, "bc_parse tree");
	added = bc_new();
	if (!added)
		fuzz_fail("out of memory");
	for (k = bc_first_key(t); k; k = bc_next_key(k)) {
		n = bc_key_values(k, &v);
		if (!v) {
			bc_add(added, bc_key_name(k), NULL);
			continue;
		}
		for (i = 0; i < n; i++)
			if (bc_add(added, bc_key_name(k), v[i]))
				break;
	}
	err = round_trip(added, "bc_add tree");
	if (err && err != BC_ERR_SIZE && err != BC_ERR_NODES)
		fuzz_fail("bc_write refused a tree bc_add built: %s", bc_strerror(err));
	bc_free(added);
	bc_free(t);
out:
	trk_release();
	return 0;
}
