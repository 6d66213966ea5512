#!/bin/bash
# oracle.sh WORK: the oracles that need other programs, run over the
# corpora a fuzz run left in WORK (tests/fuzz/run.sh's FUZZ_WORK,
# default tests/out/fuzz), through the programs themselves:
#
#  compile     every probe file of the corpus that ./probecc compiles to a
#              bootconfig (--arch x86_64 -o): the kernel's own parser
#              (tools/bootconfig of linux-source-6.1, built by
#              bootconfig/kernel-tool) lists the same keys and values
#              as bc_parse (probecc-bootconfig -l) does;
#  bootargs    every merge of the corpus that "probecc bootargs --print"
#              accepts: its --uboot-env file through mkenvimage and
#              fw_printenv gives back the merged line byte for byte.
#
# Inputs with a byte >= 0x80 are left out of the first (tools/bootconfig
# refuses them in the C locale, the kernel reads Latin-1: bc_parse.c);
# fuzz-compile checks them in process.  Prints one line per oracle;
# exit 1 on a mismatch (the input named) or when an oracle checked no
# input at all (an empty or unusable corpus proves nothing), 2 when a
# tool is missing.
set -u -o pipefail
cd "$(dirname "$0")/../.."
work=${1:-tests/out/fuzz}
d=$work/oracle && rm -rf "$d" && mkdir -p "$d"
failed=0

if ! kt=$(bootconfig/kernel-tool 2> "$d/kernel-tool.err"); then
	cat "$d/kernel-tool.err" >&2
	exit 2
fi
for t in mkenvimage fw_printenv; do
	command -v $t > /dev/null || { echo "oracle.sh: $t not found (qemu-images/deps.sh)" >&2; exit 2; }
done

# The listing of FILE as the kernel tool prints it ("bootconfig -l"):
# a key without value as KEY = "" (tests/bcparse.test.sh, we_say).
ours() {
	bootconfig/probecc-bootconfig -l "$1" 2>&1 |
		sed -e 's/^\([A-Za-z0-9_.-]*\)$/\1 = ""/' \
		    -e 's/^\([A-Za-z0-9_.-]*\) = "", .*/\1 = ""/'
}
n=0 same=0
for f in "$work"/compile/corpus/*; do
	[ -f "$f" ] || continue
	tail -c +2 "$f" > "$d/p.probes"
	LC_ALL=C grep -q '[^ -~[:space:]]' "$d/p.probes" && continue
	./probecc "$d/p.probes" --arch x86_64 -o "$d/p.bconf" > /dev/null 2>&1 || continue
	n=$((n + 1))
	"$kt" -l "$d/p.bconf" > "$d/kernel" 2>&1
	ours "$d/p.bconf" > "$d/ours"
	if cmp -s "$d/kernel" "$d/ours"; then
		same=$((same + 1))
	else
		failed=1
		echo "oracle.sh: compile: the kernel's parser reads $f otherwise:" >&2
		diff "$d/kernel" "$d/ours" | head -5 >&2
	fi
done
echo "oracle.sh: compile: $same of $n bootconfig outputs read the same by tools/bootconfig and bc_parse"
[ $n -gt 0 ] || { echo "oracle.sh: compile: no input of $work/compile/corpus compiled: nothing checked" >&2; failed=1; }

n=0 same=0
echo "$d/env.bin 0x0 0x4000" > "$d/fw_env.config"
for f in "$work"/bootargs/corpus/*; do
	[ -f "$f" ] || continue
	# the harness's input: byte 0 (bit 0 --replace), EXISTING NUL FRAGMENT
	tail -c +2 "$f" > "$d/in"
	if [ "$(tr -cd '\000' < "$d/in" | wc -c)" = 1 ]; then
		tr '\000' '\n' < "$d/in" | head -n 1 > "$d/existing"
		tr '\000' '\n' < "$d/in" | sed 1d > "$d/frag"
		# a newline inside either is not one the CLI can be given
		[ "$(wc -l < "$d/existing")" -le 1 ] && [ "$(wc -l < "$d/frag")" -le 1 ] || continue
		ex=(--bootargs "$(cat "$d/existing")")
	elif [ "$(tr -cd '\000' < "$d/in" | wc -c)" = 0 ]; then
		cp "$d/in" "$d/frag"
		[ "$(wc -l < "$d/frag")" -le 1 ] || continue
		ex=()
	else
		continue
	fi
	rep=()
	[ $(( $(head -c 1 "$f" | od -An -tu1) & 1 )) = 0 ] || rep=(--replace)
	./probecc bootargs --fragment "$d/frag" "${ex[@]}" "${rep[@]}" --print \
		> "$d/merged" 2> /dev/null || continue
	./probecc bootargs --fragment "$d/frag" "${ex[@]}" "${rep[@]}" \
		--uboot-env "$d/env" > /dev/null 2>&1 || continue
	n=$((n + 1))
	rm -f "$d/env.bin"
	if mkenvimage -s 0x4000 -o "$d/env.bin" "$d/env" 2> "$d/err" &&
	   fw_printenv -c "$d/fw_env.config" -n bootargs > "$d/got" 2>> "$d/err" &&
	   cmp -s "$d/merged" "$d/got"; then
		same=$((same + 1))
	else
		failed=1
		echo "oracle.sh: bootargs: mkenvimage + fw_printenv read $f otherwise:" >&2
		diff "$d/merged" "$d/got" | head -5 >&2
		head -3 "$d/err" >&2
	fi
done
echo "oracle.sh: bootargs: $same of $n environment files read back as merged by mkenvimage + fw_printenv"
[ $n -gt 0 ] || { echo "oracle.sh: bootargs: no input of $work/bootargs/corpus merged: nothing checked" >&2; failed=1; }
exit $failed
