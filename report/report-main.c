// SPDX-License-Identifier: GPL-2.0
/*
 * probecc report: the command line.  Reads the options, loads the probe
 * file and the kernel's symbols, reads the dump (dump.c), checks the
 * expectations (expect.c), prints the report (text.c) and writes the
 * machine outputs (json.c, folded.c, svg.c, junit.c), staged and renamed
 * together.  The only place of the report that chooses an exit status.
 */
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"
#include "lavalog.h"
#include "report.h"

const char report_usage[] =
	"usage: probecc report DUMP... [--probes FILE] [--json OUT] [--folded OUT] [--svg OUT] [--junit OUT]\n"
	"                      [--perfetto OUT] [--baseline BASE...] [--threshold CLASS=VALUE]... [--force]\n"
	"                      [--system-map FILE] [--target FILE] [--vmlinux FILE] [--modules DIR]\n"
	"                      [--sysroot DIR] [--hits] [--previous NEXT]\n"
	"                      [--console LOG] [--boot-end WORD] [--append FILE] [--boot-only]\n"
	"       probecc report --extract N DUMP | --list DUMP | --trace-dat OUT DUMP\n"
	"       probecc report --boot-verdicts\n";

static const char help[] =
	"\n"
	"Reads the agent's dumps (DUMP: the raw capture of the dump channel;\n"
	"- reads it from standard input; a LAVA job log, read as the console it\n"
	"recorded, whose job result is the boot's end: docs/lava.md),\n"
	"prints hits, arguments and callers per probe, checks the probe file's\n"
	"expectations and writes the machine outputs asked for.\n"
	"\n"
	"  --probes FILE      the probe file: its \"expect\" lines are checked\n";

/*
 * The machine outputs, a row each: --NAME OUT, its help line, the member
 * of struct report that holds OUT, and the writer.  A new format is a row
 * here, its member, and its writer (report/NAME.c, listed in report-int.h
 * and Makefile.report).
 */
static const struct report_output {
	const char *name;
	const char *help;
	size_t path;	/* offsetof(struct report, the OUT path) */
	void (*write)(FILE *f, const struct report *r);
} outputs[] = {
	{ "json", "every hit and verdict as JSON (- : standard output,\n"
		  "                     then the text report is not printed)",
	  offsetof(struct report, json), json_write },
	{ "folded", "folded stacks (flamegraph.pl)",
	  offsetof(struct report, folded), folded_write },
	{ "svg", "a timeline of the hits",
	  offsetof(struct report, svg), svg_write },
	{ "junit", "one JUnit testcase per expectation, and \"complete dump\";\n"
		   "                     with --baseline one per compared metric",
	  offsetof(struct report, junit), junit_write },
	{ "perfetto", "the hits as Trace Event Format JSON (Perfetto, chrome://tracing)",
	  offsetof(struct report, perfetto), perfetto_write },
	{ "kcidb", "the verdicts as KCIDB I/O JSON (schema 5.3; docs/lava.md)",
	  offsetof(struct report, kcidb), kcidb_write },
};

