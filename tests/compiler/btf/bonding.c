// SPDX-License-Identifier: GPL-2.0
/*
 * A module in miniature for tests/compiler.test.sh's module-BTF cases:
 * bonding's struct bonding, whose first member points to its
 * net_device (drivers/net/bonding, include/net/bonding.h), and two of
 * its functions.  tests/compiler/btf/mkmodule.py makes
 * modules/bonding.ko of it: the x86_64 object's symbols, and a .BTF
 * section split on kernel.btf (the types kernel.c has are the kernel's,
 * as pahole --btf_base vmlinux leaves them in a real module).
 */
#include "kernel.c"

struct bond_params {
	int mode;
	int miimon;
};

struct bonding {
	struct net_device *dev;
	char pad[280];
	struct bond_params params;
};

void bond_work_init_all(struct bonding *bond)
{
	bond->params.miimon = bond->dev->ifindex;
}

int bond_create(struct net_device *net, const char *name)
{
	return name ? net->mtu : 0;
}
