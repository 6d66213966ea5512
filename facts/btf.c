// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's BTF with libbpf (facts/btf.h): function prototypes and
 * struct layouts for C names without DWARF.  The encoding is the
 * kernel's Documentation/bpf/btf.rst; libbpf does the parsing and the
 * checks of the format, this file only walks types.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf.h"
#include "elffile.h"

/* typedef/qualifier links followed before the BTF is called damaged */
#define PEEL_MAX	32
/* anonymous aggregates entered inside one another */
#define NEST_MAX	16
/*
 * Members one walk of a struct's members (kbtf_member(),
 * kbtf_member_names(), kbtf_member_at()) looks at before the BTF is
 * called damaged.  An anonymous aggregate is entered wherever it
 * occurs: a struct holding itself (or one another) anonymously k times
 * is a walk of k^NEST_MAX aggregates (fuzz-btf: 33 types of BTF, a
 * struct holding itself twice, 0.3 CPU s per lookup).  The largest
 * walk of any struct of Debian's 6.1 and 6.12 amd64 vmlinux (a name
 * that is not there, every name, every byte offset) looks at 332 and
 * 353 members.
 */
#define WALK_MAX	4096

struct kbtf {
	struct btf *btf;
	char *what;
	/*
	 * btf_dump keeps per-type state as large as the BTF (100,000 types
	 * in a vmlinux): made once, printing into *out.
	 */
	struct btf_dump *dump;
	struct strbuf *out;
	/* the last function looked up: a probe's fields ask for it in turn */
	char *last_func;
	const struct btf_type *last_proto;
	/* per type id, what its declaration costs to print (decl_cost()); 0: not known yet */
	unsigned *cost;
};

static struct kbtf *wrap(struct btf *btf, const char *what)
{
	struct kbtf *b = xcalloc(1, sizeof(*b));

	b->btf = btf;
	b->what = xstrdup(what);
	return b;
}

/* libbpf's own messages: its errors come back to us as codes instead */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/*
 * The @k-th type @t holds by value (what libbpf's btf__align_of() and
 * btf__resolve_size() follow): a modifier's or typedef's, an array's
 * element, a struct's or union's members; a pointer holds none.  0 past
 * the last.
 */
static __u32 by_value(const struct btf_type *t, __u32 k)
{
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
		return k ? 0 : t->type;
	case BTF_KIND_ARRAY:
		return k ? 0 : btf_array(t)->type;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return k < btf_vlen(t) ? btf_members(t)[k].type : 0;
	default:
		return 0;
	}
}

/*
 * Whether no type of @btf holds itself by value (a struct member of its
 * own struct, a typedef of itself): the kernel refuses such BTF ("Loop
 * detected", kernel/bpf/btf.c btf_resolve()); libbpf 1.1's
 * btf__align_of() recurses on it until the stack overflows (found by
 * tests/fuzz/fuzz-btf).  A depth-first walk with its own stack, each type
 * visited once: O(types + members).  false with @why set.
 */
static bool btf_loops_ok(const struct btf *btf, char *why, size_t size)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 n = btf__type_cnt(btf), first = base ? btf__type_cnt(base) : 1;
	unsigned char *state = xcalloc(n, 1);	/* 0 new, 1 on the path, 2 done */
	__u32 *id = xcalloc(n, sizeof(*id)), *k = xcalloc(n, sizeof(*k));
	bool ok = true;
	__u32 root, top, next;

	for (root = first; root < n && ok; root++) {
		if (state[root])
			continue;
		top = 0;
		id[0] = root;
		k[0] = 0;
		state[root] = 1;
		for (;;) {
			next = by_value(btf__type_by_id(btf, id[top]), k[top]++);
			if (!next) {
				state[id[top]] = 2;
				if (!top--)
					break;
				continue;
			}
			if (next < first || state[next] == 2)
				continue;	/* the base's, or walked */
			if (state[next] == 1) {
				snprintf(why, size, "type %u holds itself by value (through type %u)",
					 next, id[top]);
				ok = false;
				break;
			}
			state[next] = 1;
			id[++top] = next;	/* at most n on the path */
			k[top] = 0;
		}
	}
	free(state);
	free(id);
	free(k);
	return ok;
}

/*
 * A type of this many bytes or more is no kernel's: libbpf 1.1's
 * btf_dump computes a member's end in bits as an int, and a member of
 * 1 GiB (an array of 272 "char" of 3,866,625 bytes) wrapped it into 5.5
 * million "long: 64;" lines from 1,405 bytes of BTF (fuzz-btf).
 */
#define TYPE_SIZE_MAX	((__s64)256 << 20)

/*
 * Whether type @id of @btf can be held by value, as a struct's member or
 * an array's element (kernel/bpf/btf.c btf_struct_resolve(),
 * btf_array_resolve(): "Invalid member", "Invalid elem"): not void, a
 * declaration only (FWD), a function, a variable, a section or a tag.
 */
