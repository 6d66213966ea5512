/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ustack.h - the user-stack unwinder (facts/ustack.c) and what it takes:
 * a "perf-user" sample (user registers and a copy of the user stack) and
 * the process's "perf-mmap" mappings, as the dump reader (dumpread/)
 * reads them from the agent's dump (initramfs/perf.c writes them).
 */
#ifndef PROBECC_USTACK_H
#define PROBECC_USTACK_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A "perf" line: one sample of a probe with its kernel callchain; or a
 * "perf-user" line: one with the user registers (the bits of umask in
 * order, arch/ARCH/include/uapi/asm/perf_regs.h) and stack copy.
 */
struct sample {
	char *probe;
	double ts;		/* seconds, perf's clock (local_clock) */
	long pid;		/* the task (TID) */
	long tgid;		/* its process (PID), as "perf-mmap" lines' */
	unsigned long long *addrs;
	int n;
	int deep;		/* addresses past PERF_MAX_STACK_DEPTH (127), not kept */
	bool user;		/* a "perf-user" line */
	bool kernel;		/* ... of a kernel probe ("stack user"): addrs its kernel callchain */
	int machine;		/* ELF e_machine of the dump's arch (EM_NONE: unknown) */
	unsigned long long umask, *uregs;
	int nuregs;
	unsigned char *ustack;	/* the bytes from the user stack pointer up */
	size_t nustack;
};

/*
 * A "perf-mmap" line: an executable mapping of a process, as the
 * kernel's PERF_RECORD_MMAP2 gave it (the file offset @pgoff of @path at
 * @addr for @len bytes), from @ts on.  addr + len does not wrap.
 */
struct umap {
	double ts;		/* seconds, perf's clock, as struct sample's */
	long pid;
	unsigned long long addr, len, pgoff;
	char *path;		/* the target's path ("/lib/libc.so.6", "[vdso]") */
};

/* A user frame that says why the stack is cut or missing starts with USTACK_MARK. */
#define USTACK_MARK	"[user stack "
void ustack_frames(const struct sample *s, const struct umap *maps, int nmaps,
		   const char *sysroot, const char *path, unsigned long long off,
		   bool ret, char ***frames, int *n, int *cap);
/*
 * ustack_release() - the files under the sysroot and the libdwfl sessions
 * that ustack_frames() opened and keeps for the rest of a report (each
 * opened once per run), closed and freed; for a process that reports
 * more than once (tests/fuzz/fuzz-ustack).
 */
void ustack_release(void);
/*
 * Was user frame @frame found by prologue analysis (no CFI: MIPS)?  Every
 * output keeps the mark USTACK_HEUR after the frame's name.
 */
#define USTACK_HEUR	" (heuristic)"
bool ustack_heuristic(const char *frame);

#endif
