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
#include "plan.h"
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

/*
 * The parser's state, passed to every rule (as check.c's and place.c's
 * are): nothing of one parse() outlives it.
 */
struct parser {
	struct token *tok;	/* the current token */
	struct diags *diags;	/* where errors go */
	/*
	 * After a syntax error, tok is @stop, an end of file that stays
	 * one, so that the rule functions return without consuming more;
	 * the item or statement loop then goes back to @err_tok and skips
	 * to the next one.
	 */
	bool panic;
	struct token *err_tok;
	/*
	 * The tails of the program's lists, so that appending n names,
	 * probes or expectations is O(n) (a walk from the head each time
	 * made 100,000 function names take 17 s: bench/README.md), and its
	 * probes by "GROUP:NAME" for check_unique().  Only lists of the
	 * program being parsed are appended to (their heads live as long as
	 * it).
	 */
	struct {
		struct name **head;	/* &prog->functions, &prog->inits, ... */
		struct name **tail;	/* the last next pointer seen */
	} name_tails[8];
	int nname_tails;
	struct probe **probes_tail;
	struct expectation **expects_tail;
	struct strmap probe_names;	/* "GROUP:NAME" -> struct same_name */
};

/* The end of file a syntax error leaves the rules at: never changes. */
static char empty[1];
static struct token stop = { .kind = TK_EOF, .text = empty, .suffix = empty,
			     .next = &stop };

