// SPDX-License-Identifier: GPL-2.0
/*
 * probecc bootargs: put the compiled command-line fragment where a boot
 * loader keeps the kernel's command line, in the form it reads.
 *
 *   probecc bootargs [--fragment FILE|-] [--bootargs EXISTING] [--replace]
 *       (--uboot-script OUT | --uboot-env OUT | --fw-script OUT |
 *        --octeon ADDR | --print | --dtb IN -o OUT)
 *
 * Why: U-Boot's shell expands "$retval", "$stack", "$comm" as its own
 * variables and takes ";" as a command separator, so a kprobe_event=
 * list pasted into "setenv bootargs ..." as it is reaches the kernel cut
 * and emptied.  Each output here is quoted by the rules of its reader:
 *
 *   --uboot-script  "setenv bootargs '...'" for `source` (hush, see
 *                   ba_hush_quote()); mkimage -T script makes the image
 *   --uboot-env     "bootargs=..." for mkenvimage (tools/mkenvimage.c:
 *                   "name=value" lines, "#" lines are comments, a
 *                   backslash before the newline makes an embedded one)
 *                   and for libubootenv's fw_setenv -s (Debian's
 *                   fw_setenv since bookworm: the name ends at "=")
 *   --fw-script     "bootargs ..." for U-Boot's own tools/env fw_setenv -s
 *                   (fw_env.c, fw_parse_script(): the name ends at the
 *                   first blank, not at "="): the two fw_setenv -s
 *                   formats have no line in common
 *   --octeon ADDR   "bootoctlinux ADDR word..." to type at the prompt
 *   --dtb IN -o OUT the tree IN with /chosen/bootargs set (fdt.c)
 *
 * This file merges and quotes; it returns errors (0 / -errno with the
 * reason in a struct errmsg) and never exits.  The command line, exit
 * statuses and outputs are bootargs-main.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootargs.h"
#include "common.h"
#include "compiler.h"	/* OVERLAY_INIT */

/* One kernel parameter as the kernel's next_arg() splits it. */
struct param {
	char *text;	/* as written: quotes and all */
	char *name;	/* before the first '=', the opening quote dropped */
	char *value;	/* after '=', quotes dropped as next_arg() drops
			 * them; NULL when there is no '=' */
};

struct plist {
	struct param *v;
	size_t n, cap;
};

/*
 * The parameters probecc writes (place.c) and the kernel's other
 * boot-time tracing switches; ftrace_dump_on_oops, tp_printk,
 * alloc_snapshot, traceoff_on_warning and bootconfig take no value or
 * an optional one.  The kernel matches __setup() names exactly
 * (init/main.c, obsolete_checksetup()), so no '-'/'_' folding.
 */
static const char *const tracing_params[] = {
	"ftrace", "ftrace_filter", "ftrace_notrace", "ftrace_graph_filter",
	"ftrace_graph_max_depth", "trace_options", "trace_buf_size",
	"trace_clock", "trace_event", "kprobe_event", "tp_printk",
	"ftrace_dump_on_oops", "bootconfig", "alloc_snapshot",
	"traceoff_on_warning", "trace_trigger", "trace_instance",
};

bool ba_is_tracing(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(tracing_params) / sizeof(tracing_params[0]); i++)
		if (!strcmp(name, tracing_params[i]))
			return true;
	return false;
}

/*
 * "rdinit=/probecc/init": what probecc --initrd adds to the fragment (the
 * agent in the overlay, which execs the initrd's own /init).  Another
 * rdinit= is the user's.
 */
static bool is_overlay_rdinit(const struct param *p)
{
	return !strcmp(p->name, "rdinit") && p->value &&
	       !strcmp(p->value, OVERLAY_INIT);
}

/*
 * A parameter of the existing bootargs that the fragment owns: a
 * tracing one, or rdinit= when the fragment sets rdinit (an earlier
 * run's, or the user's own, which the fragment's would contradict).
 */
static bool fragment_owns(const struct param *p, const struct plist *frag)
{
	size_t j;

	if (ba_is_tracing(p->name) || is_overlay_rdinit(p))
		return true;
	if (strcmp(p->name, "rdinit"))
		return false;
	for (j = 0; j < frag->n; j++)
		if (!strcmp(frag->v[j].name, "rdinit"))
			return true;
	return false;
}

/* The kernel's isspace() (lib/ctype.c): 0xA0, Latin-1's no-break space, too. */
static bool is_kspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