static bool holdable(const struct btf *btf, __u32 id)
{
	switch (id ? btf_kind(btf__type_by_id(btf, id)) : BTF_KIND_UNKN) {
	case BTF_KIND_INT: case BTF_KIND_PTR: case BTF_KIND_ARRAY:
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FLOAT:
		return true;
	default:
		return false;
	}
}

/*
 * Whether every sized type of @btf has a size a kernel's can (an integer
 * of 1 to 16 bytes, an enum of 1, 2, 4 or 8, a float of 2, 4, 8, 12 or
 * 16: kernel/bpf/btf.c btf_int_check_meta(), btf_enum_check_meta(),
 * btf_float_check_meta()), any type under TYPE_SIZE_MAX, and holds only
 * what can be held (holdable()): libbpf 1.1's btf_dump divided by the
 * alignment of a struct's member of type void (fuzz-btf: SIGFPE).  Run
 * after btf_loops_ok(): btf__resolve_size() follows what a type holds.
 * false with @why set.
 */
static bool btf_sizes_ok(const struct btf *btf, char *why, size_t size)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 n = btf__type_cnt(btf), id, i, held;
	__s64 sz;

	for (id = base ? btf__type_cnt(base) : 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		bool array = btf_kind(t) == BTF_KIND_ARRAY;

		switch (btf_kind(t)) {
		case BTF_KIND_INT:
			if (!t->size || t->size > 16) {
				snprintf(why, size, "type %u: an integer of %u bytes (a kernel's are 1 to 16)",
					 id, t->size);
				return false;
			}
			break;
		case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
			if (t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8)
				break;
			snprintf(why, size, "type %u: an enum of %u bytes (a kernel's are 1, 2, 4 or 8)",
				 id, t->size);
			return false;
		case BTF_KIND_FLOAT:
			if (t->size == 2 || t->size == 4 || t->size == 8 ||
			    t->size == 12 || t->size == 16)
				break;
			snprintf(why, size, "type %u: a float of %u bytes (a kernel's are 2, 4, 8, 12 or 16)",
				 id, t->size);
			return false;
		case BTF_KIND_ARRAY: case BTF_KIND_STRUCT: case BTF_KIND_UNION:
			for (i = 0; i < (array ? 1 : btf_vlen(t)); i++) {
				held = array ? btf_array(t)->type : btf_members(t)[i].type;
				if (!holdable(btf, held)) {
					snprintf(why, size, "type %u: %s of type %u, which %s",
						 id, array ? "an array" : "a member", held,
						 array ? "no array holds" : "no struct holds");
					return false;
				}
			}
			sz = btf__resolve_size(btf, id);
			if (sz >= TYPE_SIZE_MAX || sz == -E2BIG) {
				snprintf(why, size, "type %u is %s bytes long: no kernel's type is 256 MiB",
					 id, sz < 0 ? "2^32 or more" : "256 MiB or more");
				return false;
			}
			break;
		default:
			break;
		}
	}
	return true;
}

/*
 * Whether every type of @btf past its base's (a module's split BTF
 * checks its own) names types that exist and strings that do, as the
 * kernel's btf_check_all_types() does before it takes BTF
 * (kernel/bpf/btf.c) and libbpf checks from 1.3 (btf_sanity_check()).
 * Debian's libbpf 1.1 accepts any id: its btf_dump__new() then writes
 * past its own array on a member of type 0x2e0000 (a damaged capture's
 * or image's BTF; found by tests/fuzz/fuzz-btf).  false with @why set.
 */
static bool btf_refs_ok(const struct btf *btf, char *why, size_t size)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 n = btf__type_cnt(btf), id, i;

#define REF_OK(ref, what) \
	do { \
		if ((ref) >= n) { \
			snprintf(why, size, "type %u: %s is type %u, past the last, %u", \
				 id, (what), (unsigned)(ref), n - 1); \
			return false; \
		} \
	} while (0)
