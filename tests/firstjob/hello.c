/*
 * A new user's own program (tests/firstjob.test.sh): built static with
 * -g, as the README's first job says, and probed with a uprobe on greet().
 */
#include <stdio.h>

__attribute__((noinline)) int greet(int n, const char *who)
{
	return printf("hello %d %s\n", n, who);
}

int main(void)
{
	return greet(42, "world") > 0 ? 0 : 1;
}
