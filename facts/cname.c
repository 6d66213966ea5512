// SPDX-License-Identifier: GPL-2.0
/*
 * C names to fetchargs through DWARF (libdw).  Rules and sources:
 *  - a variable's location at the probe address: DWARF 4, 2.6 (single
 *    expressions and location lists, dwarf_getlocation_addr());
 *  - the frame base (DW_OP_fbreg) is DW_AT_frame_base, usually
 *    DW_OP_call_frame_cfa; the CFA comes from the object's CFI when it
 *    has any for that address, else, at the function's first
 *    instruction, from the psABI's entry rule (abi_entry_cfa()), which
 *    is all a kprobe at entry needs.  perf probe has no such fallback and
 *    stops with "Failed to get call frame" on a MIPS vmlinux;
 *  - registers: DWARF numbers to the kernel's names (abi_dwarf_reg());
 *  - fetchargs: Documentation/trace/kprobetrace.rst, with the kernel's
 *    rule that a string type takes the address the last dereference
 *    would have read (trace_probe.c, FETCH_OP_ST_STRING);
 *  - bitfields: "b<width>@<offset>/<container>" (kprobetrace.rst), bit
 *    offsets from DW_AT_data_bit_offset, or DWARF 2/3 DW_AT_bit_offset;
 *  - a function that exists only inlined: an abstract instance
 *    (DW_AT_inline, DWARF 4 3.3.8.1) and no symbol (cname_inlined()).
 */
#include <dwarf.h>
#include <elfutils/known-dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cname.h"
#include "elffile.h"
#include "uelf.h"

/* One ELF file with DWARF, opened once. */
struct dobj {
	char *path;
	int fd;
	Elf *elf;
	Dwarf *dw;		/* NULL: no debug info */
	Dwarf_CFI *cfi;		/* .debug_frame, else .eh_frame; NULL: none */
	const char *cfi_what;
	bool kernel;
	bool big_endian;
	struct dobj *next;
};

/* The probe point: a function of an object at an address. */
struct site {
	struct dobj *o;
	const char *fname;	/* the function's C name */
	const char *sym;	/* the symbol probed (foo.constprop.0) */
	Dwarf_Addr pc, entry;
	Dwarf_Die cu, func;
	Dwarf_Die *scopes;	/* innermost first (dwarf_getscopes) */
	int first, sub;		/* scopes[first..sub] are the function's own */
	bool uprobe;
	long long foff_delta;	/* uprobe: file offset = vaddr + delta (the probed segment) */
};

/* A symbolic value: f + add, or the constant c. */
struct sval {
	struct fetcharg *f;
	long long add;
	bool is_const;
	unsigned long long c;
	bool at_entry_cfa;	/* f + add is the CFA + cfa_off at the function's entry */
	long long cfa_off;
};

/* Where a value is: in memory at address v, or the value v itself. */
struct loc {
	bool mem;
	struct sval v;
};

struct res {
	const struct target *t;
	const struct kernel *k;
	struct site *s;
	struct strbuf why;	/* --explain for the field being resolved */
	char err[512];
	const struct pos *errpos;
	bool terse;		/* --vars: the messages name only the variable */
};

static struct dobj *objs;

static const char *opname(unsigned op)
{
	switch (op) {
#define DWARF_ONE_KNOWN_DW_OP(NAME, CODE) case CODE: return #CODE;
	DWARF_ALL_KNOWN_DW_OP
#undef DWARF_ONE_KNOWN_DW_OP
	}
	return "DW_OP_unknown";
}

/* The error of the field being resolved (no trailing newline). */
static bool cname_fail(struct res *r, const struct pos *p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool cname_fail(struct res *r, const struct pos *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->errpos = p;
	return false;
}

/* The DWARF of @path, opened once; NULL with r->err (no position). */
static struct dobj *dobj_open(struct res *r, const char *path, bool kernel)
{
	struct dobj *o;
	struct elf_file f;
	struct errmsg e;
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	for (o = objs; o; o = o->next)
		if (!strcmp(o->path, path))
			return o;
	if (elf_file_open(&f, path, &e)) {
		cname_fail(r, NULL, "%s", e.msg);
		return NULL;
	}
	o = xcalloc(1, sizeof(*o));
	o->path = xstrdup(path);
	o->kernel = kernel;
	o->fd = f.fd;
	o->elf = f.elf;
	o->big_endian = f.eh.e_ident[EI_DATA] == ELFDATA2MSB;
	o->dw = dwarf_begin_elf(o->elf, DWARF_C_READ, NULL);
	if (o->dw) {
		o->cfi = dwarf_getcfi(o->dw);
		o->cfi_what = ".debug_frame";
	}
	/* .eh_frame only when it has contents (a MIPS vmlinux has none) */
	if (!o->cfi && !elf_getshdrstrndx(o->elf, &shstrndx)) {
		while ((scn = elf_nextscn(o->elf, scn))) {
			GElf_Shdr sh;
			const char *n;

			if (gelf_getshdr(scn, &sh) &&
			    (n = elf_strptr(o->elf, shstrndx, sh.sh_name)) &&
			    !strcmp(n, ".eh_frame") && sh.sh_size > 16) {
				o->cfi = dwarf_getcfi_elf(o->elf);
				o->cfi_what = ".eh_frame";
			}
		}
	}
	o->next = objs;
	objs = o;
	return o;
}

/* ---- types ---- */

/* Follow typedefs and qualifiers to the type itself; false: void. */
static bool peel(Dwarf_Die *type, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	Dwarf_Die d = *type;

	for (;;) {
		int tag = dwarf_tag(&d);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type) {
			*out = d;
			return true;
		}
		if (!dwarf_attr_integrate(&d, DW_AT_type, &a) ||
		    !dwarf_formref_die(&a, &d))
			return false;
	}
}

/* The DW_AT_type of @die; false: none (void). */
static bool type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_type, &a) &&
	       dwarf_formref_die(&a, out);
}

static long long type_size(Dwarf_Die *type)
{
	Dwarf_Word n;

	return dwarf_aggregate_size(type, &n) ? -1 : (long long)n;
}

