// SPDX-License-Identifier: GPL-2.0
/*
 * The bootconfig footer at the end of an initrd, as the kernel reads it
 * (init/main.c: get_boot_config_from_initrd) and tools/bootconfig writes
 * it (6.1):
 *
 *   initrd | text NUL | pad (zeros) | le32 size | le32 checksum | "#BOOTCONFIG\n"
 *
 * size counts the text, its NUL and the padding; the padding makes the
 * whole file a multiple of BOOTCONFIG_ALIGN (4); the checksum is the
 * 32-bit sum of the bytes of text+NUL (the zero padding adds nothing).
 * Before 5.10 the two words were in the kernel's byte order (footer.h).
 */
#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "footer.h"

#define BOOTCONFIG_MAGIC	"#BOOTCONFIG\n"
#define BOOTCONFIG_MAGIC_LEN	12
#define BOOTCONFIG_ALIGN	4
#define BOOTCONFIG_FOOTER_SIZE	(4 + 4 + BOOTCONFIG_MAGIC_LEN)
#define XBC_DATA_MAX		32767

static uint32_t get32(const unsigned char *p, enum bc_order order)
{
	if (order == BC_ORDER_BE)
		return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v, enum bc_order order)
{
	int i;

	for (i = 0; i < 4; i++)
		p[order == BC_ORDER_BE ? 3 - i : i] = v >> (8 * i);
}

int bc_footer_order(const char *arch, int kmajor, int kminor)
{
	const struct arch *a;
	bool big;

	if (!arch)
		return BC_ORDER_LE;
	a = arch_find(arch);
	if (!a)
		return -1;
	big = a->elf_data == ELFDATA2MSB;
	if (big && (kmajor || kminor) && (kmajor < 5 || (kmajor == 5 && kminor < 10)))
		return BC_ORDER_BE;
	return BC_ORDER_LE;
}

static uint32_t checksum(const unsigned char *p, size_t n)
{
	uint32_t sum = 0;

	while (n--)
		sum += *p++;
	return sum;
}

int bc_footer_find(const unsigned char *img, size_t len, enum bc_order order,
		   size_t *start, size_t *size)
{
	const unsigned char *f;
	size_t end, i;
	uint32_t sz;

	/*
	 * The magic ends the file, or up to 3 bytes before its end: the
	 * kernel looks there too, "since Grub may align the size of initrd
	 * to 4" (init/main.c get_boot_config_from_initrd()).
	 */
	for (i = 0; i < BOOTCONFIG_ALIGN; i++) {
		if (len < BOOTCONFIG_FOOTER_SIZE + i)
			return 0;
		end = len - i;
		if (!memcmp(img + end - BOOTCONFIG_MAGIC_LEN, BOOTCONFIG_MAGIC,
			    BOOTCONFIG_MAGIC_LEN))
			break;
	}
	if (i == BOOTCONFIG_ALIGN)
		return 0;
	f = img + end - BOOTCONFIG_FOOTER_SIZE;
	sz = get32(f, order);
	if (sz > end - BOOTCONFIG_FOOTER_SIZE || sz > XBC_DATA_MAX + BOOTCONFIG_ALIGN)
		return BC_FOOTER_BAD_SIZE;
	if (checksum(f - sz, sz) != get32(f + 4, order))
		return BC_FOOTER_BAD_CSUM;
	*start = end - BOOTCONFIG_FOOTER_SIZE - sz;
	*size = sz;
	return 1;
}

int bc_footer_append(const unsigned char *img, size_t len, const char *text,
		     enum bc_order order, unsigned char **out, size_t *outlen)
{
	size_t start, size, tlen = strlen(text) + 1, base, total, pad;
	unsigned char *buf;
	int r;

	if (tlen > XBC_DATA_MAX)
		return BC_FOOTER_TOO_BIG;
	r = bc_footer_find(img, len, order, &start, &size);
	if (r < 0)
		return r;
	base = r ? start : len;		/* replace, never stack two */
	total = base + tlen + BOOTCONFIG_FOOTER_SIZE;
	pad = (BOOTCONFIG_ALIGN - total % BOOTCONFIG_ALIGN) % BOOTCONFIG_ALIGN;
	buf = calloc(1, total + pad);
	if (!buf)
		return BC_FOOTER_NOMEM;
	memcpy(buf, img, base);
	memcpy(buf + base, text, tlen);
	put32(buf + base + tlen + pad, tlen + pad, order);
	put32(buf + base + tlen + pad + 4,
	      checksum((const unsigned char *)text, tlen), order);
	memcpy(buf + base + tlen + pad + 8, BOOTCONFIG_MAGIC, BOOTCONFIG_MAGIC_LEN);
	*out = buf;
	*outlen = total + pad;
	return 0;
}

const char *bc_footer_strerror(int err)
{
	switch (err) {
	case BC_FOOTER_BAD_SIZE:
		return "the footer's size is larger than the file or than the kernel allows";
	case BC_FOOTER_BAD_CSUM:
		return "the footer's checksum does not match its data";
	case BC_FOOTER_TOO_BIG:
		return "the bootconfig is larger than 32767 bytes (XBC_DATA_MAX)";
	case BC_FOOTER_NOMEM:
		return "out of memory";
	default:
		return "unknown error";
	}
}
