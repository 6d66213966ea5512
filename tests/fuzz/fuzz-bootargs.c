// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-bootargs: "probecc bootargs" (bootargs/bootargs.c, ba_*) in
 * memory: the fragment merged into existing bootargs, then each form a
 * boot loader reads: the hush-quoted word of --uboot-script, the
 * bootoctlinux line, the environment value check.
 *
 * Input: byte 0 (bit 0: --replace), then the existing bootargs, a NUL
 * byte, and the fragment (no NUL: the whole is the fragment, no
 * existing bootargs).
 *
 * Oracles beyond the sanitizers, on every merge that succeeds:
 *  - the merged line split as the kernel splits it (next_arg(),
 *    fuzz-util.c) is the existing parameters that are not tracing ones
 *    and come before the kernel's "--", then the fragment's, then "--"
 *    and init's: the kernel sees the fragment, init gets its own;
 *  - the hush word, read back by hush's rules (quotes removed, a
 *    backslash keeps the next byte), is the merged line;
 *  - the bootoctlinux line read back word by word is "bootoctlinux",
 *    the address and words that the kernel's prom_init() joins with
 *    spaces into the merged line;
 *  - an environment value ba_env_check() passes is one line of at most
 *    BA_ENV_LINE_MAX bytes with "bootargs=" and no final backslash.
 * tests/fuzz/oracle.sh runs the written files of the corpus through
 * mkenvimage and fw_printenv.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bootargs.h"
#include "fuzz.h"

/* The words of @s as U-Boot's hush reads them (bootargs.h: ba_hush_quote()). */
static int hush_words(const char *s, char ***words)
{
	int n = 0;
	char *w = NULL;
	size_t len = 0;
	bool sq = false, in_word = false;

	*words = malloc((strlen(s) + 1) * sizeof(**words));
	w = malloc(strlen(s) + 1);
	for (;; s++) {
		if (!*s || (!sq && *s == ' ')) {
			if (sq)
				fuzz_fail("unbalanced single quote");
			if (in_word) {
				w[len] = '\0';
				(*words)[n++] = strdup(w);
			}
			len = 0;
			in_word = false;
			if (!*s)
				break;
			continue;
		}
		in_word = true;
		if (*s == '\\' && s[1]) {
			w[len++] = *++s;
		} else if (*s == '\'') {
			sq = !sq;
		} else {
			if (!sq && strchr("\"$;&|#<>(){}`*?[", *s))
				fuzz_fail("unquoted hush metacharacter '%c' in %s", *s, s);
			w[len++] = *s;
		}
	}
	free(w);
	return n;
}

/* The kernel's view of @line: parameters, in order. */
struct view {
	struct fuzz_arg *a;
	int n;
};

static bool same_arg(const struct fuzz_arg *x, const struct fuzz_arg *y)
{
	return !strcmp(x->param, y->param) &&
	       (x->value ? y->value && !strcmp(x->value, y->value) : !y->value);
}

/*
 * Whether the merge drops @p of the existing line: a tracing parameter,
 * or rdinit= when it is the overlay's or the fragment sets rdinit
 * (bootargs.h, ba_merge()).
 */
static bool fragment_owns(const struct fuzz_arg *p, const struct view *f)
{
	int i;

	if (ba_is_tracing(p->param))
		return true;
	if (strcmp(p->param, "rdinit"))
		return false;
	if (p->value && !strcmp(p->value, "/probecc/init"))
		return true;
	for (i = 0; i < f->n; i++)
		if (!strcmp(f->a[i].param, "rdinit"))
			return true;
	return false;
}

static void check_merge(const char *existing, const char *frag, const char *merged)
{
	struct view e, f, m;
	int i, j = 0, dashes;

	e.n = fuzz_split_cmdline(existing, &e.a);
	f.n = fuzz_split_cmdline(frag, &f.a);
	m.n = fuzz_split_cmdline(merged, &m.a);
	/* parse_args() (kernel/params.c) stops at a bare "--" */
	for (dashes = 0; dashes < e.n; dashes++)
		if (!e.a[dashes].value && !strcmp(e.a[dashes].param, "--"))
			break;
	for (i = 0; i < dashes; i++) {
		if (fragment_owns(&e.a[i], &f))
			continue;
		if (j >= m.n || !same_arg(&e.a[i], &m.a[j]))
			goto bad;
		j++;
	}
	for (i = 0; i < f.n; i++, j++)
		if (j >= m.n || !same_arg(&f.a[i], &m.a[j]))
			goto bad;
	for (i = dashes; i < e.n; i++, j++)
		if (j >= m.n || !same_arg(&e.a[i], &m.a[j]))
			goto bad;
	if (j != m.n)
		goto bad;
	return;
bad:
	fuzz_fail("the kernel reads the merged line otherwise than merged (its parameter %d)\nexisting: %s\nfragment: %s\nmerged:   %s",
		  j + 1, existing, frag, merged);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *existing = NULL, *frag;
	char *text, *merged, *q, *line, **w;
	struct errmsg e;
	const char *nul;
	int n, i;

	if (size < 1)
		return 0;
	trk_begin();
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	frag = text;
	nul = memchr(text, '\0', size - 1);
	if (nul) {
		existing = text;
		frag = nul + 1;
	}
	if (ba_merge(existing, "--bootargs", frag, data[0] & 1, &merged, &e))
		goto out;
	check_merge(existing ? existing : "", frag, merged);

	if (!ba_hush_quote(merged, &q, &e)) {
		n = hush_words(q, &w);
		if (n != 1 || strcmp(w[0], merged))
			fuzz_fail("hush reads %s as %d words, the first '%s', not '%s'",
				  q, n, n ? w[0] : "", merged);
	}
	if (!ba_octeon_line("0x20000000", merged, &line, &e)) {
		struct strbuf joined = { 0 };

		n = hush_words(line, &w);
		if (n < 2 || strcmp(w[0], "bootoctlinux") || strcmp(w[1], "0x20000000"))
			fuzz_fail("bootoctlinux line '%s' does not begin with the command and address", line);
		for (i = 2; i < n; i++)
			sb_addf(&joined, "%s%s", i > 2 ? " " : "", w[i]);
		if (strcmp(joined.s ? joined.s : "", merged))
			fuzz_fail("bootoctlinux line '%s' gives the kernel '%s', not '%s'",
				  line, joined.s ? joined.s : "", merged);
	}
	if (!ba_env_check(merged, true, &e)) {
		size_t len = strlen(merged);

		if (len + 9 > BA_ENV_LINE_MAX || strpbrk(merged, "\n\r") ||
		    (len && merged[len - 1] == '\\'))
			fuzz_fail("ba_env_check passed an environment value fw_setenv -s cannot read: '%s'",
				  merged);
	}
out:
	trk_release();
	return 0;
}
