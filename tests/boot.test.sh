# Real boots: bond0, the arguments, the return value and the CI job: the
# probe files of examples/, compiled and booted on Debian's own kernels
# (MIPS Malta and x86_64) in QEMU by qemu-images/run-probes; the
# assertions read the agent's dumps from the guest's second serial port.
#
# Where MIPS and x86_64 differ, the test states what each kernel gives:
# on MIPS 6.1 the function tracer's stack is the single frame
# ftrace_graph_call and a kprobe's stacktrace trigger would record the
# breakpoint handler, never the probed code's callers (the kernel defect
# of MIPS stacks, mended by kernel-patches/mipsel, tests/kernel/stacks.sh),
# so on MIPS probecc takes the stacks of kprobes and of function lines
# with the agent's perf callchains.
# Run alone: bash tests/boot.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

boot_dir=$T_OUT/boot

# boot_run ARCH NAME: boot examples/NAME.probes once; 0 when it booted
# and dumped.  A failure is reported here, once.
boot_run() {
	# Debian's Malta 6.1 sometimes oopses in its own kprobe single-step
	# ("Break instruction in kernel code" at the slot of do_sys_openat2's
	# first instruction; after it every kprobe is missed, the boot goes
	# on).  Measured: 1 boot in 10 to 5 in 8; a kernel defect.
	# That message alone gets another boot (tests/lib.sh).
	run_probes_oops "boot/$1-$2" "$boot_dir/$1-$2" --arch "$1" "examples/$2.probes"
}

# trace_of DUMP: the trace part of a dump.
trace_of() {
	sed -n '/^--- trace ---$/,$p' "$1" | grep -v '^#'
}

# No item of any dump may have failed, except as EXCEPT (a regex) allows.
expect_armed() {
	local name=$1 dump=$2 except=${3:-^$} bad
	bad=$(grep -P '^item\t' "$dump" | awk -F'\t' '$3 == "failed" || $3 == "missing"' |
		grep -Ev -- "$except")
	if [ -z "$bad" ]; then
		t_pass "$name"
	else
		t_fail "$name" "items not armed: $bad"
	fi
}

