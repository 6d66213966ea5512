# Your own boot: probecc's agent as an overlay on an initrd
# probecc did not build.
#   cpio-*       probecc --initrd OUT --base-initrd IN: OUT is IN byte for
#                byte, zero padding to 4 bytes, then a newc cpio with
#                exactly probecc/, probecc/init (the agent, byte-identical)
#                and probecc/plan (the --plan text); the command line
#                starts with rdinit=/probecc/init
#   bc-*         bootconfig last: probecc's own (probecc-bootconfig reads
#                it back from OUT), a base's own kept last, both refused
#   agent-*      the agent in overlay mode (test mode --overlay) execs the
#                image's /init before the kernel's list; the plan's init
#                lines still come first
#   capture-*    a board's capture from its serial console log
#                (qemu-images/capture --from-log): the real x86_64 capture
#                (qemu-images/target) with the real kernel messages of the
#                boot below put between its lines and inside them, as a
#                console interleaves them, comes back byte for byte
#   workload     a new user's own tool and module through run-probes on
#                Debian's Malta kernel: tests/yourboot/mktap.c (a tap
#                device through tun.ko; compiled here, --add), --module
#                tun, the user's --rc, --sysroot for the uprobe offset; the
#                uprobe's five o32 arguments (the fifth from the stack) and
#                register_netdevice's "tap%d" hold in the report
#   board-*      docs/your-board.md as a test: its marked commands
#                (<!-- test: NAME --> before a block), run as they are
#                from `make install DESTDIR=... PREFIX=/usr` with only the
#                installed bin and the system's on PATH, in an empty
#                directory, on Debian's real Malta U-Boot (u-boot-qemu)
#                standing in for the board: a Buildroot-style initrd
#                (tests/yourboot/board-init), the capture boot and its
#                serial log, the compile, the bootargs, boot.cmd and the
#                mkimage images, the boot through bootm, the report (2 of
#                2, JUnit).  The stand-in's own: fw_printenv (the board's
#                bootargs: console, mem=, rd_start=, rd_size= of the image
#                booted, as the doc says) and the two tftpboot lines
#                (QEMU's loader put the images where they point)
#   boot-*       the real thing: Debian bookworm from debootstrap
#                (systemd-sysv, udev, initramfs-tools; qemu-images/rootfs),
#                its own initramfs-tools initrd made by mkinitramfs in the
#                chroot, Debian's amd64 kernel, the root on a virtio disk;
#                the overlay appended; QEMU boots it to systemd's
#                multi-user.target; both dumps (the init one, and the
#                window one from beyond run-init's switch_root) arrive and
#                probecc report holds examples/yourboot.probes.
# The rootfs needs root (debootstrap, chroot); CI runs as root.
# Run alone: bash tests/yourboot.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

yb=$T_OUT/yourboot
mkdir -p "$yb"
. qemu-images/machines.sh


# --- the overlay, on a small base initrd (a real cpio of 3 bytes' text) ---
mkdir -p "$yb/base/etc"
printf 'hi\n' > "$yb/base/etc/motd"
(cd "$yb/base" && printf 'etc\netc/motd\n' | cpio -o -H newc --quiet) > "$yb/base.cpio"
gzip -9 -n -c "$yb/base.cpio" > "$yb/base.img"
rm -f "$yb/final.img"
if ./probecc examples/yourboot.probes --arch x86_64 --initrd "$yb/final.img" \
	--base-initrd "$yb/base.img" --plan "$yb/plan" --cmdline \
	> "$yb/cmdline" 2> "$yb/initrd.err"; then
	t_pass yourboot/cpio-exit
else
	t_fail yourboot/cpio-exit "probecc --initrd exited non-zero" "$yb/initrd.err"
