# Helper of the test-kernel scripts (tests/kernel/run.sh and the scripts
# it sources, tests/kernel/x86.sh), sourced after tests/lib.sh.

# kboot_in ARCH KERNEL DIR NAME BOOTCONFIG CMDLINE: boot a test kernel
# with BOOTCONFIG appended to an initrd of DIR/NAME.plan (bonding is
# built in: no modules in the image); DIR/NAME.{gz,raw,log,err} result.
kboot_in() {
	local arch=$1 kernel=$2 dir=$3 n=$4
	qemu-images/mkimage "$arch" -o "$dir/$n.gz" --plan "$dir/$n.plan" --module none &&
	./bootconfig/probecc-bootconfig -a "$5" "$dir/$n.gz" &&
	qemu-images/boot "$arch" --kernel "$kernel" --initrd "$dir/$n.gz" --quiet \
		--append "console=ttyS0 rdinit=/init $6" --dump "$dir/$n.raw" \
		--console-log "$dir/$n.log" --timeout 180 2> "$dir/$n.err"
}
