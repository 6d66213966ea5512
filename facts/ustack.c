// SPDX-License-Identifier: GPL-2.0
/*
 * User call stacks from the agent's "perf-user" samples (docs/plan.md):
 * the user registers and a copy of the user stack from the stack pointer
 * up, taken at a uprobe hit (initramfs/perf.c), unwound on the host with
 * the probed program's CFI (.eh_frame, .debug_frame) under --sysroot, as
 * "perf report" does for "perf record --call-graph dwarf"; frames in the
 * shared objects the agent's "perf-mmap" lines place in the process are
 * unwound and named with those objects' CFI and symbols.
 *
 * What Debian bookworm's elfutils 0.188 gives, from its source
 * (libebl/eblopenbackend.c, backends/, libdwfl/dwfl_frame.c, libdw/cfi.c):
 *  - x86_64 and aarch64 have a backend with frame_nregs (17, 97),
 *    abi_cfi and a fallback unwinder (frame pointer); riscv64 one with
 *    frame_nregs (66) and abi_cfi (CFA = sp, return address in ra: x1)
 *    but no fallback unwinder, so a riscv64 frame without CFI ends the
 *    walk (bookworm's riscv64-linux-gnu-gcc 12 emits .eh_frame only
 *    with -fasynchronous-unwind-tables; -g gives .debug_frame): libdwfl unwinds
 *    from registers set through dwfl_thread_state_registers() and a
 *    memory_read callback over the stack copy (dwfl_attach_state(),
 *    dwfl_getthread_frames()).
 *  - MIPS has no backend at all in 0.188 (no mips_init: EM_MIPS gets the
 *    default one, frame_nregs 0), so dwfl_thread_getframes() fails with
 *    DWFL_E_NO_UNWIND, and libdw's own dwarf_cfi_addrframe() fails for
 *    every MIPS address: cie_cache_initial_state() returns
 *    DWARF_E_UNKNOWN_ERROR when the backend has no abi_cfi.  Only its
 *    entry parser, dwarf_next_cfi(), is arch-free.  So on MIPS this file
 *    runs the CFA programs itself (DWARF 5 section 6.4.2; GCC's MIPS CIE
 *    says "CFA = $sp + 0, return address in $31"): registers no rule
 *    names keep their value, as GCC's MIPS code assumes of $16-$23,
 *    $28-$30 (the o32 and n64 ABIs' callee-saved registers).
 *    Where no CFI holds a MIPS pc, the kernel's own method for kernel
 *    frames (prologue analysis, mips_prologue_step()) gives the caller,
 *    and the frame says "(heuristic)".
 *  - Other arches: no unwinder, and the stack says so.
 * Each file is opened once per report run (struct ufile): its separate
 * debug file (by build-id or .gnu_debuglink under --sysroot, as GDB's
 * "Separate Debug Files" and Debian's -dbgsym lay them out) gives the
 * symbols and, on MIPS, the .debug_frame a stripped program lacks.
 * The first frame is the sample's pc; at a function's first instruction
 * the caller comes from the CFI's return-address column, which is the
 * ABI's return-address register ($31, x30) or the slot at the stack
 * pointer (x86_64): the direct caller is never lost.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "common.h"
#include "debugfile.h"
#include "strmap.h"
#include "sysroot.h"
#include "uelf.h"
#include "ustack.h"

#define USTACK_DEPTH	64	/* frames at most */
#define MIPS_NREGS	32	/* DWARF columns 0-31: $0-$31 */
#define CFI_COLS	72	/* columns kept: GPRs, FPRs, hi, lo */

/* One sample being unwound. */
struct uw {
	const struct sample *s;
	unsigned long long sp;	/* where the stack copy starts */
	bool msb;		/* big-endian target */
	int wsize;		/* bytes of a word: 4 (o32) or 8 */
	const char *stop;	/* why the unwind stopped early, or NULL */
	const struct umap *maps;	/* the dump's "perf-mmap" lines */
	int nmaps;
	const char *sysroot;
	char stopbuf[640];
};

/* One CFI section of a file. */
struct cfi_sec {
	Elf_Data *data;
	unsigned long long addr;	/* its sh_addr (for pc-relative pointers) */
	bool eh;
	const unsigned char *ident;	/* the e_ident of the ELF holding it */
};

/* An FDE of a file's CFI sections, in the index of struct ufile. */
struct fde_ent {
	unsigned long long start, len;	/* the code it covers (link-time addresses) */
	Dwarf_Off off;			/* the FDE's offset in its section */
	int sec;			/* index in ufile.secs */
};

/* A name memo entry: the frame name of a link-time address, NULL: none. */
struct name_memo {
	unsigned long long addr;	/* the key's 8 bytes */
	char *name;
};

/*
 * A program (or library) under --sysroot, opened once per report run and
 * kept for every sample that needs it (ufile_get()): its ELF, separate
 * debug file, libdwfl session (x86_64, aarch64), FDE index (MIPS) and
 * the names of the addresses already named.  A report keeps them to its
 * end; ustack_release() frees them (for a process that reports more
 * than once).
 */
struct ufile {
	char *path;		/* SYSROOT/PATH */
	char *dbgpath;		/* its separate debug file, or NULL */
	int fd, dbgfd;
	Elf *elf, *dbgelf;
	GElf_Ehdr eh;
	Dwfl *dwfl;		/* reported at dwfl_bias, state attached */
	unsigned long long dwfl_bias;
	struct uw *cur;		/* the sample libdwfl's callbacks read */
	struct cfi_sec secs[4];	/* .debug_frame, .eh_frame: the file's, the debug file's */
	int nsecs;
	struct fde_ent *fdes;	/* sorted by start; built on first use */
	size_t nfdes;
	bool indexed;
	struct strmap names;	/* link-time address -> struct name_memo */
	/* the file and its debug file held for their symbols, from the first name on */
	struct uelf *symf, *symdbg;
	bool symheld;
};

static struct strmap ufiles;	/* SYSROOT/PATH -> struct ufile */

/* The value of the sample's register of perf bit @bit, or false. */
static bool perf_reg(const struct sample *s, int bit, unsigned long long *v)
{
	int i, k = 0;

	if (!s->uregs || !(s->umask >> bit & 1))
		return false;
	for (i = 0; i < bit; i++)
		k += s->umask >> i & 1;
	if (k >= s->nuregs)
		return false;
	*v = s->uregs[k];
	return true;
}

/* A word of the stack copy at @addr, or false outside it. */
static bool stack_word(const struct uw *u, unsigned long long addr, int size,
		       unsigned long long *v)
{
	const unsigned char *p;
	int i;

	if (addr < u->sp || addr - u->sp > u->s->nustack ||
	    u->s->nustack - (addr - u->sp) < (size_t)size)
		return false;
	p = u->s->ustack + (addr - u->sp);
	*v = 0;
	for (i = 0; i < size; i++)
		*v |= (unsigned long long)p[u->msb ? i : size - 1 - i] << (8 * (size - 1 - i));
	return true;
}

/* ---- libdwfl: x86_64, aarch64 and riscv64 ---- */

/*
 * DWARF register numbers of the perf bits (arch/ARCH/include/uapi/asm/
 * perf_regs.h against the psABIs' DWARF tables): x86_64's AX BX CX DX
 * SI DI BP SP IP are bits 0-8, R8-R15 bits 16-23; DWARF has rax rdx rcx
 * rbx rsi rdi rbp rsp r8-r15 rip (System V AMD64 psABI, fig. 3.36).
 */