for arch in mipsel x86_64; do
	# --- Who creates bond0? ---
	if boot_run $arch bond0; then
		d=$boot_dir/$arch-bond0
		trace_of "$d/dump1" > "$d/trace1"
		trace_of "$d/dump2" > "$d/trace2"
		# Every item armed: the example names no module function in its
		# filter (bonding.ko's, loaded later by the rc script, would fail).
		expect_armed "boot/$arch-bond0/armed" "$d/dump1"
		# Loopback registers during the kernel's own boot (subsys_initcall),
		# seen by the function tracer before userspace, in PID 1.  The
		# trace text names a task by the comm saved last for its PID
		# (saved_cmdlines): swapper/0 then, "init" once the agent's clock
		# mark (written by PID 1 after the exec of /init) is in the trace.
		t_grep "boot/$arch-bond0/loopback-function-trace" "$d/trace1" \
			'(swapper/0|init)-1 .*register_netdevice <-register_netdev$'
		stack_after "$d/trace1" 'register_netdevice <-register_netdev$' > "$d/lo.stack"
		if [ $arch = x86_64 ]; then
			t_grep "boot/$arch-bond0/loopback-stack" "$d/lo.stack" \
				'^loopback_net_init' "x86_64 stack lacks loopback_net_init"
		else
			# MIPS 6.1: func_stack_trace would give the one frame
			# ftrace_graph_call, so it is left out: the function
			# line's stacks are the agent's perf callchains (below),
			# and the kernel's own boot has none.
			if ! grep -q '<stack trace>' "$d/trace1" &&
			   ! grep -q func_stack_trace "$d/cmdline" &&
			   grep -q $'^perf\tregister_netdevice\tkprobe:register_netdevice$' "$d/plan"; then
				t_pass "boot/$arch-bond0/function-stack-not-the-tracers"
			else
				t_fail "boot/$arch-bond0/function-stack-not-the-tracers" \
					"func_stack_trace set, a <stack trace> in dump 1, or no perf line of register_netdevice's kprobe PMU" "$d/plan"
			fi
		fi
		# bonding.ko, loaded by the rc script, registers "bond%d": the
		# kprobe records the name at function entry (before the %d is
		# resolved), and the function tracer sees bond_create call it.
		t_grep "boot/$arch-bond0/kprobe-name" "$d/trace2" \
			'insmod-[0-9]+ .* netdev: \(register_netdevice\+0x0/0x[0-9a-f]+\) name="bond%d"'
		t_grep "boot/$arch-bond0/function-caller" "$d/trace2" \
			'insmod-[0-9]+ .*register_netdevice <-bond_create$'
		stack_after "$d/trace2" 'netdev: [(]register_netdevice' > "$d/bond.stack"
		if [ $arch = x86_64 ]; then
			if grep -qx bond_create "$d/bond.stack" && grep -qx bonding_init "$d/bond.stack"; then
				t_pass "boot/$arch-bond0/kprobe-stack"
			else
				t_fail "boot/$arch-bond0/kprobe-stack" \
					"no bond_create and bonding_init in: $(tr '\n' ' ' < "$d/bond.stack")"
			fi
		else
			# MIPS: no stacktrace trigger (its stack would be the
			# breakpoint handler's); the agent's perf callchain, named
			# by the report from the image's modules and a capture.
			# the kprobe itself on the command line (kprobe_event=),
			# its callchains from perf's own kprobe (the kprobe PMU):
			# nothing for the agent to define, enable or read an id of
			if grep -q 'trigger' "$d/plan" || ! grep -q $'^perf\tnetdev\tkprobe:register_netdevice$' "$d/plan" ||
			   grep -q $'^arm\t' "$d/plan" || ! grep -q 'kprobe_event=p:netdev,register_netdevice' "$d/cmdline"; then
				t_fail "boot/$arch-bond0/perf-not-trigger-on-mips" "the plan" "$d/plan"
			else
				t_pass "boot/$arch-bond0/perf-not-trigger-on-mips"
			fi
			t_grep "boot/$arch-bond0/perf-sample" "$d/dump2" \
				$'^perf\tnetdev\t[0-9]+\t0\t[0-9]+\t[0-9]+\t[0-9a-f]+ '
			# what names samples' addresses goes with samples only:
			# the init dump has none (bonding loads after the exec),
			# so no /proc/kallsyms read before the real init
			if grep -q $'^perf-stat\tnetdev\tsamples\t0\t' "$d/dump1" &&
			   ! grep -q $'^\(stext\|module\)\t' "$d/dump1" &&
			   grep -q $'^stext\t[0-9a-f]*$' "$d/dump2"; then
				t_pass "boot/$arch-bond0/perf-names-with-samples"
			else
				t_fail "boot/$arch-bond0/perf-names-with-samples" \
					"init dump: stext or module lines without samples, or no stext in the window dump" "$d/dump1"
			fi
			eval "$(qemu-images/fetch $arch)"
			./probecc report "$d/ttyS1.raw" --modules "$MODULES" \
				--target "$(qemu-images/target $arch)" > "$d/report.txt" 2>&1
			# the callers, outermost last: kernel frames named through the
			# capture (moved by this boot's KASLR offset), module frames
			# through bonding.ko's sections (bonding_init is .init.text)
			sed -n '/^  netdev /,/^  [^ ]/p' "$d/report.txt" | grep -o '[0-9] [^ ]*\( \[[a-z]*\]\)\?$' |
				cut -d' ' -f2- > "$d/perf.stack"
			if head -1 "$d/perf.stack" | grep -q '^register_netdevice+0x0$' &&
			   grep -q '^bond_create+0x[0-9a-f]* \[bonding\]$' "$d/perf.stack" &&
			   grep -q '^bonding_init+0x[0-9a-f]* \[bonding\]$' "$d/perf.stack" &&
			   grep -q '^do_init_module+0x' "$d/perf.stack"; then
				t_pass "boot/$arch-bond0/perf-callchain"
			else
				t_fail "boot/$arch-bond0/perf-callchain" "no register_netdevice <- bond_create <- bonding_init <- do_init_module" \
					"$d/report.txt"
			fi
			# the function tracer's hit of bond_create's call has the
			# kprobe PMU's callchain; loopback's, in the kernel's own
			# boot, is said to have none
			sed -n '/^  register_netdevice /,/^  [^ ]/p' "$d/report.txt" > "$d/func.report"
			if grep -q '^        1 bond_create+0x[0-9a-f]* \[bonding\]$' "$d/func.report" &&
			   grep -q '^          1 bonding_init+0x[0-9a-f]* \[bonding\]$' "$d/func.report" &&
			   grep -q '^    1 hit(s) before the agent armed its perf callchains (by [0-9.]* s) have no stack$' "$d/func.report" &&
			   grep -q "^    hits without a stack, their callers by the function tracer's parent field: register_netdev (1)$" "$d/func.report"; then
				t_pass "boot/$arch-bond0/function-perf-callchain"
			else
				t_fail "boot/$arch-bond0/function-perf-callchain" "register_netdevice's function hits: bond_create's with its callers, loopback's said before the agent" \
					"$d/func.report"
			fi
		fi
	fi

	# --- What arguments does a function get? ---
	if boot_run $arch args; then
		d=$boot_dir/$arch-args
		trace_of "$d/dump1" > "$d/trace1"
		expect_armed "boot/$arch-args/armed" "$d/dump1"
		# The kernel's own exec of /init, before any userspace ran.
		t_grep "boot/$arch-args/kernel_execve-init" "$d/trace1" \
			' exec: \(kernel_execve\+0x0/0x[0-9a-f]+\) filename="/init" argv=0x[0-9a-f]+ envp=[0-9]+ comm="swapper/0"'
		# The kernel's own opens: dfd is AT_FDCWD (-100).
		t_grep "boot/$arch-args/openat-kernel" "$d/trace1" \
			' openat: \(do_sys_openat2\+0x0/0x[0-9a-f]+\) dfd=-100 filename="[^"]+" how=0x[0-9a-f]+'
		# The agent's own opens (its plan, tracefs, the dump channel)
		# are hits of the kernel-armed openat: its worker is in no PID
		# list (PID 1 clones it at once: a PID no task had before, never
		# the real init's).  Its mark "probecc-own PID NS" (the
		# manifest's own line), written by that PID, makes the report
		# leave out every hit of it: none in the report's hits, as
		# many left out as the trace has.
		./probecc report --hits "$d/ttyS1.raw" > "$d/report.txt" 2>&1
		pid=$(sed -n 's/^own\t\([0-9]*\)\t[0-9]*$/\1/p' "$d/dump1")
		ns=$(sed -n 's/^own\t[0-9]*\t\([0-9]*\)$/\1/p' "$d/dump1")
		own=$(cat "$d/dump1" "$d/dump2" 2> /dev/null | grep -E "^ *init-${pid:-x} .* openat: " | sort -u | wc -l)
		left=$(sed -n "s/^the agent's own: \([0-9]*\) hit(s) of its worker (PID ${pid:-x}, its every hit: in no PID list, its mark at [0-9.]* s), left out\$/\1/p" "$d/report.txt")
		if [ -n "$pid" ] && [ "$pid" != 1 ] && [ -n "$ns" ] &&
		   grep -Eq "init-$pid .* openat: .*filename=\"/probecc/plan\"" "$d/trace1" &&
		   grep -q "init-$pid .* tracing_mark_write: probecc-own $pid $ns\$" "$d/trace1" &&
		   [ -n "$left" ] && [ "$left" -ge "$own" ] &&
		   ! grep -Eq "^ +[0-9.]+ init-$pid: " "$d/report.txt"; then
			t_pass "boot/$arch-args/agent-not-in-its-trace"
		else
			t_fail "boot/$arch-args/agent-not-in-its-trace" "the worker's opens not in the trace, not all left out by the report ($left of $own), or PID 1 as the worker" "$d/report.txt"
		fi
	fi

	# --- What does it return? ---
	if boot_run $arch retval; then
		d=$boot_dir/$arch-retval
		trace_of "$d/dump1" > "$d/trace1"
		trace_of "$d/dump2" > "$d/trace2" 2>/dev/null || : > "$d/trace2"
		expect_armed "boot/$arch-retval/armed" "$d/dump1"
		# The opens of early userspace's processes (the rc and its
		# children; the agent keeps its own out of the trace) return
		# descriptors (>= 0)...
		t_grep "boot/$arch-retval/kretprobe-fd" "$d/trace2" \
			'-([2-9]|[1-9][0-9]+) +\[[0-9]+\] .* open_ret: \(.*<- do_sys_openat2\) ret=[0-9]+$'
		# ...and an open of a missing file returns -ENOENT.
		t_grep "boot/$arch-retval/kretprobe-enoent" "$d/trace1" \
			' open_ret: \(.*<- do_sys_openat2\) ret=-2$'
		# sched_process_exec with the filter "pid > 1": the exec of /init
		# (before the agent set the filter) is there, the agent's exec of
		# the real init by PID 1 (after it) is not, the rc's children are.
		t_grep "boot/$arch-retval/event-before-filter" "$d/trace1" \
			'sched_process_exec: filename=/init pid=1 '
		t_grep "boot/$arch-retval/event-after-filter" "$d/trace2" \
			'sched_process_exec: filename=/s?bin/[a-z]+ pid=([2-9]|[1-9][0-9]+) '
		if grep -q 'sched_process_exec: filename=/sbin/init pid=1 ' "$d/trace2"; then
			t_fail "boot/$arch-retval/event-filter" "the filter let PID 1's exec of /sbin/init through"
		else
			t_pass "boot/$arch-retval/event-filter"
		fi
	fi

	# --- Uprobes: busybox's entry point, at the file offset of its ELF ---
	d=$boot_dir/$arch-uprobe
	rm -rf "$d" && mkdir -p "$d"
	eval "$(qemu-images/fetch $arch)"
	off=$(tests/uprobe-offset.sh "$BUSYBOX")
	cat > "$d/uprobe.probes" <<-PROBES
		uprobe bbstart /bin/busybox:$off { sp = \$stack; who = \$comm }
		dump /dev/ttyS1
		window 4s
		expect bbstart hits >= 3 after init
		expect armed
	PROBES
	qemu-images/run-probes --arch $arch --out "$d" --timeout 240 --report \
		"$d/uprobe.probes" > "$d/run.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q 'bbstart: (0x[0-9a-f]*) sp=0x[0-9a-f]* who="' "$d/dump2"; then
		t_pass "boot/$arch-uprobe-busybox-entry"
	else
		t_fail "boot/$arch-uprobe-busybox-entry" "exit $rc (offset $off)" "$d/run.log"
	fi

	# --- A CI job: one command, expectations, JUnit ---
	d=$boot_dir/$arch-ci
	rm -rf "$d" && mkdir -p "$d"
	qemu-images/run-probes --arch $arch --out "$d" --timeout 240 --report \
		examples/ci-bond0.probes > "$d/run.log" 2>&1
	rc=$?
	# the six expectations, the report's "complete dump" and "boot ends clean"
	if [ $rc -eq 0 ] && grep -q '<testsuite name="probecc" tests="8" failures="0">' "$d/junit.xml" &&
	   [ "$(grep -c '<failure' "$d/junit.xml")" = 0 ]; then
		t_pass "boot/$arch-ci/expectations-hold"
	else
		t_fail "boot/$arch-ci/expectations-hold" "exit $rc" "$d/run.log"
	fi
	# dev->name: by the capture's BTF on amd64; Debian's Malta kernel
	# has none, so run-probes took its -dbg DWARF (and said so)
	if [ $arch = x86_64 ]; then
		if grep -q 'kprobe_event=p:netdev,register_netdevice,name=+0(%di):string' "$d/cmdline" &&
		   ! grep -q 'no BTF' "$d/run.log"; then
			t_pass "boot/$arch-ci/c-name-by-btf"
		else
			t_fail "boot/$arch-ci/c-name-by-btf" "not +0(%di) without a -dbg fetch" "$d/run.log"
		fi
	elif grep -q "^run-probes: ci-bond0.probes has C names and linux-image-[^ ]* no BTF: its DWARF from Debian's -dbg package" "$d/run.log" &&
	     grep -q 'kprobe_event=p:netdev,register_netdevice,name=+0(%r4):string' "$d/cmdline"; then
		t_pass "boot/$arch-ci/c-name-by-dbg"
	else
		t_fail "boot/$arch-ci/c-name-by-dbg" "no -dbg fetch said, or not +0(%r4)" "$d/run.log"
	fi
	# The same dump against expectations that must fail: each one fails.
	if [ -f "$d/ttyS1.raw" ]; then
		# (the ASan/UBSan build, on a real dump)
		./probecc-asan report "$d/ttyS1.raw" --probes tests/report/ci-fail.probes \
			--junit "$d/fail.xml" > "$d/fail.txt" 2>&1
		rc=$?
		if [ $rc -eq 1 ] && grep -q '<testsuite name="probecc" tests="5" failures="4">' "$d/fail.xml" &&
		   [ "$(grep -c '<failure' "$d/fail.xml")" = 4 ] &&
		   grep -q 'FAIL  expect never hits >= 1  (0 hit(s))' "$d/fail.txt" &&
		   grep -q 'FAIL  expect register_netdevice stack has tun_chr_open' "$d/fail.txt"; then
			t_pass "boot/$arch-ci/expectations-fail"
		else
			t_fail "boot/$arch-ci/expectations-fail" "exit $rc" "$d/fail.txt"
		fi
		# Debian's System.map is a placeholder: the report says so.
		eval "$(qemu-images/fetch $arch)"
		./probecc report "$d/ttyS1.raw" --system-map "$SYSTEM_MAP" > /dev/null 2> "$d/map.err"
		t_grep "boot/$arch-ci/placeholder-system-map" "$d/map.err" "is Debian's placeholder"
		# Machine outputs: JSON names every hit, folded stacks feed flame graphs.
		if grep -q '"probe": "netdev"' "$d/report.json" &&
		   grep -Eq ';register_netdevice [0-9]+$' "$d/stacks.folded" &&
		   grep -q '<svg' "$d/timeline.svg"; then
			t_pass "boot/$arch-ci/machine-outputs"
		else
			t_fail "boot/$arch-ci/machine-outputs" "json, folded or svg incomplete"
		fi
	else
		t_fail "boot/$arch-ci/dumped" "the CI boot left no ttyS1.raw ($d)"
	fi
	# The same job with a typo in a stack name: --report's capture is the
	# compile's target too, so the job stops at the name, before any boot.
	d=$boot_dir/$arch-ci-typo
	rm -rf "$d" && mkdir -p "$d"
	sed 's/stack has bond_create/stack has bond_craete/' examples/ci-bond0.probes > "$d/typo.probes"
	qemu-images/run-probes --arch $arch --out "$d" --timeout 240 --report \
		"$d/typo.probes" > "$d/run.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && [ ! -e "$d/console.log" ] &&
	   grep -q "typo.probes:17:37: error: the kernel has no function 'bond_craete'; did you mean bond_create?" "$d/run.log"; then
		t_pass "boot/$arch-ci-typo/stops-before-boot"
	else
		t_fail "boot/$arch-ci-typo/stops-before-boot" "exit $rc" "$d/run.log"
	fi
