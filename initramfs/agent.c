// SPDX-License-Identifier: GPL-2.0
/*
 * probecc-agent: the early-init agent of probecc.
 *
 * Runs from the initramfs as /init (rdinit=/init) before the real init,
 * or, appended to a user's own initrd (probecc --initrd), as
 * /probecc/init with rdinit=/probecc/init ("overlay mode", below):
 *
 *   0. clones its worker at once (clone(CLONE_VM | CLONE_FILES),
 *      worker_clone())
 *      and waits until the worker releases it (step 4) or ends, then
 *      execs the real init (step 5): PID 1's own work before the real
 *      init is that clone, the wait and the exec, and its PID, the real
 *      init's, never goes into the notrace lists (taking it out again
 *      before the exec waited for RCU grace periods: tens of ms under
 *      TCG).  The worker does steps 1 to 4; without a worker (the clone
 *      failed) PID 1 does them itself, without a window, and empties the
 *      notrace lists before its exec;
 *   1. mounts proc on /proc, sysfs on /sys, devtmpfs on /dev (then opens
 *      /dev/console as fds 0, 1, 2 if they are closed, in the fd table
 *      PID 1 shares up to its exec: the initramfs has no /dev/console
 *      node, so the kernel could not open one), tracefs on
 *      /sys/kernel/tracing, or debugfs on /sys/kernel/debug and its
 *      tracing/ directory for kernels without tracefs; as the boot's
 *      agent, marks its PID in the trace (self_mark(): the worker is in
 *      no PID list, PID 1 working alone goes in them);
 *   2. reads the plan (/probecc/plan, docs/plan.md) and acts on its
 *      expect and arm lines in order;
 *   3. dumps the manifest and tracefs/trace to the plan's sink;
 *   4. hands the plan's init lines to PID 1 and releases it (SIGUSR1):
 *      with a window already during the init dump, once its
 *      clock mark is in the trace (a cut dump: dump.c, docs/plan.md "Cut
 *      at the mark"); then, if the plan has "window N", sleeps N
 *      seconds, dumps again
 *      ("stage window"), writes /run/probecc.done and exits (without a
 *      window it wrote /run/probecc.done before the release);
 *      the worker's exit, after its last dump, is at nice 19
 *      (worker_exit()): its teardown waits for a free CPU;
 *   5. (PID 1) execs the real init: the plan's init lines, then
 *      /sbin/init, /etc/init, /bin/init, /bin/sh (init/main.c:
 *      kernel_init order), with the agent's own arguments (those the
 *      kernel passed) after argv[0].
 *
 * Overlay mode (PID 1 started as anything but /init): the user's image
 * has its own /init (initramfs-tools, dracut, Buildroot), which mounts
 * /proc, /sys and /dev itself, moves them to the real root and
 * switch_root's (klibc run-init, systemd's switch-root).  So the agent
 * mounts nothing where that init looks: its root is /.probecc, a tmpfs
 * on a new top-level directory, with its proc, sysfs, devtmpfs and
 * tracefs inside.  Top-level because switch_root deletes the initramfs's
 * files without crossing into other file systems and fails on a
 * directory it cannot empty: run-init stopped the boot with "nuking
 * initramfs contents: Directory not empty" when the mounts were under
 * /probecc/ (measured, Debian bookworm's initramfs-tools).  Nobody moves
 * or unmounts /.probecc, so the window child, whose root stays the
 * initramfs, still reads it after the switch, and lazily unmounts it
 * when done.  /init is tried before the kernel's list.  The window child
 * marks itself with argv[0][0] = '@', which systemd's switch-root and
 * shutdown honour as "a process of the initrd, do not kill" (systemd's
 * docs/ROOT_STORAGE_DAEMONS.md).  A dump to a file lands in /.probecc,
 * which is gone with the initramfs: the agent notes it.
 *
 * Nothing stops the boot: every failure is a "note" or an "item ...
 * failed" line of the dump.  Only if no init at all can be exec'd does
 * the agent exit, and the kernel panics as it would without an init.
 *
 * Test mode.  As PID 1 the agent takes no options (every argument goes
 * to the real init).  Otherwise it mounts nothing and takes:
 *
 *   --root DIR     where / would be: DIR/proc/uptime, DIR/dev/console,
 *                  DIR/run/probecc.done, the plan's sink and the inits
 *                  are looked up under DIR (default: the real /)
 *   --tracefs DIR  the directory standing in for tracefs (default:
 *                  ROOT/sys/kernel/tracing, else ROOT/sys/kernel/debug/
 *                  tracing, else none)
 *   --plan FILE    the plan (default: ROOT/probecc/plan)
 *   --sink PATH    dump here instead of the plan's sink (a host path)
 *   --overlay      act as overlay mode does for inits: /init first
 *   --no-exec      do not exec an init: print "would exec PATH" on
 *                  stderr, and wait for the worker before exiting
 *   -- ARGS        arguments passed to the real init
 *
 * Exit status in test mode: 0, or 1 when no init could be exec'd, 2 on a
 * bad option.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"

static const char *const default_inits[] = {
	"/sbin/init", "/etc/init", "/bin/init", "/bin/sh",
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: agent [--root DIR] [--tracefs DIR] [--plan FILE] [--sink PATH]\n"
		"             [--overlay] [--no-exec] [-- INIT-ARGS...]\n"
		"As PID 1 (rdinit=/init) it takes no options; see initramfs/README.md.\n");
}

/* Is @path a directory? */
static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * do_mount() - mount @type on @dir, first making @dir (0755) when the
 * mount finds it missing (ENOENT): a mkdir of a directory that is there
 * would be a path walk of its own on the way to the real init.
 * Returns 0 or -errno, and notes the failure ("note mount DIR: ...").
 * EBUSY (already mounted, e.g. CONFIG_DEVTMPFS_MOUNT) counts as success.
 */
