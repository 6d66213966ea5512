#!/bin/bash
# Does QEMU's system_reset keep guest RAM on Malta (mipsel)?  A
# measurement, run by hand (not part of make check-hang):
#   bash tests/hang/malta-ram.sh [OUTDIR]
# Debian's Malta 6.1 kernel boots an image whose /init (no agent) reads a
# 32-bit marker at 196 MiB with busybox's devmem; on the first boot it
# writes it and waits; the monitor's system_reset boots again, and the
# second boot reads the marker back.  mem=192M@0 mem=56M@200M leaves a
# hole at 192-200 MiB that the kernel never uses (one mem= alone cut off
# the initrd QEMU puts at the top of the 256 MiB: "Initrd extends beyond
# end of memory").  Prints "X: marker kept over the reset" when RAM
# survived.  Measured 2026-11-27: kept (57 s for both boots).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/malta-ram.XXXXXX")}
mkdir -p "$out"
cat > "$out/init.sh" <<'INIT'
#!/bin/sh
mount -t proc proc /proc; mount -t devtmpfs dev /dev
A=0x0c400000
v=$(busybox devmem $A 32)
echo "X: marker before: $v"
if [ "$v" = 0x50524F42 ]; then
	echo "X: marker kept over the reset"
	poweroff -f
fi
busybox devmem $A 32 0x50524F42
echo "X: marker written: $(busybox devmem $A 32); now hanging"
while :; do sleep 100; done
INIT
chmod +x "$out/init.sh"
"$top/qemu-images/mkimage" mipsel -o "$out/img.gz" --agent "$out/init.sh" --module none
eval "$("$top/qemu-images/fetch" mipsel)"
rm -f "$out/mon.in" "$out/mon.out"
mkfifo "$out/mon.in" "$out/mon.out"
: > "$out/console.log"
qemu-system-mipsel -M malta -m 256 -kernel "$VMLINUZ" -initrd "$out/img.gz" \
	-append "console=ttyS0 rdinit=/init mem=192M@0 mem=56M@200M" \
	-display none -nic none -monitor "pipe:$out/mon" \
	-serial "file:$out/console.log" < /dev/null > "$out/qemu.out" 2>&1 &
q=$!
cat "$out/mon.out" > "$out/mon.log" &
c=$!
trap 'kill $q $c 2>/dev/null || true' EXIT
t0=$SECONDS
until grep -q "now hanging" "$out/console.log"; do
	sleep 0.5
	[ $((SECONDS - t0)) -lt 120 ] || { echo "no first boot" >&2; exit 1; }
done
echo system_reset > "$out/mon.in"
until [ "$(grep -c 'X: marker before' "$out/console.log")" = 2 ]; do
	sleep 0.5
	[ $((SECONDS - t0)) -lt 240 ] || { echo "no second boot" >&2; exit 1; }
done
sleep 2
grep -a '^X:' "$out/console.log"
