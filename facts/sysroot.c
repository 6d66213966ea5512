// SPDX-License-Identifier: GPL-2.0
/*
 * sysroot: a target's file under --sysroot, resolved inside it (the
 * rules are in sysroot.h).  Every path a target gives (the dump's
 * mappings and uprobe paths, an ELF file's DT_NEEDED and debug links) is
 * text the traced system or its build wrote: it must not name a host
 * file.  Linux 5.6's openat2(2) RESOLVE_IN_ROOT resolves it as if
 * --sysroot were "/"; without openat2 the realpath(3) is checked to stay
 * inside (absolute links then leave it, and are refused).
 */
#define _GNU_SOURCE	/* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysroot.h"

/* @path holds a ".." component. */
static bool has_dotdot(const char *path)
{
	const char *p = path;

	while ((p = strstr(p, ".."))) {
		if ((p == path || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return true;
		p += 2;
	}
	return false;
}

/* @fd's path on the host (/proc/self/fd), or NULL. */
static char *fd_path(int fd)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

/*
 * Open @path in the root @dirfd: openat2 RESOLVE_IN_ROOT; -errno.  O_PATH:
 * nothing is opened for reading, so a device or a socket at a target's
 * path is found by its type, never opened (a tty's open raises its
 * lines, a watchdog's arms it).
 */
static int open_in_root(int dirfd, const char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

char *sysroot_path(const char *sysroot, const char *path, struct errmsg *e)
{
	char *root, *real = NULL, *host = NULL;
	struct stat st;
	size_t n;
	int dirfd, fd;

	if (has_dotdot(path)) {
		errmsg_set(e, -EPERM, "%s%s: refused: a \"..\" in a target's path would leave --sysroot",
			   sysroot, path);
		return NULL;
	}
	if (!(root = realpath(sysroot, NULL))) {
		errmsg_set(e, -errno, "%s: %s", sysroot, strerror(errno));
		return NULL;
	}
	dirfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	fd = dirfd < 0 ? -errno : open_in_root(dirfd, path);
	if (fd == -ENOSYS || fd == -EPERM) {
		/* no openat2 (before 5.6, or a seccomp filter): realpath, checked */
		char *joined = xasprintf("%s%s", root, path);

		real = realpath(joined, NULL);
		fd = !real ? -errno : open(real, O_PATH | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
		free(joined);
	}
	if (dirfd >= 0)
		close(dirfd);
	if (fd < 0) {
		errmsg_set(e, fd, "%s%s: %s", sysroot, path, strerror(-fd));
		goto out;
	}
	if (!real)
		real = fd_path(fd);
	n = strlen(root);
	if (!real || strncmp(real, root, n) || (real[n] != '/' && strcmp(root, "/"))) {
		errmsg_set(e, -EPERM, "%s%s: refused: it resolves outside --sysroot (%s)",
			   sysroot, path, real ? real : "?");
	} else if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		errmsg_set(e, -EINVAL, "%s%s: refused: not a regular file", sysroot, path);
	} else {
		host = xasprintf("%s%s", sysroot, strcmp(root, "/") ? real + n : real);
	}
	close(fd);
out:
	free(real);
	free(root);
	return host;
}