/* The token stream is not what the grammar wants: skip to the next item. */
static void syntax_error(struct parser *ps, const struct pos *p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void syntax_error(struct parser *ps, const struct pos *p, const char *fmt, ...)
{
	va_list ap;

	if (!ps->panic) {
		va_start(ap, fmt);
		diag_vadd(ps->diags, p, fmt, ap);
		va_end(ap);
		ps->panic = true;
		ps->err_tok = ps->tok;
	}
	ps->tok = &stop;
}

/* Well formed but refused (a duplicate, a name of nothing): parsing goes on. */
static void parse_error(struct parser *ps, const struct pos *p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void parse_error(struct parser *ps, const struct pos *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(ps->diags, p, fmt, ap);
	va_end(ap);
}

static bool is(struct parser *ps, const char *s)
{
	return (ps->tok->kind == TK_PUNCT || ps->tok->kind == TK_WORD) &&
	       !strcmp(ps->tok->text, s);
}

/*
 * Leave panic: back at the token of the error, skip to the end of the
 * block item (@in_block: a newline, ';' or the '}', not consumed) or of
 * the statement (a newline or ';' outside any block the skipped text
 * opened).
 */
static void recover(struct parser *ps, bool in_block)
{
	int depth = 0;

	ps->tok = ps->err_tok;
	ps->panic = false;
	for (; ps->tok->kind != TK_EOF; ps->tok = ps->tok->next) {
		if (in_block) {
			if (ps->tok->kind == TK_NL || is(ps, ";") || is(ps, "}"))
				return;
			continue;
		}
		if (is(ps, "{"))
			depth++;
		else if (is(ps, "}") && depth > 0)
			depth--;
		else if (depth == 0 && (ps->tok->kind == TK_NL || is(ps, ";")))
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

static void expect(struct parser *ps, const char *s, const char *why)
{
	if (!is(ps, s))
		syntax_error(ps, &ps->tok->pos, "expected '%s' %s, found '%s'", s, why,
			 describe(ps->tok));
	ps->tok = ps->tok->next;
}

static bool at_end(struct parser *ps)
{
	return ps->tok->kind == TK_NL || ps->tok->kind == TK_EOF || is(ps, ";");
}

static void end_statement(struct parser *ps, const char *what)
{
	if (!at_end(ps) && !is(ps, "}"))
		syntax_error(ps, &ps->tok->pos, "unexpected '%s' after %s", describe(ps->tok),
			 what);
	if (ps->tok->kind != TK_EOF && !is(ps, "}"))
		ps->tok = ps->tok->next;
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

/* NAME = [A-Za-z_][A-Za-z0-9_]* , at most @max bytes: a tracefs event or field name */
static char *name(struct parser *ps, const char *what, size_t max)
{
	const char *s = ps->tok->text;
	char *r;

	if (ps->tok->kind != TK_WORD)
		syntax_error(ps, &ps->tok->pos, "expected %s name, found '%s'", what,
			 describe(ps->tok));
	if (strpbrk(s, ".*?"))
		syntax_error(ps, &ps->tok->pos,
			 "%s name '%s' may hold only letters, digits and '_'",
			 what, s);
	if (strlen(s) > max)
		syntax_error(ps, &ps->tok->pos, "%s name is %zu bytes long; the kernel allows %zu",
			 what, strlen(s), max);
	r = xstrdup(s);
	ps->tok = ps->tok->next;
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
static char *event_name(struct parser *ps, const char *what)
{
	struct pos pos = ps->tok->pos;
	char *n = name(ps, what, MAX_EVENT_NAME);

	if (!strcmp(n, "enable") || !strcmp(n, "filter"))
		parse_error(ps, &pos, "'%s' cannot name an event or a group: tracefs and bootconfig use it for the whole group's %s",
			    n, n);
	return n;
}

/* SYMBOL = a word without glob characters */
static char *symbol(struct parser *ps, const char *what)
{
	char *r;

	if (ps->tok->kind != TK_WORD)
		syntax_error(ps, &ps->tok->pos, "expected %s, found '%s'", what,
			 describe(ps->tok));
	if (has_glob(ps->tok->text))
		syntax_error(ps, &ps->tok->pos, "a glob cannot be %s; globs are for function lists", what);
	r = xstrdup(ps->tok->text);
	ps->tok = ps->tok->next;
	return r;
}

static unsigned long long number(struct parser *ps, const char *what)
{
	unsigned long long n;

	if (ps->tok->kind != TK_NUM)
		syntax_error(ps, &ps->tok->pos, "expected %s, found '%s'", what,
			 describe(ps->tok));
	if (*ps->tok->suffix)
		syntax_error(ps, &ps->tok->pos, "unexpected suffix '%s' on %s", ps->tok->suffix,
			 what);
	n = ps->tok->num;
	ps->tok = ps->tok->next;
	return n;
}

/*
 * A NUMBER no greater than @max: a signed field (offsets, indices,
 * immediates, counts) takes LLONG_MAX, so that a value is never written
 * wrapped (+18446744073709551615 is not -1).
 */
static unsigned long long number_max(struct parser *ps, const char *what, unsigned long long max)
{
	const struct token *t = ps->tok;
	unsigned long long n = number(ps, what);

	if (n > max) {
		syntax_error(ps, &t->pos, "%s out of range: at most %llu", what, max);
		return 0;
	}
	return n;
}

static long long snumber(struct parser *ps, const char *what)
{
	return (long long)number_max(ps, what, LLONG_MAX);
}

static struct name *new_name(const char *s, const struct pos *pos)
{
	struct name *n = xcalloc(1, sizeof(*n));

	n->s = xstrdup(s);
	n->pos = *pos;
	return n;
}

/* The probes of one "GROUP:NAME", in the order they came. */
struct same_name {
	char *key;		/* owned: the map's key */
	const struct probe **v;
	int n;
};

static void append_name(struct parser *ps, struct name **list, struct name *n)
{
	struct name **t;
	int i;

	for (i = 0; i < ps->nname_tails && ps->name_tails[i].head != list; i++)
		;
	if (i == ps->nname_tails) {
		if (i == (int)(sizeof(ps->name_tails) / sizeof(ps->name_tails[0])))
			internal_error("more than %d name lists", i);
		ps->name_tails[ps->nname_tails].head = list;
		ps->name_tails[ps->nname_tails++].tail = list;
	}
	for (t = ps->name_tails[i].tail; *t; t = &(*t)->next)
		;
	*t = n;
	ps->name_tails[i].tail = &n->next;
}

/* SIZE = NUMBER [ "K" | "M" | "G" ] */
static unsigned long long size(struct parser *ps)
{
	unsigned long long n = ps->tok->num, mul = 1;

	if (ps->tok->kind != TK_NUM)
		syntax_error(ps, &ps->tok->pos, "expected a size such as 1M, found '%s'",
			 describe(ps->tok));
	if (!strcmp(ps->tok->suffix, ""))
		mul = 1;
	else if (!strcmp(ps->tok->suffix, "K"))
		mul = 1ULL << 10;
	else if (!strcmp(ps->tok->suffix, "M"))
		mul = 1ULL << 20;
	else if (!strcmp(ps->tok->suffix, "G"))
		mul = 1ULL << 30;
	else
		syntax_error(ps, &ps->tok->pos, "unknown size suffix '%s' (use K, M or G)",
			 ps->tok->suffix);
	if (n == 0 || n > (1ULL << 40) / mul)
		syntax_error(ps, &ps->tok->pos, "size out of range");
	ps->tok = ps->tok->next;
	return n * mul;
}

/*
 * DURATION = NUMBER [ "." DIGITS ] ( "s" | "ms" ), in microseconds, at
 * least 1 us and at most one hour; a fraction finer than a microsecond
 * is an error (never rounded away).
 */
static unsigned long long duration_us(struct parser *ps)
{
	unsigned long long n = ps->tok->num, unit = 0, f = 0, fu;
	const char *d;

	if (ps->tok->kind != TK_NUM)
		syntax_error(ps, &ps->tok->pos, "expected a duration such as 8s, found '%s'",
			 describe(ps->tok));
	if (!strcmp(ps->tok->suffix, "s"))
		unit = 1000000;
	else if (!strcmp(ps->tok->suffix, "ms"))
		unit = 1000;
	else
		syntax_error(ps, &ps->tok->pos, "a duration needs a unit: s or ms");
	if (n > 3600)	/* no wrap into range */
		syntax_error(ps, &ps->tok->pos, "duration must be between 1us and 3600s");
	n *= unit;
	for (d = ps->tok->frac, fu = unit / 10; d && *d; d++, fu /= 10) {
		if (!fu) {
			if (*d != '0')
				syntax_error(ps, &ps->tok->pos, "'%s' is finer than a microsecond", ps->tok->text);
			continue;
		}
		f += (unsigned long long)(*d - '0') * fu;
	}
	n += f;
	if (n == 0 || n > 3600ULL * 1000000)
		syntax_error(ps, &ps->tok->pos, "duration must be between 1us and 3600s");
	ps->tok = ps->tok->next;
	return n;
}

/* DURATION in whole milliseconds (the window), at most one hour */
static unsigned duration(struct parser *ps)
{
	struct pos pos = ps->tok->pos;
	unsigned long long us = duration_us(ps);

	if (us % 1000)
		syntax_error(ps, &pos, "the window is whole milliseconds");
	return (unsigned)(us / 1000);
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
static void ident_word(struct parser *ps, char **first, struct access ***tail)
{
	const char *w = ps->tok->text, *dot;
	struct pos pos = ps->tok->pos;

	for (;;) {
		size_t n;

		dot = strchr(w, '.');
		n = dot ? (size_t)(dot - w) : strlen(w);
		if (!is_ident(w, n))
			syntax_error(ps, &pos, "'%.*s' is not a C name (letters, digits and '_', not starting with a digit)",
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
	ps->tok = ps->tok->next;
}

/*
 * cvar  = IDENT { "." IDENT | "->" IDENT | "[" NUMBER "]" }
 * IDENT = [A-Za-z_][A-Za-z0-9_]*
 *
 * A parameter, local or global of the probed function by its C name,
 * resolved from the DWARF of --vmlinux or --sysroot (compiler/resolve.c).  The
 * lexer keeps "a.b" as one word; it is split here.
 */
static struct fetcharg *cvar(struct parser *ps, struct fetcharg *f)
{
	struct access **tail = &f->path;

	f->kind = F_VAR;
	ident_word(ps, &f->name, &tail);
	for (;;) {
		if (is(ps, "-") && ps->tok->next->kind == TK_PUNCT &&
		    !strcmp(ps->tok->next->text, ">")) {
			struct access *a = xcalloc(1, sizeof(*a));

			a->kind = A_ARROW;
			ps->tok = ps->tok->next->next;
			a->pos = ps->tok->pos;
			if (ps->tok->kind != TK_WORD)
				syntax_error(ps, &ps->tok->pos, "expected a member name after '->', found '%s'",
					 describe(ps->tok));
			*tail = a;
			tail = &a->next;
			ident_word(ps, &a->member, &tail);
		} else if (is(ps, "[")) {
			struct access *a = xcalloc(1, sizeof(*a));

			a->kind = A_INDEX;
			ps->tok = ps->tok->next;
			a->pos = ps->tok->pos;
			a->index = snumber(ps, "a constant array index");
			expect(ps, "]", "to close the array index");
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
static struct fetcharg *parse_fetcharg(struct parser *ps, int depth)
{
	struct fetcharg *f = xcalloc(1, sizeof(*f));

	f->pos = ps->tok->pos;
	if (is(ps, "+") || is(ps, "-")) {
		bool neg = is(ps, "-");

		if (depth >= MAX_DEREF)
			syntax_error(ps, &ps->tok->pos, "dereferences nest at most %d deep",
				 MAX_DEREF);
		ps->tok = ps->tok->next;
		f->kind = F_DEREF;
		f->n = snumber(ps, "a dereference offset");
		if (neg)
			f->n = -f->n;
		expect(ps, "(", "after a dereference offset");
		f->inner = parse_fetcharg(ps, depth + 1);
		expect(ps, ")", "to close the dereference");
		return f;
	}
	if (is(ps, "$")) {
		const char *w;

		ps->tok = ps->tok->next;
		if (ps->tok->kind != TK_WORD)
			syntax_error(ps, &f->pos, "expected retval, comm or stack after '$'");
		w = ps->tok->text;
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
				syntax_error(ps, &ps->tok->pos, "stack slot '$%s' out of range: at most $stack%u", w, UINT_MAX);
			f->n = (long long)n;
		} else if (!strncmp(w, "arg", 3)) {
			syntax_error(ps, &ps->tok->pos, "write argument N as 'argN' (probecc maps it to the target ABI), not '$%s'", w);
		} else {
			syntax_error(ps, &ps->tok->pos, "unknown special variable '$%s' (known: $retval, $comm, $stack, $stackN)", w);
		}
		ps->tok = ps->tok->next;
		return f;
	}
	if (is(ps, "%")) {
		ps->tok = ps->tok->next;
		if (ps->tok->kind != TK_WORD)
			syntax_error(ps, &ps->tok->pos, "expected a register name after '%%'");
		f->kind = F_REG;
		f->name = xstrdup(ps->tok->text);
		ps->tok = ps->tok->next;
		return f;
	}
	if (is(ps, "@")) {
		ps->tok = ps->tok->next;
		if (ps->tok->kind == TK_NUM) {
			f->kind = F_ADDR;
			f->n = (long long)number(ps, "an address");
			return f;
		}
		f->kind = F_SYM;
		f->name = symbol(ps, "a symbol after '@'");
		if (is(ps, "+") || is(ps, "-")) {
			bool neg = is(ps, "-");

			ps->tok = ps->tok->next;
			f->n = snumber(ps, "a symbol offset");
			if (neg)
				f->n = -f->n;
		}
		return f;
	}
	if (ps->tok->kind == TK_NUM) {
		f->kind = F_IMM;
		f->n = snumber(ps, "an immediate");
		return f;
	}
	if (ps->tok->kind == TK_WORD && !strncmp(ps->tok->text, "arg", 3)) {
		const char *d = ps->tok->text + 3;

		if (*d && strspn(d, "0123456789") == strlen(d)) {
			f->kind = F_ARG;
			f->n = strtoll(d, NULL, 10);
			if (f->n < 1)
				syntax_error(ps, &ps->tok->pos, "arguments are numbered from arg1");
			if (f->n > MAX_FIELDS)
				syntax_error(ps, &ps->tok->pos, "arg%lld: a function has at most %d arguments here",
					 f->n, MAX_FIELDS);
			ps->tok = ps->tok->next;
			return f;
		}
	}
	if (ps->tok->kind == TK_WORD) {
		if (depth)
			syntax_error(ps, &ps->tok->pos, "a C name cannot be inside +OFFS(...); write the whole access in C (p->member, p->q->r, a[2])");
		return cvar(ps, f);
	}
	syntax_error(ps, &ps->tok->pos, "expected a fetch argument (argN, a C name, $retval, $comm, $stack, %%REG, @SYM, +OFFS(...)), found '%s'",
		     describe(ps->tok));
	return f;
}

static const char *const types[] = {
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
	"x8", "x16", "x32", "x64", "string", "ustring", "symbol", NULL,
};

/* TYPE = u8 .. x64 | string | ustring | symbol  (trace_probe.c probe_fetch_types) */
static char *type(struct parser *ps)
{
	int i;

	if (ps->tok->kind == TK_WORD)
		for (i = 0; types[i]; i++)
			if (!strcmp(ps->tok->text, types[i])) {
				ps->tok = ps->tok->next;
				return xstrdup(types[i]);
			}
	syntax_error(ps, &ps->tok->pos, "unknown type '%s' (known: u8..u64, s8..s64, x8..x64, string, ustring, symbol)",
		     describe(ps->tok));
	return NULL;
}

/* Field names the kernel reserves: trace_probe.c reserved_field_names. */
static const char *const reserved[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_tgid", "__probe_ip", "__probe_ret_ip", "__probe_func", NULL,
};

/*
 * The NUMBER of "stack BYTES" (a uprobe's) and "stack user BYTES" (a
 * kprobe's) at ps->tok: the bytes of user stack the agent
 * copies per hit.  perf_copy_attr() (kernel/events/core.c) takes a
 * multiple of 8, and the sample must fit a record's u16 size.
 */
static unsigned int ustack_bytes(struct parser *ps)
{
	struct pos at = ps->tok->pos;
	unsigned long long n = number(ps, "the bytes of user stack");

	if (n < 8 || n > PLAN_USTACK_MAX || n % 8)
		syntax_error(ps, &at, "user stack size %llu: a multiple of 8 from 8 to %u bytes (perf's sample_stack_user)",
			     n, PLAN_USTACK_MAX);
	return n;
}

/*
 * item = NAME "=" fetch [ ":" TYPE ] | "stack" [NUMBER] | "stack" "user" [NUMBER]
 *      | "filter" STRING
 * A uprobe's "stack" is the user stack, NUMBER its bytes; a kprobe's or
 * event's is the kernel stack, and a kprobe's "stack user" adds the user
 * stack of the task the hit is in (perf_sample_regs_user(): the task's own
 * registers when the hit is in the kernel on its behalf).
 */
static void item(struct parser *ps, struct probe *p, struct field ***tail, int *nfields)
{
	struct field *f, *g;
	int i;

	if (is(ps, "stack")) {
		bool uprobe = p->kind == P_UPROBE || p->kind == P_URETPROBE;

		p->stack = true;
		ps->tok = ps->tok->next;
		if (is(ps, "user")) {
			if (uprobe)
				syntax_error(ps, &ps->tok->pos, "a uprobe's 'stack' is its user stack already ('stack BYTES' sets the bytes copied); 'stack user' is a kprobe's");
			else if (p->kind == P_EVENT)
				syntax_error(ps, &ps->tok->pos, "'stack user' is a kprobe's or kretprobe's: a static event's 'stack' is its kernel stack; put a kprobe on the kernel function the event is in");
			p->stack_user = true;
			p->stack_user_pos = ps->tok->pos;
			ps->tok = ps->tok->next;
			if (ps->tok->kind == TK_NUM)
				p->ustack = ustack_bytes(ps);
			return;
		}
		if (ps->tok->kind == TK_NUM) {
			if (!uprobe)
				syntax_error(ps, &ps->tok->pos, "a stack size is a user stack's: '%s' takes 'stack', or 'stack user BYTES' for the user stack of the task it hits in",
					     p->name);
			p->ustack = ustack_bytes(ps);
		}
		return;
	}
	if (is(ps, "filter")) {
		ps->tok = ps->tok->next;
		if (ps->tok->kind != TK_STR)
			syntax_error(ps, &ps->tok->pos, "expected a \"quoted\" filter expression after 'filter'");
		if (p->filter)
			syntax_error(ps, &ps->tok->pos, "a second filter for '%s'; combine them with && or ||",
				 p->name);
		p->filter = xstrdup(ps->tok->text);
		p->filter_pos = ps->tok->pos;
		if (!*p->filter)
			syntax_error(ps, &ps->tok->pos, "empty filter");
		ps->tok = ps->tok->next;
		return;
	}
	if (p->kind == P_EVENT && ps->tok->kind == TK_WORD && ps->tok->next &&
	    ps->tok->next->kind == TK_PUNCT && !strcmp(ps->tok->next->text, "="))
		syntax_error(ps, &ps->tok->pos, "a static event has its own fields; only 'filter' and 'stack' go in its block");
	f = xcalloc(1, sizeof(*f));
	f->pos = ps->tok->pos;
	f->name = name(ps, "field", MAX_ARG_NAME);
	for (i = 0; reserved[i]; i++)
		if (!strcmp(f->name, reserved[i]))
			parse_error(ps, &f->pos, "'%s' is a name the kernel reserves for its own fields",
				 f->name);
	for (g = p->fields; g; g = g->next)
		if (!strcmp(g->name, f->name))
			parse_error(ps, &f->pos, "field '%s' is already defined in probe '%s'",
				 f->name, p->name);
	expect(ps, "=", "after a field name");
	f->fetcharg = parse_fetcharg(ps, 0);
	if (is(ps, ":")) {
		ps->tok = ps->tok->next;
		f->type_pos = ps->tok->pos;
		f->type = type(ps);
	}
	if (++*nfields > MAX_FIELDS)
		parse_error(ps, &f->pos, "more than %d fields in one probe", MAX_FIELDS);
	**tail = f;
	*tail = &f->next;
}

/* block = "{" { item END } "}" */
static void block(struct parser *ps, struct probe *p)
{
	struct field **tail = &p->fields;
	int nfields = 0;

	struct pos open = ps->tok->pos;

	if (!is(ps, "{"))
		return;
	ps->tok = ps->tok->next;
	for (;;) {
		while (ps->tok->kind == TK_NL || is(ps, ";"))
			ps->tok = ps->tok->next;
		if (is(ps, "}"))
			break;
		if (ps->tok->kind == TK_EOF) {
			syntax_error(ps, &open, "this block of '%s' is not closed: '}' missing before the end of the file", p->name);
			return;
		}
		item(ps, p, &tail, &nfields);
		if (!ps->panic && !at_end(ps) && !is(ps, "}"))
			syntax_error(ps, &ps->tok->pos, "unexpected '%s' in the block of '%s' (one item per line or ';')",
				     describe(ps->tok), p->name);
		if (ps->panic)
			recover(ps, true);
	}
	ps->tok = ps->tok->next;
}

/*
 * An error for each earlier probe of @p's GROUP:NAME (in their order),
 * then @p joins them: a hash lookup, not a walk of every probe.
 */
static void check_unique(struct parser *ps, const struct probe *p)
{
	char *key = xasprintf("%s:%s", p->group, p->name);
	struct same_name *same = strmap_get(&ps->probe_names, key, strlen(key));
	int i;

	if (!same) {
		same = xcalloc(1, sizeof(*same));
		same->key = key;
		xstrmap_put(&ps->probe_names, key, strlen(key), same);
	} else {
		free(key);
	}
	for (i = 0; i < same->n; i++)
		parse_error(ps, &p->pos, "%s:%s is already defined at line %d",
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
static struct probe *probe(struct parser *ps, enum probe_kind kind)
{
	struct probe *p = xcalloc(1, sizeof(*p));

	p->kind = kind;
	p->pos = ps->tok->pos;
	ps->tok = ps->tok->next;
	p->name = event_name(ps, "probe");
	if (kind == P_KPROBE || kind == P_KRETPROBE) {
		p->group = "kprobes";
		p->target_pos = ps->tok->pos;
		p->target = symbol(ps, "the kernel function to probe");
		if (is(ps, "+") || is(ps, "-")) {
			if (is(ps, "-"))
				syntax_error(ps, &ps->tok->pos, "a probe offset counts forward from the symbol: use +OFFSET");
			ps->tok = ps->tok->next;
			p->offset = snumber(ps, "an offset");
			p->has_offset = true;
			if (kind == P_KRETPROBE && p->offset)
				syntax_error(ps, &p->pos, "a kretprobe is placed on a function entry; it takes no offset");
		}
	} else {
		p->group = "uprobes";
		if (ps->tok->kind != TK_PATH)
			syntax_error(ps, &ps->tok->pos, "expected PATH:OFFSET of a user-space ELF (an absolute path in the target's root), found '%s'",
				 describe(ps->tok));
		p->target_pos = ps->tok->pos;
		p->target = xstrdup(ps->tok->text);
		ps->tok = ps->tok->next;
		expect(ps, ":", "between the path and the file offset or symbol");
		if (ps->tok->kind == TK_WORD) {
			p->usym_pos = ps->tok->pos;
			p->usym = symbol(ps, "a function of the ELF file");
			if (is(ps, "+")) {
				ps->tok = ps->tok->next;
				p->offset = snumber(ps, "an offset");
			}
		} else {
			p->offset = (long long)number(ps, "a file offset or a symbol");
			p->has_offset = true;
		}
	}
	block(ps, p);
	return p;
}

/* event = "event" WORD ":" WORD [block] */
static struct probe *event(struct parser *ps)
{
	struct probe *p = xcalloc(1, sizeof(*p));

	p->kind = P_EVENT;
	p->pos = ps->tok->pos;
	ps->tok = ps->tok->next;
	p->target_pos = ps->tok->pos;
	p->group = event_name(ps, "event group");
	expect(ps, ":", "between the event group and the event (GROUP:EVENT)");
	p->name = event_name(ps, "event");
	block(ps, p);
	return p;
}

/*
 * OPTION = WORD { "-" WORD }, written without spaces ("sym-offset"):
 * '-' is not a word character, since "@jiffies-4" must stay a symbol
 * minus an offset.
 */
static struct name *option_word(struct parser *ps)
{
	struct strbuf sb = { 0 };
	struct pos pos = ps->tok->pos;
	struct name *n;

	sb_addf(&sb, "%s", ps->tok->text);
	ps->tok = ps->tok->next;
	while (is(ps, "-") && ps->tok->pos.loc == pos.loc + sb.len &&
	       ps->tok->next->kind == TK_WORD && ps->tok->next->pos.loc == ps->tok->pos.loc + 1) {
		sb_addf(&sb, "-%s", ps->tok->next->text);
		ps->tok = ps->tok->next->next;
	}
	n = new_name(sb.s, &pos);
	free(sb.s);
	return n;
}

/* GLOB { GLOB } : names for function lists, globs allowed */
static void glob_list(struct parser *ps, struct name **list, const char *what)
{
	/* "function stack", "graph depth 3": a list needs a name before its flags */
	if (ps->tok->kind != TK_WORD || is(ps, "stack") || is(ps, "depth"))
		syntax_error(ps, &ps->tok->pos, "expected a function name after '%s'", what);
	while (ps->tok->kind == TK_WORD && !is(ps, "stack") && !is(ps, "depth")) {
		append_name(ps, list, new_name(ps->tok->text, &ps->tok->pos));
		ps->tok = ps->tok->next;
	}
}

/* OP = ">=" | "<=" | "==", written without a space */
static char *compare_op(struct parser *ps)
{
	const char *first = ps->tok->text;
	struct pos pos = ps->tok->pos;

	if ((is(ps, ">") || is(ps, "<") || is(ps, "=")) && ps->tok->next->kind == TK_PUNCT &&
	    !strcmp(ps->tok->next->text, "=") && ps->tok->next->pos.loc == pos.loc + 1) {
		char *op = xasprintf("%s=", first);

		ps->tok = ps->tok->next->next;
		return op;
	}
	syntax_error(ps, &pos, "expected a comparison: >=, <= or ==");
	return NULL;
}

/* FOP = "==" | "!=" | "<=" | ">=" | "<" | ">", written without a space */
static char *field_op(struct parser *ps)
{
	const struct token *t = ps->tok;

	if (t->kind == TK_PUNCT && strchr("=!<>", t->text[0])) {
		if (t->next->kind == TK_PUNCT && !strcmp(t->next->text, "=") &&
		    t->next->pos.loc == t->pos.loc + 1) {
			ps->tok = t->next->next;
			return xasprintf("%s=", t->text);
		}
		if (is(ps, "<") || is(ps, ">")) {
			ps->tok = t->next;
			return xstrdup(t->text);
		}
	}
	return NULL;
}

/* A time's comparison: "<", "<=", ">" or ">=" (== has no use on a clock) */
static char *time_op(struct parser *ps, const char *what)
{
	struct pos pos = ps->tok->pos;
	char *op = field_op(ps);

	if (!op || op[0] == '=' || op[0] == '!')
		syntax_error(ps, &pos, "expected <, <=, > or >= and a duration after '%s'", what);
	return op;
}

/*
 * expectation = "expect" ( "armed" | "no" "lost"
 *             | TARGET "hits" OP NUMBER [ ("before" | "after") "init" ]
 *             | TARGET "stack" "has" WORD      (WORD: a name or ftrace glob)
 *             | TARGET "." NAME FOP ( STRING | ["-"] NUMBER | WORD ) [ QUANT ]
 *             | TARGET "first" TOP DURATION
 *             | "init" TOP DURATION
 *             | "initcall" WORD TOP DURATION )
 * TARGET      = WORD [ ":" WORD ]
 * QUANT       = "some" | "first" | "every"
 * TOP         = "<" | "<=" | ">" | ">="
 */
static struct expectation *expectation(struct parser *ps, const struct pos *start)
{
	struct expectation *e = xcalloc(1, sizeof(*e));
	const char *line_end;

	e->pos = ps->tok->pos;
	line_end = strchr(start->loc, '\n');
	e->text = line_end ? xstrndup(start->loc, line_end - start->loc) :
		  xstrdup(start->loc);
	if (strchr(e->text, '#'))	/* a trailing comment is not part of it */
		*strchr(e->text, '#') = '\0';
	while (*e->text && strchr(" \t;", e->text[strlen(e->text) - 1]))
		e->text[strlen(e->text) - 1] = '\0';
	if (is(ps, "armed")) {
		e->kind = E_ARMED;
		ps->tok = ps->tok->next;
		return e;
	}
	if (is(ps, "no") && ps->tok->next->kind == TK_WORD && !strcmp(ps->tok->next->text, "lost")) {
		e->kind = E_NOLOST;
		ps->tok = ps->tok->next->next;
		return e;
	}
	/* "init" or "initcall" then a comparison: not a probe of that name */
	if (is(ps, "init") && ps->tok->next->kind == TK_PUNCT) {
		e->kind = E_INIT;
		e->target = xstrdup("init");
		ps->tok = ps->tok->next;
		e->op = time_op(ps, "init");
		e->us = duration_us(ps);
		return e;
	}
	if (is(ps, "initcall") && ps->tok->next->kind == TK_WORD) {
		e->kind = E_INITCALL;
		ps->tok = ps->tok->next;
		e->target = xstrdup(ps->tok->text);
		e->func_pos = ps->tok->pos;
		ps->tok = ps->tok->next;
		e->op = time_op(ps, e->target);
		e->us = duration_us(ps);
		return e;
	}
	if (ps->tok->kind != TK_WORD)
		syntax_error(ps, &ps->tok->pos, "expected what to expect: a probe, GROUP:EVENT or function name, 'init', 'initcall NAME', 'armed' or 'no lost'");
	e->target = xstrdup(ps->tok->text);
	ps->tok = ps->tok->next;
	if (is(ps, ":")) {
		ps->tok = ps->tok->next;
		if (ps->tok->kind != TK_WORD)
			syntax_error(ps, &ps->tok->pos, "expected the event name after '%s:'", e->target);
		e->target = xasprintf("%s:%s", e->target, ps->tok->text);
		ps->tok = ps->tok->next;
	}
	if (is(ps, "first") && ps->tok->next->kind == TK_PUNCT) {
		e->kind = E_FIRST;
		ps->tok = ps->tok->next;
		e->op = time_op(ps, e->target);
		e->us = duration_us(ps);
	} else if (is(ps, "hits")) {
		e->kind = E_HITS;
		ps->tok = ps->tok->next;
		e->op = compare_op(ps);
		e->n = snumber(ps, "a hit count");
		if (is(ps, "before") || is(ps, "after")) {
			e->when = is(ps, "before") ? W_BEFORE_INIT : W_AFTER_INIT;
			ps->tok = ps->tok->next;
			if (!is(ps, "init"))
				syntax_error(ps, &ps->tok->pos, "expected 'init' (the start of userspace) after before/after");
			ps->tok = ps->tok->next;
		}
	} else if (is(ps, "stack")) {
		e->kind = E_STACK;
		ps->tok = ps->tok->next;
		expect(ps, "has", "after 'stack'");
		/* a glob too, as ftrace matches it: one file for two arches */
		if (ps->tok->kind != TK_WORD)
			syntax_error(ps, &ps->tok->pos, "expected a function name or glob after 'stack has', found '%s'",
				     describe(ps->tok));
		e->func = xstrdup(ps->tok->text);
		e->func_pos = ps->tok->pos;
		ps->tok = ps->tok->next;
	} else if (strchr(e->target, '.')) {
		/* PROBE.FIELD or GROUP:EVENT.FIELD: no group has a '.' */
		char *dot = strchr(e->target, '.');

		e->kind = E_FIELD;
		e->field = xstrdup(dot + 1);
		*dot = '\0';
		e->op = field_op(ps);
		if (!e->op)
			syntax_error(ps, &ps->tok->pos, "expected a comparison (==, !=, <, <=, >, >=) after %s.%s",
				     e->target, e->field);
		if (ps->tok->kind == TK_STR) {
			e->value = xasprintf("\"%s\"", ps->tok->text);
		} else if (is(ps, "-") && ps->tok->next->kind == TK_NUM) {
			ps->tok = ps->tok->next;
			e->value = xasprintf("-%s", ps->tok->text);
		} else if (ps->tok->kind == TK_NUM || ps->tok->kind == TK_WORD || ps->tok->kind == TK_PATH) {
			e->value = xstrdup(ps->tok->text);
		} else {
			syntax_error(ps, &ps->tok->pos, "expected the value %s.%s must take", e->target, e->field);
		}
		ps->tok = ps->tok->next;
		/* which hits: some (the default), the first, every */
		if (is(ps, "first") || is(ps, "every") || is(ps, "some")) {
			e->quant = is(ps, "first") ? Q_FIRST : is(ps, "every") ? Q_EVERY : Q_SOME;
			ps->tok = ps->tok->next;
		} else if (ps->tok->kind == TK_WORD) {
			syntax_error(ps, &ps->tok->pos, "expected which hits the comparison covers, 'some' (the default), 'first' or 'every', or the end of the expectation");
		}
	} else {
		syntax_error(ps, &ps->tok->pos, "expected 'hits', 'first', 'stack has' or .FIELD OP VALUE after '%s'", e->target);
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
static void stmt_function(struct parser *ps, struct program *prog, const struct pos *start)
{
	if (!prog->functions && !prog->graph)
		prog->tracer_pos = *start;
	glob_list(ps, &prog->functions, "function");
	if (is(ps, "stack")) {
		prog->func_stack = true;
		prog->func_stack_pos = ps->tok->pos;
		ps->tok = ps->tok->next;
		/* the function tracer's stacks are ftrace's: no perf event samples them */
		if (is(ps, "user"))
			syntax_error(ps, &ps->tok->pos, "'stack user' needs a perf event, which the function tracer has not: put a kprobe on the function ('kprobe NAME FUNC { stack user }')");
	}
	end_statement(ps, "the function list");
}

static void stmt_notrace(struct parser *ps, struct program *prog, const struct pos *start)
{
	(void)start;
	glob_list(ps, &prog->notrace, "notrace");
	end_statement(ps, "the notrace list");
}

static void stmt_graph(struct parser *ps, struct program *prog, const struct pos *start)
{
	if (!prog->functions && !prog->graph)
		prog->tracer_pos = *start;
	glob_list(ps, &prog->graph, "graph");
	if (is(ps, "depth")) {
		ps->tok = ps->tok->next;
		prog->graph_depth = (int)number_max(ps, "a depth", 1000);
		if (prog->graph_depth < 1 || prog->graph_depth > 1000)
			syntax_error(ps, start, "graph depth must be between 1 and 1000");
	}
	end_statement(ps, "the graph list");
}

/* kprobe, kretprobe, uprobe, uretprobe, event: the keyword not consumed */
static void stmt_probe(struct parser *ps, struct program *prog, const struct pos *start)
{
	struct probe *p;

	(void)prog;
	(void)start;
	if (is(ps, "event"))
		p = event(ps);
	else
		p = probe(ps, is(ps, "kprobe") ? P_KPROBE : is(ps, "kretprobe") ? P_KRETPROBE :
			  is(ps, "uprobe") ? P_UPROBE : P_URETPROBE);
	if (ps->panic)
		return;
	check_unique(ps, p);
	*ps->probes_tail = p;
	ps->probes_tail = &p->next;
	end_statement(ps, "the probe");
}

static void stmt_buffer(struct parser *ps, struct program *prog, const struct pos *start)
{
	if (prog->buffer_size)
		parse_error(ps, start, "the buffer size is already set");
	prog->buffer_pos = *start;
	prog->buffer_size = size(ps);
	end_statement(ps, "the buffer size");
}

static void stmt_clock(struct parser *ps, struct program *prog, const struct pos *start)
{
	if (prog->clock)
		parse_error(ps, start, "the trace clock is already set");
	prog->clock_pos = ps->tok->pos;
	prog->clock = symbol(ps, "a trace clock name");
	end_statement(ps, "the clock");
}

static void stmt_option(struct parser *ps, struct program *prog, const struct pos *start)
{
	(void)start;
	if (ps->tok->kind != TK_WORD)
		syntax_error(ps, &ps->tok->pos, "expected a trace option name after 'option'");
	while (ps->tok->kind == TK_WORD)
		append_name(ps, &prog->options, option_word(ps));
	end_statement(ps, "the options");
}

static void stmt_dump(struct parser *ps, struct program *prog, const struct pos *start)
{
	if (prog->sink)
		parse_error(ps, start, "the dump sink is already set");
	if (is(ps, "console"))
		prog->sink = xstrdup("console");
	else if (ps->tok->kind == TK_PATH)
		prog->sink = xstrdup(ps->tok->text);
	else
		syntax_error(ps, &ps->tok->pos, "expected 'console' or an absolute path (/dev/ttyS1, /probecc.dump) after 'dump'");
	ps->tok = ps->tok->next;
	/* the ring buffer's own pages, for trace.dat (docs/plan.md "Raw dump") */
	if (is(ps, "raw")) {
		prog->dump_raw = true;
		ps->tok = ps->tok->next;
	} else if (is(ps, "text")) {
		prog->dump_text = true;
		ps->tok = ps->tok->next;
	} else if (ps->tok->kind == TK_WORD) {
		syntax_error(ps, &ps->tok->pos, "expected the dump's form, 'raw' or 'text', or the end of the statement after the dump sink");
	}
	end_statement(ps, "the dump sink");
}

/* the initcall events from the command line: before any initcall */
static void stmt_initcalls(struct parser *ps, struct program *prog, const struct pos *start)
{
	if (prog->initcalls)
		parse_error(ps, start, "initcalls is already set");
	prog->initcalls = true;
	prog->initcalls_pos = *start;
	end_statement(ps, "initcalls");
}

/* docs/plan.md "Target": what the running kernel says of itself */
static void stmt_capture(struct parser *ps, struct program *prog, const struct pos *start)
{
	(void)start;
	prog->capture = true;
	end_statement(ps, "capture");
}

/* the persistent ring buffer (6.12): off, or its size */
static void stmt_persist(struct parser *ps, struct program *prog, const struct pos *start)
{
	if (prog->persist_off || prog->persist_size)
		parse_error(ps, start, "persist is already set");
	prog->persist_pos = *start;
	if (is(ps, "off")) {
		prog->persist_off = true;
		ps->tok = ps->tok->next;
	} else if (ps->tok->kind == TK_NUM) {
		struct pos at = ps->tok->pos;

		prog->persist_size = size(ps);
		/* mapped address and size page-aligned (debugging.rst) */
		if (prog->persist_size % 4096)
			parse_error(ps, &at, "the persistent buffer's size must be a multiple of 4K (the kernel maps whole pages)");
	} else {
		syntax_error(ps, &ps->tok->pos, "expected 'off' or a size (2M) after 'persist'");
	}
	end_statement(ps, "persist");
}

/*
 * instance NAME: a tracefs instance of probecc's own.  NAME becomes a
 * directory under instances/ (kernel/trace/trace.c instance_mkdir():
 * any dentry name), an entry of trace_instance= (6.3+, where ',' ends
 * the name and 6.12 reads '@' and '^' after it) and a bootconfig key
 * word (lib/bootconfig.c: [A-Za-z0-9_-]): a word without '.' fits all
 * three.  "probecc" is the persistent instance's (place.c persist()).
 */
static void stmt_instance(struct parser *ps, struct program *prog, const struct pos *start)
{
	if (prog->instance)
		parse_error(ps, start, "instance is already set");
	if (ps->tok->kind != TK_WORD)
		syntax_error(ps, &ps->tok->pos, "expected the instance's name after 'instance'");
	if (strchr(ps->tok->text, '.'))
		parse_error(ps, &ps->tok->pos, "an instance name cannot hold '.': it is a word of bootconfig's ftrace.instance.NAME keys (lib/bootconfig.c)");
	else if (strlen(ps->tok->text) > INSTANCE_NAME_MAX)
		parse_error(ps, &ps->tok->pos, "the instance name is %zu characters long; at most %d",
			    strlen(ps->tok->text), INSTANCE_NAME_MAX);
	else if (!strcmp(ps->tok->text, "probecc"))
		parse_error(ps, &ps->tok->pos, "instance 'probecc' is the persistent ring buffer's (persist): choose another name");
	prog->instance = xstrdup(ps->tok->text);
	prog->instance_pos = ps->tok->pos;
	ps->tok = ps->tok->next;
	end_statement(ps, "instance");
}

/* crash dump|nodump: ftrace_dump_on_oops, the ring buffer on the console at an oops or panic */
static void stmt_crash(struct parser *ps, struct program *prog, const struct pos *start)
{
	if (prog->crash_dump)
		parse_error(ps, start, "'crash' is already set");
	if (is(ps, "dump"))
		prog->crash_dump = 1;
	else if (is(ps, "nodump"))
		prog->crash_dump = -1;
	else
		syntax_error(ps, &ps->tok->pos, "expected 'dump' or 'nodump' after 'crash'");
	ps->tok = ps->tok->next;
	end_statement(ps, "crash");
}

/* panic on oops|warn|softlockup|hung_task...: what makes the kernel panic */
static void stmt_panic(struct parser *ps, struct program *prog, const struct pos *start)
{
	(void)start;
	if (!is(ps, "on"))
		syntax_error(ps, &ps->tok->pos, "expected 'on' after 'panic' (panic on oops warn softlockup hung_task)");
	ps->tok = ps->tok->next;
	if (ps->tok->kind != TK_WORD)
		syntax_error(ps, &ps->tok->pos, "expected what makes the kernel panic: oops, warn, softlockup or hung_task");
	while (ps->tok->kind == TK_WORD) {
		if (is(ps, "oops"))
			prog->panic_on |= PANIC_ON_OOPS;
		else if (is(ps, "warn"))
			prog->panic_on |= PANIC_ON_WARN;
		else if (is(ps, "softlockup"))
			prog->panic_on |= PANIC_ON_SOFTLOCKUP;
		else if (is(ps, "hung_task"))
			prog->panic_on |= PANIC_ON_HUNG_TASK;
		else
			syntax_error(ps, &ps->tok->pos, "unknown 'panic on' word '%s' (known: oops, warn, softlockup, hung_task)",
				     ps->tok->text);
		ps->tok = ps->tok->next;
	}
	end_statement(ps, "panic on");
}

static void stmt_window(struct parser *ps, struct program *prog, const struct pos *start)
{
	if (prog->window_ms)
		parse_error(ps, start, "the window is already set");
	prog->window_ms = duration(ps);
	end_statement(ps, "the window");
}

static void stmt_expect(struct parser *ps, struct program *prog, const struct pos *start)
{
	(void)prog;
	*ps->expects_tail = expectation(ps, start);
	while (*ps->expects_tail)
		ps->expects_tail = &(*ps->expects_tail)->next;
	end_statement(ps, "the expectation");
}

static void stmt_init(struct parser *ps, struct program *prog, const struct pos *start)
{
	(void)start;
	if (ps->tok->kind != TK_PATH)
		syntax_error(ps, &ps->tok->pos, "expected the absolute path of the real init");
	while (ps->tok->kind == TK_PATH) {
		append_name(ps, &prog->inits, new_name(ps->tok->text, &ps->tok->pos));
		ps->tok = ps->tok->next;
	}
	end_statement(ps, "the init list");
}

static const struct statement_rule {
	const char *word;
	void (*parse)(struct parser *ps, struct program *prog, const struct pos *start);
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
	{ "instance", stmt_instance, false },
	{ "init", stmt_init, false },
	{ "initcalls", stmt_initcalls, false },
	{ "capture", stmt_capture, false },
	{ "expect", stmt_expect, false },
};

/* statement = one of statements[], ended by a newline or ';' */
static bool statement(struct parser *ps, struct program *prog)
{
	struct strbuf known = { 0 };
	struct pos start;
	size_t i;

	while (ps->tok->kind == TK_NL || is(ps, ";"))
		ps->tok = ps->tok->next;
	if (ps->tok->kind == TK_EOF)
		return false;
	start = ps->tok->pos;
	if (ps->tok->kind != TK_WORD)
		syntax_error(ps, &ps->tok->pos, "expected a statement, found '%s'", describe(ps->tok));

	for (i = 0; i < ARRAY_SIZE(statements); i++)
		if (is(ps, statements[i].word)) {
			if (!statements[i].keeps_word)
				ps->tok = ps->tok->next;
			statements[i].parse(ps, prog, &start);
			return true;
		}
	for (i = 0; i < ARRAY_SIZE(statements); i++)
		sb_addf(&known, "%s%s", i ? ", " : "", statements[i].word);
	syntax_error(ps, &ps->tok->pos, "unknown statement '%s' (known: %s)", ps->tok->text, known.s);
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
static void check_field_value(struct parser *ps, const struct expectation *e, const struct field *f)
{
	int bits;
	enum value_kind vk = field_value_kind(f, &bits);
	const char *type = f->type ? f->type : f->fetcharg->kind == F_COMM ?
			   "string" : "the default, hex";

	if (vk == VK_STRING && strcmp(e->op, "==") && strcmp(e->op, "!="))
		parse_error(ps, &e->pos, "'%s.%s' is a string (%s): it compares with == or != only, not %s",
			    e->target, e->field, type, e->op);
	else if ((vk == VK_SIGNED || vk == VK_UNSIGNED) && !is_number(e->value))
		parse_error(ps, &e->pos, "'%s.%s' is a number (%s): %s is not one (a decimal or 0x hex number)",
			    e->target, e->field, type, e->value);
}

/* Every expectation names something the file traces, in a way it records. */
static void check_expectations(struct parser *ps, const struct program *prog)
{
	const struct expectation *e;

	for (e = prog->expects; e; e = e->next) {
		const struct probe *p;
		bool func;

		if (e->kind == E_ARMED || e->kind == E_NOLOST || e->kind == E_INIT)
			continue;
		if (e->kind == E_INITCALL) {
			if (!prog->initcalls)
				parse_error(ps, &e->pos, "'expect initcall %s' needs the 'initcalls' statement (the initcall events from boot)",
					    e->target);
			continue;
		}
		p = find_probe(prog, e->target);
		func = in_list(prog->functions, e->target) || in_list(prog->graph, e->target);
		if (!p && !func) {
			parse_error(ps, &e->pos, "'%s' is not a probe, event or traced function of this file",
				    e->target);
			continue;
		}
		if (e->kind == E_STACK && !(p ? p->stack : prog->func_stack))
			parse_error(ps, &e->pos, "'%s' records no stack; add 'stack' to it", e->target);
		if (e->kind == E_FIELD) {
			const struct field *f;

			if (!p) {
				parse_error(ps, &e->pos, "a traced function has no fields; '%s.%s' needs a probe",
					    e->target, e->field);
				continue;
			}
			if (p->kind == P_EVENT)	/* the kernel's own fields: known at run time */
				continue;
			for (f = p->fields; f; f = f->next)
				if (!strcmp(f->name, e->field))
					break;
			if (!f)
				parse_error(ps, &e->pos, "probe '%s' has no field '%s'", e->target, e->field);
			else
				check_field_value(ps, e, f);
		}
	}
}

/*
 * "initcalls": the events initcall:initcall_level, initcall_start and
 * initcall_finish (include/trace/events/initcall.h, 4.17+), and
 * module:module_load (a module's init is printed as the address of its
 * freed .init.text; the load before it names the module), each an
 * "event" of the file unless it names one itself, so that they are
 * placed as any event is: trace_event= on the command line, enabled by
 * trace_init() before the first initcall (init/main.c).
 */
static void add_initcall_events(struct parser *ps, struct program *prog)
{
	static const char *const names[][2] = {
		{ "initcall", "initcall_level" }, { "initcall", "initcall_start" },
		{ "initcall", "initcall_finish" },
		/* which module an init of freed .init.text belongs to */
		{ "module", "module_load" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *full = xasprintf("%s:%s", names[i][0], names[i][1]);
		struct probe *p;

		if (!find_probe(prog, full)) {
			p = xcalloc(1, sizeof(*p));
			p->kind = P_EVENT;
			p->group = xstrdup(names[i][0]);
			p->name = xstrdup(names[i][1]);
			p->pos = p->target_pos = prog->initcalls_pos;
			*ps->probes_tail = p;
			ps->probes_tail = &p->next;
		}
		free(full);
	}
}

/* file = { statement } EOF */
/* The map of check_unique(), emptied for the next parse(). */
static void forget_probe_names(struct parser *ps)
{
	size_t i;

	for (i = 0; i < ps->probe_names.cap; i++) {
		struct same_name *same = ps->probe_names.slots[i].val;

		if (ps->probe_names.slots[i].key) {
			free(same->v);
			free(same->key);
			free(same);
		}
	}
	strmap_free(&ps->probe_names);
}

struct program *parse(struct token *t, struct diags *d)
{
	struct program *prog = xcalloc(1, sizeof(*prog));
	struct parser p = { .tok = t, .diags = d, .probes_tail = &prog->probes,
			    .expects_tail = &prog->expects }, *ps = &p;
	int before = d->n;
	bool more;

	do {
		more = statement(ps, prog);
		if (ps->panic) {
			recover(ps, false);
			more = true;
		}
	} while (more);
	forget_probe_names(ps);
	/* what needs the whole file: only once every statement parsed */
	if (d->n != before)
		return NULL;
	if (prog->functions && prog->graph)
		parse_error(ps, &prog->graph->pos, "'graph' needs the function_graph tracer, but 'function' at line %d already chose the function tracer; a boot has one tracer",
			 prog->functions->pos.line);
	/*
	 * probecc report reads a function_graph trace only from raw dumps
	 * (its text lines have no task or time): where the file names no
	 * form, 'graph' takes the one that works, and --explain says so.
	 */
	if (prog->graph && !prog->dump_raw && !prog->dump_text) {
		prog->dump_raw = true;
		prog->dump_raw_implied = true;
	}
	if (prog->initcalls)
		add_initcall_events(ps, prog);
	check_expectations(ps, prog);
	return d->n == before ? prog : NULL;
}
