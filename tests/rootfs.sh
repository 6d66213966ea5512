# make check-rootfs: the overlay on Debian's mipsel Malta kernel with a
# Debian mipsel root file system (debootstrap --foreign + qemu-user-static,
# its own initramfs-tools initrd, systemd) on a virtio disk: the MIPS half
# of issue 15's proof (tests/yourboot/boot.sh says why it is not in make
# check).  Run by .ci/run after check-kernel.
yb=$T_OUT/rootfs
mkdir -p "$yb"
. qemu-images/machines.sh
. tests/yourboot/boot.sh
yb_boot mipsel
