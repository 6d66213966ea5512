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
# must not warn about the sampled registers.  The same boots run the
# dynamic programs (qsort.c through libc, dlopen.c through a library it
# dlopen()s), uretprobes with 'stack' and a stripped copy of /bin/chain
# with its debug file (tests/ustack/check.sh dyn_check).  First, on the host, the
# agent's register mask of each arch (riscv64 too) against the kernel's
# perf_regs (tests/ustack/regs-mask.sh).  The mipsel, x86_64 and arm64
# boots also run tests/ustack/chain.c -DCHAIN_SYNC (/bin/ksync) under a kprobe's "stack user"
# (ksync_check below).
# Six boots (one per target, and a mipsel program without unwind tables),
# ~2-3 min warm (the kernels are the boot groups').
# Run alone: bash tests/ustack.test.sh (through tests/run-tests.sh);
# US_TARGETS="mipsel arm64" picks targets (riscv64: make check-riscv64,
# Debian trixie's kernel; not in the default list).
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

# Dynamic programs, a dlopen'ed library, uretprobes and a stripped
# program in the same boots (tests/ustack/check.sh ustack_sysroot,
# dyn_check): /bin/qsort (qsort.c: probe_me <- compare <- libc's
# msort_with_tmp <- qsort_r <- sort_two <- main) and /bin/dlopen
# (dlopen.c: probe_me called through /lib/libuplugin.so, which it
# dlopen()s), with the loader and the cross toolchain's libc.so.6: the
# agent reports every executable mmap (PERF_RECORD_MMAP2, "perf-mmap"
# lines), dlopen's too, and the report unwinds across the objects at
# their load bias (libdwfl on x86_64 and arm64, the own CFA runner on
# MIPS); a uretprobe on each probe_me with 'stack' (ret.probes); and
# /bin/chain-s, /bin/chain stripped with its debug file by build-id
# (x86_64, loongson3, arm64) or .gnu_debuglink (mipsel, loongson3-o32).
# No boot added (the stripped program's own mipsel and x86_64 boots are
# gone into these): the images grow by the loader and libc (~2 MB).
# A kprobe's "stack user" (tests/ustack/chain.c -DCHAIN_SYNC and ksync.probes, in the
# mipsel, x86_64 and arm64 boots): ksys_sync's hits from /bin/ksync and
# /bin/ksync-O0 have the kernel frames, ksys_sync first, then the system
# call's entry (kernel_entry WANT), and below them the task's user
# frames, unwound through the task's perf-mmap lines: sync in libc (the
# pc after the syscall instruction), then probe_me, caller_three,
# caller_two, caller_one, main, to the entry point's function.  On MIPS
# a system call's entry saves no $30 (SAVE_SOME), so at -O0, whose CFA is
# $fp, probe_me's caller is found by prologue analysis, "(heuristic)",
# which restores $fp for the CFI of the frames above.
# kernel_frames PROBE LOG: the kernel frames of PROBE's first stack in
# the report's text, one a line, without the counts
kernel_frames() {
	awk -v p="$1" '$1 == p && $3 == "hit(s)," { in_p = 1; next }
		in_p && /^    callers/ { on = 1; next }
		on && /^      / { $1 = ""; sub(/^ /, ""); print; next }
		on { exit }' "$2"
}

# ksync_want PROG HOW: the user frames of PROG up to main, offsets
# dropped; HOW is how caller_three was found (from probe_me's frame)
ksync_want() {
	echo "sync [$1] (pc)"
	echo "probe_me [$1] (cfi)"
	echo "caller_three [$1] ($2)"
	for c in caller_two caller_one main; do
		echo "$c [$1] (cfi)"
	done
}