static const signed char x86_64_dwarf[24] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, -1, -1, -1, -1, -1, -1, -1,
	8, 9, 10, 11, 12, 13, 14, 15,
};

/* libdwfl's callbacks get the session's "cur" (attached once): the sample. */
static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct uw *u = *(struct uw **)arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->s->pid > 0 ? u->s->pid : 1;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	unsigned long long v;
	struct uw *u = *(struct uw **)arg;

	(void)dwfl;
	if (!stack_word(u, addr, u->wsize, &v)) {
		snprintf(u->stopbuf, sizeof(u->stopbuf),
			 "the unwind reads 0x%llx, outside the %zu bytes of stack copied (a bigger 'stack BYTES' reaches further)",
			 (unsigned long long)addr, u->s->nustack);
		u->stop = u->stopbuf;
		return false;
	}
	*result = v;
	return true;
}

/* @arg: the thread's, which next_thread() made the sample */
static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct uw *u = arg;
	Dwarf_Word regs[33];
	unsigned long long v, pc = 0;
	int bit, n;

	if (u->s->machine == EM_X86_64) {
		n = 17;
		for (bit = 0; bit < 24; bit++)
			if (x86_64_dwarf[bit] >= 0) {
				if (!perf_reg(u->s, bit, &v))
					return false;
				regs[x86_64_dwarf[bit]] = v;
			}
		pc = regs[16];
	} else if (u->s->machine == EM_RISCV) {
		/* perf bit 0 is the pc, bits 1-31 x1-x31 (arch/riscv/include/
		 * uapi/asm/perf_regs.h); DWARF 0-31 are x0-x31 (RISC-V ELF psABI) */
		n = 32;
		regs[0] = 0;
		for (bit = 1; bit < 32; bit++)
			if (!perf_reg(u->s, bit, &v))
				return false;
			else
				regs[bit] = v;
		if (!perf_reg(u->s, 0, &pc))
			return false;
	} else {
		n = 32;	/* x0-x30, sp: DWARF 0-31 (AAPCS64 DWARF) */
		for (bit = 0; bit < 32; bit++)
			if (!perf_reg(u->s, bit, &v))
				return false;
			else
				regs[bit] = v;
		if (!perf_reg(u->s, 32, &pc))
			return false;
	}
	if (!dwfl_thread_state_registers(thread, 0, n, regs))
		return false;
	dwfl_thread_state_register_pc(thread, pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/*
 * libdwfl's find_debuginfo: the separate debug file ufile_get() found
 * (facts/debugfile.c), whose lookup under the sysroot libdwfl's own cannot
 * make: an absolute debuginfo_path entry gets the main file's host
 * directory (SYSROOT/bin) appended (libdwfl/find-debuginfo.c), not the
 * target's (/bin) that Debian's /usr/lib/debug tree mirrors.
 */
/*
 * The C library's strdup(), by its name in parentheses: what libdwfl
 * frees must never be a wrapper's block (tests/fuzz/track.h records
 * those and would free it again).
 */
char *(strdup)(const char *s);

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name,
			  const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	struct ufile *f = *userdata;
	int fd;

	(void)mod, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc;
	if (!f || !f->dbgpath || (fd = regular_open(f->dbgpath, NULL)) < 0)
		return -1;
	*debuginfo_file_name = (strdup)(f->dbgpath);	/* libdwfl frees it */
	if (!*debuginfo_file_name) {
		close(fd);
		return -1;
	}
	return fd;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct uframes {
	unsigned long long pc[USTACK_DEPTH];
	bool cfi[USTACK_DEPTH];		/* this frame's caller came from CFI */
	bool heur[USTACK_DEPTH];	/* ... from prologue analysis (MIPS) */
	int n;
};

/* Has @pc CFI in its module (.eh_frame or .debug_frame)? */
static bool has_cfi(Dwfl *dwfl, Dwarf_Addr pc)
{
	Dwfl_Module *m = dwfl_addrmodule(dwfl, pc);
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;
	Dwarf_Frame *f;
	int i;

	for (i = 0; m && i < 2; i++) {
		cfi = i ? dwfl_module_dwarf_cfi(m, &bias) : dwfl_module_eh_cfi(m, &bias);
		if (cfi && !dwarf_cfi_addrframe(cfi, pc - bias, &f)) {
			free(f);
			return true;
		}
	}
	return false;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct uframes *fr = arg;
	Dwarf_Addr pc;
	bool activation;

	if (fr->n == USTACK_DEPTH || !dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	fr->pc[fr->n++] = pc;
	return DWARF_CB_OK;
}

/*
 * @f's libdwfl session with the file reported at load bias @bias and the
 * thread callbacks attached (libdwfl allows one attach per session),
 * made once and kept while the bias stays; NULL with the reason in
 * u->stop.
 */
static Dwfl *ufile_dwfl(struct ufile *f, unsigned long long bias, struct uw *u)
{
	Dwfl_Module *m;
	void **slot;

	if (f->dwfl && f->dwfl_bias == bias)
		return f->dwfl;
	if (f->dwfl)
		dwfl_end(f->dwfl);
	f->dwfl_bias = bias;
	f->dwfl = dwfl_begin(&offline_callbacks);
	if (!f->dwfl || (dwfl_report_begin(f->dwfl),
			 !(m = dwfl_report_elf(f->dwfl, "prog", f->path, -1, bias, false))) ||
	    dwfl_report_end(f->dwfl, NULL, NULL) ||
	    (dwfl_module_info(m, &slot, NULL, NULL, NULL, NULL, NULL, NULL), *slot = f,
	     !dwfl_attach_state(f->dwfl, NULL, 1, &thread_callbacks, &f->cur))) {
		snprintf(u->stopbuf, sizeof(u->stopbuf), "libdwfl cannot read %s: %s",
			 f->path, dwfl_errmsg(-1));
		u->stop = u->stopbuf;
		dwfl_end(f->dwfl);
		f->dwfl = NULL;
	}
	return f->dwfl;
}

/*
 * Unwind with libdwfl session @dwfl (its callbacks' sample at *@cur);
 * the pcs into @fr.  Reason of an early stop in u->stop.
 */
static void unwind_dwfl(struct uw *u, Dwfl *dwfl, struct uw **cur, struct uframes *fr)
{
	int i;

	if (!dwfl)
		return;
	*cur = u;
	if (dwfl_getthread_frames(dwfl, u->s->pid > 0 ? u->s->pid : 1, frame_cb, fr) &&
	    !fr->n) {
		snprintf(u->stopbuf, sizeof(u->stopbuf), "libdwfl: %s", dwfl_errmsg(-1));
		u->stop = u->stopbuf;
	}
	/* a caller came from CFI when its callee's pc has some */
	for (i = 0; i + 1 < fr->n; i++)
		fr->cfi[i] = has_cfi(dwfl, i ? fr->pc[i] - 1 : fr->pc[i]);
	*cur = NULL;
}

/* ---- MIPS: CFA programs run here (libdw 0.188 refuses MIPS CFI) ---- */

enum rule_kind { R_SAME, R_UNDEF, R_OFFSET, R_VAL_OFFSET, R_REG, R_EXPR };
struct rule {
	enum rule_kind kind;
	long long n;		/* offset from the CFA, or a register */
};
struct cfa_row {
	int cfa_reg;		/* -1: a DW_CFA_def_cfa_expression */
	long long cfa_off;
	struct rule r[CFI_COLS];
};


/* Read a pointer of DW_EH_PE encoding @enc at *@p (up to @end); false on anything else. */
static bool read_ptr(const struct cfi_sec *sec, const struct uw *u, int enc,
		     const unsigned char **p, const unsigned char *end,
		     unsigned long long *v)
{
	const unsigned char *at = *p;
	unsigned long long x = 0;
	int size, i, shift = 0;
	bool sign = false;

	if (enc == DW_EH_PE_omit)
		return false;
	switch (enc & 0x0f) {
	case DW_EH_PE_absptr: size = u->wsize; break;
	case DW_EH_PE_udata2: size = 2; break;
	case DW_EH_PE_sdata2: size = 2; sign = true; break;
	case DW_EH_PE_udata4: size = 4; break;
	case DW_EH_PE_sdata4: size = 4; sign = true; break;
	case DW_EH_PE_udata8: case DW_EH_PE_sdata8: size = 8; break;
	case DW_EH_PE_uleb128: case DW_EH_PE_sleb128:
		do {
			if (at >= end || shift > 63)
				return false;
			x |= (unsigned long long)(*at & 0x7f) << shift;
			shift += 7;
		} while (*at++ & 0x80);
		if ((enc & 0x0f) == DW_EH_PE_sleb128 && shift < 64 && (at[-1] & 0x40))
			x |= ~0ULL << shift;
		size = 0;
		break;
	default:
		return false;
	}
	if (size) {
		if (end - at < size)
			return false;
		for (i = 0; i < size; i++)
			x |= (unsigned long long)at[u->msb ? i : size - 1 - i] << (8 * (size - 1 - i));
		if (sign && size < 8 && (x >> (8 * size - 1) & 1))
			x |= ~0ULL << (8 * size);
		at += size;
	}
	if ((enc & 0x70) == DW_EH_PE_pcrel)
		x += sec->addr + (*p - (const unsigned char *)sec->data->d_buf);
	else if ((enc & 0x70) != DW_EH_PE_absptr)
		return false;	/* textrel, datarel, funcrel: not in Linux programs */
	if (u->wsize == 4)
		x &= 0xffffffffULL;
	*p = at;
	*v = x;
	return true;
}

static bool uleb(const unsigned char **p, const unsigned char *end,
		 unsigned long long *v)
{
	const struct cfi_sec none = { 0 };
	struct uw u = { .wsize = 8 };

	return read_ptr(&none, &u, DW_EH_PE_uleb128, p, end, v);
}

static bool sleb(const unsigned char **p, const unsigned char *end, long long *v)
{
	const struct cfi_sec none = { 0 };
	struct uw u = { .wsize = 8 };
	unsigned long long x;

	if (!read_ptr(&none, &u, DW_EH_PE_sleb128, p, end, &x))
		return false;
	*v = (long long)x;
	return true;
}

/* The FDE pointer encoding of a CIE (its 'R' augmentation), absptr without. */
static int fde_encoding(const struct cfi_sec *sec, const struct uw *u,
			const Dwarf_CIE *cie)
{
	const unsigned char *p = cie->augmentation_data;
	const unsigned char *end = p + cie->augmentation_data_size;
	const char *a;
	unsigned long long skip;

	if (cie->augmentation[0] != 'z')
		return DW_EH_PE_absptr;
	for (a = cie->augmentation + 1; *a && p < end; a++) {
		if (*a == 'R')
			return *p;
		if (*a == 'L')
			p++;
		else if (*a == 'P') {
			int enc = *p++;

			/* the personality's pointer, read only to be skipped */
			if (!read_ptr(sec, u, enc & ~0x70, &p, end, &skip))
				return -1;
		} else if (*a != 'S') {
			return -1;
		}
	}
	return DW_EH_PE_absptr;
}

/*
 * Run CFA instructions [@p, @end) from @loc while the location stays at
 * or below @pc; @init is the CIE's row (DW_CFA_restore).  False on an
 * instruction this does not read (said in u->stop).
 */
static bool run_cfa(struct uw *u, const struct cfi_sec *sec, const Dwarf_CIE *cie,
		    int enc, const unsigned char *p, const unsigned char *end,
		    unsigned long long loc, unsigned long long pc,
		    struct cfa_row *row, const struct cfa_row *init)
{
	struct cfa_row stack[8];
	int depth = 0;

	while (p < end) {
		unsigned char op = *p++;
		unsigned long long reg = op & 0x3f, a = 0, adv = 0;
		long long s = 0;
		bool ok = true;

		switch (op & 0xc0 ? op & 0xc0 : op) {
		case DW_CFA_advance_loc:
			adv = (op & 0x3f) * cie->code_alignment_factor;
			break;
		case DW_CFA_offset:
			ok = uleb(&p, end, &a);
			s = (long long)a * cie->data_alignment_factor;
			if (ok && reg < CFI_COLS)
				row->r[reg] = (struct rule){ R_OFFSET, s };
			break;
		case DW_CFA_restore:
			if (reg < CFI_COLS)
				row->r[reg] = init->r[reg];
			break;
		case DW_CFA_nop:
			break;
		case DW_CFA_set_loc:
			ok = read_ptr(sec, u, enc, &p, end, &a);
			if (ok && a > pc)
				return true;
			loc = a;
			break;
		case DW_CFA_advance_loc1:
			ok = p < end;
			adv = ok ? *p++ * cie->code_alignment_factor : 0;
			break;
		case DW_CFA_advance_loc2:
			ok = read_ptr(sec, u, DW_EH_PE_udata2, &p, end, &a);
			adv = a * cie->code_alignment_factor;
			break;
		case DW_CFA_advance_loc4:
			ok = read_ptr(sec, u, DW_EH_PE_udata4, &p, end, &a);
			adv = a * cie->code_alignment_factor;
			break;
		case DW_CFA_offset_extended:
		case DW_CFA_val_offset:
			ok = uleb(&p, end, &reg) && uleb(&p, end, &a);
			if (ok && reg < CFI_COLS)
				row->r[reg] = (struct rule){ op == DW_CFA_val_offset ? R_VAL_OFFSET : R_OFFSET,
							     (long long)a * cie->data_alignment_factor };
			break;
		case DW_CFA_offset_extended_sf:
		case DW_CFA_val_offset_sf:
			ok = uleb(&p, end, &reg) && sleb(&p, end, &s);
			if (ok && reg < CFI_COLS)
				row->r[reg] = (struct rule){ op == DW_CFA_val_offset_sf ? R_VAL_OFFSET : R_OFFSET,
							     s * cie->data_alignment_factor };
			break;
		case DW_CFA_GNU_negative_offset_extended:
			ok = uleb(&p, end, &reg) && uleb(&p, end, &a);
			if (ok && reg < CFI_COLS)
				row->r[reg] = (struct rule){ R_OFFSET, -(long long)a * cie->data_alignment_factor };
			break;
		case DW_CFA_restore_extended:
		case DW_CFA_undefined:
		case DW_CFA_same_value:
			ok = uleb(&p, end, &reg);
			if (ok && reg < CFI_COLS)
				row->r[reg] = op == DW_CFA_restore_extended ? init->r[reg] :
					(struct rule){ op == DW_CFA_undefined ? R_UNDEF : R_SAME, 0 };
			break;
		case DW_CFA_register:
			ok = uleb(&p, end, &reg) && uleb(&p, end, &a);
			if (ok && reg < CFI_COLS)
				row->r[reg] = (struct rule){ R_REG, (long long)a };
			break;
		case DW_CFA_remember_state:
			ok = depth < 8;
			if (ok)
				stack[depth++] = *row;
			break;
		case DW_CFA_restore_state:
			ok = depth > 0;
			if (ok)
				*row = stack[--depth];
			break;
		case DW_CFA_def_cfa:
			ok = uleb(&p, end, &reg) && uleb(&p, end, &a);
			row->cfa_reg = reg;
			row->cfa_off = a;
			break;
		case DW_CFA_def_cfa_sf:
			ok = uleb(&p, end, &reg) && sleb(&p, end, &s);
			row->cfa_reg = reg;
			row->cfa_off = s * cie->data_alignment_factor;
			break;
		case DW_CFA_def_cfa_register:
			ok = uleb(&p, end, &reg);
			row->cfa_reg = reg;
			break;
		case DW_CFA_def_cfa_offset:
			ok = uleb(&p, end, &a);
			row->cfa_off = a;
			break;
		case DW_CFA_def_cfa_offset_sf:
			ok = sleb(&p, end, &s);
			row->cfa_off = s * cie->data_alignment_factor;
			break;
		case DW_CFA_GNU_args_size:
			ok = uleb(&p, end, &a);
			break;
		case DW_CFA_def_cfa_expression:
		case DW_CFA_expression:
		case DW_CFA_val_expression:
			if (op != DW_CFA_def_cfa_expression)
				ok = uleb(&p, end, &reg);
			ok = ok && uleb(&p, end, &a) && a <= (unsigned long long)(end - p);
			if (!ok)
				break;
			p += a;
			if (op == DW_CFA_def_cfa_expression)
				row->cfa_reg = -1;
			else if (reg < CFI_COLS)
				row->r[reg] = (struct rule){ R_EXPR, 0 };
			break;
		default:
			snprintf(u->stopbuf, sizeof(u->stopbuf),
				 "CFA instruction 0x%02x not read", op);
			u->stop = u->stopbuf;
			return false;
		}
		if (!ok) {
			snprintf(u->stopbuf, sizeof(u->stopbuf),
				 "CFA instruction 0x%02x cut short", op);
			u->stop = u->stopbuf;
			return false;
		}
		if (adv) {
			if (loc + adv > pc)
				return true;
			loc += adv;
		}
	}
	return true;
}

static int fde_cmp(const void *a, const void *b)
{
	const struct fde_ent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->sec - y->sec;	/* the file's own CFI before the debug file's */
}

/*
 * The FDEs of @f's CFI sections, sorted by start, indexed on first use
 * so that a step is a binary search instead of a walk of every entry.
 * Entries whose CIE or pointers this does not read are left out (a pc
 * they hold then has no CFI, said by mips_step()).
 */
static void fde_index(struct ufile *f, const struct uw *u)
{
	size_t cap = 0;
	int k;

	f->indexed = true;
	for (k = 0; k < f->nsecs; k++) {
		const struct cfi_sec *sec = &f->secs[k];
		Dwarf_Off off = 0, next, cnext;
		Dwarf_CFI_Entry e, c;

		for (; dwarf_next_cfi(sec->ident, sec->data, sec->eh, off, &next, &e) == 0; off = next) {
			const unsigned char *p, *end;
			unsigned long long start, len;
			int enc;

			if (dwarf_cfi_cie_p(&e) ||
			    dwarf_next_cfi(sec->ident, sec->data, sec->eh, e.fde.CIE_pointer,
					   &cnext, &c) != 0 || !dwarf_cfi_cie_p(&c))
				continue;
			enc = fde_encoding(sec, u, &c.cie);
			p = e.fde.start;
			end = e.fde.end;
			if (enc < 0 || !read_ptr(sec, u, enc, &p, end, &start) ||
			    !read_ptr(sec, u, enc & 0x0f, &p, end, &len) || !len)
				continue;
			ALLOC_GROW(f->fdes, f->nfdes + 1, cap);
			f->fdes[f->nfdes++] = (struct fde_ent){ start, len, off, k };
		}
	}
	if (f->nfdes)
		qsort(f->fdes, f->nfdes, sizeof(*f->fdes), fde_cmp);
}

/* The row of @f's FDE holding @pc into @row; false when none holds it. */
static bool cfi_row(struct uw *u, struct ufile *f, unsigned long long pc,
		    struct cfa_row *row, int *ra)
{
	size_t lo = 0, hi, i;
	const struct cfi_sec *sec;
	const unsigned char *p, *end;
	unsigned long long start, len, alen;
	struct cfa_row init;
	Dwarf_Off next, cnext;
	Dwarf_CFI_Entry e, c;
	int enc;

	if (!f->indexed)
		fde_index(f, u);
	/* the last FDE starting at or below pc */
	for (hi = f->nfdes; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->fdes[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0 && pc - f->fdes[i].start >= f->fdes[i].len;)
		if (lo - i > 8)	/* overlapping FDEs: a few back at most */
			return false;
	if (i == (size_t)-1)
		return false;
	sec = &f->secs[f->fdes[i].sec];
	if (dwarf_next_cfi(sec->ident, sec->data, sec->eh, f->fdes[i].off, &next, &e) != 0 ||
	    dwarf_next_cfi(sec->ident, sec->data, sec->eh, e.fde.CIE_pointer, &cnext, &c) != 0)
		return false;
	enc = fde_encoding(sec, u, &c.cie);
	p = e.fde.start;
	end = e.fde.end;
	if (!read_ptr(sec, u, enc, &p, end, &start) || !read_ptr(sec, u, enc & 0x0f, &p, end, &len))
		return false;
	if (c.cie.augmentation[0] == 'z' &&
	    (!uleb(&p, end, &alen) || alen > (unsigned long long)(end - p)))
		return false;
	if (c.cie.augmentation[0] == 'z')
		p += alen;
	memset(&init, 0, sizeof(init));
	init.cfa_reg = -2;	/* none yet */
	for (i = 0; i < CFI_COLS; i++)
		init.r[i].kind = R_SAME;
	if (!run_cfa(u, sec, &c.cie, enc, c.cie.initial_instructions,
		     c.cie.initial_instructions_end, start, ~0ULL, &init, &init))
		return false;
	*row = init;
	if (!run_cfa(u, sec, &c.cie, enc, p, end, start, pc, row, &init))
		return false;
	*ra = c.cie.return_address_register;
	return true;
}

static int ufile_name(struct ufile *f, unsigned long long addr, char *buf, size_t len);
static struct ufile *pc_object(struct uw *u, unsigned long long pc,
			       unsigned long long *bias, const char **path);

/* The instruction word at link-time address @addr of @f's code, or false. */
static bool code_word(const struct ufile *f, const struct uw *u,
		      unsigned long long addr, unsigned int *w)
{
	unsigned long long v;
	const unsigned char *img;
	size_t size, k, np;
	GElf_Phdr ph;
	int i;

	if (!(img = (const unsigned char *)elf_rawfile(f->elf, &size)) ||
	    elf_getphdrnum(f->elf, &np))
		return false;
	for (k = 0; k < np; k++) {
		if (!gelf_getphdr(f->elf, k, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || addr < ph.p_vaddr ||
		    addr - ph.p_vaddr > ph.p_filesz - 4 || ph.p_filesz < 4)
			continue;
		v = ph.p_offset + addr - ph.p_vaddr;
		if (v > size - 4 || size < 4)
			return false;
		*w = 0;
		for (i = 0; i < 4; i++)
			*w |= (unsigned int)img[v + i] << (u->msb ? 8 * (3 - i) : 8 * i);
		return true;
	}
	return false;
}

/*
 * One step by prologue analysis where no CFI holds @pc, as the kernel's
 * MIPS unwinder does for kernel frames (get_frame_info() and
 * unwind_stack_by_address() in arch/mips/kernel/process.c): from the
 * start of @pc's function (its symbol), the instructions already run
 * (below @pc, 128 at most) give the frame size ("addiu/daddiu $sp, $sp,
 * -N") and the slots where "sw/sd $reg, off($sp)" saved $ra and the
 * callee-saved registers; the caller's $sp is $sp + N and its pc the
 * saved $ra, or $31 itself in the innermost frame when none was saved (a
 * leaf, or a hit before the store).  NULL on success, "" at the
 * outermost frame ($ra 0), else why not.
 */
static const char *mips_prologue_step(struct uw *u, struct ufile *f,
				      unsigned long long *pc,
				      unsigned long long *regs, bool *have, bool caller)
{
	unsigned long long start, at, sp, v, size = 0, slot[MIPS_NREGS];
	bool saved[MIPS_NREGS] = { false };
	char buf[320], *plus;
	unsigned int w;
	int i;

	if (ufile_name(f, caller ? *pc - 1 : *pc, buf, sizeof(buf)))
		return "no symbol holds it";
	plus = strstr(buf, "+0x");
	start = (caller ? *pc - 1 : *pc) - (plus ? strtoull(plus + 3, NULL, 16) : 0);
	if (!have[29])
		return "$sp unknown";
	sp = regs[29];
	for (at = start; at < *pc && at - start < 128 * 4; at += 4) {
		unsigned int op, rs, rt;
		int imm;

		if (!code_word(f, u, at, &w))
			return "its code is not in the file";
		op = w >> 26;
		rs = w >> 21 & 31;
		rt = w >> 16 & 31;
		imm = (short)(w & 0xffff);
		if ((op == 0x09 || op == 0x19) && rs == 29 && rt == 29) {
			/* addiu/daddiu $sp, $sp, imm: the frame (the first one only) */
			if (imm >= 0 || size)
				break;
			size = -imm;
		} else if ((op == 0x2b || op == 0x3f) && rs == 29 && !saved[rt]) {
			/* sw/sd $rt, imm($sp): a saved register's slot */
			saved[rt] = true;
			slot[rt] = imm;
		} else if (w == 0x03e00008) {
			break;	/* jr $ra: the epilogue */
		}
	}
	if (caller && !saved[31])
		return "$ra not saved by the prologue (not the innermost frame)";
	if (caller && !size)
		return "no frame allocated by the prologue";
	for (i = 1; i < MIPS_NREGS; i++) {
		if (!saved[i] || i == 29)
			continue;
		if (!stack_word(u, sp + slot[i], u->wsize, &v)) {
			if (i != 31)
				continue;
			return "the saved $ra is outside the stack copied (a bigger 'stack BYTES' reaches further)";
		}
		regs[i] = v;
		have[i] = true;
	}
	if (!have[31])
		return "$ra unknown";
	if (!regs[31])
		return "";
	*pc = regs[31];
	regs[29] = sp + size;
	if (u->wsize == 4)
		regs[29] &= 0xffffffffULL;
	return NULL;
}

/* One CFI step on MIPS: @regs (valid in @have) of the callee -> the caller's. */
static bool mips_step(struct uw *u, struct ufile *f, unsigned long long bias,
		      unsigned long long *pc, unsigned long long *regs, bool *have,
		      bool caller, bool *heur)
{
	unsigned long long nregs[MIPS_NREGS], cfa, v, lpc = *pc - bias;
	bool nhave[MIPS_NREGS], got, unknown;
	struct cfa_row row;
	int i, ra = -1;

	*heur = false;
	/* the object's link-time addresses: the pc less its load bias */
	got = cfi_row(u, f, caller ? lpc - 1 : lpc, &row, &ra);
	unknown = got && row.cfa_reg >= 0 && row.cfa_reg < MIPS_NREGS && !have[row.cfa_reg];
	if (!got || unknown) {
		const char *why;

		if (u->stop)
			return false;
		why = mips_prologue_step(u, f, &lpc, regs, have, caller);
		if (why && *why && unknown) {
			/* a CFA on $fp where the kernel kept no $fp */
			snprintf(u->stopbuf, sizeof(u->stopbuf),
				 "the CFA at 0x%llx is $%d + %lld and the sample has no $%d (a MIPS system call's entry saves no $16-$23, $30: SAVE_SOME, arch/mips/include/asm/stackframe.h), nor does the prologue tell: %s",
				 *pc, row.cfa_reg, (long long)row.cfa_off, row.cfa_reg, why);
			u->stop = u->stopbuf;
			return false;
		}
		if (!why) {
			*pc = lpc;	/* the caller's pc (not biased: from the stack) */
			*heur = true;
			return true;
		}
		if (!*why)
			return false;	/* the outermost frame */
		snprintf(u->stopbuf, sizeof(u->stopbuf),
			 "no CFI holds 0x%llx (.eh_frame, .debug_frame of %s%s%s) and its prologue tells nothing: %s",
			 *pc, f->path, f->dbgpath ? " and " : ", no separate debug file",
			 f->dbgpath ? f->dbgpath : "", why);
		u->stop = u->stopbuf;
		return false;
	}
	if (row.cfa_reg < 0 || row.cfa_reg >= MIPS_NREGS || !have[row.cfa_reg] ||
	    ra < 0 || ra >= MIPS_NREGS) {
		snprintf(u->stopbuf, sizeof(u->stopbuf),
			 "the CFA at 0x%llx is not a register plus an offset", *pc);
		u->stop = u->stopbuf;
		return false;
	}
	cfa = regs[row.cfa_reg] + row.cfa_off;
	if (u->wsize == 4)
		cfa &= 0xffffffffULL;
	for (i = 0; i < MIPS_NREGS; i++) {
		const struct rule *r = &row.r[i];

		nhave[i] = false;
		switch (r->kind) {
		case R_SAME:
			nhave[i] = have[i];
			nregs[i] = regs[i];
			break;
		case R_OFFSET:
			if (stack_word(u, cfa + r->n, u->wsize, &v)) {
				nregs[i] = v;
				nhave[i] = true;
			} else if (i == ra) {
				snprintf(u->stopbuf, sizeof(u->stopbuf),
					 "the return address at 0x%llx is outside the %zu bytes of stack copied (a bigger 'stack BYTES' reaches further)",
					 cfa + r->n, u->s->nustack);
				u->stop = u->stopbuf;
				return false;
			}
			break;
		case R_VAL_OFFSET:
			nregs[i] = cfa + r->n;
			nhave[i] = true;
			break;
		case R_REG:
			if (r->n < MIPS_NREGS && have[r->n]) {
				nregs[i] = regs[r->n];
				nhave[i] = true;
			}
			break;
		case R_UNDEF:
		case R_EXPR:
			break;
		}
	}
	if (!nhave[ra] || !nregs[ra])
		return false;	/* the outermost frame (__start: $31 undefined) */
	if (cfa <= regs[29] && caller) {
		snprintf(u->stopbuf, sizeof(u->stopbuf),
			 "the CFA 0x%llx does not move up the stack", cfa);
		u->stop = u->stopbuf;
		return false;
	}
	*pc = nregs[ra];
	memcpy(regs, nregs, sizeof(nregs));
	memcpy(have, nhave, sizeof(nhave));
	regs[29] = cfa;	/* the caller's $sp is the CFA (GCC's MIPS CIE) */
	have[29] = true;
	return true;
}

/*
 * Whether the user register $@reg holds the task's value in a sample of
 * a kernel probe ("stack user"): a system call's entry saves only
 * SAVE_SOME's registers ($0, $2-$7, $25, $28, $29, $31, and $8-$9 in a
 * 64-bit kernel: arch/mips/include/asm/stackframe.h, scall32-o32.S
 * handle_sys), and task_pt_regs() keeps stale words for the others,
 * $16-$23 and $30 among them.  An interrupt or fault entry saves them
 * all (SAVE_ALL), but the sample does not say which entry it was: the
 * fewer count ($8-$9 too: no unwind rule needs them).
 */
static bool mips_entry_saved(int reg)
{
	return reg == 0 || (reg >= 2 && reg <= 7) || reg == 25 || reg == 28 ||
	       reg == 29 || reg == 31;
}

static void unwind_mips(struct uw *u, struct ufile *f, unsigned long long bias,
			struct uframes *fr)
{
	unsigned long long regs[MIPS_NREGS], pc;
	bool have[MIPS_NREGS];
	struct ufile *g;
	unsigned long long b;
	int i;

	for (i = 0; i < MIPS_NREGS; i++)
		have[i] = i && perf_reg(u->s, i, &regs[i]) &&	/* bit i: $i; bit 0: pc */
			  (!u->s->kernel || mips_entry_saved(i));
	regs[0] = 0;
	have[0] = true;
	if (!perf_reg(u->s, 0, &pc))
		return;
	fr->pc[fr->n++] = pc;
	while (fr->n < USTACK_DEPTH) {
		/* the object holding pc (a shared object's at its bias), else the program */
		g = pc_object(u, fr->n > 1 ? pc - 1 : pc, &b, NULL);
		if (!mips_step(u, g ? g : f, g ? b : bias, &pc, regs, have, fr->n > 1,
			       &fr->heur[fr->n - 1]))
			break;
		fr->cfi[fr->n - 1] = !fr->heur[fr->n - 1];
		fr->pc[fr->n++] = pc;
	}
}

/* ---- the files under --sysroot ---- */

/* @elf's CFI sections (.debug_frame, .eh_frame with bytes) into f->secs. */
static void add_cfi_secs(struct ufile *f, Elf *elf)
{
	const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn)) && f->nsecs < 4) {
		struct cfi_sec *sec = &f->secs[f->nsecs];
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (strcmp(name, ".debug_frame") && strcmp(name, ".eh_frame"))
			continue;
		sec->data = elf_getdata(scn, NULL);
		sec->addr = sh.sh_addr;
		sec->eh = name[1] == 'e';
		sec->ident = ident;
		f->nsecs += sec->data != NULL;
	}
}

/*
 * The file @path of the target under @sysroot, opened on first use and
 * kept for the report's run; NULL when it cannot be read (its name then
 * in *@file, which the caller frees; else *@file is NULL).
 */
static struct ufile *ufile_get(const char *sysroot, const char *path, char **file)
{
	struct errmsg e;
	char *name = sysroot_path(sysroot, path, &e);
	struct ufile *f = name ? strmap_get(&ufiles, name, strlen(name)) : NULL;
	struct debugfile df;

	*file = NULL;
	if (!name) {	/* refused, or not there: the reason is the name */
		*file = xstrdup(e.msg);
		return NULL;
	}
	if (f) {
		free(name);
		return f->elf ? f : (*file = xstrdup(f->path), NULL);
	}
	f = xcalloc(1, sizeof(*f));
	f->path = name;
	f->fd = f->dbgfd = -1;
	xstrmap_put(&ufiles, f->path, strlen(f->path), f);
	elf_version(EV_CURRENT);
	if ((f->fd = regular_open(f->path, NULL)) < 0 ||
	    !(f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL)) || !gelf_getehdr(f->elf, &f->eh)) {
		if (f->elf)
			elf_end(f->elf);
		f->elf = NULL;
		*file = xstrdup(f->path);
		return NULL;
	}
	add_cfi_secs(f, f->elf);
	if (!debugfile_find(f->elf, sysroot, path, &df))
		f->dbgpath = xstrdup(df.path);
	debugfile_release(&df);
	if (f->dbgpath && (f->dbgfd = regular_open(f->dbgpath, NULL)) >= 0 &&
	    (f->dbgelf = elf_begin(f->dbgfd, ELF_C_READ_MMAP, NULL)))
		add_cfi_secs(f, f->dbgelf);
	return f;
}