#define NAME_OK(off, what) \
	do { \
		if (!btf__str_by_offset(btf, (off))) { \
			snprintf(why, size, "type %u: %s at string offset %u, past the strings", \
				 id, (what), (unsigned)(off)); \
			return false; \
		} \
	} while (0)

	for (id = base ? btf__type_cnt(base) : 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!t) {
			snprintf(why, size, "type %u cannot be read", id);
			return false;
		}
		/*
		 * Documentation/bpf/btf.rst: each type 4-byte aligned.  libbpf
		 * 1.1 checks type_off, not hdr_len: a header of 94 bytes put
		 * every type 2 bytes off (UBSan: misaligned access, fuzz-btf).
		 */
		if ((uintptr_t)t % 4) {
			snprintf(why, size, "type %u is not 4-byte aligned: the header's length is not a multiple of 4", id);
			return false;
		}
		NAME_OK(t->name_off, "its name");
		switch (btf_kind(t)) {
		case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
		case BTF_KIND_FUNC: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
			REF_OK(t->type, "what it refers to");
			break;
		case BTF_KIND_ARRAY:
			REF_OK(btf_array(t)->type, "its element");
			REF_OK(btf_array(t)->index_type, "its index");
			break;
		case BTF_KIND_STRUCT: case BTF_KIND_UNION:
			for (i = 0; i < btf_vlen(t); i++) {
				REF_OK(btf_members(t)[i].type, "a member");
				NAME_OK(btf_members(t)[i].name_off, "a member's name");
			}
			break;
		case BTF_KIND_ENUM:
			for (i = 0; i < btf_vlen(t); i++)
				NAME_OK(btf_enum(t)[i].name_off, "an enumerator's name");
			break;
		case BTF_KIND_ENUM64:
			for (i = 0; i < btf_vlen(t); i++)
				NAME_OK(btf_enum64(t)[i].name_off, "an enumerator's name");
			break;
		case BTF_KIND_FUNC_PROTO:
			REF_OK(t->type, "its return type");
			for (i = 0; i < btf_vlen(t); i++) {
				REF_OK(btf_params(t)[i].type, "a parameter");
				NAME_OK(btf_params(t)[i].name_off, "a parameter's name");
			}
			break;
		case BTF_KIND_DATASEC:
			for (i = 0; i < btf_vlen(t); i++)
				REF_OK(btf_var_secinfos(t)[i].type, "a variable");
			break;
		default:
			break;
		}
	}
	return btf_loops_ok(btf, why, size) && btf_sizes_ok(btf, why, size);
#undef REF_OK
#undef NAME_OK
}

/* A boot image or its unpacked kernel: at most this many bytes. */
#define IMAGE_MAX	((size_t)512 << 20)

static unsigned get32(const unsigned char *p, bool be)
{
	return be ? (unsigned)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] :
		    (unsigned)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
}

/*
 * The kernel's BTF inside a boot image's bytes: the blob the linker put
 * between __start_BTF and __stop_BTF (include/asm-generic/vmlinux.lds.h),
 * with no section header left to name it.  Found by its header
 * (include/uapi/linux/btf.h: magic 0xeB9F in the kernel's byte order,
 * version 1, flags 0, the types and strings inside the bytes that follow)
 * and kept only when libbpf's btf__new() accepts it.  NULL: none.
 */
static struct btf *btf_in_image(const unsigned char *img, size_t n)
{
	static const unsigned char magic[2][4] = {
		{ 0x9f, 0xeb, 1, 0 }, { 0xeb, 0x9f, 1, 0 },
	};
	const unsigned char *p = img, *end = img + n, *q;
	char why[160];

	while ((size_t)(end - p) >= 24) {
		bool be;
		unsigned long long hdr, toff, tlen, soff, slen, size;
		struct btf *btf;

		const unsigned char *le = memmem(p, end - p, magic[0], 4);
		const unsigned char *bem = memmem(p, end - p, magic[1], 4);

		q = !le ? bem : !bem ? le : le < bem ? le : bem;	/* the first */
		if (!q || (size_t)(end - q) < 24)
			return NULL;
		be = q[0] == 0xeb;
		hdr = get32(q + 4, be);
		toff = get32(q + 8, be);
		tlen = get32(q + 12, be);
		soff = get32(q + 16, be);
		slen = get32(q + 20, be);
		size = hdr + (toff + tlen > soff + slen ? toff + tlen : soff + slen);
		p = q + 1;
		if (hdr < 24 || hdr > 4096 || toff % 4 || !tlen || !slen ||
		    (toff + tlen > soff && soff + slen > toff) ||
		    size > (unsigned long long)(end - q))
			continue;
		libbpf_set_print(quiet);
		btf = btf__new(q, (__u32)size);
		if (btf && btf__type_cnt(btf) > 1 && btf_refs_ok(btf, why, sizeof(why)))
			return btf;
		btf__free(btf);
	}
	return NULL;
}

/*
 * The kernel inside an x86 bzImage (Documentation/arch/x86/boot.rst):
 * "HdrS" at 0x202, protocol 2.08+ for payload_offset (0x248) and
 * payload_length (0x24c), from the protected-mode code at (setup_sects
 * (0x1f1; 0 is 4) + 1) * 512; compressed by CONFIG_KERNEL_XZ (Debian's
 * 6.1) or CONFIG_KERNEL_ZSTD (6.12), unpacked with libarchive's raw
 * format.  NULL when @img is no bzImage or its payload cannot be
 * unpacked (then @e says why).
 */
