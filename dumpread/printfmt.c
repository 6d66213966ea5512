// SPDX-License-Identifier: GPL-2.0
/*
 * The "print fmt:" line of a format file (events/SYS/EVENT/format, the
 * kernel's kernel/trace/trace_events.c, f_show()), read for the one thing
 * libtraceevent does not check in it: a division by zero.
 *
 * libtraceevent 1.7 (src/event-parse.c) divides without looking at the
 * divisor in two places.  At parse time, tep_parse_event() folds every
 * "/" or "%" whose two operands are atoms (consolidate_op_arg(): each
 * read with strtoull(), so a name that is not a number reads as 0), and
 * "1 % 0", "__get_str % name" or "8 / (2 - 2)" end it by SIGFPE.  At
 * print time, eval_num_arg() divides by whatever the right operand gives,
 * again strtoull() for an atom.  So a divisor that is a constant 0, a
 * bare name (an enum or macro the kernel left unexpanded) or a constant
 * expression worth 0 is refused here, before the library is given the
 * file.  A divisor read from a record's field ("REC->total") is the
 * record's business: the report reads the trace.dat in a child
 * (child_call()), whose SIGFPE is an error naming the signal.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dumpread-local.h"

/* A value of an operand: a constant (as libtraceevent computes it), or not. */
struct val {
	bool constant;
	unsigned long long v;
};

struct pf {
	const char *p, *end;
	const char *zero;	/* the first divisor worth 0, NULL if none */
	size_t zero_len;
	int depth;		/* of operands in operands: bounded recursion */
	bool deep;		/* deeper than PF_DEPTH */
};

#define PF_DEPTH	64	/* the kernel's own formats nest a few */

static void skip_space(struct pf *s)
{
	while (s->p < s->end && isspace((unsigned char)*s->p))
		s->p++;
}

