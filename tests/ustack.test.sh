# Real boots: a uprobe's user call stack without frame pointers.  A
# program of our own (tests/ustack/chain.c: probe_me <- caller_two <-
# caller_one <- main, -O2 -g, static) runs on Malta mipsel and x86_64;
# the agent samples the user registers and 8 KiB of user stack at
# probe_me with perf, and the report unwinds them with the program's CFI
# from --sysroot: its own CFA programs on MIPS (elfutils 0.188 has no
# MIPS backend), libdwfl on x86_64.  The chain must be exact, innermost
# first, the direct caller (from $31 / the slot at %rsp at the first
# instruction) included, every caller marked as found with CFI.
# Two boots, ~1.5 min warm (the kernels are the boot group's).
# Run alone: bash tests/ustack.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

us_dir=$T_OUT/ustack
rm -rf "$us_dir" && mkdir -p "$us_dir"

# user_chain LOG: the first four user frames of the report's text, one a line
user_chain() {
	awk '/user callers/ { on = 1; next }
		on && /^      / { print $2, $3, $4; if (++n == 4) exit; next }
		on { exit }' "$1"
}

for arch in mipsel x86_64; do
	d=$us_dir/$arch && mkdir -p "$d/sysroot/bin"
	case $arch in
	mipsel) cc=mipsel-linux-gnu-gcc ;;
	x86_64) cc=gcc ;;
	esac
	if ! $cc -static -g -O2 -o "$d/sysroot/bin/chain" tests/ustack/chain.c 2> "$d/cc.err"; then
		t_fail ustack/$arch/build "$cc failed" "$d/cc.err"
		continue
	fi
	run_probes_oops ustack/$arch/boot "$d/out" --arch $arch --rc tests/ustack/rc-chain \
		--sysroot "$d/sysroot" --report tests/ustack/chain.probes || continue
	log=$d/out/run.log
	user_chain "$log" > "$d/chain"
	printf '%s\n' "probe_me+0x0 [/bin/chain] (pc)" "caller_two (cfi)" \
		"caller_one (cfi)" "main (cfi)" > "$d/chain.want"
	sed -E 's/\+0x[0-9a-f]+ \[\/bin\/chain\] \(cfi\)$/ (cfi)/' "$d/chain" > "$d/chain.got"
	if cmp -s "$d/chain.want" "$d/chain.got"; then
		t_pass ustack/$arch/exact-chain
	else
		t_fail ustack/$arch/exact-chain "$(tr '\n' '|' < "$d/chain")" "$log"
	fi
	# the walk reaches the entry point's function: nothing cut short
	if grep -q '\[user stack cut' "$log" || ! grep -Eq ' _?_start\+0x[0-9a-f]+ \[/bin/chain\] \(cfi\)$' "$log"; then
		t_fail ustack/$arch/to-start "the unwind stops before _start" "$log"
	else
		t_pass ustack/$arch/to-start
	fi
	t_grep ustack/$arch/armed "$d/out/ttyS1.raw" \
		$'^item\tprobe_me\tarmed\tperf\tperf: [0-9]+ cpus, id [0-9]+, user stack$'
	# without --sysroot the stack is not unwound and says so (x86_64 keeps
	# the kernel's own frame-pointer frames, as addresses); 'stack has' fails
	./probecc report --probes tests/ustack/chain.probes "$d/out/ttyS1.raw" > "$d/nosysroot" 2>&1
	rc=$?
	case $arch in
	mipsel) said='\[user stack not unwound: --sysroot DIR gives the program' ;;
	x86_64) said='^      1 <0000000000[0-9a-f]*>$' ;;
	esac
	if [ $rc -ne 0 ] && grep -q "$said" "$d/nosysroot" &&
	   grep -q 'FAIL  expect probe_me stack has caller_two' "$d/nosysroot"; then
		t_pass ustack/$arch/no-sysroot-said
	else
		t_fail ustack/$arch/no-sysroot-said "exit $rc" "$d/nosysroot"
	fi
done
