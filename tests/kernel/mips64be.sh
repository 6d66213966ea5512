# Big-endian n64 MIPS (Octeon's ABI) on QEMU Malta, sourced by
# tests/kernel/run.sh (t_pass/t_fail, kprobe_oops, KPROBE_OOPS_TRIES).
# Debian has no big-endian MIPS port: the kernel is built by
# qemu-images/build-kernel mips64 (malta_defconfig, 64-bit, big-endian,
# MIPS64 R2, o32 and n32 compat, kernel-patches/mipsel; cached like the
# other test kernels) and booted by qemu-system-mips64 -M malta -cpu 5KEc
# (machines.sh malta64).  The image has no busybox (Debian has none for
# big-endian MIPS): the agent is /init, rc-static.c (built here with
# gcc-mips64-linux-gnuabi64 -static) the real init.
#  1. ci    mips64be-ci.probes with --stack-method kernel: bond0 at boot
#           through the function tracer (func_stack_trace through
#           ftrace_caller: bond_create, bonding_init; 0003 on n64), bond1
#           from rc-static with the kprobe's stacktrace option
#           (save_stack_trace_regs); the command line arrived whole.
#  2. args  mips64be-args.probes: kernel_execve("/init") and the 8
#           arguments of do_mmap for rc-static's mmap, 5-8 read from
#           %r8-%r11 (flags 2, pgoff 3, &populate, &uf with uf.next == &uf).
#  3. ret   mips64be-ret.probes: kretprobes, do_mkdirat's -17 (EEXIST)
#           for rc-static's mkdir("/proc"), register_netdevice's 0.
#  5. unpatched: the ci boot on the same source without
#           kernel-patches/mipsel (build-kernel mips64 --unpatched, an
#           incremental rebuild), compiled without the option: probecc's
#           MIPS default, the agent's perf callchains (the n64 unwinder
#           from a kprobe's pt_regs needs no patch), the kprobe's and the
#           function line's twin kprobe's, named by probecc report from
#           the vmlinux, where func_stack_trace would record the one
#           frame ftrace_graph_call (what 0003 mends).
#  6. uprobe tests/boot64/uprobe10.probes: tests/boot64/args10.c built
#           n64 big-endian into a sysroot, run by rc-static; its ten
#           arguments by the program's ABI (5-8 from %r8-%r11, 9-10 from
#           $stack0-1), the string and the uretprobe's value, big-endian.
#  7. tracedat mips64be-tracedat.probes with "dump /dev/ttyS1 raw": the
#           ring buffer's big-endian pages, deflated (rawz: the agent
#           has the zlib initramfs/build-musl built); probecc report reads them
#           (every expectation holds: the kprobe's "bond1", the
#           kretprobe's -17) and --trace-dat writes a big-endian
#           trace.dat (its endian byte 1) in which trace-cmd report shows
#           the same values, the function tracer's register_netdevice,
#           and as many events as the dump's per-CPU "entries".
#  8. ustack tests/ustack/{chain,qsort,dlopen,ret}.probes: chain.c built
#           n64 big-endian -O2, -O0 and stripped (its debug file by
#           .gnu_debuglink), the dynamic qsort.c and dlopen.c (with
#           plugin.c, the loader and libc), run by rc-static; each
#           probe's user call stack (the agent's perf user-stack sample:
#           big-endian stack words) unwound with the programs' CFI, exact
#           to __start, uretprobes' from the return address
#           (tests/ustack/check.sh, as tests/ustack.test.sh elsewhere).
#  4. bootconfig: probecc -o bootconfig appended with probecc-bootconfig's
#           little-endian footer is loaded by this big-endian 6.1 kernel
#           and everything in it is armed before userspace; the same text
#           behind a big-endian (pre-5.10) footer is refused by it.
# The expectations are the probe files' own "expect" lines, checked by
# probecc report.

b=$T_OUT/kernel-mips64be && rm -rf "$b" && mkdir -p "$b"
if ! qemu-images/build-kernel mips64 > "$b/kernel.env" 2> "$b/build.err"; then
	t_fail kernel-mips64be/build "qemu-images/build-kernel mips64 failed" "$b/build.err"
	return 0