static const char help_tail[] =
	"  --system-map FILE  kernel symbols: a System.map or /proc/kallsyms copy\n"
	"  --target FILE      kernel symbols: a capture (qemu-images/capture)\n"
	"  --vmlinux FILE     kernel symbols: the ELF kernel\n"
	"  --modules DIR      the image's /lib/modules/RELEASE, names module frames\n"
	"  --sysroot DIR      the target's root file system: names user stack\n"
	"                     frames, checks uprobe offsets the kernel refused\n"
	"  --hits             every hit's arguments (without it, up to 8 a probe)\n"
	"  --console LOG      the boot's console log: how the boot ended (a panic and\n"
	"                     its message, task, EPC/RIP and stack; an oops; PID 1's\n"
	"                     exit) becomes the boot verdict, in every output; the\n"
	"                     kernel's own ftrace dump there (ftrace_dump_on_oops) is\n"
	"                     read into the hits, each event counted once\n"
	"  --boot-end WORD    what the boot runner saw (qemu-images/boot): poweroff,\n"
	"                     until, timeout, reset, panic, oops, qemu, reboot\n"
	"  --append FILE      the command line the boot was given: the dump's\n"
	"                     /proc/cmdline must end with it (else cmdline-cut)\n"
	"  --boot-only        the boot verdict alone: no expectation is checked\n"
	"  --boot-verdicts    print the boot verdicts and their exit statuses\n"
	"  --previous NEXT    the next boot's capture (after a reset that kept RAM):\n"
	"                     its dump of the persistent ring buffer (stage previous)\n"
	"                     is DUMP's boot's trace, read in place of DUMP's own\n"
	"  --baseline BASE... compare the DUMPs (one boot or N) with these boots: hit\n"
	"                     counts, first hits, phases, initcalls, field values and\n"
	"                     callers; a BASE directory holds ttyS1.raw or run dirs\n"
	"  --threshold CLASS=VALUE\n"
	"                     a regression's threshold: hits=N, oops=N, not armed=N,\n"
	"                     first|phase|initcall|level=DURATION (later by) or =N%\n"
	"  --force            compare boots of another kernel or command line\n"
	"  --kcidb-build ID   --kcidb's build_id (ORIGIN:ID, the lab's build of the\n"
	"                     kernel); default probecc:RELEASE\n"
	"  --kcidb-file NAME=URL\n"
	"                     an artifact of the boot (report, trace.dat, Perfetto)\n"
	"                     where the lab put it: an output file of --kcidb's\n"
	"                     boot.probecc test (up to 16)\n"
	"  --extract N        print dump N's body (its frames checked and taken off)\n"
	"  --list             print the numbers of the complete dumps\n"
	"  --trace-dat OUT    write the raw dumps (\"dump SINK raw\") as a trace.dat for\n"
	"                     trace-cmd report and KernelShark (runs trace-cmd restore)\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit status: 0 every expectation holds (and no regression against the\n"
	"baseline); 1 an expectation failed or a regression; 2 the\n"
	"dump is no complete evidence (cut short, damaged on the way, frames\n"
	"without the boot's nonce, or no dump at all: every expectation fails),\n"
	"bad usage, an input that cannot be read or is not what its option says\n"
	"(a probe file with errors, a missing --target), boots not comparable\n"
	"(kernel, machine or command line differ; --force compares them) or an\n"
	"output that cannot be written.  --extract: 0 printed, 1 no dump N, 3 cut short, 4 damaged\n"
	"(3 and 4 print the checked chunks before the trouble), 2 as above.\n"
	"--trace-dat: 0 written, 2 not (no raw dump, a big-endian target, trace-cmd\n"
	"missing or failing).  With --console, --boot-end or --append, a boot that\n"
	"did not end clean exits with its verdict's status (--boot-verdicts), before\n"
	"any expectation's.\n";

/* OUT of output @o in @r: where parse_args() put it. */
static const char **output_path(struct report *r, const struct report_output *o)
{
	return (const char **)((char *)r + o->path);
}

static const char *output_get(const struct report *r, const struct report_output *o)
{
	return *(const char *const *)((const char *)r + o->path);
}

static void print_help(FILE *f)
{
	size_t i;

	fputs(report_usage, f);
	fputs(help, f);
	for (i = 0; i < ARRAY_SIZE(outputs); i++) {
		char opt[32];

		snprintf(opt, sizeof(opt), "--%s OUT", outputs[i].name);
		fprintf(f, "  %-19s%s\n", opt, outputs[i].help);
	}
	fputs(help_tail, f);
}

enum { OPT_OUTPUT = 0x100 };	/* + the row of outputs[] */