# ksync_check NAME ARCH DIR
ksync_check() {
	local name=$1 arch=$2 d=$3 prog how entry caller
	# the caller of ksys_sync and the system call's entry, as each
	# kernel's perf callchain gives them: arm64's walks frame records
	# from the kprobe's pc, and at ksys_sync's first instruction its
	# caller's record is not pushed yet, so __arm64_sys_sync is missing
	# (the kernel's unwinder; the user stack's direct caller comes from
	# x30, never lost)
	case $arch in
	x86_64) caller=__x64_sys_sync entry='entry_SYSCALL_64_after_hwframe' ;;
	arm64) caller=invoke_syscall entry='el0t_64_sync' ;;
	*) caller=sys_sync entry='syscall_common' ;;
	esac
	kernel_frames ksync "$d/out/run.log" > "$d/ksync.kframes"
	if head -1 "$d/ksync.kframes" | grep -Eq '^ksys_sync\+0x[0-9a-f]+$' &&
	   sed -n 2p "$d/ksync.kframes" | grep -Eq "^$caller\+0x" &&
	   tail -1 "$d/ksync.kframes" | grep -Eq "^$entry\+0x"; then
		t_pass $name/kernel-frames
	else
		t_fail $name/kernel-frames "$(tr '\n' '|' < "$d/ksync.kframes")" "$d/out/run.log"
	fi
	user_frames ksync "$d/out/run.log" > "$d/ksync.uframes"
	for prog in /bin/ksync /bin/ksync-O0; do
		how=cfi
		[ $prog = /bin/ksync-O0 ] && [ $arch = mipsel ] && how=heuristic
		grep -F "[$prog]" "$d/ksync.uframes" > "$d/ksync.$(basename $prog).frames"
		ksync_want $prog $how > "$d/ksync.want"
		sed -E 's/\+0x[0-9a-f]+ \[/ [/' "$d/ksync.$(basename $prog).frames" | head -6 > "$d/ksync.got"
		if cmp -s "$d/ksync.want" "$d/ksync.got" &&
		   tail -1 "$d/ksync.$(basename $prog).frames" | grep -Eq "^_?_start\+0x[0-9a-f]+ \[$prog\] \(cfi\)$"; then
			t_pass $name/$(basename $prog)/exact-chain
		else
			t_fail $name/$(basename $prog)/exact-chain "$(tr '\n' '|' < "$d/ksync.$(basename $prog).frames")" "$d/out/run.log"
		fi
	done
	t_grep $name/armed "$d/out/ttyS1.raw" \
		$'^item\tksync\tarmed\tperf\tperf: [0-9]+ cpus, id [0-9]+, kernel callchain, user stack$'
	# run-probes' folded stacks: root first, the user frames (main ... sync) then the kernel's
	if grep -Eq ";main;caller_one;caller_two;caller_three;probe_me;sync;$entry[^;]*(;.*)?;$caller;ksys_sync;ksync [0-9]+\$" "$d/out/stacks.folded"; then
		t_pass $name/folded-user-then-kernel
	else
		t_fail $name/folded-user-then-kernel "no root-first user-then-kernel stack of ksync" "$d/out/stacks.folded"
	fi
}

us_all="mipsel x86_64 loongson3 loongson3-o32 arm64"
t_left_out ustack US_TARGETS $us_all
for arch in ${US_TARGETS:-$us_all}; do
	d=$us_dir/$arch && mkdir -p "$d"
	case $arch in
	x86_64 | loongson3 | arm64) strip=build-id ;;
	*) strip=debuglink ;;
	esac
	if ! ustack_sysroot $arch "$d" "$strip"; then
		t_fail ustack/$arch/build "a compile, the libraries' copy or the strip failed" "$d/cc.err"
		continue
	fi
	case $arch in
	mipsel | x86_64 | arm64)
		# a kprobe's "stack user" in the same boot: sync(2) from /bin/ksync, /bin/ksync-O0
		ustack_tools $arch
		if ! $cc -static -g -O2 -DCHAIN_SYNC -o "$d/sysroot/bin/ksync" tests/ustack/chain.c 2>> "$d/cc.err" ||
		   ! $cc -static -g -O0 -DCHAIN_SYNC -o "$d/sysroot/bin/ksync-O0" tests/ustack/chain.c 2>> "$d/cc.err"; then
			t_fail ustack/$arch/build "$cc -DCHAIN_SYNC failed on chain.c" "$d/cc.err"
			continue
		fi
		cat tests/ustack/ksync.probes >> "$d/probes" ;;
	esac
	run_probes_oops ustack/$arch/boot "$d/out" --arch $arch --rc tests/ustack/rc-chain \
		--sysroot "$d/sysroot" --report "$d/probes" || continue
	ustack_check ustack/$arch "$d/out/run.log" "$d/out/ttyS1.raw" "$d/out/console.log" "$d"
	t_grep ustack/$arch/expectations-hold "$d/out/run.log" '^([1-9][0-9]*) of \1 expectation\(s\) hold$'
	cat "$d/out"/dump[0-9]* > "$d/dumps" 2> /dev/null
	dyn_check ustack/$arch $arch "$d" "$d/out/ttyS1.raw" "$d/dumps" "$d/out/plan"
	[ ! -e "$d/sysroot/bin/ksync" ] || ksync_check ustack/$arch/ksync $arch "$d"
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

