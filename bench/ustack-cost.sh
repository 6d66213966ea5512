#!/bin/bash
# bench/ustack-cost.sh: the agent's extra cost per user-stack sample on
# Malta mipsel (bench/README.md, "User stacks: the cost per sample").
# One image, booted RUNS times (qemu-images/run-probes, the
# cached Debian 6.1 Malta kernel, --module none): its rc runs the same
# static program (bench/ustack-cost/ucost.c: N calls of a noinline
# probe_me() below a 12 KiB frame, the wall time per call by
# CLOCK_MONOTONIC) under four names, one after the other, in two modes:
# tight (N calls in a loop: the loop's wall time per call) and paced
# (NP calls, a sleep of SLEEP_US after every BATCH calls, so that the
# agent reads the perf ring before it fills: the median call's wall time,
# plus the agent's CPU time per call, utime + stime of its window child
# around each program, read by the rc).  The variants:
#   ucost-none     no probe
#   ucost-plain    a uprobe (x = arg1:s32), traced
#   ucost-stack    the same with "stack": the twin uprobe's perf sample of
#                  the user registers and an 8 KiB user-stack copy, which
#                  the agent's window child reads from the perf ring
#   ucost-stack2k  the same with "stack 2048"
# Malta has one CPU: the agent's reading of the rings (poll at half a
# ring, hex into its dump text) runs between the program's calls, so
# its cost is in the program's wall time (tight), or in its own CPU
# time, added (paced).  In the tight loop the ring (64 KiB) fills: the kernel
# drops the samples that do not fit (counted as lost, and neither copied
# nor read), so the tight figures are a lower bound of a sample's cost
# and the paced ones, where every sample is read, the cost.  Per boot: ns per
# call of each; stack - plain is a user-stack sample's cost, plain -
# none the uprobe's own; the ratios to the plain uprobe are the figures
# to read (TCG emulation scales every number).  The window dump's
# perf-stat lines say how many samples the agent read, how many the
# kernel lost to a full ring (PERF_RECORD_LOST) or throttled, and its
# note how many it read but did not keep (the dump's 2 MiB of sample
# text); the perf-user lines kept are counted, with their copy sizes.
#
# usage: bench/ustack-cost.sh
# Environment: N=20000 calls per variant, in ROUNDS=4 rounds (the rc
# interleaves the variants: none, plain, stack, stack2k, none, ...; the
# figure is the rounds' mean), NP=2000, BATCH=1, SLEEP_US=2000,
# RUNS=3, WINDOW=90s (the agent's
# window: every program's calls must end in it), OUT=dir (default a new
# one under /tmp).  Boots run one at a time.
set -eu -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
n=${N:-20000}
runs=${RUNS:-3}
rounds=${ROUNDS:-4}
np=${NP:-2000}
batch=${BATCH:-1}
sleep_us=${SLEEP_US:-2000}
window=${WINDOW:-90s}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/probecc-bench-ucost.XXXXXX")}
mkdir -p "$out/sysroot/bin"
out=$(cd "$out" && pwd)
src=bench/ustack-cost
cp ./probecc "$out/probecc"
mipsel-linux-gnu-gcc -static -g -O2 -o "$out/ucost" $src/ucost.c
for v in none plain stack stack2k pnone pplain pstack pstack2k; do
	cp "$out/ucost" "$out/sysroot/bin/ucost-$v"
done
sed "s/WINDOW/$window/" $src/ucost.probes > "$out/ucost.probes"
sed "s/NCALLS/$((n / rounds))/; s/NPACED/$((np / rounds))/; s/ROUNDS/$rounds/; s/BATCH/$batch/; s/SLEEP_US/$sleep_us/" $src/rc > "$out/rc"
chmod +x "$out/rc"

