# Agent and initramfs tests: the ASan/UBSan build of the early-init
# agent (initramfs/agent-asan) runs on the host in test mode (--root,
# --tracefs, --plan, --sink, --no-exec) against a directory standing in
# for tracefs; mkinitramfs builds archives that cpio -t inspects.
# Golden files are in tests/agent/; uptime, the *_us lines, uname and the
# tracefs path vary and are replaced by X before comparing.
# Run alone: bash tests/agent.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi


AGENT=initramfs/agent-asan
MKI=initramfs/mkinitramfs
TAB=$(printf '\t')
A=$T_OUT/agent
rm -rf "$A" && mkdir -p "$A"

if [ ! -x "$AGENT" ] || [ -n "$(find initramfs -name '*.[ch]' -newer "$AGENT")" ]; then
	make -s "$AGENT" > "$A/make.log" 2>&1 ||
		t_fail agent/build "make $AGENT failed" "$A/make.log"
fi

# mk_tracefs DIR: a directory standing in for tracefs.
mk_tracefs() {
	local d=$1
	mkdir -p "$d"/options "$d"/per_cpu/cpu0 "$d"/per_cpu/cpu1 \
		"$d"/events/kprobes "$d"/events/sched/sched_process_exec
	printf 'function\n' > "$d/current_tracer"
	printf 'register_netdevice\nbond_create [bonding]\n' > "$d/set_ftrace_filter"
	printf 'local [global] counter uptime perf mono mono_raw boot\n' > "$d/trace_clock"
	printf '0\n' > "$d/options/func_stack_trace"
	printf '1\n' > "$d/options/sym-offset"
	printf 'p:kprobes/early kernel_init\n' > "$d/kprobe_events"
	: > "$d/uprobe_events"
	: > "$d/error_log"
	: > "$d/events/sched/sched_process_exec/trigger"
	printf '0\n' > "$d/events/sched/sched_process_exec/enable"
	printf 'entries: 12\noverrun: 3\ncommit overrun: 0\nbytes: 640\noldest event ts:     0.5\nnow ts:     3.1\ndropped events: 1\nread events: 0\n' \
		> "$d/per_cpu/cpu0/stats"
	printf 'entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\ndropped events: 0\nread events: 0\n' \
		> "$d/per_cpu/cpu1/stats"
	# the kernel's trace text; no final newline: the framing adds one
	printf '# tracer: function\n#\n            init-1       [000] .....     0.373329: register_netdevice <-register_netdev' \
		> "$d/trace"
}

# mk_root DIR: a root with proc/uptime and a console standing in.
mk_root() {
	mkdir -p "$1"/proc "$1"/dev "$1"/probecc
	echo '3.14 1.00' > "$1/proc/uptime"
	printf 'console=ttyS0 rdinit=/init\tftrace=function\n' > "$1/proc/cmdline"
	: > "$1/dev/console"
}

# plan FILE LINE...: write a plan, one argument a line; "|" becomes TAB.
plan() {
	local f=$1
	shift
	printf '%s\n' "$@" | tr '|' '\t' > "$f"
}

# filter: the variable fields of a dump: the manifest's, and on the frame
# lines the boot's nonce and what the manifest's lengths change (a chunk's
# length and CRC-32, the end line's byte count).
filter() {
	sed -E "s/^(uptime|[a-z_]+_us)$TAB.*/\\1${TAB}X/; s/^uname$TAB.*/uname${TAB}X${TAB}X/; s/^tracefs$TAB.+/tracefs${TAB}X/
		s/^(=== probecc dump [0-9]+ begin) [0-9a-f]{16} ===\$/\\1 NONCE ===/
		s/^(=== probecc dump [0-9]+ chunk [0-9]+) [0-9]+ [0-9a-f]{8} [0-9a-f]{16} ===\$/\\1 LEN CRC NONCE ===/
		s/^(=== probecc dump [0-9]+ end [0-9]+) [0-9]+ [0-9a-f]{16} ===\$/\\1 BYTES NONCE ===/" "$@"
}

# The frames are read back by probecc's one reader (dumpread/frame.c).
if [ ! -x ./probecc ] || [ -n "$(find report common -name '*.[ch]' -newer ./probecc)" ]; then
	make -s probecc > "$A/make-probecc.log" 2>&1 ||
		t_fail agent/build-probecc "make probecc failed" "$A/make-probecc.log"
fi
# dumps FILE: the numbers of the complete dumps in FILE, space-separated.
dumps() { echo $(./probecc report --list "$1" 2> /dev/null); }

# run_agent NAME ARGS...: run the agent with a 30 s guard, stderr to
# $A/NAME.err; the exit status is in $rc.
run_agent() {
	local name=$1
	shift
	timeout 30 "$AGENT" "$@" 2> "$A/$name.err"
	rc=$?
}

# ---- after the last dump: MIPS disarms the kprobes, others keep them ----
# (events/kprobes/enable = 0 takes the breakpoints out: Debian's MIPS 6.1
# oopses in a kprobe's single-step now and then, outside any dump)
for arch in mipsel x86_64; do
	d=$A/disarm-$arch
	mk_tracefs "$d/tfs"
	mk_root "$d/root"
	printf '1\n' > "$d/tfs/events/kprobes/enable"
	# and in the plan's instance, where its kprobes are enabled
	mkdir -p "$d/tfs/instances/boot/events/kprobes"
	printf '1\n' > "$d/tfs/instances/boot/events/kprobes/enable"
	plan "$d/plan" 'probecc-plan|1' "arch|$arch" 'kernel|6.1' 'sink|/dump.out' \
		'instance|boot' 'expect|early|kprobe_events|p:kprobes/early'
	run_agent disarm-$arch --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
	want=1
	[ $arch = mipsel ] && want=0
	got=$(cat "$d/tfs/events/kprobes/enable")
	got_inst=$(cat "$d/tfs/instances/boot/events/kprobes/enable")
	if [ "$got" = $want ] && [ "$got_inst" = $want ] && [ "$(dumps "$d/root/dump.out")" = 1 ]; then
		t_pass agent/after-last-dump-kprobes-$arch
	else
		t_fail agent/after-last-dump-kprobes-$arch "events/kprobes/enable is '$got' (instance '$got_inst'), expected $want; dumps: $(dumps "$d/root/dump.out")" "$A/disarm-$arch.err"
	fi
done

# ---- the full plan: every state, framing, notes, side effects ----
d=$A/full
mk_tracefs "$d/tfs"
mk_root "$d/root"
plan "$d/plan" \
	'probecc-plan|1' 'arch|mipsel' 'kernel|6.1' 'sink|/dump.out' \
	'expect|-|current_tracer|function' \
	'expect|-|current_tracer|function_graph' \
	'expect|register_netdevice|set_ftrace_filter|register_netdevice|register_netdevice' \
	'expect|bond_create|set_ftrace_filter|bond_create|bond_create' \
	'expect|register_netdev|set_ftrace_filter|register_netdev|register_netdev' \
	'expect|-|trace_clock|[global]|global' \
	'expect|-|trace_clock|glob' \
	'expect|-|options/func_stack_trace|1|1' \
	'expect|early|kprobe_events|p:kprobes/early' \
	'expect|late|kprobe_events|p:kprobes/late|p:kprobes/late do_fork' \
	'arm|exec|kprobe_events|p:kprobes/exec kernel_execve filename=+0(%r4):string' \
	'arm|exec|events/kprobes|1' \
	'arm|exec|events/kprobes/exec/enable|1' \
	'arm|sched:sched_process_exec|events/sched/sched_process_exec/trigger|stacktrace' \
	'arm|up|../escape|1' \
	'expect|gone|nosuchfile|1' \
	'frobnicate|x' \
	'arm|short|kprobe_events' \
	'window|soon' \
	''
run_agent full --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
filter "$d/root/dump.out" > "$d/dump"
t_check agent/full-dump tests/agent/full.dump "$d/dump"
# The same plan through each cross-built agent under qemu-user (the
# image's own binary, static, as the board runs it): the same dump.
for arch in mipsel mips64el mips64 arm64 riscv64 x86_64; do
	q=$(t_qemu_user $arch)
	x=$A/cross-$arch
	if [ ! -x initramfs/agent-$arch ]; then
		t_skip "agent/cross-$arch" "initramfs/agent-$arch not built (its cross compiler: qemu-images/deps.sh build)"
		continue
	fi
	if [ -n "$q" ] && ! command -v $q > /dev/null; then
		t_skip "agent/cross-$arch" "no $q (qemu-user-static)"
		continue
	fi
	mk_tracefs "$x/tfs"
	mk_root "$x/root"
	timeout 60 $q initramfs/agent-$arch --root "$x/root" --tracefs "$x/tfs" \
		--plan "$d/plan" --no-exec 2> "$x.err"
	filter "$x/root/dump.out" > "$x/dump" 2> /dev/null
	t_check "agent/cross-$arch" tests/agent/full.dump "$x/dump"
	# its zlib (musl-dev's and zlib1g-dev's, or initramfs/build-musl's
	# on mips64 and riscv64): a raw dump's ring buffer goes as a rawz record
	WHY_RAW="initramfs/agent-$arch was built without zlib (make agent-zlib)" \
		t_agent_zlib "agent/cross-$arch-zlib" initramfs/agent-$arch $arch "$x/raw"
