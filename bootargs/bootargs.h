/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probecc bootargs: the compiled command-line fragment merged into a boot
 * loader's kernel command line (U-Boot's bootargs, a device tree's
 * /chosen/bootargs) and written in the form that loader reads.
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
 * Returns the merged line, single-space separated, owned by the caller.
 * Fatal (exit 1, one line naming both values) when @existing sets a
 * tracing parameter the fragment also sets, to another value, and
 * @replace is false; fatal too for an unbalanced double quote, a control
 * character, or a fragment parameter that is not a tracing one (a later
 * run could not tell it from the user's).
 */
char *ba_merge(const char *existing, const char *from, const char *fragment,
	       bool replace);

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
 * A control character is fatal (hush reads bytes 0x03 and 0x04 as its
 * own substitution markers).  Returns a new string, the caller's.
 */
char *ba_hush_quote(const char *s);

/* "probecc bootargs ..." with argv[0] = "bootargs"; the exit status. */
int bootargs_main(int argc, char **argv);

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
 * dtb_bootargs() - the /chosen/bootargs string of @fdt, or NULL when
 * there is no /chosen or no bootargs.  Points into @fdt.  Fatal when the
 * property is not one NUL-terminated string.
 */
const char *dtb_bootargs(const void *fdt, const char *path);

/*
 * dtb_with_bootargs() - a copy of @fdt whose /chosen/bootargs is
 * @bootargs: fdt_open_into() a buffer with room for the string and a new
 * /chosen node, create /chosen when missing, set the property,
 * fdt_pack(), then check the result (fdt_check_full() and the property
 * read back byte for byte).  Sets *@len to the new totalsize in bytes.
 * Returns a malloc'd blob, the caller's; fatal on any libfdt error.
 */
void *dtb_with_bootargs(const void *fdt, const char *bootargs, size_t *len);

#endif
