# Bootconfig on a real kernel that has it: the Malta test kernel built
# from linux-source-6.1 by qemu-images/build-kernel (cached by what goes
# into it; about 10-20 min the first time, see qemu-images/README.md).
#  1. probecc -o bootconfig, appended by probecc-bootconfig: the kernel
#     loads it and arms everything from it, before userspace.
#  2. The kernel's refusals that probecc's placement avoids: a tracer
#     option in ftrace.options, and event actions without HIST_TRIGGERS.

d=$T_OUT/kernel && rm -rf "$d" && mkdir -p "$d"
if ! qemu-images/build-kernel mipsel > "$d/kernel.env" 2> "$d/build.err"; then
	t_fail kernel/build "qemu-images/build-kernel mipsel failed" "$d/build.err"
	return 0
fi
. "$d/kernel.env"
t_pass kernel/build

# kboot NAME BOOTCONFIG CMDLINE: boot the test kernel with BOOTCONFIG in the initrd.
kboot() {
	qemu-images/mkimage mipsel -o "$d/$1.gz" --plan "$d/$1.plan" --module none &&
	./bootconfig/probecc-bootconfig -a "$2" "$d/$1.gz" &&
	qemu-images/boot mipsel --kernel "$VMLINUX" --initrd "$d/$1.gz" --quiet \
		--append "console=ttyS0 rdinit=/init $3" --dump "$d/$1.raw" \
		--console-log "$d/$1.log" --timeout 180 2> "$d/$1.err"
}

# 1. probecc's bootconfig on the kernel.
./probecc tests/kernel/bootconfig.probes -o "$d/bc.bconf" --plan "$d/bc.plan" \
	--cmdline > "$d/bc.cmdline"
if kboot bc "$d/bc.bconf" "$(cat "$d/bc.cmdline")"; then
	expect_in() { grep -q -- "$3" "$2" && t_pass "$1" || t_fail "$1" "no '$3' in $2"; }
	expect_in kernel/bootconfig-loaded "$d/bc.log" 'Load bootconfig: [0-9]* bytes [0-9]* nodes'
	# kernel.trace_options became a command-line parameter (5.7+).
	qemu-images/extract-dump "$d/bc.raw" 1 > "$d/bc.dump1"
	expect_in kernel/kernel-key-on-cmdline "$d/bc.dump1" 'cmdline.*trace_options=func_stack_trace'
	./probecc report "$d/bc.raw" --probes tests/kernel/bootconfig.probes \
		--junit "$d/bc.junit" > "$d/bc.report" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q 'failures="0"' "$d/bc.junit"; then
		t_pass kernel/bootconfig-probes-hold
	else
		t_fail kernel/bootconfig-probes-hold "report exit $rc" "$d/bc.report"
	fi
	# The bootconfig kprobe sees built-in bonding's bond%d before userspace.
	expect_in kernel/bond-before-userspace "$d/bc.report" 'netdev .* hit(s), first at .*, [1-9][0-9]* before userspace'
else
	t_fail kernel/bootconfig-boot "boot failed" "$d/bc.err"
fi

# 2. What the kernel refuses in bootconfig.
cp tests/kernel/quirks.bconf "$d/q.bconf"
: > "$d/q.plan"
if kboot q "$d/q.bconf" bootconfig; then
	expect_in kernel/refuses-tracer-option "$d/q.log" 'trace_boot: Failed to set option: func_stack_trace'
	expect_in kernel/refuses-actions-without-hist-triggers "$d/q.log" \
		'Failed to apply event actions because CONFIG_HIST_TRIGGERS is not set'
else
	t_fail kernel/quirks-boot "boot failed" "$d/q.err"
fi
