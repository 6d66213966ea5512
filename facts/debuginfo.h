/* SPDX-License-Identifier: GPL-2.0 */
/*
 * facts/debuginfo.c: the DWARF of a vmlinux or a user program, read with
 * elfutils libdw: objects opened once, the function and scopes at a
 * probe address, variables by name as C looks them up, types and their
 * C spelling, struct members, location expressions described, and
 * functions that exist only inlined (dw_inlined()).  What these facts
 * become as fetchargs is the compiler's (compiler/resolve.c).
 * Named dw_* (not dwarf_*), out of libdw's namespace.
 */
#ifndef PROBECC_DEBUGINFO_H
#define PROBECC_DEBUGINFO_H

#include <elfutils/libdw.h>
#include <stdbool.h>

#include "common.h"

/* One ELF file with DWARF, opened once. */
struct dw_obj {
	char *path;
	int fd;
	Elf *elf;
	Dwarf *dw;		/* NULL: no debug info */
	Dwarf_CFI *cfi;		/* .debug_frame, else .eh_frame; NULL: none */
	const char *cfi_what;
	bool kernel;
	bool big_endian;
	struct dw_obj *next;
};

/* The probe point: a function of an object at an address. */
struct dw_site {
	struct dw_obj *o;
	const char *fname;	/* the function's C name */
	const char *sym;	/* the symbol probed (foo.constprop.0) */
	Dwarf_Addr pc, entry;
	Dwarf_Die cu, func;
	Dwarf_Die *scopes;	/* innermost first (dwarf_getscopes) */
	int first, sub;		/* scopes[first..sub] are the function's own */
	bool uprobe;
	long long foff_delta;	/* uprobe: file offset = vaddr + delta (the probed segment) */
};

/*
 * dw_open() - the ELF file @path with its DWARF and call-frame
 * information (.debug_frame, else a non-empty .eh_frame), opened once
 * per process and kept (never closed: every probe of a run reads the
 * same few files).  @kernel: a vmlinux.  o->dw is NULL when the file has
 * no debug info.  NULL with @e when the file cannot be opened as ELF.
 */
struct dw_obj *dw_open(const char *path, bool kernel, struct errmsg *e);

/*
 * dw_forget() - close every object dw_open() keeps: for a caller that
 * reads the same path again with other contents (the fuzzer,
 * tests/fuzz/fuzz-facts.c).
 */
void dw_forget(void);

/*
 * dw_find_site() - the function of @o at address @pc (a symbol's value
 * plus the probe's offset), with its scopes innermost first (DWARF 4,
 * 3.3 and 3.4; an inlined call's scopes belong to the inlined function).
 * @what names the symbol in messages and becomes s->sym.  s->scopes is
 * malloc'd, the caller's to free.  false with @e when @o has no DWARF,
 * no CU covers @pc or no function is there.
 */
bool dw_find_site(struct dw_obj *o, Dwarf_Addr pc, const char *what,
		  struct dw_site *s, struct errmsg *e);

/*
 * dw_find_var() - @name looked up as C would at site @s: the function's
 * scopes, inner first, then the compilation unit's globals.  *@kind is
 * "parameter", "local variable" or "global"; *@argno the parameter's
 * 1-based number (0 for the others).  false: no such name.
 */
bool dw_find_var(struct dw_site *s, const char *name, Dwarf_Die *out,
		 const char **kind, int *argno);
/* Did-you-mean among the names in scope at @s (malloc'd, or NULL). */
char *dw_suggest_var(struct dw_site *s, const char *name);
/* A DW_TAG_formal_parameter or DW_TAG_variable. */
bool dw_is_var_tag(int tag);

/* ---- types (DWARF 4, 5.2-5.10) ---- */

/*
 * The most DW_AT_type links from a type to what it is built on
 * (typedefs, qualifiers, pointers, arrays, a function pointer's return
 * type).  What compilers emit for C stays far below; a longer chain is
 * debug info that refers back to itself (damaged or hostile), and every
 * walk along one stops here instead of looping.
 */
#define DW_TYPE_CHAIN_MAX 64
/*
 * dw_type_loops() - true when @type's DW_AT_type chain is longer than
 * DW_TYPE_CHAIN_MAX (it loops): checked on every type a C name reaches
 * (a variable's, a member's), so that the walks after it end.
 * dw_peel() and dw_type_name() stop there too.
 */
bool dw_type_loops(Dwarf_Die *type);

/* Through typedefs and qualifiers to the type itself; false: void. */
bool dw_peel(Dwarf_Die *type, Dwarf_Die *out);
/* The DW_AT_type of @die; false: none (void). */
bool dw_type_of(Dwarf_Die *die, Dwarf_Die *out);
/* Its size in bytes, -1 when DWARF does not say. */
long long dw_type_size(Dwarf_Die *type);
/* The C spelling of @type (NULL: void) appended to @sb: "struct net_device *", "char[16]". */
void dw_type_name(Dwarf_Die *type, struct strbuf *sb);
/* The same, malloc'd (the caller frees it). */
char *dw_type_str(Dwarf_Die *type);
/* char, signed char or unsigned char: what C strings are made of. */
bool dw_is_char(Dwarf_Die *type);
/* A struct, union or class. */
bool dw_is_aggregate(Dwarf_Die *t);
/*
 * dw_find_member() - member @name of the aggregate @agg, looking into
 * anonymous structs and unions as C does; *@off is its byte offset from
 * the start of @agg.  false: no such member.
 */
bool dw_find_member(Dwarf_Die *agg, const char *name, Dwarf_Die *out,
		    long long *off);
/* Offer every member name of @agg (anonymous members' included) to @sg. */
void dw_member_names(Dwarf_Die *agg, struct suggest *sg);

/* ---- location expressions (DWARF 4, 2.5-2.6) ---- */

/* "DW_OP_fbreg", ... for an operation code; "DW_OP_unknown" otherwise. */
const char *dw_opname(unsigned op);
/* @ops as readable text appended to @sb ("DW_OP_breg29 16 DW_OP_deref"). */
void dw_describe_ops(struct strbuf *sb, const Dwarf_Op *ops, size_t n);

/*
 * dw_inlined() - whether the DWARF of @vmlinux knows a function
 * @func only as an inline abstract instance (DW_TAG_subprogram with
 * DW_AT_inline, DWARF 4 3.3.8.1): asked for a name the kernel has no
 * symbol of, it tells "every call was inlined, no stack shows it" from
 * "no such function".  1 yes, with *@where "FILE:LINE" of its
 * declaration (malloc'd, the caller's; NULL when DWARF does not say);
 * 0 no; -1 when @vmlinux cannot be opened or has no DWARF (nothing to
 * tell).  Reads every CU's subprograms: about a second for a vmlinux
 * with full DWARF, so only on the error path.
 */
int dw_inlined(const char *vmlinux, const char *func, char **where);

#endif
