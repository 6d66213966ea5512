// SPDX-License-Identifier: GPL-2.0
/*
 * The resolve phase: what a probe names in the target's own terms turned
 * into what the kernel takes, before check.c sees the program.
 *  - uprobes: PATH:SYMBOL[+OFF] to the file offset uprobe_events wants,
 *    each file's ABI decided (facts/uelf.c reads the ELF);
 *  - C names in fields (dev->name, a.b, p->q[2]) to fetchargs, from the
 *    DWARF facts/debuginfo.c reads, and --vars.
 * C names to fetchargs, rules and sources:
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
 *    offsets from DW_AT_data_bit_offset, or DWARF 2/3 DW_AT_bit_offset.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "debugfile.h"
#include "btf.h"
#include "debuginfo.h"
#include "kernel.h"
#include "sysroot.h"
#include "uelf.h"
#include "ulibs.h"

/* ---- uprobes ---- */

/*
 * usym_resolve() - uprobe @target:@sym+@off under @sysroot to *@us:
 * from the program's own symbols, or, when it is stripped (no
 * .symtab), from its separate debug file's (facts/debugfile.c: by
 * build-id, then .gnu_debuglink; its build-id the program's), the file
 * offset from the program's own segments either way.  *@dbg is the
 * debug file read (malloc'd, the caller's) or NULL, *@how how it was
 * found.  -EINVAL with @why; a stripped program without a debug file
 * says where one was looked for.
 */
static int usym_resolve(const char *sysroot, const char *target, const char *sym,
			unsigned long long off, struct uelf_sym *us, char **dbg,
			const char **how, struct errmsg *why)
{
	char *path = sysroot_path(sysroot, target, why);
	struct debugfile df;
	size_t n;
	int ret;

	*dbg = NULL;
	*how = NULL;
	if (!path)
		return -EINVAL;
	if (uelf_has_symtab(path) != 0) {	/* its own .symtab, or unreadable: uelf says */
		ret = uelf_resolve_sym(path, sym, off, us, why);
		free(path);
		return ret;
	}
	if (debugfile_find_path(sysroot, target, &df)) {
		ret = uelf_resolve_sym(path, sym, off, us, why);	/* its .dynsym */
		n = strlen(why->msg);
		if (ret && n < sizeof(why->msg))
			snprintf(why->msg + n, sizeof(why->msg) - n,
				 "; no separate debug file: %s", df.looked);
	} else {
		ret = uelf_resolve_dbg(path, df.path, sym, off, us, why);
		*dbg = xstrdup(df.path);
		*how = df.how;
	}
	debugfile_release(&df);
	free(path);
	return ret;
}

/* The files that name the user frames of a uprobe's program. */
struct uframe_files {
	char **path;		/* host paths, malloc'd */
	int n, cap;
	struct strbuf read;	/* what was read, for --explain */
	char *stripped;		/* the program is stripped and no debug file was found: where it looked */
	bool dynamic;
};

/* @target (a target path) and, stripped, its debug file, into @ff. */
static void uframe_add(struct uframe_files *ff, const char *sysroot,
		       const char *target, const char *role)
{
	struct errmsg e;
	char *path = sysroot_path(sysroot, target, &e);
	struct debugfile df;

	if (!path) {
		sb_addf(&ff->read, "%s%s (%s)", ff->read.len ? ", " : "", e.msg, role);
		return;
	}
	push_str(&ff->path, &ff->n, &ff->cap, path);
	sb_addf(&ff->read, "%s%s (%s", ff->read.len ? ", " : "", path, role);
	if (uelf_has_symtab(path) == 0) {
		if (!debugfile_find_path(sysroot, target, &df)) {
			push_str(&ff->path, &ff->n, &ff->cap, xstrdup(df.path));
			sb_addf(&ff->read, "; stripped, its debug file %s by %s", df.path, df.how);
		} else {
			sb_addf(&ff->read, "; stripped, no debug file");
			if (ff->n == 1)	/* the program itself */
				ff->stripped = xstrdup(df.looked);
		}
		debugfile_release(&df);
	}
	sb_addf(&ff->read, ")");
}