/* C spelling of a type ("struct net_device *", "char[16]"). */
static void type_name(Dwarf_Die *type, struct strbuf *sb)
{
	struct strbuf suffix = { 0 };
	Dwarf_Die d, sub;
	const char *n;
	bool have = type != NULL;

	if (have)
		d = *type;
	for (;;) {
		int tag;

		if (!have) {
			sb_addf(sb, "void%s", suffix.s ? suffix.s : "");
			break;
		}
		tag = dwarf_tag(&d);
		n = dwarf_diename(&d);
		if (tag == DW_TAG_pointer_type) {
			struct strbuf s2 = { 0 };

			sb_addf(&s2, " *%s", suffix.s ? suffix.s : "");
			free(suffix.s);
			suffix = s2;
		} else if (tag == DW_TAG_const_type || tag == DW_TAG_volatile_type) {
			struct strbuf s2 = { 0 };

			sb_addf(&s2, " %s%s", tag == DW_TAG_const_type ? "const" : "volatile",
				suffix.s ? suffix.s : "");
			free(suffix.s);
			suffix = s2;
		} else if (tag == DW_TAG_array_type) {
			Dwarf_Word count = 0;
			Dwarf_Attribute a;
			struct strbuf s2 = { 0 };

			if (dwarf_child(&d, &sub) == 0) {
				if (dwarf_attr(&sub, DW_AT_count, &a))
					dwarf_formudata(&a, &count);
				else if (dwarf_attr(&sub, DW_AT_upper_bound, &a) &&
					 !dwarf_formudata(&a, &count))
					count++;
			}
			if (suffix.s && suffix.s[0] == ' ')
				sb_addf(&s2, " (%s)[%llu]", suffix.s + 1,
					(unsigned long long)count);
			else
				sb_addf(&s2, "%s[%llu]", suffix.s ? suffix.s : "",
					(unsigned long long)count);
			free(suffix.s);
			suffix = s2;
		} else if (tag == DW_TAG_subroutine_type) {
			sb_addf(sb, "function%s", suffix.s ? suffix.s : "");
			break;
		} else {
			const char *kw = tag == DW_TAG_structure_type ? "struct " :
					 tag == DW_TAG_union_type ? "union " :
					 tag == DW_TAG_enumeration_type ? "enum " : "";

			sb_addf(sb, "%s%s%s", kw, n ? n : "(anonymous)",
				suffix.s ? suffix.s : "");
			break;
		}
		have = type_of(&d, &d);
	}
	free(suffix.s);
}

static char *type_str(Dwarf_Die *type)
{
	struct strbuf sb = { 0 };

	type_name(type, &sb);
	return sb.s;
}

/* A character type: char, signed/unsigned char (the ones C strings use). */
static bool is_char(Dwarf_Die *type)
{
	Dwarf_Die d;
	Dwarf_Attribute a;
	Dwarf_Word enc;

	if (!peel(type, &d) || dwarf_tag(&d) != DW_TAG_base_type ||
	    type_size(&d) != 1 || !dwarf_attr(&d, DW_AT_encoding, &a) ||
	    dwarf_formudata(&a, &enc))
		return false;
	return enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char;
}

/* ---- members ---- */

static bool member_offset(Dwarf_Die *m, long long *off)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Op *ops;
	size_t n;

	*off = 0;
	if (!dwarf_attr(m, DW_AT_data_member_location, &a))
		return true;	/* a union member, or a DWARF 4 bitfield */
	if (!dwarf_formudata(&a, &w)) {
		*off = (long long)w;
		return true;
	}
	/* DWARF 2: a DW_OP_plus_uconst expression */
	if (!dwarf_getlocation(&a, &ops, &n) && n == 1 &&
	    ops[0].atom == DW_OP_plus_uconst) {
		*off = (long long)ops[0].number;
		return true;
	}
	return false;
}

/*
 * Find member @name of struct/union @agg, looking into anonymous
 * structs and unions as C does; *off is from the start of @agg.
 */
static bool find_member(Dwarf_Die *agg, const char *name, Dwarf_Die *out,
			long long *off)
{
	Dwarf_Die m;

	if (dwarf_child(agg, &m))
		return false;
	do {
		const char *n;
		long long o;
		Dwarf_Die t, inner;

		if (dwarf_tag(&m) != DW_TAG_member || !member_offset(&m, &o))
			continue;
		n = dwarf_diename(&m);
		if (n && !strcmp(n, name)) {
			*out = m;
			*off = o;
			return true;
		}
		if (!n && type_of(&m, &t) && peel(&t, &inner) &&
		    (dwarf_tag(&inner) == DW_TAG_structure_type ||
		     dwarf_tag(&inner) == DW_TAG_union_type) &&
		    find_member(&inner, name, out, off)) {
			*off += o;
			return true;
		}
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

/* Offer the member names of @agg to @sg (anonymous members' included). */
static void member_names(Dwarf_Die *agg, struct suggest *sg)
{
	Dwarf_Die m;

	if (dwarf_child(agg, &m))
		return;
	do {
		const char *n;
		Dwarf_Die t, inner;

		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		n = dwarf_diename(&m);
		if (n)
			suggest_add(sg, n);
		else if (type_of(&m, &t) && peel(&t, &inner))
			member_names(&inner, sg);
	} while (dwarf_siblingof(&m, &m) == 0);
}

/* ---- the probe site ---- */

static bool cu_at(struct dobj *o, Dwarf_Addr pc, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(o->dw, pc, cu))
		return true;
	/* no .debug_aranges entry: every CU's own ranges */
	while (dwarf_nextcu(o->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(o->dw, off + hsize, cu) && dwarf_haspc(cu, pc) > 0)
			return true;
		off = next;
	}
	return false;
}

/* The function at @pc in @o; false with r->err set. */
static bool find_site(struct res *r, struct dobj *o, Dwarf_Addr pc,
		      const char *what, const struct pos *pos, struct site *s)
{
	int n, i;

	memset(s, 0, sizeof(*s));
	s->o = o;
	s->pc = pc;
	if (!o->dw)
		return cname_fail(r, pos, "%s has no DWARF debug info (build it with -g, e.g. CONFIG_DEBUG_INFO_DWARF4)",
			    o->path);
	if (!cu_at(o, pc, &s->cu))
		return cname_fail(r, pos, "%s: no compilation unit of %s covers 0x%llx (built without -g?)",
			    what, o->path, (unsigned long long)pc);
	n = dwarf_getscopes(&s->cu, pc, &s->scopes);
	s->sub = -1;
	for (i = 0; i < n; i++)
		if (dwarf_tag(&s->scopes[i]) == DW_TAG_subprogram) {
			s->sub = i;
			break;
		}
	if (s->sub < 0)
		return cname_fail(r, pos, "%s: the DWARF of %s has no function at 0x%llx",
			    what, o->path, (unsigned long long)pc);
	/* scopes inside an inlined call belong to the inlined function */
	s->first = 0;
	for (i = s->sub - 1; i >= 0; i--)
		if (dwarf_tag(&s->scopes[i]) == DW_TAG_inlined_subroutine) {
			s->first = i + 1;
			break;
		}
	s->func = s->scopes[s->sub];
	s->sym = what;
	s->fname = dwarf_diename(&s->func);
	if (!s->fname)
		s->fname = what;
	if (dwarf_entrypc(&s->func, &s->entry))
		s->entry = pc;
	return true;
}

/* ---- locations ---- */

static struct fetcharg *new_fetch(enum fetcharg_kind kind, const struct pos *pos)
{
	struct fetcharg *f = xcalloc(1, sizeof(*f));

	f->kind = kind;
	f->pos = *pos;
	return f;
}

static bool reg_fetch(struct res *r, unsigned regno, const struct pos *pos,
		      struct fetcharg **out)
{
	const char *name = abi_dwarf_reg(r->t->abi, regno);

	if (!name)
		return cname_fail(r, pos, "DWARF register %u has no name the %s kernel accepts",
			    regno, r->t->abi->arch);
	/* the stack pointer as the kernel sees it at the probe: $stack */
	if (regno == abi_dwarf_sp(r->t->abi)) {
		*out = new_fetch(F_STACK, pos);
		return true;
	}
	*out = new_fetch(F_REG, pos);
	(*out)->name = xstrdup(name);
	return true;
}

static void describe_ops(struct strbuf *sb, const Dwarf_Op *ops, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned op = ops[i].atom;

		sb_addf(sb, "%s%s", i ? " " : "", opname(op));
		if ((op >= DW_OP_breg0 && op <= DW_OP_breg31) || op == DW_OP_fbreg ||
		    op == DW_OP_consts)
			sb_addf(sb, " %lld", (long long)ops[i].number);
		else if (op == DW_OP_addr || op == DW_OP_plus_uconst ||
			 op == DW_OP_constu || op == DW_OP_regx || op == DW_OP_piece)
			sb_addf(sb, " 0x%llx", (unsigned long long)ops[i].number);
		else if (op == DW_OP_bregx)
			sb_addf(sb, " %llu %lld", (unsigned long long)ops[i].number,
				(long long)ops[i].number2);
	}
}