fi
eval "$(sed 's/^/BE_/' "$b/kernel.env")"
t_pass kernel-mips64be/build

# What was built is what the seeds run: ELF64 big-endian MIPS, n64.
readelf -h "$BE_VMLINUX" > "$b/readelf" 2>&1
./probecc tests/kernel/mips64be-ci.probes --vmlinux "$BE_VMLINUX" --explain > "$b/explain" 2>&1
if grep -q 'Class: *ELF64' "$b/readelf" && grep -q 'big endian' "$b/readelf" &&
   grep -q 'Machine: *MIPS' "$b/readelf" &&
   grep -q '^target: mips64 (n64 ABI), kernel 6.1;' "$b/explain" &&
   grep -q '^config: BOOT_CONFIG y, BOOTTIME_TRACING y' "$b/explain"; then
	t_pass kernel-mips64be/vmlinux-is-be-n64
else
	t_fail kernel-mips64be/vmlinux-is-be-n64 "" "$b/readelf" "$b/explain"
fi

if mips64-linux-gnuabi64-gcc -static -O2 -Wall -Wextra -Werror -o "$b/rc" \
	tests/kernel/rc-static.c 2> "$b/rc.err"; then
	t_pass kernel-mips64be/rc-static
else
	t_fail kernel-mips64be/rc-static "mips64-linux-gnuabi64-gcc failed" "$b/rc.err"
	return 0
fi

