// SPDX-License-Identifier: GPL-2.0
/*
 * A uprobe target for tests/boot64.test.sh: ten() takes ten arguments
 * of known values, so that a uprobe's argN is checked past the argument
 * registers: arg5-10 on o32's stack (+16($stack) on), arg9-10 on n64's
 * and AAPCS64's ($stack0, $stack1).  Built static for each userland
 * (o32, n64, arm64); run once by tests/boot64/rc-args10 after the agent
 * armed the uprobes.  Prints "args10: ten = SUM" (SUM 842).
 *
 * It first calls perf_event_open(2) once with known values, for the
 * kprobe on perf_event_alloc() of boot64's args scenario, whose
 * arguments 5-8 are passed in registers on n64 and AAPCS64
 * (kernel/events/core.c, 6.1: perf_event_alloc(&attr, cpu, task,
 * group_leader, NULL, NULL, NULL, cgroup_fd)): a tracepoint event
 * (type 2) on cpu 0 of no task (pid -1), no group, no cgroup (-1).  Its
 * config names no tracepoint, so the kernel refuses the event after
 * perf_event_alloc() was called (ENOENT): nothing is opened.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

long __attribute__((noipa, used)) ten(long a1, const char *a2, long a3,
					 long a4, long a5, long a6, long a7,
					 long a8, long a9, long a10)
{
	return a1 + a2[0] + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10;
}

int main(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = ~0ULL;
	syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0UL);
	/* 0x11 + 't' (0x74) + 0x33 + 0x44 + 0x55 + 0x66 + 0x77 + 0x88 + 0x99 - 5 */
	printf("args10: ten = %ld\n", ten(0x11, "two", 0x33, 0x44, 0x55, 0x66,
					   0x77, 0x88, 0x99, -5));
	return 0;
}
