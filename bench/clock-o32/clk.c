// SPDX-License-Identifier: GPL-2.0
/*
 * bench/clock-o32/clk.c: CLOCK_MONOTONIC of an o32 program under a 64-bit
 * MIPS kernel (loongson3-o32; initramfs/README.md, the agent_us anomaly):
 * the vDSO (glibc's clock_gettime with _TIME_BITS=64, that is
 * __vdso_clock_gettime64) read between two clock_gettime64 syscalls, and
 * the CP0 Count (rdhwr $2), for SECONDS (default 40) of busy stretches
 * and sleeps.  Prints the Count's rate, every vDSO reading outside the
 * syscall readings around it or behind the last one (the first 20), the
 * longest forward step and how far Count moved over it, and the totals.
 * Built by bench/clock-o32/run.sh with mipsel-linux-gnu-gcc -static.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct ts64 {
	long long sec, nsec;	/* struct __kernel_timespec */
};

/* nanoseconds, through the vDSO */
static long long vdso_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* nanoseconds, through the syscall */
static long long sys_ns(void)
{
	struct ts64 t;

	syscall(SYS_clock_gettime64, CLOCK_MONOTONIC, &t);
	return t.sec * 1000000000LL + t.nsec;
}

/* the CP0 Count, as the vDSO reads it (RDHWR register 2, MIPS32 R2) */
static unsigned int count(void)
{
	unsigned int c;

	__asm__ volatile(".set push\n.set mips32r2\nrdhwr %0, $2\n.set pop" : "=r"(c));
	return c;
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 40;
	long long start = sys_ns(), lv = vdso_ns(), ls = sys_ns(), n = 0, bad = 0;
	long long back_v = 0, back_s = 0, fwd = 0, t0;
	unsigned int c0, cprev, cfwd = 0;

	c0 = count();
	t0 = sys_ns();
	usleep(200000);
	printf("clk: count rate %.1f MHz\n",
	       (double)(count() - c0) * 1000.0 / (double)(sys_ns() - t0));
	cprev = count();
	while (sys_ns() - start < secs * 1000000000LL) {
		long long s1 = sys_ns(), v = vdso_ns(), s2 = sys_ns();

		n++;
		if (s1 - ls > fwd) {
			fwd = s1 - ls;
			cfwd = count() - cprev;
		}
		cprev = count();
		if (v < lv && lv - v > back_v)
			back_v = lv - v;
		if (s1 < ls && ls - s1 > back_s)
			back_s = ls - s1;
		if (v < s1 || v > s2 || v < lv || s1 < ls) {
			if (++bad <= 20)
				printf("clk: sample %lld: before vdso %lld sys %lld; now sys %lld vdso %lld sys %lld, count %u\n",
				       n, lv, ls, s1, v, s2, count());
		}
		lv = v;
		ls = s2;
		if (n % 1000 == 0)
			usleep((n / 1000) % 7 * 150000);
	}
	printf("clk: longest step forward %lld ns (syscall), Count moved %u then\n",
	       fwd, cfwd);
	printf("clk: %lld samples, %lld anomalies, worst step back %lld ns (vdso), %lld ns (syscall)\n",
	       n, bad, back_v, back_s);
	return 0;
}
