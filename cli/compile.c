// SPDX-License-Identifier: GPL-2.0
/*
 * probecc FILE: compile a probe file into what a boot needs (the
 * command cli/main.c runs when no other is named).
 *
 *   probecc FILE [--cmdline] [-o BOOTCONFIG] [--plan PLAN] [--explain]
 *           [--arch ARCH] [--kernel-version X.Y] [--via cmdline|bootconfig]
 *           [--cmdline-max BYTES] [--stack-method auto|kernel|perf]
 *           [--error-limit N]
 *   probecc --vars FUNC[+OFF] --vmlinux VMLINUX
 *   probecc --vars PATH:FUNC[+OFF] --sysroot DIR
 *   probecc FILE --initrd OUT [--base-initrd IN] [options]
 *   probecc --agent-path ARCH
 *   probecc --version
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "bootconfig.h"
#include "btf.h"
#include "cli.h"
#include "compiler.h"
#include "footer.h"
#include "kernel.h"
#include "version.h"

const char compile_usage[] =
"usage: probecc FILE [options]\n"
"  --cmdline             print the kernel command-line fragment\n"
"  -o PATH               write a bootconfig file (kernel-side setup goes to bootconfig)\n"
"  --plan PATH           write the early-init agent's plan (docs/plan.md)\n"
"  --explain             print where each part of the file went, and why (on stderr\n"
"                        beside --cmdline, so that the fragment stays alone on stdout)\n"
"  --initrd OUT          write an initrd: --base-initrd IN (your own, as it is), then an\n"
"                        overlay cpio with the agent (/probecc/init) and the plan, then the\n"
"                        bootconfig, last; the command line gets rdinit=/probecc/init\n"
"  --base-initrd IN      the initrd --initrd starts with (initramfs-tools, dracut, Buildroot)\n"
"  --arch ARCH           target:"
#define ARCH(NAME, ...) " " #NAME
#include "arch.def"
#undef ARCH
" (default mipsel)\n"
"  --kernel-version X.Y  target kernel version (default 6.1)\n"
"  --via cmdline|bootconfig\n"
"                        where the kernel-side setup goes (default: bootconfig with -o,\n"
"                        else the command line)\n"
"  --cmdline-max BYTES   room the fragment may take (default: COMMAND_LINE_SIZE - 512)\n"
"  --error-limit N       print at most N errors (and N warnings), the first in source order;\n"
"                        0: all (default 20, as clang's -ferror-limit)\n"
"  --crash-dump          the kernel prints the trace on the console when it oopses or panics\n"
"                        (ftrace_dump_on_oops), unless the file says 'crash nodump'\n"
"                        (qemu-images/run-probes gives it)\n"
"  --stack-method auto|kernel|perf\n"
"                        how a kprobe's, event's or function line's \"stack\" is taken: the\n"
"                        kernel's (stacktrace option, trigger, bootconfig action,\n"
"                        func_stack_trace) or the agent's perf callchains\n"
"                        (default auto: perf on MIPS, whose kernel stacks are truncated)\n"
"target kernel (any subset; each lets probecc check more before the boot):\n"
"  --target FILE         a capture of the running kernel (qemu-images/capture)\n"
"  --vmlinux FILE        the ELF kernel: symbols, ftrace call sites, blacklist, version, arch\n"
"                        (with --target: its DWARF only, e.g. Debian's -dbg vmlinux)\n"
"  --system-map FILE     its System.map\n"
"  --kconfig FILE        its .config (gzip'd or not)\n"
"  --modules DIR         its modules (/lib/modules/RELEASE): functions of *.ko\n"
"  --sysroot DIR         the target's root file system: uprobe PATH:SYMBOL to file offsets\n"
"                        (and C names of arguments, from the programs' DWARF)\n"
"  --btf FILE            the kernel's BTF: a copy of /sys/kernel/btf/vmlinux or an ELF kernel\n"
"                        with .BTF (a --target capture of a BTF kernel carries it already)\n"
"With the kernel's BTF, --vmlinux (DWARF) or --sysroot, arguments may be C names:\n"
"dev->name, a.b, p->q[2].\n"
"With no output option, --cmdline is implied.\n"
"\n"
"usage: probecc --vars FUNC[+OFF] --vmlinux VMLINUX | --vars PATH:FUNC[+OFF] --sysroot DIR\n"
"  list the parameters and variables at a probe point: C type, fetcharg or why not\n"
"\n"
"usage: probecc --agent-path ARCH | --version\n"
"  where the early-init agent for ARCH is (installed: BINDIR/../lib/probecc/ARCH/agent;\n"
"  in a source tree: initramfs/agent-ARCH); probecc's version\n"
"\n";

/*
 * The most a probe file may be: 16 MiB, 16 times the most plan the agent
 * reads (PLAN_MAX); more is not a probe file (/dev/zero, a dump).
 */
