// SPDX-License-Identifier: GPL-2.0
/*
 * probecc bootargs: the command line, and the only place of bootargs/
 * that prints an error and chooses an exit status (0 done; 1 the inputs
 * were refused: a conflict, a quote, a tree libfdt rejects; 2 bad usage
 * or a file that cannot be read).  The work is bootargs.c's (merge,
 * U-Boot quoting) and fdt.c's (device trees); the outputs are staged and
 * renamed together (common/output.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "bootargs.h"
#include "common.h"

/* All of @path ("-": standard input): a command line, no NUL byte in it. */
static char *read_cmdline(const char *path)
{
	struct errmsg e;
	char *text;
	size_t len;
	int rc;

	if (strcmp(path, "-")) {
		if (file_read(path, &text, &len, &e))
			input_error("%s", e.msg);
	} else if ((rc = file_read_stream(stdin, &text, &len))) {
		input_error("cannot read %s: %s", path, strerror(-rc));
	}
	if (memchr(text, '\0', len))
		fatal("%s: a NUL byte: not a command line", path);
	return text;
}

const char bootargs_synopsis[] =
"usage: probecc bootargs --fragment FILE|- [--bootargs EXISTING] [--replace]\n"
"                        (--print | --uboot-script OUT | --uboot-env OUT | --fw-script OUT |\n"
"                         --octeon ADDR | --dtb IN -o OUT)\n";

static const char usage[] =
"usage: probecc bootargs --fragment FILE|- [--bootargs EXISTING] [--replace] OUTPUT\n"
"  merge probecc's command-line fragment (probecc FILE --cmdline) into a\n"
"  boot loader's kernel command line: EXISTING's own parameters stay, its\n"
"  tracing ones (from an earlier run) go, the fragment comes last\n"
"  --replace             drop an old tracing value that differs from the fragment's\n"
"  --arch ARCH           the kernel's arch, for its COMMAND_LINE_SIZE (default mipsel)\n"
"OUTPUT, one of:\n"
"  --print               the merged command line, as is\n"
"  --uboot-script OUT    \"setenv bootargs '...'\", quoted for U-Boot's hush;\n"
"                        mkimage -A ARCH -T script -C none -d OUT boot.scr\n"
"  --uboot-env OUT       \"bootargs=...\" for mkenvimage and libubootenv's fw_setenv -s\n"
"  --fw-script OUT       \"bootargs ...\" for U-Boot's tools/env fw_setenv -s\n"
"  --octeon ADDR         print \"bootoctlinux ADDR ...\" for Octeon's U-Boot prompt\n"
"  --dtb IN -o OUT       the device tree IN with /chosen/bootargs merged (EXISTING\n"
"                        is IN's /chosen/bootargs)\n";

enum { OPT_FRAG = 256, OPT_EXISTING, OPT_REPLACE, OPT_SCRIPT, OPT_ENV,
       OPT_FW, OPT_OCTEON, OPT_PRINT, OPT_DTB, OPT_ARCH };

/* One run of probecc bootargs: its options, then what it read and made. */
struct ba_job {
	const char *fragpath, *existing, *from;	/* from: what EXISTING is, for messages */
	const char *target, *outpath;		/* the output's file (or ADDR), --dtb's -o */
	const char *arch;
	const struct arch *a;
	bool replace;
	int mode;				/* OPT_PRINT, OPT_SCRIPT, ... */
	char *frag, *merged, *from_buf;
	void *dtb;				/* --dtb IN, read */
	size_t dtb_len;
};

/*
 * options() - the command line into @j: -1 to go on, else the exit
 * status (--help 0; bad usage 2, the usage printed).
 */
static int options(int argc, char **argv, struct ba_job *j)
{
	static const struct option longopts[] = {
		{ "fragment", required_argument, NULL, OPT_FRAG },
		{ "bootargs", required_argument, NULL, OPT_EXISTING },
		{ "replace", no_argument, NULL, OPT_REPLACE },
		{ "arch", required_argument, NULL, OPT_ARCH },
		{ "uboot-script", required_argument, NULL, OPT_SCRIPT },
		{ "uboot-env", required_argument, NULL, OPT_ENV },
		{ "fw-script", required_argument, NULL, OPT_FW },
		{ "octeon", required_argument, NULL, OPT_OCTEON },
		{ "print", no_argument, NULL, OPT_PRINT },
		{ "dtb", required_argument, NULL, OPT_DTB },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int modes = 0, c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FRAG:
			j->fragpath = optarg;
			break;
		case OPT_EXISTING:
			j->existing = optarg;
			break;
		case OPT_REPLACE:
			j->replace = true;
			break;
		case OPT_ARCH:
			j->arch = optarg;
			break;
		case OPT_SCRIPT:
		case OPT_ENV:
		case OPT_FW:
		case OPT_OCTEON:
		case OPT_DTB:
			j->target = optarg;
			/* fall through */
		case OPT_PRINT:
			j->mode = c;
			modes++;
			break;
		case 'o':
			j->outpath = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc || modes != 1 || !j->fragpath ||
	    (j->mode == OPT_DTB) != (j->outpath != NULL)) {
		fprintf(stderr, "probecc bootargs: %s\n",
			optind != argc ? "unexpected argument" :
			modes != 1 ? "give exactly one output" :
			!j->fragpath ? "--fragment FILE (or - for standard input) is needed" :
			j->outpath ? "-o goes with --dtb" : "--dtb IN needs -o OUT");
		fputs(usage, stderr);
		return 2;
	}
	if (j->mode == OPT_DTB && (!strcmp(j->outpath, "-") || !strcmp(j->outpath, "/dev/stdout")))
		fatal("-o %s: a device tree is binary; give a file", j->outpath);
	if (j->mode == OPT_DTB && j->existing)
		fatal("--bootargs with --dtb: the existing command line is the tree's /chosen/bootargs");
	j->a = arch_find(j->arch);
	if (!j->a) {
		fprintf(stderr, "probecc bootargs: unknown --arch '%s' (known: %s)\n", j->arch, arch_names());
		return 2;
	}
	return -1;
}