done

# --- A kprobe on the open path, filtered, its dump on the console (MIPS) ---
# The agent defines the kprobe (its filter is the agent's to write) and
# writes the filter before it enables it: the agent's own opens of the
# probe's files are not hits, and the rc script's one open of
# /etc/probecc-open is the only one (with the enable first: 2 hits).
# The file dumps to the console: run-probes reads console.log.
d=$boot_dir/mipsel-open-filter
if run_probes_oops boot/mipsel-open-filter "$d" --arch mipsel \
	--rc tests/boot/open-filter.rc --report tests/boot/open-filter.probes; then
	t_grep boot/mipsel-open-filter/one-hit "$d/report.txt" '^  PASS  expect op hits == 1  \(1 hit\(s\)\)$'
	if awk -F '\t' '$1 == "arm" && $3 == "events/kprobes/op/filter" { f = NR }
		$1 == "arm" && $3 == "set_event" && $4 == "kprobes:op" { e = NR }
		END { exit !(f && e && f < e) }' "$d/plan"; then
		t_pass boot/mipsel-open-filter/filter-before-enable
	else
		t_fail boot/mipsel-open-filter/filter-before-enable "the plan enables op before its filter" "$d/plan"
	fi
	t_grep boot/mipsel-open-filter/dump-from-console "$d/run.log" \
		"its dumps are read from console.log"
