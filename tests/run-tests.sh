#!/bin/bash
# Test harness: runs every tests/*.test.sh group (or those named on the
# command line) and ends with "N passed, N failed, N skipped".  A group
# that records no case, or a run in which no case passed, fails: a group
# that shrank to nothing must not pass in silence.
# Environment: PROBECC (compiler binary), T_OUT (scratch directory).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
T_OUT=${T_OUT:-$top/tests/out}
# .ci/run runs two harnesses side by side, each with its own results file;
# by default each run counts in a file of its own, kept as $T_OUT/results
# at its end, so that another run in the same checkout cannot change its count.
mkdir -p "$T_OUT"
keep=
if [ -z "${T_RESULTS:-}" ]; then
	T_RESULTS=$(mktemp "$T_OUT/results.XXXXXX") || exit 2
	keep=$T_OUT/results
fi
export T_OUT T_RESULTS
: > "$T_RESULTS"

# A group that dies (set -e, an unbound variable, exit) is a failure with
# its own exit status and the last lines it wrote to stderr as the reason.
# Its stderr is kept in $T_OUT/GROUP.stderr and copied to ours after it.
groups=${*:-$(ls "$top"/tests/*.test.sh)}
for g in $groups; do
	name=$(basename "$g" .test.sh)
	name=${name%.sh}
	echo "== $name"
	errlog=$T_OUT/$name.stderr
	rc=0
	n0=$(wc -l < "$T_RESULTS")
	t0=$SECONDS
	(cd "$top" && . tests/lib.sh && . "$g") 2> "$errlog" || rc=$?
	cat "$errlog" >&2
	# each group's wall time, for the cold-CI budget (docs/developing.md, "A fresh machine")
	echo "== $name: $((SECONDS - t0)) s"
	if [ $rc -ne 0 ]; then
		why=$(grep -v '^[[:space:]]*$' "$errlog" | tail -3 | tr '\n' '|' | sed 's/|$//; s/|/ | /g')
		printf 'FAIL %s: group exited with status %s: %s\n' "$(basename "$g")" "$rc" \
			"${why:-(nothing on stderr)}" | tee -a "$T_RESULTS"
	elif [ "$(wc -l < "$T_RESULTS")" = "$n0" ]; then
		printf 'FAIL %s: the group recorded no test case\n' "$(basename "$g")" | tee -a "$T_RESULTS"
	fi
done

pass=$(grep -c '^PASS' "$T_RESULTS")
fail=$(grep -c '^FAIL' "$T_RESULTS")
skip=$(grep -c '^SKIP' "$T_RESULTS")
grep '^FAIL' "$T_RESULTS" | sed 's/^/  /'
if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ]; then
	echo "FAIL run-tests: no test case passed" | tee -a "$T_RESULTS"
	fail=1
fi
echo "$pass passed, $fail failed, $skip skipped"
[ -z "$keep" ] || mv -f "$T_RESULTS" "$keep"
[ "$fail" -eq 0 ]
