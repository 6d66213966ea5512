// SPDX-License-Identifier: GPL-2.0
/*
 * C names and raw offsets checked against the kernel's BTF
 * (facts/btf.h), read by probecc itself: no DWARF and no kernel
 * support for BTF names needed, so any kernel with
 * CONFIG_DEBUG_INFO_BTF (6.1 amd64 as much as 6.12) gets them.
 *
 *  - btf_resolve_probe(): a kprobe at a function's entry, its fields
 *    written dev->name, a.b, p->q[2]: the parameter is its position in
 *    the prototype (argN: the ABI's register, compiler/abi.c), every
 *    member an offset, the type the member's;
 *  - btf_check_raw(): a field written +OFF(argN):TYPE at a function's
 *    entry is compared with the member of *argN at OFF, and a mismatch
 *    is a warning naming the member there and where the field's name
 *    is (+0(arg1):string of register_netdevice on 6.12);
 *  - btf_for_function(): a module's function is looked up in its
 *    module's BTF (the .ko's .BTF under --modules, split on the
 *    kernel's), read once per module.
 *
 * BTF describes types, not locations: a parameter is found by its
 * position, which holds at the entry only (trace_kprobe.c gives $argN
 * the same meaning) and only while every parameter before it takes
 * one register or stack slot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "compiler.h"
#include "kernel.h"

/* Modules' BTF read so far: one read of a .ko per module a probe names. */
struct btf_modules {
	struct btf_module {
		char *name;
		struct kbtf *b;		/* NULL: could not be read */
		char *why;		/* and why */
	} *v;
	size_t n, cap;
};

/* The module of function @func when the kernel has it only there, or NULL. */
static const char *module_of(const struct kernel *k, const char *func)
{
	const struct ksym *s;
	const char *mod = NULL;

	for (s = k ? ksym_find(k, func) : NULL; s; s = ksym_next(k, s)) {
		if (!s->module)
			return NULL;
		if (!mod)
			mod = s->module;
	}
	return mod;
}

struct btf_modules *btf_modules_new(void)
{
	return xcalloc(1, sizeof(struct btf_modules));
}

const struct kbtf *btf_for_function(const struct target *t, const char *func,
				    char *why, size_t n)
{
	struct btf_modules *m = t->btf_mods;
	struct btf_module *bm = NULL;
	struct errmsg e;
	const char *mod;
	char *path;
	size_t i;

	why[0] = '\0';
	if (kbtf_func(t->btf, func) >= 0)
		return t->btf;
	mod = module_of(t->k, func);
	if (!mod)
		return NULL;
	for (i = 0; m && i < m->n; i++)
		if (!strcmp(m->v[i].name, mod))
			bm = &m->v[i];
	if (!bm) {
		struct btf_module one = { .name = xstrdup(mod) };

		path = t->modules ? ko_find(t->modules, mod) : NULL;
		if (!t->modules)
			one.why = xasprintf("its BTF is in %s.ko's .BTF section: give --modules DIR (/lib/modules/RELEASE of the image) to read it",
					    mod);
		else if (!path)
			one.why = xasprintf("--modules %s has no %s.ko (nor %s.ko.xz) for its BTF",
					    t->modules, mod, mod);
		else if (!(one.b = kbtf_open_module(path, t->btf, t->k->release, &e)))
			one.why = xstrdup(e.msg);
		free(path);
		if (!m) {
			bm = xcalloc(1, sizeof(*bm));	/* no cache: the compiler's life */
			*bm = one;
		} else {
			ALLOC_GROW(m->v, m->n + 1, m->cap);
			m->v[m->n] = one;
			bm = &m->v[m->n++];
		}
	}
	if (!bm->b) {
		snprintf(why, n, "'%s' is a function of module %s: %s", func, mod, bm->why);
		return NULL;
	}
	return kbtf_func(bm->b, func) >= 0 ? bm->b : NULL;
}

