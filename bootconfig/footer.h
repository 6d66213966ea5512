/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bootconfig footer of an initrd (init/main.c, tools/bootconfig/main.c
 * of 6.1): the text, its NUL, zero padding to a 4-byte file size, then
 * le32 size, le32 checksum and "#BOOTCONFIG\n".  Kernels 5.6 to 5.9 read
 * size and checksum in their own byte order (big-endian on a big-endian
 * kernel): see bc_footer_order().
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

/* Byte order of the footer's size and checksum words. */
enum bc_order {
	BC_ORDER_LE,	/* 5.10 and later, every arch */
	BC_ORDER_BE,	/* 5.6 to 5.9 on a big-endian kernel */
};

/*
 * The byte order a kernel @kmajor.@kminor of probecc arch @arch (--arch
 * name; its ELF_DATA in common/arch.def: "mips" and "mips64" are
 * big-endian) reads the footer in.  5.6 to
 * 5.9 read "u32 *hdr; size = hdr[0]; csum = hdr[1]" (init/main.c), the
 * kernel's own order; 5.10 made both le32 ("bootconfig: Load size and
 * checksum in the footer as le32", v5.10-rc7; tools/bootconfig the same).
 * A NULL @arch or a version of 0.0 (unknown) gives the 5.10 order.
 * Returns the order, or -1 for an @arch probecc does not know.
 */
int bc_footer_order(const char *arch, int kmajor, int kminor);

/*
 * Find a bootconfig at the end of @img (@len bytes), its size and
 * checksum read in @order: its magic ends the file or, as the kernel
 * looks, up to 3 bytes before the end (a boot loader's padding to 4;
 * what follows the footer is not part of it).  Returns 1 and sets
 * *@start (offset of the text) and *@size (text + NUL + padding, bytes),
 * 0 when there is none, or a negative BC_FOOTER_* for a corrupt one.
 */
int bc_footer_find(const unsigned char *img, size_t len, enum bc_order order,
		   size_t *start, size_t *size);

/*
 * A new image: @img without any bootconfig it had (found in @order), then
 * @text (a C string) with its footer, size and checksum written in @order.  *@out is malloc'd (the caller frees it),
 * *@outlen its length.  Returns 0 or a negative BC_FOOTER_*.
 */
int bc_footer_append(const unsigned char *img, size_t len, const char *text,
		     enum bc_order order, unsigned char **out, size_t *outlen);

/* Text for a negative BC_FOOTER_* code. */
const char *bc_footer_strerror(int err);

#endif
