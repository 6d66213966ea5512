/*
 * probe_me <- caller_three <- caller_two <- caller_one <- main: four
 * callers, each kept out of line; built -O2 and -O0 by the tests.
 */
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) int probe_me(int x)
{
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

	printf("chain %d\n", r);
	return 0;
}