# Stripped programs with a separate debug file, as Debian's -dbgsym
# packages install them: the program in the sysroot (and the boot) is
# "strip --strip-all"ed (no .symtab, no .debug_frame: mipsel's CFI of C
# code was only there), its "objcopy --only-keep-debug" file goes where
# the report looks: by build-id on x86_64
# (/usr/lib/debug/.build-id/xx/rest.debug), by .gnu_debuglink on mipsel
# (/usr/lib/debug/bin/chain.debug, CRC-32 checked).  The chain must be
# exact and named.  Here on the stored real dumps of bench/ustack/
# (chain.c as it was then: three callers; no boot; the uprobe at its
# file offset); booted as /bin/chain-s in each target's boot above, its
# uprobe written /bin/chain-s:probe_me and its 'stack has' names
# checked: the compiler reads the same debug file (facts/debugfile.c).

# first_frames N REPORT HOW: probe_me's first N user frames of REPORT,
# the callers' "+0xOFF [/bin/chain]" dropped before "(HOW)"
first_frames() {
	user_frames probe_me "$2" | head -$1 |
		sed -E "s/\+0x[0-9a-f]+ \[\/bin\/chain\] \($3\)$/ ($3)/"
}

# want_frames HOW CALLER...: the frames expected, innermost first
want_frames() {
	local how=$1 c
	shift
	echo "probe_me+0x0 [/bin/chain] (pc)"
	for c; do
		echo "$c ($how)"
	done
}

# rc without /bin/chain-O0, probes of /bin/chain's probe_me at PROBE (and the chain's 'stack has')
chain_only() {
	grep -v chain-O0 tests/ustack/rc-chain > "$1/rc"
	printf '%s\n' "uprobe probe_me /bin/chain:$2 {" '    x = arg1:s32' '    stack' '}' \
		'dump /dev/ttyS1' 'window 4s' 'expect probe_me.x == 41' > "$1/chain.probes"
	[ -z "$3" ] || printf '%s\n' 'expect probe_me stack has caller_three' \
		'expect probe_me stack has caller_two' 'expect probe_me stack has caller_one' \
		'expect probe_me stack has main' >> "$1/chain.probes"
}

for arch in mipsel x86_64; do
	d=$us_dir/stripped-stored-$arch && mkdir -p "$d"
	xz -dc bench/ustack/$arch-chain.xz > "$d/full"
	how=debuglink && [ $arch = mipsel ] || how=build-id
	if ! strip_into "$d/full" "$d/sysroot" $arch chain $how; then
		t_fail ustack/stripped-stored/$arch/strip "objcopy or strip failed"
		continue
	fi
	./probecc report --sysroot "$d/sysroot" --probes bench/ustack/chain.probes \
		bench/ustack/$arch.dump2 > "$d/report" 2>&1
	first_frames 4 "$d/report" cfi > "$d/chain.got"
	want_frames cfi caller_two caller_one main > "$d/chain.want"
	if cmp -s "$d/chain.want" "$d/chain.got" && ! grep -q '\[user stack cut' "$d/report"; then
		t_pass ustack/stripped-stored/$arch/exact-chain
	else
		t_fail ustack/stripped-stored/$arch/exact-chain "$(tr '\n' '|' < "$d/chain.got")" "$d/report"
	fi
	# without the debug file: mipsel has no CFI left, x86_64 no names: said, never a wrong chain
	rm -rf "$d/sysroot/usr/lib/debug"
	./probecc report --sysroot "$d/sysroot" --probes bench/ustack/chain.probes \
		bench/ustack/$arch.dump2 > "$d/report-nodebug" 2>&1
	case $arch in
	mipsel) said='\[user stack cut: no CFI holds 0x[0-9a-f]* (.eh_frame, .debug_frame of .*, no separate debug file)' ;;
	x86_64) said='^        1 0x[0-9a-f]* (cfi)$' ;;
	esac
	if grep -q "$said" "$d/report-nodebug" && grep -q 'FAIL  expect probe_me stack has caller_two' "$d/report-nodebug"; then
		t_pass ustack/stripped-stored/$arch/no-debug-file-said
	else
		t_fail ustack/stripped-stored/$arch/no-debug-file-said "not said" "$d/report-nodebug"
	fi
