#!/bin/bash
# seeds.sh TARGET DIR: write the seed corpus of fuzz target TARGET into
# DIR (tests/fuzz/fuzz-TARGET.c says what its input is), generated from
# the tests' own inputs each time, so that the repository keeps no
# corpus of its own:
#   compile     tests/compiler, tests/facts, examples and the report's
#               probe files, each under two targets (byte 0)
#   report      the dumps of tests/report (real boots and derived), alone
#               and after the probe file of their case; the raw dumps'
#               captures with their binary chunks in the b64 form (a LAVA
#               job's console: tests/lava/b64frames.py)
#   console     the console logs of tests/report (real and hostile), cut
#               to their ends (the death, the ftrace dump, the rc's exit),
#               with the real Malta capture and without
#   baseline    the initcall dumps of tests/report (real and derived) and
#               the real captures, their bodies cut to 48 events each,
#               as the current boot (byte 0 4) and as the baseline (5)
#   previous    the next boots' captures of tests/report/hang, with the
#               hung boot's first dump (byte 0 1) and without (0), and
#               their bodies (3)
#   ustack      bench/ustack's real user-stack dumps (the stack copy cut
#               to 1 KiB) under the sysroots
#               of tests/fuzz/ustack-sysroot.sh, as a uprobe's and as a
#               kprobe's sample, and naming what those sysroots plant
#   modules     tests/report's real bonding.ko, plain, xz'd, cut
#   raw         the records of the raw dumps of tests/report (the real
#               Malta boot's and those derived from it) and of
#               tests/tracedat.test.sh's boots when tests/out holds them,
#               dump 1 and dump 2 as tests/fuzz/fuzz-raw.c takes them
#               (rawz records inflated, kallsyms cut to 64 lines: a
#               whole one made inputs of 0.5 MB, run at 80 exec/s)
#   bootconfig  tests/bootconfig/*.bconf, the kernel's samples when
#               bootconfig/kernel-tool has built them, and probecc's own
#               bootconfig of the examples
#   bootargs    tests/bootargs: each case's existing bootargs and fragment
#   dtb         QEMU's arm64 virt device tree (with and without
#               /chosen/bootargs) and Debian's arm64 board trees when the
#               cache holds them
#   btf         boot images made of real bytes (bench/ustack's x86_64
#               program, tests/compiler/btf/kernel.btf): a bzImage (xz
#               payload), an arm64 Image, the raw BTF, a cut bzImage
#   plan        the plans probecc writes for the compile seeds
#   facts       tests/elf's vmlinux files, the ELF programs the uelf and
#               dwarf groups built (tests/out), System.maps, captures
#   logframe    tests/capture's console logs
#   lavalog     tests/report's captures as LAVA records (each line a
#               "target" record, escaped as LAVA's logger escapes it,
#               and a job result)
# and, for each, the inputs of tests/fuzz/regress/TARGET-*.
# Runs from the top of the repository; "plan", "bootconfig", "baseline"
# and "previous" need ./probecc built.
set -eu -o pipefail
trap 'echo "${0##*/}: line $LINENO: exit $?: $BASH_COMMAND" >&2' ERR
target=$1 dir=$2
mkdir -p "$dir"
# seed NAME: standard input into DIR/NAME
seed() { cat > "$dir/$1"; }
probes() { ls tests/compiler/*.probes tests/facts/*.probes examples/*.probes \
	      tests/report/*.probes tests/report/*/*.probes 2> /dev/null; }

# The inputs a fuzzer once failed on (tests/fuzz/regress/TARGET-NAME).
for f in tests/fuzz/regress/"$target"-*; do
	[ ! -f "$f" ] || seed "regress-$(basename "$f")" < "$f"
done
case $target in
compile)
	for f in $(probes); do
		b=$(basename "$f" .probes)
		# 0x00: mipsel, 6.1, --via cmdline, no kernel symbols;
		# 0xa1: x86_64, 6.1, --via bootconfig, the synthetic kernel
		{ printf '\000'; cat "$f"; } | seed "$b-mipsel"
		{ printf '\241'; cat "$f"; } | seed "$b-x86-bootconfig"
	done ;;
