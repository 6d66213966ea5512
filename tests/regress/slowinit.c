// SPDX-License-Identifier: GPL-2.0
/* tests/regress/slowinit.c: an initcall that takes 200 ms (msleep) */
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/module.h>

static int __init slowinit_init(void)
{
	msleep(200);
	return 0;
}

static void __exit slowinit_exit(void)
{
}

module_init(slowinit_init);
module_exit(slowinit_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("an initcall made 200 ms slower, for probecc's baseline tests");
