// SPDX-License-Identifier: GPL-2.0
/*
 * bootconfig reader: text into a struct bc_tree, accepting what the
 * kernel's parser (lib/bootconfig.c of Debian's linux-source-6.1)
 * accepts and refusing the rest with the kernel's message, at the
 * kernel's position.
 *
 * The kernel cuts words and values out of its own copy of the text (a
 * NUL at each end) and links them as nodes: a key word's children are
 * its value, if any, first, then its subkeys; a value's child is the
 * next value of its array.  Error positions, the node limit and the
 * quirks of the format (the text of a key is whatever lies before the
 * next "{}=+;:\n#", an unquoted value runs to the next ",;\n#}", a
 * value may start on a later line, ":=" leaves the replaced array's
 * nodes counted) follow from that layout, so this reader keeps it too,
 * then lists the leaves in the kernel's order ("bootconfig -l").
 *
 * Characters are classed as in the C locale, as tools/bootconfig (built
 * against glibc) does: a byte >= 0x80 is not printable, not a space and
 * not a letter.  (In the kernel, Latin-1 0xa0-0xff are printable; a
 * text accepted here is accepted there too.)
 *
 * Errors: BC_ERR_NODES ("Too many nodes"), BC_ERR_KEY_LEN ("Too long key
 * length", "Too many key words"), BC_ERR_SIZE ("Config data is too big"),
 * BC_ERR_SYNTAX for the rest; all set *msg to the kernel's text and
 * *line, *col to the position (0, 0 where the kernel has none).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "bc_tree.h"

#define NONE	(-1)

/*
 * Child and next are node numbers, 0 for none: node 0 is the first key
 * of the top level, nobody's child or next.
 */
struct node {
	int data;		/* offset of the word or value in the buffer */
	int next;		/* next sibling */
	int child;		/* first child */
	int parent;		/* NONE at the top level */
	bool value;
};

struct parser {
	char *buf;		/* the text and a NUL, cut up in place */
	struct node *nodes;	/* room for cap, at most XBC_NODE_MAX */
	int nnodes, cap;
	int cur;		/* what new words and values go under; NONE: the top */
	int brace[XBC_DEPTH_MAX];	/* the keys of the open braces */
	int nbraces;
	int err;		/* the first error: code, message, place in buf */
	const char *msg;
	const char *at;
};

static int fail(struct parser *ps, int err, const char *msg, const char *at)
{
	ps->err = err;
	ps->msg = msg;
	ps->at = at;
	return -1;
}

static bool is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool is_print(int c)
{
	return c >= ' ' && c <= '~';
}

static bool is_word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static char *skip_space(char *p)
{
	while (is_space((unsigned char)*p))
		p++;
	return p;
}

/* Spaces, but not past a newline. */
static char *skip_blank(char *p)
{
	while (*p != '\n' && is_space((unsigned char)*p))
		p++;
	return p;
}

