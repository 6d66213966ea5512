/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uelf: uprobe targets in ELF files.  The kernel's uprobe_events wants
 * "p[:EVENT] PATH:OFFSET" where OFFSET is a file offset
 * (Documentation/trace/uprobetracer.rst), not the virtual address that
 * nm or readelf -s print.  The conversion is the System V gABI's
 * (ch. 5, Program Header): a virtual address ADDR inside the PT_LOAD
 * segment with p_vaddr <= ADDR < p_vaddr + p_filesz is at file offset
 * ADDR - p_vaddr + p_offset.  Read with libelf (elfutils).  The same
 * rule backwards names the frames of a user stack (uelf_name_addr()).
 */
#ifndef UELF_H
#define UELF_H

#include <stddef.h>

#include "common.h"

/*
 * Resolve SYMBOL+OFF in ELF file PATH to a file offset.  Returns 0 and
 * sets *foff, or -EINVAL with a one-line reason (no trailing newline,
 * no "error:" prefix) in @err (common/common.h's convention).
 *
 * Units: OFF and *foff are bytes; OFF is added to the symbol's address
 * (st_value, with the Thumb bit cleared on EM_ARM) and must stay below
 * st_size when st_size is known.  The symbol is looked up in .symtab,
 * then .dynsym; a function (STT_FUNC, STT_GNU_IFUNC) is preferred over
 * an untyped label (STT_NOTYPE), data symbols are refused.  The result
 * must lie in the file-backed part of an executable PT_LOAD segment.
 * Works for ET_EXEC and ET_DYN (PIE, shared libraries).
 *
 * Ownership: PATH and SYMBOL are only read; nothing is kept or returned
 * that the caller must free.  @err may be NULL.
 *
 * Errors: unreadable or non-ELF file, not ET_EXEC/ET_DYN, no symbol
 * table at all (stripped: pass an unstripped copy or PATH:0xOFFSET),
 * unknown symbol (with up to 3 "did you mean" names by edit distance),
 * ambiguous symbol, data symbol, OFF past st_size, misaligned result on
 * MIPS/AArch64 (arch/{mips,arm64}/kernel/.../uprobes.c refuse it).
 */
int uelf_resolve(const char *path, const char *symbol, unsigned long long off,
		 unsigned long long *foff, struct errmsg *err);

/* 1 when PATH has a PT_INTERP (a dynamic program), 0 static, -1 unreadable. */
int uelf_is_dynamic(const char *path);

/* What uelf_resolve_sym() found, for a caller that wants to say more. */
struct uelf_sym {
	unsigned long long addr;	/* st_value (+OFF): virtual address */
	unsigned long long foff;	/* the file offset: the answer */
	unsigned long long size;	/* st_size, 0 when unknown */
	int type;			/* STT_FUNC, STT_GNU_IFUNC, STT_NOTYPE */
	const char *table;		/* ".symtab" or ".dynsym" (static) */
	const char *abi;		/* the file's user ABI (static): see below */
	char note[160];			/* a remark worth showing, or "" */
};

/*
 * uelf_resolve() with details: same arguments, result and errors; when
 * sym is not NULL it is filled in on success (sym->note is "" or a
 * one-line remark without a trailing newline, e.g. that an IFUNC's
 * resolver is what gets probed).  The caller owns *sym.
 */
int uelf_resolve_sym(const char *path, const char *symbol, unsigned long long off,
		     struct uelf_sym *sym, struct errmsg *err);

/*
 * uelf_resolve_dbg() - uelf_resolve_sym() for a stripped @path through
 * its separate debug file @dbgpath (facts/debugfile.h finds it): the
 * symbol from @dbgpath's .symtab (then @path's own .dynsym), the file
 * offset from @path's program headers.  objcopy --only-keep-debug
 * keeps the program's section addresses and program headers, so a
 * .symtab address is one of @path's; the caller checks that they are
 * one build (debugfile_find() compares build-ids).  Same results and
 * errors as uelf_resolve_sym(); an unknown symbol names both files and
 * offers the debug file's functions; a debug file of another machine,
 * class or byte order is refused.
 */
int uelf_resolve_dbg(const char *path, const char *dbgpath, const char *symbol,
		     unsigned long long off, struct uelf_sym *sym, struct errmsg *err);

