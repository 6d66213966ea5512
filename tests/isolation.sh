#!/bin/bash
# isolation.sh: prove that no test group depends on what another group
# left behind.  Each group named (default: every tests/*.test.sh) runs
# alone with an empty $PROBECC_CACHE and its own scratch directory, then
# all of them run once more in reverse order, again from an empty cache.
# Debian packages may stay installed (as on a CI machine after deps.sh);
# everything else - kernels, busybox, captures, linux-source - each run
# fetches or builds for itself.  CI=true: a skipped test is a failure.
#
# usage: tests/isolation.sh [--keep] [GROUP.test.sh...]
#
# Costs what a cold `make check` costs, once per group that boots (the
# downloads take seconds; a capture is one boot).  Not part of make
# check: run it when a group gains a new need (docs/developing.md, "A fresh machine").
# Prints one line per run and ends with "N passed, N failed" counting runs.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
keep=0
[ "${1-}" != --keep ] || { keep=1; shift; }
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=("$top"/tests/*.test.sh)

make -C "$top" -s all probecc-asan initramfs/agent-asan \
	bootconfig/probecc-bootconfig-asan >&2 || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/probecc-isolation.XXXXXX")
pass=0 fail=0

# run NAME GROUP...: the harness on GROUPs from an empty cache.
run() {
	local name=$1 d=$work/$1 s e line
	shift
	mkdir -p "$d/cache"
	s=$(date +%s)
	CI=true PROBECC_CACHE=$d/cache T_OUT=$d/out "$top/tests/run-tests.sh" "$@" \
		> "$d/log" 2>&1
	e=$(( $(date +%s) - s ))
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$d/log" | tail -1)
	if [ -n "$line" ] && grep -qE '^[0-9]+ passed, 0 failed' <<< "$line"; then
		pass=$((pass + 1))
		echo "ok   $name: $line (${e}s)"
	else
		fail=$((fail + 1))
		echo "FAIL $name: ${line:-no summary} (${e}s; $d/log)"
		grep '^  FAIL' "$d/log" | head -10
	fi
	[ $keep = 1 ] || rm -rf "$d/cache"
}

for g in "${groups[@]}"; do
	run "alone-$(basename "$g" .test.sh)" "$g"
done
rev=()
for ((i = ${#groups[@]} - 1; i >= 0; i--)); do
	rev+=("${groups[i]}")
done
run reverse-order "${rev[@]}"
echo "logs in $work"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
