#!/bin/bash
# bench/dump.sh: the raw dump against the text dump of the same large
# function trace (bench/README.md, "Dump: raw against text").  REPS
# rounds, each a boot with "dump /dev/ttyS1 text" then one with
# "dump /dev/ttyS1 raw" (interleaved), of the same probe file: the
# function tracer on do_* vfs_* ksys_* with an 8 MiB buffer on Debian's
# Malta kernel, the init dump only.  Per boot: the bytes on the wire
# (ttyS1.raw), the entries the buffer held (the manifest's "cpu" line),
# the events in the dump (text: trace lines; raw: trace-cmd report of
# probecc report --trace-dat) and the seconds from the dump's start (the
# manifest's "uptime") to the real init's first line (rc/bond0's
# "uptime"), which is the dump's time on the wire plus one exec.
#
# usage: bench/dump.sh [TARGET]   (default mipsel)
# Environment: REPS=3, OUT=dir (default: a new directory under /tmp).
set -eu -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
arch=${1:-mipsel}
reps=${REPS:-3}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/probecc-bench-dump.XXXXXX")}
mkdir -p "$out"
for form in text raw; do
	printf '%s\n' 'function do_* vfs_* ksys_*' 'buffer 8M' \
		"dump /dev/ttyS1 $form" > "$out/$form.probes"
done
echo "bench/dump.sh: $(date -u '+%F %T') UTC, $(git describe --always --dirty), $arch, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| boot | form | wire bytes | entries | events in dump | dump to init |"
echo "|---|---|---|---|---|---|"
for i in $(seq "$reps"); do
	for form in text raw; do
		d=$out/$form-$i
		qemu-images/run-probes --arch "$arch" --out "$d" --timeout 900 \
			"$out/$form.probes" > "$d.log" 2>&1 || {
			echo "bench/dump.sh: $form boot $i failed: $d.log" >&2
			continue
		}
		bytes=$(stat -c %s "$d/ttyS1.raw")
		entries=$(awk -F'\t' '$1 == "cpu" { s += $4 } END { print s + 0 }' "$d/dump1")
		if [ $form = raw ]; then
			./probecc report --trace-dat "$d/boot.dat" "$d/ttyS1.raw" 2> /dev/null
			events=$(trace-cmd report "$d/boot.dat" 2> /dev/null | grep -c '\[[0-9]*\] ' || true)
		else
			events=$(sed -n '/^--- trace ---$/,$p' "$d/dump1" | grep -c '^ *[^#].*\[[0-9]*\] ' || true)
		fi
		start=$(sed -n 's/^uptime\t//p' "$d/dump1")
		init=$(sed -n 's/.*rc: real init, pid [0-9]*, uptime \([0-9.]*\).*/\1/p' "$d/console.log" | head -1)
		secs=$(awk -v a="$start" -v b="$init" 'BEGIN { if (a == "" || b == "") print "-"; else printf "%.1f s", b - a }')
		echo "| $i | $form | $bytes | $entries | $events | $secs |"
	done
done
echo "bench/dump.sh: boots in $out" >&2
