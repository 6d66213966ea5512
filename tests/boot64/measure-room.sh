#!/bin/bash
# measure-room.sh TARGET OUTDIR: boot TARGET once with a command line 150
# characters longer than the room machines.sh gives it (M_ROOM)
# and print how many characters of /proc/cmdline the kernel got, in all
# and of the -append text (the agent's dump 1 reports /proc/cmdline).
# The padding is one word, probecc.room=0001.0002...: a dotted name is a
# module parameter the kernel ignores, where 40 plain words would pass
# MAX_INIT_ARGS (32) to init and make the kernel panic before its
# console is up (seen on arm64: a silent hang).
set -eu -o pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$1 d=$2
. "$top/qemu-images/machines.sh"
machine "$t"
mkdir -p "$d"
printf 'probecc-plan\t1\narch\t%s\nsink\t/dev/ttyS1\n' "$M_ARCH" > "$d/plan"
"$top/qemu-images/mkimage" "$t" -o "$d/initrd.gz" --plan "$d/plan" --module none
append="console=$M_CONSOLE rdinit=/init probecc.room=0000"
i=1
while [ ${#append} -lt $((M_ROOM + 150)) ]; do append="$append.$(printf %04d $i)"; i=$((i + 1)); done
echo "$append" > "$d/append"
eval "$("$top/qemu-images/fetch" "$t")"
"$top/qemu-images/boot" "$t" --kernel "$VMLINUZ" --initrd "$d/initrd.gz" --append "$append" \
	--dump "$d/ttyS1.raw" --console-log "$d/console.log" --timeout 120 --quiet
"$top/qemu-images/extract-dump" "$d/ttyS1.raw" 1 > "$d/dump1"
got=$(sed -n 's/^cmdline\t//p' "$d/dump1")
# the part of the -append text that arrived: from "console=" on
tail=${got#"${got%%console=*}"}
echo "$t: /proc/cmdline ${#got} chars, of them ${#tail} of the ${#append}-char -append (prefix ${#got}-${#tail}: '${got%%console=*}'); last word '${got##* }'"