/* next_arg() of kernel/params.c on a copy of one parameter's text. */
static void parse_param(struct param *p)
{
	char *s = xstrdup(p->text), *eq;
	size_t len = strlen(s);
	bool quoted = s[0] == '"';
	char *args = quoted ? s + 1 : s;

	/* next_arg() takes the first '=' after the name's first byte */
	eq = *args ? strchr(args + 1, '=') : NULL;
	if (quoted && len > 1 && s[len - 1] == '"')
		s[--len] = '\0';
	if (eq) {
		*eq = '\0';
		p->value = eq + 1;
		if (*p->value == '"') {
			p->value++;
			len = strlen(p->value);
			if (len && p->value[len - 1] == '"')
				p->value[len - 1] = '\0';
		}
		p->value = xstrdup(p->value);
	}
	p->name = xstrdup(args);
	free(s);
}

/*
 * Split @line into @out at white space outside double quotes (the
 * kernel's isspace(): space, \t \n \v \f \r).  @what names the line in
 * messages.
 */
static int split(const char *line, const char *what, struct plist *out,
		 struct errmsg *e)
{
	const char *p = line, *start;
	bool inq;

	for (;;) {
		while (is_kspace(*p))
			p++;
		if (!*p)
			break;
		start = p;
		inq = false;
		for (; *p; p++) {
			unsigned char c = *p;

			if (!inq && is_kspace(c))
				break;
			if ((c < 0x20 && !(inq && c == ' ')) || c == 0x7f)
				return errmsg_set(e, -EINVAL, "%s: control character 0x%02x in '%.*s'",
						  what, c, (int)(p - start), start);
			if (c == '"')
				inq = !inq;
		}
		if (inq)
			return errmsg_set(e, -EINVAL, "%s: unbalanced double quote in '%s'",
					  what, start);
		ALLOC_GROW(out->v, out->n + 1, out->cap);
		memset(&out->v[out->n], 0, sizeof(out->v[0]));
		out->v[out->n].text = xstrndup(start, p - start);
		parse_param(&out->v[out->n]);
		out->n++;
	}
	return 0;
}

static void plist_free(struct plist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].text);
		free(l->v[i].name);
		free(l->v[i].value);
	}
	free(l->v);
}

/*
 * The "--" that ends the kernel's parameters (kernel/params.c,
 * parse_args(): a parameter "--" without a value), after next_arg() has
 * dropped its quotes: "\"--\"" is one too.
 */
static bool is_dashes(const struct param *p)
{
	return !p->value && !strcmp(p->name, "--");
}

static bool same_value(const struct param *a, const struct param *b)
{
	if (!a->value || !b->value)
		return !a->value && !b->value;
	return !strcmp(a->value, b->value);
}

int ba_merge(const char *existing, const char *from, const char *fragment,
	     bool replace, char **merged, struct errmsg *e)
{
	struct plist old = { 0 }, frag = { 0 };
	struct strbuf out = { 0 };
	size_t i, j, dashes;
	bool in_frag;
	int rc;

	rc = split(existing ? existing : "", from, &old, e);
	if (!rc)
		rc = split(fragment, "the fragment", &frag, e);
	for (j = 0; !rc && j < frag.n; j++) {
		if (is_dashes(&frag.v[j]))
			rc = errmsg_set(e, -EINVAL, "the fragment has '--': what follows it would go to init, not the kernel");
		else if (!ba_is_tracing(frag.v[j].name) &&
			 !is_overlay_rdinit(&frag.v[j]))
			rc = errmsg_set(e, -EINVAL, "the fragment has '%s', which is not a tracing parameter probecc writes (nor --initrd's rdinit=" OVERLAY_INIT "): a later run could not tell it from yours",
					frag.v[j].text);
	}
	if (rc)
		goto out;

	/* "--": the rest is init's (init/main.c), the fragment goes before */
	for (dashes = 0; dashes < old.n; dashes++)
		if (is_dashes(&old.v[dashes]))
			break;

	for (i = 0; i < dashes; i++) {
		const struct param *p = &old.v[i];
		const struct param *other = NULL;

		if (!fragment_owns(p, &frag)) {
			sb_addf(&out, "%s%s", out.len ? " " : "", p->text);
			continue;
		}
		/* an old tracing parameter: dropped, unless it conflicts */
		in_frag = false;
		for (j = 0; j < frag.n; j++) {
			if (strcmp(frag.v[j].name, p->name))
				continue;
			in_frag = true;
			if (same_value(&frag.v[j], p)) {
				other = NULL;
				break;
			}
			other = &frag.v[j];
		}
		if (other && !replace) {
			rc = errmsg_set(e, -EINVAL, "%s has %s, the fragment %s: two values of %s (--replace drops the old one)",
					from, p->text, other->text, p->name);
			goto out;
		}
		/* said, not silent: it may have been the user's own */
		if (!in_frag)
			fprintf(stderr, "probecc: note: %s: dropped %s, a tracing parameter the fragment does not set (taken as an earlier run's)\n",
				from, p->text);
		else if (other)
			fprintf(stderr, "probecc: note: %s: %s replaced by %s (--replace)\n",
				from, p->text, other->text);
	}
	for (j = 0; j < frag.n; j++)
		sb_addf(&out, "%s%s", out.len ? " " : "", frag.v[j].text);
	for (i = dashes; i < old.n; i++)
		sb_addf(&out, "%s%s", out.len ? " " : "", old.v[i].text);
	*merged = out.s ? out.s : xstrdup("");
out:
	plist_free(&old);
	plist_free(&frag);
	if (rc)
		free(out.s);
	return rc;
}

