#!/bin/bash
# Manual smoke test: boot the agent as PID 1 under QEMU (Malta mipsel or
# x86_64) with a hand-written plan; print the console tail, the dumps
# from ttyS1, and boot-to-dump times.  Not run by tests/run-tests.sh
# (it takes ~10-30 s per arch under TCG).
#   usage: tests/agent/qemu-smoke.sh mipsel|x86_64 [OUTDIR]
set -eu
# Every failure says where: a command that stops the script under set -e
# prints its line, status and text (never a silent non-zero exit).
trap 'echo "${0##*/}: line $LINENO: exit $?: $BASH_COMMAND" >&2' ERR
arch=$1
out=${2:-/tmp/probecc-smoke-$arch}
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${PROBECC_CACHE:-$HOME/.cache/probecc}
rm -rf "$out" && mkdir -p "$out/bb"
case $arch in
mipsel)
	deb=$(ls "$cache"/debs/busybox-static_*_mipsel.deb | head -1)
	kernel=$(ls "$cache"/linux-image-*-malta/boot/vmlinuz-* | head -1)
	qemu="qemu-system-mipsel -M malta -m 256"
	arg1=%r4 ;;
x86_64)
	deb=$(ls "$cache"/debs/busybox-static_*_amd64.deb | head -1)
	kernel=$(ls "$cache"/linux-image-*-amd64/boot/vmlinuz-* | head -1)
	qemu="qemu-system-x86_64 -m 512"
	arg1=%di ;;
*) echo "usage: $0 mipsel|x86_64" >&2; exit 2 ;;
esac
dpkg-deb -x "$deb" "$out/bb"
bb=$out/bb/bin/busybox
# uprobe at the ELF entry point, as a file offset: vaddr - p_vaddr + p_offset
# of the executable LOAD segment that holds it.
entry=$(readelf -hW "$bb" | awk '/Entry point/ { print $4 }')
off=
while read -r type o v _ fsz _ flg; do
	[ "$type" = LOAD ] && [[ $flg == *E* ]] || continue
	if (( entry >= v && entry < v + fsz )); then
		off=$(printf '0x%x' $(( entry - v + o )))
	fi
done < <(readelf -lW "$bb")
[ -n "$off" ] || { echo "no entry offset in $bb" >&2; exit 1; }
T=$(printf '\t')
cat > "$out/plan" <<PLAN
probecc-plan${T}1
arch${T}$arch
kernel${T}6.1
sink${T}/dev/ttyS1
window${T}3
init${T}/sbin/init
expect${T}-${T}current_tracer${T}function
expect${T}register_netdevice${T}set_ftrace_filter${T}register_netdevice
expect${T}-${T}options/func_stack_trace${T}1${T}1
arm${T}exec${T}kprobe_events${T}p:kprobes/exec kernel_execve filename=+0($arg1):string
arm${T}exec${T}events/kprobes/exec/enable${T}1
arm${T}exec${T}events/kprobes/exec/trigger${T}stacktrace
arm${T}start${T}uprobe_events${T}p:uprobes/start /bin/busybox:$off
arm${T}start${T}events/uprobes/start/enable${T}1
arm${T}bad${T}kprobe_events${T}p:kprobes/bad kernel_execve x=%nosuchreg
arm${T}sched:sched_process_exec${T}events/sched/sched_process_exec/enable${T}1
arm${T}sched:sched_process_exec${T}events/sched/sched_process_exec/trigger${T}stacktrace
PLAN
cat > "$out/rc" <<'RC'
#!/bin/sh
echo "rc: real init running as $$: $0 $*"
uname -a
ls /sys/kernel/tracing >/dev/null
i=0
while [ ! -e /run/probecc.done ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i+1)); done
echo "rc: window marker: $(cat /run/probecc.done 2>/dev/null || echo none)"
poweroff -f
RC
"$top/initramfs/mkinitramfs" -o "$out/initrd.gz" --busybox "$bb" \
	--agent "$top/initramfs/agent-$arch" --plan "$out/plan" --rc "$out/rc"
start=$(date +%s%N)
timeout 90 $qemu -kernel "$kernel" -initrd "$out/initrd.gz" \
	-append "console=ttyS0 rdinit=/init ftrace=function ftrace_filter=register_netdevice" \
	-display none -monitor none -serial stdio -serial "file:$out/ttyS1.log" \
	-nic none -no-reboot > "$out/console.log" 2>&1 &
qpid=$!
# wall time from QEMU start to the end of each dump on ttyS1
seen=0
while kill -0 $qpid 2>/dev/null; do
	n=$(grep -c '^=== probecc dump [0-9]* end' "$out/ttyS1.log" 2>/dev/null) || true
	while [ "${n:-0}" -gt $seen ]; do
		seen=$((seen + 1))
		echo "dump $seen on ttyS1 after $(( ($(date +%s%N) - start) / 1000000 )) ms wall"
	done
	sleep 0.05
done
wait $qpid || echo "qemu exit $?"
end=$(date +%s%N)
echo "wall: $(( (end - start) / 1000000 )) ms to poweroff"
grep -n 'probecc\|rc:\|Run /init\|Kernel panic' "$out/console.log" | head -20
grep -E '^(=== |stage|uptime|agent_us|item|note|cpu)' "$out/ttyS1.log"
