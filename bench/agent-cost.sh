#!/bin/bash
# bench/agent-cost.sh: what the early-init agent costs a boot (bench/README.md,
# "The agent's own cost"), on a Debian kernel in QEMU:
# MACHINE (qemu-images/machines.sh: mipsel, the default, is Malta 4kc;
# x86_64, arm64, malta64el, loongson3 have Debian kernels too).
#
# cost: ROUNDS rounds of two boots of the same kernel, the same command
#   line (PROBES compiled by probecc against the target capture and the
#   modules, as a user with a target does) and the same image but for
#   /init: the agent (which execs rc) or rc itself; the order alternates
#   each round so the host's load hits both alike.  rc's first act is a
#   line to /dev/kmsg (devtmpfs mounted on /tmp/kdev in both, so both do
#   the same): its kernel timestamp is the real init's start.  Per boot:
#   the kernel's "Run /init as init process" (t_run) and the real init's
#   line (t_init), both in the kernel's printk clock, and for the agent's
#   boots the manifest's agent_us and plan_us.  The agent's cost is the
#   difference of the real init's start with and without it (medians of
#   t_init), and, less noisy, of the /init-to-real-init gap (t_init -
#   t_run: the kernel's own boot before /init varies by 0.5 s with the
#   host's load, the gap does not); the goal is <= 5 % of t_init without.
#   Where the agent's time went: the manifests' mounts_us, plan_us,
#   sink_us (dump 1), init_dump_us and fork_us (dump 2: in the agent's
#   boots rc waits, after its kmsg line, up to 20 s for the window dump).
#
# arm: for each N of ARM_SIZES, ARM_ROUNDS boots arming N kprobes (on
#   functions of the capture spread over available_filter_functions,
#   weeded by probecc --target; the LSM hooks, which every file operation
#   calls, left out), all by the agent (--cmdline-max 1), with
#   the kernel's function_graph tracer on ksys_write (depth 1) from the
#   command line (funcgraph-proc: the agent is init-1): the trace gives the kernel's own time in each write(2)
#   the agent makes (the definitions and the enabling: the kernel's cost
#   of the probes), and plan_us the agent's whole run of the plan (its
#   reads and opens included).  The last write before the dump is the
#   dump's own (options/pause-on-trace) and is left out.  Ratio =
#   plan_us / the kernel's time in the arming writes; goal <= 1.2.  Also
#   plan_cpu_us / the same: the agent's own CPU time in the plan, without
#   what other tasks (the kernel's modprobe helpers at boot) ran meanwhile
#   (an agent before plan_cpu_us shows -).
#
# usage: bench/agent-cost.sh [cost] [arm]   (default both)
# Environment: ROUNDS=12, ARM_ROUNDS=3, ARM_SIZES="98 500", RC_MOUNTS=0
#   (1: rc mounts /proc and /sys first where they are not, as a real init
#   does: the agent's mounts are then not all its own cost),
#   PROBES=examples/bond0.probes (C names on a kernel without BTF: its
#   DWARF from Debian's -dbg, fetched as run-probes --dbg does), WINDOW=0
#   (PROBES without its window lines: the init dump is the last, out
#   before the real init's release, and the worker exits then), OUT=dir (default a new one under /tmp),
#   MACHINE=mipsel, AGENT=initramfs/agent-<its arch> and PROBECC=./probecc (the build under
#   test); AGENT_B and PROBECC_B: another build (say the one before a
#   change), booted in the same rounds as "with-b" (cost: the image with
#   its agent and its plan, on its own command line; arm: its plan and agent, agent_us compared,
#   as an agent without plan_us has only that).  Boots run one at a time.
set -eu -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
parts=${*:-cost arm}
rounds=${ROUNDS:-12}
arm_rounds=${ARM_ROUNDS:-3}
sizes=${ARM_SIZES:-98 500}
probes=${PROBES:-examples/bond0.probes}
machine=${MACHINE:-mipsel}
. qemu-images/machines.sh
machine "$machine" && [ "$M_FETCH" = 1 ] ||
	{ echo "bench/agent-cost.sh: MACHINE=$machine: not a target with a Debian kernel (qemu-images/machines.sh)" >&2; exit 1; }
