// SPDX-License-Identifier: GPL-2.0
/*
 * The parser: tokens to a struct program.  One function per grammar rule
 * of docs/language.md, each with its rule above it.  It checks what the
 * language itself forbids; what depends on the target (registers, kernel
 * versions, option names) is checked in check.c.
 *
 * Errors go to a list and parsing goes on: a syntax error skips the rest
 * of its block item or statement (until the end of the line, or of a
 * block opened on it) and the parser resumes there, so every statement
 * gets its own first error.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "strmap.h"

/*
 * Kernel limits on names, kernel/trace/trace_probe.{h,c} (6.1): an event
 * or group name shorter than MAX_EVENT_NAME_LEN (64), a fetcharg's name
 * at most MAX_ARG_NAME_LEN (32) bytes.
 */
#define MAX_EVENT_NAME	63
#define MAX_ARG_NAME	32
#define MAX_FIELDS	128	/* MAX_TRACE_ARGS */
#define MAX_DEREF	15	/* FETCH_INSN_MAX 16, one taken by the final store */

static struct token *tok;	/* the current token */
static struct diags *diags;	/* where errors go */
/*
 * After a syntax error, tok is @stop, an end of file that stays one, so
 * that the rule functions return without consuming more; the item or
 * statement loop then goes back to @err_tok and skips to the next one.
 */
static bool panic;
static struct token *err_tok;
static char empty[1];
static struct token stop = { .kind = TK_EOF, .text = empty, .suffix = empty,
			     .next = &stop };