fi
blen=$(stat -c %s "$yb/base.img")
pad=$(( (4 - blen % 4) % 4 ))
if [ -f "$yb/final.img" ] && cmp -s -n "$blen" "$yb/base.img" "$yb/final.img" &&
   [ "$(tail -c +$((blen + 1)) "$yb/final.img" | head -c $pad | tr -d '\0' | wc -c)" = 0 ] &&
   [ "$(tail -c +$((blen + pad + 1)) "$yb/final.img" | head -c 6)" = 070701 ]; then
	t_pass yourboot/cpio-base-kept
else
	t_fail yourboot/cpio-base-kept "OUT does not start with the base initrd and zero padding to 4 bytes"
fi
# A base initrd of 4k+1 bytes (a gzip'd cpio: probecc takes only an
# initramfs as the base) is followed by 3 zero bytes, then the overlay.
# (Random bytes, which gzip cannot shrink, so that the size moves by one
# as n does: a run of one byte compressed to a size 4k+1 for no n when
# the cpio's mtimes made the rest fall so.)
for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	rm -rf "$yb/odd" && mkdir -p "$yb/odd/etc" && head -c $n /dev/urandom > "$yb/odd/etc/motd"
	(cd "$yb/odd" && printf 'etc\netc/motd\n' | cpio -o -H newc --quiet) | gzip -9 -n > "$yb/odd.img"
	[ $(( $(stat -c %s "$yb/odd.img") % 4 )) = 1 ] && break
done
olen=$(stat -c %s "$yb/odd.img")
rm -f "$yb/odd-final.img"
./probecc examples/yourboot.probes --arch x86_64 --initrd "$yb/odd-final.img" \
	--base-initrd "$yb/odd.img" > /dev/null 2> "$yb/odd.err"
if [ $((olen % 4)) = 1 ] && cmp -s -n "$olen" "$yb/odd.img" "$yb/odd-final.img" &&
   [ "$(tail -c +$((olen + 1)) "$yb/odd-final.img" | head -c 3 | od -An -c | tr -s ' ')" = " \0 \0 \0" ] &&
   [ "$(tail -c +$((olen + 4)) "$yb/odd-final.img" | head -c 6)" = 070701 ]; then
	t_pass yourboot/cpio-padding
else
	t_fail yourboot/cpio-padding "a base of 4k+1 bytes ($olen) is not followed by 3 zero bytes and the cpio" "$yb/odd.err"
fi
rm -rf "$yb/x" && mkdir -p "$yb/x"
tail -c +$((blen + pad + 1)) "$yb/final.img" > "$yb/overlay.cpio"
(cd "$yb/x" && cpio -i -d --quiet < "$yb/overlay.cpio") 2> "$yb/cpio.err"
cpio -t --quiet < "$yb/overlay.cpio" > "$yb/overlay.list" 2>> "$yb/cpio.err"
printf 'probecc\nprobecc/init\nprobecc/plan\n' > "$yb/overlay.want"
t_check yourboot/cpio-entries "$yb/overlay.want" "$yb/overlay.list"
if cmp -s "$yb/x/probecc/init" initramfs/agent-x86_64 && [ -x "$yb/x/probecc/init" ] &&
   cmp -s "$yb/x/probecc/plan" "$yb/plan"; then
	t_pass yourboot/cpio-agent-plan
else
	t_fail yourboot/cpio-agent-plan "probecc/init is not initramfs/agent-x86_64 (mode 0755) or probecc/plan not the --plan text" "$yb/cpio.err"
fi
t_grep yourboot/cpio-rdinit "$yb/cmdline" '^rdinit=/probecc/init ' "the command line does not start with rdinit=/probecc/init"
t_grep yourboot/cpio-says-order "$yb/initrd.err" 'as it was, then the overlay .*rdinit=/probecc/init'

# --- bootconfig last ---
printf 'kprobe k kernel_execve { f = +0(arg1):string }\ndump console\n' > "$yb/bc.probes"
rm -f "$yb/bc.img"
if ./probecc "$yb/bc.probes" --arch x86_64 --via bootconfig --initrd "$yb/bc.img" \
	--base-initrd "$yb/base.img" > "$yb/bc.cmdline" 2> "$yb/bc.err" &&
   bootconfig/probecc-bootconfig "$yb/bc.img" > "$yb/bc.list" 2>> "$yb/bc.err" &&
   grep -q 'kernel_execve' "$yb/bc.list" && grep -q ' bootconfig' "$yb/bc.cmdline" &&
   [ "$(tail -c 12 "$yb/bc.img")" = "#BOOTCONFIG" ]; then
	t_pass yourboot/bc-own-last
