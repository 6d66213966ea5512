# machines.sh: what each boot target is, in one place (sourced by boot,
# mkimage, run-probes, capture, target).  `machine TARGET` sets:
#   M_AGENT     the agent's arch (initramfs/agent-M_AGENT)
#   M_ARCH      probecc --arch (the kernel's ABI)
#   M_QEMU      the QEMU command and machine (an array); the command is
#               M_ARCH's qemu-system binary in the arch table
#               (common/arch.def, read by common/arch-rows)
#   M_CONSOLE   the guest's console device (console=...)
#   M_DUMPDEV   the guest device the dump channel is (the plan's sink)
#   M_ROOM      the longest /proc/cmdline the firmware passes whole
#   M_PREFIX    what the firmware puts before the -append text (its
#               longest form), counted against M_ROOM
#   M_FETCH     1: qemu-images/fetch has its Debian kernel and busybox;
#               0: no Debian port (malta64, big-endian): boot a kernel of
#               qemu-images/build-kernel, image without busybox
# and returns 1 for an unknown TARGET.  `machine_dump_opts OUT` prints
# nothing; it sets M_DUMP_OPTS, the QEMU options that capture the dump
# channel into the host file OUT.
#
# Command-line room, measured (tests/boot64.test.sh checks each): QEMU's
# Malta passes one 256-byte YAMON argument, "rd_start=0x... rd_size=N
# CMDLINE" (hw/mips/malta.c); loongson3-virt one argument in a 256-byte
# block after a 16-byte argv/envp header and "g" (set_prom_cmdline in
# hw/mips/loongson3_virt.c): 237 chars with the same rd_start prefix;
# x86_64 and arm64 keep COMMAND_LINE_SIZE 2048.
# the arch table: a checkout's common/, or PREFIX/lib/probecc/common/
M_ARCH_ROWS=$(cd "$(dirname "${BASH_SOURCE[0]}")/../common" && pwd)/arch-rows
machine() {
	M_PREFIX= M_CONSOLE=ttyS0 M_DUMPDEV=/dev/ttyS1 M_FETCH=1
	case $1 in
	mipsel) M_AGENT=mipsel M_ARCH=mipsel M_ROOM=255
		M_QEMU=(-M malta -m 256)
		M_PREFIX="rd_start=0xffffffff80000000 rd_size=123456789 " ;;
	malta64el) M_AGENT=mips64el M_ARCH=mips64el M_ROOM=255
		M_QEMU=(-M malta -cpu 5KEc -m 256)
		M_PREFIX="rd_start=0xffffffff80000000 rd_size=123456789 " ;;
	# big-endian n64 (Octeon's ABI) on Malta: build-kernel mips64; the
	# 5KEc is MIPS64 R2 (the default 20Kc is R1, too old for the kernel)
	malta64) M_AGENT=mips64 M_ARCH=mips64 M_ROOM=255 M_FETCH=0
		M_QEMU=(-M malta -cpu 5KEc -m 256)
		M_PREFIX="rd_start=0xffffffff80000000 rd_size=123456789 " ;;
	loongson3) M_AGENT=mips64el M_ARCH=mips64el M_ROOM=237
		M_QEMU=(-M loongson3-virt -m 512)
		M_PREFIX="rd_start=0xffffffff80000000 rd_size=123456789 " ;;
	loongson3-o32)
		# the same 64-bit kernel from Debian's mipsel archive, with
		# an o32 userland (busybox-static:mipsel, agent-mipsel) run
		# by its MIPS32_O32 compat layer, as on mipsel Loongson-3 installs
		M_AGENT=mipsel M_ARCH=mips64el M_ROOM=237
		M_QEMU=(-M loongson3-virt -m 512)
		M_PREFIX="rd_start=0xffffffff80000000 rd_size=123456789 " ;;
	x86_64) M_AGENT=x86_64 M_ARCH=x86_64 M_ROOM=2047
		M_QEMU=(-m 512) ;;
	# Debian's Linux 6.12 for amd64 (bookworm-security; fetch pins it):
	# the persistent ring buffer (reserve_mem= + trace_instance=NAME@LABEL)
	x86_64-6.12) M_AGENT=x86_64 M_ARCH=x86_64 M_ROOM=2047
		M_QEMU=(-m 512) ;;
	arm64) M_AGENT=arm64 M_ARCH=arm64 M_ROOM=2047 M_CONSOLE=ttyAMA0
		M_QEMU=(-M virt -cpu cortex-a57 -m 512) ;;
	# Debian's Linux 6.12 for arm64 (bookworm-security; fetch pins it)
	arm64-6.12) M_AGENT=arm64 M_ARCH=arm64 M_ROOM=2047 M_CONSOLE=ttyAMA0
		M_QEMU=(-M virt -cpu cortex-a57 -m 512) ;;
	# Debian trixie's Linux 6.12 for riscv64 (fetch pins it) on -M virt
	# through QEMU's bundled OpenSBI (-bios default); the device tree
	# carries the command line (COMMAND_LINE_SIZE 1024)
	riscv64) M_AGENT=riscv64 M_ARCH=riscv64 M_ROOM=1023
		M_QEMU=(-M virt -m 512 -bios default) ;;
	*) return 1 ;;
	esac
	M_QEMU=("$("$M_ARCH_ROWS" qemu "$M_ARCH")" "${M_QEMU[@]}") || return 1
}
machine_dump_opts() {
	case ${M_QEMU[2]} in
	loongson3-virt)
		# one UART (MMIO, from the device tree).  A PCI 16550 added
		# beside it is probed first and becomes ttyS0, the MMIO one
		# ttyS1 (measured on Debian's loongson-3 6.1): so the console
		# is the PCI UART and the dump channel the machine's own; the
		# kernel's first ~1.2 s of messages (bootconsole early0, on
		# the MMIO UART) land in the dump file before any frame, not
		# in the console log
		M_DUMP_OPTS=(-chardev stdio,id=pcis0 -device pci-serial,chardev=pcis0
			-serial "file:$1") ;;
	virt)
		[ "$M_ARCH" != riscv64 ] || {
			# riscv64's virt UART is a 16550 (ttyS0, the console):
			# the dump channel is a PCI 16550 after it (ttyS1)
			M_DUMP_OPTS=(-serial stdio
				-chardev "file,id=pcis1,path=$1" -device pci-serial,chardev=pcis1)
			return
		}
		# virt has one UART (ttyAMA0): the dump channel is the second
		# of two PCI 16550s (ttyS0 unused, ttyS1 the dump), so that
		# /dev/ttyS1 is the dump channel on every target
		M_DUMP_OPTS=(-serial stdio
			-chardev null,id=pcis0 -device pci-serial,chardev=pcis0
			-chardev "file,id=pcis1,path=$1" -device pci-serial,chardev=pcis1) ;;
	*) M_DUMP_OPTS=(-serial stdio -serial "file:$1") ;;
	esac
}
MACHINES="mipsel x86_64 x86_64-6.12 loongson3 loongson3-o32 malta64el malta64 arm64 arm64-6.12 riscv64"