done
# the frames check out: lengths, CRC-32s, one nonce, the end line's counts
if ./probecc report --extract 1 "$d/root/dump.out" > "$d/body" 2> "$d/extract.err" &&
   [ "$(head -1 "$d/body")" = "probecc-manifest${TAB}1" ] && [ "$(dumps "$d/root/dump.out")" = 1 ]; then
	t_pass agent/full-frames-check
else
	t_fail agent/full-frames-check "probecc report --extract 1 exit $?" "$d/extract.err"
fi
printf '%s\n' 'p:kprobes/early kernel_init' 'p:kprobes/late do_fork' \
	'p:kprobes/exec kernel_execve filename=+0(%r4):string' > "$d/want"
t_check agent/arm-appends "$d/want" "$d/tfs/kprobe_events"
printf '%s\n' register_netdevice 'bond_create [bonding]' register_netdev > "$d/want"
t_check agent/expect-armed-late-appends "$d/want" "$d/tfs/set_ftrace_filter"
printf 'stacktrace\n' > "$d/want"
t_check agent/arm-trigger "$d/want" "$d/tfs/events/sched/sched_process_exec/trigger"
# the root holds no init (mk_root): the agent says so and exits 1, the
# dumps written (the kernel then panics, "Attempted to kill init")
if [ $rc -eq 1 ] && grep -qx 'probecc-agent: no init found' "$A/full.err" &&
   ! grep -q 'would exec' "$A/full.err"; then
	t_pass agent/full-exit
else
	t_fail agent/full-exit "exit $rc" "$A/full.err"
fi

# ---- the kernel's reason: a write that fails (ENOSPC via /dev/full)
# while error_log gains an entry (a FIFO fed twice: before and after) ----
d=$A/errlog
mk_tracefs "$d/tfs"
mk_root "$d/root"
if [ -w /dev/full ] && command -v mkfifo > /dev/null; then
	ln -s /dev/full "$d/tfs/bad_events"
	rm -f "$d/tfs/error_log"
	mkfifo "$d/tfs/error_log"
	old='[    1.000000] trace_kprobe: error: Old error
  Command: p:kprobes/old foo
                        ^'
	new='[    2.500000] trace_kprobe: error: Invalid fetch argument
  Command: p:kprobes/bad foo x=%zz
                             ^'
	(
		printf '%s\n' "$old" > "$d/tfs/error_log"
		sleep 1
		printf '%s\n%s\n' "$old" "$new" > "$d/tfs/error_log"
	) &
	feeder=$!
	plan "$d/plan" 'probecc-plan|1' 'arm|bad|bad_events|p:kprobes/bad foo x=%zz'
	run_agent errlog --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" \
		--sink "$d/dump" --no-exec
	kill $feeder 2> /dev/null
	wait $feeder 2> /dev/null
	printf 'item\tbad\tfailed\tbad_events\t%s\n' \
		'No space left on device | trace_kprobe: error: Invalid fetch argument | Command: p:kprobes/bad foo x=%zz | ^ at 18' \
		> "$d/want"
	grep '^item' "$d/dump" > "$d/got" 2>&1
	t_check agent/failed-errlog-reason "$d/want" "$d/got"
else
	t_skip agent/failed-errlog-reason "needs /dev/full and mkfifo"
fi

# ---- error_log is read before the first write and after each failed
# one, never around a write that succeeds (~1,000 syscalls for
# 196 writes); consecutive definitions go in one write.  Counted with
# strace: the opens of error_log and of the definition files. ----
# traced NAME PLAN-LINES...: run the plan under strace -f -e openat into
# $A/NAME/strace (with a tracefs, a root and bad_events -> /dev/full).
traced() {
	local name=$1 e
	shift
	e=$A/$name
	mk_tracefs "$e/tfs"
	mk_root "$e/root"
	: > "$e/tfs/set_event"
	ln -s /dev/full "$e/tfs/bad_events"
	plan "$e/plan" 'probecc-plan|1' "$@"
	timeout 60 strace -f -qq -e trace=openat -o "$e/strace" \
		"$AGENT" --root "$e/root" --tracefs "$e/tfs" --plan "$e/plan" \
		--sink "$e/dump" --no-exec 2> "$A/$name.err"
}
# opens NAME FILE: how often the agent opened tracefs FILE
opens() { grep -c "openat(.*/tfs/$2\"" "$A/$1/strace"; }
# expect_opens TEST NAME FILE WANT WHY: the agent of case NAME opened FILE
# WANT times (WHY says what those opens are).
expect_opens() {
	local n
	n=$(opens "$2" "$3")
	[ "$n" = "$4" ] && t_pass "agent/$1" ||
		t_fail "agent/$1" "$3 opened $n times, want $4 ($5)" "$A/$2/strace"
}
if command -v strace > /dev/null && [ -w /dev/full ]; then
	traced errlog-ok 'arm|a|kprobe_events|p:kprobes/a f' \
		'arm|a|set_event|kprobes:a' 'expect|-|options/func_stack_trace|1|1' \
		'arm|b|events/sched/sched_process_exec/trigger|stacktrace'
	expect_opens errlog-once errlog-ok error_log 1 "for 4 writes that succeed"
	traced errlog-fail 'arm|a|kprobe_events|p:kprobes/a f' \
		'arm|bad|bad_events|x' 'arm|b|set_event|kprobes:b' 'arm|bad2|bad_events|y'
	expect_opens errlog-on-failure errlog-fail error_log 3 \
		"for 2 failed writes: once before, once after each"

	d=$A/batch
	traced batch \
		'arm|k1|kprobe_events|p:kprobes/k1 vfs_read' \
		'' \
		'arm|k2|kprobe_events|r16:kprobes/k2 vfs_write $retval' \
		'arm|k3|kprobe_events|p:kprobes/k3 vfs_open' \
		'arm|k1|set_event|kprobes:k1' \
		'arm|k4|kprobe_events|p:kprobes/k4 vfs_fsync' \
		'arm|k5|kprobe_events|p k5sym' \
		'arm|u1|uprobe_events|p:uprobes/u1 /bin/sh:0x10' \
		'arm|u2|uprobe_events|p:uprobes/u2 /bin/sh:0x20'
	# k1-k3 in one write, k4 alone, k5 (no GROUP/EVENT: not batched) alone
	expect_opens batch-one-write batch kprobe_events 3 "k1-k3 together, k4, k5"
	expect_opens batch-uprobes-one-write batch uprobe_events 1 "u1 and u2 together"
	printf '%s\n' 'p:kprobes/early kernel_init' 'p:kprobes/k1 vfs_read' \
		'r16:kprobes/k2 vfs_write $retval' 'p:kprobes/k3 vfs_open' \
		'p:kprobes/k4 vfs_fsync' 'p k5sym' > "$d/want"
	t_check agent/batch-lines "$d/want" "$d/tfs/kprobe_events"
	printf '%s\n' 'p:uprobes/u1 /bin/sh:0x10' 'p:uprobes/u2 /bin/sh:0x20' > "$d/want"
	t_check agent/batch-uprobes "$d/want" "$d/tfs/uprobe_events"
	printf 'item\t%s\n' 'k1	armed	kprobe_events	p:kprobes/k1 vfs_read' \
		'k2	armed	kprobe_events	r16:kprobes/k2 vfs_write $retval' \
		'k3	armed	kprobe_events	p:kprobes/k3 vfs_open' \
		'k1	armed	set_event	kprobes:k1' \
		'k4	armed	kprobe_events	p:kprobes/k4 vfs_fsync' \
		'k5	armed	kprobe_events	p k5sym' \
		'u1	armed	uprobe_events	p:uprobes/u1 /bin/sh:0x10' \
		'u2	armed	uprobe_events	p:uprobes/u2 /bin/sh:0x20' > "$d/want"
	grep '^item' "$d/dump" > "$d/items" 2>&1
	t_check agent/batch-items "$d/want" "$d/items"

	# expect lines read a file once until the agent's next write
	d=$A/seen
	traced seen 'expect|a|set_ftrace_filter|register_netdevice' \
		'expect|b|set_ftrace_filter|bond_create|bond_create' \
		'expect|c|set_ftrace_filter|nosuch|nosuch' \
		'expect|d|set_ftrace_filter|nosuch|nosuch'
	expect_opens expect-read-once seen set_ftrace_filter 3 \
		"a read for a-c, c's append, a read for d"
	printf 'item\t%s\n' 'a	ok	set_ftrace_filter	-' 'b	ok	set_ftrace_filter	-' \
		'c	armed-late	set_ftrace_filter	-' 'd	ok	set_ftrace_filter	-' > "$d/want"
	grep '^item' "$d/dump" > "$d/items" 2>&1
	t_check agent/expect-read-once-items "$d/want" "$d/items"

	# a listing whose first read comes back short by more than a line
	# can be is whole: no second read (each starts the kernel's walk
	# anew); a long one is read to its end (its last line is the one
	# checked)
	for n in 1 4000; do
		d=$A/one-read-$n
		mk_tracefs "$d/tfs"
		mk_root "$d/root"
		seq -f 'f%g' "$n" > "$d/tfs/set_ftrace_filter"
		echo register_netdevice >> "$d/tfs/set_ftrace_filter"
		plan "$d/plan" 'probecc-plan|1' \
			'expect|a|set_ftrace_filter|register_netdevice|register_netdevice'
		timeout 60 strace -f -qq -y -e trace=read -o "$d/strace" \
			"$AGENT" --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" \
			--sink "$d/dump" --no-exec 2> "$A/one-read-$n.err"
		reads=$(grep -c '^[0-9]* *read([0-9]*<[^>]*/tfs/set_ftrace_filter>' "$d/strace")
		items=$(grep '^item' "$d/dump" 2>&1)
		# the short listing in one read; the long one (23 KB) in several
		[ "$reads" = 1 ] && got=1 || got=more
		[ "$n" = 1 ] && want=1 || want=more
		if [ "$got" = "$want" ] &&
		   [ "$items" = "item${TAB}a${TAB}ok${TAB}set_ftrace_filter${TAB}-" ]; then
			t_pass "agent/listing-read-once-$n"
		else
			t_fail "agent/listing-read-once-$n" "$reads reads of set_ftrace_filter; items: $items" "$d/strace"
		fi
	done

	# set_event lines of one group: one write to the group's enable file
	# when that enables exactly them, else line by line
	d=$A/group
	mkdir -p "$A/group/tfs"
	traced group 'arm|k1|set_event|kprobes:k1' 'arm|k2|set_event|kprobes:k2' 'arm|x|set_event|sched:x'
	printf '%s\n' 'kprobes:k1' 'kprobes:k2' 'kprobes:k0' 'sched:x' > "$d/tfs/available_events"
	printf 'kprobes:k0\n' > "$d/tfs/set_event"
	: > "$d/tfs/events/kprobes/enable"	# appended to, as any arm file
	rm -f "$d/tfs/error_log"; : > "$d/tfs/error_log"
	timeout 60 strace -f -qq -e trace=openat -o "$d/strace" "$AGENT" --root "$d/root" \
		--tracefs "$d/tfs" --plan "$d/plan" --sink "$d/dump" --no-exec 2> "$A/group.err"
	printf '1\n' > "$d/want"
	t_check agent/group-enable "$d/want" "$d/tfs/events/kprobes/enable"
	printf '%s\n' kprobes:k0 sched:x > "$d/want"
	t_check agent/group-enable-set-event "$d/want" "$d/tfs/set_event"
	printf 'item\t%s\n' 'k1	armed	set_event	kprobes:k1' 'k2	armed	set_event	kprobes:k2' \
		'x	armed	set_event	sched:x' > "$d/want"
	grep '^item' "$d/dump" > "$d/items" 2>&1
	t_check agent/group-enable-items "$d/want" "$d/items"
	# kprobes:k3 is neither in the run nor enabled: line by line
	printf '%s\n' 'kprobes:k1' 'kprobes:k2' 'kprobes:k3' > "$d/tfs/available_events"
	: > "$d/tfs/set_event"
	: > "$d/tfs/events/kprobes/enable"
	"$AGENT" --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --sink "$d/dump2" \
		--no-exec 2> "$A/group2.err"
	printf '%s\n' kprobes:k1 kprobes:k2 sched:x > "$d/want"
	t_check agent/group-enable-not-all "$d/want" "$d/tfs/set_event"
	: > "$d/want"
	t_check agent/group-enable-not-all-untouched "$d/want" "$d/tfs/events/kprobes/enable"
	# kprobes:k2 is not in available_events (its definition failed): not
	# armed by the group write, each line on its own
	printf '%s\n' 'kprobes:k1' 'sched:x' > "$d/tfs/available_events"
	: > "$d/tfs/set_event"
	: > "$d/tfs/events/kprobes/enable"
	"$AGENT" --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --sink "$d/dump3" \
		--no-exec 2> "$A/group3.err"
	: > "$d/want"
	t_check agent/group-enable-missing-untouched "$d/want" "$d/tfs/events/kprobes/enable"
	printf '%s\n' kprobes:k1 kprobes:k2 sched:x > "$d/want"
	t_check agent/group-enable-missing-line-by-line "$d/want" "$d/tfs/set_event"
	# the run in another order than available_events, one event on two
	# lines (the run is sorted and searched): still one group write
	d=$A/group-order
	mk_tracefs "$d/tfs"
	mk_root "$d/root"
	plan "$d/plan" 'probecc-plan|1' 'arm|k3|set_event|kprobes:k3' 'arm|k1|set_event|kprobes:k1' \
		'arm|k2|set_event|kprobes:k2' 'arm|k1b|set_event|kprobes:k1'
	mkdir -p "$d/tfs/events/kprobes"
	printf '%s\n' 'kprobes:k1' 'kprobes:k2' 'sched:x' 'kprobes:k3' > "$d/tfs/available_events"
	: > "$d/tfs/set_event"
	: > "$d/tfs/events/kprobes/enable"
	run_agent group-order --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --sink "$d/dump" --no-exec
	printf '1\n' > "$d/want"
	t_check agent/group-enable-any-order "$d/want" "$d/tfs/events/kprobes/enable"
	printf 'item\t%s\n' 'k3	armed	set_event	kprobes:k3' 'k1	armed	set_event	kprobes:k1' \
		'k2	armed	set_event	kprobes:k2' 'k1b	armed	set_event	kprobes:k1' > "$d/want"
	grep '^item' "$d/dump" > "$d/items" 2>&1
	t_check agent/group-enable-any-order-items "$d/want" "$d/items"
