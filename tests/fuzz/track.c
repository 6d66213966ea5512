// SPDX-License-Identifier: GPL-2.0
/*
 * The allocation record of track.h: an open-addressing hash set of live
 * block addresses, so that trk_free() and trk_realloc() stay O(1) and a
 * run's leftovers are freed at its end (trk_release()).
 */
#define _GNU_SOURCE
#define TRK_IMPL
#include "track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdint.h>

static void **slot;		/* NULL: empty; TOMB: deleted */
static size_t cap, used, live;	/* used counts tombstones too */
static int on;
static char tomb;
#define TOMB ((void *)&tomb)

static size_t hash(const void *p)
{
	uintptr_t x = (uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x;
}

static void insert(void *p);

static void grow(void)
{
	void **old = slot;
	size_t i, n = cap;

	cap = cap ? (live * 4 > cap ? cap * 2 : cap) : 1024;
	slot = calloc(cap, sizeof(*slot));
	if (!slot)
		abort();
	used = live = 0;
	for (i = 0; i < n; i++)
		if (old[i] && old[i] != TOMB)
			insert(old[i]);
	free(old);
}

static void insert(void *p)
{
	size_t i;

	if ((used + 1) * 2 > cap)
		grow();
	for (i = hash(p) & (cap - 1); slot[i] && slot[i] != TOMB; i = (i + 1) & (cap - 1))
		;
	if (!slot[i])
		used++;
	slot[i] = p;
	live++;
}

/* Forget @p; false when it was not recorded. */
static int forget(void *p)
{
	size_t i;

	if (!cap)
		return 0;
	for (i = hash(p) & (cap - 1); slot[i]; i = (i + 1) & (cap - 1))
		if (slot[i] == p) {
			slot[i] = TOMB;
			live--;
			return 1;
		}
	return 0;
}

static void *track(void *p)
{
	if (p && on)
		insert(p);
	return p;
}

void *trk_malloc(size_t n)
{
	return track(malloc(n));
}

void *trk_calloc(size_t n, size_t size)
{
	return track(calloc(n, size));
}

void *trk_realloc(void *p, size_t n)
{
	int was = p && forget(p);
	void *q = realloc(p, n);

	if (!q && p && was)
		insert(p);	/* failed: the old block lives on */
	if (q && (was || on))
		insert(q);
	return q;
}

void trk_free(void *p)
{
	if (p)
		forget(p);
	free(p);
}

char *trk_strdup(const char *s)
{
	return track(strdup(s));
}

char *trk_strndup(const char *s, size_t n)
{
	return track(strndup(s, n));
}

int trk_vasprintf(char **out, const char *fmt, va_list ap)
{
	int n = vasprintf(out, fmt, ap);

	if (n >= 0)
		track(*out);
	return n;
}

int trk_asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = trk_vasprintf(out, fmt, ap);
	va_end(ap);
	return n;
}

void trk_begin(void)
{
	on = 1;
}

void trk_release(void)
{
	size_t i;

	for (i = 0; i < cap; i++) {
		if (slot[i] && slot[i] != TOMB)
			free(slot[i]);
		slot[i] = NULL;
	}
	used = live = 0;
	on = 0;
	if (cap > 4096) {	/* one large input: do not scan its table every run */
		free(slot);
		slot = NULL;
		cap = 0;
	}
}
