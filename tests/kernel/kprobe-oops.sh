# The MIPS kprobe single-step oops (kernel-patches/README.md),
# sourced by tests/kernel/run.sh ($d set there): bench/kprobe-oops.sh's
# reproducer (a kprobe and a kretprobe on do_sys_openat2, 150
# short-lived processes that each open a file) booted KOOPS_BOOTS times
# on the test kernel with kernel-patches/mipsel/ and on the same source
# without them (build-kernel --unpatched):
#  - patched: no boot oopses, and probecc report passes the reproducer's
#    expectations (armed, open_ret hits >= 150);
#  - unpatched: booted until one boot oopses, at most 6 boots (measured:
#    8 and 10 boots of 10 oopsed), so that the reproducer still shows the
#    defect the patch mends, and that oops is in the agent's dump (a
#    kprobe-oops line) and fails the report's expect armed with it as
#    the reason.
# The rate itself is measured by bench/kprobe-oops.sh, not here.

od=$d/kprobe-oops && rm -rf "$od" && mkdir -p "$od"
KOOPS_BOOTS=${KOOPS_BOOTS:-3}

# koops_boot KIND N: boot N of the reproducer on the kernel in $VMLINUX.
koops_boot() {
	local o=$od/$1-$2
	qemu-images/boot mipsel --kernel "$VMLINUX" --initrd "$od/$1.gz" --quiet \
		--append "console=ttyS0 rdinit=/init churn=150 $(cat "$od/$1.cmdline")" \
		--dump "$o.raw" --console-log "$o.log" --timeout 240 --oops-wait 240 2> "$o.err"
}

for kind in patched unpatched; do
	opt=
	[ $kind = patched ] || opt=--unpatched
	if ! qemu-images/build-kernel mipsel $opt > "$od/$kind.env" 2> "$od/$kind.build"; then
		t_fail "kernel/kprobe-oops/$kind-build" "build-kernel mipsel $opt failed" "$od/$kind.build"
		continue
	fi
	. "$od/$kind.env"
	if ! ./probecc bench/kprobe-oops/openat.probes --vmlinux "$VMLINUX" --cmdline-max 150 \
		--cmdline --plan "$od/$kind.plan" > "$od/$kind.cmdline" 2> "$od/$kind.cerr" ||
	   ! qemu-images/mkimage mipsel -o "$od/$kind.gz" --plan "$od/$kind.plan" --module none \
		--rc bench/kprobe-oops/rc-churn > /dev/null 2>> "$od/$kind.cerr"; then
		t_fail "kernel/kprobe-oops/$kind-image" "probecc or mkimage failed" "$od/$kind.cerr"
		continue
	fi
	oopsed=0 bad= max=$KOOPS_BOOTS
	[ $kind = patched ] || max=6
	for n in $(seq "$max"); do
		o=$od/$kind-$n
		koops_boot $kind "$n"
		brc=$?
		./probecc report "$o.raw" --probes bench/kprobe-oops/openat.probes > "$o.report" 2>&1
		rrc=$?
		if grep -q 'Break instruction in kernel code' "$o.log"; then
			oopsed=$((oopsed + 1))
			# the agent's dump and the report must say so
			grep -qa '^kprobe-oops	' "$o.raw" ||
				bad="$bad boot $n: no kprobe-oops line in the dump;"
			[ $rrc = 1 ] && grep -q 'FAIL  expect armed .*kprobe single-step oops at' "$o.report" ||
				bad="$bad boot $n: report exit $rrc without the oops in expect armed;"
		elif [ $kind = patched ] && { [ $brc != 0 ] || [ $rrc != 0 ]; }; then
			bad="$bad boot $n: boot exit $brc, report exit $rrc;"
		fi
		[ $kind = patched ] || [ $oopsed = 0 ] || break
	done
	if [ $kind = patched ]; then
		if [ $oopsed = 0 ] && [ -z "$bad" ]; then
			t_pass kernel/kprobe-oops/patched-no-oops
		else
			t_fail kernel/kprobe-oops/patched-no-oops \
				"$oopsed of $max boots oopsed;$bad" "$od/patched-1.report"
		fi
	elif [ $oopsed -gt 0 ] && [ -z "$bad" ]; then
		t_pass kernel/kprobe-oops/unpatched-oopses-and-is-reported
	else
		t_fail kernel/kprobe-oops/unpatched-oopses-and-is-reported \
			"$oopsed of $n boots oopsed;$bad" "$od/unpatched-1.report"
	fi
done