/*
 * The frame name ("func+0xN") of link-time address @addr of @f into
 * @buf, from its symbols or its debug file's; remembered per address.
 * Returns 0, or -1 when no symbol holds it.
 */
static int ufile_name(struct ufile *f, unsigned long long addr, char *buf, size_t len)
{
	struct name_memo *m = strmap_get(&f->names, (const char *)&addr, sizeof(addr));

	if (!m) {
		m = xcalloc(1, sizeof(*m));
		m->addr = addr;
		if (!f->symheld) {
			/* opened once: a stack has many addresses of one file */
			f->symf = uelf_hold(f->path);
			f->symdbg = f->dbgpath ? uelf_hold(f->dbgpath) : NULL;
			f->symheld = true;
		}
		if (!uelf_name_held(f->symf, addr, buf, len) ||
		    !uelf_name_held(f->symdbg, addr, buf, len))
			m->name = xstrdup(buf);
		xstrmap_put(&f->names, (const char *)&m->addr, sizeof(m->addr), m);
	}
	if (!m->name)
		return -1;
	snprintf(buf, len, "%s", m->name);
	return 0;
}

/* ---- shared objects: the "perf-mmap" lines ---- */

/*
 * The load bias of @f mapped as @m: the mapping's address less the
 * link-time address of file offset m->pgoff, from the PT_LOAD (code
 * first) holding that offset (the ELF gABI's "Program Loading").  False
 * when no PT_LOAD holds it.
 */