static int do_mount(struct agent *a, const char *type, const char *rel)
{
	const unsigned long flags = MS_NOSUID | MS_NOEXEC | MS_RELATIME;
	char dir[AGENT_PATH_MAX];
	int err = 0;

	if (rooted(a, dir, sizeof(dir), rel)) {
		agent_note(a, "mount", "%s: path too long", rel);
		return -ENAMETOOLONG;
	}
	if (mount(type, dir, type, flags, NULL))
		err = errno;
	if (err == ENOENT) {
		if (mkdir(dir, 0755) && errno != EEXIST) {
			err = errno;
			agent_note(a, "mount", "mkdir %s: %s", dir,
				   strerror(err));
			return -err;
		}
		err = mount(type, dir, type, flags, NULL) ? errno : 0;
	}
	if (err && err != EBUSY) {
		agent_note(a, "mount", "%s on %s: %s", type, dir,
			   strerror(err));
		return -err;
	}
	return 0;
}

/*
 * fix_stdio() - open /dev/console (under the root: the agent's own
 * devtmpfs) as each of fds 0, 1, 2 that is closed
 * (O_RDWR, as init/main.c:console_on_rootfs does), /dev/null if the
 * console cannot be opened.  Must run before any other open() so that no
 * file lands on 0..2 and leaks into the real init as its stdin.
 */
static void fix_stdio(struct agent *a)
{
	char console[AGENT_PATH_MAX];
	int fd, i;

	if (rooted(a, console, sizeof(console), "/dev/console"))
		return;
	for (i = 0; i < 3; i++) {
		if (fcntl(i, F_GETFD) >= 0)
			continue;
		fd = open(console, O_RDWR);
		if (fd < 0) {
			agent_note(a, "mount", "/dev/console: %s",
				   strerror(errno));
			fd = open("/dev/null", O_RDWR);
		}
		if (fd < 0)
			return;
		if (fd != i) {
			dup2(fd, i);
			close(fd);
		}
	}
}

