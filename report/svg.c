// SPDX-License-Identifier: GPL-2.0
/*
 * --svg: a timeline, one lane per probe, a mark per hit against boot
 * time on a labelled axis, where userspace started and where the last
 * dump began (svg_write()).
 */
#include <stdlib.h>
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
/*
 * The initcall lanes: one per level that ran an initcall, in the
 * kernel's order, then "module"; their names into @names (may be NULL).
 * Returns how many.
 */
static int icall_lanes(const struct report *r, const char **names)
{
	int i, j, n = 0;

	for (i = 0; i <= r->nlevels; i++) {
		const char *l = i < r->nlevels ? r->levels[i].name : "module";

		for (j = 0; j < r->nics; j++)
			if (r->ics[j].end >= 0 && !strcmp(r->ics[j].level, l))
				break;
		if (j == r->nics)
			continue;
		for (j = 0; j < n; j++)	/* a level printed twice (rare) is one lane */
			if (!strcmp(names ? names[j] : "", l) && names)
				break;
		if (names && j < n)
			continue;
		if (names)
			names[n] = l;
		n++;
	}
	return n;
}

void svg_write(FILE *f, const struct report *r)
{
	const struct dump *d = &r->d;
	const int w = 800, row = 24, left = 260, top = 44, bottom = 44;
	int i, j, nlanes = r->nnames + icall_lanes(r, NULL),
	    h = top + row * (nlanes ? nlanes : 1) + bottom;
	double end = 1, step, t;

	for (i = 0; i < d->nhits; i++)
		if (d->hits[i].ts > end)
			end = d->hits[i].ts;
	/* the dumps' and userspace's times are on this axis's clock only with a timebase */
	if (d->timebase && d->last_time > end)
		end = d->last_time;
	if (d->timebase && d->init_time > end)
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
	/* the bootgraph: a lane per initcall level, a bar per initcall */
	if (r->nics) {
		const char **lanes = xcalloc(r->nlevels + 1, sizeof(*lanes));
		int nl = icall_lanes(r, lanes);

		for (i = 0; i < nl; i++) {
			int y = top + row * (r->nnames + i), n = 0;

			for (j = 0; j < r->nics; j++)
				n += r->ics[j].end >= 0 && !strcmp(r->ics[j].level, lanes[i]);
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
				left, y, w, row, (r->nnames + i) % 2 ? "#f4f6fa" : "#fbfbf4");
			fprintf(f, "<text x=\"8\" y=\"%d\">initcalls ", y + row - 8);
			xml_escaped(f, lanes[i]);
			fprintf(f, " (%d)</text>\n", n);
			for (j = 0; j < r->nics; j++) {
				const struct initcall *ic = &r->ics[j];
				double bw = X(ic->end) - X(ic->start);

				if (ic->end < 0 || strcmp(ic->level, lanes[i]))
					continue;
				fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"darkorange\"><title>",
					X(ic->start), y + 4, bw < 1 ? 1 : bw, row - 8);
				xml_escaped(f, ic->func);
				if (ic->module) {
					fprintf(f, " [");
					xml_escaped(f, ic->module);
					fprintf(f, "]");
				}
				fprintf(f, " %.3f ms at %.6f s</title></rect>\n",
					(ic->end - ic->start) * 1e3, ic->start);
			}
		}
		free(lanes);
	}
	if (!d->timebase && (d->init_time >= 0 || d->last_time >= 0))
		fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"gray\" text-anchor=\"end\">no timebase: userspace and dump times not drawn (CLOCK_BOOTTIME)</text>\n",
			left + w, top - 12);
	if (d->timebase && d->init_time >= 0) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"red\" stroke-dasharray=\"4 3\"/>\n",
			X(d->init_time), top - 8, X(d->init_time), h - bottom);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" fill=\"red\" text-anchor=\"middle\">userspace %.3f s</text>\n",
			X(d->init_time), top - 12, d->init_time);
	}
	if (d->timebase && d->last_time >= 0) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"gray\" stroke-dasharray=\"2 2\"/>\n",
			X(d->last_time), top - 8, X(d->last_time), h - bottom);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" fill=\"gray\" text-anchor=\"end\">last dump %.3f s</text>\n",
			X(d->last_time) - 2, h - bottom - 4, d->last_time);
	}
#undef X
	fprintf(f, "</svg>\n");
}
