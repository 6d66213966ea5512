# Raw dumps and trace.dat: "dump SINK raw" makes the
# agent dump the ring buffer's pages and the format files that decode
# them (initramfs/raw.c); "probecc report" reads them through
# libtraceevent in process (dumpread/decode.c) and "--trace-dat" writes a
# trace.dat through trace-cmd restore (dumpread/tracedat.c), on real boots
# of Debian's kernels:
#   mipsel, x86_64  examples/trace-dat.probes with --report: every
#                   expectation holds from the raw dumps (the kprobe's
#                   string field decoded by its format file, the stack:
#                   MIPS the agent's perf callchain, x86_64 the kernel's
#                   kernel_stack events)
#   */compressed    the ring-buffer pages went as zlib records (rawz)
#   */trace-dat     trace-cmd report reads the trace.dat: the kprobe with
#                   its field, the function tracer's entries, the
#                   kretprobe's return value; as many events as the dumps'
#                   per-CPU "entries" counted (nothing the buffer held is
#                   lost); the ASan build writes the same bytes
#   mipsel/graph    function_graph with option latency-format, which
#                   breaks text parsing: the entries still count as hits
#   damaged         a byte changed in dump 2's last chunk: the trace.dat
#                   still holds dump 1's events, not dump 2's; the report
#                   is no evidence (exit 2)
#   text-dump       a text dump gives no trace.dat (exit 2, says why)
#   mips64be        a stored big-endian dump (no boot): the trace.dat is
#                   big-endian, its head written again by libtracecmd in
#                   a child; trace-cmd report reads all of it
# Run alone: bash tests/tracedat.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

td_dir=$T_OUT/tracedat
mkdir -p "$td_dir"

# td_events DAT: the event lines of trace-cmd report DAT.
td_events() {
	trace-cmd report "$1" 2> /dev/null | grep -E '^ *[^ ].*\[[0-9]+\] '
}

for arch in mipsel x86_64; do
	d=$td_dir/$arch
	run_probes_oops "tracedat/$arch" "$d" --arch $arch --report \
		examples/trace-dat.probes || continue
	if ./probecc report --trace-dat "$d/boot.dat" "$d/ttyS1.raw" 2> "$d/trace-dat.log"; then
		t_pass "tracedat/$arch/trace-dat"
	else
		t_fail "tracedat/$arch/trace-dat" "probecc report --trace-dat failed" "$d/trace-dat.log"
		continue
	fi
	# the agent has zlib here (make agent-zlib, run by make check): the
	# pages and kallsyms go compressed
	t_grep "tracedat/$arch/compressed" "$d/dump1" $'rawz\tper_cpu/cpu0/trace_pipe_raw\t[0-9]+\t[0-9]+$'
	td_events "$d/boot.dat" > "$d/events"
	# run-probes --report left the same trace.dat in --out: no second
	# command before trace-cmd or KernelShark
	if [ -s "$d/trace.dat" ] && td_events "$d/trace.dat" | cmp -s - "$d/events"; then
		t_pass "tracedat/$arch/left-by-run-probes"
	else
		t_fail "tracedat/$arch/left-by-run-probes" "no trace.dat in --out, or not the dump's events" "$d/run.log"
	fi
	t_grep "tracedat/$arch/trace-cmd-kprobe" "$d/events" 'netdev: +\([0-9a-f]+\) name="bond%d"'
	t_grep "tracedat/$arch/trace-cmd-function" "$d/events" 'function: +register_netdevice'
	t_grep "tracedat/$arch/trace-cmd-kretprobe" "$d/events" 'mkdir: +\(.*\) ret=0x(ffffffef|ffffffffffffffef)'
	# every event the dumps' per-CPU "entries" counted is in the file
	want=$(for n in 1 2; do ./probecc report --extract $n "$d/ttyS1.raw" 2> /dev/null |
		sed -n '/^--- raw ---$/q; s/^cpu\t[0-9]*\tentries\t\([0-9]*\).*/\1/p'; done |
		awk '{ s += $1 } END { print s + 0 }')
	got=$(wc -l < "$d/events")
	if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
		t_pass "tracedat/$arch/all-entries"
	else
		t_fail "tracedat/$arch/all-entries" "trace-cmd report has $got event(s), the dumps counted $want"
	fi
	./probecc-asan report --trace-dat "$d/boot-asan.dat" \
		"$d/ttyS1.raw" 2> "$d/trace-dat-asan.log"
	t_check "tracedat/$arch/asan-same" "$d/boot.dat" "$d/boot-asan.dat"
