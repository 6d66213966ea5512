# make check-rootfs: the overlay on Debian's mipsel Malta kernel with a
# Debian mipsel root file system (debootstrap --foreign + qemu-user-static,
# its own initramfs-tools initrd, systemd) on a virtio disk: the MIPS half
# of the overlay's proof (tests/yourboot/boot.sh says why it is not in make
# check).  Run by .ci/run after check-kernel.
yb=$T_OUT/rootfs
mkdir -p "$yb"
. qemu-images/machines.sh
. tests/yourboot/boot.sh

# rootfs/interrupted-leaves-nothing: qemu-images/rootfs stopped by SIGTERM
# in debootstrap's second stage, its chroot killed (a job's timeout, a
# user's kill), leaves no mount and no half-built tree: debootstrap mounts
# proc and sys in the tree, and a cache removed later would be walked into
# them.  In a cache of its own (the fetched packages linked in) so that a
# cached rootfs does not cut the build short; about a minute (debootstrap's
# first stage).
rootfs_interrupted() {
	local n=rootfs/interrupted-leaves-nothing cache=${PROBECC_CACHE:-$HOME/.cache/probecc}
	local c=$yb/cut-cache pid i left

	if [ "$(id -u)" != 0 ]; then
		t_skip "$n" "qemu-images/rootfs needs root (debootstrap, chroot)"
		return
	fi
	rm -rf --one-file-system "$c"
	mkdir -p "$c"
	for i in fetch pkgs debs; do
		[ -e "$cache/$i" ] && ln -s "$cache/$i" "$c/$i"
	done
	PROBECC_CACHE=$c setsid qemu-images/rootfs mipsel > /dev/null 2> "$yb/cut.err" &
	pid=$!
	for i in $(seq 600); do
		grep -qF -- '--second-stage' "$yb/cut.err" &&
			grep -q " $c/rootfs/[^ ]*/tree/sys " /proc/mounts && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	if ! grep -q " $c/rootfs/[^ ]*/tree/sys " /proc/mounts; then
		kill -TERM -- "-$pid" 2>/dev/null
		wait "$pid"
		t_fail "$n" "never reached the second stage with sys mounted" "$yb/cut.err"
		return
	fi
	kill -TERM "$pid"
	pkill -KILL -g "$pid" -f 'debootstrap|chroot|binfmt' || :
	wait "$pid"
	left=$(grep " $c/" /proc/mounts; ls -A "$c/rootfs")
	if [ -z "$left" ]; then
		t_pass "$n"
	else
		echo "$left" > "$yb/cut.left"
		for i in $(awk -v c="$c/" 'index($2, c) == 1 { print $2 }' /proc/mounts | sort -r); do
			umount -l "$i"
		done
		t_fail "$n" "left behind (mounts, then the cache's rootfs/)" "$yb/cut.left"
	fi
	rm -rf --one-file-system "$c"
}
rootfs_interrupted
yb_boot mipsel
