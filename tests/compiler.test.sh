# Compiler golden tests: tests/compiler/good-*.probes must compile to the
# exact expected outputs beside them; bad-*.probes must fail with the
# exact expected message and leave no output behind.  Every case runs
# with probecc and with probecc-asan (ASan/UBSan).
#
# The first line of a case may be "# args: ..." (extra probecc options).
# Expected files: .cmdline (stdout of --cmdline), .plan (--plan),
# .bootconfig (-o; its presence selects bootconfig placement),
# .explain (--explain, optional), .warn (good cases: stderr, its
# warnings; none means stderr is empty), .err (bad cases: stderr).  A bad case
# exits 1 (the probe file was refused) unless a line "# exit: N" says
# otherwise (2: a bad option value, a usage error).
# Run alone: bash tests/compiler.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

# probecc-asan never frees its arena (chibicc style), so leaks are noise.

case_args() {
	t_args "$1"
}

case_status() {
	local s
	s=$(sed -n '1,3s/^# exit: \([0-9]*\).*/\1/p' "$1")
	echo "${s:-1}"
}

compiler_good() {
	local bin=$1 in=$2 tag=$3 base=${2%.probes} d rc args
	d=$T_OUT/compiler/$tag/$(basename "$base")
	rm -rf "$d" && mkdir -p "$d"
	args=$(case_args "$in")
	if [ -f "$base.bootconfig" ]; then
		"$bin" $args "$in" -o "$d/bootconfig" --plan "$d/plan" --cmdline > "$d/cmdline" 2> "$d/stderr"
	else
		"$bin" $args "$in" --plan "$d/plan" --cmdline > "$d/cmdline" 2> "$d/stderr"
	fi
	rc=$?
	if [ $rc -ne 0 ]; then
		t_fail "$tag/$(basename "$base")" "exit status $rc" "$d/stderr"
		return
	fi
	t_check "$tag/$(basename "$base").cmdline" "$base.cmdline" "$d/cmdline"
	t_check "$tag/$(basename "$base").plan" "$base.plan" "$d/plan"
	# stderr always: a good case without a .warn must print nothing
	if [ -f "$base.warn" ]; then
		t_check "$tag/$(basename "$base").warn" "$base.warn" "$d/stderr"
	else
		t_check "$tag/$(basename "$base").warn" /dev/null "$d/stderr"
	fi
	[ -f "$base.bootconfig" ] &&
		t_check "$tag/$(basename "$base").bootconfig" "$base.bootconfig" "$d/bootconfig"
	if [ -f "$base.explain" ]; then
		"$bin" $args "$in" --explain > "$d/explain" 2>&1
		t_check "$tag/$(basename "$base").explain" "$base.explain" "$d/explain"
	fi
}

compiler_bad() {
	local bin=$1 in=$2 tag=$3 base=${2%.probes} d rc args name want
	name=$tag/$(basename "$base")
	want=$(case_status "$in")
	d=$T_OUT/compiler/$tag/$(basename "$base")
	rm -rf "$d" && mkdir -p "$d/out"
	args=$(case_args "$in")
	"$bin" $args "$in" --plan "$d/out/plan" --explain > "$d/stdout" 2> "$d/stderr"
	rc=$?
	if [ $rc -ne "$want" ]; then
		t_fail "$name" "exit status $rc, expected $want" "$d/stderr"
	elif [ -n "$(ls -A "$d/out")" ]; then
		t_fail "$name" "left files behind: $(ls -A "$d/out")"
	elif [ -s "$d/stdout" ]; then
		t_fail "$name" "printed to stdout on error" "$d/stdout"
	else
		t_check "$name" "$base.err" "$d/stderr"
	fi
}

for bin in ./probecc ./probecc-asan; do
	tag=$(basename "$bin")
	if [ ! -x "$bin" ]; then
		t_fail "$tag" "not built (run make)"
		continue
	fi
	for f in tests/compiler/good-*.probes; do
		compiler_good "$bin" "$f" "$tag"
	done
	for f in tests/compiler/bad-*.probes; do
		compiler_bad "$bin" "$f" "$tag"
	done
done

# One probe file for 6.1 and 6.12: each pair below is the same file but
# its "# args:" line, and what differs between the two kernels, per
# statement, is their --explain's diff (with the 6.1 errors where 6.1
# refuses what 6.12 takes): tests/compiler/NAME.diff.
#   trace-trigger  good-trace-trigger-6.1, -6.12: the static events' stacks
#   btf-args       bad-btf-args-6.1, good-btf-args-6.12: C names without
#                  DWARF, by the kernel's BTF on 6.12
#   ret-args       bad-ret-args-6.1, good-ret-args-6.12: a kretprobe's argN
compiler_pair() {
	local name=$1 f61=tests/compiler/$2.probes f612=tests/compiler/$3.probes v f
	d=$T_OUT/compiler/$name && rm -rf "$d" && mkdir -p "$d"
	for v in 6.1 6.12; do
		f=$f61
		[ $v = 6.12 ] && f=$f612
		sed 1d "$f" > "$d/body-$v"
		./probecc $(case_args "$f") "$f" --explain > "$d/explain-$v" 2>&1
	done
	if ! cmp -s "$d/body-6.1" "$d/body-6.12"; then
		t_fail "compiler/$name-same-file" "$2 and $3 differ past their first line"
	else
		t_pass "compiler/$name-same-file"
		diff "$d/explain-6.1" "$d/explain-6.12" > "$d/diff"
		t_check "compiler/$name-6.1-vs-6.12" tests/compiler/$name.diff "$d/diff"
	fi
}
compiler_pair trace-trigger good-trace-trigger-6.1 good-trace-trigger-6.12
compiler_pair btf-args bad-btf-args-6.1 good-btf-args-6.12
compiler_pair ret-args bad-ret-args-6.1 good-ret-args-6.12