/*
 * PID 1: mount what the agent needs (under the root: "" or, in overlay
 * mode, /probecc) and find tracefs.
 */
static void mounts(struct agent *a)
{
	char dir[AGENT_PATH_MAX];

	if (a->overlay) {
		if (mkdir(a->root, 0755) && errno != EEXIST)
			agent_note(a, "mount", "mkdir %s: %s", a->root,
				   strerror(errno));
		else if (mount("tmpfs", a->root, "tmpfs",
			       MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755"))
			agent_note(a, "mount", "tmpfs on %s: %s", a->root,
				   strerror(errno));
	}
	do_mount(a, "proc", "/proc");
	do_mount(a, "sysfs", "/sys");
	do_mount(a, "devtmpfs", "/dev");
	fix_stdio(a);
	if (!do_mount(a, "tracefs", "/sys/kernel/tracing") &&
	    !rooted(a, dir, sizeof(dir), "/sys/kernel/tracing")) {
		strcpy(a->tracefs, dir);
		return;
	}
	if (!do_mount(a, "debugfs", "/sys/kernel/debug") &&
	    !rooted(a, dir, sizeof(dir), "/sys/kernel/debug/tracing") &&
	    is_dir(dir)) {
		strcpy(a->tracefs, dir);
		return;
	}
	agent_note(a, "tracefs", "none: nothing can be armed or dumped");
}

/*
 * notrace_clear() - empty the PID lists the agent put its PID in, once
 * the last dump is out (its PID may be reused): the top buffer's (PID 1
 * doing the work itself) and the plan's instance's, if any; the agent's
 * last system calls are traced in the top buffer alone, which an
 * instance's plan does not dump.
 */
static void notrace_clear(struct agent *a)
{
	if (a->self_pid == 1)
		notrace_buffer(a, "", 0);
	if (a->self_pid && a->buf_dir[0])
		notrace_buffer(a, a->buf_dir, 0);
}

/*
 * self_mark() - write "probecc-KIND PID NS" to the top buffer's
 * trace_marker, PID @a->self_pid, KIND self_kind(): "own" (the worker:
 * every hit of PID is the agent's) or "notrace" (PID 1 itself, once the
 * kernel took it out of the PID lists: its hits up to the mark are); NS
 * the CLOCK_BOOTTIME read just before (the manifest's "KIND PID NS"
 * line).  The kernel stamps the writing task's PID and the trace clock
 * on it (a marker is no event the PID lists filter: kernel/trace/trace.c
 * tracing_mark_write()), which the report checks against the line
 * (dumpread/timebase.c notrace_mark()).  Returns NS.
 */
static long long self_mark(struct agent *a)
{
	char path[AGENT_PATH_MAX], msg[64];
	long long ns;
	int fd = -1, n;

	errno = ENAMETOOLONG;
	if (!path_join(path, sizeof(path), a->tracefs, "trace_marker"))
		fd = open(path, O_WRONLY | O_CLOEXEC);
	ns = boot_ns();
	if (fd < 0) {
		agent_note(a, "notrace", "trace_marker: %s: no mark",
			   strerror(errno));
		return ns;
	}
	n = snprintf(msg, sizeof(msg), "probecc-%s %ld %lld\n", self_kind(a),
		     a->self_pid, ns);
	if (write_all(fd, msg, n))
		agent_note(a, "notrace", "trace_marker: %s: no mark",
			   strerror(errno));
	close(fd);
	return ns;
}

/* Test mode: find the directory standing in for tracefs under the root. */
static void find_tracefs(struct agent *a)
{
	static const char *const cand[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[AGENT_PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
		if (!rooted(a, path, sizeof(path), cand[i]) &&
		    is_dir(path) && strlen(path) < sizeof(a->tracefs)) {
			strcpy(a->tracefs, path);
			return;
		}
	agent_note(a, "tracefs", "none: nothing can be armed or dumped");
}

/* Copy an option value, exiting (test mode only) when it is too long. */
static void opt_copy(char *dst, size_t size, const char *opt, const char *v)
{
	if (!v) {
		fprintf(stderr, "agent: %s needs a value\n", opt);
		usage(stderr);
		exit(2);
	}
	if (strlen(v) >= size) {
		fprintf(stderr, "agent: %s: value too long\n", opt);
		exit(2);
	}
	strcpy(dst, v);
}

/*
 * parse_args() - test-mode options (see the top of this file).
 * Returns the index of the first argument for the real init.
 */
static int parse_args(struct agent *a, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "--root"))
			opt_copy(a->root, sizeof(a->root), o, argv[++i]);
		else if (!strcmp(o, "--tracefs"))
			opt_copy(a->tracefs, sizeof(a->tracefs), o, argv[++i]);
		else if (!strcmp(o, "--plan"))
			opt_copy(a->plan_path, sizeof(a->plan_path), o,
				 argv[++i]);
		else if (!strcmp(o, "--sink"))
			opt_copy(a->sink_override, sizeof(a->sink_override), o,
				 argv[++i]);
		else if (!strcmp(o, "--overlay"))
			a->overlay = 1;
		else if (!strcmp(o, "--no-exec"))
			a->no_exec = 1;
		else if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(o, "--")) {
			return i + 1;
		} else {
			fprintf(stderr, "agent: unknown option %s\n", o);
			usage(stderr);
			exit(2);
		}
	}
	return argc;
}

