// SPDX-License-Identifier: GPL-2.0
/*
 * probecc did-you-mean NAME < CANDIDATES: common/suggest.c's one rule
 * for a front end's own names (qemu-images/mkimage: --module, against
 * the kernel package's modules).  CANDIDATES are one a line on stdin.
 * Prints "did you mean a, b or c?" and exits 0, or prints nothing and
 * exits 1 when nothing is close; 2 on bad usage.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"

const char didyoumean_usage[] =
"usage: probecc did-you-mean NAME < CANDIDATES (one a line)\n";

int didyoumean_main(int argc, char **argv)
{
	struct suggest sg;
	char line[512], *text;
	/* suggest_add() borrows its names: they live until the exit */
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (argc != 2) {
		fputs(didyoumean_usage, stderr);
		return 2;
	}
	suggest_init(&sg, argv[1]);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		ALLOC_GROW(names, n + 1, cap);
		names[n] = xstrdup(line);
		suggest_add(&sg, names[n++]);
	}
	text = suggest_text(&sg);
	rc = *text ? 0 : 1;
	if (*text)
		printf("%s\n", text + 2);	/* without the "; " */
	free(text);
	stdout_flush();
	return rc;
}