static bool map_bias(const struct ufile *f, const struct umap *m, unsigned long long *bias)
{
	GElf_Phdr ph;
	size_t k, np;
	int pass;

	if (elf_getphdrnum(f->elf, &np))
		return false;
	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < np; k++) {
			unsigned long long lo;

			if (!gelf_getphdr(f->elf, k, &ph) || ph.p_type != PT_LOAD ||
			    (!pass && !(ph.p_flags & PF_X)))
				continue;
			/* the loader maps from the page holding p_offset */
			lo = ph.p_offset & ~(ph.p_align > 1 ? ph.p_align - 1 : 0);
			if (m->pgoff < lo || m->pgoff >= ph.p_offset + ph.p_filesz)
				continue;
			*bias = m->addr - (ph.p_vaddr - ph.p_offset + m->pgoff);
			return true;
		}
	return false;
}

/*
 * The mapping of the sample's process holding @pc when it was taken:
 * the last "perf-mmap" line of its pid, no later than the sample, whose
 * range holds @pc (a later mmap over the same range replaces an
 * earlier one); NULL when none does.
 */
static const struct umap *pc_map(const struct uw *u, unsigned long long pc)
{
	const struct umap *hit = NULL;
	int i;

	for (i = 0; i < u->nmaps; i++) {
		const struct umap *m = &u->maps[i];

		if (m->pid == u->s->tgid && m->ts <= u->s->ts &&
		    pc >= m->addr && pc - m->addr < m->len)
			hit = m;
	}
	return hit;
}