done

# A kprobe's "stack user" sample, on the host: the stored real samples
# of bench/ustack/ written as a kprobe's (the kernel callchain after the
# stack, docs/plan.md "perf-user"), with a perf-mmap line placing
# /bin/chain's code where the kernel mapped it: no uprobe names the
# program, the report finds it through the task's mappings and unwinds
# the same exact chain, under the kernel frames.  Without the mapping the
# stack says it was not unwound and why; a kernel thread's sample (ABI 0:
# no registers, no stack, as perf_sample_regs_user() gives it) says "no
# user context".
for arch in mipsel x86_64; do
	d=$us_dir/kstack-stored-$arch && mkdir -p "$d/sysroot/bin"
	xz -dc bench/ustack/$arch-chain.xz > "$d/sysroot/bin/chain"
	case $arch in
	mipsel) map=$'perf-mmap\t1000\t81\t400000\t8a000\t0\t/bin/chain' k=$'\t81f70400 81f70500' ;;
	x86_64) map=$'perf-mmap\t1000\t86\t401000\t78000\t1000\t/bin/chain' k=$'\tffffffff97e01000 ffffffff97e02000' ;;
	esac
	awk -v map="$map" -v k="$k" '/^perf-user\t/ { print map; print $0 k; next } { print }' \
		bench/ustack/$arch.dump2 > "$d/kernel.dump"
	grep -v '^perf-mmap' "$d/kernel.dump" > "$d/nomap.dump"
	awk -F '\t' -v OFS='\t' '$1 == "perf-user" { $7 = 0; $9 = "-"; $10 = 0; $11 = "-" } { print }' \
		"$d/kernel.dump" > "$d/kthread.dump"
	./probecc report --sysroot "$d/sysroot" --probes bench/ustack/chain.probes \
		--folded "$d/folded" "$d/kernel.dump" > "$d/report" 2>&1
	first_frames 4 "$d/report" cfi > "$d/chain.got"
	want_frames cfi caller_two caller_one main > "$d/chain.want"
	if cmp -s "$d/chain.want" "$d/chain.got" && ! grep -q '\[user stack' "$d/report" &&
	   [ "$(kernel_frames probe_me "$d/report" | wc -l)" = 2 ] &&
	   grep -q ';main;caller_one;caller_two;probe_me;[^;]*;[^;]*;probe_me 1$' "$d/folded"; then
		t_pass ustack/kstack-stored/$arch/exact-chain
	else
		t_fail ustack/kstack-stored/$arch/exact-chain "$(tr '\n' '|' < "$d/chain.got")" "$d/report"
	fi
	./probecc report --sysroot "$d/sysroot" --probes bench/ustack/chain.probes \
		"$d/nomap.dump" > "$d/report-nomap" 2>&1
	t_grep ustack/kstack-stored/$arch/no-mapping-said "$d/report-nomap" \
		"\[user stack not unwound: no perf-mmap line places 0x[0-9a-f]+ in pid [0-9]+ \(its program was mapped before the agent's perf events opened\)\]"
	./probecc report --sysroot "$d/sysroot" --probes bench/ustack/chain.probes \
		"$d/kthread.dump" > "$d/report-kthread" 2>&1
	./probecc report --sysroot "$d/sysroot" --probes bench/ustack/chain.probes \
		--folded "$d/folded-kthread" "$d/kthread.dump" > /dev/null 2>&1
	if grep -q '\[user stack absent: no user context (the hit was in a kernel thread)\]' "$d/report-kthread" &&
	   grep -Eq '^[^;]+;[^;]+;probe_me 1$' "$d/folded-kthread"; then
		t_pass ustack/kstack-stored/$arch/kernel-thread-said
	else
		t_fail ustack/kstack-stored/$arch/kernel-thread-said "not said, or the folded stack is not the kernel frames alone" "$d/report-kthread"
	fi
