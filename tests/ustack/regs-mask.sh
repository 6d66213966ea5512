#!/bin/bash
# regs-mask.sh KSRC ARCH CC: the agent's user-register mask for ARCH
# (initramfs/perf.c's USER_REGS_MASK as CC preprocesses it) against the
# registers the kernel of the source tree KSRC samples without refusing
# or warning: the bits below the arch's PERF_REG_*_MAX of
# arch/K/include/uapi/asm/perf_regs.h, less x86_64's REG_NOSUPPORT
# (perf_reg_validate() refuses them) and, on MIPS, those perf_reg_value()
# has no case for (it WARNs on them), arch/K/kernel/perf_regs.c.
# Prints "agent MASK kernel MASK" in hex; exit 0 when they are equal.
set -e
ksrc=$1 arch=$2 cc=$3
case $arch in
mips*) k=mips max=PERF_REG_MIPS_MAX ;;
x86_64) k=x86 max=PERF_REG_X86_64_MAX ;;
arm64) k=arm64 max=PERF_REG_ARM64_MAX ;;
riscv64) k=riscv max=PERF_REG_RISCV_MAX ;;
*) echo "regs-mask.sh: no arch $arch" >&2; exit 2 ;;
esac
h=$ksrc/arch/$k/include/uapi/asm/perf_regs.h
c=$ksrc/arch/$k/kernel/perf_regs.c
agent=$($cc -dM -E -Iinitramfs initramfs/perf.c | sed -n 's/^#define USER_REGS_MASK[ \t]*//p' |
	sed 's/\/\*.*//; s/ULL//g')
[ -n "$agent" ] || { echo "regs-mask.sh: $cc gives no USER_REGS_MASK" >&2; exit 2; }
kernel=$(awk -v max=$max -v arch=$k '
	# the enum: NAME, or NAME = OTHER + 1, in order from 0
	FILENAME ~ /\.h$/ && /^[ \t]*PERF_REG_[A-Z0-9_]+[ \t]*(=[^,]*)?,?/ {
		name = $1; sub(/,$/, "", name)
		if ($2 == "=" && $3 ~ /^PERF_REG_/) n = idx[$3] + $5
		else if ($2 == "=") n = $3 + 0
		idx[name] = n++
		next
	}
	# x86_64: the last REG_NOSUPPORT (#else /* CONFIG_X86_64 */)
	FILENAME ~ /\.c$/ && /#define REG_NOSUPPORT/ { in_ns = 1; delete nosup }
	FILENAME ~ /\.c$/ && in_ns {
		s = $0
		while (match(s, /PERF_REG_[A-Z0-9_]+/)) {
			nosup[idx[substr(s, RSTART, RLENGTH)]] = 1
			s = substr(s, RSTART + RLENGTH)
		}
		if ($0 !~ /\\$/) in_ns = 0
	}
	# MIPS: the cases of perf_reg_value()
	FILENAME ~ /\.c$/ && /^u64 perf_reg_value/ { in_v = 1 }
	FILENAME ~ /\.c$/ && in_v && /^[ \t]*case PERF_REG_/ {
		s = $0; sub(/^[ \t]*case /, "", s); sub(/:.*/, "", s)
		split(s, r, /[ \t]*\.\.\.[ \t]*/)
		hi = (2 in r) ? idx[r[2]] : idx[r[1]]
		for (i = idx[r[1]]; i <= hi; i++) cased[i] = 1
		ncased++
	}
	FILENAME ~ /\.c$/ && in_v && /^}/ { in_v = 0 }
	END {
		if (!(max in idx)) { print "none"; exit }
		for (i = 0; i < idx[max]; i++)
			if (!(i in nosup) && (arch != "mips" || i in cased))
				m += 2 ^ i
		printf "%.0f\n", m	# (mawk'"'"'s %x stops at 32 bits)
	}' "$h" "$c")
[ "$kernel" != none ] || { echo "regs-mask.sh: no $max in $h" >&2; exit 2; }
printf 'agent 0x%x kernel 0x%x\n' $((agent)) "$kernel"
[ $((agent)) = "$kernel" ]
