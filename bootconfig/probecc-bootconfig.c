// SPDX-License-Identifier: GPL-2.0
/*
 * probecc-bootconfig: put a bootconfig file into an initrd, as the
 * kernel's tools/bootconfig does, and read one as the kernel does.
 *
 *   probecc-bootconfig -a BOOTCONFIG INITRD   append (replacing any earlier one)
 *   probecc-bootconfig -d INITRD              delete
 *   probecc-bootconfig -l BOOTCONFIG          parse, print the tree as probecc
 *                                             writes it ("key = value" lines)
 *   probecc-bootconfig INITRD                 print the bootconfig it holds
 *
 * --arch ARCH --kernel-version X.Y: the footer's byte order for that
 * kernel (footer.h, bc_footer_order): big-endian size and checksum for
 * a big-endian kernel before 5.10, little-endian otherwise (the default).
 * INITRD is replaced atomically (a temporary file, then rename).  -l
 * reports a text the kernel refuses as "FILE:LINE:COL: error: MSG", with
 * the kernel's message and position (tools/bootconfig's "Parse Error"),
 * and warns when the tree, written out flat, breaks the kernel's limits.
 * Exit status 0, 1 on an error (with a message), 2 for bad usage, a
 * file that cannot be read or one that cannot be written; --help prints
 * the usage to stdout.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "bootconfig.h"
#include "common.h"
#include "footer.h"

static const char *prog = "probecc-bootconfig";

/* All of @path, NUL-terminated (common/readfile.c); NULL with errno set. */
static unsigned char *slurp(const char *path, size_t *len)
{
	char *text;
	int rc = file_read(path, &text, len, NULL);

	if (rc) {
		errno = -rc;
		return NULL;
	}
	return (unsigned char *)text;
}

/*
 * Replace @path with @len bytes of @data, atomically and keeping its mode
 * (common/output.c, the one stager); 0, or -1 with errno set.
 */
static int replace(const char *path, const unsigned char *data, size_t len)
{
	int rc = out_stage(path, (const char *)data, len, NULL);

	if (!rc)
		rc = out_commit(NULL);
	if (rc)
		errno = -rc;
	return rc ? -1 : 0;
}

/* -l: parse bootconfig text @path and write the tree back to stdout. */
static int list(const char *path)
{
	struct bc_tree *t;
	unsigned char *text;
	const char *msg;
	int r, line, col;
	size_t len;

	text = slurp(path, &len);
	if (!text) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return 2;
	}
	r = bc_parse((const char *)text, len, &t, &line, &col, &msg);
	free(text);
	if (r) {
		if (line)
			fprintf(stderr, "%s:%d:%d: error: %s\n", path, line, col, msg);
		else
			fprintf(stderr, "%s: error: %s\n", path, msg);
		return 1;
	}
	r = bc_write(t, stdout);
	bc_free(t);
	if (r == BC_ERR_VALUE_QUOTES) {
		/* the kernel reads it, but no text of the format says it again */
		fprintf(stderr, "%s: error: cannot be written back: %s\n",
			path, bc_strerror(r));
		return 1;
	}
	if (!r && fflush(stdout))
		r = BC_ERR_IO;
	if (r == BC_ERR_IO) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		return 1;
	}
	/* The kernel reads it; written out flat, it may no longer fit. */
	if (r)
		fprintf(stderr, "%s: warning: %s: written back: %s\n", prog, path,
			bc_strerror(r));
	return 0;
}

static const char usage[] =
"usage: probecc-bootconfig [--arch ARCH --kernel-version X.Y]\n"
"                          -a BOOTCONFIG INITRD | -d INITRD | -l BOOTCONFIG | INITRD\n";

/*
 * The footer's byte order for --arch @arch and --kernel-version @ver
 * (either may be NULL); -1 after a message for a bad one.  Bootconfig
 * in the initrd came with 5.6 (init/main.c): an older kernel is refused.
 */
static int footer_order(const char *arch, const char *ver)
{
	int major = 0, minor = 0, n = 0, order;

	if (ver && (sscanf(ver, "%d.%d%n", &major, &minor, &n) != 2 ||
		    (ver[n] && ver[n] != '.' && ver[n] != '-'))) {
		fprintf(stderr, "%s: --kernel-version %s: want X.Y (e.g. 5.4)\n", prog, ver);
		return -1;
	}
	if (ver && (major < 5 || (major == 5 && minor < 6))) {
		fprintf(stderr, "%s: --kernel-version %s: the kernel reads no bootconfig from the initrd before 5.6\n",
			prog, ver);
		return -1;
	}
	order = bc_footer_order(arch, major, minor);
	if (order < 0)
		fprintf(stderr, "%s: --arch %s: unknown (%s)\n", prog, arch,
			arch_names());
	return order;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "arch", required_argument, NULL, 'A' },
		{ "kernel-version", required_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	const char *arch = NULL, *kver = NULL;
	int order;
	size_t len, start, size, outlen;
	unsigned char *img, *out;
	const char *arg = NULL, *path;
	int r, c, mode = 0;

	while ((c = getopt_long(argc, argv, "a:d:l:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
		case 'd':
		case 'l':
			if (mode)
				goto usage;
			mode = c;
			arg = optarg;
			break;
		case 'A':
			arch = optarg;
			break;
		case 'K':
			kver = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			goto usage;
		}
	}
	if (argc - optind != (mode == 'a' || !mode ? 1 : 0))
		goto usage;
	order = footer_order(arch, kver);
	if (order < 0)
		return 2;
	if (mode == 'a') {
		size_t tlen;
		unsigned char *text = slurp(arg, &tlen);

		if (!text) {
			fprintf(stderr, "%s: %s: %s\n", prog, arg, strerror(errno));
			return 2;
		}
		if (memchr(text, '\0', tlen)) {
			fprintf(stderr, "%s: %s: holds a NUL byte\n", prog, arg);
			return 1;
		}
		path = argv[optind];
		img = slurp(path, &len);
		if (!img) {
			fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
			return 2;
		}
		r = bc_footer_append(img, len, (char *)text, order, &out, &outlen);
		free(img);
		free(text);
		if (r) {
			fprintf(stderr, "%s: %s: %s\n", prog, path, bc_footer_strerror(r));
			return 1;
		}
		r = replace(path, out, outlen);
		free(out);
		if (r) {
			fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(errno));
			return 2;
		}
		return 0;
	}
	if (mode == 'l')
		return list(arg);
	path = mode == 'd' ? arg : argv[optind];
	img = slurp(path, &len);
	if (!img) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return 2;
	}
	r = bc_footer_find(img, len, order, &start, &size);
	if (r < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, bc_footer_strerror(r));
		free(img);
		return 1;
	}
	if (!mode) {
		if (r)	/* the text is NUL-terminated inside the image */
			fputs((const char *)img + start, stdout);
		else
			fprintf(stderr, "%s: %s holds no bootconfig\n", prog, path);
		free(img);
		return r ? 0 : 1;
	}
	if (r && replace(path, img, start)) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(errno));
		free(img);
		return 2;
	}
	free(img);
	return 0;
usage:
	fputs(usage, stderr);
	return 2;
}