/* The program @target and the libraries it loads (DT_NEEDED, facts/ulibs.c). */
static void uframe_files(struct uframe_files *ff, const char *sysroot, const char *target)
{
	struct ulib *libs;
	struct errmsg e;
	int i, n;

	memset(ff, 0, sizeof(*ff));
	uframe_add(ff, sysroot, target, "the program");
	n = ulibs_find(sysroot, target, &libs, &e);
	ff->dynamic = n > 0;
	for (i = 0; i < n; i++) {
		if (libs[i].path)
			uframe_add(ff, sysroot, libs[i].path, "DT_NEEDED");
		else
			sb_addf(&ff->read, ", %s (DT_NEEDED: not found under the sysroot)",
				libs[i].name);
	}
	if (n > 0)
		ulibs_free(libs, n);
}

static void uframe_files_free(struct uframe_files *ff)
{
	while (ff->n)
		free(ff->path[--ff->n]);
	free(ff->path);
	free(ff->read.s);
	free(ff->stripped);
}

/* One name looked for among the files' symbols, and the names near it. */
struct fname_look {
	const char *want;
	bool found;
	struct suggest sg;
	char **kept;		/* the near names, copied: suggest_add() borrows */
	int nkept, capkept;
};

static void fname_seen(const char *name, void *arg)
{
	struct fname_look *l = arg;
	size_t n = strlen(l->want);

	/* a GCC clone (name.part.0, name.isra.0) is the function, as report/expect.c matches */
	if (!strncmp(name, l->want, n) && (!name[n] || (name[n] == '.' && !strchr(l->want, '.')))) {
		l->found = true;
	} else if (edit_distance(name, l->want, l->sg.limit) <= l->sg.limit) {
		char *k = xstrdup(name);

		push_str(&l->kept, &l->nkept, &l->capkept, k);
		suggest_add(&l->sg, k);
	}
}

/*
 * "expect U stack has F" on a uprobe U under @sysroot: F (a name, not a
 * glob) must be a symbol that can name one of U's user frames: of the
 * program, of the libraries it loads (DT_NEEDED under the sysroot), or
 * of a stripped one's separate debug file, as the report names frames
 * (did-you-mean from all of them); a GCC clone (F.part.0) is F.  A
 * stripped static program without a debug file has no names at all:
 * refused, saying where the debug file was looked for.  Each probe's files go to p->ustack_why for
 * --explain.  Returns the errors added to @d.
 */
static int check_user_stack_names(struct program *prog,
				  const char *sysroot, struct diags *d)
{
	const struct expectation *e;
	struct uframe_files *all = NULL, *ffp;
	struct probe *p, **seen = NULL;
	int errors = 0, nseen = 0, k;

	for (e = prog->expects; sysroot && e; e = e->next) {
		struct fname_look l = { .want = e->func };
		const struct pos *at = e->func_pos.src ? &e->func_pos : &e->pos;
		struct strbuf files = { 0 };
		char *near;
		int i;

		if (e->kind != E_STACK || strpbrk(e->func, "*?["))
			continue;
		for (p = prog->probes; p; p = p->next)
			if ((p->kind == P_UPROBE || p->kind == P_URETPROBE) &&
			    !strcmp(p->name, e->target))
				break;
		if (!p)
			continue;
		/* each probe's files found and read once */
		for (k = 0; k < nseen && seen[k] != p; k++)
			;
		if (k == nseen) {
			seen = xrealloc_array(seen, nseen + 1, sizeof(*seen));
			all = xrealloc_array(all, nseen + 1, sizeof(*all));
			seen[nseen] = p;
			uframe_files(&all[nseen++], sysroot, p->target);
			p->ustack_why = xstrdup(all[k].read.s);
		}
		ffp = &all[k];
		if (ffp->stripped && !ffp->dynamic) {
			diag_add(d, at, "%s has no symbol table (stripped) and no separate debug file (%s): no user frame of '%s' can be named",
				 ffp->path[0], ffp->stripped, p->name);
			errors++;
			continue;
		}
		suggest_init(&l.sg, e->func);
		for (i = 0; i < ffp->n && !l.found; i++)
			uelf_each_func(ffp->path[i], fname_seen, &l);
		if (!l.found) {
			for (i = 0; i < ffp->n; i++)
				sb_addf(&files, "%s%s", i ? (i == ffp->n - 1 ? " or " : ", ") : "",
					ffp->path[i]);
			near = suggest_text(&l.sg);
			diag_add(d, at, "no symbol \"%s\" in %s%s (a user frame of '%s' is named from its program%s%s)",
				 e->func, files.s, near, p->name,
				 ffp->dynamic ? " and the libraries it loads" : "",
				 ffp->stripped ? "; the program is stripped and has no separate debug file" : "");
			free(near);
			free(files.s);
			errors++;
		}
		while (l.nkept)
			free(l.kept[--l.nkept]);
		free(l.kept);
	}
	for (k = 0; k < nseen; k++)
		uframe_files_free(&all[k]);
	free(all);
	free(seen);
	return errors;
}