/* Past the end of this line: the comment a '#' starts. */
static char *skip_line(char *p)
{
	char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

/* Cut the spaces off both ends of @s (a NUL after the last non-space). */
static char *trim(char *s)
{
	size_t n = strlen(s);

	while (n && is_space((unsigned char)s[n - 1]))
		n--;
	s[n] = '\0';
	return skip_space(s);
}

static const char *word(const struct parser *ps, int n)
{
	return ps->buf + ps->nodes[n].data;
}

/* The next sibling of node @n, NONE for none. */
static int next_of(const struct parser *ps, int n)
{
	return ps->nodes[n].next ? ps->nodes[n].next : NONE;
}

static int last_sibling(const struct parser *ps, int n)
{
	while (ps->nodes[n].next)
		n = ps->nodes[n].next;
	return n;
}

/*
 * A new node for @data under ps->cur, its first child if @first, else
 * its last.  Returns the node number or -1.
 */
static int add_node(struct parser *ps, char *data, bool value, bool first)
{
	struct node *n, *parent;
	int i = ps->nnodes;

	if (i == XBC_NODE_MAX || data - ps->buf >= XBC_DATA_MAX)
		return fail(ps, BC_ERR_NODES, "Too many nodes", data);
	if (i == ps->cap) {
		/* the room grows with the text, not 8192 nodes for each */
		int cap = ps->cap ? ps->cap * 2 : 64;
		struct node *more;

		if (cap > XBC_NODE_MAX)
			cap = XBC_NODE_MAX;
		more = realloc(ps->nodes, cap * sizeof(*more));
		if (!more)
			return fail(ps, BC_ERR_NOMEM, NULL, data);
		ps->nodes = more;
		ps->cap = cap;
	}
	ps->nnodes++;
	n = &ps->nodes[i];
	n->data = data - ps->buf;
	n->next = n->child = 0;
	n->value = value;
	n->parent = ps->cur;
	if (ps->cur == NONE) {
		if (i)
			ps->nodes[last_sibling(ps, 0)].next = i;
		return i;
	}
	parent = &ps->nodes[ps->cur];
	if (!parent->child || first) {
		n->next = parent->child;
		parent->child = i;
	} else {
		ps->nodes[last_sibling(ps, parent->child)].next = i;
	}
	return i;
}

/* The first subkey of key @n (after its value, if any), NONE at the top. */
static int first_subkey(const struct parser *ps, int n)
{
	int c;

	if (n == NONE)
		return 0;
	c = ps->nodes[n].child;
	if (c && ps->nodes[c].value)
		c = ps->nodes[c].next;
	return c ? c : NONE;
}

/*
 * WORD = ( ALNUM | "-" | "_" ) { ALNUM | "-" | "_" }
 * Found among the subkeys of ps->cur, or added after them; ps->cur
 * becomes its node.
 */
static int key_word(struct parser *ps, char *w)
{
	const char *p = w;
	int n;

	while (is_word_char((unsigned char)*p))
		p++;
	if (p == w || *p)
		return fail(ps, BC_ERR_SYNTAX, "Invalid keyword", w);
	n = ps->nnodes ? first_subkey(ps, ps->cur) : NONE;
	while (n != NONE && strcmp(word(ps, n), w))
		n = next_of(ps, n);
	if (n == NONE) {
		n = add_node(ps, w, false, false);
		if (n < 0)
			return -1;
	}
	ps->cur = n;
	return 0;
}

/*
 * keys = WORD { "." WORD }
 * The text of @k, trimmed; ps->cur ends at the last word's node.
 */
static int keys(struct parser *ps, char *k)
{
	char *dot;

	k = trim(k);
	while ((dot = strchr(k, '.'))) {
		*dot = '\0';
		if (key_word(ps, k))
			return -1;
		k = dot + 1;
	}
	return key_word(ps, k);
}

/*
 * value   = { SPACE | COMMENT } ( QUOTE { PRINT } QUOTE { BLANK } | { PRINT } )
 *           [ DELIM ]
 * DELIM   = "," | ";" | "\n" | "}" | COMMENT
 * COMMENT = "#" { not "\n" } [ "\n" ]
 * QUOTE is " or ', the same at both ends, with no escapes; an unquoted
 * value is trimmed, up to the delimiter (not at the end of the text).
 * Cuts the value out: *@vp becomes its start, *@np the text after the
 * delimiter.  Returns the delimiter ('\n' for a comment, 0 for the end
 * of the text) or -1.
 */
static int value(struct parser *ps, char **vp, char **np)
{
	char *v = skip_space(*vp), *p;
	int quote = 0, c;

	while (*v == '#')
		v = skip_space(skip_line(v));
	if (*v == '"' || *v == '\'')
		quote = *v++;
	for (p = v; (c = (unsigned char)*p); p++) {
		if (!is_print(c) && !is_space(c))
			return fail(ps, BC_ERR_SYNTAX, "Non printable value", p);
		if (quote) {
			if (c != quote)
				continue;
			quote = 0;
			*p = '\0';
			p = skip_blank(p + 1);
			c = (unsigned char)*p;
			if (c && !strchr(",;\n#}", c))
				return fail(ps, BC_ERR_SYNTAX, "No value delimiter", p);
			if (c)
				p++;
			break;
		}
		if (strchr(",;\n#}", c)) {
			*p++ = '\0';
			v = trim(v);
			break;
		}
	}
	if (quote)
		return fail(ps, BC_ERR_SYNTAX, "No closing quotes", p);
	if (c == '#') {
		p = skip_line(p);
		c = '\n';
	}
	*vp = v;
	*np = p;
	return c;
}

/*
 * array = { "," value }
 * The values after an array's first, each the child of the one before.
 * *@np is the text after the first value's ","; it becomes the text
 * after the last value's delimiter, which is returned (or -1).
 */
static int array(struct parser *ps, char **np)
{
	char *next;
	int c, n;

	if (ps->nodes[ps->cur].child)
		ps->cur = ps->nodes[ps->cur].child;
	do {
		c = value(ps, np, &next);
		if (c < 0)
			return -1;
		n = add_node(ps, *np, true, false);
		if (n < 0)
			return -1;
		ps->cur = n;
		*np = next;
	} while (c == ',');
	return c;
}

/* close = "}" — ends the innermost block; @at is the brace. */
static int close_brace(struct parser *ps, const char *at)
{
	ps->nbraces--;
	if (ps->cur == NONE || ps->nbraces < 0 ||
	    ps->brace[ps->nbraces] != ps->cur)
		return fail(ps, BC_ERR_SYNTAX, "Unexpected closing brace", at);
	ps->cur = ps->nbraces ? ps->brace[ps->nbraces - 1] : NONE;
	return 0;
}

/*
 * assignment = keys ( "=" | "+=" | ":=" ) value array
 * "=" refuses a key that has a value, "+=" appends to its array, ":="
 * replaces the array (the key keeps its subkeys).  A value can end the
 * enclosing block with "}".  *@kp (the key's text) becomes the text
 * after the statement; @v is the text after the operator.
 */
static int assignment(struct parser *ps, char **kp, char *v, int op)
{
	int saved = ps->cur, head, c;
	char *next;

	if (keys(ps, *kp))
		return -1;
	c = value(ps, &v, &next);
	if (c < 0)
		return -1;
	head = ps->nodes[ps->cur].child;
	if (head && ps->nodes[head].value) {
		if (op == '=')
			return fail(ps, BC_ERR_SYNTAX, "Value is redefined", v);
		if (op == ':') {
			if (v - ps->buf >= XBC_DATA_MAX)
				return fail(ps, BC_ERR_SYNTAX, "Failed to override value", v);
			/* The old array's other nodes stay counted. */
			ps->nodes[head].data = v - ps->buf;
			ps->nodes[head].child = 0;
			goto rest;
		}
		/* "+=": under the array's last value */
		while (ps->nodes[head].child)
			head = ps->nodes[head].child;
		ps->cur = head;
	}
	if (add_node(ps, v, true, true) < 0)
		return -1;
rest:
	if (c == ',') {
		c = array(ps, &next);
		if (c < 0)
			return -1;
	}
	ps->cur = saved;
	if (c == '}' && close_brace(ps, next - 1))
		return -1;
	*kp = next;
	return 0;
}

/*
 * block = keys "{" { statement } "}"
 * Opens it: what follows goes under the key until the matching "}".
 * @n is the text after the brace.
 */
static int open_brace(struct parser *ps, char **kp, char *n)
{
	if (keys(ps, *kp))
		return -1;
	*kp = n;
	if (ps->nbraces >= XBC_DEPTH_MAX)
		return fail(ps, BC_ERR_SYNTAX, "Exceed max depth of braces", n - 1);
	ps->brace[ps->nbraces++] = ps->cur;
	return 0;
}

/*
 * bare = [ keys ] END
 * A key without a value, or an empty statement.  @n is the text after
 * the END.
 */
static int bare_key(struct parser *ps, char **kp, char *n)
{
	int saved = ps->cur;
	char *k = trim(*kp);

	*kp = n;
	if (!*k)
		return 0;
	if (keys(ps, k))
		return -1;
	ps->cur = saved;
	return 0;
}

/*
 * config    = { statement } { SPACE } EOF
 * statement = assignment | block | [ keys ] close | bare
 * END       = ";" | "\n" | COMMENT
 * A statement's keys are the text up to the first of "{}=+;:\n#".
 */
static int config(struct parser *ps)
{
	char *p = ps->buf, *q;
	int c, r;

	for (;;) {
		q = strpbrk(p, "{}=+;:\n#");
		if (!q) {
			p = skip_space(p);
			return *p ? fail(ps, BC_ERR_SYNTAX, "No delimiter", p) : 0;
		}
		c = *q;
		*q++ = '\0';
		if ((c == '+' || c == ':') && *q++ != '=')
			return fail(ps, BC_ERR_SYNTAX, c == '+' ? "Wrong '+' operator" :
				    "Wrong ':' operator", q - 2);
		switch (c) {
		case '=':
		case '+':
		case ':':
			r = assignment(ps, &p, q, c);
			break;
		case '{':
			r = open_brace(ps, &p, q);
			break;
		case '}':
			r = bare_key(ps, &p, q);
			if (!r)
				r = close_brace(ps, q - 1);
			break;
		case '#':
			r = bare_key(ps, &p, skip_line(q));
			break;
		default:	/* ';' and '\n' */
			r = bare_key(ps, &p, q);
			break;
		}
		if (r)
			return r;
	}
}

/*
 * The kernel's checks on the whole tree: every brace closed, some key,
 * and keys of at most XBC_KEYLEN_MAX bytes (with a "." or NUL after
 * each word) and XBC_DEPTH_MAX words.  Like the kernel's, the walk does
 * not go below a key that has a value.
 */
static int verify(struct parser *ps)
{
	int n, m, depth = 1, len = 0, wlen;

	if (ps->nbraces)
		return fail(ps, BC_ERR_SYNTAX, "Brace is not closed",
			    word(ps, ps->brace[ps->nbraces - 1]));
	if (!ps->nnodes)
		return fail(ps, BC_ERR_SYNTAX, "Empty config", ps->buf);
	for (n = 0; n < ps->nnodes; n++)	/* cannot happen, as in the kernel */
		if (ps->nodes[n].next > ps->nnodes)
			return fail(ps, BC_ERR_SYNTAX, "No closing brace", word(ps, n));
	n = 0;
	while (n != NONE) {
		wlen = strlen(word(ps, n)) + 1;
		len += wlen;
		if (len > XBC_KEYLEN_MAX)
			return fail(ps, BC_ERR_KEY_LEN, "Too long key length", word(ps, n));
		m = ps->nodes[n].child;
		if (m && !ps->nodes[m].value) {
			n = m;
			if (++depth > XBC_DEPTH_MAX)
				return fail(ps, BC_ERR_KEY_LEN, "Too many key words",
					    word(ps, n));
			continue;
		}
		len -= wlen;
		m = next_of(ps, n);
		while (m == NONE) {
			n = ps->nodes[n].parent;
			if (n == NONE)
				break;
			len -= strlen(word(ps, n)) + 1;
			depth--;
			m = next_of(ps, n);
		}
		n = m;
	}
	return 0;
}

/* A leaf: a key with no child, or with a value first. */
static bool is_leaf(const struct parser *ps, int n)
{
	int c = ps->nodes[n].child;

	return !ps->nodes[n].value && (!c || ps->nodes[c].value);
}

/* The first leaf at or below @n. */
static int descend(const struct parser *ps, int n)
{
	while (n != NONE && !is_leaf(ps, n))
		n = ps->nodes[n].child;
	return n;
}

/* The leaf after @n in the kernel's order: its subkeys, then onwards. */
static int next_leaf(const struct parser *ps, int n)
{
	int m = first_subkey(ps, n);

	if (m != NONE)
		return descend(ps, m);
	while (!ps->nodes[n].next) {
		n = ps->nodes[n].parent;
		if (n == NONE)
			return NONE;
	}
	return descend(ps, ps->nodes[n].next);
}

/* Append leaf @n to @t: its dotted key and its values. */
static int add_leaf(const struct parser *ps, int n, struct bc_tree *t)
{
	struct bc_key *k = calloc(1, sizeof(*k));
	size_t len, wl;
	int m, v;

	if (!k)
		return BC_ERR_NOMEM;
	*t->tail = k;		/* bc_free() frees it from here on */
	t->tail = &k->next;
	len = strlen(word(ps, n));
	for (m = ps->nodes[n].parent; m != NONE; m = ps->nodes[m].parent)
		len += strlen(word(ps, m)) + 1;
	k->key = malloc(len + 1);
	if (!k->key)
		return BC_ERR_NOMEM;
	k->key[len] = '\0';
	for (m = n; m != NONE; m = ps->nodes[m].parent) {
		wl = strlen(word(ps, m));
		len -= wl;
		memcpy(k->key + len, word(ps, m), wl);
		if (len)
			k->key[--len] = '.';
	}
	for (v = ps->nodes[n].child; v; v = ps->nodes[v].child) {
		char **vals = realloc(k->values, (k->nvalues + 1) * sizeof(*vals));

		if (!vals)
			return BC_ERR_NOMEM;
		k->values = vals;
		vals[k->nvalues] = strdup(word(ps, v));
		if (!vals[k->nvalues])
			return BC_ERR_NOMEM;
		k->nvalues++;
	}
	return BC_OK;
}

/* The leaves of the parsed text, as the kernel lists them. */
static int build(const struct parser *ps, struct bc_tree **out)
{
	struct bc_tree *t = bc_new();
	int n, err = BC_OK;

	if (!t)
		return BC_ERR_NOMEM;
	for (n = descend(ps, 0); n != NONE && !err; n = next_leaf(ps, n))
		err = add_leaf(ps, n, t);
	if (err) {
		bc_free(t);
		return err;
	}
	*out = t;
	return BC_OK;
}

/* 1-based line and column of byte @pos, as tools/bootconfig prints them. */
static void position(const char *text, int pos, int *line, int *col)
{
	int i;

	*line = 1;
	*col = pos + 1;
	for (i = 0; i < pos; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = pos - i;
		}
	}
}

int bc_parse(const char *text, size_t len, struct bc_tree **out,
	     int *line, int *col, const char **msg)
{
	struct parser ps = { .cur = NONE };
	int l = 0, c = 0, err;

	*out = NULL;
	if (!len || len > XBC_DATA_MAX) {
		/* The kernel gives these no position. */
		ps.msg = len ? "Config data is too big" : "Config data is empty";
		err = len ? BC_ERR_SIZE : BC_ERR_SYNTAX;
		goto out;
	}
	ps.buf = malloc(len + 1);
	if (!ps.buf) {
		err = BC_ERR_NOMEM;
		goto out;
	}
	memcpy(ps.buf, text, len);
	ps.buf[len] = '\0';	/* and the text ends at its first NUL */
	if (!config(&ps) && !verify(&ps)) {
		err = build(&ps, out);
	} else {
		err = ps.err;
		position(text, ps.at - ps.buf, &l, &c);
	}
out:
	if (err == BC_ERR_NOMEM)
		ps.msg = bc_strerror(err);
	if (line)
		*line = l;
	if (col)
		*col = c;
	if (msg)
		*msg = err ? ps.msg : NULL;
	free(ps.buf);
	free(ps.nodes);
	return err;
}