/*
 * The object under --sysroot holding @pc in the sample's process (its
 * load bias into *@bias, its target path into *@path when @path is not
 * NULL), or NULL: no mapping holds @pc, the file cannot be read ("[vdso]"
 * has none) or no PT_LOAD of it holds the mapped offset.
 */
static struct ufile *pc_object(struct uw *u, unsigned long long pc,
			       unsigned long long *bias, const char **path)
{
	const struct umap *m = u->sysroot ? pc_map(u, pc) : NULL;
	struct ufile *g;
	char *file = NULL;

	if (!m || m->path[0] != '/')
		return NULL;
	g = ufile_get(u->sysroot, m->path, &file);
	free(file);
	if (!g || !map_bias(g, m, bias))
		return NULL;
	if (path)
		*path = m->path;
	return g;
}

/* A libdwfl session of one process's objects, as mapped at its samples. */
struct usess {
	Dwfl *dwfl;		/* NULL: libdwfl refused (said in why) */
	struct uw *cur;		/* the sample its callbacks read */
	char why[400];
};

static struct strmap usessions;	/* "PID:N" (N: the pid's mappings) -> struct usess */

/*
 * The libdwfl session with every object mapped in the sample's process
 * at its time reported at its load bias (an object mapped again: the
 * last mapping), made once per process and set of mappings; NULL when
 * the dump has no mappings of the process (the caller reports the probed
 * program alone).  A session libdwfl refused has its dwfl NULL.
 */
