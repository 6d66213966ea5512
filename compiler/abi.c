// SPDX-License-Identifier: GPL-2.0
/*
 * Target ABIs: where argument N of a function is at its entry, written
 * as the fetcharg the target kernel accepts.  docs/abi.md is the table
 * for people; this file is the same table for probecc.
 *
 * Register names are those of each architecture's regoffset_table in
 * arch/ARCH/kernel/ptrace.c (regs_query_register_offset()), which is
 * what kernel/trace/trace_probe.c looks "%NAME" up in.  A MIPS kernel
 * accepts "%r4", not "%a0" (measured, and there is no "a0" in the table).
 *
 * $stackN is the N-th long above the stack pointer at the probe point
 * (regs_get_kernel_stack_nth()), so a stack-passed argument is the
 * stack slot the ABI gives, counted in longs from sp at function entry.
 */
#include <stdio.h>
#include <string.h>

#include "compiler.h"

static const char *const mips_args[] = { "%r4", "%r5", "%r6", "%r7", "%r8",
					  "%r9", "%r10", "%r11" };
static const char *const mips_regs[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10",
	"r11", "r12", "r13", "r14", "r15", "r16", "r17", "r18", "r19", "r20",
	"r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30",
	"r31", "c0_status", "hi", "lo", "c0_badvaddr", "c0_cause", "c0_epc",
	NULL,
};

/* the MIPS ABI names of arch/mips/kernel/ptrace.c's numbered registers */
static const struct reg_alias mips_aliases[] = {
	{ "zero", "r0" }, { "at", "r1" }, { "v0", "r2" }, { "v1", "r3" },
	{ "a0", "r4" }, { "a1", "r5" }, { "a2", "r6" }, { "a3", "r7" },
	{ "t0", "r8" }, { "t1", "r9" }, { "t2", "r10" }, { "t3", "r11" },
	{ "s0", "r16" }, { "s1", "r17" }, { "s2", "r18" }, { "s3", "r19" },
	{ "gp", "r28" }, { "sp", "r29" }, { "fp", "r30" }, { "s8", "r30" },
	{ "ra", "r31" }, { NULL, NULL },
};

static const char *const x86_64_args[] = { "%di", "%si", "%dx", "%cx", "%r8", "%r9" };
static const char *const x86_64_regs[] = {
	"r15", "r14", "r13", "r12", "r11", "r10", "r9", "r8", "bx", "cx", "dx",
	"si", "di", "bp", "ax", "ds", "es", "fs", "gs", "orig_ax", "ip", "cs",
	"flags", "sp", "ss", NULL,
};

static const char *const arm64_args[] = { "%x0", "%x1", "%x2", "%x3", "%x4",
					   "%x5", "%x6", "%x7" };
static const char *const arm64_regs[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
	"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
	"x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "lr",
	"sp", "pc", "pstate", NULL,
};

static const char *const riscv_args[] = { "%a0", "%a1", "%a2", "%a3", "%a4",
					   "%a5", "%a6", "%a7" };
static const char *const riscv_regs[] = {
	"epc", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
	"a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6",
	"s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6", "status",
	"badaddr", "cause", "orig_a0", NULL,
};

/*
 * DWARF register numbers to the kernel's names.  Sources: MIPS: the
 * GPRs are DWARF 0-31 (GCC's mips.c DBX_REGISTER_NUMBER); x86_64: psABI
 * 1.0, Figure 3.36 "DWARF Register Number Mapping" (0 rax, 1 rdx, 2 rcx,
 * 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8-15 r8-r15); AArch64: "DWARF for
 * the Arm 64-bit Architecture" (0-30 x0-x30, 31 sp); RISC-V: psABI
 * "DWARF Register Numbers" (0-31 x0-x31).
 */
