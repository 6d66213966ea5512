#!/bin/bash
# Regenerate the expected files of tests/report/cases/*/ (or of the cases
# named) with BIN (default ./probecc), from the top of the tree:
#
#   tests/report/regen.sh [--bin BIN] [CASE...]
#
# Read the diff before committing: a golden is only as good as its review.
# It ends with the diff's summary and tests/report/oracle.py's verdict on
# the new goldens (written by the code under test, checked by code that
# is not).  Never under CI (CI=true): there goldens are only compared.
set -eu
cd "$(dirname "$0")/../.."
if [ "${CI:-}" = true ]; then
	echo "regen.sh: refused under CI=true: a golden is rewritten by a developer, and its diff committed" >&2
	exit 2
fi
bin=./probecc
if [ "${1:-}" = --bin ]; then
	bin=$2
	shift 2
fi
cases=${*:-$(ls -d tests/report/cases/*/)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in $cases; do
	c=tests/report/cases/$(basename "$c")
	rm -rf "$tmp/out" && mkdir "$tmp/out"
	rm -f "$c/status" "$c/stdout" "$c/stderr" "$c/report.json" \
		"$c/stacks.folded" "$c/junit.xml" "$c/timeline.svg" "$c/perfetto.json"
	rc=0
	"$bin" report --json "$tmp/out/report.json" --folded "$tmp/out/stacks.folded" \
		--junit "$tmp/out/junit.xml" --svg "$tmp/out/timeline.svg" \
		--perfetto "$tmp/out/perfetto.json" $(grep -v '^#' "$c/args") > "$c/stdout" 2> "$c/stderr" || rc=$?
	echo $rc > "$c/status"
	cp "$tmp"/out/* "$c/" 2>/dev/null || true
	echo "$c: exit $rc, $(ls "$tmp/out" | tr '\n' ' ')"
done
git diff --stat -- tests/report/cases/ || true
python3 tests/report/oracle.py $cases | tail -1