# The hostile ELF files of the bad-vmlinux-* cases are what
# tests/elf/mkelf.py writes (it makes them from scratch, no toolchain).
d=$T_OUT/compiler/elf && rm -rf "$d" && mkdir -p "$d"
if python3 tests/elf/mkelf.py "$d" 2> "$d/err" &&
   (for f in "$d"/*.vmlinux; do cmp -s "$f" "tests/elf/$(basename "$f")" || exit 1; done); then
	t_pass "compiler/elf-inputs-from-mkelf"
else
	t_fail "compiler/elf-inputs-from-mkelf" "tests/elf/*.vmlinux differ from tests/elf/mkelf.py's" "$d/err"
fi

# The BTF of the btf cases (--btf tests/compiler/btf/kernel.btf) is what
# clang writes for tests/compiler/btf/kernel.c: its .BTF section (the
# source path relative, so that it is the same in every clone), the
# encoding the kernel's /sys/kernel/btf/vmlinux has.
d=$T_OUT/compiler/btf && rm -rf "$d" && mkdir -p "$d"
if clang -target bpf -g -O2 -fdebug-prefix-map="$PWD"=. -c tests/compiler/btf/kernel.c -o "$d/kernel.o" 2> "$d/err" &&
   llvm-objcopy --dump-section .BTF="$d/kernel.btf" "$d/kernel.o" "$d/copy.o" 2>> "$d/err" &&
   cmp -s "$d/kernel.btf" tests/compiler/btf/kernel.btf; then
	t_pass "compiler/btf-input-from-clang"
else
	t_fail "compiler/btf-input-from-clang" "tests/compiler/btf/kernel.btf differs from clang's BTF of kernel.c (clang -target bpf -g -O2, llvm-objcopy --dump-section .BTF)" "$d/err"
fi

# The modules of the module-BTF cases (--modules tests/compiler/btf/modules,
# modules-nobtf) are what tests/compiler/btf/mkmodule.py makes of
# bonding.c: its .BTF split on kernel.btf by libbpf's dedup, as pahole
# --btf_base vmlinux makes a real module's.
d=$T_OUT/compiler/btf-module && rm -rf "$d" && mkdir -p "$d"
if python3 tests/compiler/btf/mkmodule.py "$d" 2> "$d/err" &&
   cmp -s "$d/modules/bonding.ko" tests/compiler/btf/modules/bonding.ko &&
   cmp -s "$d/modules-nobtf/bonding.ko" tests/compiler/btf/modules-nobtf/bonding.ko; then
	t_pass "compiler/btf-module-from-libbpf"
else
	t_fail "compiler/btf-module-from-libbpf" "tests/compiler/btf/modules*/bonding.ko differ from tests/compiler/btf/mkmodule.py's" "$d/err"
fi

# --btf of a boot image: a bzImage header whose payload lies past the
# file's end is refused with that reason (not read past it), and a file
# holding BTF's magic with lengths past its end is no BTF.
d=$T_OUT/compiler/btf-image && rm -rf "$d" && mkdir -p "$d"
python3 - "$d" <<'PY'
import struct, sys
img = bytearray(0x1000)
img[0x1f1] = 4                                  # setup_sects
img[0x202:0x206] = b"HdrS"
struct.pack_into("<H", img, 0x206, 0x020f)      # boot protocol 2.15
struct.pack_into("<II", img, 0x248, 0x100, 0x10000)  # payload past the end
open(sys.argv[1] + "/cut.bzimage", "wb").write(img)
raw = bytearray(0x100)
struct.pack_into("<HBBIIIII", raw, 0x10, 0xeb9f, 1, 0, 24, 0, 0x1000, 0x1000, 16)
open(sys.argv[1] + "/long.btf", "wb").write(raw)
PY
printf 'kprobe k register_netdevice { name = dev->name }\n' > "$d/k.probes"
./probecc --arch x86_64 --btf "$d/cut.bzimage" "$d/k.probes" --cmdline > /dev/null 2> "$d/cut.err"
rc1=$?
./probecc --arch x86_64 --btf "$d/long.btf" "$d/k.probes" --cmdline > /dev/null 2> "$d/long.err"
rc2=$?
if [ $rc1 = 2 ] && grep -qx "probecc: error: $d/cut.bzimage: a bzImage whose payload is past its end" "$d/cut.err" &&
   [ $rc2 = 2 ] && grep -q "^probecc: error: $d/long.btf: " "$d/long.err"; then
	t_pass "compiler/btf-image-hostile"
else
	t_fail "compiler/btf-image-hostile" "exit $rc1, $rc2" "$d/cut.err" "$d/long.err"
fi

# --btf of damaged BTF (a struct member of type 2490397 of 33: one byte
# of tests/compiler/btf/kernel.btf changed) is refused with the type
# named; libbpf 1.1 takes it, and its btf_dump__new() then crashed
# probecc (fuzz-btf; tests/fuzz/regress/btf-member-type-past-last).
d=$T_OUT/compiler/btf-damaged && rm -rf "$d" && mkdir -p "$d"
python3 -c '
import sys
b = bytearray(open("tests/compiler/btf/kernel.btf", "rb").read())
b[706] = 0x26
open(sys.argv[1], "wb").write(b)' "$d/damaged.btf"
printf 'kprobe k register_netdevice { name = dev->name }\n' > "$d/k.probes"
./probecc --arch x86_64 --btf "$d/damaged.btf" "$d/k.probes" --cmdline > /dev/null 2> "$d/err"
rc=$?
if [ $rc = 2 ] && grep -qx "probecc: error: $d/damaged.btf: damaged BTF: type 28: a member is type 2490397, past the last, 32" "$d/err"; then
	t_pass "compiler/btf-damaged"
else
	t_fail "compiler/btf-damaged" "exit $rc" "$d/err"
fi

# btf_refused CASE BTF WHY: --btf BTF (in $d) refused by probecc and
# probecc-asan alike: exit 2, "damaged BTF: WHY", nothing compiled.
btf_refused() {
	local bin rc
	printf 'kprobe k register_netdevice { name = dev->name }\n' > "$d/k.probes"
	for bin in ./probecc ./probecc-asan; do
		$bin --arch x86_64 --btf "$2" "$d/k.probes" --cmdline > /dev/null 2> "$d/err"
		rc=$?
		if [ $rc = 2 ] && grep -qxF "probecc: error: $2: damaged BTF: $3" "$d/err"; then
			t_pass "compiler/$1 (${bin#./})"
		else
			t_fail "compiler/$1 (${bin#./})" "exit $rc" "$d/err"
		fi
	done
}

# btf_name_fails CASE BTF ERROR: --btf BTF (in $d) read, dev->name not
# named from it: exit 1 with ERROR, within 60 s (124: killed).
btf_name_fails() {
	local rc
	printf 'kprobe k register_netdevice { name = dev->name }\n' > "$d/k.probes"
	timeout 60 ./probecc --arch x86_64 --btf "$2" "$d/k.probes" --cmdline > /dev/null 2> "$d/err"
	rc=$?
	if [ $rc = 1 ] && grep -qF "$3" "$d/err"; then
		t_pass "compiler/$1"
	else
		t_fail "compiler/$1" "exit $rc (124: killed after 60 s)" "$d/err"
	fi
}

# BTF whose header is 26 bytes (tests/compiler/btf/kernel.btf with two
# bytes more): libbpf 1.1 takes it and every type lies 2 bytes off 4;
# probecc-asan stopped on UBSan's misaligned access, probecc read it.
# Refused with the type named (tests/fuzz/regress/btf-header-misaligned).
d=$T_OUT/compiler/btf-misaligned && rm -rf "$d" && mkdir -p "$d"
python3 - "$d/hdr26.btf" <<'PY'
import struct, sys
b = open("tests/compiler/btf/kernel.btf", "rb").read()
magic, ver, flags, hl, to, tl, so, sl = struct.unpack("<HBBIIIII", b[:24])
hdr = struct.pack("<HBBIIIII", magic, ver, flags, hl + 2, to, tl, so, sl)
open(sys.argv[1], "wb").write(hdr + b"\0\0" + b[24:])
PY
btf_refused btf-header-misaligned "$d/hdr26.btf" "type 1 is not 4-byte aligned: the header's length is not a multiple of 4"

# BTF whose typedef is a const of itself, the type of a struct's member:
# libbpf 1.1 takes it and its btf__align_of() recursed until the stack
# overflowed (fuzz-btf; tests/fuzz/regress/btf-typedef-loop).  Refused
# with the loop named, as the kernel's btf_resolve() does ("Loop
# detected").
d=$T_OUT/compiler/btf-loop && rm -rf "$d" && mkdir -p "$d"
PYTHONPATH=tests/compiler/btf python3 - "$d/loop.btf" <<'PY'
import struct, sys
from rawbtf import t, write
strs = b"\0int\0dev\0register_netdevice\0net_device\0name\0loop\0"
types = t(1, 1, 0, 4, struct.pack("<I", 1 << 24 | 32))          # 1: int
types += t(44, 8, 0, 3)                                          # 2: typedef loop = 3
types += t(0, 10, 0, 2)                                          # 3: const 2
types += t(28, 4, 1, 8, struct.pack("<III", 39, 2, 0))          # 4: struct net_device { loop name; }
types += t(0, 2, 0, 4)                                           # 5: struct net_device *
types += t(0, 13, 1, 1, struct.pack("<II", 5, 5))               # 6: int (dev)
types += t(9, 12, 1, 6)                                          # 7: register_netdevice
write(sys.argv[1], types, strs)
PY
btf_refused btf-loop "$d/loop.btf" "type 2 holds itself by value (through type 3)"

# An integer of 3,866,625 bytes, 272 of them a struct's member: libbpf
# 1.1's btf_dump wrapped the member's end in bits (an int) and printed
# 5.5 million "long: 64;" lines, 6 s of fuzz-btf's one input
# (tests/fuzz/regress/btf-member-of-1gib).  Refused as the kernel does.
d=$T_OUT/compiler/btf-size && rm -rf "$d" && mkdir -p "$d"
PYTHONPATH=tests/compiler/btf python3 - "$d/big.btf" <<'PY'
import struct, sys
from rawbtf import t, netdev_btf
strs = b"\0char\0dev\0register_netdevice\0net_device\0name\0"
types = t(1, 1, 0, 3866625, struct.pack("<I", 1 << 24 | 8))    # 1: char of 3,866,625 bytes
types += t(0, 1, 0, 4, struct.pack("<I", 32))                    # 2: an int for the index
types += t(0, 3, 0, 0, struct.pack("<III", 1, 2, 272))          # 3: char[272]
types += t(29, 4, 1, 8, struct.pack("<III", 40, 3, 0))          # 4: struct net_device { name; }
netdev_btf(sys.argv[1], types, strs, 5, 4, ret=2)
PY
btf_refused btf-int-size "$d/big.btf" "type 1: an integer of 3866625 bytes (a kernel's are 1 to 16)"

# A struct member of type void (id 0): libbpf 1.1's btf_dump divided by
# its alignment, 0, and stopped probecc with SIGFPE (fuzz-btf;
# tests/fuzz/regress/btf-member-void).  Refused as the kernel does
# ("Invalid member").
d=$T_OUT/compiler/btf-void && rm -rf "$d" && mkdir -p "$d"
PYTHONPATH=tests/compiler/btf python3 - "$d/void.btf" <<'PY'
import struct, sys
from rawbtf import t, netdev_btf
strs = b"\0int\0dev\0register_netdevice\0net_device\0name\0"
types = t(1, 1, 0, 4, struct.pack("<I", 1 << 24 | 32))          # 1: int
types += t(28, 4, 1, 8, struct.pack("<III", 39, 0, 0))          # 2: struct net_device { void name; }
netdev_btf(sys.argv[1], types, strs, 3, 2)
PY
btf_refused btf-member-void "$d/void.btf" "type 2: a member of type 0, which no struct holds"

# A type whose declaration names 2^40 types (40 function prototypes,
# each taking two pointers to the one before: 83 types of BTF) is named
# by its id, not printed: libbpf's btf_dump writes every parameter of
# every prototype, and probecc ran until killed (fuzz-btf's 130 s were
# an anonymous struct's holes: tests/fuzz/regress/btf-struct-holes).
d=$T_OUT/compiler/btf-decl && rm -rf "$d" && mkdir -p "$d"
PYTHONPATH=tests/compiler/btf python3 - "$d/deep.btf" <<'PY'
import struct, sys
from rawbtf import t, write
strs = b"\0int\0dev\0register_netdevice\0long\0"
types = t(1, 1, 0, 4, struct.pack("<I", 1 << 24 | 32))          # 1: int
prev, nid = 1, 2
for k in range(40):     # a prototype of two pointers to the last, a pointer to it
    types += t(0, 13, 2, 1, struct.pack("<IIII", 0, prev, 0, prev))
    types += t(0, 2, 0, nid)
    prev, nid = nid + 1, nid + 2
types += t(0, 13, 1, 1, struct.pack("<II", 5, prev))            # (dev)
types += t(9, 12, 1, nid)                                        # register_netdevice
types += t(28, 1, 0, 8, struct.pack("<I", 1 << 24 | 64))        # long: 8-byte pointers
write(sys.argv[1], types, strs)
PY
btf_name_fails btf-decl-exponential "$d/deep.btf" "error: 'dev' points to BTF type 80, not to a struct or union"

# A struct that holds itself as two anonymous members: finding a member
# entered 2^17 aggregates (NEST_MAX deep) and answered "no member"
# (tests/fuzz/regress/btf-struct-holds-itself; such a loop is refused
# when the BTF is read now, compiler/btf-loop).  Without a loop, 13
# levels of structs each holding the next twice: a walk of more than
# 4,096 members is damaged BTF.
d=$T_OUT/compiler/btf-walk && rm -rf "$d" && mkdir -p "$d"
PYTHONPATH=tests/compiler/btf python3 - "$d/self.btf" <<'PY'
import struct, sys
from rawbtf import t, write
strs = b"\0int\0dev\0register_netdevice\0long\0net_device\0x\0"
types = t(1, 1, 0, 4, struct.pack("<I", 1 << 24 | 32))          # 1: int
for k in range(2, 14):                                           # 2-13: { next; next; }, 2 net_device
    types += t(33 if k == 2 else 0, 4, 2, 8, struct.pack("<6I", 0, k + 1, 0, 0, k + 1, 0))
types += t(0, 4, 1, 8, struct.pack("<3I", 44, 1, 0))             # 14: { int x; }
types += t(0, 2, 0, 2)                                           # 15: struct net_device *
types += t(0, 13, 1, 1, struct.pack("<II", 5, 15))               # 16: int (struct net_device *dev)
types += t(9, 12, 1, 16)                                         # 17: register_netdevice
types += t(28, 1, 0, 8, struct.pack("<I", 1 << 24 | 64))         # 18: long: 8-byte pointers
write(sys.argv[1], types, strs)
PY
btf_name_fails btf-walk-bound "$d/self.btf" "error: $d/self.btf: damaged BTF: member 'name' of struct net_device is looked for through more than 4096 members"

# Every input has a limit: /dev/zero as the probe file stops at 16 MiB
# (--target, --system-map and --base-initrd: the bad-*-zero cases).
d=$T_OUT/compiler/limits && rm -rf "$d" && mkdir -p "$d"
./probecc /dev/zero --plan "$d/plan" > /dev/null 2> "$d/err"
rc=$?
if [ $rc = 2 ] && [ ! -e "$d/plan" ] &&
   grep -qx 'probecc: error: cannot read /dev/zero: more than 16777216 bytes, the most this input may be (an endless stream such as /dev/zero, or not the file meant)' "$d/err"; then
	t_pass "compiler/probe-file-zero"
else
	t_fail "compiler/probe-file-zero" "exit $rc" "$d/err"
fi

# --initrd OUT --base-initrd IN where OUT is IN (the same name, a symbolic
# or a hard link): refused, IN untouched (it became IN + overlay, and each
# run stacked one more).  --initrd /dev/full: nothing said of a boot
# before the write failed.  A base whose bootconfig is 3 bytes before
# its end keeps it last, padding dropped.
d=$T_OUT/compiler/initrd && rm -rf "$d" && mkdir -p "$d"
if [ -x initramfs/agent-x86_64 ]; then
	cp tests/compiler/cpio.initrd "$d/in.img"
	ln -s in.img "$d/sym.img"
	ln "$d/in.img" "$d/hard.img"
	ok=1
	for out in "$d/in.img" "$d/sym.img" "$d/hard.img"; do
		./probecc examples/bond0.probes --arch x86_64 --initrd "$out" --base-initrd "$d/in.img" > /dev/null 2> "$d/err.same"
		rc=$?
		if [ $rc != 2 ] || ! cmp -s "$d/in.img" tests/compiler/cpio.initrd ||
		   ! grep -q "^probecc: error: --initrd $out is --base-initrd $d/in.img (the same file)" "$d/err.same"; then
			ok=; t_fail "compiler/initrd-out-is-base" "$(basename "$out"): exit $rc" "$d/err.same"
		fi
	done
	[ -n "$ok" ] && t_pass "compiler/initrd-out-is-base"
	./probecc examples/bond0.probes --arch x86_64 --initrd /dev/full --base-initrd "$d/in.img" > /dev/null 2> "$d/err.full"
	rc=$?
	if [ $rc = 2 ] && grep -q 'cannot write /dev/full' "$d/err.full" && ! grep -q 'rdinit=' "$d/err.full"; then
		t_pass "compiler/initrd-full-says-no-boot"
	else
		t_fail "compiler/initrd-full-says-no-boot" "exit $rc" "$d/err.full"
	fi
	./probecc examples/bond0.probes --arch x86_64 --initrd "$d/pad3.img" --base-initrd tests/compiler/bootconfig-pad3.initrd > /dev/null 2> "$d/err.pad3"
	rc=$?
	if [ $rc = 0 ] && [ "$(tail -c 12 "$d/pad3.img")" = "#BOOTCONFIG" ] &&
	   bootconfig/probecc-bootconfig "$d/pad3.img" 2>&1 | grep -q 'foo = 1' &&
	   [ "$(grep -c '#BOOTCONFIG' "$d/pad3.img")" = 1 ] && grep -q 'boot it with rdinit=' "$d/err.pad3"; then
		t_pass "compiler/initrd-base-bootconfig-pad3-kept-last"
	else
		t_fail "compiler/initrd-base-bootconfig-pad3-kept-last" "exit $rc" "$d/err.pad3"
	fi
else
	t_fail "compiler/initrd" "initramfs/agent-x86_64 is not built (make)"
fi

# Marker symbols in the wrong order (__start_mcount_loc after
# __stop_mcount_loc): no ftrace call sites, not a 2^64-byte range ("out
# of memory" before).
printf 'kprobe k register_netdevice\n' > "$d/k.probes"
./probecc "$d/k.probes" --vmlinux tests/elf/mcount-reversed.vmlinux --explain > "$d/mcount.out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q 'mcount-reversed.vmlinux: no linux_banner, x86_64, 3 symbols, 0 ftrace call sites$' "$d/mcount.out"; then
	t_pass "compiler/vmlinux-mcount-markers-reversed"
else
	t_fail "compiler/vmlinux-mcount-markers-reversed" "exit $rc" "$d/mcount.out"
fi

# A gzip bomb as --kconfig (17 MB of one byte in 17 KB): refused at
# KCONFIG_MAX, as /dev/zero is (bad-kconfig-zero).
head -c 17000000 /dev/zero | tr '\0' a | gzip > "$d/bomb.config.gz"
./probecc "$d/k.probes" --kconfig "$d/bomb.config.gz" > /dev/null 2> "$d/bomb.err"
rc=$?
if [ $rc = 2 ] && grep -q "bomb.config.gz: more than 16777216 bytes, the most a .config may be" "$d/bomb.err"; then
	t_pass "compiler/kconfig-gzip-bomb"
else
	t_fail "compiler/kconfig-gzip-bomb" "exit $rc" "$d/bomb.err"
fi

# An existing output survives a failed run unchanged.
d=$T_OUT/compiler/keep && rm -rf "$d" && mkdir -p "$d"
echo "precious" > "$d/bootconfig"
./probecc tests/compiler/bad-unknown-statement.probes -o "$d/bootconfig" 2>/dev/null
if [ "$(cat "$d/bootconfig")" = precious ] && [ "$(ls -A "$d")" = bootconfig ]; then
	t_pass "compiler/failed-run-keeps-old-output"
else
	t_fail "compiler/failed-run-keeps-old-output" "bootconfig changed or temp files left: $(ls -A "$d")"
fi

# An unwritable destination: an error, and the other output is not written either.
rm -rf "$d" && mkdir -p "$d"
if ./probecc examples/bond0.probes --plan "$d/plan" -o "$d/no/such/dir/bootconfig" 2> "$d/err"; then
	t_fail "compiler/unwritable-output" "succeeded"
elif [ -e "$d/plan" ] || [ "$(ls -A "$d")" != err ]; then
	t_fail "compiler/unwritable-output" "left files: $(ls -A "$d")"
elif grep -q "cannot write $d/no/such/dir/bootconfig" "$d/err"; then
	t_pass "compiler/unwritable-output"
else
	t_fail "compiler/unwritable-output" "unexpected message" "$d/err"
fi

# Outputs that cannot be written: exit 2 with a message, and
# nothing left behind: two outputs named one file, a bootconfig on
# /dev/full beside a plan, the command line to a full standard output.
rm -rf "$d" && mkdir -p "$d"
./probecc examples/bond0.probes --arch x86_64 -o "$d/same" --plan "$d/same" 2> "$d/err.same"
rc_same=$?
./probecc examples/bond0.probes --arch x86_64 -o /dev/full --plan "$d/plan" 2> "$d/err.full"
rc_full=$?
./probecc examples/bond0.probes --cmdline > /dev/full 2> "$d/err.stdout"
rc_stdout=$?
if [ $rc_same = 2 ] && grep -q "$d/same is named for two outputs" "$d/err.same" &&
   [ $rc_full = 2 ] && grep -q 'cannot write /dev/full: No space left on device' "$d/err.full" &&
   [ $rc_stdout = 2 ] && grep -q 'cannot write to standard output' "$d/err.stdout" &&
   [ -z "$(ls -A "$d" | grep -v '^err\.')" ]; then
	t_pass "compiler/outputs-that-cannot-be-written"
else
	t_fail "compiler/outputs-that-cannot-be-written" "exit $rc_same/$rc_full/$rc_stdout, files: $(ls -A "$d")" \
		"$d/err.same" "$d/err.full" "$d/err.stdout"
fi

# An output that is one of the inputs is refused before anything is
# read, and the input stays as it was: -o the probe file, --plan the
# --system-map (through a symbolic link to it).
rm -rf "$d" && mkdir -p "$d"
cp examples/bond0.probes "$d/in.probes"
cp tests/report/mipsel-6.1/System.map "$d/System.map" && ln -s System.map "$d/map.link"
./probecc "$d/in.probes" --system-map tests/report/mipsel-6.1/System.map --modules tests/report/mipsel-6.1/modules \
	-o "$d/in.probes" 2> "$d/err.o"
rc_o=$?
./probecc examples/bond0.probes --system-map "$d/System.map" --modules tests/report/mipsel-6.1/modules \
	--plan "$d/map.link" 2> "$d/err.plan"
rc_plan=$?
if [ $rc_o = 2 ] && grep -q "^probecc: error: -o $d/in.probes is the probe file (the same file): refused" "$d/err.o" &&
   [ $rc_plan = 2 ] && grep -q "^probecc: error: --plan $d/map.link is --system-map (the same file): refused" "$d/err.plan" &&
   cmp -s examples/bond0.probes "$d/in.probes" && cmp -s tests/report/mipsel-6.1/System.map "$d/System.map"; then
	t_pass "compiler/output-is-input-refused"
else
	t_fail "compiler/output-is-input-refused" "exit $rc_o/$rc_plan, or an input overwritten" "$d/err.o" "$d/err.plan"
fi

# A signal while outputs are staged (common/output.c): SIGTERM removes
# the staged temporary files and ends probecc as SIGTERM does; SIGHUP
# ignored (nohup) stays ignored and the run completes.  A FIFO as -o
# holds probecc in out_commit() (direct outputs are written first, so
# the plan is staged and waiting) until something reads it.
# outsig_wait PID: until the staged plan exists (at most 10 s)
outsig_wait() {
	local i
	for i in $(seq 100); do
		ls "$d"/plan.probecc-* > /dev/null 2>&1 && return 0
		kill -0 "$1" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}
rm -rf "$d" && mkdir -p "$d" && mkfifo "$d/fifo"
./probecc examples/bond0.probes --arch x86_64 -o "$d/fifo" --plan "$d/plan" 2> "$d/err.term" &
pid=$!
staged=no
outsig_wait $pid && staged=yes
kill -TERM $pid
rc=0
wait $pid || rc=$?
if [ $staged = yes ] && [ $rc = 143 ] && [ -z "$(ls -A "$d" | grep -v -e '^err\.' -e '^fifo$')" ]; then
	t_pass "compiler/outputs-signal-removes-staged"
else
	t_fail "compiler/outputs-signal-removes-staged" "staged $staged, exit $rc, files: $(ls -A "$d")" "$d/err.term"
fi
(trap '' HUP; exec ./probecc examples/bond0.probes --arch x86_64 -o "$d/fifo" --plan "$d/plan" 2> "$d/err.hup") &
pid=$!
staged=no
outsig_wait $pid && staged=yes
kill -HUP $pid
sleep 0.2
cat "$d/fifo" > "$d/fifo.out"
rc=0
wait $pid || rc=$?
if [ $staged = yes ] && [ $rc = 0 ] && [ -s "$d/plan" ] && [ -s "$d/fifo.out" ] &&
   [ -z "$(ls "$d" | grep 'probecc-')" ]; then
	t_pass "compiler/outputs-sighup-ignored-kept"
else
	t_fail "compiler/outputs-sighup-ignored-kept" "staged $staged, exit $rc, files: $(ls -A "$d")" "$d/err.hup"
fi

# A plan larger than the agent reads (AGENT_PLAN_MAX, 1 MiB) is refused
# (20,000 kprobes compiled and the agent armed 9,623 of them).
awk 'BEGIN { for (i = 0; i < 7000; i++)
	printf "kprobe k%05d_a_long_name_to_make_the_plan_big kernel_execve { a = arg1; b = arg2 }\n", i }' \
	> "$d/big.probes"