agent=$(readlink -f "${AGENT:-initramfs/agent-$M_AGENT}")
probecc=$(readlink -f "${PROBECC:-./probecc}")
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/probecc-bench-agent.XXXXXX")}
mkdir -p "$out"
[ -x "$agent" ] || { echo "no agent $agent (make)" >&2; exit 1; }
[ -x "$probecc" ] || { echo "no probecc $probecc (make)" >&2; exit 1; }
agent_b= probecc_b= kinds="with without"
if [ -n "${AGENT_B:-}" ]; then
	agent_b=$(readlink -f "$AGENT_B")
	probecc_b=$(readlink -f "${PROBECC_B:-$probecc}")
	kinds="with without with-b"
fi

if [ "${WINDOW:-}" = 0 ]; then
	grep -v '^[[:space:]]*window[[:space:]]' "$probes" > "$out/no-window.probes"
	probes=$out/no-window.probes
fi

eval "$(qemu-images/fetch "$machine")"
target=$(qemu-images/target "$machine")
kver=${KREL%%-*}
user="console=$M_CONSOLE rdinit=/init"

# rc: the real init of both images; its kmsg line is the measure.  With
# RC_MOUNTS=1 it first mounts /proc and /sys where they are not (as
# qemu-images/rc/ and every init does before its own work), which the
# agent's boots find mounted by the agent.
{
	echo '#!/bin/sh'
	[ "${RC_MOUNTS:-0}" = 0 ] || printf '%s\n' \
		'[ -e /proc/self ] || mount -t proc proc /proc' \
		'[ -d /sys/class ] || mount -t sysfs sys /sys'
	cat <<'EOF'
mkdir -p /tmp/kdev
mount -t devtmpfs dev /tmp/kdev
echo "bench: real init" > /tmp/kdev/kmsg
# the agent's boots (it mounted tracefs): let its window dump out, whose
# manifest has init_dump_us and fork_us
i=0
while [ -e /sys/kernel/tracing/trace ] && [ ! -e /run/probecc.done ] && [ $i -lt 20 ]; do
	sleep 1
	i=$((i + 1))
done
poweroff -f
EOF
} > "$out/rc"

# boot NAME IMAGE APPEND: one boot, the console in $out/NAME.console
boot() {
	qemu-images/boot "$machine" --kernel "$VMLINUZ" --initrd "$2" --append "$3" \
		--dump "$out/$1.ttyS1" --console-log "$out/$1.console" --timeout 300 \
		--quiet 2> "$out/$1.boot" || echo "bench/agent-cost.sh: boot $1 failed: $out/$1.boot" >&2
	qemu-images/extract-dump "$out/$1.ttyS1" 1 > "$out/$1.dump1" 2> /dev/null || :
	qemu-images/extract-dump "$out/$1.ttyS1" 2 > "$out/$1.dump2" 2> /dev/null || :
}
# stamp NAME REGEX: the printk timestamp of the first console line matching
stamp() {
	sed -n "s/^\[ *\([0-9]*\.[0-9]*\)\] $2.*/\1/p" "$out/$1.console" | head -1
}
field() { sed -n "s/^$2\t//p" "$out/$1.${3:-dump1}" | head -1; }
# stats: "median min-max" of the numbers on stdin
stats() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "- -"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3f %.3f-%.3f\n", m, v[1], v[NR] }'
}

echo "bench/agent-cost.sh: $(date -u '+%F %T') UTC, $(git describe --always --dirty), MACHINE=$machine, RC_MOUNTS=${RC_MOUNTS:-0}, agent $agent, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "kernel $KERNEL_PKG $KERNEL_VERSION, target $target"

