#!/bin/bash
# kprobe-oops.sh: how often MIPS 6.1 oopses in its own kprobe
# single-step ("Break instruction in kernel code" at the insn slot's
# second break), per boot, on each kernel given, with the same
# reproducer (bench/kprobe-oops/: a kprobe and a kretprobe on
# do_sys_openat2, an rc that starts and reaps CHURN short-lived
# processes that each open a file).  kernel-patches/README.md has the
# figures and the root cause.
#
# usage: bench/kprobe-oops.sh [BOOTS]        (default 10 boots a kernel)
#   KERNELS="patched unpatched debian"  which kernels (the default):
#       patched    qemu-images/build-kernel mipsel (kernel-patches/mipsel/)
#       unpatched  qemu-images/build-kernel mipsel --unpatched
#       debian     Debian's Malta kernel (qemu-images/fetch mipsel)
#   CHURN=150   processes a boot starts     JOBS=2  boots at a time
#   CHURN_OUT=/dev/ttyS0  where each process writes (default /dev/null):
#       a serial line keeps its interrupts coming through the churn
#   OUT=DIR     where boots are kept (default a new directory in $TMPDIR)
#
# A boot oopsed when its console log has the message; the agent's last
# dump must say so too (a kprobe-oops line, docs/plan.md), and the table
# counts the boots where both agree.  Prints a Markdown table on stdout,
# progress on stderr.  Boots run under nice -n 10.
set -eu -o pipefail
trap 'echo "${0##*/}: line $LINENO: exit $?: $BASH_COMMAND" >&2' ERR
prog=${0##*/}
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
cd "$top"
boots=${1:-10}
[[ $boots =~ ^[1-9][0-9]*$ ]] || { echo "usage: $prog [BOOTS]" >&2; exit 2; }
kernels=${KERNELS:-patched unpatched debian}
churn=${CHURN:-150}
churn_out=${CHURN_OUT:-/dev/null}
[[ $churn_out =~ ^/dev/[a-zA-Z0-9]+$ ]] || { echo "$prog: CHURN_OUT: a /dev/NAME" >&2; exit 2; }
jobs=${JOBS:-2}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/kprobe-oops.XXXXXX")}
mkdir -p "$out"
make -s probecc initramfs/agent-mipsel >&2

# one BOOT-DIR KERNEL-IMAGE: one boot; its verdict and counts in BOOT-DIR
one() {
	local b=$1 kernel=$2 rc=0
	nice -n 10 qemu-images/boot mipsel --kernel "$kernel" --initrd "$b/../initrd.gz" --quiet \
		--append "console=ttyS0 rdinit=/init churn=$churn churnout=$churn_out $(cat "$b/../cmdline")" \
		--dump "$b/ttyS1.raw" --console-log "$b/console.log" --timeout 300 --oops-wait 300 \
		2> "$b/boot.err" || rc=$?
	echo "$rc" > "$b/verdict"
}

echo "| kernel | boots | oopsed (console) | agent's dump says so | clean poweroff | open_ret hits (median) |"
echo "|---|---|---|---|---|---|"
for k in $kernels; do
	d=$out/$k && mkdir -p "$d"
	case $k in
	patched|unpatched)
		opt=
		[ $k = patched ] || opt=--unpatched
		qemu-images/build-kernel mipsel $opt > "$d/kernel.env" 2> "$d/build.err" ||
			{ echo "$prog: build-kernel mipsel $opt failed: $d/build.err" >&2; exit 1; }
		. "$d/kernel.env"
		kernel=$KERNEL
		popt=(--vmlinux "$VMLINUX") ;;
	debian)
		eval "$(qemu-images/fetch mipsel)"
		kernel=$VMLINUZ
		popt=(--arch mipsel --kernel-version "${KREL%%-*}") ;;
	*) echo "$prog: unknown kernel $k" >&2; exit 2 ;;
	esac
	./probecc bench/kprobe-oops/openat.probes "${popt[@]}" --cmdline-max 150 \
		--cmdline --plan "$d/plan" > "$d/cmdline"
	qemu-images/mkimage mipsel -o "$d/initrd.gz" --plan "$d/plan" --module none \
		--rc bench/kprobe-oops/rc-churn > /dev/null
	i=0
	while [ $i -lt "$boots" ]; do
		for _ in $(seq "$jobs"); do
			[ $i -lt "$boots" ] || break
			i=$((i + 1))
			mkdir -p "$d/$i"
			one "$d/$i" "$kernel" &
		done
		wait
		echo "$prog: $k: $i of $boots boots" >&2
	done
	oops=0 said=0 clean=0 hits=
	for i in $(seq "$boots"); do
		b=$d/$i
		[ "$(cat "$b/verdict")" != 0 ] || clean=$((clean + 1))
		last=$(qemu-images/extract-dump --list "$b/ttyS1.raw" 2>/dev/null | tail -1)
		[ -z "$last" ] || qemu-images/extract-dump "$b/ttyS1.raw" "$last" > "$b/dump" 2>/dev/null || :
		if grep -q 'Break instruction in kernel code' "$b/console.log"; then
			oops=$((oops + 1))
			! grep -q '^kprobe-oops	' "$b/dump" 2>/dev/null || said=$((said + 1))
		elif ! grep -q '^kprobe-oops	' "$b/dump" 2>/dev/null; then
			said=$((said + 1))
		fi
		hits="$hits $(grep -c ' open_ret: ' "$b/dump" 2>/dev/null || :)"
	done
	med=$(printf '%s\n' $hits | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	echo "| $k | $boots | $oops | $said of $boots | $clean | $med |"
done
echo "$prog: boots kept in $out" >&2
