// SPDX-License-Identifier: GPL-2.0
/*
 * "Did you mean": the one edit distance and the one rule for choosing and
 * printing suggestions, for every name probecc looks up (kernel symbols
 * and events, user ELF symbols and SDT probes, DWARF members and
 * variables).
 *
 * Distance: optimal string alignment (Levenshtein plus the swap of two
 * adjacent characters as one edit: "tikc" is one edit from "tick").
 * Rule: a name is offered when it is within suggest_limit() edits; the
 * SUGGEST_MAX closest are kept, ties in name order, so that the output
 * does not depend on the order a table is read in; of those, the ones
 * more than one edit further than the closest are not shown (next to
 * "tick", "line" is no help for "tikc").
 */
#include <string.h>

#include "common.h"

/* Longer names are never suggested (no kernel or ELF name comes near). */
#define SUGGEST_NAME_MAX 255

int edit_distance(const char *a, const char *b, int max)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	/* rows i-2, i-1 and i of the distance matrix */
	int r[3][SUGGEST_NAME_MAX + 1], *pp, *p, *c, best;

	if (la > SUGGEST_NAME_MAX || lb > SUGGEST_NAME_MAX ||
	    (la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (j = 0; j <= lb; j++)
		r[1][j] = j;
	pp = r[0], p = r[1], c = r[2];
	for (i = 1; i <= la; i++) {
		int *t;

		c[0] = best = i;
		for (j = 1; j <= lb; j++) {
			int v = p[j - 1] + (a[i - 1] != b[j - 1]);

			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
			if (v < best)
				best = v;
		}
		/* no later row can go below this row's minimum - 1 swap */
		if (best > max + 1)
			return max + 1;
		t = pp, pp = p, p = c, c = t;
	}
	return p[lb] > max ? max + 1 : p[lb];
}

int suggest_limit(const char *want)
{
	int lim = (int)strlen(want) / 3 + 1;

	return lim < 2 ? 2 : lim > 4 ? 4 : lim;
}

void suggest_init(struct suggest *sg, const char *want)
{
	memset(sg, 0, sizeof(*sg));
	sg->want = want;
	sg->limit = suggest_limit(want);
}

void suggest_add(struct suggest *sg, const char *name)
{
	int d = edit_distance(sg->want, name, sg->limit), i, at;

	if (d > sg->limit || !strcmp(name, sg->want))
		return;
	for (i = 0; i < sg->n; i++)
		if (!strcmp(sg->name[i], name))
			return;
	for (at = sg->n; at > 0; at--) {
		if (sg->dist[at - 1] < d ||
		    (sg->dist[at - 1] == d && strcmp(sg->name[at - 1], name) < 0))
			break;
	}
	if (at >= SUGGEST_MAX)
		return;
	if (sg->n < SUGGEST_MAX)
		sg->n++;
	for (i = sg->n - 1; i > at; i--) {
		sg->name[i] = sg->name[i - 1];
		sg->dist[i] = sg->dist[i - 1];
	}
	sg->name[at] = name;
	sg->dist[at] = d;
}

char *suggest_text(const struct suggest *sg)
{
	struct strbuf sb = { 0 };
	int i;

	int n = 0;

	while (n < sg->n && sg->dist[n] <= sg->dist[0] + 1)
		n++;
	if (!n)
		return xstrdup("");
	sb_addf(&sb, "; did you mean ");
	for (i = 0; i < n; i++)
		sb_addf(&sb, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
			sg->name[i]);
	sb_addf(&sb, "?");
	return sb.s;
}
