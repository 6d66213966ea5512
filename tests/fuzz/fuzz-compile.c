// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-compile: the probe-file front end through placement and every
 * output, in memory (compiler/: lex -> parse -> resolve_uprobes ->
 * resolve_cnames -> check -> place -> budget -> emit), as cli/compile.c runs it
 * but with no file read or written.
 *
 * Input: byte 0 chooses the target (--arch, --via, --stack-method, the
 * kernel version and config, whether the kernel's symbols are known),
 * the rest is the probe file.
 *
 * Oracles beyond the sanitizers, on every program that compiles:
 *  - the command-line fragment, split as the kernel splits its command
 *    line (next_arg() of kernel/params.c, here in fuzz-util.c), gives
 *    back place()'s parameters one for one, and is cmdline_len() long;
 *  - the bootconfig text, read back by bc_parse(), is place()'s tree
 *    (tests/fuzz/oracle.sh checks the same text with the kernel's own
 *    parser, tools/bootconfig);
 *  - the plan is lines of TAB-separated non-empty fields, the first
 *    "probecc-plan<TAB>1", as the agent's plan reader wants them.
 * A broken oracle is a crash (abort()) with the reason on stderr.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "compiler.h"
#include "kernel.h"
#include "fuzz.h"

static struct kernel *nokernel, *synthetic;

/* A small kernel known by name: symbols, a config, as a capture gives. */
static void make_kernels(void)
{
	static const char *const funcs[] = {
		"kernel_execve", "register_netdevice", "register_netdev",
		"bond_create", "bonding_init", "do_sys_openat2", "vfs_read",
		"vfs_write", "ksys_write", "do_init_module", "schedule",
	};
	static const char config[] =
		"CONFIG_KPROBE_EVENTS=y\nCONFIG_UPROBE_EVENTS=y\n"
		"CONFIG_FUNCTION_TRACER=y\nCONFIG_FUNCTION_GRAPH_TRACER=y\n"
		"CONFIG_BOOT_CONFIG=y\nCONFIG_BOOTTIME_TRACING=y\n"
		"CONFIG_HIST_TRIGGERS=y\nCONFIG_DYNAMIC_FTRACE=y\n";
	struct errmsg e;
	size_t i;

	nokernel = kernel_new();
	kernel_index(nokernel);
	synthetic = kernel_new();
	for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
		kernel_add_sym(synthetic, funcs[i], strlen(funcs[i]),
			       0x80100000ULL + i * 0x1000, 0x200, 'T', NULL);
	kernel_add_sym(synthetic, "jiffies", 7, 0x80800000ULL, 8, 'D', NULL);
	if (kernel_set_kconfig(synthetic, config, sizeof(config) - 1, "fuzz", &e))
		fuzz_fail("kernel_set_kconfig: %s", e.msg);
	kernel_index(synthetic);
}

/* The kernel's next_arg() split of @line against place()'s list. */
static void check_cmdline(const struct placement *pl, const char *line)
{
	const struct cmdline_param *p = pl->cmdline;
	struct fuzz_arg *args;
	int i, n;

	if (strlen(line) != cmdline_len(pl))
		fuzz_fail("cmdline_len() %zu, the fragment is %zu bytes: \"%s\"",
			  cmdline_len(pl), strlen(line), line);
	n = fuzz_split_cmdline(line, &args);
	for (i = 0; i < n; i++, p = p->next) {
		size_t plen;
		const char *eq;

		if (!p)
			fuzz_fail("the kernel splits \"%s\" into more than the %d parameters placed",
				  line, i);
		plen = strlen(p->param);
		eq = plen && p->param[plen - 1] == '=' ? "=" : "";
		if (*eq)
			plen--;
		if (strlen(args[i].param) != plen ||
		    memcmp(args[i].param, p->param, plen) ||
		    (*eq && (!args[i].value || strcmp(args[i].value, p->value))) ||
		    (!*eq && *p->value))
			fuzz_fail("the kernel reads parameter %d of \"%s\" as '%s' = '%s', placed as '%s%s'",
				  i + 1, line, args[i].param,
				  args[i].value ? args[i].value : "(none)",
				  p->param, p->value);
	}
	if (p)
		fuzz_fail("the kernel splits \"%s\" into %d parameters, fewer than placed", line, n);
}

/* @len bytes of @s with every byte >= 0xa0 made '~'. */
static char *memdup_latin1(const char *s, size_t len)
{
	char *d = malloc(len + 1);
	size_t i;

	for (i = 0; i < len; i++)
		d[i] = (unsigned char)s[i] >= 0xa0 ? '~' : s[i];
	d[len] = '\0';
	return d;
}

/* @want, with its bytes >= 0xa0 read as '~', is @got. */
static bool same_latin1(const char *want, const char *got)
{
	for (; *want && *got; want++, got++)
		if (((unsigned char)*want >= 0xa0 ? '~' : *want) != *got)
			return false;
	return !*want && !*got;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(bc_key_name(*(const struct bc_key *const *)a),
		      bc_key_name(*(const struct bc_key *const *)b));
}

/* The leaves of @t sorted by key, into a new array; their number. */
static int sorted_keys(const struct bc_tree *t, const struct bc_key ***out)
{
	const struct bc_key *k;
	int n = 0;

	for (k = bc_first_key(t); k; k = bc_next_key(k))
		n++;
	*out = malloc((n + 1) * sizeof(**out));
	n = 0;
	for (k = bc_first_key(t); k; k = bc_next_key(k))
		(*out)[n++] = k;
	qsort(*out, n, sizeof(**out), cmp_key);
	return n;
}

/*
 * The bootconfig text read back is place()'s tree: the same keys with the
 * same values in the same order.  The order of the keys is the tree's
 * (lib/bootconfig.c keeps a key under its first parent), not place()'s.
 */
static void check_bootconfig(const struct placement *pl, const char *text, size_t len)
{
	const struct bc_key **a, **b;
	struct bc_tree *back;
	const char *msg = NULL;
	int line = 0, col = 0, err, i, j, na, nb;
	char *latin1;

	/*
	 * Latin-1 0xa0-0xff are printable to the kernel (lib/ctype.c), not
	 * to bc_parse(), which reads as tools/bootconfig does in the C
	 * locale (bc_parse.c): those bytes read as '~' on both sides.
	 */
	latin1 = memdup_latin1(text, len);
	err = bc_parse(latin1, len, &back, &line, &col, &msg);
	if (err)
		fuzz_fail("our bootconfig is refused by bc_parse: %d:%d: %s (%s)\n%s",
			  line, col, msg ? msg : "", bc_strerror(err), text);
	na = sorted_keys(pl->bootconfig, &a);
	nb = sorted_keys(back, &b);
	for (i = 0; i < na && i < nb; i++) {
		const char *const *av, *const *bv;
		int nav = bc_key_values(a[i], &av), nbv = bc_key_values(b[i], &bv);

		if (strcmp(bc_key_name(a[i]), bc_key_name(b[i])) || nav != nbv || !av != !bv)
			fuzz_fail("bootconfig key '%s' (%d values) read back as '%s' (%d values)\n%s",
				  bc_key_name(a[i]), nav, bc_key_name(b[i]), nbv, text);
		for (j = 0; j < nav; j++)
			if (!same_latin1(av[j], bv[j]))
				fuzz_fail("bootconfig %s[%d] '%s' read back as '%s'\n%s",
					  bc_key_name(a[i]), j, av[j], bv[j], text);
	}
	if (na != nb)
		fuzz_fail("bootconfig of %d keys read back as %d\n%s", na, nb, text);
	free(a);
	free(b);
	free(latin1);
	bc_free(back);
}

/* What the agent's plan reader (initramfs/plan.c) wants of every line. */
static void check_plan(const char *plan, size_t len)
{
	const char *p = plan, *end = plan + len;
	int no = 0;

	if (memchr(plan, '\0', len))
		fuzz_fail("the plan holds a NUL byte");
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *f;

		if (!nl)
			fuzz_fail("the plan's last line has no newline");
		no++;
		if (no == 1 && (nl - p != 14 || memcmp(p, "probecc-plan\t1", 14)))
			fuzz_fail("the plan does not begin with probecc-plan<TAB>1");
		if (nl == p || nl[-1] == '\r')
			fuzz_fail("plan line %d is empty or ends in CR", no);
		for (f = p; f <= nl; f++)
			if ((f == p || f[-1] == '\t') && (*f == '\t' || *f == '\n'))
				fuzz_fail("plan line %d has an empty field: %.*s",
					  no, (int)(nl - p), p);
		p = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const arches[] = {
		"mipsel", "x86_64", "mips64el", "arm64", "mips", "riscv64",
	};
	static const int versions[][2] = { { 6, 1 }, { 5, 10 }, { 5, 4 }, { 6, 6 } };
	struct source src = { .name = "fuzz.probes" };
	struct target t = { 0 };
	struct strbuf checks = { 0 };
	struct diags d = { 0 }, w = { 0 };
	const struct kernel *k;
	struct placement *pl;
	struct program *prog;
	struct token *toks;
	unsigned sel;
	char *text;
	int nkernel;

	if (!nokernel)
		make_kernels();
	if (size < 1)
		return 0;
	sel = data[0];
	trk_begin();
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	src.text = text;
	src.len = size - 1;

	t.abi = abi_find(arches[sel % 6]);
	t.kmajor = versions[(sel / 6) % 4][0];
	t.kminor = versions[(sel / 6) % 4][1];
	t.via = (sel & 0x20) ? VIA_BOOTCONFIG : VIA_CMDLINE;
	t.stack_method = (sel >> 6) % 3;
	t.cmdline_max = budget_default(t.abi);
	k = (sel & 0x80) ? synthetic : nokernel;
	t.boot_config = t.boottime_tracing = t.hist_triggers =
		(signed char)((sel & 0x80) ? 1 : -1);

	toks = tokenize(&src, &d);
	prog = toks ? parse(toks, &d) : NULL;
	if (!prog || resolve_uprobes(prog, NULL, t.abi, &d, &w) ||
	    resolve_cnames(prog, k, NULL, NULL, &t, &checks, &d) ||
	    check_program(prog, k, &t, &checks, &d, &w, &nkernel))
		goto out;
	pl = place(prog, &t);
	if (budget_check(pl, &t, &d, &w, &w))
		goto out;
	{
		char *line = emit_cmdline(pl), *bc = NULL, *plan;
		size_t bclen = 0, planlen;
		struct errmsg e;
		FILE *null = fuzz_null();

		check_cmdline(pl, line);
		if (!bc_empty(pl->bootconfig)) {
			if (!emit_bootconfig(pl, &bc, &bclen, &e))
				check_bootconfig(pl, bc, bclen);
			free(bc);
		}
		plan = emit_plan(prog, &t, pl, &planlen);
		check_plan(plan, planlen);
		emit_explain(pl, checks.s, null);
		free(line);
		free(plan);
		bc_free(pl->bootconfig);
	}
out:
	diag_print(&w);
	diag_print(&d);
	trk_release();
	return 0;
}
