# tests/yourboot/boot.sh: yb_boot TARGET, the overlay on a boot nobody
# here wrote (sourced by tests/yourboot.test.sh for x86_64, in make check,
# and by tests/rootfs.sh for mipsel, in make check-rootfs: building the
# mipsel rootfs runs mkinitramfs under qemu-user, 23 min cold on a busy
# 2-core host, too long for make check).  Debian bookworm from
# debootstrap with its own initramfs-tools initrd (qemu-images/rootfs),
# Debian's kernel, the root on a virtio disk; run-probes boots it in
# overlay mode (the one command of a CI job, with its cut-command-line
# check and the report) until systemd's multi-user.target and the window
# dump; MIPS kprobe oopses get another boot (tests/lib.sh).
# Needs $yb (a scratch directory) and t_grep.  Returns 0 when it booted.
yb_boot() {
	local t=$1 d=$yb/run-$1 env=$yb/rootfs-$1.env
	machine "$t" || { t_fail "yourboot/boot-$t" "no machine $t"; return 1; }
	if [ "$(id -u)" != 0 ]; then
		t_skip "yourboot/boot-$t" "qemu-images/rootfs needs root (debootstrap, chroot)"
		return 1
	fi
	if ! command -v "${M_QEMU[0]}" > /dev/null || ! command -v debootstrap > /dev/null; then
		t_skip "yourboot/boot-$t" "needs ${M_QEMU[0]} and debootstrap (qemu-images/deps.sh)"
		return 1
	fi
	if ! qemu-images/rootfs "$t" > "$env" 2> "$yb/rootfs-$t.err"; then
		t_fail "yourboot/boot-$t-rootfs" "qemu-images/rootfs $t failed" "$yb/rootfs-$t.err"
		return 1
	fi
	t_pass "yourboot/boot-$t-rootfs"
	(
		eval "$(cat "$env")"
		run_probes_oops "yourboot/boot-$t" "$d" --arch "$t" \
			--base-initrd "$INITRD" --disk "$DISK" \
			--append "root=/dev/vda rw panic=-1" \
			--until-console 'Reached target.*multi-user' \
			--timeout 900 --report examples/yourboot.probes
	)
	if ! [ -s "$d/dump1" ] || ! [ -s "$d/dump2" ]; then
		t_fail "yourboot/boot-$t-dumped" "not both dumps" "$d/run.log"
		return 1
	fi
	t_pass "yourboot/boot-$t-dumped"
	t_grep "yourboot/boot-$t-initramfs-tools" "$d/console.log" 'Begin: Running /scripts/init-bottom' "initramfs-tools' /init did not run to init-bottom"
	t_grep "yourboot/boot-$t-systemd" "$d/console.log" 'Reached target.*multi-user\.target' "systemd did not reach multi-user.target"
	if grep -a -q 'run-init: ' "$d/console.log"; then
		t_fail "yourboot/boot-$t-switch-root" "run-init complained" "$d/console.log"
	else
		t_pass "yourboot/boot-$t-switch-root"
	fi
	t_grep "yourboot/boot-$t-window-beyond-switch" "$d/dump2" 'sched_process_exec: filename=/sbin/init ' "the window dump has no exec of /sbin/init (systemd)"
}
