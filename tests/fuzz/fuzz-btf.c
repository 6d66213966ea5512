// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-btf: the kernel's BTF read from a boot image, "probecc --btf
 * VMLINUZ" (kbtf_open(), facts/btf.c): raw BTF and an ELF's .BTF
 * through libbpf, else the image: an x86 bzImage's setup header and its
 * payload unpacked (libarchive), or an arm64 Image as it is, the blob
 * found by its header (btf_in_image()) and kept when libbpf accepts it;
 * then what the compiler asks of it (a function's parameters, their
 * types, a struct's members).  The image is what the board booted: any
 * bytes.
 *
 * Input: byte 0 bit 0: the rest is the kernel inside a bzImage the
 * harness makes (the setup header of boot protocol 2.15, its payload
 * the rest xz-packed as CONFIG_KERNEL_XZ packs it, --check=crc32 with
 * the x86 BCJ filter, but a 4 KiB dictionary: liblzma), so that a change
 * reaches the bytes the scan reads inside the xz's CRC; else the rest is
 * the file as is (a bzImage, an arm64 Image, raw BTF, an ELF).  Written
 * to a file in the private directory (fuzz_tmpdir(): the reader takes
 * a path).
 *
 * Oracles beyond the sanitizers: kbtf_open() gives BTF with at least one
 * type, or NULL with the reason set; every type id a lookup gives is one
 * of the BTF's; an input ends in bounded time (libFuzzer's -timeout).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lzma.h>

#include "btf.h"
#include "fuzz.h"

#define SETUP_SECTS	4	/* the real-mode part: (4 + 1) * 512 bytes */

/* @size bytes at @data as the payload of a bzImage, into @path. */
static void put_bzimage(const char *path, const uint8_t *data, size_t size)
{
	size_t pm = (SETUP_SECTS + 1) * 512, cap = lzma_stream_buffer_bound(size) + 4;
	size_t used;
	uint8_t *img = calloc(1, pm + cap);
	uint32_t plen;

	if (!img)
		fuzz_fail("out of memory");
	used = fuzz_xz(data, size, true, img + pm, cap - 4);
	/* the unpacked size after the stream (arch/x86/boot/compressed/Makefile) */
	img[pm + used] = size & 0xff;
	img[pm + used + 1] = size >> 8 & 0xff;
	img[pm + used + 2] = size >> 16 & 0xff;
	img[pm + used + 3] = size >> 24 & 0xff;
	plen = used + 4;
	/* Documentation/arch/x86/boot.rst: the fields btf.c reads */
	img[0x1f1] = SETUP_SECTS;
	img[0x1fe] = 0x55;
	img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f;	/* protocol 2.15 */
	img[0x207] = 0x02;
	img[0x248] = 0;		/* payload_offset: at the protected-mode code */
	memcpy(img + 0x24c, (uint8_t[]){ plen & 0xff, plen >> 8 & 0xff, plen >> 16 & 0xff, plen >> 24 }, 4);
	fuzz_put(path, img, pm + plen);
	free(img);
}

/* An id @b gave is one of its types (0, void, included). */
static void check_id(const struct kbtf *b, int id, const char *what)
{
	if (id < 0 || (unsigned)id >= kbtf_ntypes(b))
		fuzz_fail("%s gave type id %d of %u", what, id, kbtf_ntypes(b));
}

/* What the compiler asks of the kernel's BTF for dev->name in register_netdevice. */
static void ask(const struct kbtf *b)
{
	struct kbtf_type t;
	struct kbtf_member m;
	const char *name;
	long long moff;
	int n, i, type;
	char *s;

	n = kbtf_func(b, "register_netdevice");
	for (i = 1; i <= n && i <= 8; i++) {
		if (kbtf_param(b, "register_netdevice", i, &name, &type))
			continue;
		check_id(b, type, "kbtf_param()");
		s = kbtf_type_str(b, type);
		free(s);
		if (kbtf_peel(b, type, &t))
			continue;
		check_id(b, t.id, "kbtf_peel()");
		if (t.cls != KBTF_PTR || kbtf_peel(b, t.ref, &t))
			continue;
		check_id(b, t.id, "kbtf_peel() of the pointee");
		if (t.cls != KBTF_STRUCT && t.cls != KBTF_UNION)
			continue;
		if (!kbtf_member(b, t.id, "name", &m))
			check_id(b, m.type, "kbtf_member()");
		s = kbtf_member_at(b, t.id, 0, &moff, &type);
		if (s)
			check_id(b, type, "kbtf_member_at()");
		free(s);
	}
	/* every type peeled, as a C name's walk may meet any (at most 4096) */
	for (i = 0; (unsigned)i < kbtf_ntypes(b) && i < 4096; i++)
		if (!kbtf_peel(b, i, &t))
			check_id(b, t.id, "kbtf_peel()");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[PATH_MAX];
	struct kbtf *b;
	struct errmsg e = { 0 };

	if (!path[0])
		snprintf(path, sizeof(path), "%s/vmlinuz", fuzz_tmpdir());
	if (size < 1)
		return 0;
	trk_begin();
	if (data[0] & 1)
		put_bzimage(path, data + 1, size - 1);
	else
		fuzz_put(path, data + 1, size - 1);
	b = kbtf_open(path, &e);
	if (!b && !e.msg[0])
		fuzz_fail("kbtf_open() gave no BTF and no reason");
	if (b) {
		if (kbtf_ntypes(b) < 1)
			fuzz_fail("kbtf_open() gave BTF of %u types", kbtf_ntypes(b));
		ask(b);
		kbtf_free(b);
	}
	trk_release();
	return 0;
}
