/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strmap.h - a string -> pointer hash map (open addressing, FNV-1a), for
 * the lookups that were walks of a list: duplicate probe names
 * (compiler/parse.c), bootconfig keys and their word paths
 * (bootconfig/bc_write.c).  Kept apart from common.h so that
 * bootconfig/, a library that returns errors instead of exiting, can use
 * it: nothing here exits.
 *
 * Keys are (pointer, length) pairs, not copied: they must outlive the
 * map (a prefix of a longer string the caller owns is a key too).
 */
#ifndef PROBECC_STRMAP_H
#define PROBECC_STRMAP_H

#include <stddef.h>

struct strmap_slot {
	const char *key;	/* NULL: empty */
	size_t len;
	unsigned long hash;
	void *val;
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap;		/* a power of two, or 0 */
	size_t n;		/* keys held */
};

/* The value of the @len bytes at @key, or NULL when absent. */
void *strmap_get(const struct strmap *m, const char *key, size_t len);
/*
 * Map @key (@len bytes) to @val (not NULL), replacing a value it had.
 * Returns 0, or -ENOMEM with @m unchanged.
 */
int strmap_put(struct strmap *m, const char *key, size_t len, void *val);
/* The same for the tools, whose running out of memory exits (alloc.c). */
void xstrmap_put(struct strmap *m, const char *key, size_t len, void *val);
/* Free the slots (not the keys or values); @m is empty and usable again. */
void strmap_free(struct strmap *m);

#endif
