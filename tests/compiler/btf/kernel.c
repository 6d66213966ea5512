// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel's types in miniature, for tests/compiler.test.sh's BTF cases:
 * built with "clang -target bpf -g -c" into an ELF whose .BTF section is
 * the encoding the kernel's own /sys/kernel/btf/vmlinux uses
 * (Documentation/bpf/btf.rst).  struct net_device keeps the shape that
 * matters in Debian's 6.12 (include/linux/netdevice.h, 6.8's cacheline
 * groups): no member before priv_flags_fast at offset 0, name[] at 304.
 */
typedef unsigned char u8;
typedef unsigned int u32;

struct net_device;

struct net_device_ops {
	int (*ndo_init)(struct net_device *dev);
	int (*ndo_open)(struct net_device *dev);
};

struct stats {
	unsigned long rx_packets;
	unsigned long tx_packets;
};

struct net_device {
	u8 __cacheline_group_begin__net_device_read_tx[0];
	union {
		struct {
			unsigned long priv_flags:32;
			unsigned long lltx:1;
		};
		unsigned long priv_flags_fast;
	};
	const struct net_device_ops *netdev_ops;
	struct stats stats;
	char pad[272];
	char name[16];
	u32 mtu;
	int ifindex;
	unsigned int flags:3;
	unsigned int state:5;
	unsigned char perm_addr[32];
	const char *ifalias;
};

struct wide {
	long long a;
};

int register_netdevice(struct net_device *dev)
{
	return dev->mtu;
}

int pass_struct(struct wide w, struct net_device *dev)
{
	return (int)w.a + dev->ifindex;
}

/* a definition, not only the declaration a pointer needs (BTF_KIND_FWD) */
struct net_device_ops loopback_ops;