/*
 * resolve_uprobes() - turn every uprobe PATH:SYMBOL[+OFF] into the file
 * offset uprobe_events wants, and check every PATH:OFFSET, against the
 * ELF files under @sysroot (uelf.c; NULL: none given).  A symbol with
 * no sysroot, an unknown symbol, a stripped file or an offset that is
 * really an nm address is an error at its position, into @d; so is a
 * file that cannot run under --arch @arch (uelf_check_arch()).  With no
 * sysroot, an offset that looks like an address is a warning (@warn).
 */
int resolve_uprobes(struct program *prog, const char *sysroot,
		    const struct abi *kabi, struct diags *d, struct diags *warn)
{
	struct probe *p;
	int errors = 0;

	for (p = prog->probes; p; p = p->next) {
		struct uelf_sym us;
		struct errmsg why;
		const char *uabi = NULL, *how;
		char *path, *dbg, desc[160];

		if (p->kind != P_UPROBE && p->kind != P_URETPROBE)
			continue;
		if (!sysroot) {
			if (p->usym) {
				diag_add(d, &p->usym_pos,
					 "%s:%s needs --sysroot DIR (the target's root file system) to find its file offset",
					 p->target, p->usym);
				errors++;
			} else if ((unsigned long long)p->offset >= UELF_VADDR_HINT) {
				diag_add(warn, &p->target_pos,
					 "0x%llx looks like a virtual address (what nm and readelf -s print), not a file offset: the kernel refuses an offset past the file's end when the event is enabled (set_event: Invalid argument); --sysroot DIR checks it against the file",
					 (unsigned long long)p->offset);
			}
			continue;
		}
		path = sysroot_path(sysroot, p->target, &why);
		if (!path || uelf_check_arch_desc(path, kabi->arch, &uabi, desc,
						  sizeof(desc), &why)) {
			diag_add(d, p->usym ? &p->usym_pos : &p->target_pos, "%s", why.msg);
			errors++;
			free(path);
			continue;
		}
		/* The one place a uprobe's ABI is decided: probe_abi() reads it. */
		p->abi = abi_user(kabi, uabi);
		if (!p->abi)	/* uelf_check_arch() let through a pair abi.c lacks */
			internal_error("no %s table under a %s kernel", uabi, kabi->arch);
		p->abi_why = xstrdup(desc);
		if (p->usym) {
			if (usym_resolve(sysroot, p->target, p->usym,
					 (unsigned long long)p->offset, &us, &dbg,
					 &how, &why)) {
				diag_add(d, &p->usym_pos, "%s", why.msg);
				errors++;
			} else {
				p->usym_off = p->offset;
				p->offset = (long long)us.foff;
				p->has_offset = true;
				if (dbg)
					p->usym_why = xasprintf("%s at 0x%llx from the .symtab of %s (the separate debug file of %s, found by %s), file offset 0x%llx from the program's PT_LOAD",
								p->usym, us.addr, dbg, path, how,
								us.foff);
			}
			free(dbg);
		} else if (uelf_check_offset(path, (unsigned long long)p->offset,
					     &why)) {
			diag_add(d, &p->target_pos, "%s", why.msg);
			errors++;
		}
		free(path);
	}
	errors += check_user_stack_names(prog, sysroot, d);
	return errors;
}

/* ---- C names ---- */

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
	struct dw_site *s;
	struct strbuf why;	/* --explain for the field being resolved */
	char err[512];
	const struct pos *errpos;
	bool terse;		/* --vars: the messages name only the variable */
};

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