static const struct option base_options[] = {
	{ "probes", required_argument, NULL, 'p' },
	{ "previous", required_argument, NULL, 'N' },
	{ "system-map", required_argument, NULL, 'm' },
	{ "target", required_argument, NULL, 't' },
	{ "vmlinux", required_argument, NULL, 'v' },
	{ "modules", required_argument, NULL, 'd' },
	{ "sysroot", required_argument, NULL, 'r' },
	{ "hits", no_argument, NULL, 'H' },
	{ "extract", required_argument, NULL, 'x' },
	{ "list", no_argument, NULL, 'l' },
	{ "trace-dat", required_argument, NULL, 'T' },
	{ "console", required_argument, NULL, 'c' },
	{ "boot-end", required_argument, NULL, 'b' },
	{ "append", required_argument, NULL, 'a' },
	{ "boot-only", no_argument, NULL, 'B' },
	{ "boot-verdicts", no_argument, NULL, 'V' },
	{ "threshold", required_argument, NULL, 'R' },
	{ "force", no_argument, NULL, 'F' },
	{ "kcidb-build", required_argument, NULL, 'K' },
	{ "kcidb-file", required_argument, NULL, 'U' },
	{ "help", no_argument, NULL, 'h' },
};

/* @path, or its ttyS1.raw, or each RUN/ttyS1.raw below it (run-probes --runs). */
static void add_base(struct report *r, const char *path, int *cap)
{
	struct stat st;
	glob_t g;
	char *one;
	size_t i;

	if (*cap == r->nbases) {
		*cap = *cap ? *cap * 2 : 16;
		r->bases = xrealloc_array(r->bases, *cap, sizeof(*r->bases));
	}
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		r->bases[r->nbases++] = path;	/* read_input() names what is wrong */
		return;
	}
	one = xasprintf("%s/ttyS1.raw", path);
	if (!access(one, F_OK)) {
		r->bases[r->nbases++] = one;
		return;
	}
	free(one);
	one = xasprintf("%s/*/ttyS1.raw", path);
	if (glob(one, 0, NULL, &g) || !g.gl_pathc) {
		r->bases[r->nbases++] = path;	/* a directory: read_input() says so */
	} else {
		for (i = 0; i < g.gl_pathc; i++) {
			if (*cap == r->nbases) {
				*cap *= 2;
				r->bases = xrealloc_array(r->bases, *cap, sizeof(*r->bases));
			}
			r->bases[r->nbases++] = xstrdup(g.gl_pathv[i]);
		}
		globfree(&g);
	}
	free(one);
}

/*
 * "--baseline BASE..." takes every argument after it up to the next
 * option: they are taken out of @argv (*@argc shrinks) before getopt
 * sees it.  2 when it names none.
 */
static int take_baseline(struct report *r, int *argc, char **argv)
{
	int i, j, cap = 0;

	for (i = 1; i < *argc; i++) {
		if (strcmp(argv[i], "--baseline"))
			continue;
		for (j = i + 1; j < *argc && (argv[j][0] != '-' || !argv[j][1]); j++)
			add_base(r, argv[j], &cap);
		if (j == i + 1) {
			fprintf(stderr, "probecc report: --baseline needs a dump or a run directory\n");
			return 2;
		}
		memmove(argv + i, argv + j, (*argc - j + 1) * sizeof(*argv));
		*argc -= j - i;
		i--;
	}
	return 0;
}

