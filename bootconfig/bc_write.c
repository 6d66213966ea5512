// SPDX-License-Identifier: GPL-2.0
/*
 * bootconfig writer: a flat list of dotted keys with their values,
 * printed as "key = value[, value...]" lines that the kernel's parser
 * (lib/bootconfig.c) reads back into the same tree.
 *
 * The limits (XBC_*) and struct bc_tree are in bc_tree.h, private to
 * bootconfig/ and shared with the reader (bc_parse.c); the public
 * header's bc_empty() and bc_first_key()... are the tree seen from out.
 */
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "bc_tree.h"

static const char *const errors[BC_ERR_COUNT] = {
	[BC_OK] = "success",
	[BC_ERR_NOMEM] = "out of memory",
	[BC_ERR_KEY] = "a key word is empty or holds a character other than letters, digits, '-' and '_'",
	[BC_ERR_KEY_LEN] = "a key is 256 bytes or longer (XBC_KEYLEN_MAX counts its NUL) or deeper than 16 words",
	[BC_ERR_VALUE_QUOTES] = "a value holds both ' and \": bootconfig has no escapes",
	[BC_ERR_VALUE_CHAR] = "a value holds a byte bootconfig refuses (below 0x20, 0x7f, or 0x80-0xff, which tools/bootconfig does not take: lib/bootconfig.c's \"Non printable value\")",
	[BC_ERR_VALUE_LEN] = "a value is longer than 32767 bytes",
	[BC_ERR_NODES] = "more than 8192 nodes (XBC_NODE_MAX)",
	[BC_ERR_SIZE] = "the text is larger than 32767 bytes (XBC_DATA_MAX)",
	[BC_ERR_MIXED] = "a key has both a value and subkeys",
	[BC_ERR_SYNTAX] = "syntax error",
	[BC_ERR_IO] = "write error",
};

const char *bc_strerror(int err)
{
	if (err < 0 || err >= BC_ERR_COUNT || !errors[err])
		return "unknown error";
	return errors[err];
}

struct bc_tree *bc_new(void)
{
	struct bc_tree *t = calloc(1, sizeof(*t));

	if (t)
		t->tail = &t->head;
	return t;
}

bool bc_empty(const struct bc_tree *t)
{
	return !t || !t->head;
}

const struct bc_key *bc_first_key(const struct bc_tree *t)
{
	return t->head;
}

const struct bc_key *bc_next_key(const struct bc_key *k)
{
	return k->next;
}

const char *bc_key_name(const struct bc_key *k)
{
	return k->key;
}

int bc_key_values(const struct bc_key *k, const char *const **values)
{
	*values = (const char *const *)k->values;
	return k->nvalues;
}

void bc_free(struct bc_tree *t)
{
	struct bc_key *k, *next;
	int i;

	if (!t)
		return;
	for (k = t->head; k; k = next) {
		next = k->next;
		for (i = 0; i < k->nvalues; i++)
			free(k->values[i]);
		free(k->values);
		free(k->key);
		free(k);
	}
	strmap_free(&t->keys);
	strmap_free(&t->inner);
	free(t);
}

/*
 * Key words: [A-Za-z0-9_-]+ (lib/bootconfig.c: xbc_valid_keyword).  The
 * length: xbc_verify_tree() counts each word with the "." or NUL after
 * it against XBC_KEYLEN_MAX, so a dotted key of 256 bytes is already
 * "Too long key length"; 255 is the longest the kernel takes.
 */