. qemu-images/machines.sh
machine malta64
mbe_user="console=$M_CONSOLE rdinit=/init"
# the room run-probes computes: the firmware's, less its prefix and ours
mbe_max=$((M_ROOM - ${#M_PREFIX} - ${#mbe_user} - 1))

# mbe_image NAME PROBES [PROBECC-OPTION...]: compile PROBES for the
# vmlinux into $b/NAME.{plan,cmdline} (and what the options write), the
# image $b/NAME.gz.
mbe_image() {
	local o=$b/$1 p=$2
	shift 2
	./probecc "$p" --vmlinux "${MBE_VMLINUX:-$BE_VMLINUX}" --cmdline-max $mbe_max "$@" \
		--plan "$o.plan" --cmdline > "$o.cmdline" 2> "$o.cerr" &&
	qemu-images/mkimage malta64 -o "$o.gz" --plan "$o.plan" --module none \
		--rc "$b/rc" 2>> "$o.cerr"
}
# mbe_boot NAME [EXTRA-CMDLINE]: boot $b/NAME.gz with NAME.cmdline, booted
# again on the MIPS kprobe single-step oops only (tests/lib.sh; the
# crashed logs kept as NAME.logN); the dumps as NAME.dumpN.
mbe_boot() {
	local o=$b/$1 try i
	echo "$mbe_user $(cat "$o.cmdline")${2:+ $2}" > "$o.append"
	for try in $(seq $KPROBE_OOPS_TRIES); do
		qemu-images/boot malta64 --kernel "${MBE_VMLINUX:-$BE_VMLINUX}" --initrd "$o.gz" --quiet \
			--append "$(cat "$o.append")" --dump "$o.raw" \
			--console-log "$o.log" --timeout 180 2> "$o.err" && break
		kprobe_oops "$o.log" && [ $try != $KPROBE_OOPS_TRIES ] || return 1
		mv "$o.log" "$o.log$try"
		echo "    (mips64be $1: the kernel's kprobe single-step crash, $o.log$try: booting again)"
	done
	for i in $(qemu-images/extract-dump --list "$o.raw" 2> /dev/null); do
		qemu-images/extract-dump "$o.raw" "$i" > "$o.dump$i"
	done
	[ -s "$o.dump1" ]
}
# mbe_report NAME PROBES: probecc report with the file's expectations,
# kernel frames named from the vmlinux; one test, NAME/expectations-hold.
mbe_report() {
	local o=$b/$1 rc=0
	./probecc report "$o.raw" --probes "$2" --vmlinux "${MBE_VMLINUX:-$BE_VMLINUX}" \
		--junit "$o.junit" > "$o.report" 2>&1 || rc=$?
	if [ $rc = 0 ] && grep -q 'failures="0"' "$o.junit"; then
		t_pass "kernel-mips64be/$1/expectations-hold"
	else
		t_fail "kernel-mips64be/$1/expectations-hold" "report exit $rc" "$o.report"
	fi
}
# the kernel got the whole command line (run-probes' cut check)
mbe_whole() {
	local o=$b/$1 got
	got=$(sed -n 's/^cmdline\t//p' "$o.dump1")
	case " $got" in
	*" $(cat "$o.append")") t_pass "kernel-mips64be/$1/cmdline-whole" ;;
	*) t_fail "kernel-mips64be/$1/cmdline-whole" "/proc/cmdline: $got" ;;
	esac
}

# 1. ci, --stack-method kernel: the stacks the patched kernel records
# itself (the function tracer's through ftrace_caller: 0003 on n64)
p=tests/kernel/mips64be-ci.probes
if mbe_image ci $p --stack-method kernel && mbe_boot ci; then
	mbe_whole ci
	mbe_report ci $p
	t_grep kernel-mips64be/ci/func-stack-trace "$b/ci.cmdline" 'trace_options=[^ ]*func_stack_trace'
	# bond0's function hit during the kernel's boot, its callers from
	# func_stack_trace (no perf: the agent had not started)
	sed -n '/^  register_netdevice /,/^  [^ ]/p' "$b/ci.report" > "$b/ci.func"
	if grep -Eq '^ +[0-9]+ bonding_init(\+0x[0-9a-f]+)?$' "$b/ci.func" &&
	   ! grep -q '^perf' "$b/ci.plan"; then
		t_pass kernel-mips64be/ci/func-stack-through-ftrace_caller
	else
		t_fail kernel-mips64be/ci/func-stack-through-ftrace_caller "got: $(tr '\n' ' ' < "$b/ci.func")" "$b/ci.report"
	fi
else
	t_fail kernel-mips64be/ci/boot "boot failed" "$b/ci.err" "$b/ci.cerr" "$b/ci.log"
fi

# 2. args
p=tests/kernel/mips64be-args.probes
if mbe_image args $p && mbe_boot args; then
	mbe_whole args
	mbe_report args $p
	t_grep kernel-mips64be/args/args5-8-registers "$b/args.plan" \
		'p:kprobes/mmap do_mmap .* flags=%r8:u64 pgoff=%r9:u64 populate=%r10:x64 uf=%r11:x64 uf_next=\+0\(%r11\):x64'
	# rc-static's call, all arguments in one hit (the expectations check
	# each field alone), uf.next pointing at uf, populate beside it
	awk '/ mmap: \(do_mmap\+0x0\/0x[0-9a-f]+\) addr=305397760 len=8192 prot=1 flags=2 pgoff=3 / {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		# (compared as strings: awk would take the hex as numbers)
		if (f["uf"] "" == f["uf_next"] "" && f["uf"] ~ /^0x[0-9a-f]+$/ &&
		    f["populate"] ~ /^0x[0-9a-f]+$/ && f["uf"] "" != f["populate"] "") { print; found = 1 }
	}
	END { exit !found }' "$b/args.dump2" > "$b/args.mmap" 2>&1 &&
		t_pass kernel-mips64be/args/args1-8-one-hit ||
		t_fail kernel-mips64be/args/args1-8-one-hit "no do_mmap hit with rc-static's values and uf.next == uf" "$b/args.dump2"
else
	t_fail kernel-mips64be/args/boot "boot failed" "$b/args.err" "$b/args.cerr" "$b/args.log"
fi

# 3. ret
p=tests/kernel/mips64be-ret.probes
if mbe_image ret $p && mbe_boot ret; then
	mbe_report ret $p
	t_grep kernel-mips64be/ret/eexist-from-rc "$b/ret.dump2" \
		'rc-static|init-1 .* mkdir_ret: \(.*do_mkdirat.*\) ret=-17$'
else
	t_fail kernel-mips64be/ret/boot "boot failed" "$b/ret.err" "$b/ret.cerr" "$b/ret.log"
fi