/* 0, or 2 after a message on stderr when the command line is wrong. */
static int parse_args(struct report *r, int argc, char **argv)
{
	struct option options[ARRAY_SIZE(base_options) + ARRAY_SIZE(outputs) + 1] = { { 0 } };
	size_t i;
	int c;

	if (take_baseline(r, &argc, argv))
		return 2;
	memcpy(options, base_options, sizeof(base_options));
	for (i = 0; i < ARRAY_SIZE(outputs); i++)
		options[ARRAY_SIZE(base_options) + i] = (struct option){
			outputs[i].name, required_argument, NULL, OPT_OUTPUT + (int)i };
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (c >= OPT_OUTPUT && c < OPT_OUTPUT + (int)ARRAY_SIZE(outputs)) {
			*output_path(r, &outputs[c - OPT_OUTPUT]) = optarg;
			continue;
		}
		switch (c) {
		case 'p': r->probes = optarg; break;
		case 'N': r->previous = optarg; break;
		case 'm': r->sysmap = optarg; break;
		case 't': r->target = optarg; break;
		case 'v': r->vmlinux = optarg; break;
		case 'd': r->modules_dir = optarg; break;
		case 'r': r->sysroot = optarg; break;
		case 'H': r->all_hits = true; break;
		case 'l': r->list = true; break;
		case 'T': r->trace_dat = optarg; break;
		case 'c': r->console = optarg; break;
		case 'a': r->append = optarg; break;
		case 'B': r->boot_only = true; break;
		case 'V':
			fputs("exit status and boot verdict (run-probes, probecc report --console):\n", stdout);
			boot_rows_print(stdout);
			exit(fflush(stdout) || ferror(stdout) ? 2 : 0);
		case 'b':
			if (boot_runner_word(optarg)) {
				fprintf(stderr, "probecc report: --boot-end %s: not one of poweroff, until, timeout, reset, panic, oops, qemu, reboot\n",
					optarg);
				return 2;
			}
			r->boot_end = optarg;
			break;
		case 'F': r->force = true; break;
		case 'K':
			/* KCIDB's id rule: ORIGIN ([a-z0-9_]+) ':' ... */
			if (!strchr(optarg, ':') || strchr(optarg, ':') == optarg ||
			    strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
			    (size_t)(strchr(optarg, ':') - optarg)) {
				fprintf(stderr, "probecc report: --kcidb-build %s: not a KCIDB build id (ORIGIN:ID, ORIGIN of a-z 0-9 _)\n",
					optarg);
				return 2;
			}
			r->kcidb_build = optarg;
			break;
		case 'U':
			if (r->nkcidb_files == KCIDB_FILES_MAX || kcidb_file_check(optarg)) {
				fprintf(stderr, "probecc report: --kcidb-file %s: %s\n", optarg,
					r->nkcidb_files == KCIDB_FILES_MAX ? "more than 16 files" :
					"not NAME=URL (NAME without '/', URL SCHEME:... without spaces or control characters)");
				return 2;
			}
			r->kcidb_files[r->nkcidb_files++] = optarg;
			break;
		case 'R':
			if (compare_threshold(&r->cmp, optarg)) {
				fprintf(stderr, "probecc report: --threshold %s: not CLASS=VALUE (hits=N, oops=N, not armed=N, first|phase|initcall|level=DURATION or N%%)\n",
					optarg);
				return 2;
			}
			break;
		case 'x':
			if (arg_int(optarg, 1, 1000000, &r->extract)) {
				fprintf(stderr, "probecc report: --extract %s: not a dump number\n", optarg);
				return 2;
			}
			break;
		case 'h':
			print_help(stdout);
			exit(0);
		case ':':
			fprintf(stderr, "probecc report: %s needs a file\n", argv[optind - 1]);
			return 2;
		default:
			if (optopt)
				fprintf(stderr, "probecc report: unknown option -%c\n", optopt);
			else
				fprintf(stderr, "probecc report: unknown option %s\n", argv[optind - 1]);
			fputs(report_usage, stderr);
			return 2;
		}
	}
	if (optind < argc)
		r->dumppath = argv[optind];
	r->dumps = (const char **)argv + optind;
	r->ndumps = argc - optind;
	if (r->ndumps > 1 && (r->extract || r->list || r->trace_dat)) {
		fprintf(stderr, "probecc report: --extract, --list and --trace-dat take one DUMP\n");
		return 2;
	}
	if (!r->dumppath) {
		fputs(report_usage, stderr);
		return 2;
	}
	return 0;
}

/*
 * All of @path (common/readfile.c; "-" is standard input), or NULL after
 * a message naming it: an unreadable input, exit status 2.  A directory
 * fails on its read.
 */