/* The canonical frame address at the site. */
static bool cfa(struct res *r, const struct pos *pos, struct sval *v)
{
	struct site *s = r->s;
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t n;

	if (s->o->cfi && dwarf_cfi_addrframe(s->o->cfi, s->pc, &frame) == 0 &&
	    dwarf_frame_cfa(frame, &ops, &n) == 0 && n == 1 &&
	    ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		free(frame);
		if (!reg_fetch(r, ops[0].atom - DW_OP_breg0, pos, &v->f))
			return false;
		v->add = (long long)ops[0].number;
		sb_addf(&r->why, " [CFA from %s: DW_OP_breg%u %lld]", s->o->cfi_what,
			ops[0].atom - DW_OP_breg0, v->add);
		return true;
	}
	free(frame);
	if (s->pc == s->entry) {
		/* at the first instruction the psABI says where the CFA is */
		if (!reg_fetch(r, abi_dwarf_sp(r->t->abi), pos, &v->f))
			return false;
		v->add = abi_entry_cfa(r->t->abi);
		v->at_entry_cfa = true;
		sb_addf(&r->why, " [CFA at entry: sp%+lld, %s%s]", v->add,
			s->o->cfi ? "no CFI row for this address in " : "no CFI in ",
			s->o->cfi ? s->o->cfi_what : s->o->path);
		return true;
	}
	return cname_fail(r, pos, "%s: the frame base at %s+0x%llx is the call frame address, which needs call-frame information %s has not (%s); probe the function's entry, where the psABI gives it",
		    s->fname, s->sym, (unsigned long long)(s->pc - s->entry), s->o->path,
		    s->o->cfi ? "no CFI row for this address" : "no .debug_frame or .eh_frame");
}

static bool eval(struct res *r, Dwarf_Attribute *attr, const Dwarf_Op *ops,
		 size_t n, const struct pos *pos, const char *who, struct loc *l);

/* DW_AT_frame_base of the function at the site, as an address value. */
static bool frame_base(struct res *r, const struct pos *pos, struct sval *v)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	struct loc l;
	int got;

	if (!dwarf_attr(&r->s->func, DW_AT_frame_base, &a))
		return cname_fail(r, pos, "%s has no frame base (DW_AT_frame_base) for DW_OP_fbreg",
			    r->s->fname);
	got = dwarf_getlocation_addr(&a, r->s->pc, &ops, &n, 1);
	if (got <= 0)
		return cname_fail(r, pos, "%s: its frame base has no location at 0x%llx",
			    r->s->fname, (unsigned long long)r->s->pc);
	if (n == 1 && ops[0].atom == DW_OP_call_frame_cfa)
		return cfa(r, pos, v);
	sb_addf(&r->why, " [frame base ");
	describe_ops(&r->why, ops, n);
	sb_addf(&r->why, "]");
	if (!eval(r, &a, ops, n, pos, "the frame base", &l))
		return false;
	/* DW_OP_regN as a frame base means the register's value */
	*v = l.v;
	return true;
}

/* The fetch reading the @size bytes at address @v + @off. */
static struct fetcharg *mem_fetch(struct res *r, const struct sval *v,
			       long long off, long long size,
			       const struct pos *pos)
{
	long long a = v->add + off;
	struct fetcharg *f;

	if (v->is_const) {
		unsigned long long addr = v->c + (unsigned long long)off;

		if (r->s->uprobe) {
			/* uprobetracer.rst "@+OFFSET": relative to the probed file's mapping */
			f = new_fetch(F_ADDR, pos);
			f->n = (long long)(addr + (unsigned long long)r->s->foff_delta);
			return f;
		}
		f = new_fetch(F_ADDR, pos);
		f->n = (long long)addr;
		return f;
	}
	if (v->at_entry_cfa && r->s->pc == r->s->entry) {
		long long co = v->cfa_off + off;

		/*
		 * At the entry the callee's frame (below the CFA) does not
		 * exist yet, and o32's 16-byte home area above it is only
		 * written by the prologue: its word k is still register a<k>
		 * ($4 + k; SysV MIPS psABI ch. 3, "the argument area").
		 */
		if (co < 0) {
			cname_fail(r, pos, "the value lives at CFA%lld, in the stack frame %s's prologue has not made yet at its entry; probe a later address (+OFF) that the location covers",
			     co, r->s->fname);
			return NULL;
		}
		if (!strcmp(r->t->abi->abi, "o32") && co < 16) {
			if (size > 0 && r->s->o->big_endian ? (co % 4 == 0 && size == 4) :
			    (co % 4 + size <= 4 && (size == 4 || co % 4 == 0))) {
				f = new_fetch(F_REG, pos);
				f->name = xasprintf("r%lld", 4 + co / 4);
				sb_addf(&r->why, " [o32 home area word %lld at the entry: still in %%%s]",
					co / 4, f->name);
				return f;
			}
			cname_fail(r, pos, "the value lives in o32's home area at CFA+%lld, which holds nothing yet at the entry (the prologue spills a0-a3 there), and it is not a whole argument word",
			     co);
			return NULL;
		}
	}
	if (v->f->kind == F_STACK && a >= 0 && size == r->t->abi->long_bytes &&
	    a % r->t->abi->long_bytes == 0) {
		f = new_fetch(F_STACKN, pos);
		f->n = a / r->t->abi->long_bytes;
		return f;
	}
	f = new_fetch(F_DEREF, pos);
	f->n = a;
	f->inner = v->f;
	return f;
}

