# MIPS stacks on the test kernel, sourced by tests/kernel/run.sh
# ($d set there): the kernel built with kernel-patches/mipsel/ and the
# same source without them (build-kernel --unpatched), each booted twice:
#  A. stacks-boot.probes: during the kernel's own boot, built-in bonding's
#     register_netdevice (bond_create from bonding_init):
#     - the function tracer's func_stack_trace (through ftrace_caller: 0003)
#     - a kprobe_event= kprobe with the global stacktrace option (from the
#       kprobe's pt_regs: save_stack_trace_regs, 0001)
#  B. stacks-trigger.probes: the agent's stacktrace trigger on a kprobe,
#     hit when rc-bond1 creates bond1 through sysfs (taken in the
#     breakpoint handler: the exception frame, 0002).
# The patched kernel's stacks must reach the callers; the unpatched
# kernel's are recorded beside them ($d/stacks/summary) and must show
# the defect, so that a kernel that mends itself is noticed.

sd=$d/stacks && rm -rf "$sd" && mkdir -p "$sd"

# sboot KIND NAME PROBES RC DUMP: compile PROBES for the kernel in
# $VMLINUX, boot it, keep dump DUMP's trace.  MIPS 6.1 sometimes oopses
# in its own kprobe single-step ("Break instruction in kernel code" at
# the insn slot's second break: the kprobe was no longer current);
# kernel-patches/mipsel/0005 mends it, the unpatched kernel keeps it
# (measured before 0005: 1 trigger boot in 4 on each kernel; Debian's
# Malta kernel does the same, tests/boot.test.sh): that message, on the
# console or as the dump's kprobe-oops line, alone gets another boot,
# KPROBE_OOPS_TRIES in all, the crashed log kept as NAME.logN.
sboot() {
	local o=$sd/$1-$2 try
	./probecc "$3" --stack-method kernel --vmlinux "$VMLINUX" --cmdline-max 180 \
		--cmdline --plan "$o.plan" > "$o.cmdline" 2> "$o.cerr" &&
	qemu-images/mkimage mipsel -o "$o.gz" --plan "$o.plan" --module none \
		${4:+--rc "$4"} 2>> "$o.cerr" || return 1
	for try in $(seq $KPROBE_OOPS_TRIES); do
		qemu-images/boot mipsel --kernel "$VMLINUX" --initrd "$o.gz" --quiet \
			--append "console=ttyS0 rdinit=/init $(cat "$o.cmdline")" --dump "$o.raw" \
			--console-log "$o.log" --timeout 180 2> "$o.err" && break
		kprobe_oops "$o.log" "$o.raw" && [ $try != $KPROBE_OOPS_TRIES ] || return 1
		mv "$o.log" "$o.log$try"
		echo "    ($1 $2: the kernel's kprobe single-step crash, $o.log$try: booting again)"
	done
	qemu-images/extract-dump "$o.raw" "$5" | sed -n '/^--- trace ---$/,$p' > "$o.trace"
}

# frames FILE REGEX: the " => " frames of the stack recorded right after
# the first trace line matching REGEX, one function a line ("" if none).
frames() {
	awk -v re="$2" '
		!seen && $0 ~ re { seen = 1; next }
		seen && /<stack trace>/ { inst = 1; next }
		inst && /^ => / { sub(/\+.*/, "", $2); print $2; next }
		seen { exit }' "$1"
}

for kind in patched unpatched; do
	opt=
	[ $kind = patched ] || opt=--unpatched
	if ! qemu-images/build-kernel mipsel $opt > "$sd/$kind.env" 2> "$sd/$kind.build"; then
		t_fail "kernel/stacks/$kind-build" "build-kernel mipsel $opt failed" "$sd/$kind.build"
		continue
	fi
	. "$sd/$kind.env"
	if sboot $kind boot tests/kernel/stacks-boot.probes "" 1; then
		frames "$sd/$kind-boot.trace" 'register_netdevice <-bond_create' > "$sd/$kind.func"
		frames "$sd/$kind-boot.trace" 'netdev: .*name="bond%d"' > "$sd/$kind.kprobe"
	else
		t_fail "kernel/stacks/$kind-boot" "boot failed" "$sd/$kind-boot.err" "$sd/$kind-boot.cerr"
	fi
	if sboot $kind trigger tests/kernel/stacks-trigger.probes tests/kernel/rc-bond1 2; then
		frames "$sd/$kind-trigger.trace" 'netdev: .*name="bond1"' > "$sd/$kind.trigger"
	else
		t_fail "kernel/stacks/$kind-trigger" "boot failed" "$sd/$kind-trigger.err" "$sd/$kind-trigger.cerr"
	fi
	for s in func kprobe trigger; do
		[ -f "$sd/$kind.$s" ] && printf '%s %s: %s\n' $kind $s "$(tr '\n' ' ' < "$sd/$kind.$s")"
	done >> "$sd/summary"
done
sed 's/^/    /' "$sd/summary" 2>/dev/null

# has FILE FUNC...: every FUNC is a frame of FILE
has() {
	local f=$1 fn
	shift
	for fn; do grep -qx "$fn" "$f" 2>/dev/null || return 1; done
}
# expect_stack NAME FILE FUNC...
expect_stack() {
	local name=$1 f=$2
	shift 2
	if has "$f" "$@"; then
		t_pass "$name"
	else
		t_fail "$name" "want $* in: $(tr '\n' ' ' 2>/dev/null < "$f")"
	fi
}
expect_stack kernel/stacks/patched-func-stack-trace "$sd/patched.func" bond_create bonding_init do_one_initcall
expect_stack kernel/stacks/patched-kprobe-stacktrace-option "$sd/patched.kprobe" bond_create bonding_init do_one_initcall
expect_stack kernel/stacks/patched-kprobe-trigger "$sd/patched.trigger" bond_create bonding_store_bonds
# The stock source: what kernel-patches/mipsel mends.
if [ "$(cat "$sd/unpatched.func" 2>/dev/null)" = ftrace_graph_call ]; then
	t_pass kernel/stacks/unpatched-func-stack-trace-one-frame
else
	t_fail kernel/stacks/unpatched-func-stack-trace-one-frame "got: $(tr '\n' ' ' 2>/dev/null < "$sd/unpatched.func")"
fi
if [ -f "$sd/unpatched.kprobe" ] && ! has "$sd/unpatched.kprobe" bond_create &&
   grep -q 'save_stack_trace_regs() not implemented yet' "$sd/unpatched-boot.log"; then
	t_pass kernel/stacks/unpatched-kprobe-stacktrace-option-empty
else
	t_fail kernel/stacks/unpatched-kprobe-stacktrace-option-empty "got: $(tr '\n' ' ' 2>/dev/null < "$sd/unpatched.kprobe")"
fi
if has "$sd/unpatched.trigger" do_bp && ! has "$sd/unpatched.trigger" bond_create; then
	t_pass kernel/stacks/unpatched-kprobe-trigger-ends-in-handler
else
	t_fail kernel/stacks/unpatched-kprobe-trigger-ends-in-handler "got: $(tr '\n' ' ' 2>/dev/null < "$sd/unpatched.trigger")"
fi