static char *read_input(const char *path, size_t *len)
{
	struct errmsg e;
	char *text;
	int err;

	if (!strcmp(path, "-")) {
		err = file_read_stream(stdin, &text, len);
		if (err)
			fprintf(stderr, "probecc report: cannot read standard input: %s\n",
				strerror(-err));
		return err ? NULL : text;
	}
	if (file_read(path, &text, len, &e)) {
		fprintf(stderr, "probecc report: %s\n", e.msg);
		return NULL;
	}
	return text;
}

/*
 * Drop the NUL bytes of a console log of @len bytes (a serial line carries
 * them; a string function would end the text at the first).
 */
static void drop_nuls(char *text, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (text[i])
			text[n++] = text[i];
	text[n] = '\0';
}

/*
 * The --append file @text (from @path) made the one command line it
 * holds, in place: blank space around it dropped (QEMU's -append and the
 * kernel's boot_command_line never end in a newline; a stray one or a
 * trailing blank must neither hide the line nor make it look cut).  A
 * second non-blank line is no command line: an error, 1 (said on
 * stderr), so that nothing is judged against half of it.
 */
static int append_line(const char *path, char *text)
{
	size_t b = strspn(text, " \t\r\n"), e = strlen(text), i;
	unsigned long line = 1;

	while (e > b && strchr(" \t\r\n", text[e - 1]))
		e--;
	for (i = 0; i < e; i++) {
		if (text[i] == '\n')
			line++;
		if (i >= b && (text[i] == '\n' || text[i] == '\r')) {
			fprintf(stderr, "%s:%lu: a second line: --append is the one command line the boot was given\n",
				path, line + (text[i] == '\r'));
			return 1;
		}
	}
	memmove(text, text + b, e - b);
	text[e - b] = '\0';
	return 0;
}

/*
 * A capture (a dump channel, a console log) from @path as read_input()
 * reads it; a LAVA job log (report/lavalog.h) becomes the console it
 * recorded, its job's end in *@job when @job is not NULL (job->records
 * is 0 for any other capture).
 */
static char *read_capture(const char *path, size_t *len, struct lava_job *job)
{
	struct lava_job none;
	struct errmsg e;
	char *text, *con;
	size_t n, clen;

	if (!job)
		job = &none;
	memset(job, 0, sizeof(*job));
	text = read_input(path, &n);
	if (!text || !lavalog_is(text, n)) {
		if (len)
			*len = n;
		return text;
	}
	if (lavalog_console(path, text, n, &con, &clen, job, &e)) {
		fprintf(stderr, "probecc report: %s\n", e.msg);
		free(text);
		return NULL;
	}
	free(text);
	if (len)
		*len = clen;
	return con;
}

/*
 * The kernel's symbols, when any source is given (facts/kernel.h).  A
 * source that cannot be read, or is not what its option says, is an
 * input error: 2 after a message.
 */
static int load_kernel(struct report *r)
{
	struct errmsg e;

	if (!r->sysmap && !r->target && !r->vmlinux)
		return 0;
	r->k = kernel_new();
	if ((r->target && kernel_load_target(r->k, r->target, &e)) ||
	    (r->sysmap && kernel_load_system_map(r->k, r->sysmap, &e)) ||
	    (r->vmlinux && kernel_load_vmlinux(r->k, r->vmlinux, &e))) {
		fprintf(stderr, "probecc report: %s\n", e.msg);
		return 2;
	}
	kernel_index(r->k);
	return 0;
}

static int load_probes(struct report *r)
{
	struct diags diags = { 0 };
	struct token *toks;
	struct source *src;

	if (!r->probes)
		return 0;
	src = xcalloc(1, sizeof(*src));
	src->name = r->probes;
	src->text = read_input(r->probes, NULL);
	if (!src->text)
		return 2;
	src->len = strlen(src->text);
	toks = tokenize(src, &diags);
	r->prog = toks ? parse(toks, &diags) : NULL;
	if (!r->prog) {
		diag_print(&diags);
		return 2;	/* not a probe file: nothing to check against */
	}
	return 0;
}