/* The token stream is not what the grammar wants: skip to the next item. */
static void syntax_error(const struct pos *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void syntax_error(const struct pos *p, const char *fmt, ...)
{
	va_list ap;

	if (!panic) {
		va_start(ap, fmt);
		diag_vadd(diags, p, fmt, ap);
		va_end(ap);
		panic = true;
		err_tok = tok;
	}
	tok = &stop;
}

/* Well formed but refused (a duplicate, a name of nothing): parsing goes on. */
static void parse_error(const struct pos *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void parse_error(const struct pos *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(diags, p, fmt, ap);
	va_end(ap);
}

static bool is(const char *s)
{
	return (tok->kind == TK_PUNCT || tok->kind == TK_WORD) &&
	       !strcmp(tok->text, s);
}

/*
 * Leave panic: back at the token of the error, skip to the end of the
 * block item (@in_block: a newline, ';' or the '}', not consumed) or of
 * the statement (a newline or ';' outside any block the skipped text
 * opened).
 */
static void recover(bool in_block)
{
	int depth = 0;

	tok = err_tok;
	panic = false;
	for (; tok->kind != TK_EOF; tok = tok->next) {
		if (in_block) {
			if (tok->kind == TK_NL || is(";") || is("}"))
				return;
			continue;
		}
		if (is("{"))
			depth++;
		else if (is("}") && depth > 0)
			depth--;
		else if (depth == 0 && (tok->kind == TK_NL || is(";")))
			return;
	}
}

static const char *describe(const struct token *t)
{
	switch (t->kind) {
	case TK_NL:
		return "end of line";
	case TK_EOF:
		return "end of file";
	case TK_STR:
		return "a string";
	default:
		return t->text;
	}
}

static void expect(const char *s, const char *why)
{
	if (!is(s))
		syntax_error(&tok->pos, "expected '%s' %s, found '%s'", s, why,
			 describe(tok));
	tok = tok->next;
}

static bool at_end(void)
{
	return tok->kind == TK_NL || tok->kind == TK_EOF || is(";");
}

static void end_statement(const char *what)
{
	if (!at_end() && !is("}"))
		syntax_error(&tok->pos, "unexpected '%s' after %s", describe(tok),
			 what);
	if (tok->kind != TK_EOF && !is("}"))
		tok = tok->next;
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

/* NAME = [A-Za-z_][A-Za-z0-9_]* , at most @max bytes: a tracefs event or field name */
static char *name(const char *what, size_t max)
{
	const char *s = tok->text;
	char *r;

	if (tok->kind != TK_WORD)
		syntax_error(&tok->pos, "expected %s name, found '%s'", what,
			 describe(tok));
	if (strpbrk(s, ".*?"))
		syntax_error(&tok->pos,
			 "%s name '%s' may hold only letters, digits and '_'",
			 what, s);
	if (strlen(s) > max)
		syntax_error(&tok->pos, "%s name is %zu bytes long; the kernel allows %zu",
			 what, strlen(s), max);
	r = xstrdup(s);
	tok = tok->next;
	return r;
}

/*
 * An event's or group's NAME.  "enable" and "filter" are refused: every
 * events/GROUP/ directory holds files of those names for the whole group
 * (kernel/trace/trace_events.c), and kernel/trace/trace_boot.c reads
 * ftrace.event.GROUP.enable and ftrace.event.enable as group and global
 * switches: a kprobe named "enable" was never defined and the whole
 * kprobes group was turned on instead.
 */
static char *event_name(const char *what)
{
	struct pos pos = tok->pos;
	char *n = name(what, MAX_EVENT_NAME);

	if (!strcmp(n, "enable") || !strcmp(n, "filter"))
		parse_error(&pos, "'%s' cannot name an event or a group: tracefs and bootconfig use it for the whole group's %s",
			    n, n);
	return n;
}

/* SYMBOL = a word without glob characters */
static char *symbol(const char *what)
{
	char *r;

	if (tok->kind != TK_WORD)
		syntax_error(&tok->pos, "expected %s, found '%s'", what,
			 describe(tok));
	if (has_glob(tok->text))
		syntax_error(&tok->pos, "a glob cannot be %s; globs are for function lists", what);
	r = xstrdup(tok->text);
	tok = tok->next;
	return r;
}

static unsigned long long number(const char *what)
{
	unsigned long long n;

	if (tok->kind != TK_NUM)
		syntax_error(&tok->pos, "expected %s, found '%s'", what,
			 describe(tok));
	if (*tok->suffix)
		syntax_error(&tok->pos, "unexpected suffix '%s' on %s", tok->suffix,
			 what);
	n = tok->num;
	tok = tok->next;
	return n;
}

/*
 * A NUMBER no greater than @max: a signed field (offsets, indices,
 * immediates, counts) takes LLONG_MAX, so that a value is never written
 * wrapped (+18446744073709551615 is not -1).
 */
static unsigned long long number_max(const char *what, unsigned long long max)
{
	const struct token *t = tok;
	unsigned long long n = number(what);

	if (n > max) {
		syntax_error(&t->pos, "%s out of range: at most %llu", what, max);
		return 0;
	}
	return n;
}

static long long snumber(const char *what)
{
	return (long long)number_max(what, LLONG_MAX);
}

static struct name *new_name(const char *s, const struct pos *pos)
{
	struct name *n = xcalloc(1, sizeof(*n));

	n->s = xstrdup(s);
	n->pos = *pos;
	return n;
}

/*
 * The tails of the program's lists, so that appending n names, probes or
 * expectations is O(n) (a walk from the head each time made 100,000
 * function names take 17 s: bench/README.md), and its probes by
 * "GROUP:NAME" for check_unique().  Only lists of the program being
 * parsed are appended to (their heads live as long as it); parse() resets
 * all of this.
 */
static struct {
	struct name **head;	/* &prog->functions, &prog->inits, ... */
	struct name **tail;	/* the last next pointer seen */
} name_tails[8];
static int nname_tails;
static struct probe **probes_tail;
static struct expectation **expects_tail;
static struct strmap probe_names;	/* "GROUP:NAME" -> struct same_name */

/* The probes of one "GROUP:NAME", in the order they came. */
struct same_name {
	char *key;		/* owned: the map's key */
	const struct probe **v;
	int n;
};

static void append_name(struct name **list, struct name *n)
{
	struct name **t;
	int i;

	for (i = 0; i < nname_tails && name_tails[i].head != list; i++)
		;
	if (i == nname_tails) {
		if (i == (int)(sizeof(name_tails) / sizeof(name_tails[0])))
			internal_error("more than %d name lists", i);
		name_tails[nname_tails].head = list;
		name_tails[nname_tails++].tail = list;
	}
	for (t = name_tails[i].tail; *t; t = &(*t)->next)
		;
	*t = n;
	name_tails[i].tail = &n->next;
}

/* SIZE = NUMBER [ "K" | "M" | "G" ] */
static unsigned long long size(void)
{
	unsigned long long n = tok->num, mul = 1;

	if (tok->kind != TK_NUM)
		syntax_error(&tok->pos, "expected a size such as 1M, found '%s'",
			 describe(tok));
	if (!strcmp(tok->suffix, ""))
		mul = 1;
	else if (!strcmp(tok->suffix, "K"))
		mul = 1ULL << 10;
	else if (!strcmp(tok->suffix, "M"))
		mul = 1ULL << 20;
	else if (!strcmp(tok->suffix, "G"))
		mul = 1ULL << 30;
	else
		syntax_error(&tok->pos, "unknown size suffix '%s' (use K, M or G)",
			 tok->suffix);
	if (n == 0 || n > (1ULL << 40) / mul)
		syntax_error(&tok->pos, "size out of range");
	tok = tok->next;
	return n * mul;
}

/* DURATION = NUMBER ( "s" | "ms" ), in milliseconds, at most one hour */
static unsigned duration(void)
{
	unsigned long long n = tok->num;

	if (tok->kind != TK_NUM)
		syntax_error(&tok->pos, "expected a duration such as 8s, found '%s'",
			 describe(tok));
	if (!strcmp(tok->suffix, "s"))
		n = n > 3600 ? ULLONG_MAX : n * 1000;	/* no wrap into range */
	else if (strcmp(tok->suffix, "ms"))
		syntax_error(&tok->pos, "a duration needs a unit: s or ms");
	if (n == 0 || n > 3600 * 1000)
		syntax_error(&tok->pos, "duration must be between 1ms and 3600s");
	tok = tok->next;
	return n;
}

static bool is_ident(const char *s, size_t n)
{
	size_t i;

	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/*
 * Split the word at tok ("a", "a.b.c": the lexer keeps dots in words)
 * into IDENT components; the first becomes *@first (when not NULL),
 * the rest are A_DOT accesses appended at *@tail.
 */
static void ident_word(char **first, struct access ***tail)
{
	const char *w = tok->text, *dot;
	struct pos pos = tok->pos;

	for (;;) {
		size_t n;

		dot = strchr(w, '.');
		n = dot ? (size_t)(dot - w) : strlen(w);
		if (!is_ident(w, n))
			syntax_error(&pos, "'%.*s' is not a C name (letters, digits and '_', not starting with a digit)",
				 (int)n, w);
		if (first) {
			*first = xstrndup(w, n);
			first = NULL;
		} else {
			struct access *a = xcalloc(1, sizeof(*a));

			a->kind = A_DOT;
			a->member = xstrndup(w, n);
			a->pos = pos;
			**tail = a;
			*tail = &a->next;
		}
		if (!dot)
			break;
		pos.loc += n + 1;
		pos.col += (int)n + 1;
		w = dot + 1;
	}
	tok = tok->next;
}

/*
 * cvar  = IDENT { "." IDENT | "->" IDENT | "[" NUMBER "]" }
 * IDENT = [A-Za-z_][A-Za-z0-9_]*
 *
 * A parameter, local or global of the probed function by its C name,
 * resolved from the DWARF of --vmlinux or --sysroot (compiler/resolve.c).  The
 * lexer keeps "a.b" as one word; it is split here.
 */
static struct fetcharg *cvar(struct fetcharg *f)
{
	struct access **tail = &f->path;

	f->kind = F_VAR;
	ident_word(&f->name, &tail);
	for (;;) {
		if (is("-") && tok->next->kind == TK_PUNCT &&
		    !strcmp(tok->next->text, ">")) {
			struct access *a = xcalloc(1, sizeof(*a));

			a->kind = A_ARROW;
			tok = tok->next->next;
			a->pos = tok->pos;
			if (tok->kind != TK_WORD)
				syntax_error(&tok->pos, "expected a member name after '->', found '%s'",
					 describe(tok));
			*tail = a;
			tail = &a->next;
			ident_word(&a->member, &tail);
		} else if (is("[")) {
			struct access *a = xcalloc(1, sizeof(*a));

			a->kind = A_INDEX;
			tok = tok->next;
			a->pos = tok->pos;
			a->index = snumber("a constant array index");
			expect("]", "to close the array index");
			*tail = a;
			tail = &a->next;
		} else {
			return f;
		}
	}
}

/*
 * fetch = "arg" NUMBER | "$retval" | "$comm" | "$stack" [NUMBER]
 *       | "%" WORD | "@" WORD [("+"|"-") NUMBER] | "@" NUMBER
 *       | ("+"|"-") NUMBER "(" fetch ")" | NUMBER | cvar
 *
 * A word that is not argN is a C name (cvar), only outside +OFFS(...).
 */
static struct fetcharg *parse_fetcharg(int depth)
{
	struct fetcharg *f = xcalloc(1, sizeof(*f));

	f->pos = tok->pos;
	if (is("+") || is("-")) {
		bool neg = is("-");

		if (depth >= MAX_DEREF)
			syntax_error(&tok->pos, "dereferences nest at most %d deep",
				 MAX_DEREF);
		tok = tok->next;
		f->kind = F_DEREF;
		f->n = snumber("a dereference offset");
		if (neg)
			f->n = -f->n;
		expect("(", "after a dereference offset");
		f->inner = parse_fetcharg(depth + 1);
		expect(")", "to close the dereference");
		return f;
	}
	if (is("$")) {
		const char *w;

		tok = tok->next;
		if (tok->kind != TK_WORD)
			syntax_error(&f->pos, "expected retval, comm or stack after '$'");
		w = tok->text;
		if (!strcmp(w, "retval")) {
			f->kind = F_RETVAL;
		} else if (!strcmp(w, "comm")) {
			f->kind = F_COMM;
		} else if (!strcmp(w, "stack")) {
			f->kind = F_STACK;
		} else if (!strncmp(w, "stack", 5) && w[5] >= '0' && w[5] <= '9' &&
			   strspn(w + 5, "0123456789") == strlen(w + 5)) {
			unsigned long long n;

			f->kind = F_STACKN;
			errno = 0;
			n = strtoull(w + 5, NULL, 10);
			/* the kernel reads N with kstrtoul into an unsigned int */
			if (errno == ERANGE || n > UINT_MAX)
				syntax_error(&tok->pos, "stack slot '$%s' out of range: at most $stack%u", w, UINT_MAX);
			f->n = (long long)n;
		} else if (!strncmp(w, "arg", 3)) {
			syntax_error(&tok->pos, "write argument N as 'argN' (probecc maps it to the target ABI), not '$%s'", w);
		} else {
			syntax_error(&tok->pos, "unknown special variable '$%s' (known: $retval, $comm, $stack, $stackN)", w);
		}
		tok = tok->next;
		return f;
	}
	if (is("%")) {
		tok = tok->next;
		if (tok->kind != TK_WORD)
			syntax_error(&tok->pos, "expected a register name after '%%'");
		f->kind = F_REG;
		f->name = xstrdup(tok->text);
		tok = tok->next;
		return f;
	}
	if (is("@")) {
		tok = tok->next;
		if (tok->kind == TK_NUM) {
			f->kind = F_ADDR;
			f->n = (long long)number("an address");
			return f;
		}
		f->kind = F_SYM;
		f->name = symbol("a symbol after '@'");
		if (is("+") || is("-")) {
			bool neg = is("-");

			tok = tok->next;
			f->n = snumber("a symbol offset");
			if (neg)
				f->n = -f->n;
		}
		return f;
	}
	if (tok->kind == TK_NUM) {
		f->kind = F_IMM;
		f->n = snumber("an immediate");
		return f;
	}
	if (tok->kind == TK_WORD && !strncmp(tok->text, "arg", 3)) {
		const char *d = tok->text + 3;

		if (*d && strspn(d, "0123456789") == strlen(d)) {
			f->kind = F_ARG;
			f->n = strtoll(d, NULL, 10);
			if (f->n < 1)
				syntax_error(&tok->pos, "arguments are numbered from arg1");
			if (f->n > MAX_FIELDS)
				syntax_error(&tok->pos, "arg%lld: a function has at most %d arguments here",
					 f->n, MAX_FIELDS);
			tok = tok->next;
			return f;
		}
	}
	if (tok->kind == TK_WORD) {
		if (depth)
			syntax_error(&tok->pos, "a C name cannot be inside +OFFS(...); write the whole access in C (p->member, p->q->r, a[2])");
		return cvar(f);
	}
	syntax_error(&tok->pos, "expected a fetch argument (argN, a C name, $retval, $comm, $stack, %%REG, @SYM, +OFFS(...)), found '%s'",
		     describe(tok));
	return f;
}

static const char *const types[] = {
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
	"x8", "x16", "x32", "x64", "string", "ustring", "symbol", NULL,
};

/* TYPE = u8 .. x64 | string | ustring | symbol  (trace_probe.c probe_fetch_types) */
static char *type(void)
{
	int i;

	if (tok->kind == TK_WORD)
		for (i = 0; types[i]; i++)
			if (!strcmp(tok->text, types[i])) {
				tok = tok->next;
				return xstrdup(types[i]);
			}
	syntax_error(&tok->pos, "unknown type '%s' (known: u8..u64, s8..s64, x8..x64, string, ustring, symbol)",
		     describe(tok));
	return NULL;
}

/* Field names the kernel reserves: trace_probe.c reserved_field_names. */
static const char *const reserved[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_tgid", "__probe_ip", "__probe_ret_ip", "__probe_func", NULL,
};

/* item = NAME "=" fetch [ ":" TYPE ] | "stack" | "filter" STRING */
static void item(struct probe *p, struct field ***tail, int *nfields)
{
	struct field *f, *g;
	int i;

	if (is("stack")) {
		p->stack = true;
		tok = tok->next;
		return;
	}
	if (is("filter")) {
		tok = tok->next;
		if (tok->kind != TK_STR)
			syntax_error(&tok->pos, "expected a \"quoted\" filter expression after 'filter'");
		if (p->filter)
			syntax_error(&tok->pos, "a second filter for '%s'; combine them with && or ||",
				 p->name);
		p->filter = xstrdup(tok->text);
		p->filter_pos = tok->pos;
		if (!*p->filter)
			syntax_error(&tok->pos, "empty filter");
		tok = tok->next;
		return;
	}
	if (p->kind == P_EVENT && tok->kind == TK_WORD && tok->next &&
	    tok->next->kind == TK_PUNCT && !strcmp(tok->next->text, "="))
		syntax_error(&tok->pos, "a static event has its own fields; only 'filter' and 'stack' go in its block");
	f = xcalloc(1, sizeof(*f));
	f->pos = tok->pos;
	f->name = name("field", MAX_ARG_NAME);
	for (i = 0; reserved[i]; i++)
		if (!strcmp(f->name, reserved[i]))
			parse_error(&f->pos, "'%s' is a name the kernel reserves for its own fields",
				 f->name);
	for (g = p->fields; g; g = g->next)
		if (!strcmp(g->name, f->name))
			parse_error(&f->pos, "field '%s' is already defined in probe '%s'",
				 f->name, p->name);
	expect("=", "after a field name");
	f->fetcharg = parse_fetcharg(0);
	if (is(":")) {
		tok = tok->next;
		f->type_pos = tok->pos;
		f->type = type();
	}
	if (++*nfields > MAX_FIELDS)
		parse_error(&f->pos, "more than %d fields in one probe", MAX_FIELDS);
	**tail = f;
	*tail = &f->next;
}

/* block = "{" { item END } "}" */
static void block(struct probe *p)
{
	struct field **tail = &p->fields;
	int nfields = 0;

	struct pos open = tok->pos;

	if (!is("{"))
		return;
	tok = tok->next;
	for (;;) {
		while (tok->kind == TK_NL || is(";"))
			tok = tok->next;
		if (is("}"))
			break;
		if (tok->kind == TK_EOF) {
			syntax_error(&open, "this block of '%s' is not closed: '}' missing before the end of the file", p->name);
			return;
		}
		item(p, &tail, &nfields);
		if (!panic && !at_end() && !is("}"))
			syntax_error(&tok->pos, "unexpected '%s' in the block of '%s' (one item per line or ';')",
				     describe(tok), p->name);
		if (panic)
			recover(true);
	}
	tok = tok->next;
}

/*
 * An error for each earlier probe of @p's GROUP:NAME (in their order),
 * then @p joins them: a hash lookup, not a walk of every probe.
 */
static void check_unique(const struct probe *p)
{
	char *key = xasprintf("%s:%s", p->group, p->name);
	struct same_name *same = strmap_get(&probe_names, key, strlen(key));
	int i;

	if (!same) {
		same = xcalloc(1, sizeof(*same));
		same->key = key;
		xstrmap_put(&probe_names, key, strlen(key), same);
	} else {
		free(key);
	}
	for (i = 0; i < same->n; i++)
		parse_error(&p->pos, "%s:%s is already defined at line %d",
			    p->group, p->name, same->v[i]->pos.line);
	same->v = xrealloc_array(same->v, same->n + 1, sizeof(*same->v));
	same->v[same->n++] = p;
}

/*
 * probe = ("kprobe"|"kretprobe") NAME SYMBOL [("+"|"-") NUMBER] [block]
 *       | ("uprobe"|"uretprobe") NAME PATH ":" (NUMBER | SYMBOL ["+" NUMBER]) [block]
 *
 * A uprobe's SYMBOL is resolved to a file offset against --sysroot.
 */
static struct probe *probe(enum probe_kind kind)
{
	struct probe *p = xcalloc(1, sizeof(*p));

	p->kind = kind;
	p->pos = tok->pos;
	tok = tok->next;
	p->name = event_name("probe");
	if (kind == P_KPROBE || kind == P_KRETPROBE) {
		p->group = "kprobes";
		p->target_pos = tok->pos;
		p->target = symbol("the kernel function to probe");
		if (is("+") || is("-")) {
			if (is("-"))
				syntax_error(&tok->pos, "a probe offset counts forward from the symbol: use +OFFSET");
			tok = tok->next;
			p->offset = snumber("an offset");
			p->has_offset = true;
			if (kind == P_KRETPROBE && p->offset)
				syntax_error(&p->pos, "a kretprobe is placed on a function entry; it takes no offset");
		}
	} else {
		p->group = "uprobes";
		if (tok->kind != TK_PATH)
			syntax_error(&tok->pos, "expected PATH:OFFSET of a user-space ELF (an absolute path in the target's root), found '%s'",
				 describe(tok));
		p->target_pos = tok->pos;
		p->target = xstrdup(tok->text);
		tok = tok->next;
		expect(":", "between the path and the file offset or symbol");
		if (tok->kind == TK_WORD) {
			p->usym_pos = tok->pos;
			p->usym = symbol("a function of the ELF file");
			if (is("+")) {
				tok = tok->next;
				p->offset = snumber("an offset");
			}
		} else {
			p->offset = (long long)number("a file offset or a symbol");
			p->has_offset = true;
		}
	}
	block(p);
	return p;
}

/* event = "event" WORD ":" WORD [block] */
static struct probe *event(void)
{
	struct probe *p = xcalloc(1, sizeof(*p));

	p->kind = P_EVENT;
	p->pos = tok->pos;
	tok = tok->next;
	p->target_pos = tok->pos;
	p->group = event_name("event group");
	expect(":", "between the event group and the event (GROUP:EVENT)");
	p->name = event_name("event");
	block(p);
	return p;
}

/*
 * OPTION = WORD { "-" WORD }, written without spaces ("sym-offset"):
 * '-' is not a word character, since "@jiffies-4" must stay a symbol
 * minus an offset.
 */
static struct name *option_word(void)
{
	struct strbuf sb = { 0 };
	struct pos pos = tok->pos;
	struct name *n;

	sb_addf(&sb, "%s", tok->text);
	tok = tok->next;
	while (is("-") && tok->pos.loc == pos.loc + sb.len &&
	       tok->next->kind == TK_WORD && tok->next->pos.loc == tok->pos.loc + 1) {
		sb_addf(&sb, "-%s", tok->next->text);
		tok = tok->next->next;
	}
	n = new_name(sb.s, &pos);
	free(sb.s);
	return n;
}

/* GLOB { GLOB } : names for function lists, globs allowed */
static void glob_list(struct name **list, const char *what)
{
	/* "function stack", "graph depth 3": a list needs a name before its flags */
	if (tok->kind != TK_WORD || is("stack") || is("depth"))
		syntax_error(&tok->pos, "expected a function name after '%s'", what);
	while (tok->kind == TK_WORD && !is("stack") && !is("depth")) {
		append_name(list, new_name(tok->text, &tok->pos));
		tok = tok->next;
	}
}

/* OP = ">=" | "<=" | "==", written without a space */
static char *compare_op(void)
{
	const char *first = tok->text;
	struct pos pos = tok->pos;

	if ((is(">") || is("<") || is("=")) && tok->next->kind == TK_PUNCT &&
	    !strcmp(tok->next->text, "=") && tok->next->pos.loc == pos.loc + 1) {
		char *op = xasprintf("%s=", first);

		tok = tok->next->next;
		return op;
	}
	syntax_error(&pos, "expected a comparison: >=, <= or ==");
	return NULL;
}

/* FOP = "==" | "!=" | "<=" | ">=" | "<" | ">", written without a space */
static char *field_op(void)
{
	const struct token *t = tok;

	if (t->kind == TK_PUNCT && strchr("=!<>", t->text[0])) {
		if (t->next->kind == TK_PUNCT && !strcmp(t->next->text, "=") &&
		    t->next->pos.loc == t->pos.loc + 1) {
			tok = t->next->next;
			return xasprintf("%s=", t->text);
		}
		if (is("<") || is(">")) {
			tok = t->next;
			return xstrdup(t->text);
		}
	}
	return NULL;
}

/*
 * expectation = "expect" ( "armed" | "no" "lost"
 *             | TARGET "hits" OP NUMBER [ ("before" | "after") "init" ]
 *             | TARGET "stack" "has" WORD      (WORD: a name or ftrace glob)
 *             | TARGET "." NAME FOP ( STRING | ["-"] NUMBER | WORD ) )
 * TARGET      = WORD [ ":" WORD ]
 */
static struct expectation *expectation(const struct pos *start)
{
	struct expectation *e = xcalloc(1, sizeof(*e));
	const char *line_end;

	e->pos = tok->pos;
	line_end = strchr(start->loc, '\n');
	e->text = line_end ? xstrndup(start->loc, line_end - start->loc) :
		  xstrdup(start->loc);
	if (strchr(e->text, '#'))	/* a trailing comment is not part of it */
		*strchr(e->text, '#') = '\0';
	while (*e->text && strchr(" \t;", e->text[strlen(e->text) - 1]))
		e->text[strlen(e->text) - 1] = '\0';
	if (is("armed")) {
		e->kind = E_ARMED;
		tok = tok->next;
		return e;
	}
	if (is("no") && tok->next->kind == TK_WORD && !strcmp(tok->next->text, "lost")) {
		e->kind = E_NOLOST;
		tok = tok->next->next;
		return e;
	}
	if (tok->kind != TK_WORD)
		syntax_error(&tok->pos, "expected what to expect: a probe, GROUP:EVENT or function name, 'armed' or 'no lost'");
	e->target = xstrdup(tok->text);
	tok = tok->next;
	if (is(":")) {
		tok = tok->next;
		if (tok->kind != TK_WORD)
			syntax_error(&tok->pos, "expected the event name after '%s:'", e->target);
		e->target = xasprintf("%s:%s", e->target, tok->text);
		tok = tok->next;
	}
	if (is("hits")) {
		e->kind = E_HITS;
		tok = tok->next;
		e->op = compare_op();
		e->n = snumber("a hit count");
		if (is("before") || is("after")) {
			e->when = is("before") ? W_BEFORE_INIT : W_AFTER_INIT;
			tok = tok->next;
			if (!is("init"))
				syntax_error(&tok->pos, "expected 'init' (the start of userspace) after before/after");
			tok = tok->next;
		}
	} else if (is("stack")) {
		e->kind = E_STACK;
		tok = tok->next;
		expect("has", "after 'stack'");
		/* a glob too, as ftrace matches it: one file for two arches */
		if (tok->kind != TK_WORD)
			syntax_error(&tok->pos, "expected a function name or glob after 'stack has', found '%s'",
				     describe(tok));
		e->func = xstrdup(tok->text);
		e->func_pos = tok->pos;
		tok = tok->next;
	} else if (strchr(e->target, '.')) {
		/* PROBE.FIELD or GROUP:EVENT.FIELD: no group has a '.' */
		char *dot = strchr(e->target, '.');

		e->kind = E_FIELD;
		e->field = xstrdup(dot + 1);
		*dot = '\0';
		e->op = field_op();
		if (!e->op)
			syntax_error(&tok->pos, "expected a comparison (==, !=, <, <=, >, >=) after %s.%s",
				     e->target, e->field);
		if (tok->kind == TK_STR) {
			e->value = xasprintf("\"%s\"", tok->text);
		} else if (is("-") && tok->next->kind == TK_NUM) {
			tok = tok->next;
			e->value = xasprintf("-%s", tok->text);
		} else if (tok->kind == TK_NUM || tok->kind == TK_WORD || tok->kind == TK_PATH) {
			e->value = xstrdup(tok->text);
		} else {
			syntax_error(&tok->pos, "expected the value %s.%s must take", e->target, e->field);
		}
		tok = tok->next;
	} else {
		syntax_error(&tok->pos, "expected 'hits', 'stack has' or .FIELD OP VALUE after '%s'", e->target);
	}
	return e;
}

/*
 * statement = setting | functions | probe | event | dumping
 * Returns false at the end of the file.
 */
/*
 * The statements, a row each: the word that starts one and its rule
 * (docs/language.md).  Each rule is called with the word consumed but
 * for the probes (probe() and event() read their own keyword), and ends
 * its statement.
 */
static void stmt_function(struct program *prog, const struct pos *start)
{
	if (!prog->functions && !prog->graph)
		prog->tracer_pos = *start;
	glob_list(&prog->functions, "function");
	if (is("stack")) {
		prog->func_stack = true;
		prog->func_stack_pos = tok->pos;
		tok = tok->next;
	}
	end_statement("the function list");
}

static void stmt_notrace(struct program *prog, const struct pos *start)
{
	(void)start;
	glob_list(&prog->notrace, "notrace");
	end_statement("the notrace list");
}

static void stmt_graph(struct program *prog, const struct pos *start)
{
	if (!prog->functions && !prog->graph)
		prog->tracer_pos = *start;
	glob_list(&prog->graph, "graph");
	if (is("depth")) {
		tok = tok->next;
		prog->graph_depth = (int)number_max("a depth", 1000);
		if (prog->graph_depth < 1 || prog->graph_depth > 1000)
			syntax_error(start, "graph depth must be between 1 and 1000");
	}
	end_statement("the graph list");
}

/* kprobe, kretprobe, uprobe, uretprobe, event: the keyword not consumed */
static void stmt_probe(struct program *prog, const struct pos *start)
{
	struct probe *p;

	(void)prog;
	(void)start;
	if (is("event"))
		p = event();
	else
		p = probe(is("kprobe") ? P_KPROBE : is("kretprobe") ? P_KRETPROBE :
			  is("uprobe") ? P_UPROBE : P_URETPROBE);
	if (panic)
		return;
	check_unique(p);
	*probes_tail = p;
	probes_tail = &p->next;
	end_statement("the probe");
}

static void stmt_buffer(struct program *prog, const struct pos *start)
{
	if (prog->buffer_size)
		parse_error(start, "the buffer size is already set");
	prog->buffer_pos = *start;
	prog->buffer_size = size();
	end_statement("the buffer size");
}

static void stmt_clock(struct program *prog, const struct pos *start)
{
	if (prog->clock)
		parse_error(start, "the trace clock is already set");
	prog->clock_pos = tok->pos;
	prog->clock = symbol("a trace clock name");
	end_statement("the clock");
}

static void stmt_option(struct program *prog, const struct pos *start)
{
	(void)start;
	if (tok->kind != TK_WORD)
		syntax_error(&tok->pos, "expected a trace option name after 'option'");
	while (tok->kind == TK_WORD)
		append_name(&prog->options, option_word());
	end_statement("the options");
}

static void stmt_dump(struct program *prog, const struct pos *start)
{
	if (prog->sink)
		parse_error(start, "the dump sink is already set");
	if (is("console"))
		prog->sink = xstrdup("console");
	else if (tok->kind == TK_PATH)
		prog->sink = xstrdup(tok->text);
	else
		syntax_error(&tok->pos, "expected 'console' or an absolute path (/dev/ttyS1, /probecc.dump) after 'dump'");
	tok = tok->next;
	/* the ring buffer's own pages, for trace.dat (docs/plan.md "Raw dump") */
	if (is("raw")) {
		prog->dump_raw = true;
		tok = tok->next;
	} else if (is("text")) {
		tok = tok->next;
	} else if (tok->kind == TK_WORD) {
		syntax_error(&tok->pos, "expected the dump's form, 'raw' or 'text', or the end of the statement after the dump sink");
	}
	end_statement("the dump sink");
}

/* docs/plan.md "Target": what the running kernel says of itself */
static void stmt_capture(struct program *prog, const struct pos *start)
{
	(void)start;
	prog->capture = true;
	end_statement("capture");
}

/* the persistent ring buffer (6.12): off, or its size */
static void stmt_persist(struct program *prog, const struct pos *start)
{
	if (prog->persist_off || prog->persist_size)
		parse_error(start, "persist is already set");
	prog->persist_pos = *start;
	if (is("off")) {
		prog->persist_off = true;
		tok = tok->next;
	} else if (tok->kind == TK_NUM) {
		struct pos at = tok->pos;

		prog->persist_size = size();
		/* mapped address and size page-aligned (debugging.rst) */
		if (prog->persist_size % 4096)
			parse_error(&at, "the persistent buffer's size must be a multiple of 4K (the kernel maps whole pages)");
	} else {
		syntax_error(&tok->pos, "expected 'off' or a size (2M) after 'persist'");
	}
	end_statement("persist");
}

/* crash dump|nodump: ftrace_dump_on_oops, the ring buffer on the console at an oops or panic */
static void stmt_crash(struct program *prog, const struct pos *start)
{
	if (prog->crash_dump)
		parse_error(start, "'crash' is already set");
	if (is("dump"))
		prog->crash_dump = 1;
	else if (is("nodump"))
		prog->crash_dump = -1;
	else
		syntax_error(&tok->pos, "expected 'dump' or 'nodump' after 'crash'");
	tok = tok->next;
	end_statement("crash");
}

/* panic on oops|warn|softlockup|hung_task...: what makes the kernel panic */
static void stmt_panic(struct program *prog, const struct pos *start)
{
	(void)start;
	if (!is("on"))
		syntax_error(&tok->pos, "expected 'on' after 'panic' (panic on oops warn softlockup hung_task)");
	tok = tok->next;
	if (tok->kind != TK_WORD)
		syntax_error(&tok->pos, "expected what makes the kernel panic: oops, warn, softlockup or hung_task");
	while (tok->kind == TK_WORD) {
		if (is("oops"))
			prog->panic_on |= PANIC_ON_OOPS;
		else if (is("warn"))
			prog->panic_on |= PANIC_ON_WARN;
		else if (is("softlockup"))
			prog->panic_on |= PANIC_ON_SOFTLOCKUP;
		else if (is("hung_task"))
			prog->panic_on |= PANIC_ON_HUNG_TASK;
		else
			syntax_error(&tok->pos, "unknown 'panic on' word '%s' (known: oops, warn, softlockup, hung_task)",
				     tok->text);
		tok = tok->next;
	}
	end_statement("panic on");
}

static void stmt_window(struct program *prog, const struct pos *start)
{
	if (prog->window_ms)
		parse_error(start, "the window is already set");
	prog->window_ms = duration();
	end_statement("the window");
}

static void stmt_expect(struct program *prog, const struct pos *start)
{
	(void)prog;
	*expects_tail = expectation(start);
	while (*expects_tail)
		expects_tail = &(*expects_tail)->next;
	end_statement("the expectation");
}

static void stmt_init(struct program *prog, const struct pos *start)
{
	(void)start;
	if (tok->kind != TK_PATH)
		syntax_error(&tok->pos, "expected the absolute path of the real init");
	while (tok->kind == TK_PATH) {
		append_name(&prog->inits, new_name(tok->text, &tok->pos));
		tok = tok->next;
	}
	end_statement("the init list");
}

static const struct statement_rule {
	const char *word;
	void (*parse)(struct program *prog, const struct pos *start);
	bool keeps_word;	/* the rule reads the word itself */
} statements[] = {
	{ "function", stmt_function, false },
	{ "notrace", stmt_notrace, false },
	{ "graph", stmt_graph, false },
	{ "kprobe", stmt_probe, true },
	{ "kretprobe", stmt_probe, true },
	{ "uprobe", stmt_probe, true },
	{ "uretprobe", stmt_probe, true },
	{ "event", stmt_probe, true },
	{ "buffer", stmt_buffer, false },
	{ "clock", stmt_clock, false },
	{ "option", stmt_option, false },
	{ "dump", stmt_dump, false },
	{ "crash", stmt_crash, false },
	{ "panic", stmt_panic, false },
	{ "window", stmt_window, false },
	{ "persist", stmt_persist, false },
	{ "init", stmt_init, false },
	{ "capture", stmt_capture, false },
	{ "expect", stmt_expect, false },
};

/* statement = one of statements[], ended by a newline or ';' */
static bool statement(struct program *prog)
{
	struct strbuf known = { 0 };
	struct pos start;
	size_t i;

	while (tok->kind == TK_NL || is(";"))
		tok = tok->next;
	if (tok->kind == TK_EOF)
		return false;
	start = tok->pos;
	if (tok->kind != TK_WORD)
		syntax_error(&tok->pos, "expected a statement, found '%s'", describe(tok));

	for (i = 0; i < ARRAY_SIZE(statements); i++)
		if (is(statements[i].word)) {
			if (!statements[i].keeps_word)
				tok = tok->next;
			statements[i].parse(prog, &start);
			return true;
		}
	for (i = 0; i < ARRAY_SIZE(statements); i++)
		sb_addf(&known, "%s%s", i ? ", " : "", statements[i].word);
	syntax_error(&tok->pos, "unknown statement '%s' (known: %s)", tok->text, known.s);
	free(known.s);
	return true;
}

static const struct probe *find_probe(const struct program *prog,
				      const char *target)
{
	const struct probe *p;

	for (p = prog->probes; p; p = p->next) {
		if (p->kind == P_EVENT) {
			size_t n = strlen(p->group);

			if (!strncmp(target, p->group, n) && target[n] == ':' &&
			    !strcmp(target + n + 1, p->name))
				return p;
		} else if (!strcmp(target, p->name)) {
			return p;
		}
	}
	return NULL;
}

static bool in_list(const struct name *n, const char *s)
{
	for (; n; n = n->next)
		if (!strcmp(n->s, s))
			return true;
	return false;
}

/* @s is a whole number as strtoll/strtoull read it (0x hex, a sign). */
static bool is_number(const char *s)
{
	char *end;

	if (*s == '-')
		s++;
	strtoull(s, &end, 0);
	return end != s && !*end;
}

/*
 * An expectation's value against the field's type, as the report will
 * compare them (field_value_kind()): a string has no order, a number
 * is never a quoted string or a bare word.
 */
static void check_field_value(const struct expectation *e, const struct field *f)
{
	int bits;
	enum value_kind vk = field_value_kind(f, &bits);
	const char *type = f->type ? f->type : f->fetcharg->kind == F_COMM ?
			   "string" : "the default, hex";

	if (vk == VK_STRING && strcmp(e->op, "==") && strcmp(e->op, "!="))
		parse_error(&e->pos, "'%s.%s' is a string (%s): it compares with == or != only, not %s",
			    e->target, e->field, type, e->op);
	else if ((vk == VK_SIGNED || vk == VK_UNSIGNED) && !is_number(e->value))
		parse_error(&e->pos, "'%s.%s' is a number (%s): %s is not one (a decimal or 0x hex number)",
			    e->target, e->field, type, e->value);
}

/* Every expectation names something the file traces, in a way it records. */
static void check_expectations(const struct program *prog)
{
	const struct expectation *e;

	for (e = prog->expects; e; e = e->next) {
		const struct probe *p;
		bool func;

		if (e->kind == E_ARMED || e->kind == E_NOLOST)
			continue;
		p = find_probe(prog, e->target);
		func = in_list(prog->functions, e->target) || in_list(prog->graph, e->target);
		if (!p && !func) {
			parse_error(&e->pos, "'%s' is not a probe, event or traced function of this file",
				    e->target);
			continue;
		}
		if (e->kind == E_STACK && !(p ? p->stack : prog->func_stack))
			parse_error(&e->pos, "'%s' records no stack; add 'stack' to it", e->target);
		if (e->kind == E_FIELD) {
			const struct field *f;

			if (!p) {
				parse_error(&e->pos, "a traced function has no fields; '%s.%s' needs a probe",
					    e->target, e->field);
				continue;
			}
			if (p->kind == P_EVENT)	/* the kernel's own fields: known at run time */
				continue;
			for (f = p->fields; f; f = f->next)
				if (!strcmp(f->name, e->field))
					break;
			if (!f)
				parse_error(&e->pos, "probe '%s' has no field '%s'", e->target, e->field);
			else
				check_field_value(e, f);
		}
	}
}

/* file = { statement } EOF */
/* The map of check_unique(), emptied for the next parse(). */
static void forget_probe_names(void)
{
	size_t i;

	for (i = 0; i < probe_names.cap; i++) {
		struct same_name *same = probe_names.slots[i].val;

		if (probe_names.slots[i].key) {
			free(same->v);
			free(same->key);
			free(same);
		}
	}
	strmap_free(&probe_names);
}

struct program *parse(struct token *t, struct diags *d)
{
	struct program *prog = xcalloc(1, sizeof(*prog));
	int before = d->n;
	bool more;

	tok = t;
	diags = d;
	panic = false;
	nname_tails = 0;
	probes_tail = &prog->probes;
	expects_tail = &prog->expects;
	do {
		more = statement(prog);
		if (panic) {
			recover(false);
			more = true;
		}
	} while (more);
	forget_probe_names();
	/* what needs the whole file: only once every statement parsed */
	if (d->n != before)
		return NULL;
	if (prog->functions && prog->graph)
		parse_error(&prog->graph->pos, "'graph' needs the function_graph tracer, but 'function' at line %d already chose the function tracer; a boot has one tracer",
			 prog->functions->pos.line);
	check_expectations(prog);
	return d->n == before ? prog : NULL;
}