fi

# --- A CI job's verdict when the guest does not end well (MIPS) ---
# The image of the CI boot above, with a command line that panics (no
# init at all) and one that hangs (a shell waiting on the console).
img=$boot_dir/mipsel-ci/initrd.gz
if [ -f "$img" ]; then
	eval "$(qemu-images/fetch mipsel)"
	d=$boot_dir/mipsel-verdicts && rm -rf "$d" && mkdir -p "$d"
	qemu-images/boot mipsel --kernel "$VMLINUZ" --initrd "$img" --quiet \
		--append "console=ttyS0 rdinit=/nonexistent root=/dev/nonexistent panic=0" \
		--dump "$d/panic.raw" --console-log "$d/panic.log" --timeout 120 2> "$d/panic.err"
	rc=$?
	if [ $rc -eq 4 ] && grep -q 'Kernel panic' "$d/panic.log"; then
		t_pass "boot/mipsel-verdict-panic"
	else
		t_fail "boot/mipsel-verdict-panic" "exit $rc, expected 4" "$d/panic.err"
	fi
	qemu-images/boot mipsel --kernel "$VMLINUZ" --initrd "$img" --quiet \
		--append "console=ttyS0 rdinit=/bin/sh" \
		--dump "$d/hang.raw" --console-log "$d/hang.log" --timeout 20 2> "$d/hang.err"
	rc=$?
	if [ $rc -eq 3 ] && grep -q 'timeout' "$d/hang.err"; then
		t_pass "boot/mipsel-verdict-hang"
	else
		t_fail "boot/mipsel-verdict-hang" "exit $rc, expected 3" "$d/hang.err"
	fi