else
	t_fail yourboot/bc-own-last "the bootconfig is not at the end of OUT, or does not read back" "$yb/bc.err" "$yb/bc.list"
fi
cp "$yb/base.img" "$yb/base-bc.img"
printf 'kernel.foo = bar\n' > "$yb/user.bconf"
bootconfig/probecc-bootconfig -a "$yb/user.bconf" "$yb/base-bc.img" > /dev/null 2>&1
rm -f "$yb/kept.img"
if ./probecc examples/yourboot.probes --arch x86_64 --initrd "$yb/kept.img" \
	--base-initrd "$yb/base-bc.img" > /dev/null 2> "$yb/kept.err" &&
   bootconfig/probecc-bootconfig "$yb/kept.img" > "$yb/kept.list" 2>> "$yb/kept.err" &&
   grep -q 'foo' "$yb/kept.list" &&
   cmp -s -n "$blen" "$yb/base.img" "$yb/kept.img"; then
	t_pass yourboot/bc-base-kept-last
else
	t_fail yourboot/bc-base-kept-last "the base's own bootconfig is not kept at the end" "$yb/kept.err"
fi
rm -f "$yb/clash.img"
if ./probecc "$yb/bc.probes" --arch x86_64 --via bootconfig --initrd "$yb/clash.img" \
	--base-initrd "$yb/base-bc.img" > /dev/null 2> "$yb/clash.err"; then
	t_fail yourboot/bc-both-refused "a bootconfig in both the base and the probe file was accepted"
elif [ -e "$yb/clash.img" ]; then
	t_fail yourboot/bc-both-refused "refused, but $yb/clash.img was written"
else
	t_grep yourboot/bc-both-refused "$yb/clash.err" 'ends with a bootconfig of [0-9]+ bytes'
fi

# --- the agent's overlay mode, in test mode ---
mkdir -p "$yb/root/sbin" "$yb/root/probecc"
printf '#!/bin/sh\n' > "$yb/root/init"
printf '#!/bin/sh\n' > "$yb/root/sbin/init"
chmod +x "$yb/root/init" "$yb/root/sbin/init"
printf 'probecc-plan\t1\narch\tx86_64\nkernel\t6.1\nsink\tconsole\n' > "$yb/root/probecc/plan"
agent=initramfs/agent-$(uname -m)
if [ -x "$agent" ]; then
	"$agent" --root "$yb/root" --sink "$yb/agent.dump" --overlay --no-exec > /dev/null 2> "$yb/agent-ov.err"
	t_grep yourboot/agent-overlay-execs-init "$yb/agent-ov.err" '^agent: would exec /init$'
	"$agent" --root "$yb/root" --sink "$yb/agent.dump" --no-exec > /dev/null 2> "$yb/agent-plain.err"
	t_grep yourboot/agent-plain-kernel-order "$yb/agent-plain.err" '^agent: would exec /sbin/init$'
	printf 'init\t/sbin/init\n' >> "$yb/root/probecc/plan"
	"$agent" --root "$yb/root" --sink "$yb/agent.dump" --overlay --no-exec > /dev/null 2> "$yb/agent-plan.err"
	t_grep yourboot/agent-plan-init-first "$yb/agent-plan.err" '^agent: would exec /sbin/init$'
else
	t_skip yourboot/agent "no $agent for this host"
fi

