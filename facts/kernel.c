// SPDX-License-Identifier: GPL-2.0
/*
 * The target kernel as it is: its symbol index, and the loaders for a
 * target capture and a System.map.  vmlinux.c reads ELF kernels and
 * modules, kconfig.c configs.  Everything here is built once per run;
 * lookups are a hash probe, so checking thousands of probes is instant
 * (bench/check.sh measures it).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kernel.h"
#include "textline.h"

struct kernel *kernel_new(void)
{
	return xcalloc(1, sizeof(struct kernel));
}

/*
 * Room for element @n of an array of @n elements of @size bytes: the
 * capacity doubles at each power of two (16 at first), so appending one
 * at a time stays linear (realloc per element is quadratic under ASan).
 */
static void *grow(void *p, size_t n, size_t size)
{
	if (n && (n < 16 || (n & (n - 1))))
		return p;
	return xrealloc_array(p, n ? 2 * n : 16, size);
}

struct ksym *kernel_add_sym(struct kernel *k, const char *name, size_t len,
			    unsigned long long addr, unsigned long long size,
			    char type, const char *module)
{
	struct ksym *s;

	ALLOC_GROW(k->syms, k->nsyms + 1, k->cap);
	s = &k->syms[k->nsyms++];
	memset(s, 0, sizeof(*s));
	s->name = xstrndup(name, len);
	s->addr = addr;
	s->size = size;
	s->type = (char)tolower((unsigned char)type);
	s->flags = isupper((unsigned char)type) ? KS_GLOBAL : 0;
	s->module = module;
	return s;
}

/* A kernel release "6.1.0-50-4kc-malta" names the version 6.1. */
static void set_release(struct kernel *k, const char *rel, size_t len)
{
	free(k->release);
	k->release = xstrndup(rel, len);
}

