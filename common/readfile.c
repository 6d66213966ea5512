// SPDX-License-Identifier: GPL-2.0
/*
 * The one whole-file reader: all of a file (or a stream), NUL-terminated.
 * Returns an error instead of exiting, so that every program chooses its
 * own message and exit status.  Plain malloc: probecc-bootconfig links it
 * without the rest of common/.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

int file_read_stream_max(FILE *f, size_t max, char **text, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap), *nb;

	if (!buf)
		return -ENOMEM;
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n > max) {
			free(buf);
			return -EFBIG;
		}
		if (n + 1 == cap) {
			nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
	}
	if (ferror(f)) {
		int err = errno ? errno : EIO;

		free(buf);
		return -err;
	}
	buf[n] = '\0';
	*text = buf;
	if (len)
		*len = n;
	return 0;
}

int file_read_stream(FILE *f, char **text, size_t *len)
{
	return file_read_stream_max(f, FILE_READ_MAX, text, len);
}

int file_read_max(const char *path, size_t max, char **text, size_t *len,
		  struct errmsg *e)
{
	FILE *f = fopen(path, "rb");
	int rc;

	if (!f)
		return errmsg_set(e, -errno, "cannot open %s: %s", path, strerror(errno));
	rc = file_read_stream_max(f, max, text, len);
	fclose(f);
	if (rc == -EFBIG)
		return errmsg_set(e, rc, "cannot read %s: more than %zu bytes, the most this input may be (an endless stream such as /dev/zero, or not the file meant)",
				  path, max);
	if (rc)
		return errmsg_set(e, rc, "cannot read %s: %s", path, strerror(-rc));
	return 0;
}

int file_read(const char *path, char **text, size_t *len, struct errmsg *e)
{
	return file_read_max(path, FILE_READ_MAX, text, len, e);
}

int regular_open(const char *path, long long *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	/* a regular file never blocks: reads as usual */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (size)
		*size = st.st_size;
	return fd;
}