else
	for t in group-enable group-enable-set-event group-enable-items group-enable-not-all \
		group-enable-not-all-untouched group-enable-missing-untouched \
		group-enable-missing-line-by-line group-enable-any-order group-enable-any-order-items \
		errlog-once errlog-on-failure batch-one-write batch-uprobes-one-write \
		batch-lines batch-uprobes batch-items expect-read-once expect-read-once-items; do
		t_skip agent/$t "needs strace and /dev/full"
	done
fi

# ---- a refused batch: each definition gets its own failure and the
# lines after the refused one are tried again (/dev/full refuses all) ----
d=$A/batch-fail
mk_tracefs "$d/tfs"
mk_root "$d/root"
rm -f "$d/tfs/kprobe_events"
ln -s /dev/full "$d/tfs/kprobe_events"
plan "$d/plan" 'probecc-plan|1' \
	'arm|k1|kprobe_events|p:kprobes/k1 vfs_read' \
	'arm|k2|kprobe_events|p:kprobes/k2 vfs_write'
if [ -w /dev/full ]; then
	run_agent batch-fail --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" \
		--sink "$d/dump" --no-exec
	printf 'item\t%s\n' 'k1	failed	kprobe_events	No space left on device' \
		'k2	failed	kprobe_events	No space left on device' > "$d/want"
	grep '^item' "$d/dump" > "$d/items" 2>&1
	t_check agent/batch-refused "$d/want" "$d/items"
else
	t_skip agent/batch-refused "needs /dev/full"
fi

# ---- set_event GROUP:EVENT is written as 1 to events/GROUP/EVENT/enable
# when that file is there (no walk of every event), else to set_event ----
d=$A/enable
mk_tracefs "$d/tfs"
mk_root "$d/root"
: > "$d/tfs/set_event"
plan "$d/plan" 'probecc-plan|1' 'arm|exec|set_event|sched:sched_process_exec' \
	'arm|nodir|set_event|kprobes:nodir' 'arm|glob|set_event|sched:*' \
	'expect|late|set_event|kprobes:late|kprobes:late'
run_agent enable --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" \
	--sink "$d/dump" --no-exec
printf '1\n' > "$d/want"
t_check agent/enable-file "$d/want" "$d/tfs/events/sched/sched_process_exec/enable"
printf '%s\n' kprobes:nodir 'sched:*' kprobes:late > "$d/want"
t_check agent/enable-set-event "$d/want" "$d/tfs/set_event"
printf 'item\t%s\n' 'exec	armed	set_event	sched:sched_process_exec' \
	'nodir	armed	set_event	kprobes:nodir' 'glob	armed	set_event	sched:*' \
	'late	armed-late	set_event	-' > "$d/want"
grep '^item' "$d/dump" > "$d/items" 2>&1
t_check agent/enable-items "$d/want" "$d/items"

# ---- no plan: note, dump to the console, exec the real init ----
d=$A/noplan
mk_root "$d/root"
mkdir -p "$d/root/sbin"
printf '#!/bin/sh\necho "$0 $*" > "%s"\n' "$d/root/ran" > "$d/root/sbin/init"
chmod +x "$d/root/sbin/init"
run_agent noplan --root "$d/root" --plan "$d/none" -- single x
# a script's $0 is the file the kernel ran: the init under the root
printf '%s\n' "$d/root/sbin/init single x" > "$d/want"
t_check agent/noplan-execs-init "$d/want" "$d/root/ran"
printf 'note\tplan\t%s\n' "$d/none: No such file or directory" > "$d/want"
grep '^note' "$d/root/dev/console" | grep plan > "$d/got"
t_check agent/noplan-note "$d/want" "$d/got"
printf 'note\ttracefs\tnone: nothing can be armed or dumped\n' > "$d/want"
grep '^note.tracefs' "$d/root/dev/console" > "$d/got"
t_check agent/no-tracefs-note "$d/want" "$d/got"