./probecc "$d/big.probes" --plan "$d/big.plan" > /dev/null 2> "$d/big.err"
rc=$?
if [ $rc = 1 ] && [ ! -e "$d/big.plan" ] && grep -q 'the agent reads at most 1048576' "$d/big.err"; then
	t_pass "compiler/plan-over-agent-limit"
else
	t_fail "compiler/plan-over-agent-limit" "exit $rc" "$d/big.err"
fi

# The examples compile for every arch the ABI tables cover.  A file
# with C names (examples/ci-bond0.probes' dev->name) needs the kernel's
# types: without any it is an error naming both ways (the BTF of a
# capture or --btf; --vmlinux or run-probes --dbg), never a guessed
# offset; with the test kernel's BTF (64-bit pointers) it compiles.
for a in mips mipsel mips64 mips64el x86_64 arm64 riscv64; do
	ok=1
	: > "$T_OUT/compiler/ex.err"
	for f in examples/*.probes; do
		if grep -q -- '->' "$f"; then
			if ./probecc --arch $a "$f" --cmdline > /dev/null 2> "$T_OUT/compiler/ex1.err" ||
			   ! grep -q "need the kernel's types, and none are given: its BTF (a --target capture of a kernel built with CONFIG_DEBUG_INFO_BTF, or --btf FILE) or its DWARF (--vmlinux VMLINUX; qemu-images/run-probes --dbg" "$T_OUT/compiler/ex1.err"; then
				ok=0
				echo "$f: compiled, or not the error naming the ways" >> "$T_OUT/compiler/ex.err"
			fi
			case $a in mips|mipsel) continue ;; esac
			btf="--btf tests/compiler/btf/kernel.btf"
		else
			btf=
		fi
		./probecc --arch $a $btf "$f" --cmdline > /dev/null 2>> "$T_OUT/compiler/ex.err" || ok=0
	done
	if [ $ok = 1 ]; then
		t_pass "compiler/examples-$a"
	else
		t_fail "compiler/examples-$a" "an example does not compile" "$T_OUT/compiler/ex.err"
	fi
done

# A file whose every part goes to the agent leaves nothing for bootconfig:
# the kernel refuses a keyless config ("Empty config"), so -o is an
# error and nothing is written.
# (A kprobe's "stack user" is the agent's perf event on its events/
# directory, so the agent defines it.)
rm -f "$T_OUT/compiler/empty.bconf"
printf 'kprobe ksync ksys_sync { stack user }\ndump /dev/ttyS1\n' > "$T_OUT/compiler/empty.probes"
if ./probecc "$T_OUT/compiler/empty.probes" --arch mipsel -o "$T_OUT/compiler/empty.bconf" \
	2> "$T_OUT/compiler/empty.err"; then
	t_fail compiler/empty-bootconfig-refused "exit 0" "$T_OUT/compiler/empty.err"
elif grep -q 'goes into bootconfig .*"Empty config"' "$T_OUT/compiler/empty.err" &&
     [ ! -e "$T_OUT/compiler/empty.bconf" ]; then
	t_pass compiler/empty-bootconfig-refused
else
	t_fail compiler/empty-bootconfig-refused "" "$T_OUT/compiler/empty.err"
fi

# Option numbers are range-checked, never wrapped: 2^32 + 1
# bytes of --cmdline-max was taken as 1.  --error-limit 0 prints every
# error of bad-many-errors (25), 3 prints 3 and the note.
d=$T_OUT/compiler/optnum
mkdir -p "$d"
: > "$d/got"
for a in 4294967297 99999999999999999999 -5 0 ' 5' 12k; do
	./probecc examples/bond0.probes --cmdline-max "$a" > /dev/null 2> "$d/err"
	echo "cmdline-max '$a' $?: $(cat "$d/err")" >> "$d/got"
done
for a in 4294967296 -1 x; do
	./probecc examples/bond0.probes --error-limit "$a" > /dev/null 2> "$d/err"
	echo "error-limit '$a' $?: $(cat "$d/err")" >> "$d/got"
done
./probecc report --extract 4294967297 /dev/null > /dev/null 2> "$d/err"
echo "extract $?: $(cat "$d/err")" >> "$d/got"
./probecc tests/compiler/bad-many-errors.probes --error-limit 0 > /dev/null 2> "$d/all"
echo "error-limit 0 $?: $(grep -c ': error: ' "$d/all") errors, $(grep -c 'not shown' "$d/all") notes" >> "$d/got"
./probecc tests/compiler/bad-many-errors.probes --error-limit 3 > /dev/null 2> "$d/three"
echo "error-limit 3 $?: $(grep -c ': error: ' "$d/three") errors, $(grep 'not shown' "$d/three")" >> "$d/got"
# The limit holds for warnings too: 300 kprobes, 215 of them past the
# command line's room (a warning each), give 20 and the note (all 215
# were printed).
{ printf 'dump /dev/ttyS1\nwindow 6s\n'
  seq 0 299 | sed 's/.*/kprobe k& register_netdevice { a = +0(arg1):string }/'; } > "$d/many.probes"
