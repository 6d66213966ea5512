/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the compiler (compiler/emit.c writes the plan) and the agent
 * (initramfs/plan.c reads it) agree on about the plan: one number, so
 * that the two cannot drift apart.  docs/plan.md has the format.
 */
#ifndef PROBECC_PLAN_H
#define PROBECC_PLAN_H

/* The most plan the agent reads, in bytes: a longer plan is refused by probecc. */
#define PLAN_MAX	(1024 * 1024)

#endif
