/*
 * probe_me <- caller_three <- caller_two <- caller_one <- main: four
 * callers, each kept out of line; built -O2 and -O0 by the tests.
 * With -DCHAIN_SYNC (/bin/ksync) probe_me also calls sync(2), whose
 * kernel function ksys_sync has a kprobe with "stack user"
 * (tests/ustack/ksync.probes): that hit's stack is the kernel frames
 * down to the system call's entry, then sync (libc), then these.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

volatile int sink;

__attribute__((noinline)) int probe_me(int x)
{
	sink += x;
#ifdef CHAIN_SYNC
	sync();
#endif
	return sink * 3;
}

__attribute__((noinline)) int caller_three(int x)
{
	int r = probe_me(x);

	sink -= r;
	return r * 2;
}

__attribute__((noinline)) int caller_two(int x)
{
	int r = caller_three(x + 1);

	sink ^= r;
	return r + 1;
}

__attribute__((noinline)) int caller_one(int x)
{
	int r = caller_two(x * 2);

	sink += r;
	return r - 1;
}

int main(int argc, char **argv)
{
	int r = caller_one(argc > 1 ? atoi(argv[1]) : 20);

#ifdef CHAIN_SYNC
	printf("ksync %d\n", r);
#else
	printf("chain %d\n", r);
#endif
	return 0;
}
