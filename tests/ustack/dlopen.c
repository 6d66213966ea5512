/*
 * A dynamic program that dlopen()s a library of ours after it started
 * (tests/ustack/plugin.c, /lib/libuplugin.so: not a DT_NEEDED of the
 * program, so only the mmap dlopen makes tells where it is) and calls
 * probe_me through it: probe_me <- plugin_step <- plugin_apply (both in
 * the library) <- load_and_call <- main.  Built -O2 -g, not static, by
 * tests/ustack.test.sh and tests/kernel/mips64be.sh.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) int probe_me(int x)
{
	sink += x;
	return sink;
}

__attribute__((noinline)) int load_and_call(const char *path, int x)
{
	int (*apply)(int (*)(int), int);
	void *h = dlopen(path, RTLD_NOW);
	int r;

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return -1;
	}
	*(void **)&apply = dlsym(h, "plugin_apply");
	if (!apply) {
		fprintf(stderr, "dlsym: %s\n", dlerror());
		return -1;
	}
	r = apply(probe_me, x);
	sink ^= r;
	return r;
}

int main(int argc, char **argv)
{
	int r = load_and_call("/lib/libuplugin.so", argc > 1 ? atoi(argv[1]) : 20);

	printf("dlopen %d\n", r);
	return r < 0;
}