else
	t_fail "boot/mipsel-verdicts" "no image from the CI boot"
fi

# --- User stacks (x86_64): the kernel's <user stack trace>, named ---
# "stack" on a uprobe sets the userstacktrace option; x86's kernel walks
# the user frame pointers (arch_stack_walk_user()), MIPS records none
# (the compiler says so: tests/facts/bad-stack-expect).  tests/usym/prog.c
# is built by the host's gcc with frame pointers, non-PIE and static PIE,
# and run by tests/usym/rc; probecc report names the frames from the
# binaries under --sysroot, which must agree with nm.  The kernel's
# frame-pointer walk skips the direct caller at a function's entry (the
# caller's frame is not yet pushed); the agent's perf sample of the
# registers and stack, unwound with CFI (facts/ustack.c), does not: the
# entry of probecc_work shows probecc_work then main, as after the
# prologue (probecc_work+P, the instruction after "mov %rsp,%rbp"), at
# each of main's four call sites (-O2 unrolls the loop), PIE or not.
# Without --sysroot the kernel's frames are kept, as addresses.
d=$boot_dir/x86_64-ustack && rm -rf "$d" && mkdir -p "$d/root/bin"
if gcc -static -O2 -g -no-pie -fno-omit-frame-pointer -o "$d/root/bin/usym-nopie" \
	tests/usym/prog.c 2> "$d/cc.err" &&
   gcc -static-pie -fPIE -O2 -g -fno-omit-frame-pointer -o "$d/root/bin/usym-pie" \
	tests/usym/prog.c 2>> "$d/cc.err"; then
	# P: the offset of the instruction after the frame set-up
	post=$(objdump -d --no-show-raw-insn "$d/root/bin/usym-nopie" |
		awk '/<probecc_work>:/ { f = 1; next } f && /^$/ { exit }
		     f && fp { sub(":", "", $1); print $1; exit }
		     f && /mov +%rsp,%rbp/ { fp = 1 }')
	start=$(nm "$d/root/bin/usym-nopie" | awk '$3 == "probecc_work" { print $1 }')
	cat > "$d/ustack.probes" <<-PROBES
		uprobe work /bin/usym-pie:probecc_work { a = arg1:s32; stack }
		uprobe body /bin/usym-nopie:probecc_work+$((0x$post - 0x$start)) { stack }
		dump /dev/ttyS1
		window 4s
		expect work hits == 4 after init
		expect work stack has probecc_work
		expect work stack has __libc_start*
		expect body stack has main
		expect body stack has *libc_start_call_main
	PROBES
	eval "$(qemu-images/fetch x86_64)"
	if ./probecc "$d/ustack.probes" --arch x86_64 --sysroot "$d/root" --plan "$d/plan" \
		--cmdline > "$d/cmdline" 2> "$d/compile.err" &&
	   qemu-images/mkimage x86_64 -o "$d/initrd.gz" --plan "$d/plan" --rc tests/usym/rc \
		--module none --add qemu-images/rc/bond0:/probecc/bond0 --add "$d/root/bin/usym-nopie:/bin/usym-nopie" \
		--add "$d/root/bin/usym-pie:/bin/usym-pie" 2> "$d/mkimage.err" &&
	   qemu-images/boot x86_64 --kernel "$VMLINUZ" --initrd "$d/initrd.gz" --quiet \
		--append "console=ttyS0 rdinit=/init $(cat "$d/cmdline")" --dump "$d/ttyS1.raw" \
		--console-log "$d/console.log" --timeout 180 2> "$d/boot.err"; then
		t_pass boot/x86_64-ustack-boot
		./probecc report "$d/ttyS1.raw" --probes "$d/ustack.probes" --sysroot "$d/root" \
			--json "$d/report.json" > "$d/report.txt" 2>&1
		rc=$?
		# what nm says the return addresses are in
		libc=$(nm "$d/root/bin/usym-nopie" | awk '$3 == "__libc_start_call_main" { print $3 }')
		if [ $rc = 0 ] && [ -n "$libc" ] &&
		   grep -q "^      4 probecc_work+0x0 \[/bin/usym-pie\] (pc)$" "$d/report.txt" &&
		   grep -q "^      4 probecc_work+0x[0-9a-f]* \[/bin/usym-nopie\] (pc)$" "$d/report.txt" &&
		   [ "$(grep -c "^        1 main+0x[0-9a-f]* \[/bin/usym-nopie\] (cfi)$" "$d/report.txt")" = 4 ] &&
		   [ "$(grep -c "^          1 $libc+0x[0-9a-f]* \[/bin/usym-nopie\] (cfi)$" "$d/report.txt")" = 4 ] &&
		   grep -q '"user_stack": \["probecc_work+0x0 \[/bin/usym-pie\] (pc)", "main+0x[0-9a-f]* \[/bin/usym-pie\] (cfi)", "__libc_start_call_main+0x' "$d/report.json"; then
			t_pass boot/x86_64-ustack-named
		else
			t_fail boot/x86_64-ustack-named "report exit $rc" "$d/report.txt"
		fi
		# without --sysroot the frames are the kernel's addresses, and
		# the expectations on names fail.  The PIE's load address is
		# ASLR's choice (0x7f... one boot, 0x7efd... another): the
		# address is the one the kernel printed for the uprobe's hit.
		./probecc report "$d/ttyS1.raw" --probes "$d/ustack.probes" > "$d/report-raw.txt" 2>&1
		rc=$?
		pie=$(grep -a -m1 -Eo ' work: \(0x[0-9a-f]+\)' "$d/ttyS1.raw" | grep -Eo '0x[0-9a-f]+')
		[ -z "$pie" ] || pie=$(printf '%016x' "$pie")
		if [ $rc = 1 ] && [ -n "$pie" ] && grep -q "^      4 <$pie>\$" "$d/report-raw.txt" &&
		   grep -q 'user callers (innermost first, with counts; --sysroot names them)' "$d/report-raw.txt"; then
			t_pass boot/x86_64-ustack-raw
		else
			t_fail boot/x86_64-ustack-raw "report exit $rc" "$d/report-raw.txt"
		fi
	else
		t_fail boot/x86_64-ustack-boot "compile, image or boot failed" \
			"$d/compile.err" "$d/mkimage.err" "$d/boot.err"
	fi
else
	t_fail boot/x86_64-ustack-build "gcc -static/-static-pie failed" "$d/cc.err"
fi

# --- A module's functions, compiled against the target and its modules ---
# bond_create and bonding_init are bonding.ko's, loaded by the rc script
# long after the command line is read.  probecc, knowing it from
# --target and --modules, defines the kprobes as bonding:SYM (a bare
# name the kernel refuses until the module loads: "Failed to add
# event(-2)") and leaves bond_create out of ftrace_filter=, so the
# function tracer still filters register_netdevice alone.
d=$boot_dir/x86_64-module && rm -rf "$d" && mkdir -p "$d"
cat > "$d/module.probes" <<'PROBES'
function register_netdevice bond_create
kprobe bc bond_create
kretprobe bi bonding_init { ret = $retval:s32 }
dump /dev/ttyS1
window 4s
expect bc hits >= 1 after init
expect bi hits == 1 after init
expect bi.ret == 0
expect armed
PROBES
eval "$(qemu-images/fetch x86_64)"
if t=$(qemu-images/target x86_64 2> "$d/target.err") &&
   ./probecc "$d/module.probes" --target "$t" --modules "$MODULES" --plan "$d/plan" \
	--cmdline > "$d/cmdline" 2> "$d/compile.err" &&
   qemu-images/mkimage x86_64 -o "$d/initrd.gz" --plan "$d/plan" 2> "$d/mkimage.err" &&
   qemu-images/boot x86_64 --kernel "$VMLINUZ" --initrd "$d/initrd.gz" --quiet \
	--append "console=ttyS0 rdinit=/init $(cat "$d/cmdline")" --dump "$d/ttyS1.raw" \
	--console-log "$d/console.log" --timeout 180 2> "$d/boot.err"; then
	t_pass boot/x86_64-module-boot
	if grep -q 'ftrace_filter=register_netdevice ' "$d/cmdline" &&
	   grep -q 'p:bc,bonding:bond_create' "$d/cmdline" && grep -q 'r:bi,bonding:bonding_init' "$d/cmdline"; then
		t_pass boot/x86_64-module-cmdline
	else
		t_fail boot/x86_64-module-cmdline "not bonding:SYM, or bond_create in ftrace_filter=: $(cat "$d/cmdline")"
	fi
	./probecc report "$d/ttyS1.raw" --probes "$d/module.probes" > "$d/report.txt" 2>&1
	rc=$?
	# and in the kernel's own trace text (the last dump's): bc's hit at
	# bond_create, bi's return from bonding_init with 0
	qemu-images/extract-dump "$d/ttyS1.raw" "$(qemu-images/extract-dump --list "$d/ttyS1.raw" | tr ' ' '\n' | tail -1)" \
		> "$d/last.dump" 2> /dev/null
	if [ $rc = 0 ] && ! grep -q 'Failed to add event' "$d/console.log" &&
	   grep -Eq ' bc: \(bond_create\+0x0/' "$d/last.dump" &&
	   grep -Eq ' bi: \(.* <- bonding_init( \[bonding\])?\) ret=0$' "$d/last.dump"; then
		t_pass boot/x86_64-module-kprobes-hit
	else
		t_fail boot/x86_64-module-kprobes-hit "report exit $rc (or the kernel refused a definition)" \
			"$d/report.txt" "$d/console.log"
	fi
else
	t_fail boot/x86_64-module-boot "target, compile, image or boot failed" \
		"$d/target.err" "$d/compile.err" "$d/mkimage.err" "$d/boot.err"
fi
