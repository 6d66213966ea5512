// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel configs: a .config (plain or gzip'd, as /proc/config.gz and
 * Debian's /boot/config-* are), kept as sorted "CONFIG_X=v" lines for
 * kconfig_get().  The IKCONFIG blob of a vmlinux is found by vmlinux.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kernel.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * kernel_set_kconfig() - take the "CONFIG_X=v" lines of @text (@len
 * bytes; "# CONFIG_X is not set" and other comments are the same as
 * absent, scripts/kconfig/confdata.c).  Replaces an earlier config.
 * Text without a single CONFIG_ line is an error (-EINVAL): it is not a
 * .config.
 */
int kernel_set_kconfig(struct kernel *k, const char *text, size_t len,
		       const char *what, struct errmsg *e)
{
	const char *p = text, *end = text + len;
	size_t n = 0, cap = 0;
	char **v = NULL;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (l > 7 && !strncmp(p, "CONFIG_", 7) && memchr(p, '=', l)) {
			ALLOC_GROW(v, n + 1, cap);
			v[n++] = xstrndup(p, l);
		}
		p += l + 1;
	}
	if (!n)
		return errmsg_set(e, -EINVAL, "%s: no CONFIG_ lines: not a kernel .config", what);
	qsort(v, n, sizeof(*v), cmp_str);
	k->config = v;
	k->nconfig = n;
	sb_addf(&k->sources, "config %s: %zu options set\n", what, n);
	return 0;
}

/* kernel_load_kconfig() - a .config file, gzip'd or not (zlib's gzread
 * reads both). */
int kernel_load_kconfig(struct kernel *k, const char *path, struct errmsg *e)
{
	gzFile f = gzopen(path, "rb");
	size_t cap = 1 << 16, len = 0;
	char *buf;
	int n;

	int rc;

	if (!f) {
		rc = errno ? errno : ENOMEM;
		return errmsg_set(e, -rc, "cannot open %s: %s", path, strerror(rc));
	}
	buf = xmalloc(cap);
	while ((n = gzread(f, buf + len, (unsigned)(cap - len))) > 0) {
		len += n;
		if (len == cap && cap >= KCONFIG_MAX) {
			gzclose(f);
			free(buf);
			return errmsg_set(e, -EFBIG, "cannot read %s: more than %zu bytes, the most a .config may be (an endless stream such as /dev/zero, or not a .config)",
					  path, (size_t)KCONFIG_MAX);
		}
		if (len == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	if (n < 0 || gzclose(f) != Z_OK) {
		free(buf);
		return errmsg_set(e, -EINVAL, "cannot read %s: not a .config or a damaged gzip file",
				  path);
	}
	rc = kernel_set_kconfig(k, buf, len, path, e);
	free(buf);
	return rc;
}

int kconfig_tristate(const struct kernel *k, const char *name)
{
	const char *v;

	if (!k->config)
		return -1;
	v = kconfig_get(k, name);
	return v && (!strcmp(v, "y") || !strcmp(v, "m"));
}

/* The value of CONFIG_@name in k->config (sorted: a binary search), or NULL. */
const char *kconfig_get(const struct kernel *k, const char *name)
{
	size_t n = strlen(name), lo = 0, hi = k->nconfig;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strncmp(k->config[mid], name, n);

		if (!c && k->config[mid][n] == '=')
			return k->config[mid] + n + 1;
		if (!c)
			c = (unsigned char)k->config[mid][n] - '=';
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