/* Write one machine output into memory and stage it for @path; 0 or 2. */
static int stage(const struct report *r, const char *path,
		 void (*write)(FILE *, const struct report *))
{
	struct errmsg e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!path)
		return 0;
	f = xopen_memstream(&buf, &len);
	write(f, r);
	if (fclose(f)) {
		fprintf(stderr, "probecc: error: cannot write %s\n", path);
		return 2;
	}
	if (out_stage(path, buf, len, &e)) {
		fprintf(stderr, "probecc: error: %s\n", e.msg);
		free(buf);
		return 2;
	}
	free(buf);
	return 0;
}

/* The machine outputs, staged and renamed together: 0, or 2 with none written. */
static int write_outputs(const struct report *r)
{
	struct errmsg e;

	size_t i;

	for (i = 0; i < ARRAY_SIZE(outputs); i++)
		if (stage(r, output_get(r, &outputs[i]), outputs[i].write)) {
			out_abort();
			return 2;
		}
	if (out_commit(&e)) {
		fprintf(stderr, "probecc: error: %s\n", e.msg);
		return 2;
	}
	return 0;
}

/*
 * Print one part of the text report to standard output with the control
 * bytes of traced data (a file name, a comm) shown as \xNN: the report
 * goes to terminals and CI logs, where an escape sequence would act.
 * 0, or 2 when it cannot be written.
 */
static int print_safe(const struct report *r,
		      void (*write)(FILE *, const struct report *))
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = xopen_memstream(&buf, &len);

	write(f, r);
	if (fclose(f))
		fatal("out of memory");
	for (i = 0; i < len; i++) {
		unsigned char c = buf[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	free(buf);
	if (ferror(stdout)) {
		fprintf(stderr, "probecc report: cannot write the report: %s\n", strerror(errno));
		return 2;
	}
	return 0;
}

/* @path names standard output for common/output.c ("-", /dev/stdout). */
static bool on_stdout(const char *path)
{
	return path && (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"));
}

/*
 * --list and --extract N (qemu-images/extract-dump): the frames of @text
 * as frame.c checked them.  --extract prints the body of the last dump
 * numbered N, complete if there is one; the status says which it was.
 */
static int frames_main(const struct report *r, const char *text, size_t len)
{
	const char *body = NULL, *why = NULL, *stray_why = NULL;
	size_t body_len = 0;
	int stray = 0, rc;

	rc = dumpread_frames(text, len, r->list ? stdout : NULL, r->extract,
			     &body, &body_len, &why, &stray, &stray_why);
	if (stray)
		fprintf(stderr, "probecc report: %s: %d frame line(s) not taken, the first at %s\n",
			r->dumppath, stray, stray_why);
	if (r->list)
		return fflush(stdout) || ferror(stdout) ? 2 : 0;
	if (rc == 1) {
		fprintf(stderr, "probecc report: %s: no dump %d\n", r->dumppath, r->extract);
		return 1;
	}
	fwrite(body, 1, body_len, stdout);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "probecc report: cannot write dump %d\n", r->extract);
		return 2;
	}
	if (!rc)
		return 0;
	fprintf(stderr, "probecc report: %s: %s (printed the checked part)\n",
		r->dumppath, why);
	return rc;
}

/*
 * Every other DUMP and each --baseline boot read as @r was (its probe
 * file and symbols), then compared (baseline.c) into r->cmp.  The other
 * current boots' expectations are checked too: *@failed and
 * *@incomplete count those that fail or have no complete evidence,
 * named on stderr.  0, or 2 for an input that cannot be read.
 */