static unsigned char *bzimage_kernel(const unsigned char *img, size_t n,
				     const char *path, size_t *len, struct errmsg *e)
{
	size_t pm, off, plen;
	struct archive_entry *ent;
	struct archive *a;
	unsigned char *out;
	int rc;

	*len = 0;
	if (n < 0x250 || memcmp(img + 0x202, "HdrS", 4) ||
	    (img[0x206] | img[0x207] << 8) < 0x208)
		return NULL;
	pm = ((img[0x1f1] ? img[0x1f1] : 4) + 1) * (size_t)512;
	off = get32(img + 0x248, false);
	plen = get32(img + 0x24c, false);
	if (pm > n || off > n - pm || plen > n - pm - off || plen < 8) {
		errmsg_set(e, -EINVAL, "%s: a bzImage whose payload is past its end", path);
		return NULL;
	}
	a = archive_read_new();
	if (!a)
		return NULL;
	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	/* the stream, less the unpacked size appended to it (arch/x86/boot/compressed/Makefile, *_with_size) */
	if (archive_read_open_memory(a, img + pm + off, plen - 4) != ARCHIVE_OK ||
	    archive_read_next_header(a, &ent) != ARCHIVE_OK) {
		errmsg_set(e, -EINVAL, "%s: cannot unpack its bzImage payload: %s", path,
			   archive_error_string(a));
		archive_read_free(a);
		return NULL;
	}
	/*
	 * 4 times the payload to start with, as a .ko.xz (common/elffile.c):
	 * a kernel packs 4-5 to 1, and a first block of 64 MiB whatever the
	 * payload was most of a fuzzed small image's time under ASan
	 */
	rc = unpack_whole(a, plen * 4, IMAGE_MAX, &out, len);
	if (rc == -EFBIG)
		errmsg_set(e, rc, "%s: its kernel is more than %zu bytes unpacked", path, IMAGE_MAX);
	else if (rc)
		errmsg_set(e, -EINVAL, "%s: cannot unpack its bzImage payload: %s", path,
			   archive_error_string(a));
	archive_read_free(a);
	return out;
}

/* The BTF of a boot image @path (bzImage or arm64 Image), or NULL with @e. */
static struct btf *image_btf(const char *path, struct errmsg *e)
{
	unsigned char *img, *kern;
	struct btf *btf = NULL;
	size_t n, kn;

	e->msg[0] = '\0';
	if (file_read_max(path, IMAGE_MAX, (char **)&img, &n, e))
		return NULL;
	kern = bzimage_kernel(img, n, path, &kn, e);
	if (kern)
		btf = btf_in_image(kern, kn);
	else if (!e->msg[0])
		btf = btf_in_image(img, n);
	free(kern);
	free(img);
	return btf;
}

struct kbtf *kbtf_open(const char *path, struct errmsg *e)
{
	struct btf *btf;
	char why[160];
	int err;

	libbpf_set_print(quiet);
	btf = btf__parse(path, NULL);
	err = btf ? 0 : -errno;
	if (btf && !btf_refs_ok(btf, why, sizeof(why))) {
		errmsg_set(e, -EINVAL, "%s: damaged BTF: %s", path, why);
		btf__free(btf);
		return NULL;
	}
	if (!btf && (btf = image_btf(path, e)))
		return wrap(btf, path);
	if (!btf && e->msg[0]) {
		/* a bzImage whose payload could not be unpacked */
		return NULL;
	}
	if (!btf) {
		if (err == -ENOENT && access(path, F_OK) == 0)
			errmsg_set(e, err, "%s: no BTF: an ELF file without a .BTF section (the kernel needs CONFIG_DEBUG_INFO_BTF)",
				   path);
		else if (libbpf_strerror(err, why, sizeof(why)))
			errmsg_set(e, err ? err : -EINVAL, "%s: no readable BTF", path);
		else
			errmsg_set(e, err, "%s: neither raw BTF nor an ELF file with a .BTF section: %s",
				   path, why);
		return NULL;
	}
	return wrap(btf, path);
}

struct kbtf *kbtf_from_raw(const void *data, size_t n, const char *what,
			   struct errmsg *e)
{
	struct btf *btf;
	char why[160];

	if (n > 0xffffffffu) {
		errmsg_set(e, -EINVAL, "%s: %zu bytes of BTF, more than its 32-bit lengths can describe",
			   what, n);
		return NULL;
	}
	libbpf_set_print(quiet);
	btf = btf__new(data, (__u32)n);
	if (!btf) {
		errmsg_set(e, -EINVAL, "%s: not raw BTF (%s)", what, strerror(errno));
		return NULL;
	}
	if (!btf_refs_ok(btf, why, sizeof(why))) {
		errmsg_set(e, -EINVAL, "%s: damaged BTF: %s", what, why);
		btf__free(btf);
		return NULL;
	}
	return wrap(btf, what);
}