# 4. bootconfig on big-endian: the little-endian footer (5.10 and later)
p=tests/kernel/bootconfig.probes
if mbe_image bc $p --stack-method kernel -o "$b/bc.bconf" && ./bootconfig/probecc-bootconfig -a "$b/bc.bconf" "$b/bc.gz" &&
   mbe_boot bc; then
	t_grep kernel-mips64be/bootconfig/loaded "$b/bc.log" 'Load bootconfig: [0-9]+ bytes [0-9]+ nodes'
	if grep -q 'trace_boot: Failed' "$b/bc.log"; then
		t_fail kernel-mips64be/bootconfig/applied "trace_boot refused a key" "$b/bc.log"
	else
		t_pass kernel-mips64be/bootconfig/applied
	fi
	# netdev and exec are defined by the kernel from bootconfig: the
	# agent found them armed (ok), it did not define them
	t_grep kernel-mips64be/bootconfig/kprobe-armed-by-kernel "$b/bc.dump1" $'^item\tnetdev\tok\t'
	mbe_report bc $p
else
	t_fail kernel-mips64be/bootconfig/boot "boot failed" "$b/bc.err" "$b/bc.cerr" "$b/bc.log"
fi
# The same bootconfig behind a 5.6-5.9 big-endian footer: 6.1 reads le32
# and refuses it (the size, byte-swapped, is larger than the initrd).
if [ -f "$b/bc.gz" ]; then
	cp "$b/bc.gz" "$b/bcbe.gz" && cp "$b/bc.cmdline" "$b/bcbe.cmdline" && cp "$b/bc.plan" "$b/bcbe.plan"
	# (-d first: the little-endian footer, read in the big-endian order,
	# is a damaged one that -a refuses to replace)
	if ./bootconfig/probecc-bootconfig -d "$b/bcbe.gz" &&
	   ./bootconfig/probecc-bootconfig --arch mips64 --kernel-version 5.8 -a "$b/bc.bconf" "$b/bcbe.gz" &&
	   mbe_boot bcbe; then
		if grep -q 'bootconfig size -\?[0-9]* is greater than initrd size' "$b/bcbe.log" &&
		   ! grep -q 'Load bootconfig' "$b/bcbe.log"; then
			t_pass kernel-mips64be/bootconfig/refuses-be-footer
		else
			t_fail kernel-mips64be/bootconfig/refuses-be-footer "the 6.1 kernel took the big-endian footer" "$b/bcbe.log"
		fi
	else
		t_fail kernel-mips64be/bootconfig/be-footer-boot "boot failed" "$b/bcbe.err" "$b/bcbe.log"
	fi
fi

# 5. The unpatched source: what kernel-patches/mipsel changes on n64.
if qemu-images/build-kernel mips64 --unpatched > "$b/unpatched.env" 2> "$b/unpatched.build"; then
	MBE_VMLINUX=$(sed -n 's/^VMLINUX=//p' "$b/unpatched.env")
	p=tests/kernel/mips64be-ci.probes
	if mbe_image unp $p && mbe_boot unp; then
		./probecc report "$b/unp.raw" --probes $p --vmlinux "$MBE_VMLINUX" > "$b/unp.report" 2>&1
		# the function line's stacks: no func_stack_trace (its one
		# frame, ftrace_graph_call), the twin kprobe's perf callchain
		# for bond1, the hits of the kernel's own boot said without
		sed -n '/^  register_netdevice /,/^  [^ ]/p' "$b/unp.report" > "$b/unp.func"
		if ! grep -q func_stack_trace "$b/unp.cmdline" &&
		   grep -Eq '^ +[0-9]+ bonding_store_bonds\+0x' "$b/unp.func" &&
		   grep -Eq '^    [1-9][0-9]* hit\(s\) before the agent armed its perf callchains \(by [0-9.]+ s\) have no stack$' "$b/unp.func" &&
		   ! grep -q ftrace_graph_call "$b/unp.func"; then
			t_pass kernel-mips64be/unpatched/func-stack-by-perf
		else
			t_fail kernel-mips64be/unpatched/func-stack-by-perf "got: $(tr '\n' ' ' < "$b/unp.func")" "$b/unp.report"
		fi
		if grep -q 'PASS  expect netdev stack has bonding_store_bonds' "$b/unp.report"; then
			t_pass kernel-mips64be/unpatched/perf-callchain-needs-no-patch
		else
			t_fail kernel-mips64be/unpatched/perf-callchain-needs-no-patch "" "$b/unp.report"
		fi
		# bond1's perf callchain, named from the vmlinux: the frames
		# as the report prints them, innermost first
		sed -n '/^  netdev /,/^  [^ ]/p' "$b/unp.report" |
			grep -o '[0-9] [^ ]*\( \[[a-z]*\]\)\?$' | cut -d' ' -f2- > "$b/unp.netdev.stack"
		if grep -q '^bond_create+0x[0-9a-f]*$' "$b/unp.netdev.stack" &&
		   grep -q '^bonding_store_bonds+0x[0-9a-f]*$' "$b/unp.netdev.stack" &&
		   grep -q '^kernfs_fop_write_iter+0x' "$b/unp.netdev.stack"; then
			t_pass kernel-mips64be/unpatched/perf-callchain-named
		else
			t_fail kernel-mips64be/unpatched/perf-callchain-named \
				"no bond_create <- bonding_store_bonds <- kernfs_fop_write_iter" "$b/unp.report"
		fi
		t_grep kernel-mips64be/unpatched/stack-is-perf "$b/unp.plan" $'^perf\tnetdev\tkprobes/netdev$'
	else
		t_fail kernel-mips64be/unpatched/boot "boot failed" "$b/unp.err" "$b/unp.cerr" "$b/unp.log"
	fi
	unset MBE_VMLINUX
