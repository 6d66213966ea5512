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
 * INITRD is replaced atomically (a temporary file, then rename).  -l
 * reports a text the kernel refuses as "FILE:LINE:COL: error: MSG", with
 * the kernel's message and position (tools/bootconfig's "Parse Error"),
 * and warns when the tree, written out flat, breaks the kernel's limits.
 * Exit status 0, 1 on an error (with a message), 2 for bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootconfig.h"
#include "footer.h"

static const char *prog = "probecc-bootconfig";

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (*len == cap) {
			unsigned char *nb = realloc(buf, cap = cap ? cap * 2 : 1 << 20);

			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Replace @path with @len bytes of @data: temp file beside it, rename. */
static int replace(const char *path, const unsigned char *data, size_t len)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	struct stat st;
	FILE *f;
	int fd;

	if (!tmp)
		return -1;
	snprintf(tmp, n, "%s.bc-XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "wb"))) {
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return -1;
	}
	if (!stat(path, &st))
		fchmod(fd, st.st_mode & 07777);
	if (fwrite(data, 1, len, f) != len || fflush(f) || fsync(fd) ||
	    fclose(f) || rename(tmp, path)) {
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
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
		return 1;
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

int main(int argc, char **argv)
{
	size_t len, start, size, outlen;
	unsigned char *img, *out;
	int r;

	if (argc == 4 && !strcmp(argv[1], "-a")) {
		size_t tlen;
		unsigned char *text = slurp(argv[2], &tlen);

		if (!text || memchr(text, '\0', tlen)) {
			fprintf(stderr, "%s: %s: %s\n", prog, argv[2],
				text ? "holds a NUL byte" : strerror(errno));
			return 1;
		}
		{
			unsigned char *t = realloc(text, tlen + 1);

			if (!t) {
				free(text);
				fprintf(stderr, "%s: out of memory\n", prog);
				return 1;
			}
			text = t;
			text[tlen] = '\0';
		}
		img = slurp(argv[3], &len);
		if (!img) {
			fprintf(stderr, "%s: %s: %s\n", prog, argv[3], strerror(errno));
			return 1;
		}
		r = bc_footer_append(img, len, (char *)text, &out, &outlen);
		free(img);
		free(text);
		if (r) {
			fprintf(stderr, "%s: %s: %s\n", prog, argv[3], bc_footer_strerror(r));
			return 1;
		}
		r = replace(argv[3], out, outlen);
		free(out);
		if (r) {
			fprintf(stderr, "%s: cannot write %s: %s\n", prog, argv[3], strerror(errno));
			return 1;
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "-l"))
		return list(argv[2]);
	if ((argc == 3 && !strcmp(argv[1], "-d")) || (argc == 2 && argv[1][0] != '-')) {
		const char *path = argv[argc - 1];

		img = slurp(path, &len);
		if (!img) {
			fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
			return 1;
		}
		r = bc_footer_find(img, len, &start, &size);
		if (r < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, path, bc_footer_strerror(r));
			free(img);
			return 1;
		}
		if (argc == 2) {
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
			return 1;
		}
		free(img);
		return 0;
	}
	fprintf(stderr, "usage: %s -a BOOTCONFIG INITRD | -d INITRD | -l BOOTCONFIG | INITRD\n", prog);
	return 2;
}
