// SPDX-License-Identifier: GPL-2.0
/*
 * probecc capture --from-log LOG -o FILE: the target capture in a board's
 * serial console log (a probe file with "capture" and "dump console"),
 * its frame found by facts/logframe.c, written as `probecc --target FILE`
 * reads it.  qemu-images/capture runs it on the boots it makes.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernel.h"

/* The most console log read: 1 GiB, a capture is a few MB. */
#define CAPTURE_LOG_MAX ((size_t)1 << 30)

/*
 * The frame read as --target reads a capture (facts/kernel.c): a frame
 * of other lines (a console's noise between two markers) is no capture,
 * and one with no section a capture holds names nothing; either exits 2
 * (an input that is not what it says), before @out is written.
 */
static void target_check(const char *log, const struct strbuf *frame, const char *out)
{
	static struct kernel *k;	/* kept to the exit, as --target's */
	char *name = xasprintf("%s's frame", log);
	struct errmsg e;

	k = kernel_new();
	if (kernel_load_target_text(k, name, xstrndup(frame->s, frame->len), frame->len, &e))
		input_error("%s; %s not written", e.msg, out);
	if (!k->syms_known && !k->ftrace_known && !k->blacklist_known &&
	    !k->events_known && !k->readme && !k->nbtf && !k->config)
		input_error("%s: no section a capture holds (--- kallsyms ---, available_filter_functions, kprobe_blacklist, available_events, README, config.gz, btf): not a target capture; %s not written",
			    name, out);
	free(name);
}

const char capture_usage[] =
"usage: probecc capture --from-log LOG -o FILE\n";

int capture_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from-log", required_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *log = NULL, *out = NULL;
	struct strbuf frame = { 0 };
	struct errmsg e;
	char *text, *uname, *arch;
	size_t len, lines = 0, i;
	int c;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			log = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(capture_usage, stdout);
			return 0;
		default:
			fputs(capture_usage, stderr);
			return 2;
		}
	}
	if (!log || !out || optind != argc) {
		fputs(capture_usage, stderr);
		return 2;
	}
	if (file_read_max(log, CAPTURE_LOG_MAX, &text, &len, &e))
		input_error("%s", e.msg);
	if (logframe_find(text, len, log, &frame, &e) ||
	    kernel_capture_check(xasprintf("%s's frame", log), frame.s,
				 frame.len, &len, &e) < 0)
		fatal("%s; %s not written", e.msg, out);
	free(text);
	target_check(log, &frame, out);
	if (out_stage(out, frame.s, frame.len, &e) || out_commit(&e))
		output_error("%s", e.msg);
	for (i = 0; i < frame.len; i++)
		lines += frame.s[i] == '\n';
	/* "uname\tRELEASE\tMACHINE" and "arch\tAGENT" (initramfs/capture.c):
	 * uname -m says "mips" for every 32-bit MIPS, the agent's arch
	 * says which byte order and ABI it ran as */
	uname = strstr(frame.s, "\nuname\t");
	arch = strstr(frame.s, "\narch\t");
	fprintf(stderr, "probecc capture: %s: %zu lines, ", out, lines);
	if (uname) {
		size_t rel = strcspn(uname + 7, "\t\n");
		const char *m = uname[7 + rel] == '\t' ? uname + 8 + rel : NULL;

		fprintf(stderr, "kernel %.*s", (int)rel, uname + 7);
		if (m)
			fprintf(stderr, ", uname -m %.*s", (int)strcspn(m, "\n"), m);
	} else {
		fprintf(stderr, "no uname");
	}
	if (arch)
		fprintf(stderr, ", agent %.*s", (int)strcspn(arch + 6, "\n"), arch + 6);
	fprintf(stderr, "\n");
	free(frame.s);
	return 0;
}