if [[ " $parts " == *" cost "* ]]; then
	max=$((M_ROOM - ${#M_PREFIX} - ${#user} - 1))
	# compile PROBECC NAME: the plan and command line; C names (dev->name)
	# on a kernel without BTF take its DWARF from Debian's -dbg package,
	# as qemu-images/run-probes does (fetched once, cached)
	compile() {
		"$1" "$probes" --arch "$M_ARCH" --kernel-version "$kver" --cmdline-max "$max" \
			--target "$target" --modules "$MODULES" ${vmlinux:+--vmlinux "$vmlinux"} \
			--plan "$out/$2.plan" --cmdline > "$out/$2.cmdline" 2> "$out/$2.err" && return
		grep -q "need the kernel's types" "$out/$2.err" && [ -z "$vmlinux" ] ||
			{ cat "$out/$2.err" >&2; exit 1; }
		vmlinux=$(eval "$(qemu-images/fetch --dbg "$machine")" && echo "$DBG_VMLINUX")
		compile "$@"
	}
	vmlinux=
	compile "$probecc" cost
	append="$user $(cat "$out/cost.cmdline")"
	if [ -n "$agent_b" ]; then
		compile "$probecc_b" cost-b
		# B boots with its own command line (its plan may leave to its
		# agent what A's puts on the command line, or the other way):
		# the gap starts at "Run /init", after the kernel's own part
		append_b="$user $(cat "$out/cost-b.cmdline")"
		cmp -s "$out/cost.cmdline" "$out/cost-b.cmdline" ||
			echo "bench/agent-cost.sh: PROBECC_B compiles another command line, which its boots use: $append_b" >&2
		qemu-images/mkimage "$machine" -o "$out/with-b.gz" --agent "$agent_b" --rc "$out/rc" \
			--plan "$out/cost-b.plan" --module none --add "$agent:/probecc/agent"
	fi
	# the same files in both; only /init differs
	qemu-images/mkimage "$machine" -o "$out/with.gz" --agent "$agent" --rc "$out/rc" \
		--plan "$out/cost.plan" --module none --add "$agent:/probecc/agent"
	qemu-images/mkimage "$machine" -o "$out/without.gz" --agent "$out/rc" --rc "$out/rc" \
		--plan "$out/cost.plan" --module none --add "$agent:/probecc/agent"
	echo
	echo "## cost: $probes, $rounds rounds; command line: $append"
	echo
	echo "| round | boot | Run /init (s) | real init (s) | gap (s) | agent_us | mounts_us | plan_us | sink_us | init_dump_us | fork_us |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	for i in $(seq "$rounds"); do
		# rotate the order: each kind comes first in some rounds
		set -- $kinds
		for _ in $(seq $((i % $#))); do set -- "${@:2}" "$1"; done
		order="$*"
		for w in $order; do
			echo "bench/agent-cost.sh: cost round $i of $rounds: $w" >&2
			if [ $w = with-b ]; then a_w=$append_b; else a_w=$append; fi
			boot "cost-$w-$i" "$out/$w.gz" "$a_w"
			r=$(stamp "cost-$w-$i" 'Run \/init as init process')
			t=$(stamp "cost-$w-$i" 'bench: real init')
			g=$(awk -v r="$r" -v t="$t" 'BEGIN { if (r == "" || t == "") print ""; else printf "%.6f", t - r }')
			au=- pu=- mu=- su=- du=- fu=-
			if [ $w != without ]; then
				au=$(field "cost-$w-$i" agent_us); pu=$(field "cost-$w-$i" plan_us)
				mu=$(field "cost-$w-$i" mounts_us); su=$(field "cost-$w-$i" sink_us)
				du=$(field "cost-$w-$i" init_dump_us dump2); fu=$(field "cost-$w-$i" fork_us dump2)
			fi
			echo "$i $w ${r:--} ${t:--} ${g:--} ${au:--} ${pu:--} ${mu:--} ${su:--} ${du:--} ${fu:--}" >> "$out/cost.tsv"
			echo "| $i | $w | ${r:--} | ${t:--} | ${g:--} | ${au:--} | ${mu:--} | ${pu:--} | ${su:--} | ${du:--} | ${fu:--} |"
		done
	done
	echo
	echo "| boot | real init: median (range) | gap /init to real init: median (range) | plan_us median (range) |"
	echo "|---|---|---|---|"
	for w in $kinds; do
		ti=$(awk -v w=$w '$2 == w && $4 != "-" { print $4 }' "$out/cost.tsv" | stats)
		ga=$(awk -v w=$w '$2 == w && $5 != "-" { print $5 }' "$out/cost.tsv" | stats)
		pu=$(awk -v w=$w '$2 == w && $7 != "-" { print $7 / 1e6 }' "$out/cost.tsv" | stats)
		echo "| $w | ${ti% *} s (${ti#* }) | ${ga% *} s (${ga#* }) | ${pu% *} s (${pu#* }) |"
	done
	# where the agent's own time went (the manifest's *_us lines; an agent
	# without them, B before they existed, shows -)
	echo
	echo "| boot | agent_us (to the init dump) | mounts_us | plan_us | sink_us | init_dump_us | fork_us (to the release of the real init; before, the window child's fork) |"
	echo "|---|---|---|---|---|---|---|"
	for w in $kinds; do
		[ $w != without ] || continue
		line="| $w |"
		for c in 6 8 7 9 10 11; do
			v=$(awk -v w=$w -v c=$c '$2 == w && $c != "-" { print $c / 1e6 }' "$out/cost.tsv" | stats)
			line="$line ${v% *} s (${v#* }) |"
		done
		echo "$line"
	done
	awk '$4 != "-" { t[$2] = t[$2] " " $4; g[$2] = g[$2] " " $5 }
		function med(s,   n, v, i, j, x) {
			n = split(s, v, " ")
			for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
			return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		}
		END {
			to = med(t["without"]); go = med(g["without"])
			for (w in t) {
				if (w == "without")
					continue
				tw = med(t[w]); gw = med(g[w])
				printf "\n%s: real init %.3f s later than without (medians %.3f - %.3f), %.1f %% of boot-to-init without the agent;\n", w, tw - to, tw, to, 100 * (tw - to) / to
				printf "%s: the /init-to-real-init gap %.3f s longer (%.3f - %.3f), %.1f %% of boot-to-init without the agent\n", w, gw - go, gw, go, 100 * (gw - go) / to
			}
		}' "$out/cost.tsv"
fi

if [[ " $parts " == *" arm "* ]]; then
	# names: unique, probe-language words, spread over the traceable
	# functions; probecc --target drops what the kernel would refuse
	awk '/^--- available_filter_functions/ { f = 1; next } /^--- / { f = 0 } f { print $1 }' "$target" |
		sort | uniq -u | grep -E '^[a-z][a-z0-9_]*$' |
		grep -vE '^(aa|apparmor|security|selinux|smack|tomoyo|ima|evm|lsm)_' > "$out/names.all"
	awk -v n="$(wc -l < "$out/names.all")" 'NR % int(n / 700) == 0' "$out/names.all" |
		awk '{ printf "kprobe k%d %s\n", NR, $1 }' > "$out/cand.probes"
	"$probecc" "$out/cand.probes" --error-limit 0 --target "$target" --explain > /dev/null 2> "$out/cand.err" || :
	sed -n 's/^[^:]*cand.probes:\([0-9]*\):.*/\1/p' "$out/cand.err" | sort -u > "$out/cand.bad"
	awk -v badf="$out/cand.bad" 'BEGIN { while ((getline l < badf) > 0) bad[l] }
		!(FNR in bad) { print $3 }' "$out/cand.probes" > "$out/names"
	arm_append="$user ftrace=function_graph ftrace_graph_filter=ksys_write ftrace_graph_max_depth=1 trace_options=funcgraph-proc"
	echo
	echo "## arm: N kprobes by the agent, $arm_rounds boots each; command line: $arm_append + probecc's"
	echo
	echo "| N | agent | boot | writes | kernel in the writes (s) | plan_us (s) | plan_cpu_us (s) | agent_us (s) | plan_us / kernel | plan_cpu_us / kernel | per probe: plan / kernel (ms) |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	for n in $sizes; do
		[ "$(wc -l < "$out/names")" -ge "$n" ] || { echo "only $(wc -l < "$out/names") names" >&2; exit 1; }
		{ head -n "$n" "$out/names" | awk '{ printf "kprobe k%d %s\n", NR, $1 }'; echo 'dump /dev/ttyS1'; } > "$out/arm$n.probes"
		for v in a ${agent_b:+b}; do
			if [ $v = a ]; then pc=$probecc ag=$agent; else pc=$probecc_b ag=$agent_b; fi
			"$pc" "$out/arm$n.probes" --arch "$M_ARCH" --kernel-version "$kver" --cmdline-max 1 \
				--target "$target" --plan "$out/arm$n$v.plan" --cmdline > "$out/arm$n$v.cmdline"
			qemu-images/mkimage "$machine" -o "$out/arm$n$v.gz" --agent "$ag" --rc "$out/rc" \
				--plan "$out/arm$n$v.plan" --module none
		done
		for i in $(seq "$arm_rounds"); do
		for v in a ${agent_b:+b}; do
			echo "bench/agent-cost.sh: arm $n, agent $v, boot $i of $arm_rounds" >&2
			b=arm$n$v-$i
			boot "$b" "$out/arm$n$v.gz" "$arm_append $(cat "$out/arm$n$v.cmdline")"
			armed=$(grep -c "^item	.*	armed	" "$out/$b.dump1" || :)
			# every ksys_write of the agent (PID 1; the kernel's modprobe
			# helpers write too): its duration, on the leaf line or, when
			# an interrupt nested in it, on its closing one; in order, the
			# last is the dump's own
			awk '!/ init-1 / { next }
				/ksys_write\(\) \{/ { open = 1; next }
				/ksys_write\(\);/ || (open && /\|  \}/) {
					open = 0
					if (match($0, /[0-9.]+ us/))
						print substr($0, RSTART, RLENGTH - 3)
				}' "$out/$b.dump1" > "$out/$b.writes"
			# hits of the probes armed so far, inside the agent's writes
			hits=$(grep -c ' init-1 .*/\* k[0-9]*: ' "$out/$b.dump1" || :)
			w=$(($(wc -l < "$out/$b.writes") - 1))
			k=$(head -n "$w" "$out/$b.writes" | awk '{ s += $1 } END { printf "%.6f", s / 1e6 }')
			p=$(field "$b" plan_us) au=$(field "$b" agent_us) pc=$(field "$b" plan_cpu_us)
			echo "$n $i $w $k ${p:-0} $armed $v ${au:-0} $hits ${pc:-0}" >> "$out/arm.tsv"
			awk -v n="$n" -v i="$i" -v w="$w" -v k="$k" -v p="${p:-0}" -v a="$armed" -v h="$hits" \
				-v v="$v" -v au="${au:-0}" -v pc="${pc:-0}" 'BEGIN {
				p /= 1e6; au /= 1e6; pc /= 1e6
				printf "| %d | %s | %d (%d armed) | %d (%d hits) | %.3f | %s | %s | %.3f | %s | %s | %s |\n",
					n, v == "a" ? "under test" : "B", i, a, w, h, k,
					p ? sprintf("%.3f", p) : "-", pc ? sprintf("%.3f", pc) : "-", au,
					p && k ? sprintf("%.2f", p / k) : "-",
					pc && k ? sprintf("%.2f", pc / k) : "-",
					p ? sprintf("%.3f / %.3f", 1000 * p / n, 1000 * k / n) : "- / " sprintf("%.3f", 1000 * k / n) }'
		done
		done
	done
	echo
	echo "| N | agent | plan_us / kernel: median (range) | plan_cpu_us / kernel: median (range) | kernel in the writes (s) | agent_us (s) |"
	echo "|---|---|---|---|---|---|"
	for n in $sizes; do
		for v in a ${agent_b:+b}; do
			r=$(awk -v n="$n" -v v=$v '$1 == n && $7 == v && $4 > 0 && $5 > 0 { print $5 / 1e6 / $4 }' "$out/arm.tsv" | stats)
			rc=$(awk -v n="$n" -v v=$v '$1 == n && $7 == v && $4 > 0 && $10 > 0 { print $10 / 1e6 / $4 }' "$out/arm.tsv" | stats)
			k=$(awk -v n="$n" -v v=$v '$1 == n && $7 == v { print $4 }' "$out/arm.tsv" | stats)
			u=$(awk -v n="$n" -v v=$v '$1 == n && $7 == v { print $8 / 1e6 }' "$out/arm.tsv" | stats)
			echo "| $n | $([ $v = a ] && echo "under test" || echo B) | ${r% *} (${r#* }) | ${rc% *} (${rc#* }) | ${k% *} (${k#* }) | ${u% *} (${u#* }) |"
		done
	done
fi
echo "bench/agent-cost.sh: boots in $out" >&2