# ---- the plan's size: AGENT_PLAN_MAX (1 MiB) bytes are read whole ----
# The buffer is sized by fstat() (plan.c: plan_file()).  A plan of exactly
# the limit is acted on to its last line; a line past it is not, and noted;
# a line the limit cuts (p11766 cut to p1) is not acted on either.
d=$A/plan-size-cut
mk_tracefs "$d/tfs"
mk_root "$d/root"
{
	printf 'probecc-plan\t1\nsink\t/dump.out\n'
	head -c $((1048576 - 27 - 40)) /dev/zero | tr '\0' '\n'
	printf 'arm\tx\tkprobe_events\tp:kprobes/x foo\n'	# 27 bytes
	printf 'arm\tp1\tkprobe_events\tp:kprobes/p11766 foo\n'	# cut at p1
} > "$d/plan"
run_agent plan-size-cut --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
grep -a "^note${TAB}plan" "$d/root/dump.out" > "$d/notes"
printf 'note\tplan\tlonger than 1048576 bytes, rest ignored (the line the limit cuts too)\n' > "$d/want"
if grep -qx 'p:kprobes/x foo' "$d/tfs/kprobe_events" && ! grep -q 'p:kprobes/p1' "$d/tfs/kprobe_events" &&
   cmp -s "$d/want" "$d/notes"; then
	t_pass agent/plan-size-cut-line-not-acted-on
else
	t_fail agent/plan-size-cut-line-not-acted-on "the line cut at 1 MiB armed, or not the note" "$d/tfs/kprobe_events" "$d/notes"