/* cname_fail() for a looping type: where it is and why it is refused. */
static bool loop_fail(struct res *r, const struct pos *p, const char *what,
		      Dwarf_Die *type)
{
	return cname_fail(r, p, "the DWARF type of '%s' (DIE 0x%llx) refers back to itself: more than %d DW_AT_type links, damaged debug info",
			  what, (unsigned long long)dwarf_dieoffset(type),
			  DW_TYPE_CHAIN_MAX);
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

/* The canonical frame address at the site. */
static bool cfa(struct res *r, const struct pos *pos, struct sval *v)
{
	struct dw_site *s = r->s;
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
	dw_describe_ops(&r->why, ops, n);
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

			dw_describe_ops(&sb, ops, n);
			return cname_fail(r, pos, "%s is at \"%s\" at 0x%llx: %s is beyond what a fetcharg can express",
				    who, sb.s, (unsigned long long)r->s->pc, dw_opname(op));
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
	dw_describe_ops(&r->why, ops, n);
	sb_addf(&r->why, " at 0x%llx", (unsigned long long)r->s->pc);
	return eval(r, &a, ops, n, pos, who, l);
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

		if (dw_type_of(t, &u) && dw_peel(&u, &u) && dwarf_attr(&u, DW_AT_encoding, &a) &&
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
	long long start;

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
		else if (dw_type_of(m, &t))
			bs = (Dwarf_Word)dw_type_size(&t);
		start = r->s->o->big_endian ? moff * 8 + (long long)bo :
			moff * 8 + (long long)bs * 8 - (long long)bo - (long long)w;
	} else {
		start = moff * 8;
	}
	return bitfield_type(start, (unsigned)w, r->s->o->big_endian, byte_off, type, tlen);
}

/* Resolve field @f's C expression at site @s; false with r->err. */
static bool resolve_field(struct res *r, struct field *f)
{
	const struct fetcharg *v = f->fetcharg;
	struct dw_site *s = r->s;
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
	if (!dw_find_var(s, v->name, &var, &kind, &argno)) {
		char *dym = dw_suggest_var(s, v->name);

		return cname_fail(r, &v->pos, "%s has no parameter or variable '%s' in scope at %s+0x%llx%s",
			    s->fname, v->name, s->sym,
			    (unsigned long long)(s->pc - s->entry), dym);
	}
	have_type = dw_type_of(&var, &type);
	if (have_type && dw_type_loops(&type))
		return loop_fail(r, &v->pos, v->name, &type);
	tn = dw_type_str(have_type ? &type : NULL);
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

		if (!have_type || !dw_peel(&type, &pt))
			return cname_fail(r, &a->pos, "'%s' is void", cur);
		if (a->kind == A_DOT || a->kind == A_ARROW) {
			Dwarf_Die agg = pt;

			if (a->kind == A_ARROW) {
				struct sval pv;

				if (dwarf_tag(&pt) != DW_TAG_pointer_type)
					return cname_fail(r, &a->pos, "'%s' is %s, not a pointer%s", cur,
						    dw_type_str(&type),
						    dw_is_aggregate(&pt) ? "; write '.' for its member" : "");
				if (!dw_type_of(&pt, &agg) || !dw_peel(&agg, &agg) || !dw_is_aggregate(&agg))
					return cname_fail(r, &a->pos, "'%s' points to %s, not to a struct or union",
						    cur, have_type && dw_type_of(&pt, &m) ? dw_type_str(&m) : "void");
				if (!pointer_value(r, &l, &a->pos, &pv))
					return false;
				l.mem = true;
				l.v = pv;
			} else if (!dw_is_aggregate(&pt)) {
				return cname_fail(r, &a->pos, "'%s' is %s, not a struct or union%s", cur,
					    dw_type_str(&type),
					    dwarf_tag(&pt) == DW_TAG_pointer_type ? "; write '->' for a member through a pointer" : "");
			}
			if (!dw_find_member(&agg, a->member, &m, &off)) {
				struct suggest sg;
				char *dym;

				suggest_init(&sg, a->member);
				dw_member_names(&agg, &sg);
				dym = suggest_text(&sg);
				return cname_fail(r, &a->pos, "%s has no member '%s'%s",
					    dw_type_str(&agg), a->member, dym);
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
			have_type = dw_type_of(&m, &type);
			if (have_type && dw_type_loops(&type))
				return loop_fail(r, &a->pos, expr.s, &type);
			sb_addf(&r->why, "; %s%s at +%lld (%s)", a->kind == A_DOT ? "." : "->",
				a->member, off, dw_type_str(have_type ? &type : NULL));
			continue;
		}
		/* [index] */
		if (dwarf_tag(&pt) == DW_TAG_array_type) {
			if (!l.mem)
				return cname_fail(r, &a->pos, "'%s' is an array held in registers", cur);
			if (!dw_type_of(&pt, &m))
				return cname_fail(r, &a->pos, "'%s' has no element type", cur);
		} else if (dwarf_tag(&pt) == DW_TAG_pointer_type) {
			struct sval pv;

			if (!dw_type_of(&pt, &m))
				return cname_fail(r, &a->pos, "'%s' is a void pointer: it cannot be indexed", cur);
			if (!pointer_value(r, &l, &a->pos, &pv))
				return false;
			l.mem = true;
			l.v = pv;
		} else {
			return cname_fail(r, &a->pos, "'%s' is %s, neither an array nor a pointer",
				    cur, dw_type_str(&type));
		}
		esize = dw_type_size(&m);
		if (esize < 0)
			return cname_fail(r, &a->pos, "'%s': element size unknown", cur);
		if (l.v.is_const)
			l.v.c += (unsigned long long)(a->index * esize);
		else
			l.v.add += a->index * esize;
		l.v.cfa_off += a->index * esize;
		sb_addf(&expr, "[%lld]", a->index);
		sb_addf(&r->why, "; [%lld] at +%lld (%s)", a->index, a->index * esize,
			dw_type_str(&m));
		type = m;
	}
	f->c_expr = expr.s;

	/* the final value and its type */
	string = f->type && (!strcmp(f->type, "string") || !strcmp(f->type, "ustring"));
	if (!have_type || !dw_peel(&type, &pt))
		return cname_fail(r, &v->pos, "'%s' is void", expr.s);
	if (!f->type) {
		Dwarf_Die el;

		if ((dwarf_tag(&pt) == DW_TAG_array_type ||
		     dwarf_tag(&pt) == DW_TAG_pointer_type) &&
		    dw_type_of(&pt, &el) && dw_is_char(&el)) {
			string = true;
			f->type = xstrdup("string");
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
		long long size = dw_type_size(&pt);
		const char *kt = NULL;

		if (!f->type) {
			if (bits[0])
				kt = bits;
			else
				kt = scalar_type(r, &pt, size, &note);
			if (!kt) {
				if (dw_is_aggregate(&pt)) {
					return cname_fail(r, &v->pos, "'%s' is %s, not a value: name one of its members (%s%s)",
						    expr.s, dw_type_str(&type),
						    expr.s, l.mem ? ".MEMBER" : "->MEMBER");
				}
				if (dwarf_tag(&pt) == DW_TAG_array_type)
					return cname_fail(r, &v->pos, "'%s' is %s: index it (%s[0])",
						    expr.s, dw_type_str(&type), expr.s);
				return cname_fail(r, &v->pos, "'%s' is %s (%lld bytes): no fetcharg type holds it; give one with ':TYPE'",
					    expr.s, dw_type_str(&type), size);
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

/* Where @p's first C name is, for a message about them all. */
static const struct pos *first_cname(const struct probe *p)
{
	const struct field *f;

	for (f = p->fields; f; f = f->next)
		if (f->fetcharg->kind == F_VAR)
			return &f->fetcharg->pos;
	return &p->fields->pos;
}

/* The object and address a probe is at; false with r->err. */
static bool probe_site(struct res *r, const struct probe *p,
		       const char *vmlinux, const char *sysroot, struct dw_site *s)
{
	struct dw_obj *o;
	struct errmsg err;

	if (p->kind == P_KPROBE || p->kind == P_KRETPROBE) {
		const struct ksym *ks;

		if (!vmlinux) {
			const char *why;

			if (kernel_btf_names(r->t, true, &why))
				(void)kernel_ret_args(r->t, &why);
			return cname_fail(r, first_cname(p), "C names in kprobe '%s' need the kernel's types, and none are given: its BTF (a --target capture of a kernel built with CONFIG_DEBUG_INFO_BTF, or --btf FILE) or its DWARF (--vmlinux VMLINUX; qemu-images/run-probes --dbg fetches Debian's -dbg one); or write +OFF(argN) (the kernel's own BTF names cannot stand in: %s)",
				    p->name, why);
		}
		ks = ksym_find(r->k, p->target);
		if (!ks) {
			struct suggest sg;

			ksym_suggest(r->k, p->target, true, &sg);
			return cname_fail(r, &p->target_pos, "no function '%s' in %s%s",
				    p->target, vmlinux, suggest_text(&sg));
		}
		while (ks && (ks->module || (ks->type != 't' && ks->type != 'w')))
			ks = ksym_next(r->k, ks);
		if (!ks)
			return cname_fail(r, &p->target_pos, "'%s' is not a function of %s: its DWARF is not there (a module's .ko is not read)",
				    p->target, vmlinux);
		o = dw_open(vmlinux, true, &err);
		if (!o)
			return cname_fail(r, NULL, "%s", err.msg);
		if (!dw_find_site(o, ks->addr + (unsigned long long)p->offset,
				  p->target, s, &err))
			return cname_fail(r, &p->target_pos, "%s", err.msg);
		return true;
	}
	if (p->kind == P_UPROBE || p->kind == P_URETPROBE) {
		struct uelf_sym us;
		const char *how;
		char *path;
		size_t i, n;

		if (!sysroot)
			return cname_fail(r, first_cname(p), "C names in uprobe '%s' need the program's debug info: pass --sysroot DIR",
				    p->name);
		if (!p->usym)
			return cname_fail(r, &p->target_pos, "C names need the uprobe written PATH:SYMBOL (the function gives the scope)");
		if (usym_resolve(sysroot, p->target, p->usym,
				 (unsigned long long)p->usym_off, &us, &path, &how, &err))
			return cname_fail(r, &p->usym_pos, "%s", err.msg);
		if (!path && !(path = sysroot_path(sysroot, p->target, &err)))	/* not stripped: its own DWARF */
			return cname_fail(r, &p->target_pos, "%s", err.msg);
		o = dw_open(path, false, &err);
		if (!o)
			return cname_fail(r, NULL, "%s", err.msg);
		if (!dw_find_site(o, us.addr, p->usym, s, &err))
			return cname_fail(r, &p->usym_pos, "%s", err.msg);
		s->uprobe = true;
		s->foff_delta = (long long)(us.foff - us.addr);
		(void)i;
		(void)n;
		return true;
	}
	return cname_fail(r, &p->pos, "a static event has its own fields");
}

/*
 * Whether the kernel itself can take @p's C names from its BTF (no
 * --vmlinux given): a kprobe at a function's entry (trace_kprobe.c sets
 * TPARG_FL_FENTRY only there) or a kretprobe (6.10: the entry's
 * arguments kept, FETCH_OP_EDATA), on a kernel kernel_btf_names() says
 * has them.  *@why says why or why not.
 */
static bool btf_probe(const struct probe *p, const struct target *t,
		      const char **why)
{
	const struct field *f;
	bool fields = false;

	if (p->kind != P_KPROBE && p->kind != P_KRETPROBE)
		return false;
	for (f = p->fields; f; f = f->next)
		if (f->fetcharg->kind == F_VAR && f->fetcharg->path)
			fields = true;
	if (!kernel_btf_names(t, fields, why))
		return false;
	if (p->kind == P_KRETPROBE && !kernel_ret_args(t, why))
		return false;
	return true;
}

/*
 * Field @f of @p as the kernel's BTF form: the C text ("dev->name"),
 * which trace_probe.c parse_btf_arg() resolves at definition time.  It
 * takes a parameter's name, then "->" and "." members (a "." right
 * after the parameter and an [index] it refuses: split_next_field()).
 * A string type needs no "+0()": the kernel adds the dereference a
 * char * or char [] needs (fprobetrace.rst "BTF arguments").
 */
static bool btf_field(struct res *r, struct field *f)
{
	struct fetcharg *v = f->fetcharg, *b;
	struct strbuf text = { 0 };
	const struct access *a;

	sb_addf(&text, "%s", v->name);
	for (a = v->path; a; a = a->next) {
		if (a->kind == A_INDEX)
			return cname_fail(r, &a->pos, "the kernel's BTF names take no [index] (trace_probe.c parse_btf_arg()); give --vmlinux for its DWARF, or read the element with +OFF()");
		if (a == v->path && a->kind == A_DOT)
			return cname_fail(r, &a->pos, "'%s.%s': the kernel's BTF names take no '.' on a parameter itself (trace_probe.c NOSUP_DAT_ARG); give --vmlinux for its DWARF",
					  v->name, a->member);
		sb_addf(&text, "%s%s", a->kind == A_ARROW ? "->" : ".", a->member);
	}
	b = xcalloc(1, sizeof(*b));
	b->kind = F_BTF;
	b->name = text.s;
	b->pos = v->pos;
	f->fetcharg = b;
	f->c_expr = text.s;
	if (f->type && (!strcmp(f->type, "string") || !strcmp(f->type, "ustring")))
		f->string_at = true;
	return true;
}

static bool has_cvar(const struct probe *p)
{
	const struct field *f;

	for (f = p->fields; f; f = f->next)
		if (f->fetcharg->kind == F_VAR)
			return true;
	return false;
}

int resolve_cnames(struct program *prog, const struct kernel *k,
		  const char *vmlinux, const char *sysroot,
		  const struct target *t, struct strbuf *explain,
		  struct diags *d)
{
	struct probe *p;
	int errors = 0;
	bool any = false, any_btf = false, any_own = false;
	const char *btf_why;

	for (p = prog->probes; p; p = p->next) {
		/* a uprobe's registers and stack slots are its file's ABI's */
		struct target pt = *t;
		struct res r = { .t = &pt, .k = k };
		struct dw_site s;
		struct field *f;

		pt.abi = probe_abi(p, t);

		if (!has_cvar(p))
			continue;
		if (!vmlinux && t->btf && p->kind == P_KPROBE) {
			if (!any_own)
				sb_addf(explain, "C names (the kernel's BTF, %s, read by probecc: %u types; no --vmlinux given): a parameter is argN by its position in the prototype, at the function's entry\n",
					kbtf_what(t->btf), kbtf_ntypes(t->btf));
			any_own = true;
			errors += btf_resolve_probe(t->btf, p, t, explain, d);
			continue;
		}
		if (!vmlinux && btf_probe(p, t, &btf_why)) {
			if (!any_btf)
				sb_addf(explain, "C names (the kernel's BTF, no --vmlinux given): %s; resolved by the kernel when it defines the probe (PROBE_EVENTS_BTF_ARGS); a kprobe, not an fprobe (f:), since kprobe_event= defines it from the command line and fprobe events exist only in dynamic_events, later, by the agent (and need FPROBE, which arm64 6.12 has not)\n",
					btf_why);
			any_btf = true;
			if (p->kind == P_KPROBE && p->offset) {
				diag_add(d, &p->target_pos, "the kernel's BTF names are known only at a function's entry, and this probe is at %s+%lld; give --vmlinux for its DWARF",
					 p->target, p->offset);
				errors++;
				continue;
			}
			for (f = p->fields; f; f = f->next) {
				char *text;

				if (f->fetcharg->kind != F_VAR)
					continue;
				if (!btf_field(&r, f)) {
					diag_add(d, r.errpos, "%s", r.err);
					errors++;
					continue;
				}
				text = fetch_field(f, p, t);
				sb_addf(explain, "  %s.%s = %s: BTF%s -> %s\n", p->name, f->name,
					f->c_expr, p->kind == P_KRETPROBE ?
					" (at the return: the entry's value, kept by the kernel)" : "",
					text + strlen(f->name) + 1);
				free(text);
			}
			continue;
		}
		if (!any) {
			const char *why;

			sb_addf(explain, "C names (DWARF):\n");
			if (!kernel_btf_names(t, true, &why))
				sb_addf(explain, "  the kernel's own BTF names (PROBE_EVENTS_BTF_ARGS): no, %s: probecc translates them from DWARF\n",
					why);
			else if (vmlinux)
				sb_addf(explain, "  the kernel's own BTF names (PROBE_EVENTS_BTF_ARGS): yes, %s; --vmlinux is given: probecc translates them from its DWARF\n",
					why);
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

		if (!dw_is_var_tag(tag) || !n)
			continue;
		tn = dw_type_str(dw_type_of(&c, &type) ? &type : NULL);
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

int resolve_list_vars(const char *where, const struct kernel *k,
		    const char *vmlinux, const char *sysroot,
		    const struct target *t, struct strbuf *out)
{
	static struct source src = { .name = "--vars" };
	struct probe p = { 0 };
	struct field dummy = { 0 };
	struct target pt = *t;
	struct res r = { .t = &pt, .k = k, .terse = true };
	struct dw_site s;
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
			char *path = sysroot_path(sysroot, p.target, NULL);
			const char *uabi = NULL;

			if (path && !uelf_check_arch(path, t->abi->arch, &uabi, NULL) &&
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