int ba_hush_quote(const char *s, char **quoted, struct errmsg *e)
{
	/* at most 4 bytes for one ("'\\''"), the quotes and a NUL */
	char *q = xmalloc(4 * strlen(s) + 3), *o = q;
	const char *p;

	*o++ = '\'';
	for (p = s; *p; p++) {
		unsigned char c = *p;

		if (c < 0x20 || c == 0x7f) {
			free(q);
			return errmsg_set(e, -EINVAL, "control character 0x%02x in '%s': U-Boot's hush would not pass it as it is",
					  c, s);
		}
		if (c == '\'') {
			memcpy(o, "'\\''", 4);	/* close, \', reopen */
			o += 4;
		} else if (c == '\\') {
			*o++ = '\\';
			*o++ = '\\';
		} else {
			*o++ = c;
		}
	}
	*o++ = '\'';
	*o = '\0';
	*quoted = q;
	return 0;
}

/* Characters a hush word may hold without quotes (cli_hush.c, map[]). */
static bool hush_plain(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.,:/=+@%", *s))
			return false;
	return true;
}

/*
 * bootoctlinux's ADDR: what do_bootoctlinux() takes for an address, hex
 * with or without 0x.  Not a variable such as $loadaddr: a "$" word makes
 * hush parse the whole command a second time (run_pipe_real(), child->sp),
 * which would strip the backslashes of the quoted words once more.
 */
static bool octeon_addr_ok(const char *a)
{
	const char *p = a;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!*p)
		return false;
	for (; *p; p++)
		if (!isxdigit((unsigned char)*p))
			return false;
	return true;
}

/*
 * The bootoctlinux command line (arch/mips/mach-octeon/bootoctlinux.c):
 * its options (coremask=, numcores=, ...) are matched one argv word at
 * a time by prefix, and without endbootargs the kernel gets every word,
 * joined with spaces by the kernel's Octeon prom_init().  So each
 * parameter is its own word (one quoted string would hide coremask=
 * from U-Boot), single-quoted for hush when it needs it.  The command
 * takes at most 32 words (U_BOOT_CMD maxargs), itself and ADDR included.
 */
int ba_octeon_line(const char *addr, const char *merged, char **line,
		   struct errmsg *e)
{
	struct plist l = { 0 };
	struct strbuf sb = { 0 };
	size_t i;
	int rc;

	if (!octeon_addr_ok(addr))
		return errmsg_set(e, -EINVAL, "--octeon wants the ELF image's address in hex (such as 0x20000000), not '%s'",
				  addr);
	rc = split(merged, "the command line", &l, e);
	if (!rc && l.n + 2 > 32)
		rc = errmsg_set(e, -E2BIG, "bootoctlinux takes at most 32 words, and this command line has %zu parameters (at most 30 fit)",
				l.n);
	if (!rc)
		sb_addf(&sb, "bootoctlinux %s", addr);
	for (i = 0; !rc && i < l.n; i++) {
		char *q;

		if (hush_plain(l.v[i].text)) {
			sb_addf(&sb, " %s", l.v[i].text);
		} else if (!(rc = ba_hush_quote(l.v[i].text, &q, e))) {
			sb_addf(&sb, " %s", q);
			free(q);
		}
	}
	plist_free(&l);
	if (rc) {
		free(sb.s);
		return rc;
	}
	*line = sb.s;
	return 0;
}

int ba_env_check(const char *v, bool libubootenv, struct errmsg *e)
{
	size_t n = strlen(v);

	if (libubootenv && n + strlen("bootargs=") > BA_ENV_LINE_MAX)
		return errmsg_set(e, -E2BIG, "the line 'bootargs=...' would be %zu bytes; libubootenv's fw_setenv -s reads at most %d and makes the rest a variable of its own: use --uboot-script",
				  n + strlen("bootargs="), BA_ENV_LINE_MAX);

	if (strpbrk(v, "\n\r"))
		return errmsg_set(e, -EINVAL, "a newline in the command line cannot go into an environment file");
	if (n && v[n - 1] == '\\')
		return errmsg_set(e, -EINVAL, "the command line ends with a backslash, which mkenvimage reads as an embedded newline");
	return 0;
}