static int check_key(const char *key)
{
	const char *p = key;
	int words = 1;

	if (strlen(key) + 1 > XBC_KEYLEN_MAX)
		return BC_ERR_KEY_LEN;
	for (;; p++) {
		const char *start = p;

		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		       (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')
			p++;
		if (p == start || (*p && *p != '.'))
			return BC_ERR_KEY;
		if (!*p)
			break;
		if (++words > XBC_DEPTH_MAX)
			return BC_ERR_KEY_LEN;
	}
	return BC_OK;
}

/* A value must be quotable: no escapes exist, and no control characters. */
static int check_value(const char *v)
{
	const char *p;

	if (strlen(v) > XBC_DATA_MAX)
		return BC_ERR_VALUE_LEN;
	/*
	 * lib/bootconfig.c refuses a value byte that is neither isprint()
	 * nor isspace() ("Non printable value"): in the kernel (lib/ctype.c)
	 * below 0x20, 0x7f and 0x80-0x9f; in tools/bootconfig and
	 * probecc-bootconfig (the C locale) every byte >= 0x80 as well.  What
	 * is written here passes all three, so 0x80-0xff are refused too.
	 * Tab and newline are isspace() but end or break our one-line value.
	 */
	for (p = v; *p; p++) {
		unsigned char c = *p;

		if (c < 0x20 || c >= 0x7f)
			return BC_ERR_VALUE_CHAR;
	}
	if (strchr(v, '"') && strchr(v, '\''))
		return BC_ERR_VALUE_QUOTES;
	return BC_OK;
}

/*
 * Put @k in @t's index: its key, and each proper word prefix of it that
 * no earlier key has (the first key under a prefix is the smallest idx).
 */
static int index_key(struct bc_tree *t, struct bc_key *k)
{
	const char *dot;

	k->idx = t->nkeys++;
	if (strmap_put(&t->keys, k->key, strlen(k->key), k))
		return BC_ERR_NOMEM;
	for (dot = strchr(k->key, '.'); dot; dot = strchr(dot + 1, '.'))
		if (!strmap_get(&t->inner, k->key, dot - k->key) &&
		    strmap_put(&t->inner, k->key, dot - k->key, k))
			return BC_ERR_NOMEM;
	t->last_indexed = k;
	return BC_OK;
}

int bc_add(struct bc_tree *t, const char *key, const char *value)
{
	struct bc_key *k, *under;
	const char *dot;
	size_t at;
	char **vals;
	int err;

	err = check_key(key);
	if (!err && value)
		err = check_value(value);
	if (err)
		return err;
	/* keys the reader linked in without bc_add() */
	for (k = t->last_indexed ? t->last_indexed->next : t->head; k; k = k->next)
		if (index_key(t, k))
			return BC_ERR_NOMEM;
	/*
	 * A key with a value cannot also have subkeys (and back): checked
	 * against the keys added before @key's own first addition (all of
	 * them for a new key), as a walk of the list up to it would.
	 */
	k = strmap_get(&t->keys, key, strlen(key));
	at = k ? k->idx : (size_t)-1;
	under = value ? strmap_get(&t->inner, key, strlen(key)) : NULL;
	if (under && under->idx < at)
		return BC_ERR_MIXED;
	for (dot = strchr(key, '.'); dot; dot = strchr(dot + 1, '.')) {
		const struct bc_key *above = strmap_get(&t->keys, key, dot - key);

		if (above && above->idx < at && above->nvalues)
			return BC_ERR_MIXED;
	}
	if (!k) {
		k = calloc(1, sizeof(*k));
		if (!k || !(k->key = strdup(key))) {
			free(k);
			return BC_ERR_NOMEM;
		}
		*t->tail = k;
		t->tail = &k->next;
		if (index_key(t, k))
			return BC_ERR_NOMEM;
	}
	if (!value)
		return BC_OK;
	if (k->nvalues >= k->valcap) {
		/* doubling: one more each time copied 100,000 values n times */
		int cap = k->nvalues < 4 ? 8 : 2 * k->nvalues;

		vals = realloc(k->values, cap * sizeof(*vals));
		if (!vals)
			return BC_ERR_NOMEM;
		k->values = vals;
		k->valcap = cap;
	}
	vals = k->values;
	vals[k->nvalues] = strdup(value);
	if (!vals[k->nvalues])
		return BC_ERR_NOMEM;
	k->nvalues++;
	return BC_OK;
}

/*
 * Nodes the kernel builds: one per distinct key word path ("a", "a.b",
 * "a.b.c" of the key a.b.c, shared with other keys), one per value.
 * Returns -1 when memory runs out.
 */
static int count_nodes(const struct bc_tree *t)
{
	static char seen;	/* a value for the set: any non-NULL pointer */
	struct strmap paths = { 0 };
	const struct bc_key *k;
	int nodes = 0;

	for (k = t->head; k; k = k->next) {
		const char *p = k->key;

		nodes += k->nvalues;
		for (;;) {
			size_t plen = (size_t)(p - k->key) + strcspn(p, ".");

			if (!strmap_get(&paths, k->key, plen)) {
				if (strmap_put(&paths, k->key, plen, &seen)) {
					strmap_free(&paths);
					return -1;
				}
				nodes++;
			}
			if (!k->key[plen])
				break;
			p = k->key + plen + 1;
		}
	}
	strmap_free(&paths);
	return nodes;
}

int bc_write(const struct bc_tree *t, FILE *out)
{
	const struct bc_key *k;
	long size = 0;
	int i, n;

	n = count_nodes(t);
	if (n < 0)
		return BC_ERR_NOMEM;
	if (n > XBC_NODE_MAX)
		return BC_ERR_NODES;
	/*
	 * A tree bc_parse() read may hold a value with both quotes (inside
	 * an unquoted value they are plain bytes); written quoted it would
	 * end at its first quote: refused before anything is written.
	 */
	for (k = t->head; k; k = k->next)
		for (i = 0; i < k->nvalues; i++)
			if (strchr(k->values[i], '"') && strchr(k->values[i], '\''))
				return BC_ERR_VALUE_QUOTES;
	for (k = t->head; k; k = k->next) {
		n = fprintf(out, "%s", k->key);
		if (n < 0)
			return BC_ERR_IO;
		size += n;
		for (i = 0; i < k->nvalues; i++) {
			char q = strchr(k->values[i], '"') ? '\'' : '"';

			n = fprintf(out, "%s%c%s%c", i ? ", " : " = ", q,
				    k->values[i], q);
			if (n < 0)
				return BC_ERR_IO;
			size += n;
		}
		if (fputc('\n', out) == EOF)
			return BC_ERR_IO;
		size++;
	}
	if (size > XBC_DATA_MAX)
		return BC_ERR_SIZE;
	return ferror(out) ? BC_ERR_IO : BC_OK;
}