#define PROBE_FILE_MAX ((size_t)16 << 20)

/* Read all of @path; the text is NUL-terminated and owned by the caller. */
static struct source *read_source(const char *path)
{
	struct source *src = xcalloc(1, sizeof(*src));
	struct errmsg e;
	char *text;

	if (file_read_max(path, PROBE_FILE_MAX, &text, &src->len, &e))
		input_error("%s", e.msg);
	src->name = path;
	src->text = text;
	return src;
}

/*
 * agent_path() - print where the agent for @arch is (agent_find(): where
 * this probecc is installed, else beside a checkout's binary).  Exit 0,
 * or 2 with both places named when neither holds the agent.
 */
static int agent_path(const char *arch)
{
	char path[PATH_MAX];
	struct errmsg e;

	if (agent_find(arch, path, sizeof(path), &e))
		input_error("--agent-path: %s", e.msg);
	printf("%s\n", path);
	stdout_flush();
	return 0;
}

/*
 * write_initrd() - stage --initrd @out: @base (or nothing), the overlay
 * with the agent for @t's arch and @plan, then @bctext's bootconfig
 * (initrd.c).  Returns what went in, in which order, for stderr once
 * the outputs are in place (malloc'd, the caller's): nothing is said
 * of a file that could not be written.
 */
static char *write_initrd(const char *out, const char *base,
			  const struct target *t, const char *plan,
			  size_t plan_len, const char *bctext, const char *sink)
{
	struct initrd_parts p = { .plan = plan, .plan_len = plan_len,
				  .bootconfig = bctext, .base_name = base,
				  .order = bc_footer_order(t->abi->arch, t->kmajor,
							   t->kminor) };
	char agent[PATH_MAX], *abin = NULL, *bbin = NULL;
	unsigned char *img;
	size_t len;
	struct errmsg e;
	struct strbuf note = { 0 };
	struct stat so, sb;

	/* the output replaces its file only at out_commit(): IN + overlay */
	if (base && !stat(out, &so) && !stat(base, &sb) &&
	    so.st_dev == sb.st_dev && so.st_ino == sb.st_ino) {
		out_abort();
		input_error("--initrd %s is --base-initrd %s (the same file): it would become itself plus the overlay, and every run would stack one more; write the final initrd to another file",
			    out, base);
	}
	if (base && initrd_read_base(base, &bbin, &p.base_len, &e)) {
		out_abort();
		input_error("--base-initrd: %s", e.msg);
	}
	if (agent_find(t->abi->arch, agent, sizeof(agent), &e) ||
	    file_read(agent, &abin, &p.agent_len, &e)) {
		out_abort();
		input_error("--initrd: %s", e.msg);
	}
	p.agent = abin;
	p.base = (const unsigned char *)bbin;
	if (initrd_build(&p, &img, &len, &e)) {
		out_abort();
		fatal("--initrd: %s; %s not written", e.msg, out);
	}
	if (out_stage(out, (const char *)img, len, &e))
		output_error("%s", e.msg);
	sb_addf(&note, "probecc: %s: %s%s, then the overlay (%s from %s, /probecc/plan of %zu bytes)%s; boot it with rdinit=%s (in the command line)\n",
		out, base ? base : "no base initrd", base ? " as it was" : "",
		OVERLAY_INIT, agent, plan_len,
		bctext ? ", then the bootconfig, last" : "", OVERLAY_INIT);
	/* "console" and devices outlive switch_root; a file is the agent's, under its root */
	if (sink && strcmp(sink, "console") && strncmp(sink, "/dev/", 5))
		sb_addf(&note, "probecc: warning: dump %s: in overlay mode the agent writes the file under its own root, /.probecc%s, in the initramfs, which the real init frees at switch_root; a device (/dev/ttyS1) or the console outlives it\n",
			sink, sink);
	free(img);
	free(abin);
	free(bbin);
	return note.s;
}