/* The section @name of @f: its bytes, NULL when it has none or it is empty. */
static Elf_Data *section_data(struct elf_file *f, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t strndx;
	GElf_Shdr sh;
	const char *n;

	if (elf_getshdrstrndx(f->elf, &strndx))
		return NULL;
	while ((scn = elf_nextscn(f->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    (n = elf_strptr(f->elf, strndx, sh.sh_name)) && !strcmp(n, name))
			return elf_getdata(scn, NULL);
	return NULL;
}

/*
 * The release a module was built for: the first word of "vermagic=" in
 * its .modinfo (include/linux/vermagic.h, VERMAGIC_STRING), in @buf.
 */
static bool vermagic(struct elf_file *f, char *buf, size_t n)
{
	Elf_Data *d = section_data(f, ".modinfo");
	const char *p, *end;

	if (!d || !d->d_buf)
		return false;
	for (p = d->d_buf, end = p + d->d_size; p < end; p += strnlen(p, end - p) + 1) {
		size_t len = strnlen(p, end - p);

		if (len > 9 && !strncmp(p, "vermagic=", 9)) {
			snprintf(buf, n, "%.*s", (int)strcspn(p + 9, " "), p + 9);
			return buf[0] != '\0';
		}
	}
	return false;
}

/*
 * Split BTF from bytes in memory: libbpf 1.1 (Debian 12) has no
 * btf__new_split() (1.3), only btf__parse_raw_split() of a path, so the
 * bytes go through a memfd (an xz module is unpacked in memory).  NULL
 * with errno set.
 */
static struct btf *split_raw(const void *data, size_t n, struct btf *base)
{
	char path[40];
	struct btf *btf;
	int fd = memfd_create("probecc-btf", MFD_CLOEXEC), err;

	if (fd < 0)
		return NULL;
	if (write(fd, data, n) != (ssize_t)n) {
		err = errno ? errno : EIO;
		close(fd);
		errno = err;
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	libbpf_set_print(quiet);
	btf = btf__parse_raw_split(path, base);
	err = errno;
	close(fd);
	errno = err;
	return btf;
}

struct kbtf *kbtf_open_module(const char *path, const struct kbtf *base,
			      const char *release, struct errmsg *e)
{
	struct elf_file f;
	struct btf *btf;
	Elf_Data *d;
	char built[128];

	if (elf_file_open(&f, path, e))
		return NULL;
	if (release && vermagic(&f, built, sizeof(built)) && strcmp(built, release)) {
		errmsg_set(e, -EINVAL, "%s is a module of Linux %s, and the kernel is %s: its BTF would name another kernel's types",
			   path, built, release);
		elf_file_close(&f);
		return NULL;
	}
	d = section_data(&f, ".BTF");
	if (!d || !d->d_buf || !d->d_size || d->d_size > 0xffffffffu) {
		errmsg_set(e, -ENOENT, "%s has no .BTF section (the kernel needs CONFIG_DEBUG_INFO_BTF_MODULES)",
			   path);
		elf_file_close(&f);
		return NULL;
	}
	btf = split_raw(d->d_buf, d->d_size, base->btf);
	if (!btf) {
		errmsg_set(e, -EINVAL, "%s: its .BTF is not BTF split on %s (%s): not a module of that kernel, or damaged",
			   path, base->what, strerror(errno));
		elf_file_close(&f);
		return NULL;
	}
	if (!btf_refs_ok(btf, built, sizeof(built))) {
		errmsg_set(e, -EINVAL, "%s: its .BTF is damaged: %s", path, built);
		btf__free(btf);
		elf_file_close(&f);
		return NULL;
	}
	elf_file_close(&f);
	return wrap(btf, path);
}

void kbtf_free(struct kbtf *b)
{
	if (!b)
		return;
	btf_dump__free(b->dump);
	free(b->cost);
	btf__free(b->btf);
	free(b->what);
	free(b->last_func);
	free(b);
}

const char *kbtf_what(const struct kbtf *b)
{
	return b->what;
}

unsigned kbtf_ntypes(const struct kbtf *b)
{
	return btf__type_cnt(b->btf);
}

int kbtf_pointer_size(const struct kbtf *b)
{
	return (int)btf__pointer_size(b->btf);
}

bool kbtf_big_endian(const struct kbtf *b)
{
	return btf__endianness(b->btf) == BTF_BIG_ENDIAN;
}

int kbtf_peel(const struct kbtf *b, int id, struct kbtf_type *out)
{
	const struct btf_type *t;
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i <= PEEL_MAX; i++) {
		if (id == 0) {
			out->cls = KBTF_VOID;
			out->size = -1;
			return 0;
		}
		t = btf__type_by_id(b->btf, (__u32)id);
		if (!t)
			return -EINVAL;
		if (btf_is_typedef(t) || btf_is_mod(t) || btf_is_type_tag(t)) {
			id = (int)t->type;
			continue;
		}
		if (btf_is_fwd(t)) {
			/* a declaration: the definition of that name, if any (as btf__dedup() would) */
			int def = btf__find_by_name_kind(b->btf, btf__name_by_offset(b->btf, t->name_off),
							 btf_kflag(t) ? BTF_KIND_UNION : BTF_KIND_STRUCT);

			if (def > 0) {
				id = def;
				continue;
			}
		}
		out->id = id;
		out->size = -1;
		switch (btf_kind(t)) {
		case BTF_KIND_INT:
			out->cls = KBTF_INT;
			out->size = t->size;
			out->is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
			out->is_char = t->size == 1;
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			out->cls = KBTF_ENUM;
			out->size = t->size;
			out->is_signed = btf_kflag(t);
			break;
		case BTF_KIND_PTR:
			out->cls = KBTF_PTR;
			out->ref = (int)t->type;
			out->size = btf__pointer_size(b->btf);
			break;
		case BTF_KIND_ARRAY: {
			long long sz = btf__resolve_size(b->btf, (__u32)id);

			out->cls = KBTF_ARRAY;
			out->ref = (int)btf_array(t)->type;
			out->nelems = btf_array(t)->nelems;
			out->size = sz < 0 ? -1 : sz;
			break;
		}
		case BTF_KIND_STRUCT:
			out->cls = KBTF_STRUCT;
			out->size = t->size;
			break;
		case BTF_KIND_UNION:
			out->cls = KBTF_UNION;
			out->size = t->size;
			break;
		case BTF_KIND_FUNC_PROTO:
			out->cls = KBTF_FUNC;
			break;
		default:
			out->cls = KBTF_OTHER;
			break;
		}
		return 0;
	}
	return -EINVAL;
}

static void dump_printf(void *ctx, const char *fmt, va_list ap)
{
	struct kbtf *b = ctx;
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return;
	sb_addf(b->out, "%s", s);
	free(s);
}

/*
 * A declaration that names more types than this is not printed.
 * btf_dump__emit_type_decl() writes a function prototype's parameters
 * and an anonymous struct's members in full wherever they occur: BTF
 * of 40 prototypes, each taking two pointers to the one before, is a
 * declaration of 2^40 types (80 types of BTF: a capture's or an image's,
 * written by the target), and an anonymous struct's holes are a line
 * per 8 bytes (members at bit offsets up to 2^32: 67 million lines;
 * fuzz-btf spent 130 s on BTF of 33 types).  The kernel's own are a
 * few dozen.
 */
#define DECL_MAX	4096
#define DECL_DEPTH	256
#define DECL_BUSY	UINT_MAX

/* The types declaration @id names, counted as btf_dump prints it; DECL_MAX + 1: too many, a loop or too deep. */
static unsigned decl_cost(struct kbtf *b, __u32 id, int depth)
{
	const struct btf_type *t;
	unsigned long long c = 1;
	__u32 i;

	if (!id)
		return 1;
	if (b->cost[id] == DECL_BUSY || depth > DECL_DEPTH)
		return DECL_MAX + 1;
	if (b->cost[id])
		return b->cost[id];
	t = btf__type_by_id(b->btf, id);
	b->cost[id] = DECL_BUSY;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_CONST: case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG: case BTF_KIND_FUNC:
	case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
		c += decl_cost(b, t->type, depth + 1);
		break;
	case BTF_KIND_ARRAY:
		c += decl_cost(b, btf_array(t)->type, depth + 1);
		break;
	case BTF_KIND_FUNC_PROTO:
		c += decl_cost(b, t->type, depth + 1);
		for (i = 0; i < btf_vlen(t) && c <= DECL_MAX; i++)
			c += decl_cost(b, btf_params(t)[i].type, depth + 1);
		break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: {
		/*
		 * a named one is printed by its name; an anonymous one in
		 * full, its holes as "long: 64;" lines, one per 8 bytes
		 * up to its size or its farthest member
		 */
		unsigned long long bits = (unsigned long long)t->size * 8;

		if (t->name_off)
			break;
		for (i = 0; i < btf_vlen(t) && c <= DECL_MAX; i++) {
			if (btf_member_bit_offset(t, i) > bits)
				bits = btf_member_bit_offset(t, i);
			c += decl_cost(b, btf_members(t)[i].type, depth + 1);
		}
		c += bits / 64;
		break;
	}
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		if (!t->name_off)
			c += btf_vlen(t);
		break;
	default:
		break;
	}
	b->cost[id] = c > DECL_MAX ? DECL_MAX + 1 : (unsigned)c;
	return b->cost[id];
}

char *kbtf_type_str(const struct kbtf *cb, int id)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = "");
	struct kbtf *b = (struct kbtf *)cb;	/* the caches only */
	struct strbuf sb = { 0 };

	if (id == 0)
		return xstrdup("void");
	if (id < 0 || (unsigned)id >= btf__type_cnt(b->btf))
		return xasprintf("BTF type %d", id);
	if (!b->cost)
		b->cost = xcalloc(btf__type_cnt(b->btf), sizeof(*b->cost));
	if (decl_cost(b, (__u32)id, 0) > DECL_MAX)
		return xasprintf("BTF type %d", id);
	if (!b->dump)
		b->dump = btf_dump__new(b->btf, dump_printf, b, NULL);
	b->out = &sb;
	if (!b->dump || btf_dump__emit_type_decl(b->dump, (__u32)id, &o)) {
		free(sb.s);
		return xasprintf("BTF type %d", id);
	}
	return sb.s ? sb.s : xstrdup("?");
}