/* A value being built: the fetch of an address or of the value itself. */
struct bval {
	struct fetcharg *f;	/* the value (mem false) or the base address (mem true) */
	long long add;		/* mem: bytes from f */
	bool mem;
};

static struct fetcharg *fetch_new(enum fetcharg_kind kind, const struct pos *pos)
{
	struct fetcharg *f = xcalloc(1, sizeof(*f));

	f->kind = kind;
	f->pos = *pos;
	return f;
}

/* The value at @v as a fetch (a load when @v is in memory). */
static struct fetcharg *value_of(const struct bval *v, const struct pos *pos)
{
	struct fetcharg *d;

	if (!v->mem)
		return v->f;
	d = fetch_new(F_DEREF, pos);
	d->n = v->add;
	d->inner = v->f;
	return d;
}

/* The fetcharg type of a scalar, or NULL. */
static const char *scalar_type(const struct kbtf_type *t, char *buf, size_t n)
{
	if ((t->cls == KBTF_INT || t->cls == KBTF_ENUM) &&
	    (t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8)) {
		snprintf(buf, n, "%c%lld", t->is_signed ? 's' : 'u', t->size * 8);
		return buf;
	}
	if (t->cls == KBTF_PTR) {
		snprintf(buf, n, "x%lld", t->size * 8);
		return buf;
	}
	return NULL;
}

/*
 * Whether parameters 1..@n of @func each take one argument register or
 * stack slot (a scalar or pointer no wider than a long): then argN is
 * parameter N.  A wider one (a u64 on a 32-bit ABI takes a register
 * pair) or a struct passed by value moves the ones after it.
 */
static bool positions_hold(const struct kbtf *b, const char *func, int n,
			   const struct abi *abi, const char **bad)
{
	int i;

	for (i = 1; i <= n; i++) {
		struct kbtf_type t;
		const char *name;
		int type;

		if (kbtf_param(b, func, i, &name, &type) || kbtf_peel(b, type, &t) ||
		    t.size <= 0 || t.size > abi->long_bytes ||
		    t.cls == KBTF_STRUCT || t.cls == KBTF_UNION) {
			*bad = name ? name : "?";
			return false;
		}
	}
	return true;
}

/* One field; false with the error in @d. */
static bool resolve_field(const struct kbtf *b, const struct probe *p,
			  const struct target *t, struct field *f,
			  struct strbuf *why, struct diags *d)
{
	const struct fetcharg *v = f->fetcharg;
	const struct abi *abi = probe_abi(p, t);
	struct strbuf expr = { 0 };
	const struct access *a;
	struct kbtf_type ty;
	struct bval val;
	unsigned bitsize = 0;
	long long bitoff = 0;
	char *tn, buf[32];
	const char *bad;
	int type, n, merr;