./probecc "$d/many.probes" > /dev/null 2> "$d/many"
echo "warnings $?: $(grep -c ': warning: ' "$d/many") warnings, $(grep 'not shown' "$d/many")" >> "$d/got"
t_check compiler/option-numbers tests/compiler/option-numbers.ref "$d/got"

# One ABI per probe: tests/compiler/abi/ cases against small
# programs built here from tests/compiler/abi/ten.c with Debian's cross
# compilers (no libc: -nostdlib, so n32 needs no n32 C library): o32 by
# mipsel-linux-gnu-gcc, n32 and n64 by mips64el-linux-gnuabi64-gcc, each
# little- and big-endian (-EB).  "# args:" names @SYSROOT@; a good case
# must give its .plan and .explain, a bad one its .err, once the sysroot
# path and the file offsets (which follow the cross toolchain's layout;
# tests/usym.test.sh checks offsets) are taken out.
abi_norm() {
	sed -E "s|$ABI_SR|SYSROOT|g; s|(/bin/[a-z0-9]+):0x[0-9a-f]+ |\1:OFFSET |" "$1"
}
ABI_SR=$T_OUT/compiler/abi/sysroot
rm -rf "$T_OUT/compiler/abi" && mkdir -p "$ABI_SR/bin"
abi_cc() {	# OUT CC [FLAGS...]
	local out=$1
	shift
	"$@" -O2 -nostdlib -static tests/compiler/abi/ten.c -o "$ABI_SR/bin/$out" \
		>> "$T_OUT/compiler/abi/cc.log" 2>&1
}
if ! command -v mipsel-linux-gnu-gcc > /dev/null ||
   ! command -v mips64el-linux-gnuabi64-gcc > /dev/null; then
	t_skip compiler/abi "no mipsel-linux-gnu-gcc or mips64el-linux-gnuabi64-gcc (qemu-images/deps.sh build)"