/* "window N\n" into @run/probecc.done, @run made first; errors ignored. */
static void write_done(const struct agent *a, const char *run)
{
	char path[AGENT_PATH_MAX], text[64];
	int fd, n;

	mkdir(run, 0755);
	n = snprintf(path, sizeof(path), "%s/probecc.done", run);
	if (n < 0 || (size_t)n >= sizeof(path))
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(text, sizeof(text), "window %u\n", a->window);
	write_all(fd, text, n);
	close(fd);
}

/*
 * mark_done() - write /run/probecc.done (under the root) once the last
 * dump is out (the window dump, or the init dump when there is no window):
 * "window N\n".  mkdir /run first; the initramfs (rootfs) is
 * writable, no tmpfs needed.  In overlay mode the root is /.probecc,
 * which unmount_overlay() detaches: the file goes to the image's own
 * /run too, where an init that stays in the initramfs (Buildroot) looks
 * (after a switch_root that /run is the old rootfs's, seen by nobody,
 * or the tmpfs the user's init moved to the real root).  Errors are
 * ignored: nobody is left to tell.
 */
static void mark_done(struct agent *a)
{
	char run[AGENT_PATH_MAX];

	if (!rooted(a, run, sizeof(run), "/run"))
		write_done(a, run);
	if (a->pid1 && a->overlay)
		write_done(a, "/run");
}

/*
 * disarm_kprobes() - on MIPS, once the last dump is out, disable every
 * kprobe event (events/kprobes/enable = 0, in the top buffer and in the
 * plan's instance: the kprobe's breakpoint stays while one enables
 * it), which takes their
 * breakpoints out of the kernel text (kernel/trace/trace_kprobe.c:
 * disable_trace_kprobe() -> disable_kprobe()).  Nothing reads their
 * hits after the last dump, and Debian's MIPS 6.1 kernel sometimes
 * oopses in a kprobe's single-step (kernel-patches/README.md), killing
 * whatever process hit it, outside any dump.  Elsewhere they stay armed
 * for whoever reads tracefs later.  The definitions stay (kprobe_events
 * lists them).  Errors are ignored: no dump is left to say them.
 */
static void disarm_kprobes(const struct agent *a)
{
	/* the top buffer's, and the plan's instance's (enabling is per instance) */
	const char *dirs[] = { "", a->buf_dir };
	char path[AGENT_PATH_MAX], rel[sizeof(a->buf_dir) + 24];
	size_t i;
	int fd;

	if (strncmp(a->arch, "mips", 4) || !a->tracefs[0])
		return;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (i && !dirs[i][0])
			break;
		snprintf(rel, sizeof(rel), "%sevents/kprobes/enable", dirs[i]);
		if (path_join(path, sizeof(path), a->tracefs, rel))
			continue;
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		write_all(fd, "0\n", 2);
		close(fd);
	}
}