fi
for over in 0 1; do
	d=$A/plan-size-$over
	mk_tracefs "$d/tfs"
	mk_root "$d/root"
	head=$(printf 'probecc-plan\t1\nsink\t/dump.out\n')$'\n'
	last=$(printf 'arm\tx\tkprobe_events\tp:kprobes/x foo')$'\n'
	{
		printf '%s' "$head"
		head -c $((1048576 - ${#head} - ${#last})) /dev/zero | tr '\0' '\n'
		printf '%s' "$last"
		[ $over = 0 ] || printf 'arm\ty\tkprobe_events\tp:kprobes/y bar\n'
	} > "$d/plan"
	run_agent plan-size-$over --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
	size=$(stat -c %s "$d/plan")
	grep -a "^note${TAB}plan" "$d/root/dump.out" > "$d/notes"
	if [ $over = 0 ]; then
		if [ "$size" = 1048576 ] && grep -qx 'p:kprobes/x foo' "$d/tfs/kprobe_events" &&
		   [ ! -s "$d/notes" ]; then
			t_pass agent/plan-size-limit-read-whole
		else
			t_fail agent/plan-size-limit-read-whole "a $size-byte plan: its last line not armed, or a plan note" "$d/tfs/kprobe_events" "$d/notes"
		fi
	else
		printf 'note\tplan\tlonger than 1048576 bytes, rest ignored\n' > "$d/want"
		if grep -qx 'p:kprobes/x foo' "$d/tfs/kprobe_events" &&
		   ! grep -q 'p:kprobes/y' "$d/tfs/kprobe_events" && cmp -s "$d/want" "$d/notes"; then
			t_pass agent/plan-size-over-limit-noted
		else
			t_fail agent/plan-size-over-limit-noted "a $size-byte plan: the line past 1 MiB armed, or not the one \"longer than\" note" "$d/tfs/kprobe_events" "$d/notes"
		fi
	fi
done

# ---- a plan of another version is refused: no action, default sink ----
d=$A/version
mk_tracefs "$d/tfs"
mk_root "$d/root"
cp "$d/tfs/kprobe_events" "$d/kprobe_events.before"
plan "$d/plan" 'probecc-plan|2' 'sink|/dump.out' 'arm|x|kprobe_events|p:kprobes/x foo'
run_agent version --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
t_check agent/bad-version-no-action "$d/kprobe_events.before" "$d/tfs/kprobe_events"
if [ ! -e "$d/root/dump.out" ] && grep -q "^note${TAB}plan${TAB}.*not a version 1 plan (first line \"probecc-plan${TAB/$TAB/ }2\"), refused\$" "$d/root/dev/console" &&
   ! grep -q '^item' "$d/root/dev/console"; then
	t_pass agent/bad-version-refused
else
	t_fail agent/bad-version-refused "want a note on the console and no item" "$d/root/dev/console"
fi

# ---- a dump stops the ring buffer while it reads it ----
# tracefs/trace is read to its end; with recording on, the dump's own
# syscalls are appended as fast as it reads (on Malta it never ended).
# The agent turns options/pause-on-trace on for the dump and off again
# after it (tracing_on would run the function tracer's start hook, which
# empties the buffer), leaves it on when it was on, and says "paused";
# a kernel without the option gets no paused line.
for opt in 0 1 none; do
	d=$A/pause-$opt
	mk_tracefs "$d/tfs"
	mk_root "$d/root"
	[ $opt = none ] || echo $opt > "$d/tfs/options/pause-on-trace"
	mkdir -p "$d/root/sbin" && cp /bin/true "$d/root/sbin/init"
	plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out'
	run_agent pause-$opt --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
	paused=$(grep -c "^paused$TAB" "$d/root/dump.out")
	after=$(cat "$d/tfs/options/pause-on-trace" 2> /dev/null || echo none)
	want_paused=1
	[ $opt != none ] || want_paused=0
	if [ $rc = 0 ] && [ "$paused" = $want_paused ] && [ "$after" = $opt ]; then
		t_pass agent/dump-pauses-tracing-$opt
	else
		t_fail agent/dump-pauses-tracing-$opt "exit $rc, $paused paused line(s), pause-on-trace $after after (want $want_paused, $opt)" "$d/root/dump.out"
	fi
done

# ---- "perf": what cannot be opened is a failed item, never a stop ----
# (a perf line's flag other than "callchain", a kprobe's "stack user", too)
# (perf_event_open itself is proven on boots: tests/boot.test.sh)
d=$A/perf
mk_tracefs "$d/tfs"
mk_root "$d/root"
mkdir -p "$d/tfs/events/kprobes/junk"
echo x > "$d/tfs/events/kprobes/junk/id"
mkdir -p "$d/root/sbin" && cp /bin/true "$d/root/sbin/init"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' 'perf|gone|kprobes/nosuch' \
	'perf|junk|kprobes/junk' 'perf|short' 'perf|odd|kprobes/junk|8192|bogus' \
	'perf|kuser|kprobes/junk|8192|callchain' 'window|1'
run_agent perf --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
out=$d/root/dump.out
if [ $rc = 0 ] &&
   grep -q "^item${TAB}gone${TAB}failed${TAB}perf${TAB}No such file or directory\$" "$out" &&
   grep -q "^item${TAB}junk${TAB}failed${TAB}perf${TAB}Invalid argument\$" "$out" &&
   grep -q "^note${TAB}plan${TAB}line 5: perf: wrong number of fields (1)\$" "$out" &&
   grep -q "^note${TAB}plan${TAB}line 6: unknown perf flag \"bogus\" (known: callchain)\$" "$out" &&
   grep -q "^item${TAB}odd${TAB}failed${TAB}perf${TAB}the plan's perf line is not this agent's\$" "$out" &&
   grep -q "^item${TAB}kuser${TAB}failed${TAB}perf${TAB}Invalid argument\$" "$out" &&
   [ "$(dumps "$out")" = "1 2" ] && ! grep -q '^perf-stat' "$out"; then
	t_pass agent/perf-failures-reported
else
	t_fail agent/perf-failures-reported "exit $rc" "$out" "$A/perf.err"
fi

# ---- a missing sink falls back to the console and says so ----
d=$A/sink
mk_tracefs "$d/tfs"
mk_root "$d/root"
plan "$d/plan" 'probecc-plan|1' 'sink|/dev/ttyS9'
run_agent sink --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
printf 'note\tsink\t/dev/ttyS9: No such file or directory; using console\n' > "$d/want"
grep '^note.sink' "$d/root/dev/console" > "$d/got"
t_check agent/sink-fallback "$d/want" "$d/got"
if [ -e "$d/root/dev/ttyS9" ]; then
	t_fail agent/sink-dev-not-created "a regular file /dev/ttyS9 was created"
else
	t_pass agent/sink-dev-not-created
fi
# and when even the console is missing: stdout
rm "$d/root/dev/console"
run_agent sink2 --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec > "$d/stdout"
if [ "$(dumps "$d/stdout")" = 1 ] &&
   grep -q "^note${TAB}sink${TAB}console: No such file or directory; using stdout$" "$d/stdout"; then
	t_pass agent/sink-stdout-fallback
else
	t_fail agent/sink-stdout-fallback "no dump on stdout" "$d/stdout"
fi

# ---- a large trace is streamed whole ----
d=$A/large
mk_tracefs "$d/tfs"
mk_root "$d/root"
awk 'BEGIN { for (i = 0; i < 120000; i++)
	printf "          init-1       [000] .....  %6d.%06d: register_netdevice <-register_netdev\n", i / 1000, i % 1000 }' \
	> "$d/tfs/trace"
plan "$d/plan" 'probecc-plan|1'
run_agent large --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --sink "$d/dump" --no-exec
./probecc report --extract 1 "$d/dump" | sed '1,/^--- trace ---$/d' > "$d/trace"
if [ "$(stat -c %s "$d/tfs/trace")" -lt 5000000 ]; then
	t_fail agent/large-trace "test trace too small"
else
	t_check agent/large-trace "$d/tfs/trace" "$d/trace"
fi

# ---- a traced string cannot end a dump or start one ----
# A file name with newlines, as a kprobe "+0(arg2):string" on
# do_sys_openat2 records it, holding the frame lines of the old layout
# (no nonce) and a whole made-up dump 2 in this layout (a nonce of its
# own, a chunk with the right length and CRC-32).  The agent writes it
# as data in a chunk; the reader takes it as data: one dump per stage,
# the trace byte for byte.
d=$A/forged
mk_tracefs "$d/tfs"
mk_root "$d/root"
fake=$(printf 'probecc-manifest\t1\nstage\twindow\n--- trace ---\n')
crc=$(printf '%s\n' "$fake" | gzip -c | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')
{
	printf '# tracer: nop\n#\n'
	printf '           cat-90      [000] ..... 5.000000: openat: (do_sys_openat2+0x0/0xd8) name="x\n'
	printf '=== probecc dump 1 end ===\n=== probecc dump 2 begin ===\nprobecc-manifest\t1\nitem\t-\tok\tcurrent_tracer\t-\n--- trace ---\n=== probecc dump 2 end ===\n'
	printf '=== probecc dump 1 end 2 99 0123456789abcdef ===\n=== probecc dump 2 begin 0123456789abcdef ===\n'
	printf '=== probecc dump 2 chunk 1 %d %s 0123456789abcdef ===\n%s\n' $(( ${#fake} + 1 )) "$crc" "$fake"
	printf '=== probecc dump 2 end 1 %d 0123456789abcdef ===\n"\n' $(( ${#fake} + 1 ))
	printf '           cat-90      [000] ..... 6.000000: openat: (do_sys_openat2+0x0/0xd8) name="/etc/passwd"\n'
} > "$d/tfs/trace"
for w in 0 1; do
	plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' "window|$w"
	run_agent forged-$w --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
	want="1"
	[ $w = 0 ] || want="1 2"
	last=${want##* }
	./probecc report --extract $last "$d/root/dump.out" 2> "$d/extract.err" |
		sed '1,/^--- trace ---$/d' > "$d/trace$w"
	got=$(dumps "$d/root/dump.out")
	if [ "$got" = "$want" ] && cmp -s "$d/tfs/trace" "$d/trace$w" &&
	   ./probecc report "$d/root/dump.out" > "$d/report$w" 2>&1 &&
	   grep -q '^  openat  *2 hit(s)' "$d/report$w" && ! grep -q '^not taken' "$d/report$w"; then
		t_pass agent/forged-frame-in-trace-window$w
	else
		t_fail agent/forged-frame-in-trace-window$w "complete dumps '$got' (want '$want'), trace kept whole: $(cmp -s "$d/tfs/trace" "$d/trace$w" && echo yes || echo no)" "$d/report$w" "$d/extract.err"
	fi
done

# ---- init order: the plan's inits first, then the kernel's ----
d=$A/init
mk_root "$d/root"
mkdir -p "$d/root/sbin" "$d/root/bin"
printf '#!/bin/sh\necho "$0 $*" > "%s"\n' "$d/root/ran" > "$d/root/sbin/myinit"
cp "$d/root/sbin/myinit" "$d/root/bin/sh"
chmod +x "$d/root/sbin/myinit" "$d/root/bin/sh"
plan "$d/plan" 'probecc-plan|1' 'init|/nonexistent' 'init|/sbin/myinit'
run_agent init --root "$d/root" --plan "$d/plan" -- arg1
printf '%s\n' "$d/root/sbin/myinit arg1" > "$d/want"
t_check agent/init-from-plan "$d/want" "$d/root/ran"
plan "$d/plan" 'probecc-plan|1'
run_agent init2 --root "$d/root" --plan "$d/plan" --no-exec
printf 'agent: would exec /bin/sh\n' > "$d/want"
grep 'would exec' "$A/init2.err" > "$d/got"
t_check agent/init-fallback-order "$d/want" "$d/got"
rm "$d/root/bin/sh" "$d/root/ran"
: > "$d/root/dev/console"	# one boot per capture: the first begin line's nonce
run_agent init3 --root "$d/root" --plan "$d/plan"
if [ $rc -eq 1 ] && grep -q 'no init found' "$A/init3.err" &&
   [ "$(dumps "$d/root/dev/console")" = 1 ]; then
	t_pass agent/no-init-at-all
else
	t_fail agent/no-init-at-all "exit $rc" "$A/init3.err"
fi

# ---- window: a second dump, then /run/probecc.done ----
d=$A/window
mk_tracefs "$d/tfs"
mk_root "$d/root"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' 'window|1'
start=$(date +%s%N)
run_agent window --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
ms=$(( ($(date +%s%N) - start) / 1000000 ))
filter "$d/root/dump.out" | grep -E '^(=== probecc dump [0-9]+ (begin|end)|stage)' > "$d/got"
printf '%s\n' '=== probecc dump 1 begin NONCE ===' "stage${TAB}init" '=== probecc dump 1 end 3 BYTES NONCE ===' \
	'=== probecc dump 2 begin NONCE ===' "stage${TAB}window" '=== probecc dump 2 end 3 BYTES NONCE ===' > "$d/want"
t_check agent/window-two-dumps "$d/want" "$d/got"
printf 'window 1\n' > "$d/want"
t_check agent/window-marker "$d/want" "$d/root/run/probecc.done"
# the agent's time before the real init, by part: the window dump alone
# has the init dump's duration and the fork's time, each a number, the
# fork after the init dump (docs/plan.md, "Dump")
grep -a -E '^(stage|[a-z_]+_us)'"$TAB" "$d/root/dump.out" | cut -f1 | tr '\n' ' ' > "$d/got"
echo >> "$d/got"
echo 'stage agent_us mounts_us plan_us plan_cpu_us sink_us stage agent_us mounts_us plan_us plan_cpu_us sink_us init_dump_us fork_us ' > "$d/want"
t_check agent/window-timings "$d/want" "$d/got"
if awk -F'\t' '$1 ~ /_us$/ && $2 !~ /^[0-9]+$/ { bad = 1 }
	$1 == "stage" { n++ } n == 2 && $1 == "agent_us" { a = $2 } n == 2 && $1 == "fork_us" { f = $2 }
	n == 2 && $1 == "init_dump_us" { i = $2 }
	$1 == "plan_us" { p = $2 } $1 == "plan_cpu_us" && $2 + 0 > p + 0 { bad = 1 }
	END { exit bad || f == "" || f + 0 < i + 0 || a + 0 < f + 0 }' "$d/root/dump.out"; then
	t_pass agent/window-timings-order
else
	t_fail agent/window-timings-order "a *_us value is not a number, plan_cpu_us > plan_us (one thread's CPU time cannot pass the wall clock), or fork_us < init_dump_us or > the window dump's agent_us" "$d/root/dump.out"
fi
if [ "$ms" -ge 1000 ]; then
	t_pass agent/window-sleeps
else
	t_fail agent/window-sleeps "returned after $ms ms"
fi

# ---- a window: the init dump is cut at its mark, the real init released ----
# With a window the worker releases PID 1 once the init dump's clock mark
# is in the trace and reads the trace on, never paused, up to that mark:
# the manifest says "cut mark".  The kernel's "CPU:N [LOST ...]" (pages
# overwritten before the reader got to them, the mark maybe among them)
# ends it too: what follows may be userspace's.  The window dump has all.
d=$A/cut
mk_tracefs "$d/tfs"
mk_root "$d/root"
: > "$d/tfs/trace_marker"
printf '# tracer: nop\n#\n            init-74      [000] .....     0.3: sys_enter: NR 1\nCPU:0 [LOST 7 EVENTS]\n              rc-1       [000] .....     0.5: sys_enter: NR 2\n' > "$d/tfs/trace"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' 'window|1'
run_agent cut --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
for n in 1 2; do
	./probecc report --extract $n "$d/root/dump.out" > "$d/body$n" 2> "$d/extract$n.err"
done
printf '%s\n' '# tracer: nop' '#' '            init-74      [000] .....     0.3: sys_enter: NR 1' 'CPU:0 [LOST 7 EVENTS]' > "$d/want1"
sed '1,/^--- trace ---$/d' "$d/body1" > "$d/trace1"
t_check agent/cut-at-lost "$d/want1" "$d/trace1"
if grep -qx "cut${TAB}mark" "$d/body1" && ! grep -q "^paused$TAB" "$d/body1" &&
   ! grep -q "^cut$TAB" "$d/body2" && grep -q ' rc-1 ' "$d/body2" &&
   grep -q '^probecc-clock 2 [0-9]*$' "$d/tfs/trace_marker"; then
	t_pass agent/cut-manifest
else
	t_fail agent/cut-manifest "dump 1 not said cut (or paused), or dump 2 cut or without the events after the loss" "$d/body1" "$d/body2"
fi
# the line of dump 1's own clock mark ends it: fifos stand in for the
# kernel's trace_marker and trace, the mark written to the one is a line
# of the other, with a later line after it (for each dump's open)
d=$A/cut-mark
mk_tracefs "$d/tfs"
mk_root "$d/root"
rm -f "$d/tfs/trace"
mkfifo "$d/tfs/trace_marker" "$d/tfs/trace"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' 'window|1'
( for n in 1 2; do
	read -r m < "$d/tfs/trace_marker"
	printf '# tracer: nop\n# entries-in-buffer/entries-written: 2/2   #P:1\n#\n            init-74      [000] .....     0.4: tracing_mark_write: %s\n              rc-1       [000] .....     0.5: sys_enter: NR 2\n' "$m" > "$d/tfs/trace"
  done ) 2> /dev/null &
run_agent cut-mark --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
wait
./probecc report --extract 1 "$d/root/dump.out" 2> /dev/null | sed '1,/^--- trace ---$/d' > "$d/trace1"
if tail -1 "$d/trace1" | grep -q ': tracing_mark_write: probecc-clock 1 [0-9]*$' && ! grep -q ' rc-1 ' "$d/trace1"; then
	t_pass agent/cut-at-mark
else
	t_fail agent/cut-at-mark "dump 1 does not end with its clock mark's line" "$d/trace1"
fi
# a boot whose window dump never came: the report reads the cut dump 1,
# whose header counts the entries after the mark; they are not "not read"
sed '/^=== probecc dump 1 end /q' "$d/root/dump.out" > "$d/dump1.out"
./probecc report "$d/dump1.out" > "$d/report1.txt" 2>&1
if grep -q '1 dump(s)' "$d/report1.txt" && ! grep -q '^not read' "$d/report1.txt"; then
	t_pass agent/cut-report-entries
else
	t_fail agent/cut-report-entries "the cut dump's entries after its mark counted as not read" "$d/report1.txt"
fi

# ---- MIPS as the others: the init dump cut, PID 1 released at its mark,
# long before the window's end (the window's 3 s are the margin: the
# reader of the agent's stderr lists the dumps when "would exec" comes) ----
d=$A/mips-init-dump-cut
mk_tracefs "$d/tfs"
mk_root "$d/root"
: > "$d/tfs/trace_marker"
mkdir -p "$d/root/sbin"
printf '#!/bin/sh\n' > "$d/root/sbin/init"
chmod +x "$d/root/sbin/init"
plan "$d/plan" 'probecc-plan|1' 'arch|mipsel' 'sink|/dump.out' 'window|3'
mkfifo "$d/err"
( while read -r l; do
	case $l in *'would exec'*) dumps "$d/root/dump.out" > "$d/at-exec" ;; esac
  done < "$d/err" ) &
timeout 30 "$AGENT" --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec 2> "$d/err"
wait
./probecc report --extract 1 "$d/root/dump.out" > "$d/body1" 2> /dev/null
case $(cat "$d/at-exec" 2> /dev/null) in
*2*) at_exec=late ;;
*) at_exec=ok ;;
esac
if [ $at_exec = ok ] && grep -qx "cut${TAB}mark" "$d/body1"; then
	t_pass agent/mips-init-dump-cut
else
	t_fail agent/mips-init-dump-cut "dumps in the sink at the release: '$(cat "$d/at-exec" 2> /dev/null)' (want no window dump yet), or a MIPS init dump not cut" "$d/root/dump.out"
fi

# ---- no init at all, with a window: PID 1's exit would panic the
# kernel, so the agent exits only once its worker's dumps are out ----
d=$A/noinit-window
mk_tracefs "$d/tfs"
mk_root "$d/root"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' 'window|1'
run_agent noinit-window --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan"
if [ $rc -eq 1 ] && [ "$(dumps "$d/root/dump.out")" = "1 2" ]; then
	t_pass agent/no-init-waits-for-dumps
else
	t_fail agent/no-init-waits-for-dumps "exit $rc, dumps '$(dumps "$d/root/dump.out")' when the agent exited" "$A/noinit-window.err"
fi

# ---- no window: the init dump is the last, marked done before the exec ----
d=$A/nowindow
mk_tracefs "$d/tfs"
mk_root "$d/root"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out'
run_agent nowindow --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
printf 'window 0\n' > "$d/want"
if [ -f "$d/root/run/probecc.done" ]; then
	t_check agent/no-window-marker "$d/want" "$d/root/run/probecc.done"
else
	t_fail agent/no-window-marker "no /run/probecc.done without a window"
fi

# ---- expect in a probe listing: GROUP/EVENT as the kernel lists it ----
# kprobe_events lists "TYPE[MAXACTIVE]:GROUP/EVENT ARGS": a kretprobe
# defined "r:" reads "r10:" once registered.  GROUP/EVENT matches the
# definition whatever its type, not a prefix of another; a whole token
# still matches; a missing one is defined late through kprobe_events.
d=$A/expect-listing
mk_tracefs "$d/tfs"
mk_root "$d/root"
printf '%s\n' 'p:kprobes/early kernel_init' 'r10:kprobes/ret do_exit' > "$d/tfs/kprobe_events"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' \
	'expect|early|kprobe_events|kprobes/early' \
	'expect|ret|kprobe_events|kprobes/ret|r:kprobes/ret do_exit' \
	'expect|re|kprobe_events|kprobes/re' \
	'expect|do_exit|kprobe_events|do_exit' \
	'expect|tok|kprobe_events|r10:kprobes/ret' \
	'expect|late|kprobe_events|kprobes/late|p:kprobes/late do_fork'
run_agent expect-listing --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
grep '^item' "$d/root/dump.out" > "$d/items"
printf 'item\t%s\t%s\tkprobe_events\t-\n' early ok ret ok re missing do_exit ok tok ok late armed-late > "$d/want"
t_check agent/expect-listing "$d/want" "$d/items"
if tail -1 "$d/tfs/kprobe_events" | grep -qx 'p:kprobes/late do_fork'; then
	t_pass agent/expect-listing-defines-late
else
	t_fail agent/expect-listing-defines-late "p:kprobes/late not appended to kprobe_events" "$d/tfs/kprobe_events"
fi

# ---- the kernel log: the MIPS kprobe single-step oops (kmsg.c) ----
# tests/agent/kmsg-oops: the oops of a real boot (Debian's Malta 6.1,
# bench/kprobe-oops/) as /dev/kmsg gives it, made from its console log
# ("[ SEC.USEC] TEXT" -> "4,SEQ,USEC,-;TEXT"); kmsg-other-break is the
# same with another break code at epc: not that oops, no line.
for k in kmsg-oops kmsg-other-break; do
	d=$A/$k
	mk_tracefs "$d/tfs"
	mk_root "$d/root"
	printf '  %-44s %15lu %15lu\n' open_entry 350 0 open_ret 349 0 > "$d/tfs/kprobe_profile"
	cp "tests/agent/$k" "$d/root/dev/kmsg"
	plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out'
	run_agent "$k" --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
	grep '^kprobe-' "$d/root/dump.out" > "$d/lines"
	if [ $k = kmsg-oops ]; then
		printf 'kprobe-oops\t14.721901\tc000000c\tsh-82\nkprobe-profile\topen_entry\t350\t0\nkprobe-profile\topen_ret\t349\t0\n' > "$d/want"
	else
		: > "$d/want"
	fi
	t_check "agent/$k" "$d/want" "$d/lines"
done
# The oops is MIPS's: for a plan of another arch the log is not read (a
# read per record costs 20-28 ms on arm64), for a MIPS one it is.
for k in arm64 mips64el; do
	d=$A/kmsg-arch-$k
	mk_tracefs "$d/tfs"
	mk_root "$d/root"
	printf '  %-44s %15lu %15lu\n' open_entry 350 0 > "$d/tfs/kprobe_profile"
	cp tests/agent/kmsg-oops "$d/root/dev/kmsg"
	plan "$d/plan" 'probecc-plan|1' "arch|$k" 'sink|/dump.out'
	run_agent "kmsg-arch-$k" --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
	grep '^kprobe-' "$d/root/dump.out" > "$d/lines"
	if [ $k = arm64 ]; then
		: > "$d/want"
	else
		printf 'kprobe-oops\t14.721901\tc000000c\tsh-82\nkprobe-profile\topen_entry\t350\t0\n' > "$d/want"
	fi
	t_check "agent/kmsg-arch-$k" "$d/want" "$d/lines"
done
# A kernel that has not oopsed is not tainted 'D' (die() adds TAINT_DIE,
# bit 7, after the oops): /proc/sys/kernel/tainted read, the log not.
# The same oops log with the mask 0 (no D: no line) and 4224 (D and
# O, 128 + 4096: the line and the profile).
for k in 0 4224; do
	d=$A/kmsg-tainted-$k
	mk_tracefs "$d/tfs"
	mk_root "$d/root"
	mkdir -p "$d/root/proc/sys/kernel"
	echo $k > "$d/root/proc/sys/kernel/tainted"
	printf '  %-44s %15lu %15lu\n' open_entry 350 0 > "$d/tfs/kprobe_profile"
	cp tests/agent/kmsg-oops "$d/root/dev/kmsg"
	plan "$d/plan" 'probecc-plan|1' 'arch|mipsel' 'sink|/dump.out'
	run_agent "kmsg-tainted-$k" --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
	grep '^kprobe-' "$d/root/dump.out" > "$d/lines"
	if [ $k = 0 ]; then
		: > "$d/want"
	else
		printf 'kprobe-oops\t14.721901\tc000000c\tsh-82\nkprobe-profile\topen_entry\t350\t0\n' > "$d/want"
	fi
	t_check "agent/kmsg-tainted-$k" "$d/want" "$d/lines"
done
# The host's own /dev/kmsg, a character device that would block at its
# end without O_NONBLOCK: the dump must end (the 30 s guard) and frame.
d=$A/kmsg-device
mk_tracefs "$d/tfs"
mk_root "$d/root"
if [ -c /dev/kmsg ] && [ -r /dev/kmsg ]; then
	ln -s /dev/kmsg "$d/root/dev/kmsg"
	plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out'
	run_agent kmsg-device --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
	if [ $rc -ne 124 ] && ./probecc report --list "$d/root/dump.out" 2> /dev/null | grep -qx 1; then
		t_pass agent/kmsg-device-never-blocks
	else
		t_fail agent/kmsg-device-never-blocks "exit $rc (124: still reading after 30 s)" "$A/kmsg-device.err"
	fi
elif [ "${CI:-}" = true ]; then
	t_fail agent/kmsg-device-never-blocks "no readable /dev/kmsg on this host"
else
	t_skip agent/kmsg-device-never-blocks "no readable /dev/kmsg on this host"
fi

# ---- a bad option in test mode ----
run_agent badopt --frobnicate
if [ $rc -eq 2 ] && grep -q 'unknown option' "$A/badopt.err"; then
	t_pass agent/bad-option
else
	t_fail agent/bad-option "exit $rc" "$A/badopt.err"
fi

# ---- mkinitramfs ----
d=$A/mki
mkdir -p "$d/out"
printf 'fake busybox\n' > "$d/busybox"
printf 'fake agent\n' > "$d/agent"
printf 'probecc-plan\t1\n' > "$d/plan"
printf 'echo rc without a shebang\n' > "$d/rc"
printf 'extra\n' > "$d/extra"
mki_args=(--busybox "$d/busybox" --agent "$d/agent" --plan "$d/plan" --rc "$d/rc" --add "$d/extra:/etc/extra.conf")
if "$MKI" -o "$d/out/a.cpio.gz" "${mki_args[@]}" > "$d/mki.log" 2>&1; then
	zcat "$d/out/a.cpio.gz" | cpio -t --quiet > "$d/list" 2>&1
	zcat "$d/out/a.cpio.gz" | cpio -tv --quiet > "$d/listv" 2>&1
	miss=
	for f in init bin/busybox bin/sh sbin/init probecc/plan etc/extra.conf dev proc sys run; do
		grep -qx "$f" "$d/list" || miss="$miss $f"
	done
	if [ -z "$miss" ]; then t_pass mkinitramfs/lists; else t_fail mkinitramfs/lists "missing:$miss" "$d/list"; fi
	if grep -q ' bin/sh -> busybox$' "$d/listv" && grep -q ' sbin/poweroff -> ../bin/busybox$' "$d/listv"; then
		t_pass mkinitramfs/applet-links
	else
		t_fail mkinitramfs/applet-links "no bin/sh -> busybox" "$d/listv"
	fi
	if awk '{ print $3; print $4 }' "$d/listv" | sort -u | grep -qvx 'root'; then
		t_fail mkinitramfs/owner "files not owned by root" "$d/listv"
	else
		t_pass mkinitramfs/owner
	fi
	mkdir -p "$d/x"
	(cd "$d/x" && zcat ../out/a.cpio.gz | cpio -id --quiet 2> /dev/null)
	if cmp -s "$d/agent" "$d/x/init" && [ -x "$d/x/init" ] &&
	   cmp -s "$d/plan" "$d/x/probecc/plan" && cmp -s "$d/extra" "$d/x/etc/extra.conf" &&
	   [ "$(head -1 "$d/x/sbin/init")" = '#!/bin/sh' ] && [ -x "$d/x/sbin/init" ]; then
		t_pass mkinitramfs/contents
	else
		t_fail mkinitramfs/contents "files differ from their sources" "$d/listv"
	fi
	sleep 1
	"$MKI" -o "$d/out/b.cpio.gz" "${mki_args[@]}" > "$d/mki2.log" 2>&1
	if cmp -s "$d/out/a.cpio.gz" "$d/out/b.cpio.gz"; then
		t_pass mkinitramfs/reproducible
	else
		t_fail mkinitramfs/reproducible "two runs differ"
	fi
else
	t_fail mkinitramfs/lists "mkinitramfs failed" "$d/mki.log"
fi
# without --busybox (big-endian mips64: Debian has none): no /bin, and an
# ELF rc goes in as it is (no "#!/bin/sh" put before it)
cp /bin/true "$d/rc.elf"
if "$MKI" -o "$d/out/nobb.cpio.gz" --agent "$d/agent" --plan "$d/plan" --rc "$d/rc.elf" \
	> "$d/nobb.log" 2>&1; then
	rm -rf "$d/nobb" && mkdir -p "$d/nobb"
	(cd "$d/nobb" && zcat ../out/nobb.cpio.gz | cpio -id --quiet 2> /dev/null)
	if [ ! -e "$d/nobb/bin" ] && [ "$(ls "$d/nobb/sbin")" = init ] &&
	   cmp -s "$d/rc.elf" "$d/nobb/sbin/init" && [ -x "$d/nobb/sbin/init" ] &&
	   cmp -s "$d/agent" "$d/nobb/init"; then
		t_pass mkinitramfs/no-busybox-elf-rc
	else
		t_fail mkinitramfs/no-busybox-elf-rc "bin/ present or sbin/init changed" "$d/nobb.log"
	fi
else
	t_fail mkinitramfs/no-busybox-elf-rc "mkinitramfs failed" "$d/nobb.log"
fi
# failures leave nothing behind, and an existing OUT untouched
rm -rf "$d/fail" && mkdir -p "$d/fail"
echo old > "$d/fail/keep.cpio.gz"
"$MKI" -o "$d/fail/keep.cpio.gz" "${mki_args[@]}" --add "$d/nonexistent:/x" > "$d/fail.log" 2>&1
frc=$?
if [ $frc -ne 0 ] && [ "$(cat "$d/fail/keep.cpio.gz")" = old ] &&
   [ "$(ls -A "$d/fail")" = keep.cpio.gz ]; then
	t_pass mkinitramfs/fail-keeps-out
else
	t_fail mkinitramfs/fail-keeps-out "exit $frc; left: $(ls -A "$d/fail" | tr '\n' ' ')" "$d/fail.log"
fi
# a failure while writing the archive (gzip fails half-way)
mkdir -p "$d/fakebin"
printf '#!/bin/sh\nhead -c 100 /dev/zero\nexit 1\n' > "$d/fakebin/gzip"
chmod +x "$d/fakebin/gzip"
rm -f "$d/fail/keep.cpio.gz"
PATH=$d/fakebin:$PATH "$MKI" -o "$d/fail/new.cpio.gz" "${mki_args[@]}" > "$d/fail2.log" 2>&1
frc=$?
if [ $frc -ne 0 ] && [ -z "$(ls -A "$d/fail")" ]; then
	t_pass mkinitramfs/fail-leaves-nothing
else
	t_fail mkinitramfs/fail-leaves-nothing "exit $frc; left: $(ls -A "$d/fail" | tr '\n' ' ')" "$d/fail2.log"
fi

# ---- persist: the previous boot's trace in the persistent instance ----
# A "persist NAME" line dumps instances/NAME/trace first, as stage
# "previous" with last_boot (from last_boot_info) and stext, empties it,
# and only then do the lines after it enable events in the instance.
d=$A/persist
mk_tracefs "$d/tfs"
mk_root "$d/root"
mkdir -p "$d/tfs/instances/pc/per_cpu/cpu0" "$d/tfs/instances/pc/events/kprobes/k"
printf 'text delta:\t-612368384\ndata delta:\t-612368384\n' > "$d/tfs/instances/pc/last_boot_info"
printf '# tracer: nop\n#\n  <...>-144 [000] ..... 9.400769: k: __probe_ip=0xffffffffb05a6720 (-1) name=spin\n' \
	> "$d/tfs/instances/pc/trace"
printf 'entries: 1\noverrun: 0\ndropped events: 0\n' > "$d/tfs/instances/pc/per_cpu/cpu0/stats"
: > "$d/tfs/instances/pc/events/kprobes/k/enable"
printf 'ffffffff8bc00000 T _stext\n' > "$d/root/proc/kallsyms"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' 'persist|pc' \
	'arm|k|instances/pc/events/kprobes/k/enable|1'
run_agent persist --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
filter "$d/root/dump.out" > "$d/dump"
grep -E '^(=== probecc dump [0-9]+ begin|stage|last_boot|stext|cpu)' "$d/dump" > "$d/got"
printf '%s\n' '=== probecc dump 1 begin NONCE ===' 'stage	previous' \
	'cpu	0	entries	1	overrun	0	dropped	0' 'last_boot	-612368384	-612368384' \
	'stext	ffffffff8bc00000' '=== probecc dump 2 begin NONCE ===' 'stage	init' \
	'cpu	0	entries	12	overrun	3	dropped	1' 'cpu	1	entries	0	overrun	0	dropped	0' > "$d/want"
t_check agent/persist-previous-dump "$d/want" "$d/got"
t_grep agent/persist-previous-trace "$d/dump" 'k: __probe_ip=0xffffffffb05a6720 \(-1\) name=spin$'
if [ ! -s "$d/tfs/instances/pc/trace" ] && [ "$(cat "$d/tfs/instances/pc/events/kprobes/k/enable")" = 1 ]; then
	t_pass agent/persist-emptied-then-enabled
else
	t_fail agent/persist-emptied-then-enabled "trace: $(wc -c < "$d/tfs/instances/pc/trace") bytes, enable: $(cat "$d/tfs/instances/pc/events/kprobes/k/enable")"
fi
# no persistent buffer (no last_boot_info): a note, one dump, nothing else
rm -f "$d/tfs/instances/pc/last_boot_info" "$d/root/dump.out"
printf '  <...>-1 [000] ..... 1.0: k: x\n' > "$d/tfs/instances/pc/trace"
run_agent persist2 --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
if [ "$(grep -c '^stage' "$d/root/dump.out")" = 1 ] &&
   grep -q '^note	persist	instances/pc/last_boot_info: No such file or directory (no persistent buffer' "$d/root/dump.out"; then
	t_pass agent/persist-none
else
	t_fail agent/persist-none "expected one dump and the note" "$d/root/dump.out"
fi

# ---- instance: probecc's events in a tracefs instance of their own ----
# "instance NAME" (first in the plan): the instance made by the kernel
# (trace_instance=, bootconfig) is used as it is (item ok), one missing is
# made (mkdir, item armed); every dump then reads the instance: its
# trace, its per_cpu stats, its trace_marker for the clock mark, and says
# so (buffer instances/NAME/).  The top buffer is not read.
d=$A/instance
mk_tracefs "$d/tfs"
mk_root "$d/root"
mkdir -p "$d/tfs/instances/boot/per_cpu/cpu0" "$d/tfs/instances/boot/options"
printf '# tracer: nop\n#\n  insmod-80 [000] ..... 5.500000: netdev: (register_netdevice+0x0/0x2c) name="bond0"\n' \
	> "$d/tfs/instances/boot/trace"
printf 'entries: 1\noverrun: 0\ndropped events: 0\n' > "$d/tfs/instances/boot/per_cpu/cpu0/stats"
: > "$d/tfs/instances/boot/set_event"
: > "$d/tfs/instances/boot/trace_marker"
: > "$d/tfs/trace_marker"
printf '0\n' > "$d/tfs/instances/boot/options/sym-addr"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' 'instance|boot' \
	'expect|-|instances/boot/options/sym-addr|1|1' \
	'arm|netdev|kprobe_events|p:kprobes/netdev register_netdevice' \
	'arm|netdev|instances/boot/set_event|kprobes:netdev'
run_agent instance --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
filter "$d/root/dump.out" > "$d/dump"
grep -E '^(stage|buffer|cpu|item)' "$d/dump" > "$d/got"
printf '%s\n' 'stage	init' 'buffer	instances/boot/' \
	'item	instance	ok	instances/boot	-' \
	'item	-	armed-late	instances/boot/options/sym-addr	-' \
	'item	netdev	armed	kprobe_events	p:kprobes/netdev register_netdevice' \
	'item	netdev	armed	instances/boot/set_event	kprobes:netdev' \
	'cpu	0	entries	1	overrun	0	dropped	0' > "$d/want"
t_check agent/instance-dump "$d/want" "$d/got"
t_grep agent/instance-trace "$d/dump" 'netdev: \(register_netdevice\+0x0/0x2c\) name="bond0"$'
if grep -q 'register_netdevice <-register_netdev' "$d/dump"; then
	t_fail agent/instance-not-top "the top buffer's trace is in the dump" "$d/dump"
else
	t_pass agent/instance-not-top
fi
if grep -q '^probecc-clock 1 ' "$d/tfs/instances/boot/trace_marker" && [ ! -s "$d/tfs/trace_marker" ]; then
	t_pass agent/instance-clock-mark
else
	t_fail agent/instance-clock-mark "the clock mark is not in the instance's trace_marker alone"
fi
# 6.1: no trace_instance=, the agent makes the instance
d=$A/instance-made
mk_tracefs "$d/tfs"
mk_root "$d/root"
mkdir -p "$d/tfs/instances"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' 'instance|boot'
run_agent instance-made --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
if [ -d "$d/tfs/instances/boot" ] &&
   grep -q '^item	instance	armed	instances/boot	-$' "$d/root/dump.out" &&
   grep -q '^buffer	instances/boot/$' "$d/root/dump.out"; then
	t_pass agent/instance-made
else
	t_fail agent/instance-made "no instances/boot or no item armed" "$d/root/dump.out"
fi
# no instances/ (no tracefs instances): the item fails, the dump is the top buffer's
d=$A/instance-fail
mk_tracefs "$d/tfs"
mk_root "$d/root"
plan "$d/plan" 'probecc-plan|1' 'sink|/dump.out' 'instance|boot'
run_agent instance-fail --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
if grep -q '^item	instance	failed	instances/boot	No such file or directory$' "$d/root/dump.out" &&
   grep -q '^buffer	top$' "$d/root/dump.out"; then
	t_pass agent/instance-failed
else
	t_fail agent/instance-failed "no failed item or not the top buffer" "$d/root/dump.out"
fi

# ---- LAVA test-case signals (initramfs/lava.c): asked by the kernel's
# probecc_signals=lava in init's environment, written after the dump's
# last chunk and before its end line, where the frame reader skips them:
# the dump reads back the same as without them ----
d=$A/lava
mk_tracefs "$d/tfs"
mk_root "$d/root"
printf '  early                                                     3               0\n' > "$d/tfs/kprobe_profile"
printf '  /bin/busybox                                      uprobes/Main                               2\n' > "$d/tfs/uprobe_profile"
plan "$d/plan" 'probecc-plan|1' 'sink|console' 'expect|early|kprobe_events|p:kprobes/early' \
	'expect|gone|kprobe_events|p:kprobes/gone'
cp -r "$d/root" "$d/plain"
run_agent lava-plain --root "$d/plain" --tracefs "$d/tfs" --plan "$d/plan" --no-exec
probecc_signals=lava timeout 30 "$AGENT" --root "$d/root" --tracefs "$d/tfs" --plan "$d/plan" --no-exec 2> "$A/lava.err"
sig=$(sed -n '/^<LAVA_SIGNAL_TESTCASE /p' "$d/root/dev/console")
want='<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=item_early_kprobe_events RESULT=pass MEASUREMENT=1 UNITS=armed>
<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=item_gone_kprobe_events RESULT=fail MEASUREMENT=0 UNITS=armed>
<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=dump1_hits_early RESULT=pass MEASUREMENT=3 UNITS=hits>
<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=dump1_uhits_uprobes_main RESULT=pass MEASUREMENT=2 UNITS=hits>'
bytes=$(sed -n 's/^=== probecc dump 1 end [0-9]* \([0-9]*\) .*/\1/p' "$d/root/dev/console")
if [ "$(printf '%s\n' "$sig" | head -4)" = "$want" ] &&
   printf '%s\n' "$sig" | grep -qx "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=dump1_bytes RESULT=pass MEASUREMENT=$bytes UNITS=bytes>" &&
   printf '%s\n' "$sig" | grep -Eqx '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=dump1_ms RESULT=pass MEASUREMENT=[0-9]+\.[0-9]{3} UNITS=ms>' &&
   [ "$(grep -A1 'dump1_ms' "$d/root/dev/console" | tail -1 | cut -c1-23)" = '=== probecc dump 1 end ' ]; then
	t_pass agent/lava-signals
else
	t_fail agent/lava-signals "not the signals before dump 1's end line" "$d/root/dev/console"
fi
if ! grep -q LAVA_SIGNAL "$d/plain/dev/console" &&
   [ "$(./probecc report --extract 1 "$d/root/dev/console" 2>&1 | grep -v '^\(uptime\|agent_us\|[a-z_]*_us\)	')" = \
     "$(./probecc report --extract 1 "$d/plain/dev/console" 2>&1 | grep -v '^\(uptime\|agent_us\|[a-z_]*_us\)	')" ]; then
	t_pass agent/lava-signals-outside-frames
else
	t_fail agent/lava-signals-outside-frames "the dump reads back otherwise with the signals" "$d/root/dev/console"
fi
