# Bootconfig on the x86_64 test kernel (qemu-images/build-kernel x86_64:
# tinyconfig plus qemu-images/kernel/x86_64.config): make check-kernel-x86,
# not in CI (docs/developing.md, "Test kernels": its cold build does not fit beside
# the two Malta kernels in CI's time on two cores).  x86 has what MIPS lacks:
# CONFIG_HIST_TRIGGERS (x86 selects ARCH_HAVE_NMI_SAFE_CMPXCHG) and stacks
# saved from a kprobe's pt_regs.
#  1. probecc -o bootconfig with a per-probe stack: the stack is a
#     bootconfig action the kernel applies (no agent trigger), recorded
#     from the first hit, before userspace, through bond_create and
#     bonding_init of built-in bonding.
#  2. The tracer option refused in ftrace.options, as on Malta; event
#     actions accepted (HIST_TRIGGERS set).
#  3. The vmlinux agrees with a capture of the same kernel booted.

. tests/kernel/lib.sh
x=$T_OUT/kernel-x86 && rm -rf "$x" && mkdir -p "$x"
if ! qemu-images/build-kernel x86_64 > "$x/kernel.env" 2> "$x/build.err"; then
	t_fail kernel-x86/build "qemu-images/build-kernel x86_64 failed" "$x/build.err"
	return 0
fi
eval "$(sed 's/^/X86_/' "$x/kernel.env")"
t_pass kernel-x86/build

# kboot_x86 NAME BOOTCONFIG CMDLINE: the x86_64 test kernel (kboot_in of
# tests/kernel/run.sh, which sources this file).
kboot_x86() { kboot_in x86_64 "$X86_KERNEL" "$x" "$@"; }

# 1. The per-probe stack as a bootconfig action.  The vmlinux gives
#    probecc the arch, the version and HIST_TRIGGERS (IKCONFIG).
if ./probecc tests/kernel/x86-stack.probes --vmlinux "$X86_VMLINUX" -o "$x/s.bconf" \
	--plan "$x/s.plan" --cmdline > "$x/s.cmdline" 2> "$x/s.cerr"; then
	t_pass kernel-x86/compile-against-vmlinux
else
	t_fail kernel-x86/compile-against-vmlinux "" "$x/s.cerr"
fi
./probecc tests/kernel/x86-stack.probes --vmlinux "$X86_VMLINUX" -o "$x/e.bconf" \
	--explain > "$x/s.explain" 2>&1
t_grep kernel-x86/vmlinux-says-hist-triggers "$x/s.explain" \
	'^config: BOOT_CONFIG y, BOOTTIME_TRACING y, HIST_TRIGGERS y'
t_grep kernel-x86/stack-in-bootconfig "$x/s.bconf" \
	'^ftrace.event.kprobes.netdev.actions = "stacktrace"$'
if grep -q 'trigger\|stacktrace\|^perf' "$x/s.plan"; then
	t_fail kernel-x86/stack-not-for-agent "the agent still arms a stack" "$x/s.plan"
else
	t_pass kernel-x86/stack-not-for-agent