done

# function_graph and a trace option that changes the text layout
d=$td_dir/graph
printf '%s\n' 'graph register_netdevice' 'option latency-format' \
	'dump /dev/ttyS1 raw' 'window 4s' 'expect register_netdevice hits >= 2' > "$td_dir/graph.probes"
run_probes_oops "tracedat/mipsel/graph" "$d" --arch mipsel --report "$td_dir/graph.probes"

# damage: a byte of dump 2's last chunk (the ring-buffer page) changed
d=$td_dir/mipsel
if [ -f "$d/ttyS1.raw" ]; then
	python3 - "$d/ttyS1.raw" "$td_dir/damaged.raw" <<-'EOF'
	import re, sys
	b = bytearray(open(sys.argv[1], 'rb').read())
	last = list(re.finditer(rb'=== probecc dump 2 chunk \d+ (\d+) ', b))[-1]
	data = b.index(b'\n', last.start()) + 1
	b[data + int(last.group(1)) // 2] ^= 0x55
	open(sys.argv[2], 'wb').write(b)
	EOF
	rc=0
	./probecc report --trace-dat "$td_dir/damaged.dat" "$td_dir/damaged.raw" \
		2> "$td_dir/damaged.log" || rc=$?
	if [ $rc = 0 ] && grep -q 'dump 2: chunk .* fails its CRC-32' "$td_dir/damaged.log"; then
		t_pass "tracedat/damaged/says-which"
	else
		t_fail "tracedat/damaged/says-which" "exit $rc" "$td_dir/damaged.log"
	fi
	td_events "$td_dir/damaged.dat" > "$td_dir/damaged.events"
	# dump 1's events stay: the kernel's own register_netdevice (lo),
	# before userspace (the agent's own calls are out of its trace)
	t_grep "tracedat/damaged/dump1-kept" "$td_dir/damaged.events" 'init-1 .*function: +register_netdevice'
	if grep -q 'bond%d' "$td_dir/damaged.events"; then
		t_fail "tracedat/damaged/dump2-not-made-up" "an event of the damaged page is in the trace.dat"
	else
		t_pass "tracedat/damaged/dump2-not-made-up"
	fi
	rc=0
	./probecc report "$td_dir/damaged.raw" > "$td_dir/damaged.report" 2>&1 || rc=$?
	if [ $rc = 2 ]; then
		t_pass "tracedat/damaged/no-evidence"
	else
		t_fail "tracedat/damaged/no-evidence" "report exit $rc, not 2" "$td_dir/damaged.report"
	fi
fi

# a text dump has no pages to make a trace.dat of
rc=0
./probecc report --trace-dat "$td_dir/text.dat" tests/report/mipsel-ci/ttyS1.raw \
	2> "$td_dir/text.log" || rc=$?
if [ $rc = 2 ] && grep -q 'no raw dump in the capture' "$td_dir/text.log" &&
   [ ! -e "$td_dir/text.dat" ]; then
	t_pass "tracedat/text-dump"
else
	t_fail "tracedat/text-dump" "exit $rc" "$td_dir/text.log"
fi

# A big-endian target on this little-endian host, from a stored dump
# (tests/report/mips64be-raw/: the mips64be-tracedat boot of make
# check-kernel, kallsyms trimmed): the head restore -c wrote is written
# again in the target's order by libtracecmd in a child
# (other_order_head()); the trace.dat is big-endian and trace-cmd report
# reads every entry of it; the ASan build writes the same bytes; the
# report decodes the same pages to its expectations.
d=$td_dir/mips64be && mkdir -p "$d"
be=tests/report/mips64be-raw
if ./probecc report --trace-dat "$d/boot.dat" $be/ttyS1.raw 2> "$d/trace-dat.log" &&
   grep -q 'long 8, page 16384, big-endian' "$d/trace-dat.log"; then
	t_pass tracedat/mips64be/trace-dat
else
	t_fail tracedat/mips64be/trace-dat "probecc report --trace-dat failed" "$d/trace-dat.log"
fi
# trace.dat(5): "\027\010Dtracing", the version, NUL, then 1: big endian
if [ "$(od -An -tu1 -j12 -N1 "$d/boot.dat" 2> /dev/null | tr -d ' ')" = 1 ]; then
	t_pass tracedat/mips64be/file-is-big-endian
else
	t_fail tracedat/mips64be/file-is-big-endian "endian byte $(od -An -tu1 -j12 -N1 "$d/boot.dat" 2>&1)"
fi
td_events "$d/boot.dat" > "$d/events"
t_grep tracedat/mips64be/trace-cmd-kprobe "$d/events" ' netdev: +\([0-9a-f]+\) name="bond1"$'
t_grep tracedat/mips64be/trace-cmd-kretprobe "$d/events" ' mkdir_ret: +\(.*\) ret=-17$'
t_grep tracedat/mips64be/trace-cmd-function "$d/events" 'function: +register_netdevice'
want=$(for n in 1 2; do ./probecc report --extract $n $be/ttyS1.raw 2> /dev/null |
	sed -n '/^--- raw ---$/q; s/^cpu\t[0-9]*\tentries\t\([0-9]*\).*/\1/p'; done |
	awk '{ s += $1 } END { print s + 0 }')
got=$(wc -l < "$d/events")
if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
	t_pass tracedat/mips64be/all-entries
else
	t_fail tracedat/mips64be/all-entries "trace-cmd report has $got event(s), the dumps counted $want"
fi
./probecc-asan report --trace-dat "$d/boot-asan.dat" \
	$be/ttyS1.raw 2> "$d/trace-dat-asan.log"
t_check tracedat/mips64be/asan-same "$d/boot.dat" "$d/boot-asan.dat"
rc=0
./probecc report --probes $be/mips64be-tracedat.probes $be/ttyS1.raw > "$d/report" 2>&1 || rc=$?
if [ $rc = 0 ] && grep -q '^5 of 5 expectation(s) hold' "$d/report"; then
	t_pass tracedat/mips64be/report
else
	t_fail tracedat/mips64be/report "exit $rc" "$d/report"
fi

# Hostile raw dumps (tests/report/derived/raw-*.raw, each refused by the
# report's golden cases): --trace-dat refuses them too (exit 2, nothing
# written), and neither it nor the report leaves a directory in TMPDIR.
hd=$td_dir/hostile && rm -rf "$hd" && mkdir -p "$hd/tmp"
for f in tests/report/derived/raw-*.raw; do
	b=$(basename "$f" .raw)
	[ "$b" = raw-dump2-no-end ] && continue	# cut, not wrong: the pages before it make a trace.dat
	rc=0
	TMPDIR=$hd/tmp ./probecc report --trace-dat "$hd/$b.dat" "$f" > "$hd/$b.log" 2>&1 || rc=$?
	TMPDIR=$hd/tmp ./probecc report "$f" >> "$hd/$b.log" 2>&1
	if [ $rc = 2 ] && [ ! -e "$hd/$b.dat" ] && [ -z "$(ls -A "$hd/tmp")" ]; then
		t_pass "tracedat/hostile/$b"
	else
		t_fail "tracedat/hostile/$b" "exit $rc, TMPDIR holds: $(ls -A "$hd/tmp")" "$hd/$b.log"
	fi
done

# a print fmt libtraceevent would divide by zero in (SIGFPE in
# tep_parse_event(), trace-cmd restore's and the report's child's): refused
# before, naming the format file and the divisor
b=raw-print-fmt-mod-zero
if grep -q "^probecc report: tests/report/derived/$b.raw: events/kprobes/netdev/format: print fmt divides by 'name', which libtraceevent reads as 0" "$hd/$b.log" &&
   grep -q "^raw dumps not read: events/kprobes/netdev/format: print fmt divides by 'name'" "$hd/$b.log"; then
	t_pass tracedat/print-fmt-divides
else
	t_fail tracedat/print-fmt-divides "the format file and divisor not named" "$hd/$b.log"
fi

# trace-cmd restore ended by a signal: the error names it, and the
# directory is removed (a trace-cmd that kills itself stands in for a
# crash: no input is known to crash restore once tracedat.c checked it)
mkdir -p "$hd/segv"
printf '#!/bin/sh\nkill -SEGV $$\n' > "$hd/segv/trace-cmd" && chmod +x "$hd/segv/trace-cmd"
rc=0
PATH=$hd/segv:$PATH TMPDIR=$hd/tmp ./probecc report --trace-dat "$hd/segv.dat" \
	tests/report/mipsel-raw/ttyS1.raw 2> "$hd/segv.log" || rc=$?
if [ $rc = 2 ] && grep -q 'trace-cmd restore -c failed (signal SIGSEGV (Segmentation fault))' "$hd/segv.log" &&
   [ ! -e "$hd/segv.dat" ] && [ -z "$(ls -A "$hd/tmp")" ]; then
	t_pass tracedat/restore-signal
else
	t_fail tracedat/restore-signal "exit $rc, TMPDIR holds: $(ls -A "$hd/tmp")" "$hd/segv.log"
fi

# probecc ended by SIGTERM while trace-cmd runs: the directory goes too
mkdir -p "$hd/slow"
printf '#!/bin/sh\necho $$ > %s\nexec sleep 30\n' "$hd/slow/pid" > "$hd/slow/trace-cmd"
chmod +x "$hd/slow/trace-cmd"
PATH=$hd/slow:$PATH TMPDIR=$hd/tmp ./probecc report --trace-dat "$hd/slow.dat" \
	tests/report/mipsel-raw/ttyS1.raw 2> "$hd/slow.log" &
pid=$!
for i in $(seq 100); do [ -s "$hd/slow/pid" ] && break; sleep 0.1; done
held=$(ls -A "$hd/tmp")
kill -TERM $pid
rc=0
wait $pid || rc=$?
[ -s "$hd/slow/pid" ] && kill "$(cat "$hd/slow/pid")" 2> /dev/null
if [ -n "$held" ] && [ $rc = 143 ] && [ -z "$(ls -A "$hd/tmp")" ]; then
	t_pass tracedat/sigterm-cleans
else
	t_fail tracedat/sigterm-cleans "exit $rc, TMPDIR held '$held', holds: $(ls -A "$hd/tmp")" "$hd/slow.log"
fi

# SIGHUP ignored (nohup) while trace-cmd runs: stays ignored (the
# directory's handler is not put over it), probecc ends as trace-cmd's
# failure makes it end, the directory removed
mkdir -p "$hd/hup"
printf '#!/bin/sh\necho $$ > %s\nsleep 2\nexit 1\n' "$hd/hup/pid" > "$hd/hup/trace-cmd"
chmod +x "$hd/hup/trace-cmd"
(trap '' HUP; PATH=$hd/hup:$PATH TMPDIR=$hd/tmp exec ./probecc report --trace-dat "$hd/hup.dat" \
	tests/report/mipsel-raw/ttyS1.raw 2> "$hd/hup.log") &
pid=$!
for i in $(seq 100); do [ -s "$hd/hup/pid" ] && break; sleep 0.1; done
kill -HUP $pid
rc=0
wait $pid || rc=$?
if [ $rc = 2 ] && grep -q 'trace-cmd restore -c failed' "$hd/hup.log" && [ -z "$(ls -A "$hd/tmp")" ]; then
	t_pass tracedat/sighup-ignored
else
	t_fail tracedat/sighup-ignored "exit $rc, TMPDIR holds: $(ls -A "$hd/tmp")" "$hd/hup.log"
fi

# 20,000 one-byte records of distinct names (format files) in dump 2:
# every record read, the report as before.  Its time (linear: a strmap,
# not a list walk) is bench/README.md's, never asserted here: a loaded
# host took 69 s once.
python3 tests/report/derive-raw.py many 20000 "$hd/many.raw"
TMPDIR=$hd/tmp ./probecc report "$hd/many.raw" > "$hd/many.out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q '^raw dumps: 9 event(s) decoded' "$hd/many.out" &&
   [ -z "$(ls -A "$hd/tmp")" ]; then
	t_pass tracedat/many-records
else
	t_fail tracedat/many-records "exit $rc" "$hd/many.out"
fi

# rawz records that inflate to 257 MiB in all (1 KiB each on the wire):
# refused past 256 MiB, not inflated into memory
python3 tests/report/derive-raw.py bomb "$hd/bomb.raw"
rc=0
TMPDIR=$hd/tmp ./probecc report --trace-dat "$hd/bomb.dat" "$hd/bomb.raw" > "$hd/bomb.log" 2>&1 || rc=$?
if [ $rc = 2 ] && grep -q 'dump 2: the compressed records inflate to more than 256 MiB' "$hd/bomb.log" &&
   [ ! -e "$hd/bomb.dat" ] && [ -z "$(ls -A "$hd/tmp")" ]; then
	t_pass tracedat/inflate-bound
else
	t_fail tracedat/inflate-bound "exit $rc" "$hd/bomb.log"
fi