static void parse_version(const char *s, struct target *t)
{
	char *end;
	long major = strtol(s, &end, 10), minor;

	if (end == s || *end != '.')
		input_error("--kernel-version wants X.Y (such as 6.1), not '%s'", s);
	s = end + 1;
	minor = strtol(s, &end, 10);
	if (end == s || (*end && *end != '.' && *end != '-'))
		input_error("--kernel-version wants X.Y (such as 6.1), not '%s'", s);
	if (major < 4 || major > 99 || minor < 0 || minor > 999)
		input_error("kernel version %ld.%ld is out of range (probecc supports 4.0 and later)",
		      major, minor);
	t->kmajor = (int)major;
	t->kminor = (int)minor;
}

/*
 * target_from_kernel() - --arch and --kernel-version from what the
 * kernel says of itself (vmlinux ELF header and banner, the capture's
 * arch and uname) when the user gave none; a contradiction is fatal.
 */
static void target_from_kernel(struct target *t, const struct kernel *k,
			       const char **arch)
{
	if (k->arch) {
		if (t->arch_default)
			*arch = k->arch;
		else if (strcmp(*arch, k->arch))
			fatal("--arch %s, but the target kernel is %s", *arch,
			      k->arch);
		t->arch_default = false;
	}
	if (k->release) {
		struct target kt = *t;

		parse_version(k->release, &kt);
		if (!t->version_default &&
		    (kt.kmajor != t->kmajor || kt.kminor != t->kminor))
			fatal("--kernel-version %d.%d, but the target kernel is %s",
			      t->kmajor, t->kminor, k->release);
		t->kmajor = kt.kmajor;
		t->kminor = kt.kminor;
		t->version_default = false;
	}
}

/* What one run of probecc FILE is given, and what it learns of the target. */
struct job {
	const char *file;			/* the probe file */
	const char *bcpath, *planpath, *via;	/* -o, --plan, --via */
	const char *arch;			/* --arch, or the kernel's */
	const char *tpath, *vmlinux, *sysmap, *kconfig, *modules, *sysroot, *btf;
	const char *vars, *agent_arch;		/* --vars, --agent-path */
	const char *initrd, *base_initrd;
	bool want_cmdline, want_explain;
	struct target t;
	struct kernel *k;
	struct kernel *dk;			/* symbols for the DWARF (--vmlinux's) */
	struct strbuf checks;			/* --explain's account of the checks */
	void (*usage)(FILE *f);			/* every command's (cli/main.c) */
};

/*
 * options() - the command line into @j.  -1 to go on, else the exit
 * status (--help, --version: 0; bad usage: 2, the usage printed).
 */
