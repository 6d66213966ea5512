// SPDX-License-Identifier: GPL-2.0
/*
 * ELF kernels with libelf: a vmlinux (symbols with sizes, the ftrace call
 * sites, the kprobe blacklist, the banner, the machine, the IKCONFIG
 * blob) and the *.ko files of a modules directory (their functions).
 * Section and symbol names are the kernel's own:
 * include/asm-generic/vmlinux.lds.h (MCOUNT_REC, KPROBE_BLACKLIST),
 * kernel/kprobes.c (populate_kprobe_blacklist), kernel/configs.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "elffile.h"
#include "kernel.h"

/*
 * elf_open() - @path as an ELF file whose sections can be named (the
 * section header string table): the kernel's ELF files all have one.
 */
static int elf_open(struct elf_file *f, const char *path, struct errmsg *e)
{
	size_t shstrndx;
	int rc = elf_file_open(f, path, e);

	if (rc)
		return rc;
	if (elf_getshdrstrndx(f->elf, &shstrndx)) {
		elf_file_close(f);
		return errmsg_set(e, -ENOEXEC, "%s is not an ELF file", path);
	}
	return 0;
}

static Elf_Scn *find_symtab(struct elf_file *f, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(f->elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == SHT_SYMTAB)
			return scn;
	return NULL;
}

/*
 * Bytes at virtual address @addr, @len of them, from the section that
 * holds them (SHT_PROGBITS); NULL if none does.  Points into libelf's
 * data, valid until elf_file_close().
 */
static const unsigned char *vaddr_bytes(struct elf_file *f,
					unsigned long long addr, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(f->elf, scn))) {
		Elf_Data *d;

		/* in the section, without a sum that could wrap */
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || addr < sh.sh_addr ||
		    len > sh.sh_size || addr - sh.sh_addr > sh.sh_size - len)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || addr - sh.sh_addr + len > d->d_size)
			return NULL;
		return (const unsigned char *)d->d_buf + (addr - sh.sh_addr);
	}
	return NULL;
}

/* One target word (4 or 8 bytes, the ELF's byte order) at @p. */
static unsigned long long word(const struct elf_file *f,
			       const unsigned char *p)
{
	int n = f->eh.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4, i;
	unsigned long long v = 0;

	for (i = 0; i < n; i++)
		v |= (unsigned long long)p[f->eh.e_ident[EI_DATA] ==
					   ELFDATA2LSB ? i : n - 1 - i]
		     << (8 * i);
	return v;
}

/* The --arch name for the ELF header, or NULL: common/arch.c arch_by_elf(). */
static const char *elf_arch(const GElf_Ehdr *eh)
{
	const struct arch *a = arch_by_elf(eh->e_machine, eh->e_ident[EI_CLASS],
					   eh->e_ident[EI_DATA]);

	return a ? a->name : NULL;
}

/* Marker symbols of the ranges the loader needs. */
struct marks {
	unsigned long long v[12];
	bool have[12];
};
static const char *const mark_names[12] = {
	"__start_mcount_loc", "__stop_mcount_loc",
	"__start_kprobe_blacklist", "__stop_kprobe_blacklist",
	"__kprobes_text_start", "__kprobes_text_end",
	"__noinstr_text_start", "__noinstr_text_end",
	"__entry_text_start", "__entry_text_end",	/* x86: arch blacklist */
	"linux_banner", NULL,
};

static void add_range(struct kernel *k, unsigned long long s,
		      unsigned long long e)
{
	struct krange *r;

	if (e <= s)
		return;
	r = xrealloc_array(k->blacklist, k->nblacklist + 1, sizeof(*r));
	k->blacklist = r;
	r[k->nblacklist].start = s;
	r[k->nblacklist++].end = e;
}

/* The IKCONFIG blob: "IKCFG_ST" gzip data "IKCFG_ED" (kernel/configs.c). */
static int find_ikconfig(struct kernel *k, struct elf_file *f,
			 struct errmsg *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int rc;

	while ((scn = elf_nextscn(f->elf, scn))) {
		const char *st, *ed;
		Elf_Data *d;
		char *text;
		size_t len;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		st = memmem(d->d_buf, d->d_size, "IKCFG_ST", 8);
		if (!st)
			continue;
		ed = memmem(st, (const char *)d->d_buf + d->d_size - st,
			    "IKCFG_ED", 8);
		if (!ed)
			continue;
		text = kernel_gunzip(st + 8, ed - st - 8, &len);
		if (!text)
			continue;
		rc = kernel_set_kconfig(k, text, len,
					xasprintf("IKCONFIG of %s", f->path), e);
		free(text);
		return rc;
	}
	return 0;
}

