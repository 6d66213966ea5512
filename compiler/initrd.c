// SPDX-License-Identifier: GPL-2.0
/*
 * The initrd for a boot probecc did not build (probecc --initrd OUT
 * [--base-initrd IN]): the user's own initrd, byte for byte, then the
 * overlay, a newc cpio written by libarchive holding
 *
 *	probecc/	0755
 *	probecc/init	0755	the agent for --arch (agent_find())
 *	probecc/plan	0644	the plan (docs/plan.md)
 *
 * then the bootconfig with its footer, last.  Why this order:
 *   - the kernel unpacks concatenated archives in order, compressed or
 *     not, skipping zero bytes between them; an uncompressed one must
 *     start 4-byte aligned ("0707" at this_header & 3 == 0,
 *     init/initramfs.c:unpack_to_rootfs), hence the zero padding after IN;
 *   - a later archive may add files but the overlay only adds its own
 *     directory, so nothing of IN is replaced or shadowed;
 *   - the kernel finds bootconfig from the end of the initrd (its footer:
 *     size, checksum, "#BOOTCONFIG\n"; init/main.c
 *     get_boot_config_from_initrd), so it must be last.  A bootconfig
 *     already at the end of IN is kept last when probecc has none of its
 *     own, and refused when it has (one initrd, one bootconfig).
 * The agent is started with rdinit=/probecc/init (place.c puts it on
 * the command line) and execs IN's /init (initramfs/agent.c, overlay
 * mode).
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler.h"
#include "footer.h"

int agent_find(const char *arch, char *out, size_t size, struct errmsg *e)
{
	char exe[PATH_MAX], cand[2][PATH_MAX + 64], real[PATH_MAX];
	ssize_t n;
	char *slash;
	int i;

	if (!*arch || strchr(arch, '/') || arch[0] == '.')
		return errmsg_set(e, -EINVAL, "an arch name such as mipsel or x86_64, not '%s'", arch);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return errmsg_set(e, -errno, "cannot read /proc/self/exe: %s", strerror(errno));
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(cand[0], sizeof(cand[0]), "%s/../lib/probecc/%s/agent", exe, arch);
	snprintf(cand[1], sizeof(cand[1]), "%s/initramfs/agent-%s", exe, arch);
	for (i = 0; i < 2; i++) {
		struct stat st;

		if (stat(cand[i], &st) || !S_ISREG(st.st_mode) ||
		    !realpath(cand[i], real))
			continue;
		if (strlen(real) >= size)
			return errmsg_set(e, -ENAMETOOLONG, "%s: path too long", real);
		strcpy(out, real);
		return 0;
	}
	return errmsg_set(e, -ENOENT, "no agent for %s: neither %s nor %s exists (make install, or make in the source tree)",
			  arch, cand[0], cand[1]);
}

/*
 * What an initramfs may start with (init/initramfs.c unpack_to_rootfs():
 * zero bytes skipped, then a newc cpio, "070701" or "070702" with
 * checksums, or a compressed one by its first two bytes, as
 * lib/decompress.c compressed_formats[] knows them).
 */
static const struct {
	unsigned char magic[6];
	unsigned char len;
	const char *name;
} initrd_magic[] = {
	{ "070701", 6, "newc cpio" },
	{ "070702", 6, "newc cpio (crc)" },
	{ { 0x1f, 0x8b }, 2, "gzip" },
	{ { 0x1f, 0x9e }, 2, "gzip" },
	{ { 0x42, 0x5a }, 2, "bzip2" },
	{ { 0x5d, 0x00 }, 2, "lzma" },
	{ { 0xfd, 0x37 }, 2, "xz" },
	{ { 0x89, 0x4c }, 2, "lzo" },
	{ { 0x02, 0x21 }, 2, "lz4" },
	{ { 0x28, 0xb5 }, 2, "zstd" },
};

/* The most zero bytes skipped before the first archive (alignment). */
#define INITRD_LEAD_ZEROS 512

int initrd_read_base(const char *path, char **data, size_t *len,
		     struct errmsg *e)
{
	unsigned char head[INITRD_LEAD_ZEROS + 8];
	size_t n, z = 0, i;
	FILE *f = fopen(path, "rb");

	if (!f)
		return errmsg_set(e, -errno, "cannot open %s: %s", path,
				  strerror(errno));
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	while (z < n && !head[z])
		z++;
	for (i = 0; z < n && i < sizeof(initrd_magic) / sizeof(initrd_magic[0]); i++)
		if (n - z >= initrd_magic[i].len &&
		    !memcmp(head + z, initrd_magic[i].magic, initrd_magic[i].len))
			break;
	if (z == n || i == sizeof(initrd_magic) / sizeof(initrd_magic[0]))
		return errmsg_set(e, -EINVAL, "%s is not an initramfs: %s (the kernel takes a newc cpio, \"070701\", plain or compressed with gzip, bzip2, lzma, xz, lzo, lz4 or zstd: init/initramfs.c, lib/decompress.c)",
				  path, !n ? "it is empty" :
				  z == n ? "it starts with nothing but zero bytes" :
				  head[z] == 0x7f && n - z >= 4 && !memcmp(head + z + 1, "ELF", 3) ?
				  "it is an ELF file" : "its first bytes are none of an archive's");
	return file_read_max(path, FILE_READ_MAX, data, len, e);
}

