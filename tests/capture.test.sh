# probecc capture --from-log (facts/logframe.c), the frame finder of
# qemu-images/capture: tests/capture/good-*.log must give the .target
# beside them, bad-*.log must fail (exit 1) with the .err beside them and
# write nothing.  The logs are module.target's lines in frames, with
# kernel messages (a whole one, one cutting a frame line, one quoting the
# end marker), and the ways a log goes wrong: a frame twice, a frame
# inside a frame, an empty one, a cut one, none, a NUL byte; and
# notcapture-*.log, a frame that is no target capture (one junk line; a
# header with no section), refused as --target refuses it (exit 2, the
# .err beside them; it was written, exit 0, "no uname").  Each case
# runs with probecc and probecc-asan, and through qemu-images/capture;
# then a 100 MB line, refused in well under a second (mawk took 281 s).
# Run alone: bash tests/capture.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

# probecc-asan never frees its arena (chibicc style): leaks are noise
# (tests/lib.sh's sanitizer options)

C=$T_OUT/capture
rm -rf "$C" && mkdir -p "$C"

for run in probecc probecc-asan script; do
	case $run in
	script) cmd="qemu-images/capture --from-log" ;;
	*) cmd="./$run capture --from-log" ;;
	esac
	for f in tests/capture/good-*.log; do
		name=capture/$run/$(basename "$f" .log)
		d=$C/$run/$(basename "$f" .log) && mkdir -p "$d"
		if $cmd "$f" -o "$d/target" 2> "$d/stderr"; then
			t_check "$name" "${f%.log}.target" "$d/target"
		else
			t_fail "$name" "exit $?" "$d/stderr"
		fi
	done
	# bad-*: a broken capture, exit 1; notcapture-*: a frame that is no
	# target capture (a console's lines between the markers, a header with
	# no section), not what --target reads, exit 2.  Neither writes.
	for f in tests/capture/bad-*.log tests/capture/notcapture-*.log; do
		case ${f##*/} in bad-*) want=1 ;; *) want=2 ;; esac
		name=capture/$run/$(basename "$f" .log)
		d=$C/$run/$(basename "$f" .log) && mkdir -p "$d/out"
		$cmd "$f" -o "$d/out/target" 2> "$d/stderr.raw"
		rc=$?
		sed "s|$d/out/|OUT/|g" "$d/stderr.raw" > "$d/stderr"
		if [ $rc -ne $want ]; then
			t_fail "$name" "exit $rc, expected $want" "$d/stderr"
		elif [ -n "$(ls -A "$d/out")" ]; then
			t_fail "$name" "wrote $(ls -A "$d/out")"
		else
			t_check "$name" "${f%.log}.err" "$d/stderr"
		fi
	done
done

# One line of 100 MB: refused at LOGFRAME_LINE_MAX (65536 bytes,
# facts/kernel.h) with its line number, nothing written; a line of
# exactly 65536 bytes is not refused for its length.  Its time (linear)
# is bench/README.md's.
{ echo '=== probecc target begin ==='; head -c 100000000 /dev/zero | tr '\0' a; echo; } > "$C/long.log"
./probecc capture --from-log "$C/long.log" -o "$C/long.target" 2> "$C/long.err"
rc=$?
rm -f "$C/long.log"
if [ $rc = 1 ] && [ ! -e "$C/long.target" ] &&
   grep -q 'long.log:2: a line of more than 65536 bytes' "$C/long.err"; then
	t_pass capture/long-line-refused
else
	t_fail capture/long-line-refused "exit $rc" "$C/long.err"
fi
for n in 65536 65537; do
	{ echo '=== probecc target begin ==='; head -c $n /dev/zero | tr '\0' a; echo;
	  echo '=== probecc target end ==='; } > "$C/line$n.log"
	./probecc capture --from-log "$C/line$n.log" -o "$C/line$n.target" 2> "$C/line$n.err"
	echo $? > "$C/line$n.rc"
done
if ! grep -q 'more than 65536 bytes' "$C/line65536.err" && [ "$(cat "$C/line65537.rc")" = 1 ] &&
   grep -q 'line65537.log:2: a line of more than 65536 bytes' "$C/line65537.err" &&
   [ ! -e "$C/line65537.target" ]; then
	t_pass capture/line-bound-is-65536
else
	t_fail capture/line-bound-is-65536 "exit $(cat "$C/line65536.rc") and $(cat "$C/line65537.rc")" \
		"$C/line65536.err" "$C/line65537.err"
fi

# The check line (initramfs/capture.c, facts/kernel.c
# kernel_capture_check()): the agent's capture mode (agent-asan in test
# mode, a fake /proc and tracefs) ends its frame with the bytes and CRC-32
# of what came before; capture --from-log and --target verify it.  A
# lost line and a printk stamp inside the command line (cut out as a
# kernel message, so the line changes) are refused; a capture without a
# check line (an older agent's, tests/compiler/module.target) is read
# and --explain says it was not verified.
AGENT=initramfs/agent-asan
if [ ! -x "$AGENT" ] || [ -n "$(find initramfs common -name '*.[ch]' -newer "$AGENT")" ]; then
	make -s "$AGENT" > "$C/make.log" 2>&1 || t_fail capture/agent-build "make $AGENT failed" "$C/make.log"
fi
cap_boot() { # cap_boot DIR CMDLINE [ARCH]: the agent's capture into DIR/root/dump.out
	local d=$1
	mkdir -p "$d/root/proc" "$d/root/dev" "$d/tfs"
	echo '3.14 1.00' > "$d/root/proc/uptime"
	printf '%s\n' "$2" > "$d/root/proc/cmdline"
	: > "$d/root/dev/console"
	printf '80200000 T register_netdevice\n80200400 T register_netdev\n' > "$d/root/proc/kallsyms"
	printf 'register_netdevice\nregister_netdev\n' > "$d/tfs/available_filter_functions"
	printf 'sched:sched_process_exec\n' > "$d/tfs/available_events"
	printf 'probecc-plan\t1\narch\t%s\nsink\t/dump.out\ncapture\n' "${3:-mipsel}" > "$d/plan"
	timeout 30 "$AGENT" --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec 2> "$d/agent.err"
}
printf 'kprobe k register_netdev\n' > "$C/k.probes"
d=$C/check-good
cap_boot "$d" 'console=ttyS0 rdinit=/init'
if ./probecc-asan capture --from-log "$d/root/dump.out" -o "$d/target" 2> "$d/err" &&
   grep -q "^check	[0-9]*	[0-9a-f]\{8\}$" "$d/target" &&
   ./probecc-asan "$C/k.probes" --target "$d/target" --explain > "$d/explain" 2>> "$d/err" &&
   grep -q ', 2 symbols, check line verified$' "$d/explain"; then
	t_pass capture/check-line-agent-to-target
else
	t_fail capture/check-line-agent-to-target "" "$d/err" "$d/explain"
fi
# The kernel's BTF: /sys/kernel/btf/vmlinux (here the BTF of
# tests/compiler/btf/kernel.c) goes into the capture's btf section, and
# probecc --target reads C names from it (dev->name: +304, not 6.1's +0;
# a 64-bit BTF, so an x86_64 capture).
d=$C/check-btf
mkdir -p "$d/root/sys/kernel/btf"
cp tests/compiler/btf/kernel.btf "$d/root/sys/kernel/btf/vmlinux"
cap_boot "$d" 'console=ttyS0 rdinit=/init' x86_64
printf 'kprobe k register_netdevice { name = dev->name }\n' > "$d/btf.probes"
if ./probecc-asan capture --from-log "$d/root/dump.out" -o "$d/target" 2> "$d/err" &&
   grep -q '^--- btf ---$' "$d/target" &&
   ./probecc-asan "$d/btf.probes" --target "$d/target" --cmdline > "$d/cmdline" 2>> "$d/err" &&
   grep -qE '(^| )kprobe_event=p:k,register_netdevice,name=\+304\(%di\):string( |$)' "$d/cmdline"; then
	t_pass capture/btf-section-to-c-names
else
	t_fail capture/btf-section-to-c-names "" "$d/err" "$d/cmdline"
fi
d=$C/check-lost
cap_boot "$d" 'console=ttyS0 rdinit=/init'
grep -v '^80200400 T register_netdev$' "$d/root/dump.out" > "$d/lost.log"
./probecc-asan capture --from-log "$d/lost.log" -o "$d/target" 2> "$d/err"
rc=$?
if [ $rc = 1 ] && [ ! -e "$d/target" ] &&
   grep -q "lost.log's frame:19: the capture's check line says [0-9]* bytes .* a line was lost or changed on the way" "$d/err"; then
	t_pass capture/check-line-lost-line-refused
else
	t_fail capture/check-line-lost-line-refused "exit $rc" "$d/err"
fi
d=$C/check-stamp
cap_boot "$d" 'console=ttyS0 note=[    1.234567] rdinit=/init'
./probecc-asan capture --from-log "$d/root/dump.out" -o "$d/target" 2> "$d/err"
rc=$?
if [ $rc = 1 ] && [ ! -e "$d/target" ] && grep -q "check line says .* a line was lost or changed" "$d/err"; then
	t_pass capture/check-line-stamp-in-cmdline-refused
else
	t_fail capture/check-line-stamp-in-cmdline-refused "exit $rc" "$d/err"
fi
if ./probecc-asan "$C/k.probes" --target tests/capture/checked.target --explain 2> "$C/old.err" | grep -q 'check line verified$' &&
   ./probecc-asan "$C/k.probes" --target tests/compiler/module.target --explain 2>> "$C/old.err" |
	grep -q '(no check line: a capture of an older agent, not verified)$'; then
	t_pass capture/check-line-old-capture-read-and-said
else
	t_fail capture/check-line-old-capture-read-and-said "" "$C/old.err"
fi