/*
 * unmount_overlay() - in overlay mode, lazily unmount /.probecc and all
 * under it once the last dump is out, so the initramfs keeps no mounts
 * of ours.  As PID 1 only; errors are ignored (nobody left to tell).
 */
static void unmount_overlay(struct agent *a)
{
	if (a->pid1 && a->overlay)
		umount2(a->root, MNT_DETACH);
}

/*
 * worker_exit() - the worker's end, once its last dump is out and the
 * real init released: as the boot's worker, at nice 19 first, so that
 * what its exit tears down (its perf events, each kprobe PMU event's
 * kprobe unregistered, kernel/trace/trace_kprobe.c
 * destroy_local_trace_kprobe(); the agent's memory once PID 1 has
 * exec'd) runs when the real init leaves the CPU free: a nice-0 task
 * gets 68 times its share (kernel/sched/core.c sched_prio_to_weight[]).
 * At nice 0 that teardown took Malta's real init 70 ms (a plan without
 * a window, bench/README.md).  Nothing is left to lose by then: the
 * dumps are out and /run/probecc.done is written; the MIPS kprobe
 * events are disabled, and the perf events' own kprobes go with the
 * teardown, later than at nice 0.  Never returns.
 */
static void __attribute__((noreturn)) worker_exit(const struct agent *a)
{
	if (a->pid1)
		setpriority(PRIO_PROCESS, 0, 19);
	_exit(0);
}

/*
 * window_child() - the worker of "window N", once it has released the
 * real init (worker_run()): detach from the console session (setsid,
 * an fd table of its own, unshared from the one PID 1 took through its
 * exec, and stdio on /dev/null), ignore the job-control and hangup
 * signals init or a shell may send, keep SIGTERM/SIGKILL so a shutdown
 * can end it, sleep N seconds on CLOCK_MONOTONIC, dump with stage
 * "window", mark done and _exit.  Never returns.
 */
static void __attribute__((noreturn)) window_child(struct agent *a)
{
	static const int ign[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU,
		SIGUSR1, SIGUSR2,
	};
	struct timespec until;
	char path[AGENT_PATH_MAX];
	size_t i;
	int fd;

	setsid();
	/* argv[0][0] == '@': systemd leaves an initrd's process alive */
	if (a->pid1 && a->overlay && a->argv0 && a->argv0[0])
		a->argv0[0] = '@';
	for (i = 0; i < sizeof(ign) / sizeof(ign[0]); i++)
		signal(ign[i], SIG_IGN);
	/* PID 1 may not have exec'd yet: its stdio is not ours to change */
	if (!unshare(CLONE_FILES) && !rooted(a, path, sizeof(path), "/dev/null")) {
		fd = open(path, O_RDWR);
		if (fd < 0)
			fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
	}
	if (chdir("/") < 0)
		errno = 0;	/* nothing to do about it */
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += a->window;
	if (a->n_perf)
		perf_wait(a, &until);	/* reading the perf rings meanwhile */
	else
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until,
				       NULL) == EINTR)
			;
	dump(a, "window");
	disarm_kprobes(a);
	notrace_clear(a);
	mark_done(a);
	unmount_overlay(a);
	worker_exit(a);
}

/*
 * agent_work() - the agent's work up to the init dump: the mounts (as
 * PID 1), out of the trace (as PID 1 on 5.8+: this task's PID in the
 * notrace lists, then its mark), the plan, the sink, the capture and the
 * init dump.  @release: with a window (the worker goes on after the
 * dump), what lets the real init start once the init dump's clock mark
 * is in the trace (struct agent's release; dump() calls it), or NULL.
 */
