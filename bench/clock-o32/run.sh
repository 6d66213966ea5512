#!/bin/bash
# bench/clock-o32/run.sh [STOP_SECONDS]: one loongson3-o32 boot running
# clk.c (an o32 program) for 40 s; with STOP_SECONDS, QEMU is stopped
# (SIGSTOP) that long 3 s into the run, as a starved host would.  The
# "clk:" lines of the console are printed.  initramfs/README.md says what
# 4 boots showed.
set -eu
cd "$(dirname "$0")/../.."
out=$(mktemp -d "${TMPDIR:-/tmp}/clock-o32.XXXXXX")
mipsel-linux-gnu-gcc -std=gnu11 -O2 -static -Wall -Wextra -Werror -D_GNU_SOURCE \
	-D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 -o "$out/clk" bench/clock-o32/clk.c
printf 'kprobe x kernel_execve { f = +0(arg1):string }\ndump /dev/ttyS1\nwindow 2s\n' > "$out/clk.probes"
qemu-images/run-probes --arch loongson3-o32 --out "$out/boot" --timeout 240 --module none \
	--rc bench/clock-o32/rc --add "$out/clk:/bin/clk" "$out/clk.probes" > "$out/run.log" 2>&1 &
runner=$!
if [ -n "${1-}" ]; then
	for i in $(seq 180); do
		grep -q 'count rate' "$out/boot/console.log" 2> /dev/null && break
		sleep 1
	done
	pid=$(pgrep -f "qemu-system-mips64el.*$out/boot" | head -1)
	sleep 3
	kill -STOP "$pid"
	sleep "$1"
	kill -CONT "$pid"
fi
wait $runner || true
grep -a '^clk:' "$out/boot/console.log"
echo "(boot in $out)"
