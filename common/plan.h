/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the compiler (compiler/emit.c writes the plan) and the agent
 * (initramfs/plan.c reads it) agree on about the plan: one number, so
 * that the two cannot drift apart (numbers, so far).  docs/plan.md has the format.
 */
#ifndef PROBECC_PLAN_H
#define PROBECC_PLAN_H

/* The most plan the agent reads, in bytes: a longer plan is refused by probecc. */
#define PLAN_MAX	(1024 * 1024)

/*
 * A "perf" line's user stack copy, in bytes: at most PLAN_USTACK_MAX
 * (a perf record's size is a u16: include/uapi/linux/perf_event.h,
 * perf_sample_ustack_size() in kernel/events/core.c trims to it), a
 * multiple of 8 (perf_copy_attr()).  The default is perf record's own
 * for --call-graph dwarf (tools/perf/util/callchain.c, 8192), kept on
 * measurement (bench/README.md, "how much stack"): the test programs'
 * walks reach _start/__start within 512-768 bytes on every arch, but
 * the kernel copies no more than the stack holds (to the end of its
 * mapping: dyn_size, kernel/events/core.c perf_output_sample_ustack();
 * 1.5-8 KiB in those boots), and the agent's work is per byte copied,
 * so a small program pays for its own stack, not the 8 KiB; a smaller
 * default would cut deeper programs' stacks (one 4 KiB buffer in a
 * frame), while a hot probe can ask "stack 2048" (2 KiB: 3.32x a plain
 * uprobe hit per sample on Malta against 5.93x for 8 KiB).
 */
#define PLAN_USTACK_MAX		32768
#define PLAN_USTACK_DEFAULT	8192

#endif
