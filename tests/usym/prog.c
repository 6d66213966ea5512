// SPDX-License-Identifier: GPL-2.0
/*
 * usym: the user program of tests/usym.test.sh.  Booted on Debian's
 * Malta kernel, it calls probecc_work() four times with known values
 * (three words, then its TAG), and each call calls the static
 * usym_scale(); uprobes placed by symbol (PATH:SYMBOL[+OFF]) must see
 * exactly these arguments and return values.  Built for mipsel, once
 * as a static non-PIE executable and once as a PIE (static where the
 * toolchain can).  The test computes the same values in shell
 * (usym_calls): change both together.
 *
 * usage: usym TAG   (TAG names the binary in the trace, e.g. "nopie")
 */
#include <stdio.h>
#include <string.h>

/* Keep the calls: the optimizer must neither inline nor drop them. */
volatile int usym_sink;

__attribute__((noinline, noclone)) static int usym_scale(int v, int k)
{
	usym_sink += v;
	return v * k + 1;
}

__attribute__((noinline, noclone)) int probecc_work(int a, const char *s)
{
	int r = a + (int)strlen(s);

	usym_sink += r;
	return usym_scale(r, (int)strlen(s));
}

int main(int argc, char **argv)
{
	const char *tag = argc > 1 ? argv[1] : "none";
	static const char *const words[] = { "alpha", "beta", "gamma" };
	int i, sum = 0;

	for (i = 0; i < 3; i++)
		sum += probecc_work(1000 * (i + 1) + 7, words[i]);
	sum += probecc_work(-42, tag);
	printf("usym %s: sum %d\n", tag, sum);
	return 0;
}
