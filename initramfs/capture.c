// SPDX-License-Identifier: GPL-2.0
/*
 * probecc early-init agent: capture mode (plan verb "capture").
 *
 * One boot saves what the running kernel says of itself, the facts
 * probecc --target validates a probe file against: its symbols, the
 * functions ftrace can filter, the kprobe blacklist, the events, its
 * config, its BTF and the command line it got.  Format: docs/plan.md, "Target".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "agent.h"

#define CHUNK	(64 * 1024)

/* A section: the file it copies and how (text, or base64 of a binary). */
struct section {
	const char *name;
	const char *path;	/* absolute, or relative to tracefs */
	int base64;
};

static const struct section sections[] = {
	{ "kallsyms", "/proc/kallsyms", 0 },
	{ "available_filter_functions", "available_filter_functions", 0 },
	{ "kprobe_blacklist", "/sys/kernel/debug/kprobes/blacklist", 0 },
	{ "available_events", "available_events", 0 },
	{ "available_tracers", "available_tracers", 0 },
	{ "trace_options", "trace_options", 0 },
	/* the fetchargs and probe types this kernel's parser takes (trace.c readme_msg) */
	{ "README", "README", 0 },
	{ "config.gz", "/proc/config.gz", 1 },
	/* the kernel's types, for C names without DWARF (CONFIG_DEBUG_INFO_BTF) */
	{ "btf", "/sys/kernel/btf/vmlinux", 1 },
};

/*
 * copy_section() - "--- NAME ---" then the file's bytes (text ends with a
 * newline; base64 in lines of 76 characters).  A file that cannot be
 * opened gives "missing NAME REASON" in the header instead, and no body.
 */
static void copy_section(struct agent *a, struct out *o,
			 const struct section *s)
{
	static unsigned char buf[CHUNK];
	char path[AGENT_PATH_MAX], line[80];
	int fd, last = '\n';
	size_t have = 0;
	ssize_t n;

	if (s->path[0] == '/' ? rooted(a, path, sizeof(path), s->path) :
	    (!a->tracefs[0] || path_join(path, sizeof(path), a->tracefs,
					  s->path))) {
		out_printf(o, "missing\t%s\t%s\n", s->name,
			   a->tracefs[0] ? "path too long" : "no tracefs");
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		out_printf(o, "missing\t%s\t%s\n", s->name, strerror(errno));
		return;
	}
	out_printf(o, "--- %s ---\n", s->name);
	for (;;) {
		n = read(fd, buf + have, sizeof(buf) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (!s->base64) {
			out_write(o, (char *)buf, n);
			last = buf[n - 1];
			continue;
		}
		/* base64: whole 57-byte groups make 76-character lines */
		have += n;
		while (have >= 57) {
			size_t k = b64_encode(buf, 57, line);

			line[k] = '\n';
			out_write(o, line, k + 1);
			memmove(buf, buf + 57, have - 57);
			have -= 57;
		}
	}
	if (n < 0)
		out_printf(o, "\nerror\t%s\t%s\n", s->name, strerror(errno));
	if (have) {
		size_t k = b64_encode(buf, have, line);

		line[k] = '\n';
		out_write(o, line, k + 1);
	}
	if (!s->base64 && last != '\n')
		out_write(o, "\n", 1);
	close(fd);
}

/*
 * capture() - write the "probecc target" frame to @a->sink_fd.
 *
 * As PID 1 it first mounts debugfs (for kprobes/blacklist) when it is
 * not there.  Every source that cannot be read becomes a "missing" line:
 * the host knows what it lacks.  kallsyms shows real addresses only to a
 * process with CAP_SYSLOG and kptr_restrict < 2: PID 1 has both in the
 * initramfs.  Returns 0 or the -errno of the first failed sink write.
 */
int capture(struct agent *a)
{
	static struct out o;
	static char cmdline[4096];
	struct utsname u;
	size_t i;

	char dbg[AGENT_PATH_MAX], kp[AGENT_PATH_MAX];

	if (a->pid1 &&
	    !rooted(a, dbg, sizeof(dbg), "/sys/kernel/debug") &&
	    !rooted(a, kp, sizeof(kp), "/sys/kernel/debug/kprobes") &&
	    access(kp, F_OK)) {
		mkdir(dbg, 0755);
		if (mount("debugfs", dbg, "debugfs",
			  MS_NOSUID | MS_NOEXEC, NULL) && errno != EBUSY)
			agent_note(a, "capture", "debugfs: %s",
				   strerror(errno));
	}
	frame_begin(a, &o, &u, cmdline, sizeof(cmdline));

	out_printf(&o, "=== probecc target begin ===\n");
	/* the check line: what a serial line lost or changed is seen */
	o.sum = 1;
	o.sum_bytes = 0;
	o.sum_crc = 0;
	out_printf(&o, "probecc-target\t1\narch\t%s\nuname\t%s\t%s\n",
		   a->arch[0] ? a->arch : "-", u.release, u.machine);
	out_printf(&o, "cmdline_len\t%zu\ncmdline\t%s\n", strlen(cmdline),
		   cmdline);
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		copy_section(a, &o, &sections[i]);
	o.sum = 0;
	out_printf(&o, "check\t%llu\t%08x\n", o.sum_bytes,
		   (unsigned int)o.sum_crc);
	out_printf(&o, "=== probecc target end ===\n");
	out_flush(&o);
	return o.err;
}
