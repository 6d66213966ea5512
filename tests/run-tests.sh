#!/bin/bash
# Test harness: runs every tests/*.test.sh group (or those named on the
# command line) and ends with "N passed, N failed, N skipped".
# Environment: PROBECC (compiler binary), T_OUT (scratch directory).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
T_OUT=${T_OUT:-$top/tests/out}
T_RESULTS=$T_OUT/results
export T_OUT T_RESULTS
mkdir -p "$T_OUT"
: > "$T_RESULTS"

groups=${*:-$(ls "$top"/tests/*.test.sh)}
for g in $groups; do
	echo "== $(basename "$g" .test.sh)"
	(cd "$top" && . tests/lib.sh && . "$g") || \
		printf 'FAIL %s: group exited with %s\n' "$(basename "$g")" "$?" >> "$T_RESULTS"
done

pass=$(grep -c '^PASS' "$T_RESULTS")
fail=$(grep -c '^FAIL' "$T_RESULTS")
skip=$(grep -c '^SKIP' "$T_RESULTS")
grep '^FAIL' "$T_RESULTS" | sed 's/^/  /'
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