static void agent_work(struct agent *a, void (*release)(struct agent *a))
{
	long long t;
	int rc;

	if (a->pid1)
		mounts(a);
	else if (!a->tracefs[0])
		find_tracefs(a);
	a->mounts_us = agent_us(a);
	/*
	 * The worker's PID was no task's before the clone and is never the
	 * real init's: the report leaves out its every hit by its mark
	 * alone.  The PID lists would cost each later context switch the
	 * events' PID probes (kernel/trace/trace_events.c
	 * register_pid_events()) and 6.7-15.7 ms of a Malta start
	 * (bench/README.md).  PID 1 doing the work itself goes in them, and
	 * out again before its exec.
	 */
	if (a->pid1 && a->tracefs[0] &&
	    (getpid() != 1 || !notrace_buffer(a, "", getpid()))) {
		a->self_pid = getpid();
		a->self_ns = self_mark(a);
	}
	boot_nonce(a);	/* in the task that dumps: one nonce per boot */
	plan_run(a);
	if (a->window)
		a->release = release;
	/*
	 * A "persist" line may have opened the sink; a dump that may be cut
	 * opens it after the release (dump()), a capture's frame goes first
	 */
	t = agent_us(a);
	if (a->sink_fd < 0 && (!a->release || a->capture))
		sink_open(a);
	a->sink_us = agent_us(a) - t;
	if (a->capture) {
		rc = capture(a);
		if (rc)
			fprintf(stderr, "probecc-agent: capture: %s\n",
				strerror(-rc));
	}
	rc = dump(a, "init");
	if (rc)
		fprintf(stderr, "probecc-agent: dump: %s\n", strerror(-rc));
}

/* No window: the last dump is out, say so to early userspace. */
static void last_dump_out(struct agent *a)
{
	disarm_kprobes(a);
	mark_done(a);
	unmount_overlay(a);
}

/* The worker's stack: mapped, not touched until used. */
#define WORKER_STACK	(8 << 20)

/*
 * The plan's init lines, which the worker read, for the task that execs
 * the real init: the worker shares this task's memory (CLONE_VM), and
 * writes them before the release.  A copy, as the worker may free the
 * plan's strings while PID 1 execs.
 */
struct init_list {
	int n;
	char path[AGENT_MAX_INITS][AGENT_PATH_MAX];
};

/*
 * What the worker restores and whom it releases: the signal mask the
 * agent had before it blocked SIGUSR1 and SIGCHLD to wait for the
 * worker, the waiting task's PID and where its init list goes.
 */
struct worker_arg {
	struct agent *a;
	sigset_t mask;
	pid_t parent;
	struct init_list *inits;
};

/* The plan's init lines into @l (those too long for a path: left out). */
static void inits_put(const struct agent *a, struct init_list *l)
{
	int i;

	for (i = 0; i < a->n_inits; i++)
		if (strlen(a->inits[i]) < sizeof(l->path[0]))
			strcpy(l->path[l->n++], a->inits[i]);
}

/* And back into @a, pointing into @l, once the worker released it. */
static void inits_get(struct agent *a, struct init_list *l)
{
	int i;

	for (i = 0; i < l->n && i < AGENT_MAX_INITS; i++)
		a->inits[i] = l->path[i];
	a->n_inits = i;
}

/* The worker's own: what worker_release() needs, and whether it ran. */
static struct worker_arg *worker;
static int released;

/*
 * worker_release() - let PID 1 exec the real init: the plan's init lines
 * to it (inits_put()), then SIGUSR1, unless the parent is gone.  Once.
 */
static void worker_release(struct agent *a)
{
	a->release = NULL;
	released = 1;
	a->fork_us = agent_us(a);
	inits_put(a, worker->inits);
	if (getppid() == worker->parent)
		kill(worker->parent, SIGUSR1);
}