else
	t_fail kernel-mips64be/unpatched/build "build-kernel mips64 --unpatched failed" "$b/unpatched.build"
fi

# 6. uprobe: ten arguments of an n64 big-endian program
sr=$b/sysroot
mkdir -p "$sr/bin"
if ! mips64-linux-gnuabi64-gcc -O2 -static -o "$sr/bin/args10" tests/boot64/args10.c \
	2> "$b/args10.err"; then
	t_fail kernel-mips64be/uprobe "cannot build tests/boot64/args10.c" "$b/args10.err"
elif ./probecc tests/boot64/uprobe10.probes --vmlinux "$BE_VMLINUX" --sysroot "$sr" \
	--cmdline-max $mbe_max --plan "$b/uprobe.plan" --cmdline > "$b/uprobe.cmdline" \
	2> "$b/uprobe.cerr" &&
     qemu-images/mkimage malta64 -o "$b/uprobe.gz" --plan "$b/uprobe.plan" --module none \
	--rc "$b/rc" --add "$sr/bin/args10:/bin/args10" 2>> "$b/uprobe.cerr" &&
     mbe_boot uprobe; then
	mbe_report uprobe tests/boot64/uprobe10.probes
	# n64: arguments 5-8 in %r8-%r11, 9-10 on the stack
	t_grep kernel-mips64be/uprobe/n64-fetchargs "$b/uprobe.plan" \
		'a5=%r8(:[a-z0-9]+)? a6=%r9(:[a-z0-9]+)? a7=%r10(:[a-z0-9]+)? a8=%r11(:[a-z0-9]+)? a9=\$stack0'
else
	t_fail kernel-mips64be/uprobe "compile, image or boot failed" "$b/uprobe.cerr" "$b/uprobe.log"
fi

