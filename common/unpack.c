// SPDX-License-Identifier: GPL-2.0
/*
 * The one unpacker: a compressed stream (a .ko.xz, a bzImage's payload)
 * read whole into memory through libarchive's raw format, bounded.
 */
#include <archive.h>
#include <errno.h>
#include <stdlib.h>

#include "common.h"

int unpack_whole(struct archive *a, size_t cap, size_t max,
		 unsigned char **out, size_t *len)
{
	unsigned char *buf;
	la_ssize_t got;
	size_t n = 0;

	*out = NULL;
	*len = 0;
	if (cap < 64 << 10)
		cap = 64 << 10;
	if (cap > max)
		cap = max;
	buf = xmalloc(cap);
	for (;;) {
		if (n == cap) {
			if (cap >= max) {
				free(buf);
				return -EFBIG;
			}
			cap = cap < max / 2 ? cap * 2 : max;
			buf = xrealloc(buf, cap);
		}
		got = archive_read_data(a, buf + n, cap - n);
		if (got < 0) {
			free(buf);
			return -ENOEXEC;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	*out = buf;
	*len = n;
	return 0;
}