static const char *const mips_dwarf[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10",
	"r11", "r12", "r13", "r14", "r15", "r16", "r17", "r18", "r19", "r20",
	"r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30",
	"r31",
};
static const char *const x86_64_dwarf[] = {
	"ax", "dx", "cx", "bx", "si", "di", "bp", "sp", "r8", "r9", "r10",
	"r11", "r12", "r13", "r14", "r15",
};
static const char *const arm64_dwarf[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
	"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
	"x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "lr",
	"sp",
};
static const char *const riscv_dwarf[] = {
	NULL, "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1",
	"a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

#define O32_SRC "SysV ABI MIPS RISC Processor Supplement 3rd ed., ch. 3: a0-a3 ($4-$7), 16-byte home area; arch/mips/kernel/ptrace.c"
#define N64_SRC "MIPSpro N32/N64 ABI Handbook (007-2816-005), ch. 2: $4-$11, no home area; arch/mips/kernel/ptrace.c"
#define N32_SRC "MIPSpro N32/N64 ABI Handbook (007-2816-005), ch. 2: $4-$11, 64-bit slots, 32-bit int and pointer; arch/mips/kernel/ptrace.c"

#define SYSV_SRC "System V AMD64 psABI 1.0, 3.2.3 Parameter Passing; arch/x86/kernel/ptrace.c"
#define AAPCS64_SRC "Arm AAPCS64 (IHI 0055), 6.8.2 Parameter passing rules; arch/arm64/kernel/ptrace.c"
#define LP64_SRC "RISC-V psABI, Integer Calling Convention; arch/riscv/kernel/ptrace.c"

/*
 * The kernels' ABIs, a row of common/arch.def each:
 *  o32: 4 argument words in $4-$7; the caller reserves 16 bytes for
 *       them, arg5 at 16(sp);
 *  n64: 8 argument registers $4-$11, arg9 at 0(sp);
 *  SysV (x86_64): at entry 0(sp) is the return address, arg7 at 8(sp);
 *  AAPCS64: x0-x7, then the stack, arg9 at 0(sp);
 *  LP64 (RISC-V): a0-a7, then the stack, arg9 at 0(sp).
 */
/* quirks_NAME: each row's quirks (its last fields) */
#define ARCH(NAME, EM, CLASS, DATA, ABI, LONG, NARGS, ARGS, STACK1, REGS, SRC, CMDLINE, CC, PKGS, QEMU, \
	     DWARF, DWARF_SP, ENTRY_CFA, PERF_PC, PERF_SP, CLOCKS, ARG_ACCESS, USTACKS, URET, KSTACK_PERF, \
	     FTRACE_ENTRY, KPROBE_NMI, ALIASES, PREFIXES) \
	static const struct arch_quirks quirks_##NAME = { \
		DWARF, ARRAY_SIZE(DWARF), DWARF_SP, ENTRY_CFA, CLOCKS, ARG_ACCESS, \
		USTACKS, URET, KSTACK_PERF, FTRACE_ENTRY, KPROBE_NMI, ALIASES, PREFIXES };
#include "arch.def"
#undef ARCH

