# make check-riscv64: Debian trixie's Linux 6.12 for riscv64 (target
# riscv64: qemu-system-riscv64 -M virt, OpenSBI; qemu-images/fetch pins
# the kernel and busybox-static and fetches them through a private apt
# configuration) with agent-riscv64 (musl, make agent-zlib).  Not in make
# check: docs/riscv64.md has its cold cost.  What differs from 6.12 on
# amd64 and arm64 is in docs/riscv64.md; here:
#   riscv64/bond0   tests/riscv64/bond0.probes, --stack-method perf: the
#                   function tracer's stack of register_netdevice has
#                   bond_create (the expectations hold); the kprobe
#                   netdev (register_netdevice+0x12) is armed and its
#                   perf sample's callchain has, after the probed
#                   address, bond_create in bonding.ko (named here from the
#                   module's symbols and the dump's module line); its
#                   events are not in the trace (the kprobe handler runs
#                   in NMI context, where the ring buffer records nothing
#                   without ARCH_HAVE_NMI_SAFE_CMPXCHG): if a kernel ever
#                   records them, this fails and docs/riscv64.md is wrong
#   riscv64/compile  the compiler against the capture and the kernel's
#                   config: a kprobe on the entry and a kretprobe refused
#                   (the ftrace patch site, no KPROBES_ON_FTRACE), the
#                   kprobe past it warned (its events are not traced)
#   riscv64/uprobe, riscv64/room   tests/boot64.test.sh's scenarios on
#                   riscv64 (B64_TARGETS=riscv64): ten() of ten arguments
#                   by the lp64 ABI (a0-a7, then the stack), the uretprobe;
#                   the command line the firmware passes whole (1023)
# Run alone: bash tests/riscv64.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

rv=$T_OUT/riscv64
rm -rf "$rv" && mkdir -p "$rv"
. qemu-images/machines.sh
machine riscv64

rv_bond0() {
	local d=$rv/bond0 chain base text off nm sym
	if ! command -v "${M_QEMU[0]}" > /dev/null; then
		t_skip riscv64/bond0 "needs ${M_QEMU[0]} (qemu-images/deps.sh boot)"
		return
	fi
	if ! qemu-images/fetch riscv64 > "$rv/fetch.env" 2> "$rv/fetch.err"; then
		t_fail riscv64/fetch "qemu-images/fetch riscv64 failed" "$rv/fetch.err"
		return
	fi
	t_pass riscv64/fetch
	if ! run_probes_oops riscv64/bond0 "$d" --arch riscv64 --stack-method perf \
		--report tests/riscv64/bond0.probes; then
		return
	fi
	t_grep riscv64/bond0/expectations-hold "$d/junit.xml" \
		'<testsuite name="probecc" tests="6" failures="0">'
	t_grep riscv64/bond0/netdev-armed "$d/dump2" \
		$'^item\tnetdev\tarmed\tinstances/probecc/events/kprobes/netdev/enable\t1$'
	if grep -a -q ' netdev: (register_netdevice+' "$d/dump2"; then
		t_fail riscv64/bond0/kprobe-not-traced "a kprobe event reached the trace: docs/riscv64.md says it cannot"
	else
		t_pass riscv64/bond0/kprobe-not-traced
	fi
	# the perf sample: the probed address, then an address in bonding's
	# .text (the dump's module line) that bonding.ko's own symbols name
	# bond_create
	chain=$(awk -F'\t' '$1 == "perf" && $2 == "netdev" {print $7; exit}' "$d/dump2")
	base=$(awk -F'\t' '$1 == "module" && $2 == "bonding" {print $5}' "$d/dump2" |
		tr ',' '\n' | sed -n 's/^\.text=//p')
	eval "$(cat "$rv/fetch.env")"
	nm=$T_OUT/riscv64/bonding.nm
	xz -dc "$(find "$MODULES" -name bonding.ko.xz | head -1)" > "$rv/bonding.ko" 2> /dev/null &&
		riscv64-linux-gnu-nm --defined-only "$rv/bonding.ko" 2> /dev/null |
		awk '$2 ~ /^[tT]$/' | sort > "$nm"
	text=$(echo "$chain" | cut -d' ' -f2)
	sym=
	if [ -n "$text" ] && [ -n "$base" ] && [ -s "$nm" ]; then
		# the last .text symbol at or below the offset (nm's 16 hex
		# digits compare as strings)
		off=$(printf '%016x' $(( 0x${text#0x} - base )))
		sym=$(awk -v o="$off" '$1 <= o { s = $3 } END { print s }' "$nm")
	fi
	if [ "$sym" = bond_create ]; then
		t_pass riscv64/bond0/perf-creator-bond_create
	else
		t_fail riscv64/bond0/perf-creator-bond_create \
			"perf callchain '$chain': second frame in '${sym:-?}' (bonding .text at '${base:-?}')" "$d/report.txt"
	fi
}

# The compiler, against the capture of the booted kernel and its own
# config: a kprobe at register_netdevice's entry and a kretprobe are
# refused before any boot, with the reason (compiler/check.c
# check_kprobe_arch()); the kprobe past the entry compiles, warned
rv_compile() {
	local tgt cfg
	if ! tgt=$(qemu-images/target riscv64 2> "$rv/target.err"); then
		t_fail riscv64/compile "no capture of the riscv64 kernel" "$rv/target.err"
		return
	fi
	cfg=$(. "$rv/fetch.env" && echo "$CONFIG")
	printf 'kprobe netdev register_netdevice { stack }\nkretprobe mret path_mount { r = $retval:s32 }\n' > "$rv/entry.probes"
	if ./probecc --arch riscv64 --target "$tgt" --kconfig "$cfg" "$rv/entry.probes" \
		--plan "$rv/entry.plan" > /dev/null 2> "$rv/entry.err"; then
		t_fail riscv64/compile/entry-refused "compiled" "$rv/entry.err"
	else
		t_grep riscv64/compile/entry-refused "$rv/entry.err" \
			"entry.probes:1:15: error: register_netdevice's entry is its ftrace patch site on riscv64"
		t_grep riscv64/compile/kretprobe-refused "$rv/entry.err" \
			"entry.probes:2:16: error: a kretprobe must be on path_mount's entry"
	fi
	if ./probecc --arch riscv64 --target "$tgt" --kconfig "$cfg" --stack-method perf \
		--modules "$(. "$rv/fetch.env" && echo "$MODULES")" tests/riscv64/bond0.probes --plan "$rv/bond0.plan" > /dev/null 2> "$rv/bond0.err"; then
		t_grep riscv64/compile/not-traced-warned "$rv/bond0.err" \
			"warning: kprobe 'netdev' is armed and counted but none of its events is traced"
	else
		t_fail riscv64/compile/not-traced-warned "tests/riscv64/bond0.probes did not compile" "$rv/bond0.err"
	fi
}

rv_bond0
[ ! -s "$rv/fetch.env" ] || rv_compile
B64_TARGETS=riscv64 B64_SCENARIOS="uprobe room" . tests/boot64.test.sh
