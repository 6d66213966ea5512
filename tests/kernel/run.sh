# Bootconfig on a real kernel that has it: the Malta test kernel built
# from linux-source-6.1 by qemu-images/build-kernel (cached by what goes
# into it; about 10-20 min the first time, see qemu-images/README.md).
#  1. probecc -o bootconfig, appended by probecc-bootconfig: the kernel
#     loads it and arms everything from it, before userspace.
#  2. The kernel's refusals that probecc's placement avoids: a tracer
#     option in ftrace.options, and event actions without HIST_TRIGGERS.
# Then dwarf.sh, stacks.sh, kprobe-oops.sh and mips64be.sh (the
# big-endian n64 Malta test kernel: Octeon's n64 ABI).  The x86_64 test kernel's
# x86.sh runs alone: make check-kernel-x86.

. tests/kernel/lib.sh
d=$T_OUT/kernel && rm -rf "$d" && mkdir -p "$d"
if ! qemu-images/build-kernel mipsel > "$d/kernel.env" 2> "$d/build.err"; then
	t_fail kernel/build "qemu-images/build-kernel mipsel failed" "$d/build.err"
	return 0
fi
. "$d/kernel.env"
t_pass kernel/build

# kboot NAME BOOTCONFIG CMDLINE: the Malta test kernel.
kboot() { kboot_in mipsel "$VMLINUX" "$d" "$@"; }

# 1. probecc's bootconfig on the kernel.
./probecc tests/kernel/bootconfig.probes --stack-method kernel -o "$d/bc.bconf" \
	--plan "$d/bc.plan" --cmdline > "$d/bc.cmdline"
if kboot bc "$d/bc.bconf" "$(cat "$d/bc.cmdline")"; then
	t_grep kernel/bootconfig-loaded "$d/bc.log" 'Load bootconfig: [0-9]* bytes [0-9]* nodes'
	# kernel.trace_options became a command-line parameter (5.7+).
	qemu-images/extract-dump "$d/bc.raw" 1 > "$d/bc.dump1"
	t_grep kernel/kernel-key-on-cmdline "$d/bc.dump1" 'cmdline.*trace_options=func_stack_trace'
	./probecc report "$d/bc.raw" --probes tests/kernel/bootconfig.probes \
		--junit "$d/bc.junit" > "$d/bc.report" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q 'failures="0"' "$d/bc.junit"; then
		t_pass kernel/bootconfig-probes-hold
	else
		t_fail kernel/bootconfig-probes-hold "report exit $rc" "$d/bc.report"
	fi
	# The bootconfig kprobe sees built-in bonding's bond%d before userspace.
	t_grep kernel/bond-before-userspace "$d/bc.report" 'netdev .* hit\(s\), first at .*, [1-9][0-9]* before userspace'
else
	t_fail kernel/bootconfig-boot "boot failed" "$d/bc.err"
fi

# 2. What the kernel refuses in bootconfig.
cp tests/kernel/quirks.bconf "$d/q.bconf"
: > "$d/q.plan"
if kboot q "$d/q.bconf" bootconfig; then
	t_grep kernel/refuses-tracer-option "$d/q.log" 'trace_boot: Failed to set option: func_stack_trace'
	t_grep kernel/refuses-actions-without-hist-triggers "$d/q.log" \
		'Failed to apply event actions because CONFIG_HIST_TRIGGERS is not set'
else
	t_fail kernel/quirks-boot "boot failed" "$d/q.err"
fi

# 3. The vmlinux as probecc's target: what libelf reads from it (symbols,
#    __mcount_loc, the kprobe blacklist, the banner, IKCONFIG) agrees with
#    what the same kernel says of itself when booted (a capture).
. tests/kernel/vmlinux-agrees.sh
if qemu-images/capture mipsel -o "$d/built.target" --kernel "$VMLINUX" > "$d/capture.log" 2>&1; then
	t_pass kernel/capture-built
	vmlinux_agrees kernel "$d" "$d/built.target" "$VMLINUX" "$SYSTEM_MAP"
else
	t_fail kernel/capture-built "capture of the built kernel failed" "$d/capture.log"
fi
# Version, arch and config come from the vmlinux itself (banner, ELF
# header, IKCONFIG): bootconfig is allowed, no --arch needed.
if ./probecc tests/kernel/bootconfig.probes --vmlinux "$VMLINUX" -o "$d/v.bconf" --explain \
	> "$d/v.explain" 2>&1 &&
   grep -q '^target: mipsel (o32 ABI), kernel 6.1;' "$d/v.explain" &&
   grep -q '^config: BOOT_CONFIG y, BOOTTIME_TRACING y, HIST_TRIGGERS n' "$d/v.explain"; then
	t_pass kernel/vmlinux-gives-arch-version-config
else
	t_fail kernel/vmlinux-gives-arch-version-config "" "$d/v.explain"
fi
# Debian's own config says no CONFIG_BOOT_CONFIG: bootconfig is refused.
eval "$(qemu-images/fetch mipsel | sed 's/^/DEB_/')"
if ./probecc tests/kernel/bootconfig.probes --kconfig "$DEB_CONFIG" -o "$d/deb.bconf" 2> "$d/deb.err"; then
	t_fail kernel/debian-config-refuses-bootconfig "compiled" "$d/deb.err"
elif grep -q 'does not set CONFIG_BOOT_CONFIG' "$d/deb.err" && [ ! -e "$d/deb.bconf" ]; then
	t_pass kernel/debian-config-refuses-bootconfig
else
	t_fail kernel/debian-config-refuses-bootconfig "" "$d/deb.err"
fi

# 4. An event filter in bootconfig is applied by the kernel from the first
#    hit (no agent involved): only the opens the filter lets through.
#    (A stack cannot go there on MIPS: bootconfig "actions" need
#    CONFIG_HIST_TRIGGERS, which depends on ARCH_HAVE_NMI_SAFE_CMPXCHG,
#    which arch/mips does not select.)
./probecc tests/kernel/filter.probes --vmlinux "$VMLINUX" -o "$d/f.bconf" \
	--plan "$d/f.plan" --cmdline > "$d/f.cmdline" 2> "$d/f.cerr"
t_grep kernel/filter-in-bootconfig "$d/f.bconf" 'ftrace.event.kprobes.openat.filter = '
if grep -q 'filter' "$d/f.plan"; then
	t_fail kernel/filter-not-for-agent "the agent still writes a filter" "$d/f.plan"
else
	t_pass kernel/filter-not-for-agent
fi
if kboot f "$d/f.bconf" "$(cat "$d/f.cmdline")"; then
	qemu-images/extract-dump "$d/f.raw" 1 > "$d/f.dump1"
	grep ' openat: ' "$d/f.dump1" > "$d/f.hits"
	t_grep kernel/filter-lets-trace-marker-through "$d/f.hits" 'openat: .*path="/sys/kernel/tracing/trace_marker"'
	if grep -v 'path="[^"]*/trace_marker"' "$d/f.hits" | grep -q .; then
		t_fail kernel/filter-applied-by-kernel "an open the filter excludes was recorded" "$d/f.hits"
	else
		t_pass kernel/filter-applied-by-kernel
	fi
else
	t_fail kernel/filter-boot "boot failed" "$d/f.err"
fi
. tests/kernel/dwarf.sh
. tests/kernel/stacks.sh
. tests/kernel/kprobe-oops.sh
. tests/kernel/mips64be.sh