static struct usess *usess_get(struct uw *u)
{
	struct usess *ss;
	char key[64];
	int i, j, n = 0, last = -1;

	if (!u->sysroot)
		return NULL;
	for (i = 0; i < u->nmaps; i++)
		if (u->maps[i].pid == u->s->tgid && u->maps[i].ts <= u->s->ts) {
			n++;
			last = i;
		}
	if (!n)
		return NULL;
	snprintf(key, sizeof(key), "%ld:%d:%d", u->s->tgid, n, last);
	if ((ss = strmap_get(&usessions, key, strlen(key))))
		return ss;
	ss = xcalloc(1, sizeof(*ss));
	xstrmap_put(&usessions, xstrdup(key), strlen(key), ss);
	if (!(ss->dwfl = dwfl_begin(&offline_callbacks))) {
		snprintf(ss->why, sizeof(ss->why), "libdwfl: %s", dwfl_errmsg(-1));
		return ss;
	}
	dwfl_report_begin(ss->dwfl);
	for (i = last; i >= 0; i--) {
		const struct umap *m = &u->maps[i];
		unsigned long long bias;
		struct ufile *g;
		Dwfl_Module *mod;
		char *file = NULL;
		void **slot;

		if (m->pid != u->s->tgid || m->ts > u->s->ts || m->path[0] != '/')
			continue;
		for (j = i + 1; j <= last; j++)	/* mapped again later: that one counts */
			if (u->maps[j].pid == m->pid && u->maps[j].ts <= u->s->ts &&
			    !strcmp(u->maps[j].path, m->path))
				break;
		if (j <= last)
			continue;
		g = ufile_get(u->sysroot, m->path, &file);
		free(file);
		if (!g || !map_bias(g, m, &bias))
			continue;	/* its frames then end the unwind, said */
		mod = dwfl_report_elf(ss->dwfl, m->path, g->path, -1, bias, false);
		if (mod) {
			dwfl_module_info(mod, &slot, NULL, NULL, NULL, NULL, NULL, NULL);
			*slot = g;
		}
	}
	if (dwfl_report_end(ss->dwfl, NULL, NULL) ||
	    !dwfl_attach_state(ss->dwfl, NULL, 1, &thread_callbacks, &ss->cur)) {
		snprintf(ss->why, sizeof(ss->why), "libdwfl cannot take the objects of pid %ld: %s",
			 u->s->tgid, dwfl_errmsg(-1));
		dwfl_end(ss->dwfl);
		ss->dwfl = NULL;
	}
	return ss;
}

