#!/bin/bash
# bench/reader.sh: the dump reader decoding raw dumps in process
# (dumpread/decode.c) against the tree before it, which made a trace.dat
# through two "trace-cmd restore" runs in a temporary directory and read
# it back with libtracecmd in a child and again in the report
# (bench/README.md, "The dump reader: in process against trace-cmd
# restore").  Side by side in one run, A and B in turn (farm-bench --vs):
#   1. probecc report on bench/dump.sh's raw capture (the function tracer
#      on do_* vfs_* ksys_* *_read* *_write*, an 8 MiB buffer, a 4 s
#      window, Debian's Malta kernel: ~110k entries), booted here once
#      unless CAPTURE gives one;
#   2. bench/ustack.sh's user-stack dumps (10,000 perf-user samples),
#      through bench/ustack.sh with OLD set to the old probecc;
#   3. the fuzz-raw harness of each tree for FUZZ_SECS on the same seed
#      corpus (tests/fuzz/seeds.sh raw), its executions per second, with
#      libFuzzer's leak check (its default) and without.
# Both reports of 1 are compared first (text and JSON): a faster wrong
# report is no result.
#
# usage: bench/reader.sh
# Environment: OLD_COMMIT (default: the commit before dumpread/ came),
# CAPTURE=ttyS1.raw of a raw boot, RUNS=5, FUZZ_SECS=60, OUT=dir.
set -eu -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
runs=${RUNS:-5}
fsecs=${FUZZ_SECS:-60}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/probecc-bench-reader.XXXXXX")}
mkdir -p "$out"
old=${OLD_COMMIT:-$(git log --format=%H --diff-filter=A -- dumpread/dumpread.h | tail -1)^}
make -s probecc tests/fuzz/fuzz-raw > "$out/new-build.log" 2>&1
cp ./probecc "$out/probecc-new"
cp tests/fuzz/fuzz-raw "$out/fuzz-raw-new"
if [ ! -x "$out/probecc-old" ]; then
	git worktree add -f --detach "$out/old-tree" "$old" > /dev/null 2>&1
	make -s -C "$out/old-tree" probecc tests/fuzz/fuzz-raw > "$out/old-build.log" 2>&1
	cp "$out/old-tree/probecc" "$out/probecc-old"
	cp "$out/old-tree/tests/fuzz/fuzz-raw" "$out/fuzz-raw-old"
	git worktree remove --force "$out/old-tree"
fi
echo "bench/reader.sh: $(date -u '+%F %T') UTC, new $(git describe --always --dirty), old $(git rev-parse --short "$old"), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. the function trace's raw capture
cap=${CAPTURE:-}
if [ -z "$cap" ]; then
	printf '%s\n' 'function do_* vfs_* ksys_* *_read* *_write*' 'buffer 8M' \
		'dump /dev/ttyS1 raw' 'window 4s' > "$out/raw.probes"
	qemu-images/run-probes --arch mipsel --out "$out/boot" --timeout 900 \
		"$out/raw.probes" > "$out/boot.log" 2>&1
	cap=$out/boot/ttyS1.raw
fi
# the manifests' per-CPU "entries" (sed stops reading at the raw body)
entries=$(for n in 1 2; do { ./probecc report --extract $n "$cap" 2> /dev/null || true; } |
	sed -n '/^--- raw ---$/q; s/^cpu\t[0-9]*\tentries\t\([0-9]*\).*/\1/p'; done |
	awk '{ s += $1 } END { print s + 0 }')
for v in new old; do
	"$out/probecc-$v" report --json "$out/$v.json" "$cap" > "$out/$v.txt" 2>&1 || true
done
if ! cmp -s "$out/new.txt" "$out/old.txt" || ! cmp -s "$out/new.json" "$out/old.json"; then
	echo "bench/reader.sh: the reports of $cap differ: $out/{new,old}.{txt,json}" >&2
	exit 1
fi
echo "## probecc report on a raw capture: $(wc -c < "$cap") bytes, $entries entries, $(sed -n 's/^raw dumps: \([0-9]*\) event.*/\1/p' "$out/new.txt") events decoded"
farm-bench -n "$runs" --timeout 1200 --vs "$out/probecc-old report $cap" -- "$out/probecc-new" report "$cap"

# 2. the user-stack dumps
echo "## bench/ustack.sh, OLD = the old tree's probecc"
RUNS=$runs OLD=$out/probecc-old OUT=$out/ustack bench/ustack.sh

# 3. fuzz-raw, each harness on the same seeds
tests/fuzz/seeds.sh raw "$out/seeds" > /dev/null 2>&1
echo "## fuzz-raw, $(ls "$out/seeds" | wc -l) seeds, $fsecs s each"
echo "| harness | leak check | executions | exec/s |"
echo "|---|---|---|---|"
for leaks in 1 0; do
	for v in old new; do
		rm -rf "$out/corpus-$v"
		cp -r "$out/seeds" "$out/corpus-$v"
		"$out/fuzz-raw-$v" -max_total_time="$fsecs" -seed=1 -print_final_stats=1 \
			-detect_leaks=$leaks "$out/corpus-$v" > "$out/fuzz-$v-$leaks.log" 2>&1 || true
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-$v-$leaks.log")
		echo "| $v | $([ $leaks = 1 ] && echo "on (libFuzzer's default)" || echo off) | $n | $(awk -v n="$n" -v s="$fsecs" 'BEGIN { printf "%.0f", n / s }') |"
	done
done
echo "bench/reader.sh: inputs and logs in $out" >&2