# --- a capture from a console log (needs the boot's console for real
# kernel messages) ---
yb_capture() {
	local tgt
	if ! tgt=$(qemu-images/target x86_64 2> "$yb/target.err"); then
		t_fail yourboot/capture-target "qemu-images/target x86_64 failed" "$yb/target.err"
		return
	fi
	grep -a -E '^\[ *[0-9]+\.[0-9]+\] ' "$yb/run-x86_64/console.log" | tr -d '\r' > "$yb/kmsg"
	if [ "$(wc -l < "$yb/kmsg")" -lt 100 ]; then
		t_fail yourboot/capture-kmsg "fewer than 100 kernel messages in the console log"
		return
	fi
	# a message before the frame, one between lines every 997 lines, one
	# inside a line every 1499 lines (printk prints whole records on a
	# console since 5.x; the markers are whole lines: facts/logframe.c)
	awk -v km="$yb/kmsg" '
		BEGIN { while ((getline l < km) > 0) msg[n++] = l
			print msg[0]; print "=== probecc target begin ===" }
		{ if (NR % 997 == 0) print msg[NR % n]
		  if (NR % 1499 == 0 && length($0) > 4) {
			print substr($0, 1, 3) msg[(NR + 1) % n]
			print substr($0, 4)
		  } else print }
		END { print "=== probecc target end ==="; print msg[1] }' "$tgt" > "$yb/console-capture.log"
	if qemu-images/capture --from-log "$yb/console-capture.log" -o "$yb/from-log.target" 2> "$yb/from-log.err" &&
	   cmp -s "$tgt" "$yb/from-log.target"; then
		t_pass yourboot/capture-from-log
	else
		t_fail yourboot/capture-from-log "the capture from the console log differs from $tgt" "$yb/from-log.err"
	fi
	if ./probecc examples/yourboot.probes --arch x86_64 --target "$yb/from-log.target" \
		--cmdline > /dev/null 2> "$yb/from-log.probecc.err"; then
		t_pass yourboot/capture-from-log-usable
	else
		t_fail yourboot/capture-from-log-usable "probecc --target refused it" "$yb/from-log.probecc.err"
	fi
	head -c 100000 "$yb/console-capture.log" > "$yb/cut.log"
	if qemu-images/capture --from-log "$yb/cut.log" -o "$yb/cut.target" 2> "$yb/cut.err"; then
		t_fail yourboot/capture-from-log-cut "a log cut inside the frame was taken"
	elif [ -e "$yb/cut.target" ]; then
		t_fail yourboot/capture-from-log-cut "refused, but $yb/cut.target was written"
	else
		t_grep yourboot/capture-from-log-cut "$yb/cut.err" 'has no end \(=== probecc target end ===\): the log is cut'
	fi
}

# --- a user's workload through run-probes ---
if command -v mipsel-linux-gnu-gcc > /dev/null && command -v qemu-system-mipsel > /dev/null; then
	mkdir -p "$yb/sysroot/bin"
	if mipsel-linux-gnu-gcc -static -O2 -g -o "$yb/sysroot/bin/mktap" tests/yourboot/mktap.c 2> "$yb/mktap.err"; then
		run_probes_oops yourboot/workload "$yb/mktap" --arch mipsel --module tun \
			--rc tests/yourboot/rc-mktap \
			--sysroot "$yb/sysroot" --report tests/yourboot/mktap.probes
	else
		t_fail yourboot/workload "mipsel-linux-gnu-gcc failed" "$yb/mktap.err"
	fi
else
	t_skip yourboot/workload "needs mipsel-linux-gnu-gcc and qemu-system-mipsel (qemu-images/deps.sh)"
fi