report)
	for raw in tests/report/*/ttyS1.raw tests/report/derived/*.raw; do
		b=$(basename "$(dirname "$raw")")-$(basename "$raw" .raw)
		{ printf '\001'; cat "$raw"; } | seed "$b"
		for p in $(dirname "$raw")/*.probes tests/report/ci-fail.probes; do
			[ -f "$p" ] || continue
			{ printf '\001'; cat "$p"; printf '\000'; cat "$raw"; } |
				seed "$b+$(basename "$p" .probes)"
		done
	done
	# a raw dump's chunks in the b64 form (a LAVA job's console)
	for raw in tests/report/*-raw/ttyS1.raw; do
		{ printf '\001'; python3 tests/lava/b64frames.py "$raw"; } |
			seed "$(basename "$(dirname "$raw")")-b64"
	done ;;
baseline)
	# the dumps' bodies (byte 0 bit 2: the harness frames them), each
	# dump's trace cut to its first 48 events and its counts with it
	# (a whole boot is 442 initcalls in 185 KB: 59 exec/s)
	for raw in tests/report/mipsel-initcalls/ttyS1.raw tests/report/derived/initcall-*.raw \
		   tests/report/mipsel-ci/ttyS1.raw; do
		b=$(basename "$(dirname "$raw")")-$(basename "$raw" .raw)
		tests/fuzz/body-head.sh "$raw" 48 > "$dir/.b"
		{ printf '\004'; cat "$dir/.b"; } | seed "$b-48"
		{ printf '\005'; cat "$dir/.b"; } | seed "$b-48-as-baseline"
		rm -f "$dir/.b"
	done ;;
previous)
	for raw in tests/report/hang/*.raw; do
		b=$(basename "$raw" .raw)
		{ printf '\001'; cat "$raw"; } | seed "$b"
		{ printf '\000'; cat "$raw"; } | seed "$b-alone"
		# its dumps' bodies, framed by the harness (byte 0 bit 1)
		# (a capture of one dump: dump 1's alone)
		{ printf '\003'; ./probecc report --extract 1 "$raw"
		  ! ./probecc report --extract 2 "$raw" > "$dir/.d2" ||
			{ printf '\n=probecc-fuzz-dump-2=\n'; cat "$dir/.d2"; }; } 2> /dev/null |
			seed "$b-bodies"
		rm -f "$dir/.d2"
	done ;;
console)
	# the real consoles (panics, an oops, an rc's exit) and the hostile
	# ones derived from them, with the capture (byte 0 1) and without (0),
	# each cut to its end: from 10 lines before the first line the
	# reader looks for (a death, the ftrace dump, the rc's exit, the
	# poweroff; else the last 30 lines) to the end, as a console log
	# caught late (200 lines of boot messages before it made 14 KB
	# inputs that every mutation copied and scanned)
	for f in tests/report/*/console*.log tests/report/wrong/*/console.log \
		 tests/report/hostile/*.log; do
		[ -f "$f" ] || continue
		b=$(basename "$(dirname "$f")")-$(basename "$f" .log)
		n=$(grep -a -n -m1 -E 'Kernel panic|\[#[0-9]+\]|Unable to handle kernel|Dumping ftrace buffer|probecc-rc: exit|reboot: Power down' "$f" | cut -d: -f1) || n=
		n=${n:+$((n > 10 ? n - 10 : 1))}
		n=${n:-$(($(wc -l < "$f") > 30 ? $(wc -l < "$f") - 29 : 1))}
		tail -n "+$n" "$f" > "$dir/.c"
		{ printf '\001'; cat "$dir/.c"; } | seed "$b"
		{ printf '\000'; cat "$dir/.c"; } | seed "$b-alone"
		rm -f "$dir/.c"
	done ;;
bootconfig)
	for f in tests/bootconfig/*.bconf; do
		seed "$(basename "$f")" < "$f"
	done
	if kt=$(bootconfig/kernel-tool 2> /dev/null); then
		for f in "$(dirname "$kt")"/samples/*.bconf; do
			seed "kernel-$(basename "$f")" < "$f"
		done
	fi
	for f in examples/*.probes; do
		./probecc "$f" -o - 2> /dev/null | seed "$(basename "$f" .probes)-out.bconf" || :
	done ;;
bootargs)
	for f in tests/bootargs/*.frag; do
		b=${f%.frag}
		{ printf '\000'; [ ! -f "$b.existing" ] || { cat "$b.existing"; printf '\000'; }
		  cat "$f"; } | seed "$(basename "$b")"
		{ printf '\001'; [ ! -f "$b.existing" ] || { cat "$b.existing"; printf '\000'; }
		  cat "$f"; } | seed "$(basename "$b")-replace"
	done ;;
ustack)
	# the stored real user-stack dumps of bench/ustack/ under each of
	# their arch's sysroots (byte 0: 0/2/4 x86_64, 1/3/5 mipsel: whole,
	# stripped, bad debug file); as a kprobe's "stack user" sample with
	# the perf-mmap line of /bin/chain (tests/ustack.test.sh's kstack
	# case); and with the program's path in the mapping and the uprobe
	# item naming what the sysroots plant (a link out, a FIFO, ..)
	for arch in x86_64 mipsel; do
		case $arch in
		x86_64) v=0 map=$'perf-mmap\t1000\t86\t401000\t78000\t1000\t/bin/chain' k=$'\tffffffff97e01000 ffffffff97e02000' ;;
		mipsel) v=1 map=$'perf-mmap\t1000\t81\t400000\t8a000\t0\t/bin/chain' k=$'\t81f70400 81f70500' ;;
		esac
		# the stack copy cut to its first 1 KiB (as a smaller "stack user"
		# size copies): the frames of /bin/chain are all in it (x86_64's
		# 6,904 bytes made 15 KB inputs; mipsel's 736 stay whole)
		awk -F '\t' -v OFS='\t' '/^perf-user\t/ && $10 > 1024 { $10 = 1024; $11 = substr($11, 1, 2048) } { print }' \
			bench/ustack/$arch.dump2 > "$dir/.dump"
		awk -v map="$map" -v k="$k" '/^perf-user\t/ { print map; print $0 k; next } { print }' \
			"$dir/.dump" > "$dir/.kernel"
		for sr in $v $((v + 2)) $((v + 4)); do
			{ printf "\\$(printf %o $sr)"; cat "$dir/.dump"; } | seed "$arch-$sr"
			{ printf "\\$(printf %o $sr)"; cat "$dir/.kernel"; } | seed "$arch-$sr-kernel"
		done
		for p in abs fifo out zero ../bin/chain; do
			{ printf "\\$(printf %o $v)"; sed "s|/bin/chain|/bin/$p|" "$dir/.kernel"; } |
				seed "$arch-kernel-$(echo "$p" | tr -d ./)"
			{ printf "\\$(printf %o $v)"; sed "s|/bin/chain|/bin/$p|" "$dir/.dump"; } |
				seed "$arch-uprobe-$(echo "$p" | tr -d ./)"
		done
		rm -f "$dir/.kernel" "$dir/.dump"
	done ;;
modules)
	# the real Malta bonding.ko of tests/report (byte 0: 0 .ko, 1 a
	# .ko.xz as the kernel's modules_install packs it, scripts/
	# Makefile.modinst: --check=crc32 --lzma2=dict=1MiB; 3 xz'd by the
	# harness; 4 added: the
	# report's run on the real capture), and cut at 4,000 bytes as
	# tests/report.test.sh's unreadable module
	ko=tests/report/mipsel-6.1/modules/kernel/drivers/net/bonding/bonding.ko
	for b in 0 3 4 7; do
		{ printf "\\$b"; cat "$ko"; } | seed "bonding-$b"
	done
	{ printf '\001'; xz --check=crc32 --lzma2=dict=1MiB -c "$ko"; } | seed bonding-xz
	{ printf '\005'; xz --check=crc32 --lzma2=dict=1MiB -c "$ko"; } | seed bonding-xz-report
	{ printf '\004'; head -c 4000 "$ko"; } | seed bonding-cut-report ;;
raw)
	for raw in tests/report/mipsel-raw/ttyS1.raw tests/report/derived/raw-*.raw \
		   tests/out/tracedat/mipsel/ttyS1.raw tests/out/tracedat/x86_64/ttyS1.raw; do
		[ -f "$raw" ] || continue
		b=$(basename "$(dirname "$raw")")-$(basename "$raw" .raw)
		# rawz inflated, kallsyms cut to 64 lines (tests/report/derive-raw.py)
		python3 tests/report/derive-raw.py seed "$raw" "$dir/.d1" "$dir/.d2"
		# byte 0: 1 the report's reading (complete dumps), 0 --trace-dat's
		for flag in 1 0; do
			{ printf "\\00$flag"; cat "$dir/.d1"; printf '\n=probecc-fuzz-dump-2=\n'
			  cat "$dir/.d2"; } | seed "$b-$flag"
		done
		{ printf '\001'; cat "$dir/.d1"; } | seed "$b-dump1"
		rm -f "$dir/.d1" "$dir/.d2"
	done ;;
dtb)
	# QEMU's own arm64 virt tree (-machine dumpdtb, as tests/bootargs
	# takes it), with a /chosen/bootargs and without /chosen; and the
	# smallest board trees of Debian's arm64 kernel when the cache holds
	# it (qemu-images/README.md); byte 0: 0, and 1 --replace
	if command -v qemu-system-aarch64 > /dev/null && command -v fdtput > /dev/null; then
		# (its blob is padded to 1 MB: packed by dtc, the same tree)
		qemu-system-aarch64 -M virt,dumpdtb="$dir/.big" -nic none -display none > /dev/null 2>&1
		dtc -q -I dtb -O dtb -o "$dir/.virt" "$dir/.big" && rm -f "$dir/.big"
		cp "$dir/.virt" "$dir/.args" && fdtput -t s "$dir/.args" /chosen bootargs \
			'console=ttyAMA0 root=/dev/vda kprobe_event=p:old,do_sys_openat2'
		cp "$dir/.virt" "$dir/.nochosen" && fdtput -r "$dir/.nochosen" /chosen
		for t in virt args nochosen; do
			{ printf '\000'; cat "$dir/.$t"; } | seed "qemu-$t"
			{ printf '\001'; cat "$dir/.$t"; } | seed "qemu-$t-replace"
		done
		rm -f "$dir/.virt" "$dir/.args" "$dir/.nochosen"
	fi
	for f in $(ls -S "${PROBECC_CACHE:-$HOME/.cache/probecc}"/pkgs/linux-image-*-arm64_*/usr/lib/linux-image-*/*/*.dtb 2> /dev/null | tail -4); do
		{ printf '\000'; cat "$f"; } | seed "debian-$(basename "$f" .dtb)"
	done ;;
btf)
	# the kernel's BTF in boot images made of real bytes: a "kernel" of
	# 8 KiB of the real x86_64 /bin/chain of bench/ustack, the real BTF
	# blob of tests/compiler/btf/kernel.btf (clang's encoding, as in
	# /sys/kernel/btf/vmlinux) and 512 bytes more of it; byte 0 1: that
	# kernel, packed into a bzImage by the harness; 0: the file as is:
	# a bzImage of it (the setup header's fields of boot protocol 2.15,
	# the payload xz --check=crc32 --x86 as CONFIG_KERNEL_XZ packs it,
	# but a 64 KiB dictionary: the kernel's 32 MiB one is allocated on
	# every read), an arm64 Image of it (its 64-byte header, "ARM\x64"),
	# the raw BTF, and a bzImage whose payload lies past its end
	xz -dc bench/ustack/x86_64-chain.xz > "$dir/.chain"
	head -c 8704 "$dir/.chain" > "$dir/.code"
	{ head -c 8192 "$dir/.code"; cat tests/compiler/btf/kernel.btf; tail -c 512 "$dir/.code"; } > "$dir/.kernel"
	xz --check=crc32 --x86 --lzma2=dict=64KiB -c "$dir/.kernel" > "$dir/.xz"
	python3 - "$dir" <<'PY'
import struct, sys
d = sys.argv[1]
kern = open(d + "/.kernel", "rb").read()
xz = open(d + "/.xz", "rb").read()
def bzimage(payload, plen):
    img = bytearray(5 * 512)
    img[0x1f1] = 4                                   # setup_sects
    img[0x1fe:0x200] = b"\x55\xaa"
    img[0x202:0x206] = b"HdrS"
    struct.pack_into("<H", img, 0x206, 0x020f)       # boot protocol 2.15
    struct.pack_into("<II", img, 0x248, 0, plen)     # payload_offset, _length
    return bytes(img) + payload
pay = xz + struct.pack("<I", len(kern))             # the size after the stream
open(d + "/.bz", "wb").write(bzimage(pay, len(pay)))
open(d + "/.cut", "wb").write(bzimage(pay[:64], 0x10000))
# Documentation/arch/arm64/booting.rst: code0, code1, text_offset,
# image_size, flags (LE, 4K pages), res2-4, magic, res5
hdr = struct.pack("<IIQQQQQQII", 0x14000000 | (0x1000 // 4), 0, 0, 0x1000 + len(kern), 0xa,
                  0, 0, 0, 0x644d5241, 0)
open(d + "/.arm64", "wb").write(hdr + bytes(0x1000 - len(hdr)) + kern)
PY
	{ printf '\001'; cat "$dir/.kernel"; } | seed kernel-in-bzimage
	{ printf '\001'; cat tests/compiler/btf/kernel.btf; } | seed btf-in-bzimage
	{ printf '\000'; cat "$dir/.bz"; } | seed bzimage
	{ printf '\000'; cat "$dir/.cut"; } | seed bzimage-cut
	{ printf '\000'; cat "$dir/.arm64"; } | seed arm64-image
	{ printf '\000'; cat tests/compiler/btf/kernel.btf; } | seed raw-btf
	rm -f "$dir/.chain" "$dir/.code" "$dir/.kernel" "$dir/.xz" "$dir/.bz" "$dir/.cut" "$dir/.arm64" ;;
plan)
	for f in $(probes); do
		for arch in mipsel x86_64; do
			./probecc "$f" --arch "$arch" --plan - 2> /dev/null > "$dir/.plan" || continue
			{ printf '\001'; cat "$dir/.plan"; } | seed "$(basename "$f" .probes)-$arch"
		done
	done
	rm -f "$dir/.plan" ;;
facts)
	# byte 0: 0 vmlinux, 1 user ELF, 2 its DWARF, 3 System.map, 4 capture
	for f in tests/elf/*.vmlinux; do
		{ printf '\000'; cat "$f"; } | seed "vmlinux-$(basename "$f")"
	done
	# (and tests/compiler's stripped dynamic programs and debug files:
	# build-id notes, .gnu_debuglink, DT_NEEDED)
	for f in tests/out/dwarf/sysroot/bin/* tests/out/uelf/* \
		tests/out/compiler/debugfile/sr/*/bin/qsort \
		tests/out/compiler/debugfile/sr/mipsel/usr/lib/debug/bin/*.debug; do
		[ -f "$f" ] && [ "$(head -c 4 "$f")" = "$(printf '\177ELF')" ] || continue
		[ "$(stat -c %s "$f")" -le 65536 ] || continue
		n=$(basename "$f")
		case $f in */debugfile/sr/*) n=$(echo "${f#*/sr/}" | tr / -) ;; esac
		{ printf '\001'; cat "$f"; } | seed "uelf-$n"
		for fn in main dw_item dw_point dw_loop; do
			{ printf '\002%s\000' $fn; cat "$f"; } | seed "dwarf-$fn-$n"
		done
	done
	for f in tests/facts/*.map tests/compiler/*.map; do
		[ ! -f "$f" ] || { printf '\003'; cat "$f"; } | seed "map-$(basename "$f")"
	done
	for f in tests/compiler/*.target; do
		{ printf '\004'; cat "$f"; } | seed "target-$(basename "$f")"
	done ;;
logframe)
	for f in tests/capture/*.log; do
		seed "$(basename "$f")" < "$f"
	done ;;
lavalog)
	for f in tests/report/*/ttyS1.raw; do
		# ShellLogger's '"' as '\"' first, then YAML's escapes
		{ tr -d '\r' < "$f" | sed 's/"/\\"/g' |
			sed 's/\\/\\\\/g; s/"/\\"/g; s/\t/\\t/g; s/^/{"dt": "x", "lvl": "target", "msg": "/; s/$/"}/'
		  echo '{"dt": "x", "lvl": "results", "msg": {"case": "job", "definition": "lava", "result": "pass"}}'
		} | seed "$(basename "$(dirname "$f")")"
	done ;;
*)
	echo "${0##*/}: unknown target '$target'" >&2
	exit 2 ;;
esac
echo "${0##*/}: $(ls "$dir" | wc -l) seeds for $target in $dir" >&2