/* The value of @v as a fetch (a register, a loaded word, a constant). */
static bool value_fetch(struct res *r, const struct sval *v,
			const struct pos *pos, struct fetcharg **out)
{
	if (v->is_const) {
		*out = new_fetch(F_IMM, pos);
		(*out)->n = (long long)v->c;
		return true;
	}
	if (v->add)
		return cname_fail(r, pos, "the value is %s%+lld, a sum a fetcharg cannot compute",
			    v->f->kind == F_REG ? v->f->name : "a register", v->add);
	*out = v->f;
	return true;
}

/*
 * Evaluate a location expression at the site: the DWARF stack machine
 * for what fetchargs can express (registers, register+offset, the
 * frame base, addresses, dereferences, constants, and DW_OP_entry_value
 * of a register at the entry).  @attr is the attribute @ops came from.
 */
static bool eval(struct res *r, Dwarf_Attribute *attr, const Dwarf_Op *ops,
		 size_t n, const struct pos *pos, const char *who, struct loc *l)
{
	struct sval st[8];
	int sp = 0;
	size_t i;

	memset(l, 0, sizeof(*l));
	if (n == 0)
		return cname_fail(r, pos, "%s is optimised out at 0x%llx (empty location)",
			    who, (unsigned long long)r->s->pc);
	for (i = 0; i < n; i++) {
		unsigned op = ops[i].atom;

		if (sp >= 7)
			return cname_fail(r, pos, "%s: location too deep", who);
		if ((op >= DW_OP_reg0 && op <= DW_OP_reg31) || op == DW_OP_regx) {
			unsigned regno = op == DW_OP_regx ? (unsigned)ops[i].number :
					 op - DW_OP_reg0;

			if (n > 1 && !(n == 2 && ops[1].atom == DW_OP_piece))
				break;
			if (!reg_fetch(r, regno, pos, &l->v.f))
				return false;
			l->mem = false;
			return true;
		}
		if ((op >= DW_OP_breg0 && op <= DW_OP_breg31) || op == DW_OP_bregx) {
			unsigned regno = op == DW_OP_bregx ? (unsigned)ops[i].number :
					 op - DW_OP_breg0;

			memset(&st[sp], 0, sizeof(st[sp]));
			if (!reg_fetch(r, regno, pos, &st[sp].f))
				return false;
			st[sp++].add = op == DW_OP_bregx ? (long long)ops[i].number2 :
				       (long long)ops[i].number;
			continue;
		}
		switch (op) {
		case DW_OP_fbreg:
			memset(&st[sp], 0, sizeof(st[sp]));
			if (!frame_base(r, pos, &st[sp]))
				return false;
			st[sp].add += (long long)ops[i].number;
			st[sp++].cfa_off += (long long)ops[i].number;
			continue;
		case DW_OP_call_frame_cfa:
			memset(&st[sp], 0, sizeof(st[sp]));
			if (!cfa(r, pos, &st[sp]))
				return false;
			sp++;
			continue;
		case DW_OP_addr:
		case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
		case DW_OP_const8u: case DW_OP_constu:
		case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
		case DW_OP_const8s: case DW_OP_consts:
			memset(&st[sp], 0, sizeof(st[sp]));
			st[sp].is_const = true;
			st[sp++].c = ops[i].number;
			continue;
		case DW_OP_plus_uconst:
			if (!sp)
				break;
			if (st[sp - 1].is_const)
				st[sp - 1].c += ops[i].number;
			else
				st[sp - 1].add += (long long)ops[i].number;
			st[sp - 1].cfa_off += (long long)ops[i].number;
			continue;
		case DW_OP_deref:
			if (!sp)
				break;
			st[sp - 1].f = mem_fetch(r, &st[sp - 1], 0, r->t->abi->long_bytes, pos);
			if (!st[sp - 1].f)
				return false;
			st[sp - 1].at_entry_cfa = false;
			st[sp - 1].add = 0;
			st[sp - 1].is_const = false;
			continue;
		case DW_OP_stack_value:
			if (!sp || i != n - 1)
				break;
			l->mem = false;
			l->v = st[sp - 1];
			return true;
		case DW_OP_piece:
			if (i == n - 1 && sp == 1)
				goto done;
			break;
		case DW_OP_entry_value:
		case DW_OP_GNU_entry_value: {
			Dwarf_Attribute blk;
			Dwarf_Op *in;
			size_t nin;

			if (dwarf_getlocation_attr(attr, &ops[i], &blk) ||
			    dwarf_getlocation(&blk, &in, &nin) || nin != 1 ||
			    in[0].atom < DW_OP_reg0 || in[0].atom > DW_OP_reg31)
				break;
			if (r->s->pc != r->s->entry)
				return cname_fail(r, pos, "%s is the value %s had on entry to %s (DW_OP_entry_value), which is only known at the entry, not at +0x%llx",
					    who, abi_dwarf_reg(r->t->abi, in[0].atom - DW_OP_reg0) ?: "a register",
					    r->s->fname, (unsigned long long)(r->s->pc - r->s->entry));
			memset(&st[sp], 0, sizeof(st[sp]));
			if (!reg_fetch(r, in[0].atom - DW_OP_reg0, pos, &st[sp].f))
				return false;
			sp++;
			continue;
		}
		case DW_OP_GNU_parameter_ref:
			return cname_fail(r, pos, "%s is optimised out of this copy of %s: the compiler removed the parameter (DW_OP_GNU_parameter_ref: the value exists only in the callers)",
				    who, r->s->fname);
		default:
			if (op >= DW_OP_lit0 && op <= DW_OP_lit31) {
				memset(&st[sp], 0, sizeof(st[sp]));
				st[sp].is_const = true;
				st[sp++].c = op - DW_OP_lit0;
				continue;
			}
			break;
		}
		{
			struct strbuf sb = { 0 };

			describe_ops(&sb, ops, n);
			return cname_fail(r, pos, "%s is at \"%s\" at 0x%llx: %s is beyond what a fetcharg can express",
				    who, sb.s, (unsigned long long)r->s->pc, opname(op));
		}
	}
done:
	if (sp != 1)
		return cname_fail(r, pos, "%s: malformed location", who);
	l->mem = true;
	l->v = st[0];
	return true;
}

