/*
 * A dynamic program whose probed function is called back from libc:
 * probe_me <- compare <- (libc: msort_with_tmp) <- qsort_r <- sort_two
 * <- main.  Built -O2 -g, not static, by tests/ustack.test.sh; the boot
 * gets the loader and libc.so.6 at the target's paths.
 */
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) int probe_me(int x)
{
	sink += x;
	return sink;
}

__attribute__((noinline)) static int compare(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	probe_me(x + y);
	return (x > y) - (x < y);
}

__attribute__((noinline)) int sort_two(int a)
{
	int v[2] = { a, 41 - a };

	qsort(v, 2, sizeof(v[0]), compare);
	sink ^= v[0];
	return v[0] + v[1];
}

int main(int argc, char **argv)
{
	int r = sort_two(argc > 1 ? atoi(argv[1]) : 20);

	printf("qsort %d\n", r);
	return 0;
}