/*
 * A stripped image (Debian's MIPS vmlinuz is one) still says its machine,
 * its release (the "Linux version " banner in .rodata) and maybe its
 * config; its symbols must come from elsewhere.
 */
static int stripped(struct kernel *k, struct elf_file *f, struct errmsg *e)
{
	int rc;

	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while (!k->release && (scn = elf_nextscn(f->elf, scn))) {
		Elf_Data *d;
		const char *v;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(d = elf_getdata(scn, NULL)) || !d->d_buf)
			continue;
		v = memmem(d->d_buf, d->d_size, "Linux version ", 14);
		if (v && (const char *)d->d_buf + d->d_size - v > 80)
			k->release = xstrndup(v + 14, strcspn(v + 14, " "));
	}
	rc = find_ikconfig(k, f, e);
	if (!rc)
		sb_addf(&k->sources, "vmlinux %s: %s, %s, stripped (no symbols: pass --target or --system-map)\n",
			f->path, k->release ? k->release : "no banner",
			k->arch ? k->arch : "unknown machine");
	elf_file_close(f);
	return rc;
}

/*
 * kernel_load_vmlinux() - everything probecc can learn from an ELF
 * kernel, debug info or not.  A stripped one gives what stripped() says.
 */
int kernel_load_vmlinux(struct kernel *k, const char *path, struct errmsg *e)
{
	struct elf_file f;
	int rc;
	struct marks m = { 0 };
	Elf_Scn *scn;
	GElf_Shdr sh;
	Elf_Data *d;
	size_t i, n, before = k->nsyms;
	const char *arch;

	rc = elf_open(&f, path, e);
	if (rc)
		return rc;
	arch = elf_arch(&f.eh);
	if (arch)
		k->arch = xstrdup(arch);
	scn = find_symtab(&f, &sh);
	if (!scn || !(d = elf_getdata(scn, NULL))) {
		return stripped(k, &f, e);
	}
	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		GElf_Shdr ssh;
		char type;
		int j;

		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		name = elf_strptr(f.elf, sh.sh_link, sym.st_name);
		if (!name || !*name || sym.st_shndx == SHN_UNDEF)
			continue;
		for (j = 0; mark_names[j]; j++)
			if (!strcmp(name, mark_names[j])) {
				m.v[j] = sym.st_value;
				m.have[j] = true;
			}
		switch (GELF_ST_TYPE(sym.st_info)) {
		case STT_FUNC:
			type = 't';
			break;
		case STT_OBJECT:
			type = 'd';
			break;
		case STT_NOTYPE:
			/* asm labels: text if their section is executable */
			if (sym.st_shndx >= SHN_LORESERVE ||
			    !gelf_getshdr(elf_getscn(f.elf, sym.st_shndx), &ssh) ||
			    !(ssh.sh_flags & SHF_EXECINSTR) || name[0] == '.' ||
			    name[0] == '$')
				continue;
			type = 't';
			break;
		default:
			continue;
		}
		if (GELF_ST_BIND(sym.st_info) != STB_LOCAL)
			type = (char)(type - 'a' + 'A');
		kernel_add_sym(k, name, strlen(name), sym.st_value, sym.st_size, type,
			NULL);
	}
	k->syms_known = k->sizes_exact = true;

	if (m.have[0] && m.have[1] && m.v[1] >= m.v[0]) {
		size_t w = f.eh.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
		size_t cnt = (m.v[1] - m.v[0]) / w;
		const unsigned char *p = cnt ? vaddr_bytes(&f, m.v[0], cnt * w) : NULL;

		if (p) {
			k->mcount = xcalloc(cnt, sizeof(*k->mcount));
			for (i = 0; i < cnt; i++)
				k->mcount[i] = word(&f, p + i * w);
			k->nmcount = cnt;
			k->ftrace_known = true;
		}
	}
	if (m.have[2] && m.have[3] && m.v[3] >= m.v[2]) {
		size_t w = f.eh.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
		size_t cnt = (m.v[3] - m.v[2]) / w;
		const unsigned char *p = cnt ? vaddr_bytes(&f, m.v[2], cnt * w) : NULL;

		for (i = 0; p && i < cnt; i++) {
			unsigned long long a = word(&f, p + i * w);

			add_range(k, a, a + 1);	/* the function holding it */
		}
		for (i = 4; i < 10; i += 2)
			if (m.have[i] && m.have[i + 1] &&
			    (i != 8 || f.eh.e_machine == EM_X86_64))
				add_range(k, m.v[i], m.v[i + 1]);
		k->blacklist_known = true;
	}
	if (m.have[10]) {
		const unsigned char *p = vaddr_bytes(&f, m.v[10], 64);

		if (p && !memcmp(p, "Linux version ", 14)) {
			const char *rel = (const char *)p + 14;

			free(k->release);
			k->release = xstrndup(rel, strcspn(rel, " "));
		}
	}
	rc = find_ikconfig(k, &f, e);
	if (!rc)
		sb_addf(&k->sources, "vmlinux %s: %s, %s, %zu symbols, %zu ftrace call sites%s\n",
			path, k->release ? k->release : "no linux_banner",
			arch ? arch : "unknown machine", k->nsyms - before,
			k->nmcount, k->blacklist_known ? ", kprobe blacklist" : "");
	elf_file_close(&f);
	return rc;
}

