// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF of an ELF file (elfutils libdw), read for the compiler's
 * resolve phase and for --vars (debuginfo.h).  Rules and sources:
 *  - the scopes at an address: dwarf_getscopes(), an inlined call's
 *    scopes belonging to the inlined function (DWARF 4, 3.3.8.2);
 *  - member offsets: DW_AT_data_member_location as a constant, or the
 *    DWARF 2 DW_OP_plus_uconst expression;
 *  - call-frame information: .debug_frame, else .eh_frame when it has
 *    contents (a MIPS vmlinux has an empty one);
 *  - a function that exists only inlined: an abstract instance
 *    (DW_AT_inline, DWARF 4 3.3.8.1) and no symbol (dw_inlined()).
 */
#include <dwarf.h>
#include <elfutils/known-dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debuginfo.h"
#include "elffile.h"

/* dw_find_site()'s errors: false, the reason in @e. */
static bool site_fail(struct errmsg *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static bool site_fail(struct errmsg *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return false;
}

static struct dw_obj *objs;

const char *dw_opname(unsigned op)
{
	switch (op) {
#define DWARF_ONE_KNOWN_DW_OP(NAME, CODE) case CODE: return #CODE;
	DWARF_ALL_KNOWN_DW_OP
#undef DWARF_ONE_KNOWN_DW_OP
	}
	return "DW_OP_unknown";
}

struct dw_obj *dw_open(const char *path, bool kernel, struct errmsg *e)
{
	struct dw_obj *o;
	struct elf_file f;
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	for (o = objs; o; o = o->next)
		if (!strcmp(o->path, path))
			return o;
	if (elf_file_open(&f, path, e))
		return NULL;
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
			    !strcmp(n, ".eh_frame") && sh.sh_size > 16 && !o->cfi) {
				o->cfi = dwarf_getcfi_elf(o->elf);
				o->cfi_what = ".eh_frame";
			}
		}
	}
	o->next = objs;
	objs = o;
	return o;
}

void dw_forget(void)
{
	while (objs) {
		struct dw_obj *o = objs;

		objs = o->next;
		/* .debug_frame's CFI is the Dwarf's; .eh_frame's is ours */
		if (o->cfi && !strcmp(o->cfi_what, ".eh_frame"))
			dwarf_cfi_end(o->cfi);
		if (o->dw)
			dwarf_end(o->dw);
		if (o->elf)
			elf_end(o->elf);
		if (o->fd >= 0)
			close(o->fd);
		free(o->path);
		free(o);
	}
}

/* ---- types ---- */

/* Follow typedefs and qualifiers to the type itself; false: void. */
bool dw_peel(Dwarf_Die *type, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	Dwarf_Die d = *type;
	int i;

	for (i = 0; i <= DW_TYPE_CHAIN_MAX; i++) {
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
	return false;	/* a loop: dw_type_loops() has refused it already */
}

/* The DW_AT_type of @die; false: none (void). */
bool dw_type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_type, &a) &&
	       dwarf_formref_die(&a, out);
}

bool dw_type_loops(Dwarf_Die *type)
{
	Dwarf_Die d = *type;
	int i;

	for (i = 0; i <= DW_TYPE_CHAIN_MAX; i++)
		if (!dw_type_of(&d, &d))
			return false;
	return true;
}

long long dw_type_size(Dwarf_Die *type)
{
	Dwarf_Word n;

	return dwarf_aggregate_size(type, &n) ? -1 : (long long)n;
}

/* C spelling of a type ("struct net_device *", "char[16]"). */
void dw_type_name(Dwarf_Die *type, struct strbuf *sb)
{
	struct strbuf suffix = { 0 };
	Dwarf_Die d, sub;
	const char *n;
	bool have = type != NULL;

	if (have && dw_type_loops(type)) {
		sb_addf(sb, "(a type that refers back to itself)");
		return;
	}
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
		have = dw_type_of(&d, &d);
	}
	free(suffix.s);
}