fi
if kboot_x86 s "$x/s.bconf" "$(cat "$x/s.cmdline")"; then
	t_grep kernel-x86/bootconfig-loaded "$x/s.log" 'Load bootconfig: [0-9]* bytes [0-9]* nodes'
	if grep -q 'trace_boot: Failed' "$x/s.log"; then
		t_fail kernel-x86/bootconfig-applied "trace_boot refused a key" "$x/s.log"
	else
		t_pass kernel-x86/bootconfig-applied
	fi
	qemu-images/extract-dump "$x/s.raw" 1 > "$x/s.dump1"
	# Armed by the kernel: the agent found the probe, did not define it.
	t_grep kernel-x86/kprobe-armed-by-kernel "$x/s.dump1" "^item	netdev	ok	set_event"
	./probecc report "$x/s.raw" --probes tests/kernel/x86-stack.probes \
		--junit "$x/s.junit" > "$x/s.report" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q 'failures="0"' "$x/s.junit"; then
		t_pass kernel-x86/bootconfig-probes-hold
	else
		t_fail kernel-x86/bootconfig-probes-hold "report exit $rc" "$x/s.report"
	fi
	# Every netdev hit in the init dump has its own stack (n-th hit, n-th
	# <stack trace> through register_netdevice), the first one included.
	# bond%d's goes through bond_create and bonding_init, in pid 1 still
	# running initcalls (kernel_init_freeable), and is recorded before the
	# kernel_execve("/init") hit: the same ring buffer and clock (early
	# in boot the trace clock and the console's disagree by 0.1 s).
	awk '
	function ts(s) { match(s, /[0-9]+\.[0-9]+:/); return substr(s, RSTART, RLENGTH - 1) + 0 }
	/<stack trace>/ { inst = 1; ns++; st[ns] = ""; next }
	inst && /^ => / { st[ns] = st[ns] " " $2; next }
	{ inst = 0 }
	/ exec: \(kernel_execve.* file="\/init"/ && !init { init = ts($0) }
	/ netdev: \(register_netdevice/ {
		nh++; t[nh] = ts($0); pid1[nh] = ($0 ~ /-1 +\[/); bond[nh] = ($0 ~ /name="bond%d"/)
	}
	END {
		n = 0
		for (i = 1; i <= ns; i++)
			if (st[i] ~ / register_netdevice /)
				s[++n] = st[i]
		if (nh == 0) { print "no netdev hit"; exit 1 }
		if (n != nh) { print nh " netdev hits, " n " stacks"; exit 1 }
		if (!init) { print "no exec of /init in the trace"; exit 1 }
		for (i = 1; i <= nh; i++)
			if (bond[i]) {
				printf "hit %d of %d at %.6f s, /init exec at %.6f s:%s\n", i, nh, t[i], init, s[i]
				if (!pid1[i] || t[i] >= init || s[i] !~ / kernel_init_freeable /) {
					print "not before userspace"; exit 1
				}
				if (s[i] !~ / bond_create / || s[i] !~ / bonding_init /) {
					print "stack misses bond_create/bonding_init"; exit 1
				}
				exit 0
			}
		print "no bond%d hit"; exit 1
	}' "$x/s.dump1" > "$x/s.stacks" 2>&1 &&
		t_pass "kernel-x86/stack-from-first-hit ($(cut -d: -f1 "$x/s.stacks"))" ||
		t_fail kernel-x86/stack-from-first-hit "" "$x/s.stacks" "$x/s.dump1"
else
	t_fail kernel-x86/bootconfig-boot "boot failed" "$x/s.err" "$x/s.log"
fi

# 2. What the 6.1 kernel refuses in bootconfig on x86 too, and what
#    HIST_TRIGGERS lets through (quirks.bconf with x86's register).
sed 's/%r4/%di/' tests/kernel/quirks.bconf > "$x/q.bconf"
: > "$x/q.plan"
if kboot_x86 q "$x/q.bconf" bootconfig; then
	t_grep kernel-x86/bootconfig-loaded-quirks "$x/q.log" 'Load bootconfig: [0-9]* bytes [0-9]* nodes'
	t_grep kernel-x86/refuses-tracer-option "$x/q.log" 'trace_boot: Failed to set option: func_stack_trace'
	if grep -q 'Failed to apply event actions\|Failed to apply an action' "$x/q.log"; then
		t_fail kernel-x86/accepts-actions-with-hist-triggers "" "$x/q.log"
	else
		t_pass kernel-x86/accepts-actions-with-hist-triggers
	fi
else
	t_fail kernel-x86/quirks-boot "boot failed" "$x/q.err" "$x/q.log"
fi

# 3. The x86_64 vmlinux as probecc's target (full DWARF 4, __fentry__
#    call sites in __mcount_loc) agrees with the same kernel booted, and
#    gives probecc its arch, version and config.
. tests/kernel/vmlinux-agrees.sh
if qemu-images/capture x86_64 -o "$x/built.target" --kernel "$X86_KERNEL" > "$x/capture.log" 2>&1; then
	t_pass kernel-x86/capture-built
	vmlinux_agrees kernel-x86 "$x" "$x/built.target" "$X86_VMLINUX" "$X86_SYSTEM_MAP"
else
	t_fail kernel-x86/capture-built "capture of the x86_64 test kernel failed" "$x/capture.log"
fi
t_grep kernel-x86/vmlinux-gives-arch-version "$x/s.explain" '^target: x86_64 \(sysv ABI\), kernel 6.1;'