static int options(int argc, char **argv, struct job *j)
{
	enum { OPT_CMDLINE = 256, OPT_PLAN, OPT_EXPLAIN, OPT_ARCH, OPT_KVER,
	       OPT_VIA, OPT_CMAX, OPT_TARGET, OPT_VMLINUX, OPT_SYSMAP,
	       OPT_KCONFIG, OPT_MODULES, OPT_SYSROOT, OPT_STACK, OPT_VARS,
	       OPT_AGENT, OPT_INITRD, OPT_BASE_INITRD, OPT_ERRLIMIT, OPT_CRASH,
	       OPT_BTF };
	static const struct option longopts[] = {
		{ "cmdline", no_argument, NULL, OPT_CMDLINE },
		{ "plan", required_argument, NULL, OPT_PLAN },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "arch", required_argument, NULL, OPT_ARCH },
		{ "kernel-version", required_argument, NULL, OPT_KVER },
		{ "via", required_argument, NULL, OPT_VIA },
		{ "cmdline-max", required_argument, NULL, OPT_CMAX },
		{ "error-limit", required_argument, NULL, OPT_ERRLIMIT },
		{ "stack-method", required_argument, NULL, OPT_STACK },
		{ "crash-dump", no_argument, NULL, OPT_CRASH },
		{ "target", required_argument, NULL, OPT_TARGET },
		{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
		{ "btf", required_argument, NULL, OPT_BTF },
		{ "system-map", required_argument, NULL, OPT_SYSMAP },
		{ "kconfig", required_argument, NULL, OPT_KCONFIG },
		{ "modules", required_argument, NULL, OPT_MODULES },
		{ "sysroot", required_argument, NULL, OPT_SYSROOT },
		{ "vars", required_argument, NULL, OPT_VARS },
		{ "agent-path", required_argument, NULL, OPT_AGENT },
		{ "initrd", required_argument, NULL, OPT_INITRD },
		{ "base-initrd", required_argument, NULL, OPT_BASE_INITRD },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			j->bcpath = optarg;
			break;
		case OPT_CMDLINE:
			j->want_cmdline = true;
			break;
		case OPT_PLAN:
			j->planpath = optarg;
			break;
		case OPT_EXPLAIN:
			j->want_explain = true;
			break;
		case OPT_ARCH:
			j->arch = optarg;
			j->t.arch_default = false;
			break;
		case OPT_KVER:
			parse_version(optarg, &j->t);
			j->t.version_default = false;
			break;
		case OPT_VIA:
			j->via = optarg;
			break;
		case OPT_CMAX:
			if (arg_int(optarg, 1, INT_MAX, &j->t.cmdline_max))
				input_error("--cmdline-max wants a number of bytes from 1 to %d, not '%s'",
					    INT_MAX, optarg);
			break;
		case OPT_ERRLIMIT:
			if (arg_int(optarg, 0, INT_MAX, &diag_limit))
				input_error("--error-limit wants a number from 0 (all) to %d, not '%s'",
					    INT_MAX, optarg);
			break;
		case OPT_CRASH:
			j->t.crash_dump = true;
			break;
		case OPT_STACK:
			if (!strcmp(optarg, "auto"))
				j->t.stack_method = STACK_AUTO;
			else if (!strcmp(optarg, "kernel"))
				j->t.stack_method = STACK_KERNEL;
			else if (!strcmp(optarg, "perf"))
				j->t.stack_method = STACK_PERF;
			else
				input_error("--stack-method is auto, kernel or perf, not '%s'", optarg);
			break;
		case OPT_TARGET:
			j->tpath = optarg;
			break;
		case OPT_VMLINUX:
			j->vmlinux = optarg;
			break;
		case OPT_BTF:
			j->btf = optarg;
			break;
		case OPT_SYSMAP:
			j->sysmap = optarg;
			break;
		case OPT_KCONFIG:
			j->kconfig = optarg;
			break;
		case OPT_MODULES:
			j->modules = optarg;
			break;
		case OPT_SYSROOT:
			j->sysroot = optarg;
			break;
		case OPT_VARS:
			j->vars = optarg;
			break;
		case OPT_AGENT:
			j->agent_arch = optarg;
			break;
		case OPT_INITRD:
			j->initrd = optarg;
			break;
		case OPT_BASE_INITRD:
			j->base_initrd = optarg;
			break;
		case 'V':
			printf("probecc %s\n", PROBECC_VERSION);
			stdout_flush();
			return 0;
		case 'h':
			j->usage(stdout);
			return 0;
		default:
			j->usage(stderr);
			return 2;
		}
	}
	if (j->agent_arch) {
		if (optind != argc) {
			j->usage(stderr);
			return 2;
		}
		return agent_path(j->agent_arch);
	}
	if (optind != argc - (j->vars ? 0 : 1)) {
		j->usage(stderr);
		return 2;
	}
	j->file = j->vars ? NULL : argv[optind];
	return -1;
}

