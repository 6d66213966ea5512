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

int dtb_read(const char *path, void **fdt, size_t *len, struct errmsg *e)
{
	size_t n;
	char *buf;
	int err = file_read(path, &buf, &n, e);

	if (err)
		return err;
	if (n < sizeof(struct fdt_header))
		err = errmsg_set(e, -EINVAL, "%s: not a device tree blob (%zu bytes, shorter than its header)",
				 path, n);
	else if ((err = fdt_check_header(buf)))
		err = errmsg_set(e, -EINVAL, "%s: not a valid device tree blob: %s",
				 path, fdt_strerror(err));
	else if (fdt_totalsize(buf) > n)
		err = errmsg_set(e, -EINVAL, "%s: truncated: the header says %u bytes, the file has %zu",
				 path, fdt_totalsize(buf), n);
	else if ((err = fdt_check_full(buf, n)))
		err = errmsg_set(e, -EINVAL, "%s: a broken device tree: %s",
				 path, fdt_strerror(err));
	if (err) {
		free(buf);
		return err;
	}
	*fdt = buf;
	*len = n;
	return 0;
}

const char *dtb_bootargs(const void *fdt, const char *path)
{
	const char *val;
	int node, len;

	node = fdt_path_offset(fdt, "/chosen");
	if (node == -FDT_ERR_NOTFOUND)
		return NULL;
	if (node < 0)
		fatal("%s: /chosen: %s", path, fdt_strerror(node));
	val = fdt_getprop(fdt, node, "bootargs", &len);
	if (!val) {
		if (len == -FDT_ERR_NOTFOUND)
			return NULL;
		fatal("%s: /chosen/bootargs: %s", path, fdt_strerror(len));
	}
	if (len == 0 || val[len - 1] != '\0' || (int)strlen(val) != len - 1)
		fatal("%s: /chosen/bootargs is not one NUL-terminated string (%d bytes)",
		      path, len);
	return val;
}

void *dtb_with_bootargs(const void *fdt, const char *bootargs, size_t *len)
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
		fatal("the device tree would be too big (%zu bytes)", size);
	buf = xcalloc(1, size);
	err = fdt_open_into(fdt, buf, (int)size);
	if (err)
		fatal("cannot open the device tree for writing: %s",
		      fdt_strerror(err));
	node = fdt_path_offset(buf, "/chosen");
	if (node == -FDT_ERR_NOTFOUND)
		node = fdt_add_subnode(buf, 0, "chosen");
	if (node < 0)
		fatal("cannot make /chosen: %s", fdt_strerror(node));
	err = fdt_setprop_string(buf, node, "bootargs", bootargs);
	if (err)
		fatal("cannot set /chosen/bootargs: %s", fdt_strerror(err));
	err = fdt_pack(buf);
	if (err)
		fatal("cannot pack the device tree: %s", fdt_strerror(err));

	/* the output, checked as the input was, and read back */
	err = fdt_check_full(buf, fdt_totalsize(buf));
	if (err)
		fatal("internal: the device tree written is broken: %s",
		      fdt_strerror(err));
	node = fdt_path_offset(buf, "/chosen");
	back = node < 0 ? NULL : fdt_getprop(buf, node, "bootargs", &blen);
	if (!back || blen != (int)strlen(bootargs) + 1 ||
	    memcmp(back, bootargs, blen))
		fatal("internal: /chosen/bootargs does not read back as written");
	*len = fdt_totalsize(buf);
	return buf;
}