/*
 * ustack_release() - every file ufile_get() kept and every libdwfl
 * session usess_get() made, closed and freed; the next sample opens
 * what it needs again.
 */
void ustack_release(void)
{
	size_t i, j;

	for (i = 0; i < usessions.cap; i++) {
		struct usess *ss = usessions.slots[i].val;

		if (!usessions.slots[i].key)
			continue;
		if (ss->dwfl)
			dwfl_end(ss->dwfl);
		free((char *)usessions.slots[i].key);
		free(ss);
	}
	strmap_free(&usessions);
	for (i = 0; i < ufiles.cap; i++) {
		struct ufile *f = ufiles.slots[i].val;

		if (!ufiles.slots[i].key)
			continue;
		for (j = 0; j < f->names.cap; j++) {
			struct name_memo *m = f->names.slots[j].val;

			if (f->names.slots[j].key) {
				free(m->name);
				free(m);
			}
		}
		strmap_free(&f->names);
		uelf_release(f->symf);
		uelf_release(f->symdbg);
		if (f->dwfl)
			dwfl_end(f->dwfl);
		if (f->dbgelf)
			elf_end(f->dbgelf);
		if (f->elf)
			elf_end(f->elf);
		if (f->dbgfd >= 0)
			close(f->dbgfd);
		if (f->fd >= 0)
			close(f->fd);
		free(f->fdes);
		free(f->dbgpath);
		free(f->path);
		free(f);
	}
	strmap_free(&ufiles);
}

/* ---- the samples ---- */

/*
 * The sp's and pc's bits in a perf sample's user registers of ELF machine
 * @machine (arch/ARCH/include/uapi/asm/perf_regs.h): the arch table's
 * perf_sp and perf_pc; MIPS' ($29, $pc at bit 0) for an unknown machine.
 */
static void perf_sp_pc(int machine, int *sp, int *pc)
{
	const struct arch *a = arch_by_elf(machine, ELFCLASSNONE, ELFDATANONE);

	*sp = a ? (int)a->perf_sp : 29;
	*pc = a ? (int)a->perf_pc : 0;
}

bool ustack_heuristic(const char *frame)
{
	size_t n = strlen(frame), m = strlen(USTACK_HEUR);

	return n > m && !strcmp(frame + n - m, USTACK_HEUR);
}

static void push_frame(char ***v, int *n, int *cap, char *s)
{
	ALLOC_GROW(*v, *n + 1, *cap);
	(*v)[(*n)++] = s;
}

/*
 * ustack_frames() - the user call stack of a "perf-user" sample @s of
 * the uprobe at file offset @off of @path (in the target; NULL for a
 * kprobe's "stack user" sample: the object the process's mappings place
 * its pc in), from the file
 * under @sysroot (NULL: the frames stay addresses) and, where the dump's
 * @nmaps "perf-mmap" lines @maps place a frame's pc in another object
 * of the process (a shared library), from that object at its load bias,
 * into @frames
 * (innermost first, strings owned by the caller): "func+0xOFF [path]"
 * then "(pc)", "(cfi)" (the frame's caller was found with CFI), "(fp)"
 * (libdwfl's frame-pointer fallback where its callee had no CFI) or
 * "(heuristic)" (MIPS prologue analysis, the same); a last frame
 * "[user stack cut: WHY]" when the unwind stopped before the outermost
 * frame (the function of the ELF entry point), "[user stack not
 * unwound: WHY]" without the file (USTACK_MARK).  @ret: the probe is a
 * uretprobe, whose sample's pc is the address the probed function
 * returned to (the kernel sets it before the handlers run,
 * handle_trampoline() in kernel/events/uprobes.c): the function's own
 * frame is gone, the first frame is its caller's, marked "(ret)" and
 * named inside the call, its object and bias from the mappings (the
 * return address need not be in the probed file).  Each file is read
 * once per process (struct ufile).  Never fails: what cannot be done is
 * said in the frames.
 */