static const struct abi abis[] = {
#define ARCH(NAME, EM, CLASS, DATA, ABI, LONG, NARGS, ARGS, STACK1, REGS, SRC, CMDLINE, CC, PKGS, QEMU, ...) \
	{ #NAME, ABI, LONG, NARGS, ARGS, STACK1, REGS, CMDLINE, SRC, 0, NULL, &quirks_##NAME },
#include "arch.def"
#undef ARCH
};

/*
 * User ABIs a 64-bit MIPS kernel also runs (MIPS32_O32, MIPS32_N32:
 * arch/mips/Kconfig), for a uprobe on such a program.  The registers
 * are the same pt_regs, but the kernel's long is 8 bytes: $stackN
 * (trace_uprobe.c get_user_stack_nth(), sizeof(unsigned long) per N)
 * cannot name o32's 4-byte slots, so they are "+OFF($stack)"; and a
 * 32-bit int or pointer arrives sign-extended in a 64-bit register, so
 * an argument without a type is read as x32, not the kernel's default
 * x64 (DEFAULT_FETCH_TYPE, kernel/trace/trace_probe.h).
 */
static const struct abi user_abis[] = {
	/* o32: $4-$7, then 4-byte slots from 16(sp) (the home area): arg5 at +16($stack). */
	{ "mips64", "o32", 8, 4, mips_args, 4, mips_regs, 4096, O32_SRC, 4, "x32", &quirks_mips64 },
	{ "mips64el", "o32", 8, 4, mips_args, 4, mips_regs, 4096, O32_SRC, 4, "x32", &quirks_mips64el },
	/* n32: $4-$11, then 8-byte slots from 0(sp), each holding a 32-bit value. */
	{ "mips64", "n32", 8, 8, mips_args, 0, mips_regs, 4096, N32_SRC, 8, "x32", &quirks_mips64 },
	{ "mips64el", "n32", 8, 8, mips_args, 0, mips_regs, 4096, N32_SRC, 8, "x32", &quirks_mips64el },
};

const struct abi *abi_user(const struct abi *kernel, const char *uabi)
{
	size_t i;

	if (!uabi || !strcmp(uabi, kernel->abi))
		return kernel;
	for (i = 0; i < ARRAY_SIZE(user_abis); i++)
		if (!strcmp(user_abis[i].arch, kernel->arch) &&
		    !strcmp(user_abis[i].abi, uabi))
			return &user_abis[i];
	return NULL;
}

const struct abi *probe_abi(const struct probe *p, const struct target *t)
{
	return p->abi ? p->abi : t->abi;
}

const struct abi *abi_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(abis); i++)
		if (!strcmp(abis[i].arch, name))
			return &abis[i];
	return NULL;
}

const char *abi_arg(const struct abi *a, int n)
{
	/* Interned "$stackN" and "+OFF($stack)" strings: N < 128 + 8 (MAX_TRACE_ARGS). */
	static char stack[160][12], stack_off[160][16];
	int slot;

	if (n < 1)
		return NULL;
	if (n <= a->nregs)
		return a->argregs[n - 1];
	slot = a->stack_first + (n - a->nregs - 1);
	if (slot < 0 || slot >= 160)
		return NULL;
	if (abi_narrow_slots(a)) {
		snprintf(stack_off[slot], sizeof(stack_off[slot]), "+%d($stack)",
			 slot * a->slot_bytes);
		return stack_off[slot];
	}
	snprintf(stack[slot], sizeof(stack[slot]), "$stack%d", slot);
	return stack[slot];
}

bool abi_narrow_slots(const struct abi *a)
{
	return a->slot_bytes && a->slot_bytes < a->long_bytes;
}

bool abi_arg_on_stack(const struct abi *a, int n)
{
	return n > a->nregs;
}

bool abi_has_reg(const struct abi *a, const char *reg)
{
	int i;

	for (i = 0; a->regnames[i]; i++)
		if (!strcmp(a->regnames[i], reg))
			return true;
	return false;
}

const char *abi_dwarf_reg(const struct abi *a, unsigned regno)
{
	return regno < a->quirks->ndwarf ? a->quirks->dwarf[regno] : NULL;
}

unsigned abi_dwarf_sp(const struct abi *a)
{
	return a->quirks->dwarf_sp;
}

/*
 * At the first instruction the caller's call has only pushed the return
 * address on x86_64 (CFA = rsp + 8, psABI 3.2.2); the others keep it in
 * a register (CFA = sp).  GCC's CIEs say the same: x86_64
 * "DW_CFA_def_cfa: r7 (rsp) ofs 8", MIPS "DW_CFA_def_cfa: r29 ofs 0".
 */
int abi_entry_cfa(const struct abi *a)
{
	return a->quirks->entry_cfa;
}
