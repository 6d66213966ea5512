// SPDX-License-Identifier: GPL-2.0
/*
 * --folded: one line per hit, "outermost;...;innermost;probe 1", the
 * input of flamegraph.pl.
 */
#include "report-int.h"

void folded_write(FILE *f, const struct report *r)
{
	const struct dump *d = &r->d;
	int i, j;

	for (i = 0; i < d->nhits; i++) {
		for (j = d->hits[i].nframes - 1; j >= 0; j--)
			fprintf(f, "%s;", d->hits[i].frames[j]);
		if (!d->hits[i].nframes && d->hits[i].parent)
			fprintf(f, "%s;", d->hits[i].parent);
		fprintf(f, "%s 1\n", d->hits[i].probe);
	}
}
