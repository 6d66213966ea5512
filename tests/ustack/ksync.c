/*
 * A system call four callers deep: probe_me <- caller_three <- caller_two
 * <- caller_one <- main, where probe_me calls sync(2), whose kernel
 * function ksys_sync has a kprobe with "stack user"
 * (tests/ustack/ksync.probes): the hit's stack is the kernel frames down
 * to the system call's entry, then sync (libc), then these.  Static,
 * built -O2 and -O0 by tests/ustack.test.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

volatile int sink;

__attribute__((noinline)) int probe_me(int x)
{
	sync();
	sink += x;
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

	printf("ksync %d\n", r);
	return 0;
}
