// SPDX-License-Identifier: GPL-2.0
/*
 * A uprobe target for tests/boot64.test.sh: ten() takes ten arguments
 * of known values, so that a uprobe's argN is checked past the argument
 * registers: arg5-10 on o32's stack (+16($stack) on), arg9-10 on n64's
 * and AAPCS64's ($stack0, $stack1).  Built static for each userland
 * (o32, n64, arm64); run once by tests/boot64/rc-args10 after the agent
 * armed the uprobes.  Prints "args10: ten = SUM" (SUM 842).
 */
#include <stdio.h>

long __attribute__((noipa, used)) ten(long a1, const char *a2, long a3,
					 long a4, long a5, long a6, long a7,
					 long a8, long a9, long a10)
{
	return a1 + a2[0] + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10;
}

int main(void)
{
	/* 0x11 + 't' (0x74) + 0x33 + 0x44 + 0x55 + 0x66 + 0x77 + 0x88 + 0x99 - 5 */
	printf("args10: ten = %ld\n", ten(0x11, "two", 0x33, 0x44, 0x55, 0x66,
					   0x77, 0x88, 0x99, -5));
	return 0;
}