elif ! { abi_cc o32el mipsel-linux-gnu-gcc && abi_cc o32be mipsel-linux-gnu-gcc -EB &&
	 abi_cc n32el mips64el-linux-gnuabi64-gcc -mabi=n32 &&
	 abi_cc n32be mips64el-linux-gnuabi64-gcc -mabi=n32 -EB &&
	 abi_cc n64el mips64el-linux-gnuabi64-gcc &&
	 abi_cc n64be mips64el-linux-gnuabi64-gcc -EB; }; then
	t_fail compiler/abi/build "the cross compilers failed" "$T_OUT/compiler/abi/cc.log"
else
	for bin in ./probecc ./probecc-asan; do
		tag=$(basename "$bin")/abi
		[ -x "$bin" ] || continue
		for f in tests/compiler/abi/good-*.probes; do
			base=${f%.probes} name=$tag/$(basename "$base")
			d=$T_OUT/compiler/$name && mkdir -p "$d"
			args=$(case_args "$f" | sed "s|@SYSROOT@|$ABI_SR|g")
			if ! "$bin" $args "$f" --plan "$d/plan.raw" 2> "$d/stderr" ||
			   ! "$bin" $args "$f" --explain > "$d/explain.raw" 2>> "$d/stderr"; then
				t_fail "$name" "refused" "$d/stderr"
				continue
			fi
			abi_norm "$d/plan.raw" > "$d/plan"
			abi_norm "$d/explain.raw" > "$d/explain"
			t_check "$name.plan" "$base.plan" "$d/plan"
			t_check "$name.explain" "$base.explain" "$d/explain"
		done
		abi_args() { case_args "$1" | sed "s|@SYSROOT@|$ABI_SR|g"; }
		t_bad_cases "$tag" "$bin" abi_args abi_norm tests/compiler/abi/bad-*.probes
	done