/*
 * uelf_each_func() - @fn(NAME, @arg) for every defined code symbol of
 * PATH's .symtab and .dynsym (STT_FUNC, STT_GNU_IFUNC, and STT_NOTYPE
 * labels, which name frames too): the names a user frame can get.
 * NAME lives during the call only.  0, or -1 when PATH is unreadable
 * or no executable or shared object.
 */
int uelf_each_func(const char *path, void (*fn)(const char *name, void *arg),
		   void *arg);

/* 1 when PATH has a .symtab (not stripped), 0 none, -1 unreadable. */
int uelf_has_symtab(const char *path);

/*
 * The user ABI of an ELF file is read from its header and named as in
 * compiler/abi.c's table: EM_MIPS ELFCLASS64 is "n64"; EM_MIPS
 * ELFCLASS32 is "n32" with EF_MIPS_ABI2 in e_flags, "o32" when the
 * EF_MIPS_ABI field is E_MIPS_ABI_O32 or 0 (what the kernel's
 * elf_check_arch() in arch/mips/include/asm/elf.h takes for o32);
 * EM_X86_64 ELFCLASS64 is "sysv", EM_AARCH64 ELFCLASS64 "aapcs64",
 * EM_RISCV ELFCLASS64 "lp64"; NULL for anything else (i386, x32,
 * 32-bit ARM, MIPS o64/EABI...: probecc has no argument table for it).
 *
 * Check that the ELF file PATH can run under a kernel of --arch ARCH
 * (mips mipsel mips64 mips64el x86_64 arm64 riscv64): the same
 * e_machine, the same byte order (EI_DATA), and a class and ABI that
 * kernel runs: a 32-bit MIPS kernel runs o32 only; a 64-bit one runs
 * n64, and o32 and n32 through its compat layers (MIPS32_O32,
 * MIPS32_N32: o32 userlands on Loongson-3 and Octeon); the other
 * arches run their 64-bit ABI (probecc has no table for i386, x32 or
 * 32-bit ARM compat programs).  Returns 0 and sets *abi (when abi is
 * not NULL) to the program's ABI as named above, or -EINVAL with
 * a one-line reason naming the file and both sides in @err
 * (same convention as uelf_resolve()), e.g. "/bin/tool is x86-64
 * (ELFCLASS64, ELFDATA2LSB, EM_X86_64), not a mipsel program".  The
 * kernel side is the machine --arch names, not its config: an o32
 * program under mips64el passes even when MIPS32_O32 is off.
 * Ownership: PATH and ARCH are only read; *abi is a static string.
 */
int uelf_check_arch(const char *path, const char *arch, const char **abi,
		    struct errmsg *err);
/*
 * uelf_check_arch() that also writes, on success, what the header says
 * into DESC (at most DESCLEN bytes with the NUL; NULL: not wanted), as
 * in the error: "little-endian MIPS o32 (ELFCLASS32, ELFDATA2LSB,
 * EM_MIPS)".  For --explain's "which ABI and why".
 */
int uelf_check_arch_desc(const char *path, const char *arch, const char **abi,
			 char *desc, size_t desclen, struct errmsg *err);

/*
 * Check that a raw file OFFSET (bytes) lies in the file-backed part of
 * an executable PT_LOAD segment of PATH: p_offset <= OFFSET <
 * p_offset + p_filesz with PF_X set (gABI ch. 5).  Returns 0 when it
 * does, or -EINVAL with a one-line reason in @err (same convention as
 * uelf_resolve()).  Catches the nm-address mistake: when OFFSET is
 * instead a virtual address inside a PT_LOAD, the reason reads
 * "0x10114b48 is a virtual address (symbol foo+0x8); the file offset is
 * 0x114b48".  Also refuses an offset in a non-executable segment or
 * outside every segment, and a misaligned one on MIPS/AArch64.
 * Ownership: PATH is only read; nothing to free.
 */
int uelf_check_offset(const char *path, unsigned long long offset, struct errmsg *err);

/*
 * Name a run-time address of a process running PATH, as the kernel's
 * <user stack trace> gives it: ADDR minus the load bias (PROBE_IP, the
 * address a uprobe at file offset PROBE_OFF was hit at, as the event
 * prints it, minus the virtual address of PROBE_OFF: 0 for ET_EXEC)
 * must lie in an executable PT_LOAD of PATH; its symbol (.symtab, then
 * .dynsym; sized symbols first) goes to BUF as "NAME" or "NAME+0xN".
 * Returns 0, or -1 when the file cannot be read, ADDR is not in its
 * code (another object: libc of a dynamic program, the vDSO) or no
 * symbol holds it (stripped).  Ownership: PATH only read.
 */
