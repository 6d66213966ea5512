// SPDX-License-Identifier: GPL-2.0
/*
 * rc-static: the "real init" (/sbin/init) of the big-endian mips64 test
 * images (tests/kernel/mips64be.sh), a static C program in place of
 * qemu-images/rc/bond0: Debian has no busybox for big-endian MIPS, and
 * the scenarios need only what this does.
 *
 *  1. mounts proc, sysfs and devtmpfs where the agent has not;
 *  2. says whether bond0 (built-in bonding's bond_create at boot) exists;
 *  3. creates bond1 through /sys/class/net/bonding_masters (a
 *     register_netdevice from userspace, bond_create from
 *     bonding_store_bonds);
 *  4. mkdir("/proc") twice, which fails with EEXIST each time: a known
 *     return value (-17) for a kretprobe on do_mkdirat (fs/namei.c, 6.1);
 *  5. mmap(0x12340000, 0x2000, PROT_READ, MAP_PRIVATE, fd of /init,
 *     3 pages): do_mmap (mm/mmap.c, 6.1) gets 8 arguments, 5 and 6 of
 *     them known (flags 2, pgoff 3) for an n64 kprobe reading them from
 *     $8-$11 (tests/kernel/mips64be-args.probes);
 *  6. runs /bin/args10, /bin/chain, /bin/chain-O0, /bin/chain-s,
 *     /bin/qsort and /bin/dlopen, each when the image has it
 *     (tests/boot64/args10.c, the uprobe target of ten arguments;
 *     tests/ustack/chain.c -O2, -O0 and stripped, qsort.c and dlopen.c,
 *     the user stacks), built n64 big-endian by the test;
 *  7. waits for the agent's window dump (/run/probecc.done, 30 s at most)
 *     and powers off (reboot(2) RB_POWER_OFF).
 * Messages go to the console prefixed "rc:".  Built by the test with the
 * target's cross compiler, -static.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void say(const char *what, int err)
{
	if (err)
		printf("rc: %s: %s\n", what, strerror(err));
	else
		printf("rc: %s\n", what);
	fflush(stdout);
}

/* Run the program @path without arguments when the image has it. */
static void run(const char *path)
{
	pid_t pid;
	int status = 0;

	if (access(path, X_OK))
		return;
	pid = fork();
	if (!pid) {
		execl(path, strrchr(path, '/') + 1, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || status) {
		printf("rc: %s failed: %s\n", path, pid < 0 ? strerror(errno) : "exit status");
		fflush(stdout);
	}
}

/* mount(2) that takes EBUSY (already mounted by the agent) as success */
static void mnt(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) && errno != EBUSY)
		say(dir, errno);
}

int main(void)
{
	struct timespec fifth = { 0, 200 * 1000 * 1000 };
	int fd, i;

	mnt("proc", "/proc");
	mnt("sysfs", "/sys");
	mnt("devtmpfs", "/dev");
	mkdir("/run", 0755);	/* no tmpfs: the agent writes into the rootfs */
	say("real init (rc-static)", 0);

	say(access("/sys/class/net/bond0", F_OK) ? "bond0 absent" : "bond0 present", 0);
	fd = open("/sys/class/net/bonding_masters", O_WRONLY);
	if (fd < 0 || write(fd, "+bond1", 6) != 6)
		say("bond1 not created", errno);
	else
		say("bond1 created", 0);
	if (fd >= 0)
		close(fd);

	for (i = 0; i < 2; i++)
		if (mkdir("/proc", 0755) == 0 || errno != EEXIST)
			say("mkdir /proc did not fail with EEXIST", errno);

	fd = open("/init", O_RDONLY);
	if (fd < 0 || mmap((void *)0x12340000, 0x2000, PROT_READ, MAP_PRIVATE, fd,
			   3 * sysconf(_SC_PAGESIZE)) == MAP_FAILED)
		say("mmap of /init failed", errno);
	if (fd >= 0)
		close(fd);

	run("/bin/args10");
	run("/bin/chain");
	run("/bin/chain-O0");
	run("/bin/chain-s");
	run("/bin/qsort");
	run("/bin/dlopen");

	for (i = 0; i < 150 && access("/run/probecc.done", F_OK); i++)
		nanosleep(&fifth, NULL);
	say(i < 150 ? "agent done" : "no /run/probecc.done after 30 s", 0);
	sync();
	reboot(RB_POWER_OFF);
	say("reboot(RB_POWER_OFF) returned", errno);
	return 1;
}