	n = kbtf_param_find(b, p->target, v->name, &type);
	if (n < 0) {
		diag_add(d, &p->target_pos, "the kernel's BTF (%s) has no function '%s' (%s; an inlined or renamed one has none): give --vmlinux for its DWARF, or write argN",
			 kbtf_what(b), p->target, t->modules ? "nor has a module under --modules" :
			 "a module's function has its BTF in its .ko: give --modules DIR, the image's /lib/modules/RELEASE");
		return false;
	}
	if (n == 0) {
		struct suggest sg;
		char *dym;

		suggest_init(&sg, v->name);
		kbtf_param_names(b, p->target, &sg);
		dym = suggest_text(&sg);
		diag_add(d, &v->pos, "%s has no parameter '%s' in the kernel's BTF (only parameters are known without DWARF: no local variables, no globals)%s",
			 p->target, v->name, dym);
		free(dym);
		return false;
	}
	if (!positions_hold(b, p->target, n, abi, &bad)) {
		if (strcmp(bad, v->name))
			diag_add(d, &v->pos, "'%s' is parameter %d of %s, but parameter '%s' before it does not fit one %s register (a struct or a value wider than %d bytes): its register is not known from BTF; give --vmlinux for its DWARF",
				 v->name, n, p->target, bad, abi->arch, abi->long_bytes);
		else
			diag_add(d, &v->pos, "'%s', parameter %d of %s, does not fit one %s register (a struct or a value wider than %d bytes): where it is is not known from BTF; give --vmlinux for its DWARF",
				 v->name, n, p->target, abi->arch, abi->long_bytes);
		return false;
	}
	val.f = fetch_new(F_ARG, &v->pos);
	val.f->n = n;
	val.add = 0;
	val.mem = false;
	tn = kbtf_type_str(b, type);
	sb_addf(why, "%s: parameter %d of %s (%s) -> arg%d", v->name, n, p->target, tn, n);
	free(tn);
	sb_addf(&expr, "%s", v->name);
	for (a = v->path; a; a = a->next) {
		if (kbtf_peel(b, type, &ty)) {
			diag_add(d, &a->pos, "'%s': damaged BTF (type %d)", expr.s, type);
			return false;
		}
		if (bitsize) {
			diag_add(d, &a->pos, "'%s' is a bitfield", expr.s);
			return false;
		}
		if (a->kind == A_DOT || a->kind == A_ARROW) {
			struct kbtf_type agg = ty;
			struct kbtf_member m;

			if (a->kind == A_ARROW) {
				if (ty.cls != KBTF_PTR) {
					tn = kbtf_type_str(b, type);
					diag_add(d, &a->pos, "'%s' is %s, not a pointer%s", expr.s, tn,
						 ty.cls == KBTF_STRUCT || ty.cls == KBTF_UNION ?
						 "; write '.' for its member" : "");
					free(tn);
					return false;
				}
				if (kbtf_peel(b, ty.ref, &agg) ||
				    (agg.cls != KBTF_STRUCT && agg.cls != KBTF_UNION)) {
					tn = kbtf_type_str(b, ty.ref);
					diag_add(d, &a->pos, "'%s' points to %s, not to a struct or union",
						 expr.s, tn);
					free(tn);
					return false;
				}
				val.f = value_of(&val, &a->pos);
				val.add = 0;
				val.mem = true;
			} else if (ty.cls != KBTF_STRUCT && ty.cls != KBTF_UNION) {
				tn = kbtf_type_str(b, type);
				diag_add(d, &a->pos, "'%s' is %s, not a struct or union%s", expr.s, tn,
					 ty.cls == KBTF_PTR ? "; write '->' for a member through a pointer" : "");
				free(tn);
				return false;
			} else if (!val.mem) {
				diag_add(d, &a->pos, "'%s' is a struct passed in registers: members of it are not supported",
					 expr.s);
				return false;
			}
			merr = kbtf_member(b, agg.id, a->member, &m);
			if (merr == -E2BIG) {
				tn = kbtf_type_str(b, agg.id);
				diag_add(d, &a->pos, "%s: damaged BTF: member '%s' of %s is looked for through more than 4096 members (anonymous structs or unions holding one another)",
					 kbtf_what(b), a->member, tn);
				free(tn);
				return false;
			}
			if (merr) {
				struct suggest sg;
				char *dym;

				suggest_init(&sg, a->member);
				kbtf_member_names(b, agg.id, &sg);
				dym = suggest_text(&sg);
				tn = kbtf_type_str(b, agg.id);
				diag_add(d, &a->pos, "%s has no member '%s' (%s)%s",
					 tn, a->member, b == t->btf ? "the kernel's BTF" : "its module's BTF", dym);
				free(tn);
				free(dym);
				return false;
			}
			sb_addf(&expr, "%s%s", a->kind == A_DOT ? "." : "->", a->member);
			bitsize = m.bit_size;
			bitoff = m.bit_off;
			if (!bitsize && m.bit_off % 8) {
				diag_add(d, &a->pos, "'%s' starts at bit %lld, not on a byte", expr.s, m.bit_off);
				return false;
			}
			if (!bitsize)
				val.add += m.bit_off / 8;
			type = m.type;
			tn = kbtf_type_str(b, type);
			sb_addf(why, "; %s%s at +%lld (%s)", a->kind == A_DOT ? "." : "->",
				a->member, m.bit_off / 8, tn);
			free(tn);
			continue;
		}
		/* [index] */
		if (ty.cls == KBTF_ARRAY) {
			if (!val.mem) {
				diag_add(d, &a->pos, "'%s' is an array held in registers", expr.s);
				return false;
			}
		} else if (ty.cls == KBTF_PTR) {
			val.f = value_of(&val, &a->pos);
			val.add = 0;
			val.mem = true;
		} else {
			tn = kbtf_type_str(b, type);
			diag_add(d, &a->pos, "'%s' is %s, neither an array nor a pointer", expr.s, tn);
			free(tn);
			return false;
		}
		{
			struct kbtf_type el;

			if (kbtf_peel(b, ty.ref, &el) || el.size <= 0) {
				diag_add(d, &a->pos, "'%s': element size unknown (void or a function)", expr.s);
				return false;
			}
			if (ty.cls == KBTF_ARRAY && ty.nelems && a->index >= ty.nelems)
				diag_add(d, &a->pos, "'%s' has %u elements: [%lld] is past its end",
					 expr.s, ty.nelems, a->index);
			if (ty.cls == KBTF_ARRAY && ty.nelems && a->index >= ty.nelems)
				return false;
			/* a fetcharg offset is a long: keep the sum far from wrapping */
			if (a->index < 0 || a->index > (1LL << 40) / el.size) {
				diag_add(d, &a->pos, "'%s[%lld]': an offset of more than 2^40 bytes",
					 expr.s, a->index);
				return false;
			}
			val.add += a->index * el.size;
			sb_addf(&expr, "[%lld]", a->index);
			sb_addf(why, "; [%lld] at +%lld", a->index, a->index * el.size);
			type = ty.ref;
		}
	}
	f->c_expr = expr.s;
	if (kbtf_peel(b, type, &ty)) {
		diag_add(d, &v->pos, "'%s': damaged BTF (type %d)", expr.s, type);
		return false;
	}
	/*
	 * a char array or a char pointer with no :TYPE is the string it
	 * holds, as compiler/resolve.c reads the same name from DWARF
	 */
	if (!f->type && (ty.cls == KBTF_ARRAY || ty.cls == KBTF_PTR)) {
		struct kbtf_type el;

		if (!kbtf_peel(b, ty.ref, &el) && el.is_char)
			f->type = xstrdup("string");
	}
	if (f->type && (!strcmp(f->type, "string") || !strcmp(f->type, "ustring"))) {
		f->string_at = true;
		if (ty.cls == KBTF_ARRAY) {
			if (!val.mem) {
				diag_add(d, &v->pos, "'%s' is an array held in registers", expr.s);
				return false;
			}
			/* the string is the array itself: +OFF(base) */
			f->fetcharg = fetch_new(F_DEREF, &v->pos);
			f->fetcharg->n = val.add;
			f->fetcharg->inner = val.f;
			return true;
		}
		if (ty.cls != KBTF_PTR) {
			tn = kbtf_type_str(b, type);
			diag_add(d, &v->pos, "'%s' is %s: ':string' wants a char array or a char pointer",
				 expr.s, tn);
			free(tn);
			return false;
		}
		f->fetcharg = fetch_new(F_DEREF, &v->pos);
		f->fetcharg->inner = value_of(&val, &v->pos);
		return true;
	}
	if (!f->type) {
		if (bitsize) {
			long long at;

			if (!bitfield_type(bitoff, bitsize, kbtf_big_endian(b), &at, buf, sizeof(buf))) {
				diag_add(d, &v->pos, "'%s' is a bitfield no 64-bit word holds whole", expr.s);
				return false;
			}
			val.add += at;
			f->type = xstrdup(buf);
		} else if (scalar_type(&ty, buf, sizeof(buf))) {
			f->type = xstrdup(buf);
		} else {
			tn = kbtf_type_str(b, type);
			if (ty.cls == KBTF_STRUCT || ty.cls == KBTF_UNION)
				diag_add(d, &v->pos, "'%s' is %s, not a value: name one of its members (%s%s)",
					 expr.s, tn, expr.s, val.mem ? ".MEMBER" : "->MEMBER");
			else if (ty.cls == KBTF_ARRAY)
				diag_add(d, &v->pos, "'%s' is %s: index it (%s[0])", expr.s, tn, expr.s);
			else
				diag_add(d, &v->pos, "'%s' is %s: no fetcharg type holds it; give one with ':TYPE'",
					 expr.s, tn);
			free(tn);
			return false;
		}
	}
	f->fetcharg = value_of(&val, &v->pos);
	if (!val.mem && val.add) {
		diag_add(d, &v->pos, "'%s' is a part of a value held in a register", expr.s);
		return false;
	}
	return true;
}

