// SPDX-License-Identifier: GPL-2.0
/*
 * probecc: one program, a command a row (as trace-cmd's commands[]).
 *
 *   probecc FILE [options]          compile (cli/compile.c)
 *   probecc report DUMP [options]   report/report-main.c
 *   probecc bootargs [options]      bootargs/bootargs-main.c
 *   probecc capture --from-log ...  cli/capture.c (facts/logframe.c)
 */
#include <string.h>

#include "bootargs.h"
#include "cli.h"
#include "common.h"
#include "report.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);	/* argv[0] is the command's name */
	const char *synopsis;			/* the command's own usage text */
	const char *what;			/* one line for probecc --help */
};

static const struct command commands[] = {
	{ "report", report_main, report_usage,
	  "summarise the agent's dumps and check the probe file's expectations" },
	{ "bootargs", bootargs_main, bootargs_synopsis,
	  "merge the fragment into a boot loader's command line, quoted for U-Boot or set in a dtb" },
	{ "did-you-mean", didyoumean_main, didyoumean_usage,
	  "the names of stdin close to NAME, by the rule of probecc's own suggestions" },
	{ "elf-arch", elfarch_main, elfarch_usage,
	  "whether programs run under --arch (their ELF header, as a uprobe's file is checked)" },
	{ "capture", capture_main, capture_usage,
	  "take the target capture out of a serial console log, for --target FILE" },
};

/* The whole usage, every command's synopsis, to @f. */
static void cli_usage(FILE *f)
{
	size_t i;

	fputs(compile_usage, f);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		fputs(commands[i].synopsis, f);
		fprintf(f, "  %s\n%s", commands[i].what,
			i + 1 < ARRAY_SIZE(commands) ? "\n" : "");
	}
}

int main(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc > 1 && i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	return compile_main(argc, argv, cli_usage);
}