static bool is_name(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static struct val expr(struct pf *s, int min_prio);

static struct val unary_in(struct pf *s);

/* An operand (unary_in()), its nesting bounded. */
static struct val unary(struct pf *s)
{
	struct val r = { false, 0 };

	if (s->depth >= PF_DEPTH) {
		s->deep = true;
		return r;
	}
	s->depth++;
	r = unary_in(s);
	s->depth--;
	return r;
}

/*
 * The operand right of an operator, as libtraceevent's process_arg()
 * reads one: unary operators, a parenthesised group or a cast (a group
 * followed by an operand), a number or name (an atom: strtoull()), a
 * field "REC->name", a call "name(...)".  What it cannot tell is not a
 * constant.
 */
static struct val unary_in(struct pf *s)
{
	struct val r = { false, 0 };
	const char *t;
	char tok[64];
	size_t n;

	skip_space(s);
	if (s->p >= s->end)
		return r;
	t = s->p;
	if (*t && strchr("-+~!", *t)) {
		s->p++;
		r = unary(s);
		if (*t == '-')
			r.v = -r.v;
		else if (*t == '~')
			r.v = ~r.v;
		else if (*t == '!')
			r.v = !r.v;
		return r;
	}
	if (*t == '(') {
		s->p++;
		r = expr(s, 0);
		skip_space(s);
		if (s->p < s->end && *s->p != ')') {
			/* a type of more words ("unsigned long *") is a cast */
			s->p += strspn(s->p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ \t*");
			r.constant = false;
		}
		/* not an expression: the caller reads on */
		if (s->p >= s->end || *s->p != ')')
			return (struct val){ false, 0 };
		s->p++;
		skip_space(s);
		/* "(type) operand": a cast, the operand's value */
		if (s->p < s->end && (is_name(*s->p) || *s->p == '('))
			return unary(s);
		return r;
	}
	if (!is_name(*t))
		return r;
	for (n = 0; s->p < s->end && is_name(*s->p); s->p++, n++)
		;
	skip_space(s);
	if (s->p < s->end && (*s->p == '(' || *s->p == '[' ||
	    (*s->p == '-' && s->p + 1 < s->end && s->p[1] == '>')))
		return r;	/* a call, an array or a field: read at print time */
	/* an atom: libtraceevent's strtoull() of the token */
	snprintf(tok, sizeof(tok), "%.*s", (int)(n < sizeof(tok) - 1 ? n : sizeof(tok) - 1), t);
	r.constant = true;
	r.v = strtoull(tok, NULL, 0);
	return r;
}

/* The binary operators of C libtraceevent folds, by priority (higher binds tighter). */
static int binary_op(const char *p, const char *end, size_t *len)
{
	static const struct {
		const char *op;
		int prio;
	} ops[] = {
		{ "<<", 9 }, { ">>", 9 }, { "<=", 8 }, { ">=", 8 }, { "==", 7 },
		{ "!=", 7 }, { "&&", 3 }, { "||", 2 }, { "*", 11 }, { "/", 11 },
		{ "%", 11 }, { "+", 10 }, { "-", 10 }, { "<", 8 }, { ">", 8 },
		{ "&", 6 }, { "^", 5 }, { "|", 4 },
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		*len = strlen(ops[i].op);
		if ((size_t)(end - p) >= *len && !memcmp(p, ops[i].op, *len))
			return ops[i].prio;
	}
	return 0;
}

static unsigned long long apply(const char *op, size_t len, unsigned long long l,
				unsigned long long r)
{
	char two = len > 1 ? op[1] : '\0';

	switch (op[0]) {
	case '*': return l * r;
	case '/': return l / r;
	case '%': return l % r;
	case '+': return l + r;
	case '-': return l - r;
	case '^': return l ^ r;
	case '<': return two == '<' ? l << (r & 63) : two == '=' ? l <= r : l < r;
	case '>': return two == '>' ? l >> (r & 63) : two == '=' ? l >= r : l > r;
	case '=': return l == r;
	case '!': return l != r;
	case '&': return two == '&' ? l && r : l & r;
	case '|': return two == '|' ? l || r : l | r;
	}
	return 0;
}

/* An expression, by precedence climbing; a divisor worth 0 is noted in @s. */
static struct val expr(struct pf *s, int min_prio)
{
	struct val l = unary(s), r;
	const char *op, *rhs;
	size_t len;
	int prio;

	for (;;) {
		skip_space(s);
		prio = s->p < s->end ? binary_op(s->p, s->end, &len) : 0;
		if (!prio || prio < min_prio)
			return l;
		op = s->p;
		s->p += len;
		skip_space(s);
		rhs = s->p;
		r = expr(s, prio + 1);
		if ((*op == '/' || *op == '%') && r.constant && !r.v) {
			if (!s->zero) {
				s->zero = rhs;
				s->zero_len = s->p - rhs;
			}
			l.constant = false;
			continue;
		}
		l.constant = l.constant && r.constant;
		l.v = l.constant ? apply(op, len, l.v, r.v) : 0;
	}
}

/*
 * printfmt_check() - whether libtraceevent can be given the print fmt
 * arguments @args (@len bytes: what follows "print fmt: " on its line).
 * Every "/" and "%" outside the string and character literals is looked
 * at: its divisor must not be worth 0 as libtraceevent reads it.  And
 * nothing nests deeper than PF_DEPTH: libtraceevent's parser recurses
 * for each level, without a bound.
 * Returns 0, or -EINVAL with what is wrong in @why (@size bytes).
 */
int printfmt_check(const char *args, size_t len, char *why, size_t size)
{
	struct pf s = { .p = args, .end = args + len };
	const char *q;
	int parens = 0;

	while (s.p < s.end && !s.zero && !s.deep) {
		char c = *s.p;

		parens += (c == '(') - (c == ')');
		if (parens > PF_DEPTH)
			s.deep = true;

		if (c == '"' || c == '\'') {
			for (q = s.p + 1; q < s.end && *q != c; q++)
				if (*q == '\\' && q + 1 < s.end)
					q++;
			s.p = q < s.end ? q + 1 : q;
			continue;
		}
		if (c == '/' || c == '%') {
			const char *rhs;
			struct val r;

			s.p++;
			skip_space(&s);
			rhs = s.p;
			r = unary(&s);
			if (r.constant && !r.v) {
				s.zero = rhs;
				s.zero_len = s.p - rhs;
			}
			continue;
		}
		s.p++;
	}
	if (s.deep) {
		snprintf(why, size, "print fmt nested deeper than %d parentheses or operators", PF_DEPTH);
		return -EINVAL;
	}
	if (!s.zero)
		return 0;
	while (s.zero_len && isspace((unsigned char)s.zero[s.zero_len - 1]))
		s.zero_len--;
	snprintf(why, size, "print fmt divides by '%.*s', which libtraceevent reads as 0 and divides by unchecked (SIGFPE)",
		 (int)(s.zero_len > 40 ? 40 : s.zero_len), s.zero);
	return -EINVAL;
}
