/* SPDX-License-Identifier: GPL-2.0 */
/*
 * facts/: what the target kernel is, read from any subset of a target
 * capture (--target), a System.map, a vmlinux, a .config and a modules
 * directory; shared by the compiler (checks) and the report (symbols).
 *
 *   kernel.c    struct kernel: symbols and their index, the capture
 *               reader, System.map
 *   vmlinux.c   vmlinux and *.ko (libelf): symbols, __mcount_loc,
 *               blacklist, banner, IKCONFIG
 *   kconfig.c   .config text, plain or gzip'd
 * User programs are in uelf.h, DWARF in debuginfo.h.
 */
#ifndef PROBECC_KERNEL_H
#define PROBECC_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "common.h"

/* ---- the target kernel as it is (kernel.c, vmlinux.c, kconfig.c) ---- */

#define KS_FTRACE	0x1	/* has an mcount/fentry site: ftrace can filter it */
#define KS_BLACKLIST	0x2	/* in the kernel's kprobe blacklist */
#define KS_GLOBAL	0x4	/* binding: global (nm upper case) */

/* One symbol.  Strings are owned by the struct kernel. */
struct ksym {
	char *name;
	unsigned long long addr;
	unsigned long long size;	/* bytes; from ELF, else to the next symbol */
	char type;		/* nm letter, lower case: t (text), w, d, r, b, ... */
	unsigned char flags;	/* KS_* */
	const char *module;	/* NULL: vmlinux; else the module's name */
	int next;		/* next symbol with the same name hash, or -1 */
};

/* An address range [start, end) of the kprobe blacklist. */
struct krange {
	unsigned long long start, end;
};

/*
 * What probecc knows of the target kernel, from any subset of a target
 * capture (docs/plan.md, "Target"), a vmlinux, a System.map, a .config
 * and a modules directory.  Each "known" flag says whether a check that
 * needs it can run; --explain reports the ones that cannot.
 */
struct kernel {
	char *release;		/* "6.1.0-50-4kc-malta"; NULL: unknown */
	char *arch;		/* an --arch name; NULL: unknown */
	struct ksym *syms;
	size_t nsyms, cap;
	int *buckets;		/* name hash -> first symbol index, or -1 */
	size_t nbuckets;
	unsigned long long *mcount;	/* __mcount_loc addresses (vmlinux) */
	size_t nmcount;
	char **ftrace_names;	/* available_filter_functions (target) */
	size_t nftrace_names;
	struct krange *blacklist;
	size_t nblacklist;
	char **events;		/* "group:event", sorted; NULL: unknown */
	size_t nevents;
	char **config;		/* "CONFIG_X=v" lines, sorted; NULL: unknown */
	/*
	 * tracefs README of a capture: the probe syntax the kernel's parser
	 * takes (kernel/trace/trace.c readme_msg); NULL: unknown
	 */
	char *readme;
	/* raw BTF, a capture's copy of /sys/kernel/btf/vmlinux; NULL: none */
	unsigned char *btf;
	size_t nbtf;
	size_t nconfig;
	bool syms_known, sizes_exact, ftrace_known, blacklist_known;
	bool events_known, modules_known;
	struct strbuf sources;	/* "read ..." / "cannot check ..." lines */
	size_t modules_unread;	/* *.ko files under --modules that could not be read */
	char modules_unread_why[320];	/* the first: its path and why */
};

struct kernel *kernel_new(void);
/*
 * Append a symbol (@len bytes of @name are copied; @type is the nm
 * letter, upper case for global; @module is kept, not copied).  Index
 * with kernel_index() after the last one.
 */
struct ksym *kernel_add_sym(struct kernel *k, const char *name, size_t len,
			    unsigned long long addr, unsigned long long size,
			    char type, const char *module);
/*
 * Loaders: each adds what its input holds and notes it in k->sources.
 * Each returns 0, or a negative errno-style code with the reason (the
 * path, and the line where there is one) in @e: -errno for a file that
 * cannot be read, -EINVAL or -ENOEXEC for one that is not what it should
 * be.  What was added before the error stays in @k.
 *  - target capture (qemu-images/capture): kallsyms, the functions
 *    ftrace can filter, the kprobe blacklist, events, config.gz, the
 *    tracefs README
 *  - System.map ("ADDR TYPE NAME"); Debian's placeholder is refused
 *  - vmlinux (libelf): symbols with sizes, __mcount_loc, the blacklist
 *    (_kprobe_blacklist, __kprobes and noinstr text), linux_banner,
 *    machine and endianness, the IKCONFIG blob
 *  - a .config, plain or gzip'd
 *  - a modules directory: FUNC symbols of every *.ko below it
 */
int kernel_load_target(struct kernel *k, const char *path,
			struct errmsg *e);