int btf_resolve_probe(const struct kbtf *b, struct probe *p,
		      const struct target *t, struct strbuf *explain,
		      struct diags *d)
{
	struct strbuf why = { 0 };
	const struct kbtf *mb;
	struct field *f;
	char mwhy[512];
	int errors = 0;

	if (kbtf_pointer_size(b) != t->abi->long_bytes) {
		diag_add(d, &p->target_pos, "the BTF %s describes a kernel with %d-byte pointers, and a %s kernel's are %d bytes: not this kernel's BTF",
			 kbtf_what(b), kbtf_pointer_size(b), t->abi->arch, t->abi->long_bytes);
		return 1;
	}
	if (p->kind != P_KPROBE || p->offset) {
		diag_add(d, &p->target_pos, "C names from the kernel's BTF are known only at a function's entry (a kprobe on FUNC, where argN is parameter N), and this is %s%s+%lld; give --vmlinux for its DWARF",
			 p->kind == P_KRETPROBE ? "a kretprobe of " : "", p->target, p->offset);
		return 1;
	}
	/* a module's function: its module's BTF, split on the kernel's */
	mb = btf_for_function(t, p->target, mwhy, sizeof(mwhy));
	if (!mb && mwhy[0]) {
		diag_add(d, &p->target_pos, "%s; or write argN", mwhy);
		return 1;
	}
	if (mb && mb != b)
		sb_addf(explain, "  %s: a function of a module: its BTF %s (%u types with the kernel's)\n",
			p->name, kbtf_what(mb), kbtf_ntypes(mb));
	if (mb)
		b = mb;
	for (f = p->fields; f; f = f->next) {
		char *text;

		if (f->fetcharg->kind != F_VAR)
			continue;
		why.len = 0;
		if (why.s)
			why.s[0] = '\0';
		if (!resolve_field(b, p, t, f, &why, d)) {
			errors++;
			continue;
		}
		text = fetch_field(f, p, t);
		sb_addf(explain, "  %s.%s = %s: %s -> %s\n", p->name, f->name,
			f->c_expr, why.s, text + strlen(f->name) + 1);
		free(text);
	}
	free(why.s);
	return errors;
}

