#!/bin/bash
# bench/ustack-depth.sh: how many bytes of user stack the walk of a real
# boot's samples needs to reach the program's entry (_start/__start),
# against what the agent copied (the default copy size,
# PLAN_USTACK_DEFAULT; bench/README.md "User stacks: how much stack").
# For each tests/ustack.test.sh boot directory given (its out/dump2,
# probes or tests/ustack/chain.probes, and sysroot), every perf-user sample is cut to K bytes (its
# DYN_SIZE and STACK hex) for K from 256 up in 256-byte steps, and the
# report (./probecc, --sysroot) unwinds it: the smallest K at which each
# probe's stack still reaches the entry, next to the bytes the kernel
# copied (dyn_size: from the stack pointer to the stack's top, at most
# the copy asked for).
#
# usage: bench/ustack-depth.sh DIR...   (e.g. tests/out/ustack/mipsel)
set -eu -o pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/probecc-ustack-depth.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "| boot | probe | copied (dyn_size) | needed to reach the entry | frames |"
echo "|---|---|---|---|---|"
for d in "$@"; do
	[ -f "$d/out/dump2" ] || { echo "| $d | (no out/dump2) | | | |"; continue; }
	pf=$d/probes
	[ -f "$pf" ] || pf=tests/ustack/chain.probes	# the boots without qsort
	probes=$(awk -F'\t' '$1 == "perf-user" { print $2 }' "$d/out/dump2" | sort -u)
	for p in $probes; do
		dyn=$(awk -F'\t' -v p="$p" '$1 == "perf-user" && $2 == p { print $10; exit }' "$d/out/dump2")
		need=- frames=-
		for k in $(seq 256 256 $((dyn + 255))); do
			awk -F'\t' -v OFS='\t' -v p="$p" -v k="$k" '
				$1 == "perf-user" && $2 != p { next }
				$1 == "perf-user" && $10 > k { $10 = k; $11 = substr($11, 1, 2 * k) }
				{ print }' "$d/out/dump2" > "$tmp/dump"
			./probecc report --sysroot "$d/sysroot" --probes "$pf" "$tmp/dump" > "$tmp/report" 2>&1 || :
			# the probe's user callers: the entry reached, no cut said
			if awk -v p="$p" '$1 == p && /hit\(s\)/ { on = 1; next }
				on && /^  [^ ]/ { on = 0 }
				on' "$tmp/report" > "$tmp/frames" &&
			   grep -Eq ' _{1,2}start\+' "$tmp/frames" && ! grep -q 'user stack cut' "$tmp/frames"; then
				need=$k
				frames=$(grep -Ec '\((cfi|pc|heuristic)\)' "$tmp/frames")
				break
			fi
		done
		echo "| $(basename "$d") | $p | $dyn | $need | $frames |"
	done
done
