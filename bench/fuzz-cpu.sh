#!/bin/bash
# bench/fuzz-cpu.sh TARGET:RUNS...: executions per CPU second of the
# harnesses of tests/fuzz/, an older tree's against this one's
# (bench/README.md, "The guest's readers fuzzed, third pass"), one after the
# other: each "-seed=1 -runs=RUNS" from its own tree's seeds
# (seeds.sh) and an empty corpus, nice 10, run.sh's ASan options.  CPU
# seconds are the process's user + sys (/usr/bin/time, start-up
# included): on a shared host the wall time measures the other load.
# Per row: executions, CPU s, exec per CPU s, wall s, exec/s, edges
# (libFuzzer's cov), the corpus's average input size, load before-after.
#
# Environment: OLD=DIR a built tree (make fuzz-build) to compare
# (required), OUT=DIR (default: a new directory under /tmp).
set -eu -o pipefail
new=$(cd "$(dirname "$0")/.." && pwd)
old=${OLD:?OLD=DIR: a built tree to compare}
old=$(cd "$old" && pwd)
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/probecc-fuzz-cpu.XXXXXX")}
export ASAN_OPTIONS=quarantine_size_mb=16
echo "bench/fuzz-cpu.sh: $(date -u '+%F %T') UTC, old $(git -C "$old" describe --always --dirty), new $(git -C "$new" describe --always --dirty), $(nproc) cores"
for tr in "$@"; do
	t=${tr%%:*} runs=${tr#*:}
	for v in old new; do
		tree=${!v}
		w=$out/$v/$t
		rm -rf "$w" && mkdir -p "$w/seeds" "$w/corpus"
		( cd "$tree" && tests/fuzz/seeds.sh "$t" "$w/seeds" 2> "$w/seeds.log" )
		dict=()
		[ ! -f "$tree/tests/fuzz/fuzz-$t.dict" ] || dict=(-dict="$tree/tests/fuzz/fuzz-$t.dict")
		l0=$(cut -d' ' -f1 /proc/loadavg)
		/usr/bin/time -f '%U %S %e' -o "$w/time" nice -n 10 "$tree/tests/fuzz/fuzz-$t" \
			-seed=1 -runs="$runs" "${dict[@]}" -close_fd_mask=3 -print_final_stats=1 \
			"$w/corpus" "$w/seeds" > "$w/log" 2>&1 || { echo "$v $t: exit $?: $w/log" >&2; exit 1; }
		read -r u s e < "$w/time"
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log")
		cov=$(grep -a -E '^#[0-9]+.*(DONE|INITED)' "$w/log" | tail -1 | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
		avg=$(find "$w/corpus" -type f -printf '%s\n' | awk '{ s += $0 } END { printf "%.0f", NR ? s / NR : 0 }')
		awk -v t="$t" -v v=$v -v n="$n" -v u="$u" -v s="$s" -v e="$e" -v cov="$cov" -v l0="$l0" \
			-v l1="$(cut -d' ' -f1 /proc/loadavg)" -v avg="$avg" \
			'BEGIN { printf "%-9s %-4s %8d runs  cpu %7.2f s  %6.0f exec/cpu-s  wall %6.1f s  %5.0f exec/s  edges %s  corpus avg %s B  load %s-%s\n", t, v, n, u + s, n / (u + s), e, n / e, cov, avg, l0, l1 }'
	done
done
echo "bench/fuzz-cpu.sh: logs and corpora in $out" >&2