echo "bench/ustack-cost.sh: $(date -u '+%F %T') UTC, $(git describe --always --dirty), N=$n, NP=$np paced by $batch calls and ${sleep_us} us, RUNS=$runs, window $window, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
# one row per boot and mode: the program's ns per call (tight: the
# loop's wall time; paced: the median call), the agent's CPU ns per call
# (its ticks while the program ran), the uprobe's cost (plain - none)
# and a sample's (stack - plain; paced: plus the agent's stack - plain,
# as its reading ran in the sleeps), the ratios, and the stack probes'
# samples (the agent's perf-stat: read, lost by the kernel, throttled;
# the perf-user lines kept in the dump, with their copy sizes)
echo
echo "| boot | mode | none ns/call | plain | stack 8 KiB | stack 2 KiB | agent ns/call: plain / 8k / 2k | uprobe (plain - none) | 8 KiB sample | 2 KiB sample | 8k sample / uprobe | 2k sample / uprobe | 8k samples read / lost / throttled / kept (bytes) | 2k samples read / lost / throttled / kept (bytes) | load |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for i in $(seq "$runs"); do
	d=$out/run-$i
	load=$(cut -d' ' -f1 /proc/loadavg)
	echo "bench/ustack-cost.sh: boot $i of $runs" >&2
	rc=0
	qemu-images/run-probes --arch mipsel --out "$d" --timeout 900 --module none \
		--rc "$out/rc" --sysroot "$out/sysroot" "$out/ucost.probes" > "$d.log" 2>&1 || rc=$?
	[ $rc = 0 ] || echo "bench/ustack-cost.sh: boot $i: run-probes exit $rc ($d.log)" >&2
	# ns MODE NAME: the program's figure, the mean over the rounds
	# (tight: wall ns per call; paced: the median call)
	ns() {
		case $1 in
		paced) sed -n "s|.*ucost /bin/ucost-p$2 paced $batch calls $((np / rounds)) ns_per_call [0-9]* median_ns \([0-9]*\).*|\1|p" "$d/console.log" ;;
		*) sed -n "s|.*ucost /bin/ucost-$2 calls $((n / rounds)) ns_per_call \([0-9]*\).*|\1|p" "$d/console.log" ;;
		esac | awk -v r=$rounds '{ s += $1; k++ } END { if (k == r) printf "%.0f\n", s / k }'
	}
	# agent MODE NAME: the agent's CPU ns per call of NAME's programs
	agent() {
		local name=$2 calls=$((n / rounds * rounds))
		[ $1 = tight ] || name=p$2 calls=$((np / rounds * rounds))
		sed -n "s|.*ucost-agent $name ticks \([0-9]*\).*|\1|p" "$d/console.log" |
			awk -v r=$rounds -v c=$calls '{ s += $1; k++ } END { if (k == r) printf "%.0f\n", s * 1e7 / c }'
	}
	# samples PROBE CALLS: "read / lost / throttled / kept (bytes)"; a
	# probe whose read + lost is not CALLS is flagged (the window ended
	# first, or the kernel had lost samples it had not yet reported)
	samples() {
		awk -F'\t' -v p="$1" -v calls="$2" '
			$1 == "perf-stat" && $2 == p { s = $4; l = $6; t = $8 }
			$1 == "perf-user" && $2 == p { k++; b[$10]++ }
			END { for (x in b) bs = bs (bs ? "," : "") x
			      printf "%s / %s / %s / %d (%s)%s", s == "" ? "-" : s, l == "" ? "-" : l, t == "" ? "-" : t, k, bs,
				s + l == calls ? "" : sprintf(" **%d unaccounted**", calls - s - l) }' "$d/dump2" 2> /dev/null ||
			echo "- (no dump2)"
	}
	for mode in tight paced; do
		p= calls=$((n / rounds * rounds))
		[ $mode = tight ] || p=p calls=$((np / rounds * rounds))
		a=$(ns $mode none) b=$(ns $mode plain) c=$(ns $mode stack) e=$(ns $mode stack2k)
		ab=$(agent $mode plain) ac=$(agent $mode stack) ae=$(agent $mode stack2k)
		awk -v i="$i" -v m="$mode" -v a="$a" -v b="$b" -v c="$c" -v e="$e" \
			-v ab="$ab" -v ac="$ac" -v ae="$ae" -v out="$out/ns.tsv" \
			-v s8="$(samples ${p}stack $calls)" -v s2="$(samples ${p}stack2k $calls)" -v load="$load" 'BEGIN {
			if (a == "" || b == "" || c == "" || e == "" || ab == "" || ac == "" || ae == "") {
				printf "| %d | %s | (a figure is missing: see the boot'"'"'s console.log) |\n", i, m
				exit
			}
			u = b - a
			# tight: the wall time has the agent in it (one CPU); paced: its reading ran in the sleeps
			s8x = c - b + (m == "paced" ? ac - ab : 0)
			s2x = e - b + (m == "paced" ? ae - ab : 0)
			printf "%d %s %s %s %s %s %s %s %s %s %s %s\n", i, m, a, b, c, e, ab, ac, ae, u, s8x, s2x >> out
			printf "| %d | %s | %d | %d | %d | %d | %d / %d / %d | %d | %d | %d | %s | %s | %s | %s | %s |\n",
				i, m, a, b, c, e, ab, ac, ae, u, s8x, s2x,
				u ? sprintf("%.2f", s8x / u) : "-", u ? sprintf("%.2f", s2x / u) : "-", s8, s2, load }'
	done
	nk=$(sed -n 's/^note\tperf\t\([0-9]*\) samples not kept.*/\1/p' "$d/dump2" 2> /dev/null | head -1)
	nm=$(grep -c '^perf-mmap' "$d/dump2" 2> /dev/null || :)
	echo "| $i | | the agent's note: ${nk:-0} samples read but not kept in the dump (its 2 MiB of sample text); ${nm:-0} perf-mmap lines | | | | | | | | | | | | |"
done
# stats MODE EXPR NAME: median and range of EXPR over the boots' MODE rows
stats() {
	awk -v m="$1" "\$2 == m { print $2 }" "$out/ns.tsv" | sort -g |
	awk -v name="$3" -v m="$1" '{ v[NR] = $1 } END {
		if (!NR) { printf "| %s | %s | - | - |\n", m, name; exit }
		md = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "| %s | %s | %.2f | %.2f-%.2f |\n", m, name, md, v[1], v[NR] }'
}
echo
echo "| mode | figure | median | range (min-max) |"
echo "|---|---|---|---|"
for mode in tight paced; do
	stats $mode '$3' 'none ns/call'
	stats $mode '$4' 'plain uprobe ns/call'
	stats $mode '$5' 'stack 8 KiB ns/call'
	stats $mode '$6' 'stack 2 KiB ns/call'
	stats $mode '$8 - $7' 'agent ns/call: 8 KiB - plain'
	stats $mode '$9 - $7' 'agent ns/call: 2 KiB - plain'
	stats $mode '$10' 'uprobe (plain - none) ns'
	stats $mode '$11' '8 KiB sample ns'
	stats $mode '$12' '2 KiB sample ns'
	stats $mode '$11 / $10' '8 KiB sample / uprobe'
	stats $mode '$12 / $10' '2 KiB sample / uprobe'
	stats $mode '$5 / $4' 'stack 8 KiB / plain (program)'
done
echo "bench/ustack-cost.sh: boots in $out (load now $(cut -d' ' -f1-3 /proc/loadavg))" >&2
