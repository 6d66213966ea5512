// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of any /init that execs the real init: exec /sbin/init at
 * once.  bench/agent-cost.sh boots it as AGENT_B to tell the cost of the
 * extra exec from the agent's own work (bench/README.md):
 *   aarch64-linux-gnu-gcc -static -Os -s -o hop-arm64 bench/hop.c
 */
#include <unistd.h>

int main(int argc, char **argv)
{
	(void)argc;
	argv[0] = "/sbin/init";
	execv("/sbin/init", argv);
	return 1;
}