/* The prototype of function @name, or NULL. */
static const struct btf_type *proto_of(const struct kbtf *cb, const char *name)
{
	struct kbtf *b = (struct kbtf *)cb;	/* the cache only */
	const struct btf_type *t = NULL;
	int id;

	if (b->last_func && !strcmp(b->last_func, name))
		return b->last_proto;
	id = btf__find_by_name_kind(b->btf, name, BTF_KIND_FUNC);
	if (id > 0) {
		t = btf__type_by_id(b->btf, (__u32)id);
		t = t ? btf__type_by_id(b->btf, t->type) : NULL;
		if (t && !btf_is_func_proto(t))
			t = NULL;
	}
	free(b->last_func);
	b->last_func = xstrdup(name);
	b->last_proto = t;
	return t;
}

int kbtf_func(const struct kbtf *b, const char *name)
{
	const struct btf_type *p = proto_of(b, name);

	return p ? (int)btf_vlen(p) : -ENOENT;
}

int kbtf_param(const struct kbtf *b, const char *func, int n,
	       const char **name, int *type)
{
	const struct btf_type *p = proto_of(b, func);
	const struct btf_param *a;

	if (!p || n < 1 || n > (int)btf_vlen(p))
		return -ENOENT;
	a = btf_params(p) + n - 1;
	if (!a->type && !a->name_off)
		return -EINVAL;		/* "...": btf.rst, BTF_KIND_FUNC_PROTO */
	*name = a->name_off ? btf__name_by_offset(b->btf, a->name_off) : NULL;
	*type = (int)a->type;
	return 0;
}