# --- docs/your-board.md, from an installed tree, on Debian's Malta U-Boot ---
# yb_block NAME: the fenced block after "<!-- test: NAME -->" in the doc
yb_block() {
	awk -v n="<!-- test: $1 -->" '
		$0 == n { want = 1; next }
		want == 1 && /^```/ { want = 2; next }
		want == 2 && /^```/ { exit }
		want == 2 { print }' docs/your-board.md
}
# yb_run STEP SCRIPT INITRD: run the doc's SCRIPT in $bw as a user of the
# installed tree would (PATH: the installed bin and the system's only;
# fw_printenv: the board's bootargs for INITRD, if any, which U-Boot's bootm
# leaves at rd_start=).  Out: $bw/STEP.log.
yb_run() {
	local layout=
	if [ -n "$3" ]; then
		layout=$(qemu-images/uboot/boot-malta-uboot --layout --kernel "$VMLINUZ" \
			--initrd "$bw/$3") || return 1
	fi
	(
		board_args=
		eval "$layout"
		eval "fw_printenv() { [ \"\$*\" = '-n bootargs' ] && echo 'console=ttyS0 $board_args'; }"
		export -f fw_printenv
		cd "$bw" && env PATH="$inst_bin:/usr/sbin:/usr/bin:/sbin:/bin" \
			bash -e -o pipefail -c "$2"
	) > "$bw/$1.log" 2>&1
}
# yb_uboot INITRD: the doc's uboot block for INITRD (final.img, or
# capture.img for the capture boot), its tftpboot lines the stand-in's:
# where QEMU's loader put the images, and initrd_high (U-Boot leaves the
# initrd where rd_start= says)
yb_uboot() {
	local layout
	layout=$(qemu-images/uboot/boot-malta-uboot --layout --kernel "$VMLINUZ" --initrd "$bw/$1") || return 1
	eval "$layout"
	set -- "${1%.img}" $bootm_cmd
	yb_block uboot | sed "s/final\./$1./g
		s|^tftpboot \${kernel_addr_r} .*|setenv kernel_addr_r $3|
		s|^tftpboot \${ramdisk_addr_r} .*|setenv ramdisk_addr_r $4; setenv initrd_high 0xffffffff|"
}
# yb_malta NAME UIMG [DUMP]: boot boot.scr with UIMG through U-Boot;
# again on the MIPS kprobe single-step oops (tests/lib.sh)
yb_malta() {
	local try
	for try in $(seq $KPROBE_OOPS_TRIES); do
		qemu-images/uboot/boot-malta-uboot --kernel "$VMLINUZ" --scr "$bw/boot.scr" \
			--uinitrd "$bw/$2" --console "$bw/$1" ${3:+--dump "$bw/$3"} \
			--timeout 180 2> "$bw/$1.err"
		kprobe_oops "$bw/$1" "${3:+$bw/$3}" || return 0
	done
}
yb_board() {
	local b n blocks=
	bw=$yb/board
	rm -rf "$bw" && mkdir -p "$bw"
	for b in install capture from-log compile bootargs uboot report; do
		[ -n "$(yb_block $b)" ] || blocks="$blocks $b"
	done
	if [ -n "$blocks" ]; then
		t_fail yourboot/board-doc "docs/your-board.md has no block marked <!-- test: NAME --> for:$blocks"
		return
	fi
	# the installed tree
	if ! make -s install DESTDIR="$yb/board-dest" PREFIX=/usr > "$yb/board-install.log" 2>&1; then
		t_fail yourboot/board-install "make install failed" "$yb/board-install.log"
		return
	fi
	inst_bin=$yb/board-dest/usr/bin
	yb_run agent-path "$(yb_block install | grep '^probecc ')" ""
	if [ "$(cat "$bw/agent-path.log")" = "$(cd "$yb/board-dest/usr/lib/probecc/mipsel" && pwd -P)/agent" ]; then
		t_pass yourboot/board-agent-path
	else
		t_fail yourboot/board-agent-path "not the installed agent" "$bw/agent-path.log"
	fi
	# the board's own initrd
	if ! qemu-images/mkimage mipsel -o "$bw/initrd.img" --agent tests/yourboot/board-init \
		> "$bw/mkimage.log" 2>&1; then
		t_fail yourboot/board-initrd "qemu-images/mkimage failed" "$bw/mkimage.log"
		return
	fi
	# 2. the capture: compile, bootargs, boot, the serial log
	if ! yb_run capture "$(yb_block capture)" initrd.img ||
	   [ "$(cat "$bw/capture.fragment")" != rdinit=/probecc/init ]; then
		t_fail yourboot/board-capture "the capture block failed, or its fragment is not rdinit=/probecc/init" "$bw/capture.log"
		return
	fi
	t_pass yourboot/board-capture
	if ! yb_run capture-bootargs "$(yb_block bootargs | sed 's/--fragment fragment/--fragment capture.fragment/')" capture.img ||
	   ! yb_run capture-uboot "$(yb_uboot capture.img)" capture.img; then
		t_fail yourboot/board-capture-uboot "the bootargs or uboot block failed for capture.img" \
			"$bw/capture-bootargs.log" "$bw/capture-uboot.log"
		return
	fi
	yb_malta serial.log capture.uimg
	if ! yb_run from-log "$(yb_block from-log)" capture.img || ! [ -s "$bw/board.target" ]; then
		t_fail yourboot/board-from-log "the from-log block failed" "$bw/from-log.log" "$bw/serial.log.err"
		return
	fi
	t_pass yourboot/board-from-log
	# 3.-4. compile, bootargs, boot.cmd, the images
	if ! yb_run compile "$(yb_block compile)" initrd.img; then
		t_fail yourboot/board-compile "the compile block failed" "$bw/compile.log"
		return
	fi
	t_pass yourboot/board-compile
	if ! yb_run bootargs "$(yb_block bootargs)" final.img ||
	   ! yb_run uboot "$(yb_uboot final.img)" final.img; then
		t_fail yourboot/board-uboot "the bootargs or uboot block failed" "$bw/bootargs.log" "$bw/uboot.log"
		return
	fi
	n=$(stat -c %s "$bw/final.img")
	if grep -q "^setenv bootargs '.* rd_size=$n rdinit=/probecc/init trace_event=" "$bw/boot.cmd"; then
		t_pass yourboot/board-bootargs
	else
		t_fail yourboot/board-bootargs "boot.cmd has no bootargs with rd_size=$n and the fragment" "$bw/boot.cmd"
	fi
	yb_malta console.log final.uimg ttyS1.log
	if grep -q '## Booting kernel from Legacy Image' "$bw/console.log" &&
	   grep -q '^board: /run/probecc.done: window 30' "$bw/console.log"; then
		t_pass yourboot/board-boot
	else
		t_fail yourboot/board-boot "U-Boot's bootm, or the board's init, did not say so" "$bw/console.log.err" "$bw/console.log"
	fi
	# 5. the report
	yb_run report "$(yb_block report)" final.img
	n=$?
	if [ $n = 0 ] && grep -q '^2 of 2 expectation(s) hold$' "$bw/report.log" &&
	   grep -q 'insmod-[0-9]*: (register_netdevice+0x0/0x[0-9a-f]*) name="bond%d"' "$bw/report.log" &&
	   grep -q 'failures="0"' "$bw/junit.xml"; then
		t_pass yourboot/board-report
	else
		t_fail yourboot/board-report "exit $n" "$bw/report.log"
	fi
}
if [ "$T_HOST" = 1 ]; then
	t_host_skip yourboot/board
elif ! command -v qemu-system-mipsel > /dev/null || ! command -v mkimage > /dev/null ||
     ! [ -r /usr/lib/u-boot/maltael/u-boot.bin ] || ! [ -f initramfs/agent-mipsel ]; then
	t_skip yourboot/board "needs qemu-system-mips, u-boot-qemu, u-boot-tools and initramfs/agent-mipsel (qemu-images/deps.sh)"
elif ! eval "$(qemu-images/fetch mipsel 2> "$yb/fetch.err")" || [ -z "${VMLINUZ:-}" ]; then
	t_fail yourboot/board "qemu-images/fetch mipsel failed" "$yb/fetch.err"
else
	yb_board
fi

# --- the real boot: tests/yourboot/boot.sh (x86_64 here; mipsel in
# make check-rootfs, tests/rootfs.sh) ---
. tests/yourboot/boot.sh
yb_boot x86_64 && yb_capture
