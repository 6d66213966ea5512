// SPDX-License-Identifier: GPL-2.0
/*
 * uelf: a uprobe's PATH:SYMBOL[+OFF] to the file offset that
 * uprobe_events wants (Documentation/trace/uprobetracer.rst), and a
 * check of a raw PATH:OFFSET.  See uelf.h for the rule and its source.
 *
 * Needs only common/elffile.c and common/diag.c: errors go to the
 * caller's buffer, and nothing allocated here outlives a call but a
 * file the caller holds (uelf_hold()).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "elffile.h"
#include "uelf.h"

#define NAMBIG 4		/* ambiguous definitions listed at most */
#define STRIPPED_HINT "pass an unstripped copy under --sysroot or use PATH:0xOFFSET"

struct uelf {
	const char *path;
	int fd;
	Elf *elf;
	char *mem;		/* an xz file's unpacked bytes, or NULL */
	GElf_Ehdr eh;
	size_t nph;
	struct errmsg *e;	/* the caller's, may be NULL */
	char **kept;		/* names lent to a struct suggest, freed on close */
	size_t nkept;
};

static int uelf_fail(struct uelf *u, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int uelf_fail(struct uelf *u, const char *fmt, ...)
{
	va_list ap;

	if (u->e) {
		va_start(ap, fmt);
		vsnprintf(u->e->msg, sizeof(u->e->msg), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static void uelf_close(struct uelf *u)
{
	struct elf_file f = { .path = u->path, .fd = u->fd, .elf = u->elf, .mem = u->mem };

	elf_file_close(&f);
	u->elf = NULL;
	u->mem = NULL;
	u->fd = -1;
	while (u->nkept)
		free(u->kept[--u->nkept]);
	free(u->kept);
	u->kept = NULL;
}

/* @name (malloc'd) kept until uelf_close(); returned as it is. */
static const char *uelf_keep(struct uelf *u, char *name)
{
	u->kept = xrealloc_array(u->kept, u->nkept + 1, sizeof(*u->kept));
	return u->kept[u->nkept++] = name;
}

/* Open PATH as an ET_EXEC or ET_DYN ELF file with program headers. */
static int uelf_open(struct uelf *u, const char *path, struct errmsg *err)
{
	struct elf_file f;
	struct errmsg e;

	memset(u, 0, sizeof(*u));
	u->path = path;
	u->fd = -1;
	u->e = err;
	if (err)
		err->msg[0] = '\0';

	if (elf_file_open(&f, path, &e))
		return uelf_fail(u, "%s", e.msg);
	u->fd = f.fd;
	u->elf = f.elf;
	u->mem = f.mem;
	u->eh = f.eh;
	if (u->eh.e_type != ET_EXEC && u->eh.e_type != ET_DYN) {
		uelf_fail(u, "%s is an ELF %s, not an executable or shared library",
		     path, u->eh.e_type == ET_REL ? "relocatable object" :
		     u->eh.e_type == ET_CORE ? "core file" : "file of unknown type");
		goto out;
	}
	if (elf_getphdrnum(u->elf, &u->nph) != 0 || u->nph == 0) {
		uelf_fail(u, "%s has no program headers", path);
		goto out;
	}
	return 0;
out:
	uelf_close(u);
	return -1;
}

/*
 * uelf_is_dynamic() - does PATH run with a program interpreter
 * (PT_INTERP: ld.so and shared libraries, gABI ch. 5)?  1 yes, 0 no
 * (a static program, static-pie included), -1 unreadable.
 */
int uelf_is_dynamic(const char *path)
{
	struct uelf u;
	GElf_Phdr ph;
	size_t i;
	int dyn = 0;

	if (uelf_open(&u, path, NULL))
		return -1;
	for (i = 0; i < u.nph; i++)
		if (gelf_getphdr(u.elf, i, &ph) && ph.p_type == PT_INTERP)
			dyn = 1;
	uelf_close(&u);
	return dyn;
}

/* e_flags ABI field of 32-bit MIPS (binutils include/elf/mips.h). */
#ifndef EF_MIPS_ABI
#define EF_MIPS_ABI		0x0000f000
#endif
#ifndef E_MIPS_ABI_O32
#define E_MIPS_ABI_O32		0x00001000
#endif

/*
 * The user ABI of a file, named as in uelf.h; NULL: none probecc knows.
 * A 32-bit MIPS file says which of o32 and n32 in e_flags; any other is
 * the native ABI of its arch table row (common/arch.def).
 */
static const char *abi_of(const GElf_Ehdr *eh)
{
	const struct arch *a;

	if (eh->e_machine == EM_MIPS && eh->e_ident[EI_CLASS] == ELFCLASS32) {
		if (eh->e_flags & EF_MIPS_ABI2)
			return "n32";
		if (!(eh->e_flags & EF_MIPS_ABI) ||
		    (eh->e_flags & EF_MIPS_ABI) == E_MIPS_ABI_O32)
			return "o32";
		return NULL;
	}
	a = arch_by_elf(eh->e_machine, eh->e_ident[EI_CLASS], ELFDATANONE);
	return a ? a->abi : NULL;
}

/* "x86-64 (ELFCLASS64, ELFDATA2LSB, EM_X86_64)" */
static void describe(const GElf_Ehdr *eh, char *buf, size_t len)
{
	static const struct { unsigned int em; const char *name, *macro; } ms[] = {
		{ EM_MIPS, "MIPS", "EM_MIPS" }, { EM_X86_64, "x86-64", "EM_X86_64" },
		{ EM_386, "i386", "EM_386" }, { EM_AARCH64, "AArch64", "EM_AARCH64" },
		{ EM_ARM, "ARM", "EM_ARM" }, { EM_RISCV, "RISC-V", "EM_RISCV" },
		{ EM_PPC, "PowerPC", "EM_PPC" }, { EM_PPC64, "PowerPC64", "EM_PPC64" },
		{ EM_S390, "S/390", "EM_S390" }, { EM_SPARCV9, "SPARC64", "EM_SPARCV9" },
		{ EM_LOONGARCH, "LoongArch", "EM_LOONGARCH" },
	};
	unsigned char c = eh->e_ident[EI_CLASS], d = eh->e_ident[EI_DATA];
	const char *name = NULL, *macro = NULL, *abi = abi_of(eh);
	const char *cls = c == ELFCLASS32 ? "ELFCLASS32" : c == ELFCLASS64 ? "ELFCLASS64" : "ELFCLASSNONE";
	const char *data = d == ELFDATA2LSB ? "ELFDATA2LSB" : d == ELFDATA2MSB ? "ELFDATA2MSB" : "ELFDATANONE";
	char em[32], flags[64] = "";
	size_t i;

	for (i = 0; i < sizeof(ms) / sizeof(ms[0]); i++)
		if (ms[i].em == eh->e_machine) {
			name = ms[i].name;
			macro = ms[i].macro;
		}
	if (!macro) {
		snprintf(em, sizeof(em), "e_machine %u", eh->e_machine);
		macro = em;
		name = "an unknown machine";
	}
	if (eh->e_machine == EM_MIPS) {
		if (c == ELFCLASS32 && (eh->e_flags & EF_MIPS_ABI2))
			snprintf(flags, sizeof(flags), ", EF_MIPS_ABI2");
		else if (c == ELFCLASS32 && !abi)
			snprintf(flags, sizeof(flags), ", EF_MIPS_ABI 0x%x",
				 (unsigned int)(eh->e_flags & EF_MIPS_ABI));
		snprintf(buf, len, "%s MIPS%s%s (%s, %s, %s%s)",
			 d == ELFDATA2MSB ? "big-endian" : "little-endian",
			 abi ? " " : "", abi ? abi : "", cls, data, macro, flags);
		return;
	}
	snprintf(buf, len, "%s (%s, %s, %s)", name, cls, data, macro);
}

/* Whether the open file runs under --arch ARCH; see uelf_check_arch(). */
static int check_arch(struct uelf *u, const char *arch, const char **abip)
{
	/* the kernels of --arch: machine, byte order and native user ABI */
	const struct arch *a = arch_find(arch);
	const char *abi = abi_of(&u->eh), *why = "";
	char what[160];
	bool ok;

	if (!a)
		return uelf_fail(u, "unknown --arch '%s' for %s", arch, u->path);
	ok = u->eh.e_machine == a->elf_machine && u->eh.e_ident[EI_DATA] == a->elf_data && abi;
	if (ok && strcmp(abi, a->abi)) {
		/* a 64-bit MIPS kernel runs o32 and n32 programs too */
		ok = !strcmp(a->abi, "n64");
		if (!ok && !strcmp(a->abi, "o32"))
			why = "; a 32-bit MIPS kernel runs o32 programs only";
	}
	if (u->eh.e_machine == EM_MIPS && a->elf_machine == EM_MIPS && !abi)
		why = "; Linux runs MIPS o32, n32 and n64 programs only";
	if (!ok) {
		describe(&u->eh, what, sizeof(what));
		return uelf_fail(u, "%s is %s, not a%s %s program%s", u->path, what,
				 strchr("aeiox", arch[0]) ? "n" : "", arch, why);
	}
	if (abip)
		*abip = abi;
	return 0;
}

/*
 * The PT_LOAD whose file-backed part holds virtual address ADDR
 * (p_vaddr <= ADDR < p_vaddr + p_filesz).  Returns 0 and fills *ph;
 * 1 when ADDR is only in a segment's p_memsz tail (.bss); -1 for none.
 */
static int seg_by_vaddr(struct uelf *u, unsigned long long addr, GElf_Phdr *ph)
{
	int ret = -1;
	size_t i;

	for (i = 0; i < u->nph; i++) {
		GElf_Phdr p;

		if (!gelf_getphdr(u->elf, i, &p) || p.p_type != PT_LOAD)
			continue;
		if (addr >= p.p_vaddr && addr - p.p_vaddr < p.p_filesz) {
			*ph = p;
			return 0;
		}
		if (addr >= p.p_vaddr && addr - p.p_vaddr < p.p_memsz)
			ret = 1;
	}
	return ret;
}

/* The PT_LOAD holding file offset OFF, preferring an executable one. */
static bool seg_by_offset(struct uelf *u, unsigned long long off, GElf_Phdr *ph)
{
	bool found = false;
	size_t i;

	for (i = 0; i < u->nph; i++) {
		GElf_Phdr p;

		if (!gelf_getphdr(u->elf, i, &p) || p.p_type != PT_LOAD)
			continue;
		if (off >= p.p_offset && off - p.p_offset < p.p_filesz) {
			if (!found || (p.p_flags & PF_X)) {
				*ph = p;
				found = true;
			}
			if (p.p_flags & PF_X)
				break;
		}
	}
	return found;
}

/*
 * Where a uprobe may go on this machine: arch/mips/kernel/uprobes.c and
 * arch/arm64/kernel/probes/uprobes.c arch_uprobe_analyze_insn() refuse
 * an address that is not a multiple of 4 (instructions are 4 bytes).
 * WHAT names the place for the message.
 */
static int check_align(struct uelf *u, unsigned long long addr, const char *what)
{
	const char *arch = NULL;

	if (u->eh.e_machine == EM_MIPS)
		arch = "MIPS";
	else if (u->eh.e_machine == EM_AARCH64)
		arch = "AArch64";
	if (arch && (addr & 3))
		return uelf_fail(u, "%s in %s is not 4-byte aligned; %s uprobes must be on an instruction boundary",
			    what, u->path, arch);
	return 0;
}

static Elf_Scn *find_table(struct uelf *u, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(u->elf, scn))) {
		if (gelf_getshdr(scn, sh) && sh->sh_type == type && sh->sh_entsize)
			return scn;
	}
	return NULL;
}

/* Iterate a symbol table: for (i = 0; sym_at(...); i++). */
struct symtab {
	Elf_Scn *scn;
	GElf_Shdr sh;
	Elf_Data *data;
	size_t n;
	const char *name;	/* ".symtab" or ".dynsym" */
};

static bool table_open(struct uelf *u, GElf_Word type, struct symtab *t)
{
	memset(t, 0, sizeof(*t));
	t->scn = find_table(u, type, &t->sh);
	if (!t->scn)
		return false;
	t->data = elf_getdata(t->scn, NULL);
	if (!t->data)
		return false;
	t->n = t->sh.sh_size / t->sh.sh_entsize;
	t->name = type == SHT_SYMTAB ? ".symtab" : ".dynsym";
	return true;
}

/* Symbol I of T, its name in *name; false past the end or when unreadable. */
static bool sym_at(struct uelf *u, struct symtab *t, size_t i, GElf_Sym *s, const char **name)
{
	if (i >= t->n || !gelf_getsym(t->data, (int)i, s))
		return false;
	*name = elf_strptr(u->elf, t->sh.sh_link, s->st_name);
	if (!*name)
		*name = "";
	return true;
}

static bool is_code_type(int type)
{
	return type == STT_FUNC || type == STT_GNU_IFUNC;
}

/* A symbol that names a place in the file (not undefined, not absolute). */
static bool is_defined(const GElf_Sym *s)
{
	return s->st_shndx != SHN_UNDEF && s->st_shndx != SHN_ABS &&
	       s->st_shndx != SHN_COMMON;
}

/* st_value as an address: the Thumb bit of an EM_ARM function cleared (ARM ELF, 5.5.3). */
static unsigned long long sym_addr(struct uelf *u, const GElf_Sym *s)
{
	unsigned long long v = s->st_value;

	if (u->eh.e_machine == EM_ARM && GELF_ST_TYPE(s->st_info) == STT_FUNC)
		v &= ~1ULL;
	return v;
}

static const char *type_name(int type)
{
	switch (type) {
	case STT_OBJECT: return "a data object (STT_OBJECT)";
	case STT_TLS: return "a thread-local variable (STT_TLS)";
	case STT_SECTION: return "a section (STT_SECTION)";
	case STT_FILE: return "a file name (STT_FILE)";
	case STT_COMMON: return "a common block (STT_COMMON)";
	default: return "not code";
	}
}

/* What lookup() found in one table. */
struct found {
	int ncode;			/* distinct code addresses */
	unsigned long long code[NAMBIG];
	GElf_Sym code_sym;
	bool label;			/* an STT_NOTYPE definition */
	GElf_Sym label_sym;
	int data_type;			/* STT_* of a data definition, or -1 */
};

static void lookup(struct uelf *u, struct symtab *t, const char *symbol, struct found *f)
{
	const char *name;
	GElf_Sym s;
	size_t i;
	int k;

	memset(f, 0, sizeof(*f));
	f->data_type = -1;
	for (i = 0; sym_at(u, t, i, &s, &name); i++) {
		int type = GELF_ST_TYPE(s.st_info);
		unsigned long long a;

		if (!is_defined(&s) || strcmp(name, symbol))
			continue;
		if (is_code_type(type)) {
			a = sym_addr(u, &s);
			for (k = 0; k < f->ncode && k < NAMBIG; k++)
				if (f->code[k] == a)
					break;
			if (k < f->ncode && k < NAMBIG)
				continue;
			if (f->ncode < NAMBIG)
				f->code[f->ncode] = a;
			if (f->ncode++ == 0)
				f->code_sym = s;
		} else if (type == STT_NOTYPE) {
			if (!f->label)
				f->label_sym = s;
			f->label = true;
		} else if (f->data_type < 0) {
			f->data_type = type;
		}
	}
}

/*
 * The function names closest to SYMBOL, as common/suggest.c words them,
 * into buf.  Names are copied there before the tables go away.
 */
static void did_you_mean(struct uelf *u, struct uelf *su, const char *symbol,
			 char *buf, size_t len)
{
	static const GElf_Word types[] = { SHT_SYMTAB, SHT_DYNSYM };
	struct suggest sg;
	struct symtab t;
	const char *name;
	struct uelf *f;
	GElf_Sym s;
	size_t i, k;
	char *text;

	suggest_init(&sg, symbol);
	for (k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		f = k ? u : su;
		if (!table_open(f, types[k], &t))
			continue;
		for (i = 0; sym_at(f, &t, i, &s, &name); i++) {
			if (is_defined(&s) && is_code_type(GELF_ST_TYPE(s.st_info)) && *name)
				suggest_add(&sg, name);
		}
	}
	text = suggest_text(&sg);
	snprintf(buf, len, "%s", text);
	free(text);
}

/*
 * Resolve in an open file; see uelf_resolve_sym().  The .symtab is
 * @su's (@u itself, or its separate debug file), the .dynsym and the
 * segments @u's.
 */
static int resolve(struct uelf *u, struct uelf *su, const char *symbol,
		   unsigned long long off, struct uelf_sym *out)
{
	struct uelf *f;
	static const GElf_Word types[] = { SHT_SYMTAB, SHT_DYNSYM };
	bool have[2] = { false, false }, label = false;
	int data_type = -1, seg;
	struct found fd = { .ncode = 0 };
	const char *table = NULL;
	GElf_Sym s = { .st_name = 0 }, label_sym = { .st_name = 0 };
	const char *label_table = NULL;
	unsigned long long addr, size;
	char what[256], hint[512];
	struct symtab t;
	GElf_Phdr ph;
	size_t k;
	int type;

	if (!*symbol)
		return uelf_fail(u, "empty symbol name for %s", u->path);
	for (k = 0; k < 2 && !table; k++) {
		f = k ? u : su;
		if (!table_open(f, types[k], &t))
			continue;
		have[k] = true;
		lookup(f, &t, symbol, &fd);
		if (fd.ncode > 1) {
			int n, i;

			/* one uprobe, one place: name them by file offset */
			n = snprintf(hint, sizeof(hint), "%d functions named \"%s\" in the %s of %s (file offsets",
				     fd.ncode, symbol, t.name, u->path);
			for (i = 0; i < fd.ncode && i < NAMBIG && n > 0 && (size_t)n < sizeof(hint); i++) {
				if (seg_by_vaddr(u, fd.code[i], &ph) == 0)
					n += snprintf(hint + n, sizeof(hint) - n, "%s 0x%llx", i ? "," : "",
						      fd.code[i] - ph.p_vaddr + ph.p_offset);
				else
					n += snprintf(hint + n, sizeof(hint) - n, "%s ?", i ? "," : "");
			}
			return uelf_fail(u, "%s%s); use PATH:0xOFFSET to pick one", hint,
				    fd.ncode > NAMBIG ? ", ..." : "");
		}
		if (fd.ncode == 1) {
			s = fd.code_sym;
			table = t.name;
		} else if (fd.label && !label) {
			label = true;
			label_sym = fd.label_sym;
			label_table = t.name;
		} else if (fd.data_type >= 0 && data_type < 0) {
			data_type = fd.data_type;
		}
	}
	if (!table && label) {
		s = label_sym;
		table = label_table;
	}
	if (!table) {
		if (data_type >= 0)
			return uelf_fail(u, "\"%s\" in %s is %s, not a function", symbol,
				    u->path, type_name(data_type));
		if (!have[0] && !have[1])
			return uelf_fail(u, "%s has no symbol table (stripped); %s",
				    u->path, STRIPPED_HINT);
		did_you_mean(u, su, symbol, hint, sizeof(hint));
		if (su != u)
			return uelf_fail(u, "no symbol \"%s\" in %s (the debug file of %s)%s",
				    symbol, su->path, u->path, hint);
		if (!have[0])
			return uelf_fail(u, "no symbol \"%s\" in the .dynsym of %s, which has no .symtab (stripped)%s; %s",
				    symbol, u->path, hint, STRIPPED_HINT);
		return uelf_fail(u, "no symbol \"%s\" in %s%s", symbol, u->path, hint);
	}

	type = GELF_ST_TYPE(s.st_info);
	addr = sym_addr(u, &s);	/* the same e_machine: su is u's debug file */
	size = s.st_size;
	if (off)
		snprintf(what, sizeof(what), "%s+0x%llx", symbol, off);
	else
		snprintf(what, sizeof(what), "%s", symbol);
	if (size && off >= size)
		return uelf_fail(u, "%s is past the end of %s in %s (st_size 0x%llx)",
			    what, symbol, u->path, size);
	if (addr + off < addr)
		return uelf_fail(u, "%s overflows the address space", what);
	addr += off;

	seg = seg_by_vaddr(u, addr, &ph);
	if (seg == 1)
		return uelf_fail(u, "%s (0x%llx) in %s is not backed by the file (.bss)",
			    what, addr, u->path);
	if (seg < 0)
		return uelf_fail(u, "%s (0x%llx) is in no PT_LOAD segment of %s",
			    what, addr, u->path);
	if (!(ph.p_flags & PF_X))
		return uelf_fail(u, "%s (0x%llx) is in a non-executable segment of %s",
			    what, addr, u->path);
	snprintf(hint, sizeof(hint), "%s (0x%llx)", what, addr);
	if (check_align(u, addr, hint))
		return -1;

	if (out) {
		memset(out, 0, sizeof(*out));
		out->addr = addr;
		out->foff = addr - ph.p_vaddr + ph.p_offset;
		out->size = size;
		out->type = type;
		out->table = table;
		out->abi = abi_of(&u->eh);
		if (type == STT_GNU_IFUNC)
			snprintf(out->note, sizeof(out->note),
				 "%s is an IFUNC: this probes its resolver, not the implementation it picks",
				 symbol);
		else if (type == STT_NOTYPE)
			snprintf(out->note, sizeof(out->note),
				 "%s is an untyped symbol (STT_NOTYPE), not a function", symbol);
		else if (!size && off)
			snprintf(out->note, sizeof(out->note),
				 "%s has no size (st_size 0): +0x%llx is not checked against its end",
				 symbol, off);
	}
	return 0;
}

int uelf_resolve_sym(const char *path, const char *symbol, unsigned long long off,
		     struct uelf_sym *sym, struct errmsg *err)
{
	struct uelf u;
	int ret;

	if (uelf_open(&u, path, err))
		return -1;
	ret = resolve(&u, &u, symbol, off, sym);
	uelf_close(&u);
	return ret;
}

int uelf_resolve_dbg(const char *path, const char *dbgpath, const char *symbol,
		     unsigned long long off, struct uelf_sym *sym, struct errmsg *err)
{
	struct uelf u, su;
	int ret;

	if (uelf_open(&u, path, err))
		return -1;
	if (uelf_open(&su, dbgpath, err)) {
		uelf_close(&u);
		return -1;
	}
	if (su.eh.e_machine != u.eh.e_machine ||
	    su.eh.e_ident[EI_CLASS] != u.eh.e_ident[EI_CLASS] ||
	    su.eh.e_ident[EI_DATA] != u.eh.e_ident[EI_DATA])
		ret = uelf_fail(&u, "%s is not for the machine of %s (its ELF header differs)",
				dbgpath, path);
	else
		ret = resolve(&u, &su, symbol, off, sym);
	uelf_close(&su);
	uelf_close(&u);
	return ret;
}

int uelf_each_func(const char *path, void (*fn)(const char *name, void *arg),
		   void *arg)
{
	static const GElf_Word types[] = { SHT_SYMTAB, SHT_DYNSYM };
	struct symtab t;
	const char *name;
	struct uelf u;
	GElf_Sym s;
	size_t i, k;
	int type;

	if (uelf_open(&u, path, NULL))
		return -1;
	for (k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		if (!table_open(&u, types[k], &t))
			continue;
		for (i = 0; sym_at(&u, &t, i, &s, &name); i++) {
			type = GELF_ST_TYPE(s.st_info);
			if (is_defined(&s) && *name &&
			    (is_code_type(type) || type == STT_NOTYPE))
				fn(name, arg);
		}
	}
	uelf_close(&u);
	return 0;
}

int uelf_has_symtab(const char *path)
{
	struct uelf u;
	GElf_Shdr sh;
	int ret;

	if (uelf_open(&u, path, NULL))
		return -1;
	ret = find_table(&u, SHT_SYMTAB, &sh) != NULL;
	uelf_close(&u);
	return ret;
}

int uelf_check_arch(const char *path, const char *arch, const char **abi,
		    struct errmsg *err)
{
	return uelf_check_arch_desc(path, arch, abi, NULL, 0, err);
}

int uelf_check_arch_desc(const char *path, const char *arch, const char **abi,
			 char *desc, size_t desclen, struct errmsg *err)
{
	struct uelf u;
	int ret;

	if (uelf_open(&u, path, err))
		return -1;
	ret = check_arch(&u, arch, abi);
	if (!ret && desc && desclen)
		describe(&u.eh, desc, desclen);
	uelf_close(&u);
	return ret;
}

int uelf_resolve(const char *path, const char *symbol, unsigned long long off,
		 unsigned long long *foff, struct errmsg *err)
{
	struct uelf_sym sym;

	if (uelf_resolve_sym(path, symbol, off, &sym, err))
		return -1;
	*foff = sym.foff;
	return 0;
}

/*
 * The symbol that holds ADDR, as "symbol NAME" or "symbol NAME+0xN" in
 * buf, or "no symbol".  A sized symbol must contain ADDR; failing that,
 * the nearest unsized one at or above LO (the segment's start) below
 * it (asm labels).  Functions and objects before labels, globals
 * before locals.
 */
static void symbol_at(struct uelf *u, unsigned long long lo, unsigned long long addr,
		      char *buf, size_t len)
{
	static const GElf_Word types[] = { SHT_SYMTAB, SHT_DYNSYM };
	const char *best = NULL, *name;
	unsigned long long best_a = 0;
	int best_rank = -1;
	struct symtab t;
	GElf_Sym s;
	size_t i, k;

	for (k = 0; k < 2 && !best; k++) {
		if (!table_open(u, types[k], &t))
			continue;
		for (i = 0; sym_at(u, &t, i, &s, &name); i++) {
			int type = GELF_ST_TYPE(s.st_info), rank;
			unsigned long long a = sym_addr(u, &s);

			if (!is_defined(&s) || !*name || a > addr ||
			    a < lo || !(is_code_type(type) || type == STT_OBJECT || type == STT_NOTYPE))
				continue;
			if (s.st_size && addr - a >= s.st_size)
				continue;
			/* closer start first, then sized, function, global */
			rank = (s.st_size ? 4 : 0) + (type != STT_NOTYPE ? 2 : 0) +
			       (GELF_ST_BIND(s.st_info) != STB_LOCAL);
			if (!best || a > best_a || (a == best_a && rank > best_rank)) {
				best = name;
				best_a = a;
				best_rank = rank;
			}
		}
	}
	if (!best)
		snprintf(buf, len, "no symbol");
	else if (addr == best_a)
		snprintf(buf, len, "symbol %s", best);
	else
		snprintf(buf, len, "symbol %s+0x%llx", best, addr - best_a);
}

/* uelf_name_vaddr() in the open @u. */
static int name_vaddr(struct uelf *u, unsigned long long addr, char *buf, size_t len)
{
	char sym[320];
	size_t i;

	for (i = 0; i < u->nph; i++) {
		GElf_Phdr p;

		/* p_memsz: a separate debug file keeps the segments, not their bytes */
		if (!gelf_getphdr(u->elf, i, &p) || p.p_type != PT_LOAD ||
		    !(p.p_flags & PF_X) || addr < p.p_vaddr || addr - p.p_vaddr >= p.p_memsz)
			continue;
		symbol_at(u, p.p_vaddr, addr, sym, sizeof(sym));
		if (!strncmp(sym, "symbol ", 7)) {
			snprintf(buf, len, "%s", sym + 7);
			return 0;
		}
		break;
	}
	return -1;
}

int uelf_name_vaddr(const char *path, unsigned long long addr, char *buf, size_t len)
{
	struct uelf u;
	int ret;

	if (uelf_open(&u, path, NULL))
		return -1;
	ret = name_vaddr(&u, addr, buf, len);
	uelf_close(&u);
	return ret;
}

struct uelf *uelf_hold(const char *path)
{
	struct uelf *u = xcalloc(1, sizeof(*u));

	if (uelf_open(u, path, NULL)) {
		free(u);
		return NULL;
	}
	/* the bytes in memory (mapped or read), the descriptor not kept */
	if (u->fd >= 0 && elf_cntl(u->elf, ELF_C_FDREAD) == 0) {
		close(u->fd);
		u->fd = -1;
	}
	return u;
}

int uelf_name_held(struct uelf *u, unsigned long long addr, char *buf, size_t len)
{
	return u ? name_vaddr(u, addr, buf, len) : -1;
}

void uelf_release(struct uelf *u)
{
	if (!u)
		return;
	uelf_close(u);
	free(u);
}

int uelf_name_addr(const char *path, unsigned long long probe_off,
		   unsigned long long probe_ip, unsigned long long addr,
		   char *buf, size_t len)
{
	struct uelf u;
	GElf_Phdr ph;
	bool found;

	if (uelf_open(&u, path, NULL))
		return -1;
	found = seg_by_offset(&u, probe_off, &ph);
	uelf_close(&u);
	if (!found)
		return -1;
	return uelf_name_vaddr(path, addr - (probe_ip - (probe_off - ph.p_offset + ph.p_vaddr)),
			       buf, len);
}

int uelf_check_offset(const char *path, unsigned long long offset, struct errmsg *err)
{
	char what[64], sym[320];
	struct uelf u;
	GElf_Phdr ph;
	int ret;

	if (uelf_open(&u, path, err))
		return -1;
	snprintf(what, sizeof(what), "offset 0x%llx", offset);
	if (seg_by_offset(&u, offset, &ph) && (ph.p_flags & PF_X)) {
		ret = check_align(&u, offset, what);
	} else if (seg_by_vaddr(&u, offset, &ph) == 0 && (ph.p_flags & PF_X)) {
		/* The nm-address mistake. */
		symbol_at(&u, ph.p_vaddr, offset, sym, sizeof(sym));
		ret = uelf_fail(&u, "0x%llx is a virtual address (%s); the file offset is 0x%llx",
			   offset, sym, offset - ph.p_vaddr + ph.p_offset);
	} else if (seg_by_vaddr(&u, offset, &ph) == 0 && !seg_by_offset(&u, offset, &ph)) {
		symbol_at(&u, ph.p_vaddr, offset, sym, sizeof(sym));
		ret = uelf_fail(&u, "0x%llx is a virtual address in a non-executable segment of %s (%s); a uprobe must be on code",
			   offset, path, sym);
	} else if (seg_by_offset(&u, offset, &ph)) {
		ret = uelf_fail(&u, "offset 0x%llx is in a non-executable segment of %s (file offsets 0x%llx-0x%llx); a uprobe must be on code",
			   offset, path, (unsigned long long)ph.p_offset,
			   (unsigned long long)(ph.p_offset + ph.p_filesz));
	} else {
		ret = uelf_fail(&u, "offset 0x%llx is outside every loadable segment of %s",
			   offset, path);
	}
	uelf_close(&u);
	return ret;
}

/* ---- SDT (USDT) probes: .note.stapsdt ---- */

#define NT_STAPSDT 3		/* systemtap's sys/sdt.h _SDT_NOTE_TYPE */

struct sdt_note {
	unsigned long long loc, base, sem;
	const char *provider, *name, *args;
};

/* An address of SIZE bytes in the file's byte order. */
static unsigned long long get_addr(struct uelf *u, const unsigned char *p, size_t size)
{
	unsigned long long v = 0;
	size_t i;

	for (i = 0; i < size; i++) {
		if (u->eh.e_ident[EI_DATA] == ELFDATA2MSB)
			v = v << 8 | p[i];
		else
			v |= (unsigned long long)p[i] << (8 * i);
	}
	return v;
}

/* The desc of an NT_STAPSDT note; false when malformed. */
static bool sdt_parse(struct uelf *u, const unsigned char *desc, size_t size,
		      struct sdt_note *n)
{
	size_t asz = u->eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	const char *s, *end = (const char *)desc + size, *z;

	if (size < 3 * asz + 3)
		return false;
	n->loc = get_addr(u, desc, asz);
	n->base = get_addr(u, desc + asz, asz);
	n->sem = get_addr(u, desc + 2 * asz, asz);
	s = (const char *)desc + 3 * asz;
	n->provider = s;
	if (!(z = memchr(s, '\0', end - s)))
		return false;
	n->name = s = z + 1;
	if (s >= end || !(z = memchr(s, '\0', end - s)))
		return false;
	n->args = s = z + 1;
	return s < end && memchr(s, '\0', end - s);
}

/* The first section called NAME. */
static Elf_Scn *find_section(struct uelf *u, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *n;

	if (elf_getshdrstrndx(u->elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(u->elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(u->elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* Site INDEX of PROVIDER:NAME in an open file; see uelf_resolve_sdt(). */
static int resolve_sdt(struct uelf *u, const char *provider, const char *name,
		       unsigned int index, struct uelf_sdt *out)
{
	unsigned long long base = 0, addr = 0, sem = 0;
	char want[512], hint[1024], what[600];
	size_t off, next, name_off, desc_off;
	struct sdt_note n, hit = { 0 };
	unsigned int count = 0;
	struct suggest sg;
	GElf_Shdr sh, bsh;
	Elf_Data *data;
	GElf_Nhdr nh;
	GElf_Phdr ph;
	Elf_Scn *scn;
	int seg;

	snprintf(want, sizeof(want), "%s:%s", provider, name);
	scn = find_section(u, ".note.stapsdt", &sh);
	if (!scn || sh.sh_type != SHT_NOTE)
		return uelf_fail(u, "%s has no SDT probes (no .note.stapsdt section)", u->path);
	if (find_section(u, ".stapsdt.base", &bsh))
		base = bsh.sh_addr;
	data = elf_getdata(scn, NULL);
	if (!data)
		return uelf_fail(u, "%s: .note.stapsdt: %s", u->path, elf_errmsg(-1));

	suggest_init(&sg, want);
	for (off = 0; (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0; off = next) {
		if (nh.n_type != NT_STAPSDT || nh.n_namesz != sizeof("stapsdt") ||
		    memcmp((const char *)data->d_buf + name_off, "stapsdt", sizeof("stapsdt")))
			continue;
		if (!sdt_parse(u, (const unsigned char *)data->d_buf + desc_off, nh.n_descsz, &n))
			return uelf_fail(u, "%s: malformed SDT note at .note.stapsdt+0x%zx",
				    u->path, off);
		if (strcmp(n.provider, provider) || strcmp(n.name, name)) {
			/* suggest_add() borrows the name: keep it for the file's life */
			suggest_add(&sg, uelf_keep(u, xasprintf("%s:%s", n.provider, n.name)));
			continue;
		}
		if (count++ == index)
			hit = n;
	}
	if (!count) {
		char *text = suggest_text(&sg);

		snprintf(hint, sizeof(hint), "%s", text);
		free(text);
		return uelf_fail(u, "no SDT probe \"%s\" in %s%s", want, u->path, hint);
	}
	if (index >= count)
		return uelf_fail(u, "SDT probe \"%s\" has %u site%s in %s; there is no site #%u",
			    want, count, count == 1 ? "" : "s", u->path, index);

	/* prelink moves .stapsdt.base without rewriting the notes */
	addr = hit.loc;
	if (base)
		addr += base - hit.base;
	snprintf(what, sizeof(what), "SDT probe %s (0x%llx)", want, addr);
	seg = seg_by_vaddr(u, addr, &ph);
	if (seg || !(ph.p_flags & PF_X))
		return uelf_fail(u, "%s is not in an executable segment of %s", what, u->path);
	if (check_align(u, addr, what))
		return -1;
	memset(out, 0, sizeof(*out));
	out->addr = addr;
	out->foff = addr - ph.p_vaddr + ph.p_offset;
	out->nsites = count;
	snprintf(out->args, sizeof(out->args), "%s", hit.args);

	sem = hit.sem;
	if (sem) {
		seg = seg_by_vaddr(u, sem, &ph);
		if (seg || (ph.p_flags & PF_X))
			return uelf_fail(u, "the semaphore of SDT probe %s (0x%llx) is not in a file-backed data segment of %s",
				    want, sem, u->path);
		out->sem_addr = sem;
		out->sem_foff = sem - ph.p_vaddr + ph.p_offset;
	}
	return 0;
}

int uelf_resolve_sdt(const char *path, const char *provider, const char *name,
		     unsigned int index, struct uelf_sdt *sdt, struct errmsg *err)
{
	struct uelf u;
	int ret;

	if (uelf_open(&u, path, err))
		return -1;
	ret = resolve_sdt(&u, provider, name, index, sdt);
	uelf_close(&u);
	return ret;
}
