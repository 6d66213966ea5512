/* SPDX-License-Identifier: GPL-2.0 */
/*
 * facts/btf.c: the kernel's own type information (BTF,
 * Documentation/bpf/btf.rst), read with libbpf's BTF API: the
 * prototypes of its functions and the layout of its structs, so that a
 * C name (dev->name) becomes an offset and a type on any kernel built
 * with CONFIG_DEBUG_INFO_BTF, with no DWARF.  Sources: a copy of
 * /sys/kernel/btf/vmlinux (raw BTF, the capture's "btf" section) or an
 * ELF kernel with a .BTF section, a boot image (bzImage, arm64 Image); a
 * module's, split on the kernel's, from its .ko.
 *
 * Type ids are libbpf's (0 is void); every id a function returns is one
 * of the loaded BTF's.  Strings returned are owned by the struct kbtf
 * unless the comment says "caller frees".
 */
#ifndef PROBECC_BTF_H
#define PROBECC_BTF_H

#include <stdbool.h>
#include <stddef.h>

#include "common.h"

struct kbtf;

/*
 * kbtf_open() - the BTF of @path: raw BTF (magic 0xeB9F, as
 * /sys/kernel/btf/vmlinux) or an ELF file's .BTF section (libbpf
 * btf__parse()), else a boot image's: an x86 bzImage's payload unpacked
 * (libarchive: xz, zstd, gzip...; at most 512 MiB) or an image as it is
 * (arm64 Image), the BTF blob found by its header and accepted by
 * btf__new().  NULL with @e set (-ENOENT, -EINVAL: no BTF there; -EFBIG;
 * a bzImage that does not unpack).
 */
struct kbtf *kbtf_open(const char *path, struct errmsg *e);

/*
 * kbtf_from_raw() - raw BTF bytes (@n of them, copied), @what names
 * where they came from in messages ("target FILE's btf").  NULL with @e.
 */
struct kbtf *kbtf_from_raw(const void *data, size_t n, const char *what,
			   struct errmsg *e);
/*
 * kbtf_open_module() - the BTF of the module file @path (NAME.ko or
 * NAME.ko.xz, common/elffile.c): its .BTF section, split BTF whose type
 * ids and strings go on from @base's (the kernel's, which must outlive
 * the result; scripts/Makefile.modfinal runs pahole --btf_base vmlinux;
 * libbpf btf__parse_raw_split()).  With @release (NULL: unknown) a module whose
 * .modinfo vermagic names another release is refused.  NULL with @e set:
 * no such file or not ELF (elf_file_open()'s codes), -ENOENT no .BTF,
 * -EINVAL another release's or not split on @base.
 */
struct kbtf *kbtf_open_module(const char *path, const struct kbtf *base,
			      const char *release, struct errmsg *e);
void kbtf_free(struct kbtf *b);
const char *kbtf_what(const struct kbtf *b);
/* Number of types (for --explain). */
unsigned kbtf_ntypes(const struct kbtf *b);
/* sizeof(void *) of the kernel the BTF describes, in bytes (libbpf's guess from its longs and pointers) */
int kbtf_pointer_size(const struct kbtf *b);
/* Whether the kernel the BTF describes is big-endian (the BTF's own byte order, libbpf btf__endianness()) */
bool kbtf_big_endian(const struct kbtf *b);

/* What a type is once typedefs and qualifiers are peeled off. */
enum kbtf_class {
	KBTF_VOID, KBTF_INT, KBTF_PTR, KBTF_ARRAY, KBTF_STRUCT, KBTF_UNION,
	KBTF_ENUM, KBTF_FUNC, KBTF_OTHER,
};

struct kbtf_type {
	int id;			/* the peeled type's id */
	enum kbtf_class cls;
	long long size;		/* bytes; -1: unknown (void, function) */
	bool is_signed;		/* KBTF_INT, KBTF_ENUM */
	bool is_char;		/* KBTF_INT of one byte (char, signed char, u8) */
	int ref;		/* KBTF_PTR: pointee; KBTF_ARRAY: element (unpeeled) */
	unsigned nelems;	/* KBTF_ARRAY */
};

/*
 * kbtf_peel() - @id with typedef, const, volatile, restrict and
 * type_tag skipped, described in *@out.  -EINVAL: not a type of @b or
 * a loop of more than 32 such links (damaged BTF).
 */
int kbtf_peel(const struct kbtf *b, int id, struct kbtf_type *out);

/*
 * kbtf_type_str() - @id as C spells it ("struct net_device *",
 * "char[16]"); caller frees.
 */
char *kbtf_type_str(const struct kbtf *b, int id);

/*
 * kbtf_func() - the number of parameters of the function @name (a
 * BTF_KIND_FUNC, linkage static or global), or -ENOENT.
 */
int kbtf_func(const struct kbtf *b, const char *name);

/*
 * kbtf_param() - parameter @n (1-based) of @func: its name (NULL when
 * BTF has none) and type id in *@type.  -ENOENT: no such function or
 * parameter; -EINVAL: @n is the varargs marker.
 */
int kbtf_param(const struct kbtf *b, const char *func, int n,
	       const char **name, int *type);

/*
 * kbtf_param_find() - the 1-based position of @func's parameter @name
 * (its type in *@type), 0 when it has none by that name, -ENOENT when
 * @b has no function @func.
 */
int kbtf_param_find(const struct kbtf *b, const char *func,
		    const char *name, int *type);

/* kbtf_param_names() - every parameter name of @func into @sg. */
void kbtf_param_names(const struct kbtf *b, const char *func,
		      struct suggest *sg);

/* Where a member is inside its struct or union. */
struct kbtf_member {
	long long bit_off;	/* from the start of the outermost aggregate */
	unsigned bit_size;	/* a bitfield's width; 0: not a bitfield */
	int type;		/* unpeeled */
};

/*
 * kbtf_member() - member @name of the struct or union @agg (a peeled
 * id), looking into anonymous structs and unions as C does.  0: found;
 * -ENOENT: none by that name; -E2BIG: the walk looked at more than
 * 4,096 members (WALK_MAX in btf.c: damaged BTF, such as a struct
 * holding itself anonymously).
 */
int kbtf_member(const struct kbtf *b, int agg, const char *name,
		struct kbtf_member *m);

/*
 * kbtf_member_names() - every member name of @agg (anonymous ones
 * entered) into @sg, as far as kbtf_member() walks.
 */
void kbtf_member_names(const struct kbtf *b, int agg, struct suggest *sg);

/*
 * kbtf_member_at() - the innermost named member of @agg whose bytes
 * hold byte @off: its path from @agg ("name", "stats.rx_packets";
 * caller frees), its byte offset in *@moff and type in *@type.  An
 * array member is entered to its element when the element is an
 * aggregate.  NULL: no member covers @off (a hole or past the end),
 * or the walk went past kbtf_member()'s bound.
 */
char *kbtf_member_at(const struct kbtf *b, int agg, long long off,
		     long long *moff, int *type);

#endif