/* "ADDR TYPE NAME[\t[MODULE]]" of /proc/kallsyms and System.map. */
static int nm_line(struct kernel *k, char *line)
{
	char *end, *name, *type;
	unsigned long long addr = strtoull(line, &end, 16);
	size_t len;

	if (end == line || *end != ' ')
		return -1;
	type = end + 1;
	if (!isalpha((unsigned char)type[0]) || type[1] != ' ')
		return -1;
	name = type + 2;
	len = strcspn(name, " \t");
	if (!len)
		return -1;
	/*
	 * Module symbols of a capture: the modules loaded at capture time,
	 * "NAME\t[MODULE]" (kernel/module/kallsyms.c); the module's name is
	 * kept for the messages, "(module)" when the brackets are not there.
	 */
	if (name[len] == '\t') {
		const char *m = name + len + 1;
		size_t mlen = m[0] == '[' ? strcspn(m + 1, "]") : 0;

		kernel_add_sym(k, name, len, addr, 0, type[0],
			       mlen && m[1 + mlen] == ']' ?
			       xstrndup(m + 1, mlen) : "(module)");
		return 0;
	}
	kernel_add_sym(k, name, len, addr, 0, type[0], NULL);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int b64val(int c)
{
	const char *tab =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(tab, c) : NULL;

	return p ? (int)(p - tab) : -1;
}

char *kernel_gunzip(const void *in, size_t n, size_t *outlen)
{
	z_stream z = { 0 };
	size_t cap = 1 << 18;
	char *out = xrealloc(NULL, cap);
	int rc;

	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return NULL;
	z.next_in = (unsigned char *)in;
	z.avail_in = (unsigned)n;
	do {
		if (z.total_out + 1 >= cap) {
			if (cap >= KCONFIG_MAX) {	/* a bomb, not a config */
				rc = Z_BUF_ERROR;
				break;
			}
			out = xrealloc(out, cap *= 2);
		}
		z.next_out = (unsigned char *)out + z.total_out;
		z.avail_out = (unsigned)(cap - z.total_out - 1);
		rc = inflate(&z, Z_NO_FLUSH);
	} while (rc == Z_OK);
	inflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	out[z.total_out] = '\0';
	*outlen = z.total_out;
	return out;
}

/*
 * The most a target capture or System.map may be: 64 MiB, 13 times
 * Debian's amd64 6.1 capture (4.7 MB, kallsyms and all); an endless
 * stream (/dev/zero) stops there.
 */
#define KERNEL_TEXT_MAX ((size_t)64 << 20)

/*
 * A capture or System.map read whole into *@text (malloc'd, the caller's;
 * *@len bytes), at most KERNEL_TEXT_MAX; a NUL in it is refused where it
 * is (-EINVAL).  On an error nothing is left allocated.
 */
static int read_text(const char *path, char **text, size_t *len,
		     struct errmsg *e)
{
	int rc, line, col;

	rc = file_read_max(path, KERNEL_TEXT_MAX, text, len, e);
	if (rc)
		return rc;
	if (!text_nul_at(*text, *len, &line, &col))
		return 0;
	free(*text);
	*text = NULL;
	return errmsg_set(e, -EINVAL, "%s:%d:%d: a NUL byte: not a text file, or damaged (everything after it would be lost)",
			  path, line, col);
}

int kernel_capture_check(const char *name, const char *text, size_t len,
			 size_t *body, struct errmsg *e)
{
	const char *last = text + len;
	unsigned long long bytes;
	unsigned int want;
	uLong crc;
	int no = 1, n;
	size_t i;

	*body = len;
	if (len && text[len - 1] == '\n')
		last--;
	while (last > text && last[-1] != '\n')
		last--;
	if (strncmp(last, "check\t", 6))
		return 0;
	for (i = 0; text + i < last; i++)
		no += text[i] == '\n';
	if (sscanf(last, "check\t%llu\t%8x%n", &bytes, &want, &n) != 2 ||
	    (last[n] != '\n' && last[n]))
		return errmsg_set(e, -EINVAL, "%s:%d: not a check line (check<TAB>BYTES<TAB>CRC32)",
				  name, no);
	crc = crc32(0L, (const Bytef *)text, (uInt)(last - text));
	if (bytes != (unsigned long long)(last - text) || crc != want)
		return errmsg_set(e, -EBADMSG, "%s:%d: the capture's check line says %llu bytes of CRC-32 %08x before it, and there are %zu of CRC-32 %08lx: a line was lost or changed on the way (a serial line dropped, a kernel message inside a line); capture again",
				  name, no, bytes, want, (size_t)(last - text),
				  (unsigned long)crc);
	*body = (size_t)(last - text);
	return 1;
}

/* A base64 section being decoded (RFC 4648; '=' ends a line's data). */
struct b64buf {
	unsigned char *b;
	size_t n, cap;
	unsigned acc;
	int bits;
};

static int b64_line(struct b64buf *bb, const char *line)
{
	for (const char *c = line; *c && *c != '='; c++) {
		int v = b64val(*c);

		if (v < 0)
			return -EINVAL;
		bb->acc = bb->acc << 6 | (unsigned)v;
		bb->bits += 6;
		if (bb->bits >= 8) {
			bb->bits -= 8;
			if (bb->n == bb->cap) {
				bb->cap = bb->cap ? bb->cap * 2 : 4096;
				bb->b = xrealloc(bb->b, bb->cap);
			}
			bb->b[bb->n++] = (unsigned char)(bb->acc >> bb->bits);
		}
	}
	return 0;
}

/*
 * kernel_load_target() - read a target capture (docs/plan.md, "Target").
 * Header lines (probecc-target 1, arch, uname, cmdline...) then sections
 * "--- NAME ---" up to the next one; "missing NAME REASON" says a source
 * the agent could not read.  Unknown sections are skipped (newer agents).
 */
int kernel_load_target(struct kernel *k, const char *path, struct errmsg *e)
{
	size_t len;
	char *text;
	int rc;

	rc = read_text(path, &text, &len, e);
	if (rc)
		return rc;
	return kernel_load_target_text(k, path, text, len, e);
}

int kernel_load_target_text(struct kernel *k, const char *path, char *text,
			    size_t len, struct errmsg *e)
{
	size_t body;
	int checked;
	char *sect = NULL, *p = text, *line;
	struct b64buf cfgz = { 0 }, btf = { 0 };
	struct strbuf readme = { 0 };
	int no = 0, rc;

	rc = kernel_capture_check(path, text, len, &body, e);
	if (rc < 0)
		goto out;
	checked = rc;
	rc = 0;
	text[body] = '\0';
	if (strncmp(text, "probecc-target\t1\n", 17)) {
		rc = errmsg_set(e, -EINVAL, "%s: not a probecc target capture (first line is not \"probecc-target<TAB>1\")",
				path);
		goto out;
	}
	while ((line = text_next_line(&p))) {
		no++;
		if (!strncmp(line, "--- ", 4)) {
			sect = line + 4;
			sect[strcspn(sect, " ")] = '\0';
			if (!strcmp(sect, "kallsyms"))
				k->syms_known = true;
			else if (!strcmp(sect, "available_filter_functions"))
				k->ftrace_known = true;
			else if (!strcmp(sect, "kprobe_blacklist"))
				k->blacklist_known = true;
			else if (!strcmp(sect, "available_events"))
				k->events_known = true;
			continue;
		}
		if (!sect) {
			char *tab = strchr(line, '\t');

			if (!tab)
				continue;
			*tab++ = '\0';
			if (!strcmp(line, "arch") && strcmp(tab, "-"))
				k->arch = xstrdup(tab);
			else if (!strcmp(line, "uname"))
				set_release(k, tab, strcspn(tab, "\t"));
			else if (!strcmp(line, "missing"))
				sb_addf(&k->sources, "target %s: no %s\n", path,
					tab);
			continue;
		}
		if (!strcmp(sect, "README")) {
			/* kept whole: its lines are the parser's syntax */
			if (strncmp(line, "missing\t", 8))
				sb_addf(&readme, "%s\n", line);
			else
				sb_addf(&k->sources, "target %s: no %s\n", path, line + 8);
			continue;
		}
		if (!strcmp(line, "") || !strncmp(line, "missing\t", 8)) {
			if (line[0])
				sb_addf(&k->sources, "target %s: no %s\n",
					path, line + 8);
			continue;
		}
		if (!strcmp(sect, "kallsyms")) {
			if (nm_line(k, line)) {
				rc = errmsg_set(e, -EINVAL, "%s:%d: not a kallsyms line: %.60s",
						path, no, line);
				goto out;
			}
		} else if (!strcmp(sect, "available_filter_functions")) {
			k->ftrace_names = grow(k->ftrace_names,
				k->nftrace_names, sizeof(char *));
			k->ftrace_names[k->nftrace_names++] =
				xstrndup(line, strcspn(line, " \t"));
		} else if (!strcmp(sect, "kprobe_blacklist")) {
			struct krange r;
			char *end;

			r.start = strtoull(line, &end, 16);
			if (*end != '-') {
				rc = errmsg_set(e, -EINVAL, "%s:%d: not a blacklist line: %.60s",
						path, no, line);
				goto out;
			}
			r.end = strtoull(end + 1, &end, 16);
			k->blacklist = grow(k->blacklist, k->nblacklist,
					    sizeof(r));
			k->blacklist[k->nblacklist++] = r;
		} else if (!strcmp(sect, "available_events")) {
			k->events = grow(k->events, k->nevents,
					 sizeof(char *));
			k->events[k->nevents++] = xstrdup(line);
		} else if (!strcmp(sect, "config.gz") || !strcmp(sect, "btf")) {
			struct b64buf *bb = sect[0] == 'b' ? &btf : &cfgz;

			if (b64_line(bb, line)) {
				rc = errmsg_set(e, -EINVAL, "%s:%d: bad base64 in %s",
						path, no, sect);
				goto out;
			}
		}
	}
	if (btf.n) {
		free(k->btf);
		k->btf = btf.b;
		k->nbtf = btf.n;
		btf.b = NULL;
		sb_addf(&k->sources, "target %s: /sys/kernel/btf/vmlinux, %zu bytes of BTF\n",
			path, k->nbtf);
	}
	if (cfgz.b) {
		size_t clen;
		char *cfg = kernel_gunzip(cfgz.b, cfgz.n, &clen);

		if (!cfg) {
			rc = errmsg_set(e, -EINVAL, "%s: config.gz does not inflate", path);
			goto out;
		}
		rc = kernel_set_kconfig(k, cfg, clen,
					xasprintf("/proc/config.gz of %s", path), e);
		free(cfg);
		if (rc)
			goto out;
	}
	if (k->events)
		qsort(k->events, k->nevents, sizeof(char *), cmp_str);
	if (readme.len) {
		sb_addf(&k->sources, "target %s: tracefs README read (the probe syntax the kernel takes)\n",
			path);
		free(k->readme);
		k->readme = readme.s;
		readme.s = NULL;
	}
	sb_addf(&k->sources, "target %s: %s, %zu symbols%s\n", path,
		k->release ? k->release : "unknown release", k->nsyms,
		checked ? ", check line verified" :
		" (no check line: a capture of an older agent, not verified)");
out:
	free(readme.s);
	free(cfgz.b);
	free(btf.b);
	free(text);
	return rc;
}

/*
 * kernel_load_system_map() - "ADDR TYPE NAME" lines (scripts/mksysmap).
 * Debian ships a one-line placeholder pointing at the -dbg package: that
 * is refused with a hint, since it would make every symbol "unknown".
 */
int kernel_load_system_map(struct kernel *k, const char *path, struct errmsg *e)
{
	size_t len;
	char *text, *p, *line;
	int no = 0, rc;

	rc = read_text(path, &text, &len, e);
	if (rc)
		return rc;
	p = text;
	if (strstr(text, "The real System.map is in")) {
		rc = errmsg_set(e, -EINVAL, "%s is Debian's placeholder (\"%.60s\"): pass --target FILE captured with qemu-images/capture, or the -dbg package's System.map",
				path, text);
		goto out;
	}
	while ((line = text_next_line(&p))) {
		no++;
		if (!*line)
			continue;
		if (nm_line(k, line)) {
			rc = errmsg_set(e, -EINVAL, "%s:%d: not a System.map line: %.60s",
					path, no, line);
			goto out;
		}
	}
	k->syms_known = true;
	sb_addf(&k->sources, "System.map %s: %zu symbols (sizes estimated from the next symbol)\n",
		path, k->nsyms);
out:
	free(text);
	return rc;
}

/* FNV-1a: the index is built once, so a simple good hash is enough. */
static unsigned long hash(const char *s)
{
	unsigned long h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static bool is_func(const struct ksym *s)
{
	return s->type == 't' || s->type == 'w';
}

/*
 * kernel_index() - sort the symbols by address, give text symbols
 * without an ELF size the distance to the next higher address, hash the
 * names, and set KS_FTRACE / KS_BLACKLIST from what the loaders found:
 * a function has an mcount site when an __mcount_loc address lies in it
 * (vmlinux) or it is listed in available_filter_functions (capture); it
 * is blacklisted when its address lies in a blacklist range, as the
 * kernel's within_kprobe_blacklist() decides (kernel/kprobes.c).
 */
void kernel_index(struct kernel *k)
{
	size_t i, j;

	if (k->nsyms)	/* qsort(NULL, 0, ...) is undefined */
		qsort(k->syms, k->nsyms, sizeof(*k->syms), cmp_sym);
	for (i = 0; i < k->nsyms; i++) {
		struct ksym *s = &k->syms[i];

		if (s->size || !is_func(s) || s->module)
			continue;
		for (j = i + 1; j < k->nsyms && k->syms[j].addr == s->addr; j++)
			;
		if (j < k->nsyms)
			s->size = k->syms[j].addr - s->addr;
	}
	k->nbuckets = 1;
	while (k->nbuckets < 2 * k->nsyms + 1)
		k->nbuckets *= 2;
	k->buckets = xcalloc(k->nbuckets, sizeof(int));
	for (i = 0; i < k->nbuckets; i++)
		k->buckets[i] = -1;
	for (i = k->nsyms; i-- > 0;) {
		unsigned long b = hash(k->syms[i].name) & (k->nbuckets - 1);

		k->syms[i].next = k->buckets[b];
		k->buckets[b] = (int)i;
	}
	if (k->mcount) {
		qsort(k->mcount, k->nmcount, sizeof(*k->mcount), cmp_ull);
		for (i = 0; i < k->nsyms; i++) {
			struct ksym *s = &k->syms[i];
			size_t lo = 0, hi = k->nmcount;

			if (!is_func(s) || s->module)
				continue;
			while (lo < hi) {	/* first site >= addr */
				size_t mid = (lo + hi) / 2;

				if (k->mcount[mid] < s->addr)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < k->nmcount &&
			    k->mcount[lo] < s->addr + (s->size ? s->size : 1))
				s->flags |= KS_FTRACE;
		}
	}
	for (i = 0; i < k->nftrace_names; i++) {
		const struct ksym *c;

		for (c = ksym_find(k, k->ftrace_names[i]); c;
		     c = ksym_next(k, c))
			((struct ksym *)c)->flags |= KS_FTRACE;
	}
	for (i = 0; i < k->nblacklist; i++) {
		const struct krange *r = &k->blacklist[i];

		for (j = 0; j < k->nsyms; j++)
			if (is_func(&k->syms[j]) && !k->syms[j].module &&
			    k->syms[j].addr >= r->start &&
			    k->syms[j].addr < r->end)
				k->syms[j].flags |= KS_BLACKLIST;
	}
}

const struct ksym *ksym_next(const struct kernel *k, const struct ksym *s)
{
	int i;

	for (i = s->next; i >= 0; i = k->syms[i].next)
		if (!strcmp(k->syms[i].name, s->name))
			return &k->syms[i];
	return NULL;
}

const struct ksym *ksym_find(const struct kernel *k, const char *name)
{
	int i;

	if (!k->nbuckets)
		return NULL;
	for (i = k->buckets[hash(name) & (k->nbuckets - 1)]; i >= 0;
	     i = k->syms[i].next)
		if (!strcmp(k->syms[i].name, name))
			return &k->syms[i];
	return NULL;
}

const struct ksym *ksym_at(const struct kernel *k, unsigned long long addr)
{
	size_t lo = 0, hi = k->nsyms;

	while (lo < hi) {	/* first symbol above addr */
		size_t mid = (lo + hi) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		const struct ksym *s = &k->syms[lo];

		if (s->module)
			continue;
		if (is_func(s))
			return addr < s->addr + s->size ? s : NULL;
	}
	return NULL;
}

void ksym_suggest(const struct kernel *k, const char *name, bool funcs,
		  struct suggest *sg)
{
	size_t s;

	suggest_init(sg, name);
	for (s = 0; s < k->nsyms; s++) {
		if (!funcs || is_func(&k->syms[s]))
			suggest_add(sg, k->syms[s].name);
	}
}
