// SPDX-License-Identifier: GPL-2.0
/*
 * A fixture for tests/compiler.test.sh's --vars case: built
 * there -g for o32 without libc.  str6's fifth and sixth arguments are on
 * o32's stack, in 4-byte slots: under a 64-bit kernel the string behind
 * the fifth cannot be read (the kernel reads the slot's pointer as a
 * long), the int of the sixth can, and --vars must say so as the compiler
 * does.
 */
long __attribute__((noinline, used)) str6(long a1, long a2, long a3, long a4,
					  const char *s5, int i6)
{
	long n = a1 + a2 + a3 + a4 + i6;

	while (*s5++)
		n++;
	return n;
}

void __start(void)
{
	for (;;)
		str6(1, 2, 3, 4, "five", 6);
}
