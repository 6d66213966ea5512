/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common/arch.c: the architectures probecc knows, from the one table
 * common/arch.def (its rows are also what the Makefile and the shell
 * read, through common/arch-rows).
 */
#ifndef PROBECC_ARCH_H
#define PROBECC_ARCH_H

struct arch {
	const char *name;	/* --arch: mips, mipsel, mips64, mips64el, x86_64, arm64, riscv64 */
	unsigned int elf_machine;	/* e_machine: EM_MIPS... */
	unsigned char elf_class;	/* EI_CLASS: ELFCLASS32, ELFCLASS64 */
	unsigned char elf_data;		/* EI_DATA: ELFDATA2LSB, ELFDATA2MSB */
	const char *abi;	/* the native user ABI: o32, n64, sysv, aapcs64, lp64 */
	int cmdline_size;	/* the kernel's COMMAND_LINE_SIZE, with its NUL */
	int long_bytes;		/* sizeof(long) of its kernel */
	unsigned int dwarf_sp;	/* the stack pointer's DWARF register number */
	int entry_cfa;		/* CFA - sp at a function's first instruction, bytes */
	unsigned int perf_pc;	/* the pc's bit in a perf sample's user registers */
	unsigned int perf_sp;	/* the sp's (arch/ARCH/include/uapi/asm/perf_regs.h) */
};

/* The row of --arch @name, or NULL if unknown.  Static result. */
const struct arch *arch_find(const char *name);

/* Every --arch name, ", " between them, in the table's order (static). */
const char *arch_names(void);

/*
 * arch_by_elf() - the row of an ELF header's e_machine, EI_CLASS and
 * EI_DATA (a kernel's, a program's, a dump's), or NULL.  @elf_class
 * ELFCLASSNONE or @elf_data ELFDATANONE match any: the first row of
 * the rest.  A machine and class that one row alone has is that row
 * whatever the byte order (a big-endian arm64 kernel is still arm64).
 * Static result.
 */
const struct arch *arch_by_elf(unsigned int elf_machine, unsigned char elf_class,
			       unsigned char elf_data);

/* The @i-th row (0-based), NULL past the last: for iterating. */
const struct arch *arch_at(unsigned int i);

#endif
