#!/bin/bash
# bench/baseline.sh [DIR]: the cost of a baseline comparison.  A:
# probecc report over 10 boots with --baseline over 10 more (one
# command); B: probecc report on each of the same 20 boots alone (20
# commands).  farm-bench runs them in turn and gives A/B pair by pair.
# DIR holds the captures (*.raw or */ttyS1.raw of one probe file);
# default tests/report/regress (6 stored Malta boots, taken round-robin
# to make 20).  Figures: bench/README.md, "Baselines".
set -eu
cd "$(dirname "$0")/.."
dir=${1:-tests/report/regress}
mapfile -t caps < <(ls "$dir"/*.raw "$dir"/*/ttyS1.raw 2>/dev/null | grep -v -e '-raw$')
[ "${#caps[@]}" -gt 0 ] || { echo "bench/baseline.sh: no captures in $dir" >&2; exit 2; }
all=()
for i in $(seq 0 19); do
	all+=("${caps[i % ${#caps[@]}]}")
done
p=tests/regress/regress.probes
[ ! -f "$dir/regress.probes" ] || p=$dir/regress.probes
m=tests/report/mipsel-6.1/modules
cur=("${all[@]:0:10}") base=("${all[@]:10:10}")
alone="for f in ${all[*]}; do ./probecc report \$f --probes $p --modules $m > /dev/null || [ \$? = 1 ]; done"
farm-bench -n 5 --timeout 600 --vs "sh -c '$alone'" -- \
	sh -c "./probecc report ${cur[*]} --probes $p --modules $m --baseline ${base[*]} > /dev/null || [ \$? = 1 ]"