fi

# --vars offers only what the compiler takes: an o32 program's
# string behind a stack argument (tests/compiler/abi/vars.c, built -g)
# is listed under the 32-bit kernel, and under a 64-bit one named with
# the compiler's reason instead (vars-o32-ARCH.txt); every fetch a
# listing offers compiles as a uprobe field, and the C name it refuses
# is refused by the compiler too.
vars_norm() {
	sed -E "s|$ABI_SR|SYSROOT|g; s|0x[0-9a-f]{5,}|ADDR|g" "$1"
}
if [ -d "$ABI_SR" ] && mipsel-linux-gnu-gcc -g -O2 -nostdlib -static tests/compiler/abi/vars.c \
	-o "$ABI_SR/bin/vars32" >> "$T_OUT/compiler/abi/cc.log" 2>&1; then
	for bin in ./probecc ./probecc-asan; do
		[ -x "$bin" ] || continue
		for a in mipsel mips64el; do
			name=$(basename "$bin")/abi/vars-o32-$a
			d=$T_OUT/compiler/$name && mkdir -p "$d"
			"$bin" --vars /bin/vars32:str6 --sysroot "$ABI_SR" --arch $a > "$d/vars.raw" 2>&1
			vars_norm "$d/vars.raw" > "$d/vars"
			t_check "$name" tests/compiler/abi/vars-o32-$a.txt "$d/vars"
			# each offered fetch compiles
			bad=
			for fetch in $(sed -n 's/^  [a-z]* .* = \([^ ]*\)$/\1/p' "$d/vars.raw"); do
				printf 'uprobe v /bin/vars32:str6 { x = %s }\n' "$fetch" > "$d/one.probes"
				"$bin" "$d/one.probes" --sysroot "$ABI_SR" --arch $a > /dev/null 2>> "$d/offered.err" ||
					bad="$bad $fetch"
			done
			if [ -z "$bad" ]; then
				t_pass "$name/offered-compile"
			else
				t_fail "$name/offered-compile" "refused:$bad" "$d/offered.err"
			fi
		done
		# and the C name it does not offer is refused by the compiler
		printf 'uprobe v /bin/vars32:str6 { s = s5 }\n' > "$d/s5.probes"
		if "$bin" "$d/s5.probes" --sysroot "$ABI_SR" --arch mips64el > /dev/null 2> "$d/s5.err"; then
			t_fail "$(basename "$bin")/abi/vars-o32-mips64el/refused-compiles-not" "s5 compiled"
		else
			t_grep "$(basename "$bin")/abi/vars-o32-mips64el/refused-compiles-not" "$d/s5.err" \
				"keeps 4-byte pointers in memory"
		fi
	done
