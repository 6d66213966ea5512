#!/bin/bash
# body-head.sh CAPTURE EVENTS: the bodies of dumps 1 and 2 of CAPTURE
# (probecc report --extract), each dump's trace cut to its first EVENTS
# events and its counts (the cpu line's entries, the trace header's)
# made to agree: a shorter boot, as read; the two bodies separated as
# tests/fuzz/fuzz.h's fuzz_dumps() takes them (FUZZ_DUMP_SEP).  On
# standard output.  The seeds of fuzz-baseline (seeds.sh) and its fixed
# boot (fuzz-baseline.c) are made with it.  Needs ./probecc built; runs
# from anywhere.
set -eu -o pipefail
cd "$(dirname "$0")/../.."
head1() {
	./probecc report --extract "$2" "$1" | awk -F '\t' -v OFS='\t' -v n="$3" '
		/^--- trace ---$/ { t = 1; print; next }
		!t && $1 == "cpu" && $3 == "entries" { $4 = n; $6 = 0; $8 = 0 }
		t && /^# entries-in-buffer/ { sub(/[0-9]+\/[0-9]+/, n "/" n) }
		t && !/^#/ { if (k++ >= n) next }
		{ print }'
}
head1 "$1" 1 "$2"
printf '\n=probecc-fuzz-dump-2=\n'
head1 "$1" 2 "$2"
