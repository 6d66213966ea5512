# Real boots: a uprobe's user call stack without frame pointers.  A
# program of our own (tests/ustack/chain.c: probe_me <- caller_three <-
# caller_two <- caller_one <- main, static, -g) built -O2 (/bin/chain)
# and -O0 (/bin/chain-O0), both run in one boot per target: Malta mipsel
# (o32), Loongson-3 n64 (loongson3) and o32 (loongson3-o32, an o32
# program under the 64-bit kernel), x86_64 and arm64; big-endian n64 is
# tests/kernel/mips64be.sh's (make check-kernel: its kernel is built).
# The agent samples the user registers and 8 KiB of user stack at each
# probe_me with perf, and the report unwinds them with the program's CFI
# from --sysroot: its own CFA programs on MIPS (elfutils 0.188 has no
# MIPS backend), libdwfl on x86_64 and arm64.  The chain must be exact,
# innermost first, the direct caller (from $31, x30 or the slot at %rsp
# at the first instruction) included, every caller marked as found with
# CFI, the walk must reach the entry point's function, and the kernel
# must not warn about the sampled registers.  First, on the host, the
# agent's register mask of each arch (riscv64 too) against the kernel's
# perf_regs (tests/ustack/regs-mask.sh).
# Five boots, ~1.5-2 min warm (the kernels are the boot groups').
# Run alone: bash tests/ustack.test.sh (through tests/run-tests.sh);
# US_TARGETS="mipsel arm64" picks targets.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

us_dir=$T_OUT/ustack
rm -rf "$us_dir" && mkdir -p "$us_dir"

. tests/ustack/check.sh

# The agent's user-register mask of every arch it is built for (riscv64
# too: no boot target has it) against Debian's linux-source-6.1: the
# registers the kernel samples without refusing the event or warning
# (tests/ustack/regs-mask.sh).  The 8 files from the source tarball (its
# arch/ comes first: ~3 s).
ks=$us_dir/ksrc && mkdir -p "$ks"
deb=$(bootconfig/kernel-tool > /dev/null 2> "$ks.err" &&
      ls "${PROBECC_CACHE:-$HOME/.cache/probecc}"/src/linux-source-6.1_*_all.deb | sort -V | tail -1)
files=$(for k in mips x86 arm64 riscv; do
	echo linux-source-6.1/arch/$k/include/uapi/asm/perf_regs.h linux-source-6.1/arch/$k/kernel/perf_regs.c
done)
[ -n "$deb" ] && dpkg-deb --fsys-tarfile "$deb" 2> /dev/null |
	tar -xO --wildcards '*/linux-source-6.1.tar.xz' 2> /dev/null |
	tar -xJ -C "$ks" --occurrence=1 $files 2>> "$ks.err"
for arch in mipsel mips64el mips64 x86_64 arm64 riscv64; do
	case $arch in
	mipsel) cc=mipsel-linux-gnu-gcc ;;
	mips64el) cc=mips64el-linux-gnuabi64-gcc ;;
	mips64) cc=mips64-linux-gnuabi64-gcc ;;
	x86_64) cc=gcc ;;
	arm64) cc=aarch64-linux-gnu-gcc ;;
	riscv64) cc=riscv64-linux-gnu-gcc ;;
	esac
	if [ "$(cd "$ks" && ls $files 2> /dev/null | wc -l)" != 8 ]; then
		t_fail ustack/regs-mask/$arch "linux-source-6.1's perf_regs files not read" "$ks.err"
	elif tests/ustack/regs-mask.sh "$ks/linux-source-6.1" $arch $cc > "$ks/$arch" 2>&1; then
		t_pass ustack/regs-mask/$arch
	else
		t_fail ustack/regs-mask/$arch "$(tr '\n' ' ' < "$ks/$arch")"
	fi
done

for arch in ${US_TARGETS:-mipsel x86_64 loongson3 loongson3-o32 arm64}; do
	d=$us_dir/$arch && mkdir -p "$d/sysroot/bin"
	case $arch in
	mipsel | loongson3-o32) cc=mipsel-linux-gnu-gcc ;;
	loongson3) cc=mips64el-linux-gnuabi64-gcc ;;
	x86_64) cc=gcc ;;
	arm64) cc=aarch64-linux-gnu-gcc ;;
	esac
	if ! $cc -static -g -O2 -o "$d/sysroot/bin/chain" tests/ustack/chain.c 2> "$d/cc.err" ||
	   ! $cc -static -g -O0 -o "$d/sysroot/bin/chain-O0" tests/ustack/chain.c 2>> "$d/cc.err"; then
		t_fail ustack/$arch/build "$cc failed" "$d/cc.err"
		continue
	fi
	run_probes_oops ustack/$arch/boot "$d/out" --arch $arch --rc tests/ustack/rc-chain \
		--sysroot "$d/sysroot" --report tests/ustack/chain.probes || continue
	ustack_check ustack/$arch "$d/out/run.log" "$d/out/ttyS1.raw" "$d/out/console.log" "$d"
	# without --sysroot the stack is not unwound and says so (x86_64 keeps
	# the kernel's own frame-pointer frames, as addresses); 'stack has' fails
	./probecc report --probes tests/ustack/chain.probes "$d/out/ttyS1.raw" > "$d/nosysroot" 2>&1
	rc=$?
	case $arch in
	x86_64) said='^      1 <0000000000[0-9a-f]*>$' ;;
	*) said='\[user stack not unwound: --sysroot DIR gives the program' ;;
	esac
	if [ $rc -ne 0 ] && grep -q "$said" "$d/nosysroot" &&
	   grep -q 'FAIL  expect probe_me stack has caller_two' "$d/nosysroot"; then
		t_pass ustack/$arch/no-sysroot-said
	else
		t_fail ustack/$arch/no-sysroot-said "exit $rc" "$d/nosysroot"
	fi
done