done

# No CFI at all for the program's own code on mipsel: the frames come
# from prologue analysis (the kernel's MIPS unwinder's method), each
# marked "(heuristic)" in the text, JSON, folded and Perfetto outputs.
# First the stored real mipsel dump with .debug_frame removed from its
# program, then a boot of the program built without unwind tables, its
# 'stack has' expectations holding on the heuristic frames.
d=$us_dir/nocfi-stored && mkdir -p "$d/sysroot/bin"
xz -dc bench/ustack/mipsel-chain.xz > "$d/full"
if mipsel-linux-gnu-objcopy --remove-section .debug_frame "$d/full" "$d/sysroot/bin/chain"; then
	./probecc report --sysroot "$d/sysroot" --probes bench/ustack/chain.probes \
		--json "$d/report.json" --folded "$d/folded" --perfetto "$d/perfetto.json" \
		bench/ustack/mipsel.dump2 > "$d/report" 2>&1
	first_frames 4 "$d/report" heuristic > "$d/chain.got"
	want_frames heuristic caller_two caller_one main > "$d/chain.want"
	if cmp -s "$d/chain.want" "$d/chain.got" && grep -q ' __start+0x50 \[/bin/chain\] (cfi)$' "$d/report"; then
		t_pass ustack/nocfi-stored/exact-chain
	else
		t_fail ustack/nocfi-stored/exact-chain "$(tr '\n' '|' < "$d/chain.got")" "$d/report"
	fi
	if grep -q ';main (heuristic);caller_one (heuristic);caller_two (heuristic);probe_me;probe_me 1$' "$d/folded" &&
	   grep -q 'caller_two+0x24 \[/bin/chain\] (heuristic)' "$d/report.json" &&
	   grep -q '"name": "caller_one (heuristic)"' "$d/perfetto.json"; then
		t_pass ustack/nocfi-stored/marked-everywhere
	else
		t_fail ustack/nocfi-stored/marked-everywhere "a heuristic frame unmarked" "$d/folded"
	fi
else
	t_fail ustack/nocfi-stored/objcopy "mipsel-linux-gnu-objcopy failed"
fi

d=$us_dir/nocfi-mipsel && mkdir -p "$d/sysroot/bin"
if mipsel-linux-gnu-gcc -static -g0 -O2 -fno-unwind-tables -fno-asynchronous-unwind-tables \
	-o "$d/sysroot/bin/chain" tests/ustack/chain.c 2> "$d/cc.err" &&
   off=$(probe_off "$d/sysroot/bin/chain") &&
   ! mipsel-linux-gnu-readelf -wf "$d/sysroot/bin/chain" 2> /dev/null | grep -q "pc=0*$(printf %x $((off + 0x400000)))"; then
	chain_only "$d" probe_me stack-has
	if run_probes_oops ustack/nocfi/mipsel/boot "$d/out" --arch mipsel --rc "$d/rc" \
		--sysroot "$d/sysroot" --report "$d/chain.probes"; then
		first_frames 5 "$d/out/run.log" heuristic > "$d/chain.got"
		want_frames heuristic caller_three caller_two caller_one main > "$d/chain.want"
		if cmp -s "$d/chain.want" "$d/chain.got" && ! grep -q '\[user stack cut' "$d/out/run.log" &&
		   grep -q '^5 of 5 expectation(s) hold' "$d/out/run.log"; then
			t_pass ustack/nocfi/mipsel/exact-chain
		else
			t_fail ustack/nocfi/mipsel/exact-chain "$(tr '\n' '|' < "$d/chain.got")" "$d/out/run.log"
		fi
	fi
else
	t_fail ustack/nocfi/mipsel/build "the program without unwind tables has CFI or did not build" "$d/cc.err"
fi