/*
 * worker_run() - the agent's worker (worker_clone()): the whole of
 * agent_work(); with a window the init dump releases PID 1 as soon as
 * its clock mark is in the trace (dump(): a cut dump), and the worker
 * goes on as the window child; without one it releases PID 1 once the
 * last dump is out (last_dump_out()), empties the notrace lists of its
 * PID and exits at nice 19 (worker_exit()).  It shares PID 1's memory
 * (CLONE_VM) up to PID 1's exec, which gives PID 1 a new mm and leaves
 * the worker the old one, the perf rings it maps included (fs/exec.c
 * exec_mmap()).
 */
static int worker_run(void *p)
{
	struct agent *a;

	worker = p;
	a = worker->a;
	sigprocmask(SIG_SETMASK, &worker->mask, NULL);
	agent_work(a, worker_release);
	if (!a->window)
		last_dump_out(a);
	if (!released)	/* not by the dump: no window, a raw dump */
		worker_release(a);
	if (a->window)
		window_child(a);
	notrace_clear(a);
	worker_exit(a);
}

/*
 * worker_clone() - start the agent's worker (worker_run()) at once and
 * wait until it releases this task, or ends: PID 1's own work before the
 * real init is a clone(2), a wait and the exec.  CLONE_FILES: the
 * console the worker opens as fds 0..2 (fix_stdio()) is this task's, for
 * the real init; every other fd is O_CLOEXEC, and the exec gives PID 1
 * a table of its own (fs/exec.c begin_new_exec() -> unshare_files()).
 * CLONE_VM: no page tables copied and no copy-on-write faults in the
 * worker (5-10 ms of a Malta boot under TCG, bench/README.md); so once
 * released PID 1 only reads
 * the init list and execs (exec_init()): no malloc, no stdio, as musl's
 * and glibc's malloc take no lock in a process that started no thread
 * (the worker shares the C library's TLS, errno included).  The stack
 * stays mapped for the worker.  SIGUSR1 and SIGCHLD
 * are blocked while waiting, so PID 1, which gets no signal it has no
 * handler for, still has them queued (kernel/signal.c sig_ignored():
 * "blocked signals are never ignored"); a worker that dies releases it
 * by its SIGCHLD.  The mask is restored before returning.  Returns the
 * worker's PID, @a's init lines the plan's (inits_get()), or -1 (errno
 * that of the failed call) when there is no worker: the caller does the
 * work itself.
 */
static pid_t worker_clone(struct agent *a)
{
	static struct worker_arg w;
	static struct init_list inits;
	sigset_t wait_set;
	siginfo_t si;
	char *stack;
	pid_t pid;
	int err;

	sigemptyset(&wait_set);
	sigaddset(&wait_set, SIGUSR1);
	sigaddset(&wait_set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &wait_set, &w.mask))
		return -1;
	w.inits = &inits;
	stack = mmap(NULL, WORKER_STACK, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	pid = -1;
	err = errno;
	if (stack != MAP_FAILED) {
		w.a = a;
		w.parent = getpid();
		pid = clone(worker_run, stack + WORKER_STACK,
			    CLONE_VM | CLONE_FILES | SIGCHLD, &w);
		err = errno;
	}
	if (pid < 0 && stack != MAP_FAILED)
		munmap(stack, WORKER_STACK);	/* else the worker's, to its end */
	while (pid > 0) {
		if (sigwaitinfo(&wait_set, &si) < 0)
			continue;	/* EINTR */
		if (si.si_pid == pid)
			break;
	}
	if (pid > 0)
		inits_get(a, w.inits);
	sigprocmask(SIG_SETMASK, &w.mask, NULL);
	errno = err;
	return pid;
}

/*
 * exec_say() - a message of at most 511 bytes on fd 2, formatted on the
 * stack (vsnprintf() touches no FILE or list of FILEs) and written
 * whole: for PID 1 after the release, beside the worker.
 */
