/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli/: the probecc program, the edge where options are read and the
 * process exits.  It sits above every product folder (common <-
 * bootconfig, facts <- compiler <- report, bootargs <- cli) and is the
 * only one that names them all:
 *   main.c     the commands[] table: "probecc report", "probecc
 *              bootargs", and the compile command when no other is named
 *   elfarch.c  probecc elf-arch: can these programs run under --arch
 *   didyoumean.c  probecc did-you-mean: common/suggest.c for a front end
 *   compile.c  probecc FILE: options, the target kernel loaded (facts/),
 *              the compiler's stages called in order (compiler/), the
 *              outputs staged and committed (common/output.c)
 */
#ifndef PROBECC_CLI_H
#define PROBECC_CLI_H

#include <stdio.h>

/*
 * probecc FILE ... (compile.c): argv[0] is the program; the exit status.
 * @usage prints every command's usage (main.c's), for --help and errors.
 * Split as options -> setup -> compile -> outputs.
 */
int compile_main(int argc, char **argv, void (*usage)(FILE *f));

/* compile_main()'s usage text, the first part of cli_usage(). */
extern const char compile_usage[];

/* probecc elf-arch --arch ARCH FILE... (elfarch.c): the exit status. */
int elfarch_main(int argc, char **argv);
extern const char elfarch_usage[];

/* probecc did-you-mean NAME (didyoumean.c): the exit status. */
int didyoumean_main(int argc, char **argv);
extern const char didyoumean_usage[];

/* probecc capture --from-log LOG -o FILE (capture.c); its usage text. */
int capture_main(int argc, char **argv);
extern const char capture_usage[];

#endif
