/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to bootconfig/: the insides of struct bc_tree, shared by the
 * writer (bc_write.c, which fills it through bc_add()) and the reader
 * (bc_parse.c, which builds it directly: the kernel's parser accepts
 * trees bc_add() refuses, such as a key with both a value and subkeys).
 *
 * Limits are those of include/linux/bootconfig.h in Debian's
 * linux-source-6.1: XBC_DATA_MAX bytes of text, XBC_NODE_MAX nodes (one
 * per key word and per value), XBC_KEYLEN_MAX bytes of dotted key with
 * its NUL, XBC_DEPTH_MAX words in a key and levels of braces.
 */
#ifndef PROBECC_BC_TREE_H
#define PROBECC_BC_TREE_H

#include "strmap.h"

#define XBC_DATA_MAX	32767
#define XBC_NODE_MAX	8192
#define XBC_KEYLEN_MAX	256
#define XBC_DEPTH_MAX	16

/* One leaf: a dotted key and its values, in order. */
struct bc_key {
	char *key;		/* dotted, owned */
	char **values;		/* owned; NULL for a key without a value */
	int nvalues;
	int valcap;		/* room in values (bc_add(); the reader's: 0) */
	size_t idx;		/* its place in the order, from 0 (bc_add()) */
	struct bc_key *next;
};

/*
 * Leaves in the order they were added (the writer prints them so), and
 * bc_add()'s index of them, so that adding n keys is O(n), not O(n^2):
 * @keys maps a key to its struct bc_key, @inner a proper word prefix of
 * keys ("a.b" of "a.b.c") to the first key under it (the smallest idx).
 * Keys the reader linked in are indexed by the next bc_add() (from the
 * one after @last_indexed).
 */
struct bc_tree {
	struct bc_key *head, **tail;
	struct strmap keys, inner;
	struct bc_key *last_indexed;	/* NULL: none yet */
	size_t nkeys;
};

#endif