int kbtf_param_find(const struct kbtf *b, const char *func,
		    const char *name, int *type)
{
	const struct btf_type *p = proto_of(b, func);
	const struct btf_param *a;
	int i;

	if (!p)
		return -ENOENT;
	a = btf_params(p);
	for (i = 0; i < (int)btf_vlen(p); i++)
		if (a[i].name_off &&
		    !strcmp(btf__name_by_offset(b->btf, a[i].name_off), name)) {
			*type = (int)a[i].type;
			return i + 1;
		}
	return 0;
}

void kbtf_param_names(const struct kbtf *b, const char *func,
		      struct suggest *sg)
{
	const struct btf_type *p = proto_of(b, func);
	int i;

	for (i = 0; p && i < (int)btf_vlen(p); i++)
		if (btf_params(p)[i].name_off)
			suggest_add(sg, btf__name_by_offset(b->btf,
							    btf_params(p)[i].name_off));
}

/* What one walk of members may still look at (WALK_MAX). */
struct walk {
	unsigned left;
	bool over;		/* it looked for more: damaged BTF */
};

/*
 * The members of peeled id @agg, a struct or union at most NEST_MAX
 * deep (@depth), with its type in *@t and their count in *@n, taken
 * from @w's budget; NULL for any other type, deeper, or past the
 * budget (@w->over).  The one opening of the member walks below.
 */
static const struct btf_member *members_of(const struct kbtf *b, int agg, int depth,
					   struct walk *w, const struct btf_type **t, int *n)
{
	*t = btf__type_by_id(b->btf, (__u32)agg);
	if (!*t || !btf_is_composite(*t) || depth > NEST_MAX)
		return NULL;
	if (btf_vlen(*t) > w->left) {
		w->left = 0;
		w->over = true;
		return NULL;
	}
	w->left -= btf_vlen(*t);
	*n = (int)btf_vlen(*t);
	return btf_members(*t);
}