/* ---- raw offsets ---- */

/* +OFF(argN) with N a parameter of a kprobe at entry: true with N, OFF. */
static bool raw_member(const struct fetcharg *f, int *n, long long *off)
{
	if (f->kind != F_DEREF || !f->inner || f->inner->kind != F_ARG)
		return false;
	*n = (int)f->inner->n;
	*off = f->n;
	return true;
}

/* Whether a member of type @mt (peeled) can be read as fetcharg type @ft. */
static bool agrees(const struct kbtf *b, const struct kbtf_type *mt,
		   long long moff, long long off, const char *ft)
{
	struct kbtf_type el;

	if (!strcmp(ft, "string") || !strcmp(ft, "ustring"))
		return mt->cls == KBTF_ARRAY && !kbtf_peel(b, mt->ref, &el) && el.is_char;
	if (ft[0] == 'b' || !strcmp(ft, "symbol"))
		return true;	/* a bitfield or an address: not checked */
	if ((ft[0] == 'u' || ft[0] == 's' || ft[0] == 'x') && ft[1] >= '1' && ft[1] <= '9') {
		long long bytes = atoi(ft + 1) / 8;

		/* a whole scalar member, or bytes of an array of them */
		if (mt->cls == KBTF_ARRAY)
			return !kbtf_peel(b, mt->ref, &el) && el.size == bytes &&
			       (off - moff) % bytes == 0;
		return off == moff && mt->size == bytes;
	}
	return true;
}