/* The location of variable @var at the site. */
static bool var_loc(struct res *r, Dwarf_Die *var, const char *who,
		    const struct pos *pos, struct loc *l)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	int got;

	if (!dwarf_attr(var, DW_AT_location, &a)) {
		Dwarf_Sword sv;

		if (dwarf_attr_integrate(var, DW_AT_const_value, &a) &&
		    !dwarf_formsdata(&a, &sv)) {
			memset(l, 0, sizeof(*l));
			l->v.is_const = true;
			l->v.c = (unsigned long long)sv;
			sb_addf(&r->why, "DW_AT_const_value %lld", (long long)sv);
			return true;
		}
		if (dwarf_attr_integrate(var, DW_AT_declaration, &a))
			return cname_fail(r, pos, "%s is only declared here (extern, no location)", who);
		return cname_fail(r, pos, "%s is optimised out: the compiler kept no location for it (no DW_AT_location)",
			    who);
	}
	got = dwarf_getlocation_addr(&a, r->s->pc, &ops, &n, 1);
	if (got < 0)
		return cname_fail(r, pos, "%s: unreadable location: %s", who, dwarf_errmsg(-1));
	if (got == 0)
		return cname_fail(r, pos, "%s is not available at %s+0x%llx (0x%llx): its location list has no entry for that address (optimised out there)",
			    who, r->s->sym, (unsigned long long)(r->s->pc - r->s->entry),
			    (unsigned long long)r->s->pc);
	describe_ops(&r->why, ops, n);
	sb_addf(&r->why, " at 0x%llx", (unsigned long long)r->s->pc);
	return eval(r, &a, ops, n, pos, who, l);
}

/* ---- variables by name ---- */

static bool is_var_tag(int tag)
{
	return tag == DW_TAG_formal_parameter || tag == DW_TAG_variable;
}

/*
 * Look @name up as C would at the site: the function's scopes, inner
 * first, then the compilation unit.  *kind says what it is.
 */