static int compare_all(struct report *r, int *failed, int *incomplete)
{
	int n = r->ndumps + r->nbases, i;
	struct report **all = xcalloc(n, sizeof(*all));
	const char *why;

	all[0] = r;
	for (i = 1; i < n; i++) {
		struct report *x = xcalloc(1, sizeof(*x));
		size_t len;
		char *text;

		*x = *r;
		memset(&x->d, 0, sizeof(x->d));
		x->names = NULL;
		x->nnames = 0;
		x->ics = NULL;
		x->levels = NULL;
		x->nics = x->ics_open = x->nlevels = 0;
		x->failed = 0;
		x->cmp = NULL;
		x->kaslr = 0;
		x->previous = NULL;	/* --previous is the first DUMP's */
		x->prev_text = NULL;
		x->prev_len = 0;
		x->dumppath = i < r->ndumps ? r->dumps[i] : r->bases[i - r->ndumps];
		text = read_capture(x->dumppath, &len, NULL);
		if (!text)
			return 2;
		dump_read(x, text, len);
		dumpread_agent_own(&x->d);
		dump_probe_names(x);
		stacks_from_probed(&x->d);
		initcalls_pair(x);
		expect_all(x);
		if (!dump_evidence(&x->d)) {
			fprintf(stderr, "probecc report: %s: no complete dump%s\n", x->dumppath,
				i < r->ndumps ? "" : " (baseline)");
			return 2;
		}
		/* what a baseline boot could not say would widen the spread a regression passes */
		if (i >= r->ndumps && !dump_complete(&x->d)) {
			char buf[512];

			fprintf(stderr, "probecc report: %s: no complete evidence (baseline): %s\n",
				x->dumppath, dump_incomplete_why(&x->d, buf, sizeof(buf)));
			return 2;
		}
		if (i < r->ndumps) {
			*incomplete += !dump_complete(&x->d);
			if (x->failed)
				fprintf(stderr, "probecc report: %s: %d of %d expectation(s) failed\n",
					x->dumppath, x->failed, x->nexp);
			*failed += x->failed > 0;
		}
		all[i] = x;
	}
	compare_boots(&r->cmp, all, r->ndumps, all + r->ndumps, r->nbases, r->force);
	if (!compare_comparable(r->cmp, &why) && !r->force)
		fprintf(stderr, "probecc report: not comparable: %s (--force compares them)\n", why);
	return 0;
}

/*
 * An output that is one of the inputs would overwrite what the report
 * reads (a capture, a baseline): refused before anything is read, 2.
 */
static int outputs_not_inputs(const struct report *r)
{
	const char *in[16], *what[16];
	size_t i, j, n = 0;

	in[n] = r->console, what[n++] = "--console";
	in[n] = r->append, what[n++] = "--append";
	in[n] = r->previous, what[n++] = "--previous";
	in[n] = r->probes, what[n++] = "--probes";
	in[n] = r->sysmap, what[n++] = "--system-map";
	in[n] = r->target, what[n++] = "--target";
	in[n] = r->vmlinux, what[n++] = "--vmlinux";
	for (i = 0; i <= ARRAY_SIZE(outputs); i++) {
		const char *out = i < ARRAY_SIZE(outputs) ? output_get(r, &outputs[i]) : r->trace_dat;
		const char *name = i < ARRAY_SIZE(outputs) ? outputs[i].name : "trace-dat";
		const char *hit = NULL;

		for (j = 0; !hit && j < n; j++)
			if (out_is_input(out, in[j]))
				hit = what[j];
		for (j = 0; !hit && j < (size_t)r->ndumps; j++)
			if (out_is_input(out, r->dumps[j]))
				hit = "a DUMP";
		for (j = 0; !hit && j < (size_t)r->nbases; j++)
			if (out_is_input(out, r->bases[j]))
				hit = "--baseline";
		if (hit) {
			fprintf(stderr, "probecc report: --%s %s is the input of %s (the same file): refused, it would be overwritten\n",
				name, out, hit);
			return 2;
		}
	}
	return 0;
}

