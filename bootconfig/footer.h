/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bootconfig footer of an initrd (init/main.c, tools/bootconfig/main.c
 * of 6.1): the text, its NUL, zero padding to a 4-byte file size, then
 * le32 size, le32 checksum and "#BOOTCONFIG\n".
 */
#ifndef PROBECC_FOOTER_H
#define PROBECC_FOOTER_H

#include <stddef.h>

enum {
	BC_FOOTER_BAD_SIZE = -1,	/* size field past the start of the file or over the limit */
	BC_FOOTER_BAD_CSUM = -2,	/* checksum does not match the data */
	BC_FOOTER_TOO_BIG = -3,		/* text + NUL over XBC_DATA_MAX (32767) */
	BC_FOOTER_NOMEM = -4,
};

/*
 * Find a bootconfig at the end of @img (@len bytes).  Returns 1 and sets
 * *@start (offset of the text) and *@size (text + NUL + padding, bytes),
 * 0 when there is none, or a negative BC_FOOTER_* for a corrupt one.
 */
int bc_footer_find(const unsigned char *img, size_t len, size_t *start,
		   size_t *size);

/*
 * A new image: @img without any bootconfig it had, then @text (a C
 * string) with its footer.  *@out is malloc'd (the caller frees it),
 * *@outlen its length.  Returns 0 or a negative BC_FOOTER_*.
 */
int bc_footer_append(const unsigned char *img, size_t len, const char *text,
		     unsigned char **out, size_t *outlen);

/* Text for a negative BC_FOOTER_* code. */
const char *bc_footer_strerror(int err);

#endif
