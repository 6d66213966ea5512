// SPDX-License-Identifier: GPL-2.0
/*
 * A fixture for tests/compiler.test.sh's ABI cases: a function of ten
 * arguments in a program without libc, built there for o32, n32 and n64,
 * little- and big-endian, into a sysroot (no binary is checked in).
 */
long __attribute__((noinline, used)) ten(long a1, long a2, long a3, long a4,
					 long a5, long a6, long a7, long a8,
					 long a9, long a10)
{
	return a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10;
}

void __start(void)
{
	for (;;)
		ten(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
}