/*
 * setup() - the target: the kernel's facts loaded (facts/), --arch and
 * --kernel-version from them, the ABI, the budget and where the
 * kernel-side setup goes.  Bad options and unreadable inputs exit 2.
 */
static void setup(struct job *j)
{
	struct errmsg e;

	/* the kernel as it is: its own word beats the defaults */
	if ((j->tpath && kernel_load_target(j->k, j->tpath, &e)) ||
	    (j->vmlinux && !j->tpath && kernel_load_vmlinux(j->k, j->vmlinux, &e)) ||
	    (j->sysmap && !j->k->syms_known && kernel_load_system_map(j->k, j->sysmap, &e)) ||
	    (j->kconfig && kernel_load_kconfig(j->k, j->kconfig, &e)) ||
	    (j->modules && kernel_load_modules(j->k, j->modules, &e)))
		input_error("%s", e.msg);
	kernel_index(j->k);
	j->dk = j->k;
	if (j->tpath && j->vmlinux) {
		/*
		 * The capture is the booted kernel (kallsyms where this boot
		 * put it: Debian's Malta has RANDOMIZE_BASE); the vmlinux
		 * (Debian's -dbg) is its DWARF at link addresses.  Its
		 * symbols find the DWARF, never the kernel's checks.
		 */
		j->dk = kernel_new();
		if (kernel_load_vmlinux(j->dk, j->vmlinux, &e))
			input_error("%s", e.msg);
		kernel_index(j->dk);
		if (j->k->release && j->dk->release && strcmp(j->k->release, j->dk->release))
			input_error("--vmlinux %s is Linux %s, but --target %s is %s: the DWARF must be the booted kernel's",
				    j->vmlinux, j->dk->release, j->tpath, j->k->release);
		sb_addf(&j->k->sources, "vmlinux %s: its DWARF for C names (the target's symbols for the rest)\n",
			j->vmlinux);
	}
	/* the kernel's BTF: --btf, else the capture's copy */
	if (j->btf)
		j->t.btf = kbtf_open(j->btf, &e);
	else if (j->k->btf)
		j->t.btf = kbtf_from_raw(j->k->btf, j->k->nbtf,
					 xasprintf("/sys/kernel/btf/vmlinux of %s", j->tpath), &e);
	if ((j->btf || j->k->btf) && !j->t.btf)
		input_error("%s", e.msg);
	if (j->t.btf)
		sb_addf(&j->k->sources, "BTF %s: %u types, for C names and +OFF(argN) checks\n",
			kbtf_what(j->t.btf), kbtf_ntypes(j->t.btf));
	target_from_kernel(&j->t, j->k, &j->arch);
	j->t.vmlinux = j->vmlinux;
	j->t.k = j->k;	/* resolve (BTF names) reads it too */
	j->t.modules = j->modules;
	j->t.btf_mods = btf_modules_new();
	j->t.boot_config = (signed char)kconfig_tristate(j->k, "CONFIG_BOOT_CONFIG");
	j->t.boottime_tracing = (signed char)kconfig_tristate(j->k, "CONFIG_BOOTTIME_TRACING");
	j->t.hist_triggers = (signed char)kconfig_tristate(j->k, "CONFIG_HIST_TRIGGERS");

	j->t.abi = abi_find(j->arch);
	if (!j->t.abi)
		input_error("unknown --arch '%s' (known: %s)", j->arch, arch_names());
	if (j->t.cmdline_max < 0)
		j->t.cmdline_max = budget_default(j->t.abi);
	else if (getenv("PROBECC_CMDLINE_MAX_FROM") && *getenv("PROBECC_CMDLINE_MAX_FROM"))
		j->t.cmdline_max_from = getenv("PROBECC_CMDLINE_MAX_FROM");
	else
		j->t.cmdline_max_from = "--cmdline-max";
	if (j->t.cmdline_max > j->t.abi->cmdline_size - 1)
		input_error("--cmdline-max %d is more than %s's COMMAND_LINE_SIZE (%d) allows",
		      j->t.cmdline_max, j->t.abi->arch, j->t.abi->cmdline_size);
	if (!j->via)
		j->t.via = j->bcpath ? VIA_BOOTCONFIG : VIA_CMDLINE;
	else if (!strcmp(j->via, "cmdline"))
		j->t.via = VIA_CMDLINE;
	else if (!strcmp(j->via, "bootconfig"))
		j->t.via = VIA_BOOTCONFIG;
	else
		input_error("--via wants cmdline or bootconfig, not '%s'", j->via);
	if (j->bcpath && j->t.via != VIA_BOOTCONFIG)
		input_error("-o writes a bootconfig file, but --via cmdline puts nothing in it");
	if (j->base_initrd && !j->initrd)
		input_error("--base-initrd is the initrd --initrd OUT starts with; give --initrd");
	j->t.overlay = j->initrd != NULL;
	if (!j->bcpath && !j->planpath && !j->want_explain)
		j->want_cmdline = true;
}