/* setup() - the fragment read, and with --dtb the tree and its /chosen/bootargs. */
static void setup(struct ba_job *j)
{
	struct errmsg e;

	j->frag = read_cmdline(j->fragpath);
	if (j->mode == OPT_DTB) {
		int rc = dtb_read(j->target, &j->dtb, &j->dtb_len, &e);

		if (rc == -EINVAL)
			fatal("%s", e.msg);
		else if (rc)
			input_error("%s", e.msg);
		if (dtb_bootargs(j->dtb, j->target, &j->existing, &e))
			fatal("%s", e.msg);
		j->from = j->from_buf = xasprintf("%s's /chosen/bootargs", j->target);
	}
}

/* merge() - the fragment merged into the existing line (bootargs.c), within COMMAND_LINE_SIZE. */
static void merge(struct ba_job *j)
{
	struct errmsg e;

	if (ba_merge(j->existing, j->from, j->frag, j->replace, &j->merged, &e))
		fatal("%s", e.msg);
	/*
	 * The kernel keeps COMMAND_LINE_SIZE - 1 bytes of it (strscpy in
	 * setup_arch; the sizes in common/arch.def); the fragment comes last,
	 * so it is what a longer line loses.
	 */
	if (strlen(j->merged) + 1 > (size_t)j->a->cmdline_size)
		fatal("the merged command line is %zu bytes; %s's COMMAND_LINE_SIZE is %d, and the kernel would cut the tracing fragment at its end",
		      strlen(j->merged), j->a->name, j->a->cmdline_size);
}

/* outputs() - the merged line in the form asked for, staged and committed. */
static int outputs(struct ba_job *j)
{
	const char *merged = j->merged, *target = j->target;
	char *text = NULL;
	void *newdtb;
	size_t len;
	struct errmsg e;

	switch (j->mode) {
	case OPT_PRINT:
		printf("%s\n", merged);
		break;
	case OPT_OCTEON:
		if (ba_octeon_line(target, merged, &text, &e))
			fatal("%s", e.msg);
		printf("%s\n", text);
		break;
	case OPT_SCRIPT: {
		char *q;

		if (ba_hush_quote(merged, &q, &e))
			fatal("%s", e.msg);
		text = xasprintf("setenv bootargs %s\n", q);
		free(q);
		if (out_stage(target, text, strlen(text), &e))
			output_error("%s", e.msg);
		break;
	}
	case OPT_ENV:
	case OPT_FW:
		if (ba_env_check(merged, j->mode == OPT_ENV, &e))
			fatal("%s", e.msg);
		text = xasprintf("bootargs%s%s\n", j->mode == OPT_ENV ? "=" : " ",
				 merged);
		if (out_stage(target, text, strlen(text), &e))
			output_error("%s", e.msg);
		break;
	case OPT_DTB:
		if (dtb_with_bootargs(j->dtb, merged, &newdtb, &len, &e))
			fatal("%s", e.msg);
		if (out_stage(j->outpath, newdtb, len, &e))
			output_error("%s", e.msg);
		free(newdtb);
		break;
	}
	if (out_commit(&e))
		output_error("%s", e.msg);
	free(text);
	stdout_flush();
	return 0;
}

/* probecc bootargs: options -> setup -> merge -> outputs. */
int bootargs_main(int argc, char **argv)
{
	struct ba_job j = { .from = "--bootargs", .arch = "mipsel" };
	int rc = options(argc, argv, &j);

	if (rc >= 0)
		return rc;
	setup(&j);
	merge(&j);
	rc = outputs(&j);
	free(j.merged);
	free(j.frag);
	free(j.dtb);
	free(j.from_buf);
	return rc;
}