int report_main(int argc, char **argv)
{
	struct report r = { 0 };
	struct lava_job lava;
	char *text;
	const char *why;
	bool show;
	size_t len, i;
	int rc, others_failed = 0, others_incomplete = 0;

	rc = parse_args(&r, argc, argv);
	if (!rc)
		rc = outputs_not_inputs(&r);
	if (!rc && r.trace_dat) {
		struct dumpread_error de = { 0 };
		struct errmsg e = { 0 };

		text = read_capture(r.dumppath, &len, NULL);
		if (!text)
			return 2;
		if (dumpread_tracedat(text, len, r.trace_dat, stderr, &de)) {
			fprintf(stderr, "probecc report: %s: %s\n", r.dumppath, dr_text(de.why));
			return 2;
		}
		if (out_commit(&e)) {
			fprintf(stderr, "probecc report: %s: %s\n", r.dumppath, e.msg);
			return 2;
		}
		return 0;
	}
	if (!rc && (r.list || r.extract)) {
		text = read_capture(r.dumppath, &len, NULL);
		return text ? frames_main(&r, text, len) : 2;
	}
	if (!rc)
		rc = load_probes(&r);
	if (!rc)
		rc = load_kernel(&r);
	if (rc)
		return rc;
	if (r.console && !(r.console_text = read_capture(r.console, &len, NULL)))
		return 2;
	if (r.console)
		drop_nuls(r.console_text, len);
	if (r.append) {
		if (!(r.append_text = read_input(r.append, NULL)))
			return 2;
		if (append_line(r.append, r.append_text))
			return 2;
	}
	text = read_capture(r.dumppath, &len, &lava);
	if (!text)
		return 2;
	if (r.previous &&
	    !(r.prev_text = read_capture(r.previous, &r.prev_len, NULL)))
		return 2;
	/* a LAVA job log is the console too, and its job's end the runner's */
	if (lava.records) {
		if (!r.console_text)
			r.console_text = xstrdup(text);
		if (!r.boot_end && !(r.boot_end = lavalog_boot_end(&lava))) {
			fprintf(stderr, "probecc report: %s: the LAVA log ends before the job's result (cut short): no verdict\n",
				r.dumppath);
			return 2;
		}
		fprintf(stderr, "probecc report: LAVA job: %s%s%s%s%s%s\n", lava.passed ? "pass" : "fail",
			*lava.error_type || *lava.error_msg ? " (" : "", lava.error_type,
			*lava.error_type && *lava.error_msg ? ": " : "", lava.error_msg,
			*lava.error_type || *lava.error_msg ? ")" : "");
	}
	dump_read(&r, text, len);
	if (r.console_text)
		dump_console_trace(&r, r.console_text);
	dumpread_agent_own(&r.d);
	dump_probe_names(&r);
	stacks_from_probed(&r.d);
	if (r.console || r.boot_end || r.append || r.boot_only)
		boot_decide(&r);
	if (r.boot_only) {
		printf("boot: %s: %s\n", boot_rows[r.boot.end].name, r.boot.msg);
		if (fflush(stdout) || ferror(stdout))
			return 2;
		return boot_rows[r.boot.end].status;
	}
	initcalls_pair(&r);
	expect_all(&r);
	if (r.ndumps > 1 || r.nbases) {
		rc = compare_all(&r, &others_failed, &others_incomplete);
		if (rc)
			return rc;
	}

	/* a machine output on standard output is all it holds (--json -) */
	show = true;
	for (i = 0; i < ARRAY_SIZE(outputs); i++)
		if (on_stdout(output_get(&r, &outputs[i])))
			show = false;
	rc = show ? print_safe(&r, text_write) : 0;
	if (!rc)
		rc = write_outputs(&r);
	if (!rc && show)
		rc = print_safe(&r, text_summary);
	if (rc)
		return rc;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "probecc report: cannot write the report: %s\n", strerror(errno));
		return 2;
	}
	/* how the boot ended comes first: a panic is no expectation's failure */
	if (r.boot.known && r.boot.end != BOOT_CLEAN)
		return boot_rows[r.boot.end].status;
	/* no verdict without evidence: an incomplete capture is bad input */
	if (!dump_complete(&r.d) || others_incomplete)
		return 2;
	if (r.cmp && !compare_comparable(r.cmp, &why) && !r.force)
		return 2;
	return r.failed || others_failed || compare_regressions(r.cmp) ? 1 : 0;
}
