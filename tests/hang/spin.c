// SPDX-License-Identifier: GPL-2.0
/*
 * spin.ko: a module whose init never returns, for the hang test of
 * tests/hang.sh.  It spins with preemption off, so on the one CPU of the
 * QEMU guest nothing else runs again: the boot stops making progress
 * (until the soft-lockup watchdog speaks, about 20 s later: watchdog_thresh
 * 10 s, kernel/watchdog.c get_softlockup_thresh()).  The message before
 * the spin is the test's sign that the hang began after the probe's hit.
 */
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/processor.h>

static int __init spin_init(void)
{
	pr_info("spin: spinning in init, preemption off\n");
	preempt_disable();
	for (;;)
		cpu_relax();
	return 0;
}
module_init(spin_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("probecc test: a module init that hangs the boot");