int btf_check_raw(const struct kbtf *kb, const struct program *prog,
		  const struct target *t, struct diags *warn)
{
	const struct kbtf *b = kb;
	const struct probe *p;
	int n = 0;

	if (kbtf_pointer_size(b) != t->abi->long_bytes)
		return 0;	/* not this kernel's: btf_resolve_probe() says so */
	for (p = prog->probes; p; p = p->next) {
		const struct field *f;

		char mwhy[512];

		if (p->kind != P_KPROBE || p->offset)
			continue;
		b = btf_for_function(t, p->target, mwhy, sizeof(mwhy));
		if (!b)
			continue;	/* no BTF of it: nothing to check against */
		for (f = p->fields; f; f = f->next) {
			struct kbtf_type pt, agg, mt;
			struct kbtf_member nm;
			long long off, moff;
			const char *pname, *ft = f->type;
			const char *whose = b == kb ? "the kernel's BTF" : "its module's BTF";
			char *path, *tn, *where = NULL;
			int argn, type, mtype;

			if (!ft || f->c_expr || !raw_member(f->fetcharg, &argn, &off))
				continue;
			if (kbtf_param(b, p->target, argn, &pname, &type) ||
			    kbtf_peel(b, type, &pt) || pt.cls != KBTF_PTR ||
			    kbtf_peel(b, pt.ref, &agg) ||
			    (agg.cls != KBTF_STRUCT && agg.cls != KBTF_UNION))
				continue;
			{
				const char *bad;

				if (!positions_hold(b, p->target, argn, probe_abi(p, t), &bad))
					continue;
			}
			path = kbtf_member_at(b, agg.id, off, &moff, &mtype);
			if (path && !kbtf_peel(b, mtype, &mt) && agrees(b, &mt, moff, off, ft)) {
				free(path);
				continue;
			}
			/* where the field's own name is, if the struct has a member by it */
			if (!kbtf_member(b, agg.id, f->name, &nm) && !nm.bit_size &&
			    nm.bit_off / 8 != off) {
				char *nts = kbtf_type_str(b, nm.type);

				where = xasprintf("; %s->%s is at +%lld (%s)",
						  pname ? pname : "arg", f->name,
						  nm.bit_off / 8, nts);
				free(nts);
			}
			tn = kbtf_type_str(b, agg.id);
			if (path) {
				char *mts = kbtf_type_str(b, mtype);
				char at[40] = "";

				if (moff != off)
					snprintf(at, sizeof(at), " from +%lld", moff);
				diag_add(warn, &f->pos, "+%lld(arg%d) of %s is %s at offset %lld, '%s' (%s%s), not what ':%s' reads (%s, %s)%s",
					 off, argn, p->target, tn, off, path, mts, at,
					 ft, whose, kbtf_what(b), where ? where : "");
				free(mts);
			} else {
				diag_add(warn, &f->pos, "+%lld(arg%d) of %s is %s at offset %lld, which no member holds (a hole, or past its %lld bytes; %s, %s)%s",
					 off, argn, p->target, tn, off, agg.size,
					 whose, kbtf_what(b), where ? where : "");
			}
			free(tn);
			free(where);
			free(path);
			n++;
		}
	}
	return n;
}
