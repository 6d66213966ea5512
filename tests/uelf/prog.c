// SPDX-License-Identifier: GPL-2.0
/*
 * A target for tests/uelf.test.sh: a few functions that survive
 * optimisation, built as a non-PIE and a PIE executable and as a shared
 * library.  FUNCS in the test script lists the functions; keep the two
 * in step.
 *
 * It also has SystemTap SDT probes: prog:tick (with a semaphore),
 * prog:line and prog:twice (two sites).  SDT_PROBE writes the note as
 * <sys/sdt.h> does (systemtap-sdt-dev is not needed): the site's
 * address, _.stapsdt.base's and the semaphore's (or 0) in
 * .note.stapsdt, then provider, name and an empty argument string.
 * -DNO_SDT leaves them out.
 */
#define KEEP __attribute__((noinline, used))

#if __SIZEOF_POINTER__ == 8
#define SDT_ADDR ".8byte "
#else
#define SDT_ADDR ".4byte "
#endif

#ifdef NO_SDT
#define SDT_PROBE(provider, name, sem) do { } while (0)
#else
#define SDT_PROBE(provider, name, sem)						\
	__asm__ __volatile__(							\
		"990: nop\n"							\
		".pushsection .note.stapsdt,\"?\",\"note\"\n"			\
		".balign 4\n"							\
		".4byte 992f-991f, 994f-993f, 3\n"				\
		"991: .asciz \"stapsdt\"\n"					\
		"992: .balign 4\n"						\
		"993: " SDT_ADDR "990b\n"					\
		SDT_ADDR "_.stapsdt.base\n"					\
		SDT_ADDR sem "\n"						\
		".asciz \"" #provider "\"\n"					\
		".asciz \"" #name "\"\n"					\
		".asciz \"\"\n"							\
		"994: .balign 4\n"						\
		".popsection\n"							\
		".ifndef _.stapsdt.base\n"					\
		".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
		".weak _.stapsdt.base\n"					\
		".hidden _.stapsdt.base\n"					\
		"_.stapsdt.base: .space 1\n"					\
		".size _.stapsdt.base, 1\n"					\
		".popsection\n"							\
		".endif\n")
#endif

/* the semaphore: the kernel counts armed probes in it (REF_CTR_OFFSET) */
__attribute__((section(".probes"), used, visibility("hidden")))
unsigned short prog_tick_semaphore;

int counter;

KEEP int add_one(int x)
{
	counter++;
	return x + 1;
}

KEEP static int scale(int x, int by)
{
	int i, r = 0;

	for (i = 0; i < by; i++)
		r += x * (i + counter);
	return r;
}

KEEP int parse_line(const char *s)
{
	int n = 0;

	while (*s >= '0' && *s <= '9')
		n = n * 10 + (*s++ - '0');
	if (prog_tick_semaphore)
		SDT_PROBE(prog, tick, "prog_tick_semaphore");
	SDT_PROBE(prog, twice, "0");
	return scale(n, 3) + add_one(n);
}

KEEP void parse_lines(const char **v, int n, int *out)
{
	int i;

	for (i = 0; i < n; i++) {
		SDT_PROBE(prog, line, "0");
		out[i] = parse_line(v[i]);
	}
	SDT_PROBE(prog, twice, "0");
}

int main(int argc, char **argv)
{
	int out[8];

	parse_lines((const char **)argv, argc < 8 ? argc : 8, out);
	return out[0] & 0x7f;
}