/*
 * compile() - read -> lex -> parse -> resolve (uprobes, C names) ->
 * check -> place -> budget -> warn: every stage that can refuse the
 * program records what it finds and returns a count; here is where
 * that ends the run.  0 with *@pl and *@prog, or 1 after the errors.
 */
static int compile(struct job *j, struct program **progp, struct placement **plp)
{
	struct diags diags = { 0 }, warnings = { 0 }, notes = { 0 }, hints = { 0 };
	struct placement *pl;
	struct program *prog;
	struct token *toks;
	struct source *src;
	int nerr, nkernel;

	src = read_source(j->file);
	toks = tokenize(src, &diags);
	prog = toks ? parse(toks, &diags) : NULL;
	if (!prog) {
		diag_print(&diags);
		return 1;
	}
	nerr = resolve_uprobes(prog, j->sysroot, j->t.abi, &diags, &warnings);
	if (nerr) {
		diag_print_as(&warnings, "warning");
		diag_print(&diags);
		fprintf(stderr, "probecc: %d error%s in uprobes against %s\n",
			nerr, nerr == 1 ? "" : "s", j->sysroot ? j->sysroot : "no --sysroot");
		return 1;
	}
	nerr = resolve_cnames(prog, j->dk, j->vmlinux, j->sysroot, &j->t, &j->checks, &diags);
	if (nerr) {
		diag_print_as(&warnings, "warning");
		diag_print(&diags);
		fprintf(stderr, "probecc: %d error%s in C names against the debug info\n",
			nerr, nerr == 1 ? "" : "s");
		return 1;
	}
	if (j->t.btf)
		btf_check_raw(j->t.btf, prog, &j->t, &warnings);
	nerr = check_program(prog, j->k, &j->t, &j->checks, &diags, &warnings, &nkernel);
	if (nerr) {
		diag_print_as(&warnings, "warning");
		diag_print(&diags);
		if (nkernel)
			fprintf(stderr, "probecc: %d error%s against the target kernel%s%s\n",
				nkernel, nkernel == 1 ? "" : "s",
				j->k->release ? " " : "", j->k->release ? j->k->release : "");
		return 1;
	}
	pl = place(prog, &j->t);
	if (budget_check(pl, &j->t, &diags, &notes, &hints)) {
		diag_print_as(&warnings, "warning");
		diag_print(&diags);
		diag_print_as(&notes, "note");
		diag_print_as(&hints, "hint");
		return 1;
	}
	/* one list, so --error-limit holds for every warning of the file */
	warn_placement(prog, j->k, &j->t, pl, &warnings);
	diag_print_as(&warnings, "warning");
	diag_free(&warnings);
	*progp = prog;
	*plp = pl;
	return 0;
}

/*
 * outputs() - the outputs: every file staged, then all renamed or none
 * (common/output.c), then what goes to standard output.  Exit status 0;
 * what cannot be written exits 2.
 */