/*
 * kernel_load_target_text() - kernel_load_target() of a capture already
 * read: @text, @len bytes and a NUL after them, malloc'd and taken (freed
 * here); @path names it in messages.
 */
int kernel_load_target_text(struct kernel *k, const char *path, char *text,
			    size_t len, struct errmsg *e);
int kernel_load_system_map(struct kernel *k, const char *path,
			struct errmsg *e);
int kernel_load_vmlinux(struct kernel *k, const char *path,
			struct errmsg *e);
int kernel_load_kconfig(struct kernel *k, const char *path,
			struct errmsg *e);
int kernel_load_modules(struct kernel *k, const char *dir,
			struct errmsg *e);
/* A function of a module file: its offset in its code section. */
struct ko_sym {
	char *name;
	char *section;		/* ".text", ".init.text", ... */
	unsigned long long off, size;	/* bytes */
};
/*
 * ko_find() - the file of module @name below @dir (NAME.ko or NAME.ko.xz,
 * '-' in a file name being '_' in the module name, as the kernel has
 * it): malloc'd, the caller's; NULL when there is none.
 */
char *ko_find(const char *dir, const char *name);
/* FUNC symbols of module @name's code sections, below @dir; see vmlinux.c. */
struct ko_sym *ko_symbols(const char *dir, const char *name, size_t *n,
			  char **file, struct errmsg *e);
/*
 * Parse .config text (@len bytes) into k->config; @what names it.
 * 0, or -EINVAL when it has no CONFIG_ line (the reason in @e).
 */
int kernel_set_kconfig(struct kernel *k, const char *text, size_t len,
		       const char *what, struct errmsg *e);
/*
 * Inflate the gzip stream of @n bytes at @in (zlib).  Returns a new
 * NUL-terminated buffer (owned by the caller) with its length in
 * *@outlen, or NULL if the data is not a complete gzip stream.
 */
char *kernel_gunzip(const void *in, size_t n, size_t *outlen);
/*
 * The most a kernel config may be, read or inflated: 16 MiB, some 60
 * times an allyesconfig .config; more is /dev/zero or a gzip bomb, and
 * kernel_load_kconfig() and kernel_gunzip() stop there.
 */
#define KCONFIG_MAX ((size_t)16 << 20)
/* Symbols and flags once all loaders ran: sort, size, hash, flag. */
void kernel_index(struct kernel *k);
/* The first symbol named @name (then ->next filtered by name), or NULL. */
const struct ksym *ksym_find(const struct kernel *k, const char *name);
const struct ksym *ksym_next(const struct kernel *k, const struct ksym *s);
/* The symbol whose [addr, addr+size) holds @addr, or NULL. */
const struct ksym *ksym_at(const struct kernel *k, unsigned long long addr);
/* "y", "m", a value, or NULL (not set); k->config NULL: returns NULL. */
const char *kconfig_get(const struct kernel *k, const char *name);
/* 1 when @name is y or m, 0 when not set, -1 when k has no config. */
int kconfig_tristate(const struct kernel *k, const char *name);
/*
 * The symbols of @k closest to @name (functions only if @funcs) into @sg,
 * by common/suggest.c's rule; the names stay k's.
 */
void ksym_suggest(const struct kernel *k, const char *name, bool funcs,
		  struct suggest *sg);

/*
 * kernel_capture_check() - the check line that ends a capture of the
 * agent (initramfs/capture.c, docs/plan.md "Target"): "check<TAB>BYTES
 * <TAB>CRC32", the number of bytes before it and their CRC-32 (zlib's,
 * IEEE 802.3, 8 hex digits).  @text is @len bytes named @name.  Returns
 * 1 with *@body the bytes before the check line when it holds, 0 with
 * *@body = @len when there is none (an older agent's capture, taken as
 * it is), or -EBADMSG / -EINVAL ("NAME:LINE: ...") when it does not hold
 * or is not one.
 */
int kernel_capture_check(const char *name, const char *text, size_t len,
			 size_t *body, struct errmsg *e);

/* ---- the target frame of a console log (logframe.c) ---- */

/* The longest line a console log of a capture may have (bytes). */
#define LOGFRAME_LINE_MAX 65536

/*
 * logframe_find() - the target frame of the console log @log (@len
 * bytes, named @name in messages) into @out: its lines between the
 * begin and end markers, kernel messages taken out, each ending in '\n'
 * (@out's text is replaced; the caller frees out->s).  Returns 0, or
 * -ENODATA (no frame, an empty one, one without an end), -EINVAL (a
 * frame inside a frame, a second frame, a NUL byte) or -E2BIG (a line
 * over LOGFRAME_LINE_MAX) with "NAME:LINE: ..." in @e.
 */
int logframe_find(const char *log, size_t len, const char *name,
		  struct strbuf *out, struct errmsg *e);

#endif