# 7. A big-endian trace.dat from the raw dump
p=tests/kernel/mips64be-tracedat.probes
if mbe_image td $p && mbe_boot td; then
	mbe_report td $p
	# the agent's zlib (make agent-zlib, run by make check) deflated them
	t_grep kernel-mips64be/tracedat/raw-dump "$b/td.dump1" $'rawz\tper_cpu/cpu0/trace_pipe_raw\t[0-9]+\t[0-9]+$'
	if ./probecc report --trace-dat "$b/td.dat" "$b/td.raw" 2> "$b/td.dat.log" &&
	   grep -q 'big-endian' "$b/td.dat.log"; then
		t_pass kernel-mips64be/tracedat/written
	else
		t_fail kernel-mips64be/tracedat/written "probecc report --trace-dat failed" "$b/td.dat.log"
	fi
	# trace.dat(5): "\027\010Dtracing", the version, NUL, then 1: big endian
	if [ "$(od -An -tu1 -j12 -N1 "$b/td.dat" 2> /dev/null | tr -d ' ')" = 1 ]; then
		t_pass kernel-mips64be/tracedat/file-is-big-endian
	else
		t_fail kernel-mips64be/tracedat/file-is-big-endian "endian byte $(od -An -tu1 -j12 -N1 "$b/td.dat" 2>&1)"
	fi
	trace-cmd report "$b/td.dat" > "$b/td.trace" 2> "$b/td.trace.err"
	grep -E '^ *[^ ].*\[[0-9]+\] ' "$b/td.trace" > "$b/td.events"
	t_grep kernel-mips64be/tracedat/trace-cmd-kprobe-string "$b/td.events" \
		' netdev: +\([0-9a-f]+\) name="bond1"$'
	t_grep kernel-mips64be/tracedat/trace-cmd-kretprobe-value "$b/td.events" \
		' mkdir_ret: +\(.*\) ret=-17$'
	t_grep kernel-mips64be/tracedat/trace-cmd-function "$b/td.events" \
		'function: +register_netdevice'
	want=$(for f in "$b"/td.dump[0-9]*; do
		sed -n '/^--- raw ---$/q; s/^cpu\t[0-9]*\tentries\t\([0-9]*\).*/\1/p' "$f"; done |
		awk '{ s += $1 } END { print s + 0 }')
	got=$(wc -l < "$b/td.events")
	if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
		t_pass kernel-mips64be/tracedat/all-entries
	else
		t_fail kernel-mips64be/tracedat/all-entries "trace-cmd report has $got event(s), the dumps counted $want" "$b/td.trace.err"
	fi
else
	t_fail kernel-mips64be/tracedat/boot "boot failed" "$b/td.err" "$b/td.cerr" "$b/td.log"
fi

# 8. ustack: user call stacks of big-endian n64 programs without frame
# pointers, run by rc-static (tests/ustack/check.sh ustack_sysroot): the
# perf user-stack sample's big-endian words unwound with the programs'
# CFI: tests/ustack/chain.c -O2 and -O0 (ustack_check, as
# tests/ustack.test.sh on the other targets), the dynamic qsort.c through
# libc, dlopen.c through the library it dlopen()s, uretprobes with
# 'stack', chain.c stripped with its debug file by .gnu_debuglink
# (dyn_check)
. tests/ustack/check.sh
u=$b/ustack && mkdir -p "$u"
if ! ustack_sysroot mips64 "$u" debuglink; then
	t_fail kernel-mips64be/ustack/build "a compile, the libraries' copy or the strip failed" "$u/cc.err"
elif ./probecc "$u/probes" --vmlinux "$BE_VMLINUX" --sysroot "$u/sysroot" \
	--cmdline-max $mbe_max --plan "$b/ustack.plan" --cmdline > "$b/ustack.cmdline" \
	2> "$b/ustack.cerr" &&
     qemu-images/mkimage malta64 -o "$b/ustack.gz" --plan "$b/ustack.plan" --module none \
	--rc "$b/rc" $(cd "$u/sysroot" && find . -type f | sort | sed 's|^\.\(.*\)|--add '"$u"'/sysroot\1:\1|') \
	2>> "$b/ustack.cerr" &&
     mbe_boot ustack; then
	rc=0
	./probecc report "$b/ustack.raw" --probes "$u/probes" \
		--vmlinux "$BE_VMLINUX" --sysroot "$u/sysroot" --junit "$b/ustack.junit" \
		> "$b/ustack.report" 2>&1 || rc=$?
	if [ $rc = 0 ] && grep -q 'failures="0"' "$b/ustack.junit"; then
		t_pass kernel-mips64be/ustack/expectations-hold
	else
		t_fail kernel-mips64be/ustack/expectations-hold "report exit $rc" "$b/ustack.report"
	fi
	ustack_check kernel-mips64be/ustack "$b/ustack.report" "$b/ustack.raw" "$b/ustack.log" "$u"
	cat "$b"/ustack.dump[0-9]* > "$u/dumps"
	dyn_check kernel-mips64be/ustack mips64 "$u" "$b/ustack.raw" "$u/dumps" "$b/ustack.plan"
else
	t_fail kernel-mips64be/ustack "compile, image or boot failed" "$b/ustack.cerr" "$b/ustack.log"
fi