elif [ -d "$ABI_SR" ]; then
	t_fail compiler/abi/vars-build "mipsel-linux-gnu-gcc -g failed" "$T_OUT/compiler/abi/cc.log"
fi

# --cmdline --explain > fragment: the fragment alone on stdout, the
# explanation on stderr (as --explain alone prints it on stdout).
d=$T_OUT/compiler/explain-beside-cmdline && rm -rf "$d" && mkdir -p "$d"
./probecc examples/bond0.probes --cmdline > "$d/cmdline.want"
./probecc examples/bond0.probes --explain > "$d/explain.want"
./probecc examples/bond0.probes --cmdline --explain > "$d/cmdline" 2> "$d/explain"
if cmp -s "$d/cmdline.want" "$d/cmdline" && cmp -s "$d/explain.want" "$d/explain"; then
	t_pass compiler/explain-beside-cmdline-on-stderr
else
	t_fail compiler/explain-beside-cmdline-on-stderr "the fragment is not alone on stdout" "$d/cmdline"
fi

# --initrd: "dump console" gets no warning (the agent writes to the
# console, which outlives switch_root); a file does, with where the
# agent puts it (/.probecc/PATH, in the initramfs).
d=$T_OUT/compiler/overlay-sink && rm -rf "$d" && mkdir -p "$d"
printf 'kprobe netdev register_netdevice\ndump console\n' > "$d/console.probes"
printf 'kprobe netdev register_netdevice\ndump /probecc.dump\n' > "$d/file.probes"
./probecc "$d/console.probes" --initrd "$d/console.img" --cmdline > /dev/null 2> "$d/console.err"
rc1=$?
./probecc "$d/file.probes" --initrd "$d/file.img" --cmdline > /dev/null 2> "$d/file.err"
rc2=$?
if [ $rc1 = 0 ] && [ $rc2 = 0 ] && ! grep -q warning "$d/console.err" &&
   grep -q 'warning: dump /probecc.dump: in overlay mode the agent writes the file under its own root, /.probecc/probecc.dump, in the initramfs' "$d/file.err"; then
	t_pass compiler/overlay-sink-warning
else
	t_fail compiler/overlay-sink-warning "exit $rc1/$rc2" "$d/console.err" "$d/file.err"
fi

