#!/bin/bash
# bench/boot.sh: what one QEMU boot of each target costs (docs/boards.md; bench/README.md,
# "Boot targets: what a boot costs").  For each TARGET, REPS boots of qemu-images/run-probes with
# a minimal probe file (one kprobe on kernel_execve, the dump, no window:
# the image run-probes builds, with the bonding modules and
# qemu-images/rc/bond0 as the real init); prints a Markdown table of the
# median and range of run-probes' "boot took N s wall" (qemu-images/boot
# start to QEMU's exit).  The raw figures stay in $OUT.
#
# usage: bench/boot.sh [TARGET...]   (default: every target of machines.sh)
# Environment: REPS=3, OUT=dir (default: a new directory under /tmp).
# Fetches what it needs (qemu-images/fetch); builds nothing (run make).
set -eu -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. qemu-images/machines.sh
reps=${REPS:-3}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/probecc-bench-boot.XXXXXX")}
mkdir -p "$out"
printf 'kprobe exec kernel_execve { filename = arg1:string }\ndump /dev/ttyS1\n' > "$out/min.probes"

echo "| target | boots | median | range |"
echo "|---|---|---|---|"
for t in ${*:-$MACHINES}; do
	: > "$out/$t.times"
	for i in $(seq "$reps"); do
		echo "bench/boot.sh: $t boot $i of $reps" >&2
		if qemu-images/run-probes --arch "$t" --out "$out/$t-$i" "$out/min.probes" \
			> "$out/$t-$i.log" 2>&1; then
			sed -n 's/^run-probes: boot took \([0-9.]*\) s wall.*/\1/p' "$out/$t-$i.log" >> "$out/$t.times"
		else
			echo "bench/boot.sh: $t boot $i failed: $out/$t-$i.log" >&2
		fi
	done
	sort -n "$out/$t.times" | awk -v t="$t" '
		{ v[NR] = $1 }
		END {
			if (!NR) { printf "| %s | 0 | - | - |\n", t; exit }
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "| %s | %d | %.1f s | %.1f-%.1f s |\n", t, NR, m, v[1], v[NR]
		}'
done
