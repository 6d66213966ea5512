#!/bin/bash
# bench/dump.sh: the raw dump against the text dump of the same large
# function trace (bench/README.md, "Dump: raw against text").  REPS
# rounds, each a boot with "dump /dev/ttyS1 text" then one with
# "dump /dev/ttyS1 raw" (interleaved), of the same probe file: the
# function tracer on do_* vfs_* ksys_* *_read* *_write* with an 8 MiB
# buffer and a 4 s window, on Debian's Malta kernel.  A text dump holds
# the whole buffer each time (reading trace does not consume it), so its
# figures are the window dump's; a raw dump consumes what it reads, so
# the init and window dumps together hold the trace.  Per boot: the
# dump bytes (the frames' BYTES: what goes on the wire, less the frame
# lines), the entries the buffer held (the manifests' per-CPU "entries"),
# the events in the dumps (text: trace lines; raw: events in
# trace-cmd report of probecc report --trace-dat), and the seconds from
# the init dump's start (the manifest's "uptime") to the real init's
# first line (rc/bond0's "uptime").  QEMU's serial port is not rate
# limited: on a board the time on the wire is the bytes over the line's
# rate (115200 baud: 11.5 KB/s).
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
	printf '%s\n' 'function do_* vfs_* ksys_* *_read* *_write*' 'buffer 8M' \
		"dump /dev/ttyS1 $form" 'window 4s' > "$out/$form.probes"
done
echo "bench/dump.sh: $(date -u '+%F %T') UTC, $(git describe --always --dirty), $arch, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| boot | form | dump bytes | entries | events in dumps | init dump to init |"
echo "|---|---|---|---|---|---|"
for i in $(seq "$reps"); do
	for form in text raw; do
		d=$out/$form-$i
		qemu-images/run-probes --arch "$arch" --out "$d" --timeout 900 \
			"$out/$form.probes" > "$d.log" 2>&1 || {
			echo "bench/dump.sh: $form boot $i failed: $d.log" >&2
			continue
		}
		# the BYTES of each dump's end line
		sed -n 's/^=== probecc dump \([0-9]*\) end [0-9]* \([0-9]*\) .*/\1 \2/p' \
			"$d/ttyS1.raw" > "$d/bytes"
		if [ $form = raw ]; then
			bytes=$(awk '{ s += $2 } END { print s + 0 }' "$d/bytes")
			entries=$(cat "$d/dump1" "$d/dump2" | awk -F'\t' '$1 == "cpu" { s += $4 } END { print s + 0 }')
			./probecc report --trace-dat "$d/boot.dat" "$d/ttyS1.raw" 2> /dev/null
			events=$(trace-cmd report "$d/boot.dat" 2> /dev/null | grep -c '\[[0-9]*\] ' || true)
		else
			bytes=$(awk '$1 == 2 { print $2 }' "$d/bytes")
			entries=$(awk -F'\t' '$1 == "cpu" { s += $4 } END { print s + 0 }' "$d/dump2")
			events=$(sed -n '/^--- trace ---$/,$p' "$d/dump2" | grep -c '^ *[^#].*\[[0-9]*\] ' || true)
		fi
		start=$(sed -n 's/^uptime\t//p' "$d/dump1")
		init=$(sed -n 's/.*rc: real init, pid [0-9]*, uptime \([0-9.]*\).*/\1/p' "$d/console.log" | head -1)
		secs=$(awk -v a="$start" -v b="$init" 'BEGIN { if (a == "" || b == "") print "-"; else printf "%.1f s", b - a }')
		echo "| $i | $form | $bytes | $entries | $events | $secs |"
	done
done
echo "bench/dump.sh: boots in $out" >&2