/* One regular file or directory of the overlay: root-owned, mtime 0. */
static int add_entry(struct archive *ar, const char *name, mode_t mode,
		     const void *data, size_t len)
{
	struct archive_entry *en = archive_entry_new();
	int rc;

	if (!en)
		return ARCHIVE_FATAL;
	archive_entry_set_pathname(en, name);
	archive_entry_set_mode(en, mode);
	archive_entry_set_size(en, S_ISREG(mode) ? (la_int64_t)len : 0);
	archive_entry_set_uid(en, 0);
	archive_entry_set_gid(en, 0);
	archive_entry_set_mtime(en, 0, 0);
	archive_entry_set_nlink(en, S_ISDIR(mode) ? 2 : 1);
	rc = archive_write_header(ar, en);
	if (rc == ARCHIVE_OK && S_ISREG(mode) && len &&
	    archive_write_data(ar, data, len) != (la_ssize_t)len)
		rc = ARCHIVE_FATAL;
	archive_entry_free(en);
	return rc;
}

/* The overlay cpio into *@out (malloc'd), *@len bytes. */
static int overlay_cpio(const struct initrd_parts *p, unsigned char **out,
			size_t *len, struct errmsg *e)
{
	/* newc: 110-byte headers, names and data padded to 4 bytes, TRAILER!!! */
	size_t cap = p->agent_len + p->plan_len + 4096;
	struct archive *ar = archive_write_new();
	unsigned char *buf = malloc(cap);
	size_t used = 0;
	int rc = ARCHIVE_FATAL;

	if (!ar || !buf) {
		free(buf);
		if (ar)
			archive_write_free(ar);
		return errmsg_set(e, -ENOMEM, "out of memory");
	}
	/* no block padding: the kernel needs none, and the bootconfig follows */
	if (archive_write_set_format_cpio_newc(ar) == ARCHIVE_OK &&
	    archive_write_set_bytes_in_last_block(ar, 1) == ARCHIVE_OK &&
	    archive_write_open_memory(ar, buf, cap, &used) == ARCHIVE_OK &&
	    add_entry(ar, "probecc", S_IFDIR | 0755, NULL, 0) == ARCHIVE_OK &&
	    add_entry(ar, "probecc/init", S_IFREG | 0755, p->agent,
		      p->agent_len) == ARCHIVE_OK &&
	    add_entry(ar, "probecc/plan", S_IFREG | 0644, p->plan,
		      p->plan_len) == ARCHIVE_OK)
		rc = archive_write_close(ar);
	if (rc != ARCHIVE_OK) {
		rc = errmsg_set(e, -EIO, "cannot write the overlay cpio: %s",
				archive_error_string(ar) ?
				archive_error_string(ar) : "libarchive failed");
		archive_write_free(ar);
		free(buf);
		return rc;
	}
	archive_write_free(ar);
	*out = buf;
	*len = used;
	return 0;
}

int initrd_build(const struct initrd_parts *p, unsigned char **out,
		 size_t *outlen, struct errmsg *e)
{
	size_t base_len = p->base_len, bc_start = 0, bc_size = 0, pad, cpio_len = 0;
	const char *bctext = p->bootconfig;
	unsigned char *cpio = NULL, *img;
	char *kept = NULL;
	int rc;

	if (p->base) {
		rc = bc_footer_find(p->base, p->base_len, p->order, &bc_start, &bc_size);
		if (rc < 0)
			return errmsg_set(e, -EINVAL, "%s: %s", p->base_name,
					  bc_footer_strerror(rc));
		if (rc == 1 && bctext)
			return errmsg_set(e, -EEXIST, "%s ends with a bootconfig of %zu bytes, and an initrd holds one (the kernel reads it from the end): remove it (probecc-bootconfig -d) or move its keys into the probe file",
					  p->base_name, bc_size);
		if (rc == 1) {
			/* theirs stays last: cut it off, append it again */
			kept = strndup((const char *)p->base + bc_start, bc_size);
			if (!kept)
				return errmsg_set(e, -ENOMEM, "out of memory");
			bctext = kept;
			base_len = bc_start;
		}
	}
	rc = overlay_cpio(p, &cpio, &cpio_len, e);
	if (rc) {
		free(kept);
		return rc;
	}
	pad = (4 - base_len % 4) % 4;
	img = malloc(base_len + pad + cpio_len);
	if (!img) {
		free(kept);
		free(cpio);
		return errmsg_set(e, -ENOMEM, "out of memory");
	}
	if (base_len)
		memcpy(img, p->base, base_len);
	memset(img + base_len, 0, pad);
	memcpy(img + base_len + pad, cpio, cpio_len);
	free(cpio);
	*outlen = base_len + pad + cpio_len;
	*out = img;
	if (bctext) {
		unsigned char *with;
		size_t with_len;

		rc = bc_footer_append(img, *outlen, bctext, p->order, &with, &with_len);
		free(kept);
		free(img);
		if (rc < 0) {
			*out = NULL;
			return errmsg_set(e, -EINVAL, "cannot append the bootconfig: %s",
					  bc_footer_strerror(rc));
		}
		*out = with;
		*outlen = with_len;
	}
	return 0;
}
