/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probecc bootargs (bootargs/): the compiled command-line fragment merged
 * into a boot loader's kernel command line (U-Boot's bootargs, a device
 * tree's /chosen/bootargs) and written in the form that loader reads.
 *   bootargs-main.c  the command line: bootargs_main()
 *   bootargs.c       ba_*: merge, hush quoting, bootoctlinux, env values
 *   fdt.c            dtb_*: read, query and rewrite a device tree (libfdt)
 * Every function here but bootargs_main() returns 0 or -errno with the
 * reason in a struct errmsg (common/common.h); none exits.
 */
#ifndef PROBECC_BOOTARGS_H
#define PROBECC_BOOTARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "common.h"

/*
 * ba_merge() - the kernel command line that boots with @fragment.
 * @existing: the command line there is (U-Boot's bootargs, /chosen/bootargs);
 *            NULL or "" for none
 * @from:     where @existing came from, for messages ("--bootargs")
 * @fragment: what `probecc FILE --cmdline` printed
 * @replace:  drop the old tracing parameters even when they conflict
 *
 * The user's own parameters of @existing stay, in their order, then come
 * the fragment's; the tracing parameters of @existing (what an earlier
 * probecc run added: ftrace=, kprobe_event=, tp_printk, ...) go.  A
 * parameter after "--" in @existing is init's, so the fragment goes
 * before the "--".  Parameters are split as the kernel's next_arg()
 * (kernel/params.c) splits them: at white space outside double quotes.
 *
 * Each old tracing parameter dropped that the fragment does not set, and
 * each one --replace replaced, is named in a "probecc: note:" line on
 * stderr: it may have been the user's own, and no rule can tell.
 *
 * Returns 0 with the merged line, single-space separated, in *@merged
 * (malloc'd, the caller's).  Returns -EINVAL with one line in @e when
 * @existing sets a tracing parameter the fragment also sets, to another
 * value, and @replace is false (the line names both values); for an
 * unbalanced double quote, a control character, or a fragment parameter
 * that is not a tracing one (a later run could not tell it from the
 * user's); the fragment's rdinit=/probecc/init (probecc --initrd) is
 * probecc's, and replaces an earlier run's (another rdinit= of
 * @existing is the user's: two values, as for a tracing parameter).
 */
int ba_merge(const char *existing, const char *from, const char *fragment,
	     bool replace, char **merged, struct errmsg *e);

/*
 * ba_is_tracing() - whether kernel parameter @name (without "=" and
 * value) is one probecc writes: the list is place.c's output plus the
 * kernel's other boot-time tracing switches (kernel/trace/trace.c,
 * ftrace.c, trace_events.c, trace_kprobe.c, init/main.c).
 */
bool ba_is_tracing(const char *name);

/*
 * ba_hush_quote() - @s as one word of U-Boot's hush shell
 * (common/cli_hush.c of U-Boot 2023.01): between single quotes, where
 * parse_stream() expands no "$var" and takes ";", "&&", "||", "#" and
 * '"' literally.  Two rules differ from a POSIX shell: done_word()
 * drops every backslash of a finished word and keeps the character after
 * it, even inside single quotes, so "\" is written "\\"; and a single
 * quote inside double quotes still opens a single-quoted string, so the
 * '"'"' splice breaks, while '\'' (close, escaped quote, reopen) works.
 * Both were checked on Debian's u-boot-qemu (tests/bootargs.test.sh).
 * A control character is refused (hush reads bytes 0x03 and 0x04 as its
 * own substitution markers): -EINVAL with the reason in @e.  Returns 0
 * with the word in *@quoted (malloc'd, the caller's).
 */
int ba_hush_quote(const char *s, char **quoted, struct errmsg *e);

/*
 * ba_octeon_line() - "bootoctlinux ADDR WORD..." for Octeon's U-Boot
 * prompt (arch/mips/mach-octeon/bootoctlinux.c): each parameter of
 * @merged its own word, hush-quoted where needed, into *@line (malloc'd,
 * the caller's).  -EINVAL when @addr is not hex, -E2BIG over the
 * command's 32 words (U_BOOT_CMD maxargs), with the reason in @e.
 */
int ba_octeon_line(const char *addr, const char *merged, char **line,
		   struct errmsg *e);

/*
 * libubootenv's fw_setenv -s (Debian's, 0.3.2) reads a script line of at
 * most 1023 bytes and takes the rest as a line of its own: a longer
 * bootargs becomes a cut value plus a variable named by its tail (a
 * "bootcmd=..." there would run at autoboot).  Measured: "bootargs=" and
 * 1014 bytes arrive whole, 1015 arrive as 1014.
 */
#define BA_ENV_LINE_MAX 1023

/*
 * ba_env_check() - 0 when @v can be a U-Boot environment value as
 * mkenvimage and fw_setenv -s read one (a single line, no trailing
 * backslash); else -EINVAL with the reason in @e.  With @libubootenv,
 * -E2BIG when "bootargs=VALUE" is over BA_ENV_LINE_MAX bytes.
 */
int ba_env_check(const char *v, bool libubootenv, struct errmsg *e);

/* "probecc bootargs ..." (bootargs-main.c), argv[0] = "bootargs"; the exit status. */
int bootargs_main(int argc, char **argv);
/* Its synopsis ("usage: probecc bootargs ..."), for probecc --help. */
extern const char bootargs_synopsis[];

/* ---- device trees (fdt.c, libfdt) ---- */

/*
 * dtb_read() - read and validate the flattened device tree @path:
 * fdt_check_header(), a totalsize that fits the file, and
 * fdt_check_full() (the whole structure block).  Sets *@fdt to the blob
 * (malloc'd, the caller's) and *@len to the file size in bytes.  Returns
 * 0, -errno when the file cannot be read, or -EINVAL when it is not a
 * valid tree (the path and libfdt's reason in @e).
 */
int dtb_read(const char *path, void **fdt, size_t *len, struct errmsg *e);

/*
 * dtb_check() - dtb_read()'s checks of the @n bytes at @buf, a blob
 * read from @path (named in the reason): 0, or -EINVAL with libfdt's
 * reason in @e.  A tree of a format version before DTB_VERSION_MIN is
 * refused (fdt.c says why).
 */
#define DTB_VERSION_MIN	16
int dtb_check(const void *buf, size_t n, const char *path, struct errmsg *e);

/*
 * dtb_bootargs() - the /chosen/bootargs string of @fdt into *@bootargs
 * (pointing into @fdt), NULL when there is no /chosen or no bootargs.
 * Returns 0, or -EINVAL with the reason in @e (naming @path) when the
 * property is not one NUL-terminated string or libfdt fails.
 */
int dtb_bootargs(const void *fdt, const char *path, const char **bootargs,
		 struct errmsg *e);

/*
 * dtb_with_bootargs() - a copy of @fdt whose /chosen/bootargs is
 * @bootargs: fdt_open_into() a buffer with room for the string and a new
 * /chosen node, create /chosen when missing, set the property,
 * fdt_pack(), then check the result (fdt_check_full() and the property
 * read back byte for byte).  Returns 0 with the blob in *@out (malloc'd,
 * the caller's) and its totalsize in bytes in *@len; -EFBIG over 2 GiB,
 * -EINVAL on any libfdt error, with the reason in @e.
 */
int dtb_with_bootargs(const void *fdt, const char *bootargs, void **out,
		      size_t *len, struct errmsg *e);

#endif