static void exec_say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		write_all(2, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/*
 * exec_init() - exec the first init that works: the plan's, then (overlay
 * mode) the image's own /init, then the kernel's order.  As PID 1 the
 * paths are the real ones (not under the overlay's /probecc root).
 * argv[0] is the init's path as the plan names it, written over
 * @args[-1] (the agent's own argv[0] or last option: no allocation, as
 * the worker shares this memory); @args (NULL-terminated) follow.  In
 * test mode the paths are looked up under --root, and with --no-exec
 * the first executable one is only printed ("would exec PATH" on
 * stderr) and 0 returned.  SIGPIPE, ignored by the agent, is set back
 * to the default first (SIG_IGN survives exec).  Messages go out by
 * exec_say(), not through stdio, whose FILEs the worker may be using.
 * Returns -1 when no init could be exec'd.
 */
static int exec_init(struct agent *a, char **args)
{
	const char *list[AGENT_MAX_INITS + 5];
	char path[AGENT_PATH_MAX], **av = args - 1;
	int n = 0, i;

	for (i = 0; i < a->n_inits; i++)
		list[n++] = a->inits[i];
	if (a->overlay)
		list[n++] = "/init";
	for (i = 0; i < 4; i++)
		list[n++] = default_inits[i];
	signal(SIGPIPE, SIG_DFL);
	for (i = 0; i < n; i++) {
		if (a->pid1 ? strlen(list[i]) >= sizeof(path) :
		    rooted(a, path, sizeof(path), list[i]) != 0)
			continue;
		if (a->pid1)
			strcpy(path, list[i]);
		if (a->no_exec) {
			if (!access(path, X_OK)) {
				exec_say("agent: would exec %s\n", list[i]);
				return 0;
			}
			continue;
		}
		av[0] = (char *)list[i];
		execv(path, av);
		exec_say("probecc-agent: exec %s: %s\n", list[i],
			 strerror(errno));
	}
	exec_say("probecc-agent: no init found\n");
	return -1;
}

int main(int argc, char **argv)
{
	static struct agent a;
	int first = 1, rc;
	pid_t worker;

	clock_gettime(CLOCK_MONOTONIC, &a.t0);
	a.t0_boot_ns = boot_ns();
	a.pid1 = getpid() == 1;
	a.sink_fd = -1;
	a.mounts_us = a.plan_us = a.plan_cpu_us = a.sink_us = a.dump_us =
		a.fork_us = -1;
	strcpy(a.sink, "console");
	/* the kernel's command line asks (qemu-images/lava-job): lava.c */
	a.lava_signals = getenv("probecc_signals") &&
			 !strcmp(getenv("probecc_signals"), "lava");
	signal(SIGPIPE, SIG_IGN);	/* a sink write error is reported */
	a.argv0 = argv[0];
	if (!a.pid1)
		first = parse_args(&a, argc, argv);
	else if (argv[0] && strcmp(argv[0], "/init")) {
		a.overlay = 1;
		strcpy(a.root, AGENT_OVERLAY_ROOT);
	}
	/* the plan is in the image, not under the overlay's mounts */
	if (!a.plan_path[0] && (a.pid1 ||
	    rooted(&a, a.plan_path, sizeof(a.plan_path), "/probecc/plan")))
		strcpy(a.plan_path, "/probecc/plan");

	worker = worker_clone(&a);
	if (worker < 0) {
		/*
		 * No worker: today's agent of one task.  Its PID is the real
		 * init's: out of the notrace lists before the exec.
		 */
		fprintf(stderr, "probecc-agent: clone: %s; no window dump\n",
			strerror(errno));
		agent_work(&a, NULL);
		last_dump_out(&a);
		notrace_clear(&a);
	} else if (a.pid1) {
		fix_stdio(&a);	/* the worker died before it opened the console */
	}
	rc = exec_init(&a, argv + first);
	/*
	 * Not exec'd: --no-exec, or no init at all, where PID 1's exit
	 * panics the kernel: the worker's dumps go out first.
	 */
	if (worker > 0)
		waitpid(worker, NULL, 0);
	return rc ? 1 : 0;
}
