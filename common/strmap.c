// SPDX-License-Identifier: GPL-2.0
/*
 * strmap.c - the string -> pointer hash map of strmap.h.  Linear probing
 * in a table at most half full, doubled when it would be fuller: a
 * lookup costs a hash and a compare or two, so n insertions are O(n).
 * No exits but xstrmap_put(), the tools' (bootconfig/ uses strmap_put()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "strmap.h"

/* FNV-1a over @len bytes (as facts/kernel.c's symbol index). */
static unsigned long fnv(const char *s, size_t len)
{
	unsigned long h = 2166136261u;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct strmap_slot *find(const struct strmap *m, const char *key,
				size_t len, unsigned long h)
{
	size_t i = h & (m->cap - 1);

	for (;; i = (i + 1) & (m->cap - 1)) {
		struct strmap_slot *s = &m->slots[i];

		if (!s->key || (s->hash == h && s->len == len &&
				!memcmp(s->key, key, len)))
			return s;
	}
}

void *strmap_get(const struct strmap *m, const char *key, size_t len)
{
	const struct strmap_slot *s;

	if (!m->cap)
		return NULL;
	s = find(m, key, len, fnv(key, len));
	return s->key ? s->val : NULL;
}

int strmap_put(struct strmap *m, const char *key, size_t len, void *val)
{
	unsigned long h = fnv(key, len);
	struct strmap_slot *s;

	if ((m->n + 1) * 2 > m->cap) {
		struct strmap bigger = { 0 };
		size_t i;

		bigger.cap = m->cap ? m->cap * 2 : 64;
		bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
		if (!bigger.slots)
			return -ENOMEM;
		for (i = 0; i < m->cap; i++)
			if (m->slots[i].key)
				*find(&bigger, m->slots[i].key, m->slots[i].len,
				      m->slots[i].hash) = m->slots[i];
		bigger.n = m->n;
		free(m->slots);
		*m = bigger;
	}
	s = find(m, key, len, h);
	if (!s->key) {
		s->key = key;
		s->len = len;
		s->hash = h;
		m->n++;
	}
	s->val = val;
	return 0;
}

void strmap_free(struct strmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}

/* The tools' strmap_put(): out of memory exits (common.h, fatal()). */
void xstrmap_put(struct strmap *m, const char *key, size_t len, void *val)
{
	if (strmap_put(m, key, len, val))
		fatal("out of memory");
}