/* nftw() has no closure: the kernel being loaded. */
static struct kernel *modules_k;
static size_t modules_n;

/*
 * The length of the module name in the file name @base: NAME.ko, or
 * NAME.ko.xz (MODULE_COMPRESS_XZ: Debian's 6.12 modules; elf_file_open()
 * unpacks it); 0 for any other file.
 */
static size_t ko_name_len(const char *base)
{
	size_t n = strlen(base);

	if (n > 3 && !strcmp(base + n - 3, ".ko"))
		return n - 3;
	if (n > 6 && !strcmp(base + n - 6, ".ko.xz"))
		return n - 6;
	return 0;
}

/* NAME.ko.zst or NAME.ko.gz (MODULE_COMPRESS_ZSTD, _GZIP): not read. */
static bool ko_packed(const char *base)
{
	size_t n = strlen(base);

	return (n > 7 && !strcmp(base + n - 7, ".ko.zst")) ||
	       (n > 6 && !strcmp(base + n - 6, ".ko.gz"));
}

static int load_ko(const char *path, const struct stat *st, int flag,
		   struct FTW *ftw)
{
	size_t i, n, len = ko_name_len(path + ftw->base);
	const char *base = path + ftw->base;
	struct elf_file f;
	char *mod;
	Elf_Scn *scn;
	GElf_Shdr sh;
	Elf_Data *d;
	struct errmsg e;
	int bad;