static int outputs(struct job *j, struct program *prog, struct placement *pl)
{
	struct errmsg e;
	char *bctext = NULL, *initrd_note = NULL;

	/* emit: outputs all staged, then all renamed, or none */
	if (j->bcpath || (j->initrd && !bc_empty(pl->bootconfig))) {
		char *text = NULL;
		size_t len = 0;

		/*
		 * lib/bootconfig.c refuses a config without a key ("Empty
		 * config"), comments or not: say so instead of writing one.
		 */
		if (bc_empty(pl->bootconfig))
			fatal("nothing of %s goes into bootconfig (--explain says where each part went), and the kernel refuses an empty bootconfig (lib/bootconfig.c: \"Empty config\"); %s not written",
			      j->file, j->bcpath);
		if (emit_bootconfig(pl, &text, &len, &e))
			fatal("%s", e.msg);
		if (j->bcpath && out_stage(j->bcpath, text, len, &e))
			output_error("%s", e.msg);
		bctext = text;
	}
	if (j->planpath || j->initrd) {
		size_t len;
		char *text = emit_plan(prog, &j->t, pl, &len);

		/* more would be dropped by the agent, which reads so much */
		if (len > PLAN_MAX)
			fatal("the plan is %zu bytes; the agent reads at most %d (AGENT_PLAN_MAX, initramfs/agent.h): fewer probes, or more of them on the command line or in bootconfig",
			      len, PLAN_MAX);

		if (j->planpath && out_stage(j->planpath, text, len, &e))
			output_error("%s", e.msg);
		if (j->initrd)
			initrd_note = write_initrd(j->initrd, j->base_initrd, &j->t,
						   text, len, bctext, prog->sink);
		free(text);
	}
	free(bctext);
	if (out_commit(&e))
		output_error("%s", e.msg);
	if (initrd_note) {
		fputs(initrd_note, stderr);
		free(initrd_note);
	}
	if (j->want_cmdline) {
		char *text = emit_cmdline(pl);

		printf("%s\n", text);
		free(text);
	}
	/* never into a fragment redirected to a file: stderr beside --cmdline */
	if (j->want_explain)
		emit_explain(pl, j->checks.s, j->want_cmdline ? stderr : stdout);
	bc_free(pl->bootconfig);
	stdout_flush();
	return 0;
}

/* --vars: what is reachable at a probe point (resolve_list_vars()). */
static int list_vars(struct job *j)
{
	struct strbuf out = { 0 };
	int rc = resolve_list_vars(j->vars, j->dk, j->vmlinux, j->sysroot, &j->t, &out);

	if (out.s)
		fputs(out.s, stdout);
	stdout_flush();
	return rc;
}

/*
 * An output that is one of the inputs (the probe file, a kernel's file)
 * would overwrite what is read: refused before anything is, 2.
 */
static void outputs_not_inputs(const struct job *j)
{
	const char *out[] = { j->bcpath, j->planpath, j->initrd };
	const char *oname[] = { "-o", "--plan", "--initrd" };
	const char *in[] = { j->file, j->tpath, j->vmlinux, j->sysmap, j->kconfig, j->btf, j->base_initrd };
	const char *iname[] = { "the probe file", "--target", "--vmlinux", "--system-map", "--kconfig",
				"--btf", "--base-initrd" };
	size_t o, i;

	for (o = 0; o < ARRAY_SIZE(out); o++)
		for (i = 0; i < ARRAY_SIZE(in); i++)
			/* --initrd over --base-initrd: write_initrd() says why */
			if ((o != 2 || i != 6) && out_is_input(out[o], in[i]))
				input_error("%s %s is %s (the same file): refused, it would be overwritten",
					    oname[o], out[o], iname[i]);
}

int compile_main(int argc, char **argv, void (*usage)(FILE *f))
{
	struct job j = { .arch = "mipsel", .k = kernel_new(), .usage = usage,
			 .t = { .kmajor = 6, .kminor = 1, .arch_default = true,
				.version_default = true, .cmdline_max = -1 } };
	struct placement *pl;
	struct program *prog;
	int rc = options(argc, argv, &j);

	if (rc >= 0)
		return rc;
	outputs_not_inputs(&j);
	setup(&j);
	if (j.vars)
		return list_vars(&j);
	if (compile(&j, &prog, &pl))
		return 1;
	return outputs(&j, prog, pl);
}
