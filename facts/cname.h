/* SPDX-License-Identifier: GPL-2.0 */
/*
 * facts/cname.c: C names (dev->name, a.b, p->q[2]) of probe fields
 * resolved to fetchargs from the DWARF of a vmlinux or a user program
 * (elfutils libdw), the variables at a probe point (--vars), and
 * functions that exist only inlined (cname_inlined()).
 * Named cname_* (not dwarf_*), out of libdw's namespace.
 */
#ifndef PROBECC_CNAME_H
#define PROBECC_CNAME_H

#include "compiler.h"
#include "kernel.h"

/*
 * cname_resolve() - replace every field of @prog written with C names
 * (F_VAR) by the fetch it stands for, and give it the DWARF type unless
 * the field has an explicit ":TYPE".
 *
 * Kprobes use the DWARF of @vmlinux (a path, NULL: none given) and the
 * function's address from @k's symbols; uprobes use the DWARF of
 * @sysroot + the probe's PATH (NULL sysroot: none), after
 * resolve_uprobes().  Fields without C names are left alone, and
 * nothing is opened when there are none.
 *
 * Each resolved field gets f->c_expr (the C text) and a line in
 * @explain saying where every step came from (DWARF location at the
 * probe address -> fetcharg).  Errors (no debug info, no such variable,
 * optimised out, no location at that address, not a pointer, no such
 * member with did-you-mean, a location a fetcharg cannot express, a
 * debug file that cannot be opened) all go to @d, at the name's
 * position where there is one; returns their number (the caller prints
 * them and stops: nothing here exits).
 *
 * Ownership: the new fetches and strings belong to @prog (never freed,
 * like the rest of the program).  @k, @t are only read.
 */
int cname_resolve(struct program *prog, const struct kernel *k,
		  const char *vmlinux, const char *sysroot,
		  const struct target *t, struct strbuf *explain,
		  struct diags *d);

/*
 * cname_list_vars() - like perf probe -V: append to @out the
 * parameters and the local variables in scope at @where, with their C
 * types and the fetcharg each one is at (or why it cannot be reached).
 * @where is FUNC[+OFF] (a kernel function, with @vmlinux) or
 * PATH:FUNC[+OFF] (a user program under @sysroot); OFF is in bytes.
 * Returns 0, or 1 after printing "probecc: error: ..." to stderr.
 */
int cname_list_vars(const char *where, const struct kernel *k,
		    const char *vmlinux, const char *sysroot,
		    const struct target *t, struct strbuf *out);

/*
 * cname_inlined() - whether the DWARF of @vmlinux knows a function
 * @func only as an inline abstract instance (DW_TAG_subprogram with
 * DW_AT_inline, DWARF 4 3.3.8.1): asked for a name the kernel has no
 * symbol of, it tells "every call was inlined, no stack shows it" from
 * "no such function".  1 yes, with *@where "FILE:LINE" of its
 * declaration (malloc'd, the caller's; NULL when DWARF does not say);
 * 0 no; -1 when @vmlinux cannot be opened or has no DWARF (nothing to
 * tell).  Reads every CU's subprograms: about a second for a vmlinux
 * with full DWARF, so only on the error path.
 */
int cname_inlined(const char *vmlinux, const char *func, char **where);

#endif
