#!/bin/bash
# tests/regress/build-slowinit.sh OUT.ko: tests/regress/slowinit.c (an
# initcall of 200 ms) built against Debian's headers of the Malta kernel
# that qemu-images/fetch mipsel boots: linux-headers-KREL (mipsel) and
# linux-headers-ABI-common (apt-get download, kept in the cache's debs/),
# with the host's linux-kbuild-6.1 (fixdep and modpost run on the host;
# its 6.1.y may be newer than the kernel's, which changes no module) and
# the mipsel-linux-gnu-gcc-12 cross compiler.  Seconds once downloaded.
set -eu
out=$(readlink -f "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
eval "$("$top/qemu-images/fetch" mipsel)"
cache=${PROBECC_CACHE:-$HOME/.cache/probecc}/debs/headers-$KREL
abi=${KREL%-4kc-malta}
ver=$(dpkg-deb -f "$KERNEL_PKG" Version 2>/dev/null || echo "")
mkdir -p "$cache"
cd "$cache"
if [ ! -e done ]; then
	apt-get download "linux-headers-$KREL:mipsel${ver:+=$ver}" \
		"linux-headers-$abi-common${ver:+=$ver}" linux-kbuild-6.1 2> /dev/null
	rm -rf root
	for d in ./*.deb; do dpkg-deb -x "$d" root; done
	# the headers' Makefile names /usr/src/...: here they are under root/
	sed -i "s|/usr/src/|$cache/root/usr/src/|" "root/usr/src/linux-headers-$KREL/Makefile"
	touch done
fi
b=$(mktemp -d)
trap 'rm -rf "$b"' EXIT
cp "$top/tests/regress/slowinit.c" "$b/"
echo 'obj-m := slowinit.o' > "$b/Kbuild"
make -s -C "root/usr/src/linux-headers-$KREL" M="$b" ARCH=mips \
	CROSS_COMPILE=mipsel-linux-gnu- modules
cp "$b/slowinit.ko" "$out"