static bool find_var(struct site *s, const char *name, Dwarf_Die *out,
		     const char **kind, int *argno)
{
	Dwarf_Die c;
	int i;

	for (i = s->first; i <= s->sub; i++) {
		int nparam = 0;

		if (dwarf_child(&s->scopes[i], &c))
			continue;
		do {
			const char *n;
			int tag = dwarf_tag(&c);

			if (!is_var_tag(tag))
				continue;
			if (tag == DW_TAG_formal_parameter)
				nparam++;
			n = dwarf_diename(&c);
			if (n && !strcmp(n, name)) {
				*out = c;
				*kind = tag == DW_TAG_formal_parameter ? "parameter" :
					"local variable";
				*argno = tag == DW_TAG_formal_parameter ? nparam : 0;
				return true;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	if (dwarf_child(&s->cu, &c))
		return false;
	do {
		const char *n;

		if (dwarf_tag(&c) != DW_TAG_variable)
			continue;
		n = dwarf_diename(&c);
		if (n && !strcmp(n, name)) {
			*out = c;
			*kind = "global";
			*argno = 0;
			return true;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

static char *suggest_var(struct site *s, const char *name)
{
	struct suggest sg;
	Dwarf_Die c;
	int i;

	suggest_init(&sg, name);
	for (i = s->first; i <= s->sub; i++) {
		if (dwarf_child(&s->scopes[i], &c))
			continue;
		do {
			const char *n = dwarf_diename(&c);

			if (is_var_tag(dwarf_tag(&c)) && n)
				suggest_add(&sg, n);
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	return suggest_text(&sg);
}

/* A global without a location here (an extern declaration): its symbol. */
static bool global_by_symbol(struct res *r, const char *name,
			     const struct pos *pos, struct loc *l)
{
	const struct ksym *ks;

	if (r->s->uprobe || !r->k || !(ks = ksym_find(r->k, name)))
		return cname_fail(r, pos, "global '%s' is declared in this file but has no address here", name);
	memset(l, 0, sizeof(*l));
	l->mem = true;
	l->v.is_const = true;
	l->v.c = ks->addr;
	sb_addf(&r->why, "symbol %s", name);
	return true;
}

/* ---- the access path ---- */

static bool is_aggregate(Dwarf_Die *t)
{
	int tag = dwarf_tag(t);

	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/* The fetch of the pointer value at @l (for -> and [] on a pointer). */
static bool pointer_value(struct res *r, const struct loc *l,
			  const struct pos *pos, struct sval *out)
{
	memset(out, 0, sizeof(*out));
	if (l->mem) {
		out->f = mem_fetch(r, &l->v, 0, r->t->abi->long_bytes, pos);
		return out->f != NULL;
	}
	if (l->v.is_const) {
		*out = l->v;
		return true;
	}
	return value_fetch(r, &l->v, pos, &out->f);
}

/* The kernel type for a scalar of DWARF type @t (peeled), or NULL. */
static const char *scalar_type(struct res *r, Dwarf_Die *t, long long size,
			       const char **note)
{
	static char buf[8];
	Dwarf_Attribute a;
	Dwarf_Word enc = DW_ATE_unsigned;
	char c = 'u';
	int tag = dwarf_tag(t);

	*note = NULL;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return NULL;
	if (tag == DW_TAG_pointer_type) {
		c = 'x';
	} else if (tag == DW_TAG_base_type) {
		if (dwarf_attr(t, DW_AT_encoding, &a))
			dwarf_formudata(&a, &enc);
		if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
			c = 's';
		else if (enc == DW_ATE_float) {
			c = 'x';
			*note = "a float: fetchargs have no float type, shown as its bits";
		}
	} else if (tag == DW_TAG_enumeration_type) {
		Dwarf_Die u;

		if (type_of(t, &u) && peel(&u, &u) && dwarf_attr(&u, DW_AT_encoding, &a) &&
		    !dwarf_formudata(&a, &enc) && enc == DW_ATE_signed)
			c = 's';
	} else {
		return NULL;
	}
	(void)r;
	snprintf(buf, sizeof(buf), "%c%lld", c, size * 8);
	return buf;
}

/* Bitfield geometry of member @m at byte offset @moff in its struct. */
static bool bitfield(struct res *r, Dwarf_Die *m, long long moff,
		     long long *byte_off, char *type, size_t tlen)
{
	Dwarf_Attribute a;
	Dwarf_Word w, bo, bs, dbo;
	long long start, cs;

	if (!dwarf_attr(m, DW_AT_bit_size, &a) || dwarf_formudata(&a, &w))
		return false;
	if (dwarf_attr(m, DW_AT_data_bit_offset, &a) && !dwarf_formudata(&a, &dbo)) {
		start = moff * 8 + (long long)dbo;
	} else if (dwarf_attr(m, DW_AT_bit_offset, &a) && !dwarf_formudata(&a, &bo)) {
		/* DWARF 2/3: from the storage unit's most significant bit */
		Dwarf_Die t;

		bs = 0;
		if (dwarf_attr(m, DW_AT_byte_size, &a))
			dwarf_formudata(&a, &bs);
		else if (type_of(m, &t))
			bs = (Dwarf_Word)type_size(&t);
		start = r->s->o->big_endian ? moff * 8 + (long long)bo :
			moff * 8 + (long long)bs * 8 - (long long)bo - (long long)w;
	} else {
		start = moff * 8;
	}
	/* the smallest aligned container holding every bit of the field */
	for (cs = 8; cs <= 64; cs *= 2)
		if (start % cs + (long long)w <= cs)
			break;
	if (cs > 64)
		return false;
	*byte_off = (start - start % cs) / 8;
	snprintf(type, tlen, "b%llu@%lld/%lld", (unsigned long long)w,
		 r->s->o->big_endian ? cs - start % cs - (long long)w : start % cs, cs);
	return true;
}

/* Resolve field @f's C expression at site @s; false with r->err. */
static bool resolve_field(struct res *r, struct field *f)
{
	const struct fetcharg *v = f->fetcharg;
	struct site *s = r->s;
	const struct access *a;
	struct strbuf expr = { 0 };
	Dwarf_Die var, type, pt;
	const char *kind, *note = NULL;
	struct loc l;
	int argno;
	bool have_type, string;
	char bits[32] = "";
	char *tn;

	sb_addf(&expr, "%s", v->name);
	if (!find_var(s, v->name, &var, &kind, &argno)) {
		char *dym = suggest_var(s, v->name);

		return cname_fail(r, &v->pos, "%s has no parameter or variable '%s' in scope at %s+0x%llx%s",
			    s->fname, v->name, s->sym,
			    (unsigned long long)(s->pc - s->entry), dym);
	}
	have_type = type_of(&var, &type);
	tn = type_str(have_type ? &type : NULL);
	if (argno)
		sb_addf(&r->why, "%s: parameter %d of %s (%s), ", v->name, argno,
			s->fname, tn);
	else
		sb_addf(&r->why, "%s: %s of %s (%s), ", v->name, kind, s->fname, tn);
	{
		char *who = r->terse ? xasprintf("'%s'", v->name) :
			    xasprintf("'%s' (%s of %s)", v->name, kind, s->fname);
		bool ok;

		if (!strcmp(kind, "global") && !dwarf_hasattr(&var, DW_AT_location))
			ok = global_by_symbol(r, v->name, &v->pos, &l);
		else
			ok = var_loc(r, &var, who, &v->pos, &l);
		free(who);
		if (!ok)
			return false;
	}
	for (a = v->path; a; a = a->next) {
		Dwarf_Die m;
		long long off, esize;
		char *cur = expr.s;

		if (!have_type || !peel(&type, &pt))
			return cname_fail(r, &a->pos, "'%s' is void", cur);
		if (a->kind == A_DOT || a->kind == A_ARROW) {
			Dwarf_Die agg = pt;

			if (a->kind == A_ARROW) {
				struct sval pv;

				if (dwarf_tag(&pt) != DW_TAG_pointer_type)
					return cname_fail(r, &a->pos, "'%s' is %s, not a pointer%s", cur,
						    type_str(&type),
						    is_aggregate(&pt) ? "; write '.' for its member" : "");
				if (!type_of(&pt, &agg) || !peel(&agg, &agg) || !is_aggregate(&agg))
					return cname_fail(r, &a->pos, "'%s' points to %s, not to a struct or union",
						    cur, have_type && type_of(&pt, &m) ? type_str(&m) : "void");
				if (!pointer_value(r, &l, &a->pos, &pv))
					return false;
				l.mem = true;
				l.v = pv;
			} else if (!is_aggregate(&pt)) {
				return cname_fail(r, &a->pos, "'%s' is %s, not a struct or union%s", cur,
					    type_str(&type),
					    dwarf_tag(&pt) == DW_TAG_pointer_type ? "; write '->' for a member through a pointer" : "");
			}
			if (!find_member(&agg, a->member, &m, &off)) {
				struct suggest sg;
				char *dym;

				suggest_init(&sg, a->member);
				member_names(&agg, &sg);
				dym = suggest_text(&sg);
				return cname_fail(r, &a->pos, "%s has no member '%s'%s",
					    type_str(&agg), a->member, dym);
			}
			if (!l.mem)
				return cname_fail(r, &a->pos, "'%s' is a struct held in registers (%s): members of it are not supported",
					    cur, l.v.f ? l.v.f->name : "pieces");
			sb_addf(&expr, "%s%s", a->kind == A_DOT ? "." : "->", a->member);
			if (!bitfield(r, &m, off, &off, bits, sizeof(bits)))
				bits[0] = 0;
			else if (a->next)
				return cname_fail(r, &a->next->pos, "'%s' is a bitfield", expr.s);
			l.v.add += l.v.is_const ? 0 : off;
			l.v.cfa_off += off;
			if (l.v.is_const)
				l.v.c += (unsigned long long)off;
			have_type = type_of(&m, &type);
			sb_addf(&r->why, "; %s%s at +%lld (%s)", a->kind == A_DOT ? "." : "->",
				a->member, off, type_str(have_type ? &type : NULL));
			continue;
		}
		/* [index] */
		if (dwarf_tag(&pt) == DW_TAG_array_type) {
			if (!l.mem)
				return cname_fail(r, &a->pos, "'%s' is an array held in registers", cur);
			if (!type_of(&pt, &m))
				return cname_fail(r, &a->pos, "'%s' has no element type", cur);
		} else if (dwarf_tag(&pt) == DW_TAG_pointer_type) {
			struct sval pv;

			if (!type_of(&pt, &m))
				return cname_fail(r, &a->pos, "'%s' is a void pointer: it cannot be indexed", cur);
			if (!pointer_value(r, &l, &a->pos, &pv))
				return false;
			l.mem = true;
			l.v = pv;
		} else {
			return cname_fail(r, &a->pos, "'%s' is %s, neither an array nor a pointer",
				    cur, type_str(&type));
		}
		esize = type_size(&m);
		if (esize < 0)
			return cname_fail(r, &a->pos, "'%s': element size unknown", cur);
		if (l.v.is_const)
			l.v.c += (unsigned long long)(a->index * esize);
		else
			l.v.add += a->index * esize;
		l.v.cfa_off += a->index * esize;
		sb_addf(&expr, "[%lld]", a->index);
		sb_addf(&r->why, "; [%lld] at +%lld (%s)", a->index, a->index * esize,
			type_str(&m));
		type = m;
	}
	f->c_expr = expr.s;

	/* the final value and its type */
	string = f->type && (!strcmp(f->type, "string") || !strcmp(f->type, "ustring"));
	if (!have_type || !peel(&type, &pt))
		return cname_fail(r, &v->pos, "'%s' is void", expr.s);
	if (!f->type) {
		Dwarf_Die el;

		if ((dwarf_tag(&pt) == DW_TAG_array_type ||
		     dwarf_tag(&pt) == DW_TAG_pointer_type) &&
		    type_of(&pt, &el) && is_char(&el)) {
			string = true;
			f->type = xstrdup(s->uprobe ? "string" : "string");
		}
	}
	if (string) {
		if (dwarf_tag(&pt) == DW_TAG_array_type) {
			/* the string is the array itself: its address */
			if (!l.mem)
				return cname_fail(r, &v->pos, "'%s' is an array held in registers", expr.s);
			f->fetcharg = mem_fetch(r, &l.v, 0, 0, &v->pos);
			if (!f->fetcharg)
				return false;
		} else {
			struct sval pv;
			struct fetcharg *d = new_fetch(F_DEREF, &v->pos);

			/* the value points to the string */
			if (!pointer_value(r, &l, &v->pos, &pv) ||
			    !value_fetch(r, &pv, &v->pos, &d->inner))
				return false;
			f->fetcharg = d;
		}
		f->string_at = true;
	} else {
		long long size = type_size(&pt);
		const char *kt = NULL;

		if (!f->type) {
			if (bits[0])
				kt = bits;
			else
				kt = scalar_type(r, &pt, size, &note);
			if (!kt) {
				if (is_aggregate(&pt)) {
					return cname_fail(r, &v->pos, "'%s' is %s, not a value: name one of its members (%s%s)",
						    expr.s, type_str(&type),
						    expr.s, l.mem ? ".MEMBER" : "->MEMBER");
				}
				if (dwarf_tag(&pt) == DW_TAG_array_type)
					return cname_fail(r, &v->pos, "'%s' is %s: index it (%s[0])",
						    expr.s, type_str(&type), expr.s);
				return cname_fail(r, &v->pos, "'%s' is %s (%lld bytes): no fetcharg type holds it; give one with ':TYPE'",
					    expr.s, type_str(&type), size);
			}
			f->type = xstrdup(kt);
		}
		if (l.mem) {
			f->fetcharg = mem_fetch(r, &l.v, 0, size, &v->pos);
			if (!f->fetcharg)
				return false;
		} else if (!value_fetch(r, &l.v, &v->pos, &f->fetcharg)) {
			return false;
		}
	}
	if (note)
		sb_addf(&r->why, "; %s", note);
	return true;
}

/* ---- the probes ---- */

/* The object and address a probe is at; false with r->err. */
static bool probe_site(struct res *r, const struct probe *p,
		       const char *vmlinux, const char *sysroot, struct site *s)
{
	struct dobj *o;

	if (p->kind == P_KPROBE || p->kind == P_KRETPROBE) {
		const struct ksym *ks;

		if (!vmlinux)
			return cname_fail(r, &p->fields->pos, "C names in kprobe '%s' need the kernel's debug info: pass --vmlinux VMLINUX (built with DWARF), or write argN",
				    p->name);
		ks = ksym_find(r->k, p->target);
		while (ks && (ks->module || (ks->type != 't' && ks->type != 'w')))
			ks = ksym_next(r->k, ks);
		if (!ks)
			return cname_fail(r, &p->target_pos, "'%s' is not a function of %s: its DWARF is not there (a module's .ko is not read)",
				    p->target, vmlinux);
		o = dobj_open(r, vmlinux, true);
		if (!o || !find_site(r, o, ks->addr + (unsigned long long)p->offset,
			       p->target, &p->target_pos, s))
			return false;
		return true;
	}
	if (p->kind == P_UPROBE || p->kind == P_URETPROBE) {
		struct uelf_sym us;
		struct errmsg err;
		char *path;
		size_t i, n;

		if (!sysroot)
			return cname_fail(r, &p->fields->pos, "C names in uprobe '%s' need the program's debug info: pass --sysroot DIR",
				    p->name);
		if (!p->usym)
			return cname_fail(r, &p->target_pos, "C names need the uprobe written PATH:SYMBOL (the function gives the scope)");
		path = xasprintf("%s%s", sysroot, p->target);
		if (uelf_resolve_sym(path, p->usym, (unsigned long long)p->usym_off,
				     &us, &err))
			return cname_fail(r, &p->usym_pos, "%s", err.msg);
		o = dobj_open(r, path, false);
		if (!o || !find_site(r, o, us.addr, p->usym, &p->usym_pos, s))
			return false;
		s->uprobe = true;
		s->foff_delta = (long long)(us.foff - us.addr);
		(void)i;
		(void)n;
		return true;
	}
	return cname_fail(r, &p->pos, "a static event has its own fields");
}

static bool has_cvar(const struct probe *p)
{
	const struct field *f;

	for (f = p->fields; f; f = f->next)
		if (f->fetcharg->kind == F_VAR)
			return true;
	return false;
}

int cname_resolve(struct program *prog, const struct kernel *k,
		  const char *vmlinux, const char *sysroot,
		  const struct target *t, struct strbuf *explain,
		  struct diags *d)
{
	struct probe *p;
	int errors = 0;
	bool any = false;

	for (p = prog->probes; p; p = p->next) {
		/* a uprobe's registers and stack slots are its file's ABI's */
		struct target pt = *t;
		struct res r = { .t = &pt, .k = k };
		struct site s;
		struct field *f;

		pt.abi = probe_abi(p, t);

		if (!has_cvar(p))
			continue;
		if (!any) {
			sb_addf(explain, "C names (DWARF):\n");
			if (!kernel_at_least(t, 6, 6))
				sb_addf(explain, "  the kernel's own BTF names ($arg*, PROBE_EVENTS_BTF_ARGS) need 6.6; the target is %d.%d: probecc translates them from DWARF\n",
					t->kmajor, t->kminor);
			any = true;
		}
		if (p->kind == P_KRETPROBE || p->kind == P_URETPROBE) {
			for (f = p->fields; f; f = f->next)
				if (f->fetcharg->kind == F_VAR) {
					diag_add(d, &f->fetcharg->pos, "'%s' is a C name of %s's entry: at a return its registers have been reused; record it with a probe at entry, or use $retval",
						f->fetcharg->name, p->usym ? p->usym : p->target);
					errors++;
				}
			continue;
		}
		r.s = &s;
		if (!probe_site(&r, p, vmlinux, sysroot, &s)) {
			diag_add(d, r.errpos, "%s", r.err);
			errors++;
			continue;
		}
		for (f = p->fields; f; f = f->next) {
			if (f->fetcharg->kind != F_VAR)
				continue;
			r.why.len = 0;
			if (r.why.s)
				r.why.s[0] = 0;
			if (!resolve_field(&r, f)) {
				diag_add(d, r.errpos, "%s", r.err);
				errors++;
				continue;
			}
			{
				char *text = fetch_field(f, p, t);

				sb_addf(explain, "  %s.%s = %s: %s -> %s\n", p->name, f->name,
					f->c_expr, r.why.s, text + strlen(f->name) + 1);
				free(text);
			}
		}
		free(s.scopes);
	}
	return errors;
}

/* ---- --vars ---- */

/*
 * A variable is offered only as a fetch the compiler takes from probe
 * @probe on the kernel of @kt (check_field_fetch(): an o32 stack string
 * under a 64-bit kernel is refused there); else why not, as for one that
 * cannot be reached.
 */
static void list_scope(struct res *r, Dwarf_Die *scope, struct strbuf *out,
		       const struct pos *pos, const struct probe *probe,
		       const struct target *kt)
{
	Dwarf_Die c;

	if (dwarf_child(scope, &c))
		return;
	do {
		int tag = dwarf_tag(&c);
		const char *n = dwarf_diename(&c);
		Dwarf_Die type;
		struct field f = { 0 };
		struct fetcharg v = { 0 };
		struct probe p = { 0 };
		char *tn, *text;

		if (!is_var_tag(tag) || !n)
			continue;
		tn = type_str(type_of(&c, &type) ? &type : NULL);
		v.kind = F_VAR;
		v.name = (char *)n;
		v.pos = *pos;
		f.name = "v";
		f.fetcharg = &v;
		f.pos = *pos;
		p.kind = r->s->uprobe ? P_UPROBE : P_KPROBE;
		r->why.len = 0;
		if (r->why.s)
			r->why.s[0] = 0;
		if (resolve_field(r, &f)) {
			struct diags d = { 0 };

			text = fetch_field(&f, &p, r->t);
			if (check_field_fetch(&f, probe, kt, &d))
				sb_addf(out, "  %-10s %s %s: refused as %s: %s\n",
					tag == DW_TAG_formal_parameter ? "parameter" : "local",
					tn, n, text + 2, d.v[0].msg);
			else
				sb_addf(out, "  %-10s %s %s = %s\n",
					tag == DW_TAG_formal_parameter ? "parameter" : "local",
					tn, n, text + 2);
			diag_free(&d);
			free(text);
		} else {
			sb_addf(out, "  %-10s %s %s: %s\n",
				tag == DW_TAG_formal_parameter ? "parameter" : "local",
				tn, n, r->err);
		}
		free(tn);
	} while (dwarf_siblingof(&c, &c) == 0);
}

int cname_list_vars(const char *where, const struct kernel *k,
		    const char *vmlinux, const char *sysroot,
		    const struct target *t, struct strbuf *out)
{
	static struct source src = { .name = "--vars" };
	struct probe p = { 0 };
	struct field dummy = { 0 };
	struct target pt = *t;
	struct res r = { .t = &pt, .k = k, .terse = true };
	struct site s;
	char *w = xstrdup(where), *plus, *colon;
	const char *file;
	int line = 0, i;

	src.text = where;
	src.len = strlen(where);
	p.pos.src = &src;
	p.pos.loc = where;
	p.pos.line = p.pos.col = 1;
	p.target_pos = p.usym_pos = p.pos;
	dummy.pos = p.pos;
	p.fields = &dummy;
	p.name = "--vars";
	colon = strchr(w, ':');
	plus = strchr(colon ? colon : w, '+');
	if (plus) {
		*plus = 0;
		p.offset = strtoll(plus + 1, NULL, 0);
	}
	if (colon) {
		*colon = 0;
		p.kind = P_UPROBE;
		p.target = w;
		p.usym = colon + 1;
		p.usym_off = p.offset;
		if (sysroot) {
			/* the program's own ABI, as resolve_uprobes() gives a uprobe */
			char *path = xasprintf("%s%s", sysroot, p.target);
			const char *uabi = NULL;

			if (!uelf_check_arch(path, t->abi->arch, &uabi, NULL) &&
			    abi_user(t->abi, uabi))
				pt.abi = p.abi = abi_user(t->abi, uabi);
			free(path);
		}
	} else {
		p.kind = P_KPROBE;
		p.target = w;
		p.has_offset = plus != NULL;
	}
	r.s = &s;
	if (!probe_site(&r, &p, vmlinux, sysroot, &s)) {
		fprintf(stderr, "probecc: error: --vars %s: %s\n", where, r.err);
		return 1;
	}
	file = dwarf_decl_file(&s.func);
	dwarf_decl_line(&s.func, &line);
	sb_addf(out, "%s at 0x%llx (%s+0x%llx), %s:%d, in %s:\n", s.fname,
		(unsigned long long)s.pc, s.sym, (unsigned long long)(s.pc - s.entry),
		file ? file : "?", line, s.o->path);
	for (i = s.sub; i >= s.first; i--)
		list_scope(&r, &s.scopes[i], out, &p.pos, &p, t);
	free(s.scopes);
	free(w);
	return 0;
}

/* ---- functions that exist only inlined ---- */

struct inl {
	const char *name;
	bool found;
	char *where;
};

static int inl_func(Dwarf_Die *die, void *arg)
{
	struct inl *in = arg;
	const char *n = dwarf_diename(die);
	const char *file;
	int line = 0;

	if (!n || strcmp(n, in->name) || dwarf_func_inline(die) <= 0)
		return DWARF_CB_OK;
	in->found = true;
	file = dwarf_decl_file(die);
	dwarf_decl_line(die, &line);
	if (file) {
		/*
		 * Relative to the source tree: what it shares with the CU's
		 * own file (.../src/net/core/dev.c and
		 * .../src/include/linux/netdevice.h: include/linux/...).
		 */
		Dwarf_Die cu;
		const char *cuname = dwarf_diecu(die, &cu, NULL, NULL) ?
				     dwarf_diename(&cu) : NULL;
		size_t i, cut = 0;

		for (i = 0; cuname && file[i] && file[i] == cuname[i]; i++)
			if (file[i] == '/')
				cut = i + 1;
		in->where = xasprintf("%s:%d", file + cut, line);
	}
	return DWARF_CB_ABORT;
}

int cname_inlined(const char *vmlinux, const char *func, char **where)
{
	struct res r = { 0 };
	struct dobj *o = dobj_open(&r, vmlinux, true);
	struct inl in = { .name = func };
	Dwarf_Off off = 0, next;
	size_t hsize;

	*where = NULL;
	if (!o || !o->dw)
		return -1;
	while (!in.found &&
	       !dwarf_nextcu(o->dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;

		if (dwarf_offdie(o->dw, off + hsize, &cu))
			dwarf_getfuncs(&cu, inl_func, &in, 0);
		off = next;
	}
	*where = in.where;
	return in.found;
}
