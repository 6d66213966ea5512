// SPDX-License-Identifier: GPL-2.0
/*
 * tests/regress/slowinit.c: a module whose initcall sleeps delay_ms
 * (default 0).  The baseline's boots load it as it is, the regression's
 * with delay_ms=200: the same initcall, 200 ms slower.
 */
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/module.h>

static unsigned int delay_ms;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "how long the initcall sleeps, in milliseconds");

static int __init slowinit_init(void)
{
	if (delay_ms)
		msleep(delay_ms);
	return 0;
}

static void __exit slowinit_exit(void)
{
}

module_init(slowinit_init);
module_exit(slowinit_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("an initcall made slower on demand, for probecc's baseline tests");
