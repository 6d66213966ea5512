#!/bin/bash
# measure-room.sh TARGET OUTDIR: boot TARGET once with a 400-character
# command line (console=... rdinit=/init, then x0001 x0002 ... padding)
# and print how many characters of /proc/cmdline the kernel got, in all
# and of the -append text (the agent's dump 1 reports /proc/cmdline).
set -eu -o pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$1 d=$2
. "$top/qemu-images/machines.sh"
machine "$t"
mkdir -p "$d"
printf 'probecc-plan\t1\narch\t%s\nsink\t/dev/ttyS1\n' "$M_ARCH" > "$d/plan"
"$top/qemu-images/mkimage" "$t" -o "$d/initrd.gz" --plan "$d/plan" --module none
append="console=$M_CONSOLE rdinit=/init"
i=1
while [ ${#append} -lt 400 ]; do append="$append x$(printf %04d $i)"; i=$((i + 1)); done
echo "$append" > "$d/append"
eval "$("$top/qemu-images/fetch" "$t")"
"$top/qemu-images/boot" "$t" --kernel "$VMLINUZ" --initrd "$d/initrd.gz" --append "$append" \
	--dump "$d/ttyS1.raw" --console-log "$d/console.log" --timeout 120 --quiet
"$top/qemu-images/extract-dump" "$d/ttyS1.raw" 1 > "$d/dump1"
got=$(sed -n 's/^cmdline\t//p' "$d/dump1")
# the part of the -append text that arrived: from "console=" on
tail=${got#"${got%%console=*}"}
echo "$t: /proc/cmdline ${#got} chars, of them ${#tail} of the ${#append}-char -append (prefix ${#got}-${#tail}: '${got%%console=*}'); last word '${got##* }'"
