#!/bin/sh
# deps.sh: install the Debian packages probecc needs, when missing.
#
# usage: deps.sh [build] [boot] [kernel] [package] [lava] [all]      (default: all)
#
#   build    compilers and libraries for probecc and the agents (musl-dev
#            of mipsel, mips64el, arm64 and the host: the agents' C library,
#            initramfs/Makefile.initramfs; the foreign ones need those
#            arches in dpkg, so build adds them too; dpkg-dev's dpkg-source
#            unpacks the musl and zlib sources initramfs/build-musl builds
#            for mips64 and riscv64; mawk and gawk: the test helpers'
#            awk runs under both, tests/harness.test.sh)
#   boot     QEMU, U-Boot, and the mipsel, mips64el and arm64 foreign
#            architectures in dpkg so that qemu-images/fetch can download
#            busybox-static and the kernels of those arches
#   kernel   what build-kernel needs
#   lava     Debian's LAVA dispatcher (lava-run runs a LAVA job with no
#            server), lavacli (submits to a lab), python3-jsonschema (the
#            KCIDB file's check); make check-lava; not in all
#   package  the Debian packaging tools make check-package runs
#            (dpkg-buildpackage, debhelper, lintian, autopkgtest) and what
#            Buildroot's utils/check-package (python3-magic, flake8) and rsync need; not in all
# A no-op (dpkg-query only) when everything is there.  As root it runs
# apt-get; as another user it prints the command to run and exits 1.
# Prints nothing on stdout: everything, apt's output included, goes to
# stderr.
set -eu
# A non-zero exit always says so (sh has no ERR trap: the EXIT one tells).
trap 'rc=$?; [ $rc = 0 ] || echo "${0##*/}: exit $rc" >&2' EXIT
prog=${0##*/}

# the agents' cross compilers: the arch table (common/arch.def)
arch_rows=$(dirname "$0")/../common/arch-rows
build_pkgs="gcc make libfdt-dev libelf-dev libdw-dev device-tree-compiler cpio
$("$arch_rows" pkgs | tr ' ' '\n' | awk '!seen[$0]++ && $0 != "gcc"' | tr '\n' ' ')
xz-utils zlib1g-dev libarchive-dev liblzma-dev man-db groff-base
libtracecmd-dev libtraceevent-dev libtracefs-dev libbpf-dev trace-cmd pkg-config librsvg2-bin python3
clang libclang-rt-14-dev llvm
musl-dev musl-dev:mipsel musl-dev:mips64el musl-dev:arm64 dpkg-dev
mawk gawk"
# qemu-system-misc: qemu-system-riscv64 (with OpenSBI for -bios default)
boot_pkgs="qemu-system-mips qemu-system-x86 qemu-system-arm qemu-system-misc u-boot-tools u-boot-qemu libubootenv-tool debootstrap qemu-user-static"
kernel_pkgs="flex bison bc libssl-dev patch"
lava_pkgs="lava-dispatcher lavacli python3-jsonschema python3-jinja2 python3-yaml"
package_pkgs="dpkg-dev debhelper fakeroot lintian autopkgtest python3-magic python3-flake8 rsync"

groups=${*:-all}
want= foreign=0
for g in $groups; do
	case $g in
	build) want="$want $build_pkgs"; foreign=1 ;;
	boot) want="$want $boot_pkgs"; foreign=1 ;;
	kernel) want="$want $kernel_pkgs" ;;
	package) want="$want $package_pkgs" ;;
	lava) want="$want $lava_pkgs" ;;
	all) want="$want $build_pkgs $boot_pkgs"; foreign=1 ;;
	*) echo "usage: $prog [build] [boot] [kernel] [package] [lava] [all]" >&2; exit 2 ;;
	esac
done

command -v dpkg-query >/dev/null 2>&1 || {
	echo "$prog: not a Debian system (no dpkg-query); install by hand:$want" >&2
	exit 1
}

# One dpkg-query for all; a package it does not know prints nothing.
# A Multi-Arch: same package prints as NAME:ARCH: of the native arch it
# also counts as plain NAME (musl-dev is musl-dev:amd64).
native=$(dpkg --print-architecture)
installed=$(dpkg-query -W -f='${db:Status-Abbrev} ${binary:Package}\n' $want 2>/dev/null |
	awk -v n=":$native" '$1 == "ii" { print $2; if (sub(n "$", "", $2)) print $2 }') || true
missing=
for p in $want; do
	printf '%s\n' "$installed" | grep -qx -- "$p" || missing="$missing $p"
done
# mipsel: busybox-static and the Malta kernel; mips64el: the Loongson-3
# and 5Kc Malta kernels and the n64 busybox (tests/boot64.test.sh);
# arm64: the kernel and busybox of the device-tree boot
# (tests/bootargs.test.sh) and of tests/boot64.test.sh.
add_arch=
if [ "$foreign" = 1 ]; then
	for a in mipsel mips64el arm64; do
		dpkg --print-foreign-architectures | grep -qx $a || add_arch="$add_arch $a"
	done
fi
[ -n "$missing" ] || [ -n "$add_arch" ] || exit 0

cmd=
for a in $add_arch; do
	cmd="${cmd}dpkg --add-architecture $a && "
done
cmd="${cmd}apt-get update"
[ -z "$missing" ] ||
	cmd="$cmd && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends$missing"

if [ "$(id -u)" != 0 ]; then
	echo "$prog: missing:${missing:- (none)}$([ -z "$add_arch" ] || echo " and dpkg architectures$add_arch")" >&2
	echo "$prog: run as root:" >&2
	echo "  sudo sh -c '$cmd'" >&2
	exit 1
fi
echo "$prog: installing:${missing:- (none)}$([ -z "$add_arch" ] || echo " + dpkg architectures$add_arch")" >&2
# apt's progress goes to stderr: callers such as build-kernel and fetch
# print machine-readable results on stdout, which must hold nothing else.
sh -c "set -e; $cmd" >&2 || {
	rc=$?
	echo "$prog: the install failed (exit $rc): $cmd" >&2
	exit $rc
}
