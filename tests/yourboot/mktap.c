// SPDX-License-Identifier: GPL-2.0
/*
 * tests/yourboot/mktap.c: a user's own tool, as a new user brought one:
 * creates a tap device through /dev/net/tun (tun.ko) and
 * says its name.  make_tap() has five arguments, so the uprobe on it
 * reads one past o32's four argument registers, from the stack.
 */
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

__attribute__((noinline)) int make_tap(const char *tmpl, int flags, int owner,
				       int persist, int tag)
{
	struct ifreq ifr;
	int fd = open("/dev/net/tun", O_RDWR);

	if (fd < 0) {
		perror("mktap: /dev/net/tun");
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = flags;
	strncpy(ifr.ifr_name, tmpl, IFNAMSIZ - 1);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0 ||
	    (owner >= 0 && ioctl(fd, TUNSETOWNER, owner) < 0) ||
	    ioctl(fd, TUNSETPERSIST, persist) < 0) {
		perror("mktap: ioctl");
		close(fd);
		return -1;
	}
	printf("mktap: %s (tag %d)\n", ifr.ifr_name, tag);
	close(fd);
	return 0;
}

int main(void)
{
	return make_tap("tap%d", IFF_TAP | IFF_NO_PI, 0, 1, 4242) ? 1 : 0;
}
