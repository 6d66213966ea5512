/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bootconfig text format: a tree of dotted keys with string values or
 * arrays of them, as parsed by the kernel's lib/bootconfig.c and
 * described in Documentation/admin-guide/bootconfig.rst.
 *
 * Writer and reader for probecc.  Keys are added in order; the writer
 * prints them back in insertion order, one "key = value" line per leaf.
 */
#ifndef PROBECC_BOOTCONFIG_H
#define PROBECC_BOOTCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Status codes; bc_strerror() turns them into text (libfdt style). */
enum bc_err {
	BC_OK = 0,
	BC_ERR_NOMEM,		/* out of memory */
	BC_ERR_KEY,		/* a key word is empty or has a character outside [A-Za-z0-9_-] */
	BC_ERR_KEY_LEN,		/* a key with its NUL is longer than XBC_KEYLEN_MAX (256) */
	BC_ERR_VALUE_QUOTES,	/* a value holds both ' and ": the format has no escapes */
	BC_ERR_VALUE_CHAR,	/* a value holds a byte isprint() refuses in the kernel or tools/bootconfig (below 0x20, 0x7f-0xff) */
	BC_ERR_VALUE_LEN,	/* a value is longer than XBC_VALUE_MAX (32767) */
	BC_ERR_NODES,		/* more than XBC_NODE_MAX nodes (8192 in linux-source-6.1 6.1.192) */
	BC_ERR_SIZE,		/* the text is larger than XBC_DATA_MAX (32767 bytes) */
	BC_ERR_MIXED,		/* a key has both a value and subkeys (kernel < 5.13 refuses) */
	BC_ERR_SYNTAX,		/* reader: malformed text; bc_parse_error() gives the position */
	BC_ERR_IO,		/* a read or write failed; errno says why */
	BC_ERR_COUNT
};

struct bc_tree;

/* A new empty tree; NULL on allocation failure.  Free with bc_free(). */
struct bc_tree *bc_new(void);
void bc_free(struct bc_tree *t);

/*
 * Whether @t holds no key (a NULL @t holds none): the kernel refuses an
 * empty bootconfig (xbc_init() of lib/bootconfig.c), so none is written.
 */
bool bc_empty(const struct bc_tree *t);

/*
 * The leaves of @t in order: bc_first_key() the first (NULL: none),
 * bc_next_key() the one after @k (NULL: @k was the last).  They belong
 * to the tree, valid until bc_free() or the next bc_add().
 */
struct bc_key;
const struct bc_key *bc_first_key(const struct bc_tree *t);
const struct bc_key *bc_next_key(const struct bc_key *k);
/* @k's dotted key ("ftrace.event.kprobes.x.probes"), the tree's. */
const char *bc_key_name(const struct bc_key *k);
/*
 * @k's values in order: their number, and in *@values the tree's array
 * of them (NULL for a key without a value, "ftrace.event.x.enable").
 */
int bc_key_values(const struct bc_key *k, const char *const **values);

/*
 * Add @value to the dotted key @key (e.g. "ftrace.event.kprobes.x.probes").
 * A second value for the same key makes it an array, in order.  A NULL
 * @value adds a key with no value ("ftrace.event.kprobes.x.enable").
 * Both strings are copied.  Returns BC_OK or the first rule @key or
 * @value breaks; on error the tree is unchanged.
 */
int bc_add(struct bc_tree *t, const char *key, const char *value);

/*
 * Write @t as bootconfig text to @out.  Values are quoted with " unless
 * they hold ", then with '.  Returns BC_OK, BC_ERR_SIZE/BC_ERR_NODES when
 * the kernel's limits are exceeded, BC_ERR_VALUE_QUOTES (nothing
 * written) when a value holds both quotes (a tree from bc_parse() may:
 * the format has no way to write it back), or BC_ERR_IO.
 */
int bc_write(const struct bc_tree *t, FILE *out);

/*
 * Parse bootconfig @text (@len bytes, need not be NUL-terminated) into a
 * new tree stored in *@out.  On BC_ERR_SYNTAX, *@line, *@col (1-based)
 * and *@msg (static text) say where and why, as the kernel's parser does.
 */
int bc_parse(const char *text, size_t len, struct bc_tree **out,
	     int *line, int *col, const char **msg);

/* Text for a status code; never NULL. */
const char *bc_strerror(int err);

#endif
