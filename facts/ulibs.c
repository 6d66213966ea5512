// SPDX-License-Identifier: GPL-2.0
/*
 * ulibs: a dynamic program's libraries under a sysroot (ulibs.h has the
 * rule and its source).  The .dynamic section is read with libelf.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elffile.h"
#include "sysroot.h"
#include "ulibs.h"

/* Debian's multiarch directories and the classic ones (ld.so's defaults). */
static const char *const default_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
	"/lib/mipsel-linux-gnu", "/usr/lib/mipsel-linux-gnu",
	"/lib/mips-linux-gnu", "/usr/lib/mips-linux-gnu",
	"/lib/mips64el-linux-gnuabi64", "/usr/lib/mips64el-linux-gnuabi64",
	"/lib/mips64-linux-gnuabi64", "/usr/lib/mips64-linux-gnuabi64",
	"/lib/riscv64-linux-gnu", "/usr/lib/riscv64-linux-gnu",
	"/lib", "/usr/lib", "/lib64", "/usr/lib64", "/lib32", "/usr/lib32",
};

/* The DT_NEEDED names, DT_RPATH and DT_RUNPATH of an open file. */
struct dyn {
	char **needed;
	int n, cap;
	char *rpath, *runpath;
};

static void read_dynamic(struct elf_file *f, struct dyn *d)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(d, 0, sizeof(*d));
	while ((scn = elf_nextscn(f->elf, scn))) {
		Elf_Data *data;
		GElf_Dyn dyn;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			const char *s;

			if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RPATH &&
			    dyn.d_tag != DT_RUNPATH)
				continue;
			s = elf_strptr(f->elf, sh.sh_link, dyn.d_un.d_val);
			if (!s || !*s)
				continue;
			if (dyn.d_tag == DT_NEEDED)
				push_str(&d->needed, &d->n, &d->cap, xstrdup(s));
			else if (dyn.d_tag == DT_RPATH && !d->rpath)
				d->rpath = xstrdup(s);
			else if (dyn.d_tag == DT_RUNPATH && !d->runpath)
				d->runpath = xstrdup(s);
		}
		break;
	}
}

static void dyn_free(struct dyn *d)
{
	while (d->n)
		free(d->needed[--d->n]);
	free(d->needed);
	free(d->rpath);
	free(d->runpath);
}

/* Is @sysroot@cand an ELF shared object for the machine of @eh? */
static bool fits(const char *sysroot, const char *cand, const GElf_Ehdr *eh)
{
	struct errmsg e;
	char *host = sysroot_path(sysroot, cand, &e);
	struct elf_file f;
	bool ok = false;

	if (host && !elf_file_open(&f, host, &e)) {
		ok = f.eh.e_machine == eh->e_machine &&
		     f.eh.e_ident[EI_CLASS] == eh->e_ident[EI_CLASS] &&
		     f.eh.e_ident[EI_DATA] == eh->e_ident[EI_DATA] &&
		     f.eh.e_type == ET_DYN;
		elf_file_close(&f);
	}
	free(host);
	return ok;
}

/* @name in the ':'-separated @list ($ORIGIN: @origin); a new path or NULL. */
static char *in_list(const char *sysroot, const char *list, const char *origin,
		     const char *name, const GElf_Ehdr *eh)
{
	const char *p = list;

	while (p && *p) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *dir = xstrndup(p, len), *cand;

		if (!strncmp(dir, "$ORIGIN", 7) || !strncmp(dir, "${ORIGIN}", 9))
			cand = xasprintf("%s%s/%s", origin, dir + (dir[1] == '{' ? 9 : 7), name);
		else
			cand = xasprintf("%s/%s", dir, name);
		free(dir);
		if (cand[0] == '/' && fits(sysroot, cand, eh))
			return cand;
		free(cand);
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

/* Where ld.so finds @name needed by @needer (its target path). */
static char *find_lib(const char *sysroot, const char *name, const char *needer,
		      const struct dyn *d, const GElf_Ehdr *eh)
{
	char *origin, *cand = NULL;
	const char *slash = strrchr(needer, '/');
	size_t i;

	if (strchr(name, '/'))
		return name[0] == '/' && fits(sysroot, name, eh) ? xstrdup(name) : NULL;
	origin = xstrndup(needer, slash ? (size_t)(slash - needer) : 0);
	if (!d->runpath && d->rpath)
		cand = in_list(sysroot, d->rpath, origin, name, eh);
	if (!cand && d->runpath)
		cand = in_list(sysroot, d->runpath, origin, name, eh);
	for (i = 0; !cand && i < sizeof(default_dirs) / sizeof(default_dirs[0]); i++) {
		cand = xasprintf("%s/%s", default_dirs[i], name);
		if (!fits(sysroot, cand, eh)) {
			free(cand);
			cand = NULL;
		}
	}
	free(origin);
	return cand;
}

int ulibs_find(const char *sysroot, const char *path, struct ulib **out,
	       struct errmsg *e)
{
	char *host = sysroot_path(sysroot, path, e);
	struct ulib *l = NULL;
	struct elf_file f;
	GElf_Ehdr eh;
	struct dyn d;
	int n = 0, next = -1, i, k;

	*out = NULL;
	if (!host || elf_file_open(&f, host, e)) {
		free(host);
		return -1;
	}
	free(host);
	eh = f.eh;
	/* next == -1: the program itself; then each library found, in order */
	for (;;) {
		const char *needer = next < 0 ? path : l[next].path;

		read_dynamic(&f, &d);
		elf_file_close(&f);
		for (i = 0; i < d.n && n < ULIBS_MAX; i++) {
			for (k = 0; k < n && strcmp(l[k].name, d.needed[i]); k++)
				;
			if (k < n)
				continue;
			l = xrealloc_array(l, n + 1, sizeof(*l));
			l[n].name = xstrdup(d.needed[i]);
			l[n].path = find_lib(sysroot, d.needed[i], needer, &d, &eh);
			n++;
		}
		dyn_free(&d);
		for (next++; next < n && !l[next].path; next++)
			;
		if (next >= n)
			break;
		host = sysroot_path(sysroot, l[next].path, NULL);
		k = host ? elf_file_open(&f, host, NULL) : -ENOENT;
		free(host);
		if (k) {
			memset(&f, 0, sizeof(f));
			f.fd = -1;
		}
		if (!f.elf)
			continue;	/* unreadable now: nothing below it */
	}
	*out = l;
	return n;
}

void ulibs_free(struct ulib *l, int n)
{
	while (n > 0) {
		n--;
		free(l[n].name);
		free(l[n].path);
	}
	free(l);
}
