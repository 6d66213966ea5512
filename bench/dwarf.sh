#!/bin/bash
# bench/dwarf.sh: probecc's C-name translation against perf
# probe -D for the same probes on the Malta test kernel's vmlinux
# (qemu-images/build-kernel mipsel, DWARF 4).  Prints a Markdown table of
# medians (wall seconds) on stdout; progress on stderr.
#   REPS=5       runs per case
#   SIZES="10 100"  probes per file: FUNC's first reachable parameter
# perf on a MIPS vmlinux stops at the first probe ("Failed to get call
# frame"), so its figure is the time to that failure, not a translation.
set -eu -o pipefail
# Every failure says where: a command that stops the script under set -e
# prints its line, status and text (never a silent non-zero exit).
trap 'echo "${0##*/}: line $LINENO: exit $?: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."
REPS=${REPS:-5}
SIZES=${SIZES:-10 100}
OUT=${OUT:-/tmp/probecc-bench-dwarf}
mkdir -p "$OUT"
eval "$(qemu-images/build-kernel mipsel 2>/dev/null)"
cp probecc "$OUT/probecc"
log() { echo "bench: $*" >&2; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
timeit() { local s e; s=$(date +%s%N); "$@" > /dev/null 2>&1 || :; e=$(date +%s%N); echo "scale=3; ($e - $s) / 1000000000" | bc; }

# candidates: unique text symbols whose first parameter --vars can reach
max=${SIZES##* }
awk '$2 ~ /^[tT]$/ { print $3 }' "$SYSTEM_MAP" | grep -v '\.' | sort | uniq -u |
	shuf -n $((max * 4)) --random-source=<(yes) > "$OUT/cand"
: > "$OUT/pairs"
while read -r f && [ "$(wc -l < "$OUT/pairs")" -lt "$max" ]; do
	p=$("$OUT/probecc" --vars "$f" --vmlinux "$VMLINUX" 2> /dev/null |
		awk '$1 == "parameter" && / = / { sub(/ =.*/, ""); print $NF; exit }') || :
	[ -n "$p" ] && echo "$f $p" >> "$OUT/pairs"
done < "$OUT/cand"
# weed what the kernel would refuse anyway (notrace, blacklist)
awk '{ printf "kprobe k%d %s { a = %s }\n", NR, $1, $2 }' "$OUT/pairs" > "$OUT/all.probes"
"$OUT/probecc" "$OUT/all.probes" --error-limit 0 --vmlinux "$VMLINUX" --plan /dev/null 2>&1 > /dev/null |
	sed -n 's|^.*all.probes:\([0-9]*\):.*|\1|p' | sort -u > "$OUT/bad" || :
awk 'NR == FNR { bad[$1]; next } !(FNR in bad)' "$OUT/bad" "$OUT/pairs" > "$OUT/pairs.ok"
mv "$OUT/pairs.ok" "$OUT/pairs"
log "$(wc -l < "$OUT/pairs") functions with a reachable first parameter"

echo "| probes | probecc (wall s) | perf probe -D (wall s) |"
echo "|---|---|---|"
for n in $SIZES; do
	head -n "$n" "$OUT/pairs" | awk '{ printf "kprobe k%d %s { a = %s }\n", NR, $1, $2 }' > "$OUT/p$n.probes"
	mapfile -t defs < <(head -n "$n" "$OUT/pairs" | awk '{ print "-D"; print $1 " " $2 }')
	"$OUT/probecc" "$OUT/p$n.probes" --vmlinux "$VMLINUX" --plan /dev/null > /dev/null ||
		{ log "probecc failed on p$n.probes"; exit 1; }
	pc=$(for i in $(seq "$REPS"); do timeit "$OUT/probecc" "$OUT/p$n.probes" --vmlinux "$VMLINUX" --cmdline; done | median)
	pf=$(for i in $(seq "$REPS"); do timeit perf probe -k "$VMLINUX" "${defs[@]}"; done | median)
	echo "| $(wc -l < "$OUT/p$n.probes") | $pc | $pf (fails: $(perf probe -k "$VMLINUX" "${defs[@]}" 2>&1 | head -1)) |"
done
