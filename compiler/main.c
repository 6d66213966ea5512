// SPDX-License-Identifier: GPL-2.0
/*
 * probecc: compile a probe file into what a boot needs.
 *
 *   probecc FILE [--cmdline] [-o BOOTCONFIG] [--plan PLAN] [--explain]
 *           [--arch ARCH] [--kernel-version X.Y] [--via cmdline|bootconfig]
 *           [--cmdline-max BYTES]
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bootconfig.h"
#include "probecc.h"

static const char usage[] =
"usage: probecc FILE [options]\n"
"  --cmdline             print the kernel command-line fragment\n"
"  -o PATH               write a bootconfig file (kernel-side setup goes to bootconfig)\n"
"  --plan PATH           write the early-init agent's plan (docs/plan.md)\n"
"  --explain             print where each part of the file went, and why\n"
"  --arch ARCH           target: mips mipsel mips64 mips64el x86_64 arm64 riscv64 (default mipsel)\n"
"  --kernel-version X.Y  target kernel version (default 6.1)\n"
"  --via cmdline|bootconfig\n"
"                        where the kernel-side setup goes (default: bootconfig with -o,\n"
"                        else the command line)\n"
"  --cmdline-max BYTES   room the fragment may take (default: COMMAND_LINE_SIZE - 512)\n"
"With no output option, --cmdline is implied.\n"
"\n"
"usage: probecc report DUMP [--probes FILE] [--json OUT] [--folded OUT] [--svg OUT] [--junit OUT]\n"
"                      [--system-map FILE]\n"
"  summarise the agent's dumps and check the probe file's expectations\n";

/* Read all of @path; the text is NUL-terminated and owned by the caller. */
static struct source *read_source(const char *path)
{
	struct source *src = xcalloc(1, sizeof(*src));
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, len = 0, n;
	char *buf;

	if (!f)
		fatal("cannot open %s: %s", path, strerror(errno));
	buf = xcalloc(1, cap);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				fatal("out of memory");
		}
	}
	if (ferror(f))
		fatal("cannot read %s: %s", path, strerror(errno));
	fclose(f);
	buf[len] = '\0';
	src->name = path;
	src->text = buf;
	src->len = len;
	return src;
}

static void parse_version(const char *s, struct target *t)
{
	char *end;
	long major = strtol(s, &end, 10), minor;

	if (end == s || *end != '.')
		fatal("--kernel-version wants X.Y (such as 6.1), not '%s'", s);
	s = end + 1;
	minor = strtol(s, &end, 10);
	if (end == s || (*end && *end != '.' && *end != '-'))
		fatal("--kernel-version wants X.Y (such as 6.1), not '%s'", s);
	if (major < 4 || major > 99 || minor < 0 || minor > 999)
		fatal("kernel version %ld.%ld is out of range (probecc supports 4.0 and later)",
		      major, minor);
	t->kmajor = (int)major;
	t->kminor = (int)minor;
}

static void stage(const char *path, const char *data, size_t len)
{
	if (out_stage(path, data, len)) {
		int err = errno;

		out_abort();
		fatal("cannot write %s: %s", path, strerror(err));
	}
}

int main(int argc, char **argv)
{
	enum { OPT_CMDLINE = 256, OPT_PLAN, OPT_EXPLAIN, OPT_ARCH, OPT_KVER,
	       OPT_VIA, OPT_CMAX };
	static const struct option longopts[] = {
		{ "cmdline", no_argument, NULL, OPT_CMDLINE },
		{ "plan", required_argument, NULL, OPT_PLAN },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "arch", required_argument, NULL, OPT_ARCH },
		{ "kernel-version", required_argument, NULL, OPT_KVER },
		{ "via", required_argument, NULL, OPT_VIA },
		{ "cmdline-max", required_argument, NULL, OPT_CMAX },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bcpath = NULL, *planpath = NULL, *via = NULL;
	const char *arch = "mipsel";
	struct target t = { .kmajor = 6, .kminor = 1, .arch_default = true,
			    .version_default = true, .cmdline_max = -1 };
	bool want_cmdline = false, want_explain = false;
	struct placement *pl;
	struct program *prog;
	struct source *src;
	int c;

	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_main(argc - 1, argv + 1);
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			bcpath = optarg;
			break;
		case OPT_CMDLINE:
			want_cmdline = true;
			break;
		case OPT_PLAN:
			planpath = optarg;
			break;
		case OPT_EXPLAIN:
			want_explain = true;
			break;
		case OPT_ARCH:
			arch = optarg;
			t.arch_default = false;
			break;
		case OPT_KVER:
			parse_version(optarg, &t);
			t.version_default = false;
			break;
		case OPT_VIA:
			via = optarg;
			break;
		case OPT_CMAX: {
			char *end;

			t.cmdline_max = (int)strtol(optarg, &end, 10);
			if (*end || t.cmdline_max <= 0)
				fatal("--cmdline-max wants a positive number of bytes");
			break;
		}
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		return 2;
	}
	t.abi = abi_find(arch);
	if (!t.abi)
		fatal("unknown --arch '%s' (known: %s)", arch, abi_names());
	if (t.cmdline_max < 0)
		t.cmdline_max = t.abi->cmdline_size - 512;
	if (t.cmdline_max > t.abi->cmdline_size - 1)
		fatal("--cmdline-max %d is more than %s's COMMAND_LINE_SIZE (%d) allows",
		      t.cmdline_max, t.abi->arch, t.abi->cmdline_size);
	if (!via)
		t.via = bcpath ? VIA_BOOTCONFIG : VIA_CMDLINE;
	else if (!strcmp(via, "cmdline"))
		t.via = VIA_CMDLINE;
	else if (!strcmp(via, "bootconfig"))
		t.via = VIA_BOOTCONFIG;
	else
		fatal("--via wants cmdline or bootconfig, not '%s'", via);
	if (bcpath && t.via != VIA_BOOTCONFIG)
		fatal("-o writes a bootconfig file, but --via cmdline puts nothing in it");
	if (!bcpath && !planpath && !want_explain)
		want_cmdline = true;

	/* read -> tokens -> program -> placement */
	src = read_source(argv[optind]);
	prog = parse(tokenize(src));
	pl = place(prog, &t);

	/* outputs: all staged, then all renamed, or none */
	if (bcpath) {
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);
		int err;

		if (!mem)
			fatal("out of memory");
		fputs("# bootconfig compiled by probecc\n", mem);
		err = bc_write(pl->bootconfig, mem);
		if (fclose(mem) || err)
			fatal("cannot write the bootconfig: %s",
			      bc_strerror(err ? err : BC_ERR_IO));
		stage(bcpath, text, len);
		free(text);
	}
	if (planpath)
		stage(planpath, pl->plan.s, pl->plan.len);
	if (out_commit()) {
		int err = errno;

		out_abort();
		fatal("cannot rename the outputs into place: %s", strerror(err));
	}
	if (want_cmdline)
		printf("%s\n", pl->cmdline.s ? pl->cmdline.s : "");
	if (want_explain)
		fputs(pl->explain.s, stdout);
	bc_free(pl->bootconfig);
	return fflush(stdout) ? 1 : 0;
}