static bool member_in(const struct kbtf *b, int agg, const char *name,
		      long long base, int depth, struct walk *w, struct kbtf_member *m)
{
	const struct btf_type *t;
	const struct btf_member *mb;
	struct kbtf_type pt;
	int i, n;

	mb = members_of(b, agg, depth, w, &t, &n);
	if (!mb)
		return false;
	for (i = 0; i < n && !w->over; i++) {
		long long off = base + btf_member_bit_offset(t, (__u32)i);

		if (mb[i].name_off) {
			if (strcmp(btf__name_by_offset(b->btf, mb[i].name_off), name))
				continue;
			m->bit_off = off;
			m->bit_size = btf_member_bitfield_size(t, (__u32)i);
			m->type = (int)mb[i].type;
			return true;
		}
		/* an anonymous struct or union: its members are the parent's */
		if (!kbtf_peel(b, (int)mb[i].type, &pt) &&
		    (pt.cls == KBTF_STRUCT || pt.cls == KBTF_UNION) &&
		    member_in(b, pt.id, name, off, depth + 1, w, m))
			return true;
	}
	return false;
}

int kbtf_member(const struct kbtf *b, int agg, const char *name,
		struct kbtf_member *m)
{
	struct walk w = { .left = WALK_MAX };

	if (member_in(b, agg, name, 0, 0, &w, m))
		return 0;
	return w.over ? -E2BIG : -ENOENT;
}

static void names_in(const struct kbtf *b, int agg, int depth, struct walk *w,
		     struct suggest *sg)
{
	const struct btf_type *t;
	const struct btf_member *mb;
	struct kbtf_type pt;
	int i, n;

	mb = members_of(b, agg, depth, w, &t, &n);
	if (!mb)
		return;
	for (i = 0; i < n && !w->over; i++) {
		if (mb[i].name_off)
			suggest_add(sg, btf__name_by_offset(b->btf, mb[i].name_off));
		else if (!kbtf_peel(b, (int)mb[i].type, &pt))
			names_in(b, pt.id, depth + 1, w, sg);
	}
}

void kbtf_member_names(const struct kbtf *b, int agg, struct suggest *sg)
{
	struct walk w = { .left = WALK_MAX };

	names_in(b, agg, 0, &w, sg);
}

/*
 * The member of @agg holding byte @off (relative to @agg): appended to
 * @path, its offset and type out.  Zero-sized members (the kernel's
 * __cacheline_group markers, flexible arrays) hold no byte.
 */
static bool at_in(const struct kbtf *b, int agg, long long off, int depth,
		  struct walk *w, struct strbuf *path, long long *moff, int *type)
{
	const struct btf_type *t;
	const struct btf_member *mb;
	struct kbtf_type pt;
	int i, n;

	mb = members_of(b, agg, depth, w, &t, &n);
	if (!mb)
		return false;
	for (i = 0; i < n && !w->over; i++) {
		long long bo = btf_member_bit_offset(t, (__u32)i);
		long long start = bo / 8, size;
		const char *nm;
		size_t keep = path->len;

		if (kbtf_peel(b, (int)mb[i].type, &pt) || pt.size <= 0)
			continue;
		size = btf_member_bitfield_size(t, (__u32)i) ?
		       (btf_member_bitfield_size(t, (__u32)i) + bo % 8 + 7) / 8 : pt.size;
		if (off < start || off >= start + size)
			continue;
		nm = mb[i].name_off ? btf__name_by_offset(b->btf, mb[i].name_off) : NULL;
		if (nm)
			sb_addf(path, "%s%s", keep ? "." : "", nm);
		*moff = start;
		*type = (int)mb[i].type;
		if (pt.cls == KBTF_STRUCT || pt.cls == KBTF_UNION) {
			long long in;
			int it;

			if (at_in(b, pt.id, off - start, depth + 1, w, path, &in, &it)) {
				*moff = start + in;
				*type = it;
			}
		} else if (pt.cls == KBTF_ARRAY) {
			struct kbtf_type el;

			if (!kbtf_peel(b, pt.ref, &el) && el.size > 0 &&
			    (el.cls == KBTF_STRUCT || el.cls == KBTF_UNION)) {
				long long k = (off - start) / el.size, in;
				int it;
				size_t at = path->len;

				sb_addf(path, "[%lld]", k);
				if (at_in(b, el.id, off - start - k * el.size,
					  depth + 1, w, path, &in, &it)) {
					*moff = start + k * el.size + in;
					*type = it;
				} else {
					path->len = at;
					path->s[at] = '\0';
				}
			}
		}
		if (path->len == keep && !nm)
			continue;	/* an anonymous member with no named one there */
		return true;
	}
	return false;
}

char *kbtf_member_at(const struct kbtf *b, int agg, long long off,
		     long long *moff, int *type)
{
	struct strbuf path = { 0 };
	struct walk w = { .left = WALK_MAX };

	if (!at_in(b, agg, off, 0, &w, &path, moff, type) || !path.s || w.over) {
		free(path.s);
		return NULL;
	}
	return path.s;
}