int uelf_name_addr(const char *path, unsigned long long probe_off,
		   unsigned long long probe_ip, unsigned long long addr,
		   char *buf, size_t len);
/*
 * The same for a link-time virtual address ADDR of PATH (no load bias):
 * it must lie in an executable PT_LOAD's memory size, so that a separate
 * debug file (objcopy --only-keep-debug: segments without their bytes)
 * names it from its .symtab.  Returns 0, or -1 as uelf_name_addr().
 */
int uelf_name_vaddr(const char *path, unsigned long long addr, char *buf, size_t len);

/*
 * For many addresses of one file: uelf_hold() opens PATH as
 * uelf_name_vaddr() does and keeps it (its bytes in memory, no file
 * descriptor kept open; NULL when it cannot be read), uelf_name_held()
 * is uelf_name_vaddr() in it (-1 for a NULL @u), uelf_release() frees
 * it (NULL: nothing).  The caller owns the held file.
 */
struct uelf;
struct uelf *uelf_hold(const char *path);
int uelf_name_held(struct uelf *u, unsigned long long addr, char *buf, size_t len);
void uelf_release(struct uelf *u);

/*
 * Without the file: a uprobe OFFSET at or above 0x400000, where the
 * toolchains link non-PIE programs (GNU ld's default text-segment for
 * x86-64, MIPS and AArch64), is more likely an nm/readelf address than
 * an offset into a file of over 4 MiB.  The kernel takes any offset in
 * uprobe_events and refuses one past the file's end only when the event
 * is enabled (uprobe_register(): EINVAL, "set_event Invalid argument").
 * A hint for a message, never a rule.
 */
#define UELF_VADDR_HINT	0x400000ULL

/* One site of an SDT probe, from uelf_resolve_sdt(). */
struct uelf_sdt {
	unsigned long long foff;	/* file offset of the probe site */
	unsigned long long sem_foff;	/* file offset of the semaphore, 0: none */
	unsigned long long addr;	/* virtual address of the site */
	unsigned long long sem_addr;	/* virtual address of the semaphore, 0: none */
	unsigned int nsites;		/* sites of PROVIDER:NAME in the file */
	char args[256];			/* the note's argument string, e.g. "-4@$4" */
};

/*
 * Resolve site INDEX (0-based) of the SystemTap SDT (USDT) probe
 * PROVIDER:NAME in ELF file PATH.  Returns 0 and fills *sdt, or -EINVAL with
 * a one-line reason in @err (same convention as uelf_resolve()).
 *
 * The rule: each NT_STAPSDT note (type 3, owner "stapsdt") in
 * .note.stapsdt holds three addresses of the file's class and byte
 * order (site, .stapsdt.base as linked, semaphore or 0) and then
 * provider, name and argument strings (systemtap's sys/sdt.h; the wiki
 * page "UserSpaceProbeImplementation").  The site moves by the actual
 * .stapsdt.base address minus the noted one (prelink), and both the
 * site and the semaphore become file offsets through their PT_LOAD as
 * in uelf_resolve(); the site must be in an executable segment and the
 * semaphore in a non-executable, file-backed one (libbpf's usdt.c does
 * the same).  The kernel takes them as "PATH:FOFF(SEM_FOFF)"
 * (uprobetracer.rst: REF_CTR_OFFSET): it increments the semaphore
 * while the probe is armed.  sdt->nsites says how many sites the probe
 * has (inlining or several uses in the source); one uprobe event takes
 * one site.
 *
 * Ownership: PATH, PROVIDER and NAME are only read; the caller owns
 * *sdt.  Errors: as uelf_resolve()'s for the file; no .note.stapsdt;
 * unknown probe (with up to 3 "did you mean" PROVIDER:NAMEs); INDEX
 * past the last site; a malformed note; a site or semaphore outside the
 * segments it must be in.
 */
int uelf_resolve_sdt(const char *path, const char *provider, const char *name,
		     unsigned int index, struct uelf_sdt *sdt, struct errmsg *err);

#endif /* UELF_H */
