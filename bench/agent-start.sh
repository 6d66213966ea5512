#!/bin/bash
# bench/agent-start.sh [OUT]: for each agent boot of bench/agent-cost.sh cost
# (OUT, its directory), the kernel's "Run /init" (printk clock) and the
# agent's start (the manifest's timebase START_NS, CLOCK_BOOTTIME, moved
# onto the printk/trace clock by the probecc-clock trace marker: its
# trace time minus the middle of MARK_NS..MARKED_NS, docs/plan.md): the
# time the kernel takes to exec the agent and the agent to reach main().
cd "${1:?usage: bench/agent-start.sh OUT}"
for d in cost-with-*.dump1; do
	b=${d%.dump1}
	run=$(grep -a -m1 "Run /init" $b.console | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
	tb=$(grep -a -m1 "^timebase" $d | tr '\t' ' ')
	mk=$(grep -a -m1 "tracing_mark_write: probecc-clock" $d | awk '{for(i=1;i<=NF;i++) if ($i=="tracing_mark_write:") print $(i-1)}' | tr -d :)
	echo "$b $run $tb $mk" | awk '{ start=$4/1e9; mid=($5+$6)/2e9; off=$NF-mid; s=start+off; printf "%s run %.6f agent-start %.6f  run->start %.3f s\n", $1, $2, s, s-$2 }'
done
