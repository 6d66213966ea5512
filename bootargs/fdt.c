// SPDX-License-Identifier: GPL-2.0
/*
 * /chosen/bootargs of a flattened device tree, with libfdt (dtc's
 * libfdt, Debian libfdt-dev): read and validate a blob, read the
 * property, write a copy with the property set.
 */
#include <errno.h>
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootargs.h"
#include "common.h"

int dtb_check(const void *buf, size_t n, const char *path, struct errmsg *e)
{
	int err;

	if (n < sizeof(struct fdt_header))
		return errmsg_set(e, -EINVAL, "%s: not a device tree blob (%zu bytes, shorter than its header)",
				  path, n);
	if ((err = fdt_check_header(buf)))
		return errmsg_set(e, -EINVAL, "%s: not a valid device tree blob: %s",
				  path, fdt_strerror(err));
	if (fdt_totalsize(buf) > n)
		return errmsg_set(e, -EINVAL, "%s: truncated: the header says %u bytes, the file has %zu",
				  path, fdt_totalsize(buf), n);
	/*
	 * Versions before 16 name nodes by full path; libfdt 1.6.1's
	 * fdt_check_full() dereferences NULL on such a tree (found by
	 * tests/fuzz/fuzz-dtb).  dtc, QEMU and U-Boot write 17.
	 */
	if (fdt_version(buf) < DTB_VERSION_MIN)
		return errmsg_set(e, -EINVAL, "%s: device tree format version %u: versions before %d are not read (dtc writes 17)",
				  path, fdt_version(buf), DTB_VERSION_MIN);
	if ((err = fdt_check_full(buf, n)))
		return errmsg_set(e, -EINVAL, "%s: a broken device tree: %s",
				  path, fdt_strerror(err));
	return 0;
}

int dtb_read(const char *path, void **fdt, size_t *len, struct errmsg *e)
{
	size_t n;
	char *buf;
	int err = file_read(path, &buf, &n, e);

	if (err)
		return err;
	err = dtb_check(buf, n, path, e);
	if (err) {
		free(buf);
		return err;
	}
	*fdt = buf;
	*len = n;
	return 0;
}

int dtb_bootargs(const void *fdt, const char *path, const char **bootargs,
		 struct errmsg *e)
{
	const char *val;
	int node, len;

	*bootargs = NULL;
	node = fdt_path_offset(fdt, "/chosen");
	if (node == -FDT_ERR_NOTFOUND)
		return 0;
	if (node < 0)
		return errmsg_set(e, -EINVAL, "%s: /chosen: %s", path, fdt_strerror(node));
	val = fdt_getprop(fdt, node, "bootargs", &len);
	if (!val) {
		if (len == -FDT_ERR_NOTFOUND)
			return 0;
		return errmsg_set(e, -EINVAL, "%s: /chosen/bootargs: %s", path,
				  fdt_strerror(len));
	}
	if (len == 0 || val[len - 1] != '\0' || (int)strlen(val) != len - 1)
		return errmsg_set(e, -EINVAL, "%s: /chosen/bootargs is not one NUL-terminated string (%d bytes)",
				  path, len);
	*bootargs = val;
	return 0;
}

/* The libfdt error of one step of dtb_with_bootargs(): -EINVAL. */
static int fdt_fail(struct errmsg *e, void *buf, const char *what, int err)
{
	free(buf);
	return errmsg_set(e, -EINVAL, "%s: %s", what, fdt_strerror(err));
}

int dtb_with_bootargs(const void *fdt, const char *bootargs, void **out,
		      size_t *len, struct errmsg *e)
{
	/*
	 * Room: the string and its NUL, a property header (12 bytes) and
	 * its name in the strings block, a new node (header, name, end tag)
	 * and the alignment of each; 512 bytes covers all but the string.
	 */
	size_t size = fdt_totalsize(fdt) + strlen(bootargs) + 1 + 512;
	const char *back;
	void *buf;
	int err, node, blen;

	if (size > (size_t)INT32_MAX)
		return errmsg_set(e, -EFBIG, "the device tree would be too big (%zu bytes)", size);
	buf = xcalloc(1, size);
	err = fdt_open_into(fdt, buf, (int)size);
	if (err)
		return fdt_fail(e, buf, "cannot open the device tree for writing", err);
	node = fdt_path_offset(buf, "/chosen");
	if (node == -FDT_ERR_NOTFOUND)
		node = fdt_add_subnode(buf, 0, "chosen");
	if (node < 0)
		return fdt_fail(e, buf, "cannot make /chosen", node);
	err = fdt_setprop_string(buf, node, "bootargs", bootargs);
	if (err)
		return fdt_fail(e, buf, "cannot set /chosen/bootargs", err);
	err = fdt_pack(buf);
	if (err)
		return fdt_fail(e, buf, "cannot pack the device tree", err);

	/* the output, checked as the input was, and read back */
	err = fdt_check_full(buf, fdt_totalsize(buf));
	if (err)
		return fdt_fail(e, buf, "internal: the device tree written is broken", err);
	node = fdt_path_offset(buf, "/chosen");
	back = node < 0 ? NULL : fdt_getprop(buf, node, "bootargs", &blen);
	if (!back || blen != (int)strlen(bootargs) + 1 ||
	    memcmp(back, bootargs, blen)) {
		free(buf);
		return errmsg_set(e, -EINVAL, "internal: /chosen/bootargs does not read back as written");
	}
	*len = fdt_totalsize(buf);
	*out = buf;
	return 0;
}