	(void)st;
	if ((flag == FTW_SL || flag == FTW_SLN) && len)
		bad = errmsg_set(&e, -ELOOP, "%s is a symbolic link, not followed under --modules", path);
	else if (flag == FTW_F && ko_packed(base))
		bad = errmsg_set(&e, -ENOEXEC, "%s is packed by zstd or gzip: NAME.ko and NAME.ko.xz are read", path);
	else if (flag != FTW_F || !len)
		return 0;
	else
		bad = elf_open(&f, path, &e);
	if (bad) {
		/* said where a name is then missing: not skipped in silence */
		if (!modules_k->modules_unread++)
			snprintf(modules_k->modules_unread_why,
				 sizeof(modules_k->modules_unread_why), "%.300s", e.msg);
		return 0;
	}
	mod = xstrndup(base, len);
	for (i = 0; mod[i]; i++)	/* the kernel's module names use _ */
		if (mod[i] == '-')
			mod[i] = '_';
	scn = find_symtab(&f, &sh);
	if (scn && (d = elf_getdata(scn, NULL))) {
		n = sh.sh_size / sh.sh_entsize;
		for (i = 1; i < n; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(d, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(f.elf, sh.sh_link, sym.st_name);
			if (name && *name)
				kernel_add_sym(modules_k, name, strlen(name), 0,
					sym.st_size,
					GELF_ST_BIND(sym.st_info) == STB_LOCAL ?
					't' : 'T', mod);
		}
	}
	modules_n++;
	elf_file_close(&f);
	return 0;
}

/*
 * kernel_load_modules() - the FUNC symbols of every *.ko below @dir
 * (/lib/modules/RELEASE of the image package), and of every *.ko.xz
 * (unpacked in memory: Debian's 6.12); .ko.zst and .ko.gz are not read,
 * nor symbolic links: each is counted in k->modules_unread.  A function found only here is probed
 * by module name once the module loads (Documentation/trace/
 * kprobetrace.rst, "MOD:SYM").
 */
int kernel_load_modules(struct kernel *k, const char *dir, struct errmsg *e)
{
	size_t before = k->nsyms;

	modules_k = k;
	modules_n = 0;
	if (nftw(dir, load_ko, 16, FTW_PHYS))
		return errmsg_set(e, -errno, "cannot read the modules under %s: %s",
				  dir, strerror(errno));
	k->modules_known = true;
	sb_addf(&k->sources, "modules %s: %zu modules, %zu functions\n", dir,
		modules_n, k->nsyms - before);
	if (k->modules_unread)
		sb_addf(&k->sources, "modules %s: %zu file(s) not read, the first: %s\n", dir,
			k->modules_unread, k->modules_unread_why);
	return 0;
}

/* ko_find's nftw() closure: the module name sought and the path found. */
static const char *ko_want;
static char *ko_found;

static int ko_match(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t n = ko_name_len(base), i;

	(void)st;
	if (flag != FTW_F || !n || strlen(ko_want) != n)
		return 0;
	for (i = 0; i < n; i++)	/* bonding-foo.ko is module bonding_foo */
		if ((base[i] == '-' ? '_' : base[i]) != ko_want[i])
			return 0;
	ko_found = xstrdup(path);
	return 1;
}

char *ko_find(const char *dir, const char *name)
{
	ko_want = name;
	ko_found = NULL;
	if (nftw(dir, ko_match, 16, FTW_PHYS) <= 0)
		return NULL;
	return ko_found;
}

/*
 * ko_symbols() - the FUNC symbols of module @name's code sections (every
 * SHF_EXECINSTR section with a name: .text, .text.unlikely, .init.text,
 * ...; /sys/module/NAME/sections/ has no file of an empty name) from
 * NAME.ko below @dir (the image's /lib/modules/RELEASE; '-' in a file
 * name is '_' in the module name, as the kernel has it).  Each symbol's
 * offset is from the start of its section, which is where
 * /sys/module/NAME/sections/SECTION points once the module is loaded.
 * Returns a malloc'd array (names and sections malloc'd too, all owned by
 * the caller) and its length in *@n; NULL with *@n = 0 when there is no
 * such module file or it has no symbols, and then @e's message is ""; a
 * module file that cannot be read (truncated, a bad CRC, not ELF, over
 * elf_file_open()'s cap) is NULL with its path and why in @e.  *@file is
 * the module file found (malloc'd, the caller's), NULL when none is.
 */
struct ko_sym *ko_symbols(const char *dir, const char *name, size_t *n,
			  char **file, struct errmsg *e)
{
	struct ko_sym *syms = NULL;
	struct elf_file f;
	size_t i, count, cap = 0, strndx;
	Elf_Scn *scn;
	GElf_Shdr sh;
	Elf_Data *d;

	*n = 0;
	e->msg[0] = '\0';
	*file = ko_find(dir, name);
	if (!*file)
		return NULL;
	if (elf_open(&f, *file, e))
		return NULL;
	scn = find_symtab(&f, &sh);
	if (!elf_getshdrstrndx(f.elf, &strndx) && scn &&
	    (d = elf_getdata(scn, NULL))) {
		count = sh.sh_size / sh.sh_entsize;
		for (i = 1; i < count; i++) {
			GElf_Shdr ssh;
			GElf_Sym sym;
			const char *s, *sec;
			Elf_Scn *sscn;

			if (!gelf_getsym(d, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
			    !(sscn = elf_getscn(f.elf, sym.st_shndx)) ||
			    !gelf_getshdr(sscn, &ssh) || !(ssh.sh_flags & SHF_EXECINSTR) ||
			    !(sec = elf_strptr(f.elf, strndx, ssh.sh_name)) || !*sec ||
			    !(s = elf_strptr(f.elf, sh.sh_link, sym.st_name)) || !*s)
				continue;
			ALLOC_GROW(syms, *n + 1, cap);
			syms[*n].name = xstrdup(s);
			syms[*n].section = xstrdup(sec);
			syms[*n].off = sym.st_value;
			syms[*n].size = sym.st_size;
			(*n)++;
		}
	}
	elf_file_close(&f);
	return syms;
}