char *dw_type_str(Dwarf_Die *type)
{
	struct strbuf sb = { 0 };

	dw_type_name(type, &sb);
	return sb.s;
}

/* A character type: char, signed/unsigned char (the ones C strings use). */
bool dw_is_char(Dwarf_Die *type)
{
	Dwarf_Die d;
	Dwarf_Attribute a;
	Dwarf_Word enc;

	if (!dw_peel(type, &d) || dwarf_tag(&d) != DW_TAG_base_type ||
	    dw_type_size(&d) != 1 || !dwarf_attr(&d, DW_AT_encoding, &a) ||
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
bool dw_find_member(Dwarf_Die *agg, const char *name, Dwarf_Die *out,
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
		if (!n && dw_type_of(&m, &t) && dw_peel(&t, &inner) &&
		    (dwarf_tag(&inner) == DW_TAG_structure_type ||
		     dwarf_tag(&inner) == DW_TAG_union_type) &&
		    dw_find_member(&inner, name, out, off)) {
			*off += o;
			return true;
		}
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

/* Offer the member names of @agg to @sg (anonymous members' included). */
void dw_member_names(Dwarf_Die *agg, struct suggest *sg)
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
		else if (dw_type_of(&m, &t) && dw_peel(&t, &inner))
			dw_member_names(&inner, sg);
	} while (dwarf_siblingof(&m, &m) == 0);
}

/* ---- the probe site ---- */

static bool cu_at(struct dw_obj *o, Dwarf_Addr pc, Dwarf_Die *cu)
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

bool dw_find_site(struct dw_obj *o, Dwarf_Addr pc, const char *what,
		  struct dw_site *s, struct errmsg *e)
{
	int n, i;

	memset(s, 0, sizeof(*s));
	s->o = o;
	s->pc = pc;
	if (!o->dw)
		return site_fail(e, o->kernel ?
			    "%s has no DWARF debug info (a kernel built with CONFIG_DEBUG_INFO_DWARF4 or _DWARF5)" :
			    "%s has no DWARF debug info (compile the program with -g)",
			    o->path);
	if (!cu_at(o, pc, &s->cu))
		return site_fail(e, "%s: no compilation unit of %s covers 0x%llx (built without -g?)",
			    what, o->path, (unsigned long long)pc);
	n = dwarf_getscopes(&s->cu, pc, &s->scopes);
	s->sub = -1;
	for (i = 0; i < n; i++)
		if (dwarf_tag(&s->scopes[i]) == DW_TAG_subprogram) {
			s->sub = i;
			break;
		}
	if (s->sub < 0) {
		free(s->scopes);	/* libdw's, malloc'd even with no function */
		s->scopes = NULL;
		return site_fail(e, "%s: the DWARF of %s has no function at 0x%llx",
			    what, o->path, (unsigned long long)pc);
	}
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

/* ---- location expressions ---- */

void dw_describe_ops(struct strbuf *sb, const Dwarf_Op *ops, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned op = ops[i].atom;

		sb_addf(sb, "%s%s", i ? " " : "", dw_opname(op));
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

/* ---- variables by name ---- */

bool dw_is_var_tag(int tag)
{
	return tag == DW_TAG_formal_parameter || tag == DW_TAG_variable;
}

/*
 * Look @name up as C would at the site: the function's scopes, inner
 * first, then the compilation unit.  *kind says what it is.
 */
bool dw_find_var(struct dw_site *s, const char *name, Dwarf_Die *out,
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

			if (!dw_is_var_tag(tag))
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

char *dw_suggest_var(struct dw_site *s, const char *name)
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

			if (dw_is_var_tag(dwarf_tag(&c)) && n)
				suggest_add(&sg, n);
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	return suggest_text(&sg);
}

bool dw_is_aggregate(Dwarf_Die *t)
{
	int tag = dwarf_tag(t);

	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
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

int dw_inlined(const char *vmlinux, const char *func, char **where)
{
	struct errmsg e;
	struct dw_obj *o = dw_open(vmlinux, true, &e);
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