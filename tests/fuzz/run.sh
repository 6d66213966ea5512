#!/bin/bash
# run.sh TARGET...: run each libFuzzer target of tests/fuzz/ (built by
# "make fuzz-build") from the seeds of the tests (seeds.sh), one after
# the other, and say per target: executions, exec/s, edges (libFuzzer's
# "cov"), corpus, crashes.  A crash, a sanitizer report or a broken
# oracle fails the run (exit 1) and prints the command that reproduces
# it; exit 2 when a target cannot be run at all.
#
# Environment:
#   FUZZ_SECONDS  time per target (default 60)
#   FUZZ_RUNS     at most this many executions per target (default: no limit)
#   FUZZ_NICE     nice level of the fuzzer (default 10; bench/fuzz.sh: 19)
#   FUZZ_FORK     N > 1: one run in N worker processes (libFuzzer's
#                 -fork=N), their executions counted together; a unit
#                 over 1 s of wall time is then kept as a slow unit
#                 (-report_slow_units=1), since the workers' final
#                 stats are not printed
#   FUZZ_WORK     where the seeds, corpora and crashes go
#                 (default tests/out/fuzz); the corpus of a target grows
#                 there from run to run until removed
#   ASAN_OPTIONS  added after run.sh's own (quarantine_size_mb=16), so
#                 that they win
# Runs from the top of the repository (make fuzz).
set -u -o pipefail
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:--1}
fork=${FUZZ_FORK:-1}
case $fork in
[1-9] | [1-9][0-9]) ;;
*) echo "run.sh: FUZZ_FORK=$fork: not a number of processes from 1 to 99" >&2; exit 2 ;;
esac
forkopt=()
[ "$fork" = 1 ] || forkopt=(-fork="$fork" -report_slow_units=1)
nice=${FUZZ_NICE:-10}
work=${FUZZ_WORK:-tests/out/fuzz}
[ $# -gt 0 ] || set -- compile report console baseline previous ustack modules raw bootconfig bootargs dtb btf plan facts logframe lavalog
# ASan's quarantine of freed blocks: 16 MB, not the default 256 MB.  The
# largest input of the seeds and of a first corpus allocates at most
# 0.5 MB (fuzz-bootconfig; compile 0.18 MB, report 0.14 MB), and every
# block still live is freed at the end of its input (track.h), so a
# block freed during an input is still in quarantine when the input
# ends, as with 256 MB: a use after free is seen the same.  256 MB of
# freed blocks going round cost compile and report half of their time
# in page faults and cache misses (bench/README.md, "Fuzzing").
export ASAN_OPTIONS=quarantine_size_mb=16${ASAN_OPTIONS:+:$ASAN_OPTIONS}
# A run started in a session of its own (setsid, for a long run) is its
# own scheduler autogroup (sched_autogroup_enabled, Debian's default):
# nice alone then ranks it only against itself, and a "nice 19" fuzzer
# took a whole share of the CPU beside a CI run.  The group's nice is
# set too, only then (in a shared session it would renice the caller's).
if [ "$(ps -o sid= -p $$ | tr -d ' ')" = "$$" ] && [ -w /proc/self/autogroup ]; then
	echo "$nice" > /proc/self/autogroup 2> /dev/null || true
fi
failed=0
printf '%-11s %12s %8s %7s %8s %8s %s\n' target executions exec/s edges corpus crashes seconds
for t in "$@"; do
	bin=tests/fuzz/fuzz-$t
	w=$work/$t
	if [ ! -x "$bin" ]; then
		echo "run.sh: $bin is not built (make fuzz-build)" >&2
		exit 2
	fi
	rm -rf "$w/seeds" "$w/crashes" && mkdir -p "$w/seeds" "$w/corpus" "$w/crashes"
	if ! tests/fuzz/seeds.sh "$t" "$w/seeds" 2> "$w/seeds.log"; then
		cat "$w/seeds.log" >&2
		exit 2
	fi
	start=$(date +%s)
	# the words its reader looks for (libFuzzer's -dict), when it has them
	dict=()
	[ ! -f "$bin.dict" ] || dict=(-dict="$bin.dict")
	# -close_fd_mask=3: the code's own stdout and stderr (diagnostics)
	# go nowhere; libFuzzer and the sanitizers keep theirs.
	nice -n "$nice" "$bin" -max_total_time="$secs" -runs="$runs" "${dict[@]}" "${forkopt[@]}" \
		-close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$w/crashes/" "$w/corpus" "$w/seeds" > "$w/log" 2>&1
	rc=$?
	end=$(date +%s)
	if [ "$fork" = 1 ]; then
		done_line=$(grep -a -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$w/log" | tail -1)
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log")
		rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$w/log")
	else
		# the parent's "#N: cov: C ..." lines count every worker's
		done_line=$(grep -a -E '^#[0-9]+: cov:' "$w/log" | tail -1)
		execs=$(sed -n 's/^#\([0-9]*\):.*/\1/p' <<< "$done_line")
		rate=$(( ${execs:-0} / (end - start > 0 ? end - start : 1) ))
	fi
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$done_line")
	corp=$(ls "$w/corpus" | wc -l)
	# slow-unit-*: an input that took over 10 s of wall time (1 s with
	# FUZZ_FORK)
	# (-report_slow_units), no crash; at nice 19 on a loaded machine
	# mostly time spent waiting for a CPU.  Said, replayed and timed,
	# not counted as a crash.
	crashes=$(ls "$w/crashes" | grep -vc '^slow-unit-')
	for c in "$w"/crashes/slow-unit-*; do
		[ -e "$c" ] || continue
		cpu=$( { TIMEFORMAT='%U %S'; time "$bin" "$c" > /dev/null 2>&1; } 2>&1 |
			awk '{ print $1 + $2 }')
		echo "run.sh: $t: slow unit (libFuzzer, wall time) $c: replays in $cpu s of CPU: $bin $c" >&2
	done
	printf '%-11s %12s %8s %7s %8s %8s %s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
		"$corp" "$crashes" "$((end - start))"
	if [ "$rc" != 0 ] || [ "$crashes" != 0 ]; then
		failed=1
		echo "run.sh: $t: fuzzer exit $rc, $crashes crash(es); from $w/log:" >&2
		grep -a -E 'ERROR|SUMMARY|oracle|runtime error' "$w/log" | head -5 >&2
		for c in "$w"/crashes/*; do
			[ -e "$c" ] && [ "${c##*/slow-unit-*}" ] || continue
			echo "run.sh: reproduce: $bin $c" >&2
		done
	fi
done
exit $failed