# Stripped programs named through their separate debug files
# (tests/compiler/debugfile/): tests/ustack's chain.c (static, -O2; -O0
# for another build's debug file) and qsort.c (dynamic: the loader and
# libc copied in as tests/ustack.test.sh does), built for x86_64 (gcc,
# debug files by build-id) and mipsel (mipsel-linux-gnu-gcc, by
# .gnu_debuglink), stripped as Debian's -dbgsym packages ship them
# ("objcopy --only-keep-debug", "strip --strip-all").  Sysroots with a
# missing debug file, another build's at the build-id path, one whose
# CRC-32 differs and one linked to another build (CRC holds, build-id
# not).  Goldens with the sysroot, build-ids, CRCs and addresses taken
# out; the file offsets each good plan gives are checked against nm on
# the unstripped program and readelf's segments.
DF=$T_OUT/compiler/debugfile
df_norm() {
	sed -E -e "s|$DF/sr|SYSROOT|g" \
		-e 's|\.build-id/[0-9a-f]{2}/[0-9a-f]{30,}\.debug|.build-id/XX/ID.debug|g' \
		-e 's/(build-id|program.s) [0-9a-f]{32,}/\1 ID/g' \
		-e 's/(CRC-32|gnu_debuglink.s) 0x[0-9a-f]{8}/\1 0xCRC/g' \
		-e 's|(/bin/[a-z0-9]+):0x[0-9a-f]+|\1:OFFSET|g' \
		-e 's/ at 0x[0-9a-f]+ (from|->) / at ADDR \1 /; s/file offset 0x[0-9a-f]+/file offset OFFSET/' "$1"
}
df_args() { case_args "$1" | sed "s|@SYSROOT@|$DF/sr|g"; }
# df_strip PROG ROOT NAME HOW [X-]: PROG stripped to ROOT/bin/NAME, its
# debug file by build-id or .gnu_debuglink ("link")
df_strip() {
	local prog=$1 root=$2 name=$3 how=$4 x=${5:-} id
	mkdir -p "$root/bin" "$root/usr/lib/debug/bin" && root=$(cd "$root" && pwd)
	# (binutils warns of the notes it keeps without their segment's bytes)
	${x}objcopy --only-keep-debug "$prog" "$root/$name.debug.tmp" 2> /dev/null &&
	${x}strip --strip-all -o "$root/bin/$name" "$prog" || return 1
	if [ "$how" = buildid ]; then
		id=$(readelf -n "$prog" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
		[ -n "$id" ] && mkdir -p "$root/usr/lib/debug/.build-id/${id:0:2}" &&
		mv "$root/$name.debug.tmp" "$root/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
	else
		mv "$root/$name.debug.tmp" "$root/usr/lib/debug/bin/$name.debug" &&
		(cd "$root/usr/lib/debug/bin" && ${x}objcopy --add-gnu-debuglink=$name.debug "$root/bin/$name")
	fi
}
df_build() {	# ARCH CC X HOW HOSTLIB=TARGETLIB...
	local a=$1 cc=$2 x=$3 how=$4 r=$DF/sr/$1 b=$DF/build/$1
	shift 4
	mkdir -p "$b" && rm -rf "$DF/sr/$a"* &&
	$cc -static -g -O2 -o "$b/chain" tests/ustack/chain.c &&
	$cc -static -g -O0 -o "$b/chain-O0" tests/ustack/chain.c &&
	$cc -g -O2 -o "$b/qsort" tests/ustack/qsort.c &&
	df_strip "$b/chain" "$r" chain $how $x && df_strip "$b/qsort" "$r" qsort $how $x &&
	for l in "$@"; do	# HOSTPATH=TARGETPATH
		mkdir -p "$r$(dirname "${l#*=}")" && cp -L "${l%=*}" "$r${l#*=}" || return 1
	done &&
	mkdir -p "$r-nodebug/bin" && cp "$r/bin/chain" "$r-nodebug/bin/" &&
	df_strip "$b/chain-O0" "$b/O0" chain $how $x || return 1
	if [ $how = buildid ]; then
		# -O0's debug file at -O2's build-id path
		mkdir -p "$r-wrong/bin" && cp "$r/bin/chain" "$r-wrong/bin/" &&
		cp -r "$r/usr" "$r-wrong/" &&
		for f in "$r-wrong"/usr/lib/debug/.build-id/*/*.debug; do
			cmp -s "$f" "$(ls "$b"/O0/usr/lib/debug/.build-id/*/*.debug)" ||
			cp "$(ls "$b"/O0/usr/lib/debug/.build-id/*/*.debug)" "$f"
		done
	else
		# -O0's debug file where -O2's .gnu_debuglink points: another CRC-32
		mkdir -p "$r-crc/bin" "$r-crc/usr/lib/debug/bin" && cp "$r/bin/chain" "$r-crc/bin/" &&
		cp "$b/O0/usr/lib/debug/bin/chain.debug" "$r-crc/usr/lib/debug/bin/" &&
		# -O2 stripped and linked to -O0's debug file: the CRC-32 holds
		mkdir -p "$r-wrongid/bin" "$r-wrongid/usr/lib/debug/bin" &&
		cp "$b/O0/usr/lib/debug/bin/chain.debug" "$r-wrongid/usr/lib/debug/bin/" &&
		${x}strip --strip-all -o "$r-wrongid/bin/chain" "$b/chain" &&
		(cd "$r-wrongid/usr/lib/debug/bin" && ${x}objcopy --add-gnu-debuglink=chain.debug "$r-wrongid/bin/chain")
	fi
}
rm -rf "$DF" && mkdir -p "$DF"
if ! command -v mipsel-linux-gnu-gcc > /dev/null; then
	t_skip compiler/debugfile "no mipsel-linux-gnu-gcc (qemu-images/deps.sh build)"
elif ! { df_build x86_64 gcc "" buildid /lib64/ld-linux-x86-64.so.2=/lib64/ld-linux-x86-64.so.2 \
		/lib/x86_64-linux-gnu/libc.so.6=/lib/x86_64-linux-gnu/libc.so.6 &&
	 df_build mipsel mipsel-linux-gnu-gcc mipsel-linux-gnu- link \
		/usr/mipsel-linux-gnu/lib/ld.so.1=/lib/ld.so.1 /usr/mipsel-linux-gnu/lib/libc.so.6=/lib/libc.so.6; } \
	> "$DF/build.log" 2>&1; then
	t_fail compiler/debugfile/build "a compiler, objcopy or strip failed" "$DF/build.log"
else
	for bin in ./probecc ./probecc-asan; do
		tag=$(basename "$bin")/debugfile
		[ -x "$bin" ] || continue
		for f in tests/compiler/debugfile/good-*.probes; do
			base=${f%.probes} name=$tag/$(basename "$base") a=${base##*good-}
			d=$T_OUT/compiler/$name && mkdir -p "$d"
			if ! "$bin" $(df_args "$f") "$f" --plan "$d/plan.raw" 2> "$d/stderr" ||
			   ! "$bin" $(df_args "$f") "$f" --explain > "$d/explain.raw" 2>> "$d/stderr"; then
				t_fail "$name" "refused" "$d/stderr"
				continue
			fi
			df_norm "$d/plan.raw" > "$d/plan"
			df_norm "$d/explain.raw" > "$d/explain"
			t_check "$name.plan" "$base.plan" "$d/plan"
			t_check "$name.explain" "$base.explain" "$d/explain"
			want=$(printf '%s\n' "/bin/chain:$(elf_foff "$DF/build/$a/chain" probe_me)" \
				"/bin/chain:$(elf_foff "$DF/build/$a/chain" caller_three)" \
				"/bin/qsort:$(elf_foff "$DF/build/$a/qsort" probe_me)")
			got=$(grep -o '/bin/[a-z]*:0x[0-9a-f]*' "$d/plan.raw" | sort -u)
			if [ "$(sort -u <<< "$want")" = "$got" ]; then
				t_pass "$name.offsets"
			else
				t_fail "$name.offsets" "plan $(echo $got), nm and readelf $(echo $want)"
			fi
		done
		t_bad_cases "$tag" "$bin" df_args df_norm tests/compiler/debugfile/bad-*.probes
	done
fi

# libc's static functions name frames only through its debug file: with
# the host's libc6-dbg file at its build-id path in a copy of the x86_64
# sysroot, 'stack has msort_with_tmp' (libc's msort_with_tmp.part.0, a
# GCC clone, as the report matches it) compiles; without it, it is
# refused with libc among the files named.
id=$(readelf -n /lib/x86_64-linux-gnu/libc.so.6 2> /dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
if [ -d "$DF/sr/x86_64" ] && [ -n "$id" ] && [ -r "$dbg" ]; then
	# copies, not links to the host's files: a sysroot's absolute links
	# point into the sysroot (facts/sysroot.c)
	d=$DF/libc-dbg && rm -rf "$d" && cp -a "$DF/sr/x86_64" "$d" &&
	mkdir -p "$d/usr/lib/debug/.build-id/${id:0:2}" && cp "$dbg" "$d$dbg"
	printf '%s\n' 'uprobe q /bin/qsort:probe_me { stack }' 'expect q stack has msort_with_tmp' > "$DF/msort.probes"
	./probecc "$DF/msort.probes" --arch x86_64 --sysroot "$d" --explain > "$DF/msort.dbg" 2>&1
	rc_dbg=$?
	./probecc "$DF/msort.probes" --arch x86_64 --sysroot "$DF/sr/x86_64" > /dev/null 2> "$DF/msort.nodbg"
	rc_nodbg=$?
	if [ $rc_dbg = 0 ] && grep -q "libc.so.6 (DT_NEEDED; stripped, its debug file $d$dbg by build-id)" "$DF/msort.dbg" &&
	   [ $rc_nodbg = 1 ] && grep -q 'no symbol "msort_with_tmp" in .*/lib/x86_64-linux-gnu/libc.so.6' "$DF/msort.nodbg"; then
		t_pass compiler/debugfile/libc-debug-file-names-msort
	else
		t_fail compiler/debugfile/libc-debug-file-names-msort "exit $rc_dbg with, $rc_nodbg without" \
			"$DF/msort.dbg" "$DF/msort.nodbg"
	fi
else
	t_skip compiler/debugfile/libc-debug-file-names-msort "no libc6-dbg file of the host's libc.so.6 ($dbg)"
fi
