// SPDX-License-Identifier: GPL-2.0
/*
 * --svg: a timeline, one lane per probe, a mark per hit against boot
 * time on a labelled axis, where userspace started and where the last
 * dump began (svg_write()).
 */
#include <string.h>

#include "report-int.h"

/* A tick step of 1, 2 or 5 times a power of ten: at most 10 ticks over @span. */
static double tick_step(double span)
{
	static const double m[] = { 1, 2, 5 };
	double p = 1e-3;
	int k;

	for (;; p *= 10)
		for (k = 0; k < 3; k++)
			if (span / (m[k] * p) <= 10)
				return m[k] * p;
}

/*
 * svg_write() - the timeline as a picture: boot time in seconds on an
 * axis with labelled ticks, one lane per probe (its name and hit count
 * on the left, a mark per hit, its time as the mark's tooltip), a red
 * dashed line labelled where userspace started (the real init's start by
 * the agent's clock), a grey one labelled where the last dump began by
 * /proc/uptime (the end of what the dumps hold: the window's end when
 * there is one; the trace clock can run apart from uptime, so a hit may
 * lie past it).
 * A white background, so that a renderer (rsvg-convert) gives an opaque
 * PNG.  Sizes are pixels.
 */
void svg_write(FILE *f, const struct report *r)
{
	const struct dump *d = &r->d;
	const int w = 800, row = 24, left = 260, top = 44, bottom = 44;
	int i, j, h = top + row * (r->nnames ? r->nnames : 1) + bottom;
	double end = 1, step, t;

	for (i = 0; i < d->nhits; i++)
		if (d->hits[i].ts > end)
			end = d->hits[i].ts;
	if (d->last_time > end)
		end = d->last_time;
	if (d->init_time > end)
		end = d->init_time;
	step = tick_step(end);
	end = step * (long long)(end / step + 1);
#define X(t) (left + w * (t) / end)
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" font-size=\"12\">\n",
		left + w + 40, h);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"8\" y=\"18\" font-size=\"14\">probe hits against boot time, %d hit(s) of %d probe(s)</text>\n",
		d->nhits, r->nnames);
	/* the axis: grid lines and labelled ticks */
	for (t = 0; t <= end + step / 2; t += step) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#dddddd\"/>\n",
			X(t), top, X(t), h - bottom);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g s</text>\n",
			X(t), h - bottom + 16, t);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		left, h - bottom, left + w, h - bottom);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds since boot</text>\n",
		left + w / 2, h - 6);
	/* the lanes */
	for (i = 0; i < r->nnames; i++) {
		int n = 0, y = top + row * i;

		for (j = 0; j < d->nhits; j++)
			n += !strcmp(d->hits[j].probe, r->names[i]);
		if (i % 2)
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f6fa\"/>\n",
				left, y, w, row);
		fprintf(f, "<text x=\"8\" y=\"%d\">", y + row - 8);
		xml_escaped(f, r->names[i]);
		fprintf(f, " (%d)</text>\n", n);
		for (j = 0; j < d->nhits; j++)
			if (!strcmp(d->hits[j].probe, r->names[i]))
				fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"2\" height=\"%d\" fill=\"steelblue\"><title>%.6f s</title></rect>\n",
					X(d->hits[j].ts), y + 4, row - 8, d->hits[j].ts);
	}
	if (d->init_time >= 0) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"red\" stroke-dasharray=\"4 3\"/>\n",
			X(d->init_time), top - 8, X(d->init_time), h - bottom);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" fill=\"red\" text-anchor=\"middle\">userspace %.3f s</text>\n",
			X(d->init_time), top - 12, d->init_time);
	}
	if (d->last_time >= 0) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"gray\" stroke-dasharray=\"2 2\"/>\n",
			X(d->last_time), top - 8, X(d->last_time), h - bottom);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" fill=\"gray\" text-anchor=\"end\">last dump (uptime) %.3f s</text>\n",
			X(d->last_time) - 2, h - bottom - 4, d->last_time);
	}
#undef X
	fprintf(f, "</svg>\n");
}