void ustack_frames(const struct sample *s, const struct umap *maps, int nmaps,
		   const char *sysroot, const char *path, unsigned long long off,
		   bool ret, char ***frames, int *n, int *cap)
{
	struct uw u = { .s = s, .maps = maps, .nmaps = nmaps, .sysroot = sysroot };
	struct usess *ss;
	struct uframes fr = { .n = 0 };
	unsigned long long pc = 0, bias = 0;
	char *file = NULL, buf[320];
	struct ufile *f;
	bool mapped = false;	/* f and bias from the task's mappings (a kernel probe's) */
	int i, spbit, pcbit;

	perf_sp_pc(s->machine, &spbit, &pcbit);
	perf_reg(s, pcbit, &pc);
	if (!s->uregs || !perf_reg(s, spbit, &u.sp)) {
		/* perf_sample_regs_user(): PERF_SAMPLE_REGS_ABI_NONE in a kernel thread */
		push_frame(frames, n, cap, xasprintf(USTACK_MARK "absent: no user context (%s)]",
						     s->kernel ? "the hit was in a kernel thread" :
						     "the sample has no user registers"));
		return;
	}
	if (!sysroot) {
		push_frame(frames, n, cap, xasprintf("0x%llx", pc));
		push_frame(frames, n, cap, xasprintf(USTACK_MARK "not unwound: --sysroot DIR gives the program's CFI]"));
		return;
	}
	if (!path) {
		/* a kernel probe's: the object the task's mappings place its pc in */
		const char *mpath = NULL;

		if (!(f = pc_object(&u, pc, &bias, &mpath))) {
			const struct umap *m = pc_map(&u, pc);

			push_frame(frames, n, cap, xasprintf("0x%llx", pc));
			if (m)
				push_frame(frames, n, cap, xasprintf(USTACK_MARK "not unwound: cannot read %s%s under --sysroot, which pid %ld maps at 0x%llx]",
								     m->path, m->path[0] == '/' ? "" : " (no file)",
								     s->tgid, m->addr));
			else
				push_frame(frames, n, cap, xasprintf(USTACK_MARK "not unwound: no perf-mmap line places 0x%llx in pid %ld (its program was mapped before the agent's perf events opened)]",
								     pc, s->tgid));
			return;
		}
		path = mpath;
		mapped = true;
	} else if (!(f = ufile_get(sysroot, path, &file))) {
		push_frame(frames, n, cap, xasprintf("0x%llx", pc));
		push_frame(frames, n, cap, xasprintf(USTACK_MARK "not unwound: cannot read %s]", file));
		free(file);
		return;
	}
	free(file);
	if (ret) {
		/* the return address's object: a mapping of the dump, else the probed ET_EXEC */
		const char *rpath = path;
		unsigned long long rbias = 0;
		struct ufile *g = pc_object(&u, pc - 1, &rbias, &rpath);

		if (g) {
			f = g;
			path = rpath;
			bias = rbias;
		} else if (f->eh.e_type == ET_DYN) {
			push_frame(frames, n, cap, xasprintf("0x%llx (ret)", pc));
			push_frame(frames, n, cap, xasprintf(USTACK_MARK "cut: no perf-mmap line places 0x%llx, where the uretprobe's function returned (its caller's object and load bias unknown)]", pc));
			return;
		}
	}
	u.msb = f->eh.e_ident[EI_DATA] == ELFDATA2MSB;
	u.wsize = f->eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	if (f->eh.e_type == ET_DYN && !ret && !mapped) {
		/* the load bias: the sample's pc against the probe's address */
		GElf_Phdr ph;
		size_t k, np;

		if (!elf_getphdrnum(f->elf, &np))
			for (k = 0; k < np; k++)
				if (gelf_getphdr(f->elf, k, &ph) && ph.p_type == PT_LOAD &&
				    off >= ph.p_offset && off - ph.p_offset < ph.p_filesz)
					bias = pc - (ph.p_vaddr + off - ph.p_offset);
	}
	if (f->eh.e_machine == EM_X86_64 || f->eh.e_machine == EM_AARCH64 ||
	    f->eh.e_machine == EM_RISCV) {
		if (f->eh.e_machine != s->machine) {
			u.stop = "the program's arch is not the sample's";
		} else if ((ss = usess_get(&u))) {
			/* the process's objects as the dump's mappings place them */
			if (ss->dwfl)
				unwind_dwfl(&u, ss->dwfl, &ss->cur, &fr);
			else
				u.stop = ss->why;
		} else {
			unwind_dwfl(&u, ufile_dwfl(f, bias, &u), &f->cur, &fr);
		}
	} else if (f->eh.e_machine == EM_MIPS) {
		unwind_mips(&u, f, bias, &fr);
	} else {
		snprintf(u.stopbuf, sizeof(u.stopbuf),
			 "no user unwinder for ELF machine %d: elfutils 0.188's libdwfl has no backend that unwinds it",
			 f->eh.e_machine);
		u.stop = u.stopbuf;
	}
	if (!fr.n)
		fr.pc[fr.n++] = pc;
	for (i = 0; i < fr.n; i++) {
		const char *how = !i ? (ret ? "ret" : "pc") : fr.cfi[i - 1] ? "cfi" :
				  fr.heur[i - 1] ? "heuristic" : "fp";
		/* a return address is named inside its call, a hit's pc as it is */
		bool inside = i || ret;
		unsigned long long at_pc = inside ? fr.pc[i] - 1 : fr.pc[i], b = bias;
		const char *opath = path;
		struct ufile *g = pc_object(&u, at_pc, &b, &opath);

		if (!g) {	/* no mapping: the probed program, biased as its uprobe */
			g = f;
			b = bias;
			opath = path;
		}
		if (!ufile_name(g, at_pc - b, buf, sizeof(buf))) {
			/* named at pc - 1 (inside the call), printed at the return address */
			char *plus = strstr(buf, "+0x");
			unsigned long long at = plus ? strtoull(plus + 3, NULL, 16) : 0;

			if (plus)
				*plus = '\0';
			push_frame(frames, n, cap, xasprintf("%s+0x%llx [%s] (%s)", buf,
							     at + (inside ? 1 : 0), opath, how));
		} else if (g != f) {
			/* a shared object without the symbol: its own address, for addr2line */
			push_frame(frames, n, cap, xasprintf("0x%llx [%s] (%s)", fr.pc[i] - b,
							     opath, how));
		} else {
			push_frame(frames, n, cap, xasprintf("0x%llx (%s)", fr.pc[i], how));
		}
	}
	/*
	 * The entry point's function (_start, __start) of the object holding
	 * the last frame (the program, whichever object the first was in) is
	 * the outermost frame.
	 */
	if (u.stop && fr.n > 1) {
		unsigned long long b;
		struct ufile *g = pc_object(&u, fr.pc[fr.n - 1] - 1, &b, NULL);

		if (!g)
			g = f;
		if (!ufile_name(g, g->eh.e_entry, buf, sizeof(buf))) {
			size_t len = strcspn(buf, "+");

			if (!strncmp((*frames)[*n - 1], buf, len) && (*frames)[*n - 1][len] == '+')
				u.stop = NULL;
		}
	}
	if (u.stop)
		push_frame(frames, n, cap, xasprintf(USTACK_MARK "cut: %s]", u.stop));
}
