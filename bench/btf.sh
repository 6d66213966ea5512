#!/bin/bash
# bench/btf.sh: the cost of C names from the kernel's BTF (facts/btf.c):
# probecc on N kprobes of register_netdevice, each with one C name
# (a = dev->MEMBER, a scalar or pointer member of struct net_device),
# against the same file with "a = arg1" (the BTF loaded, nothing
# resolved) and with no BTF at all, on Debian's 6.1 amd64 kernel: its BTF
# is the .BTF section of the vmlinux inside the fetched bzImage
# (scripts/extract-vmlinux of the kernel source, bootconfig/kernel-tool).
# Then the same names from DWARF: --vmlinux of the kernel's -dbg package
# (qemu-images/fetch --dbg, cached), whose plan must be the same bytes.
# Prints farm-bench's medians on stdout.
#   N=100    names per file
set -eu -o pipefail
trap 'echo "${0##*/}: line $LINENO: exit $?: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."
N=${N:-100}
OUT=${OUT:-/tmp/probecc-bench-btf}
mkdir -p "$OUT"
eval "$(qemu-images/fetch x86_64)"
src=$(ls -d "${PROBECC_CACHE:-$HOME/.cache/probecc}"/kbuild/linux-source-*/ | head -1)
[ -f "$OUT/vmlinux" ] || sh "$src/scripts/extract-vmlinux" "$VMLINUZ" > "$OUT/vmlinux"
objcopy -O binary --only-section=.BTF "$OUT/vmlinux" "$OUT/btf"
# struct net_device's scalar and pointer members, from the raw BTF
python3 - "$OUT/btf" > "$OUT/members" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
_, _, _, hlen, toff, tlen, soff, slen = struct.unpack('<HBBIIIII', d[:24])
strs = d[hlen + soff:hlen + soff + slen]
name = lambda o: strs[o:strs.index(b'\0', o)].decode()
p, end, types = hlen + toff, hlen + toff + tlen, [None]
extra = {1: 4, 3: 12, 14: 4, 17: 4}
per = {4: 12, 5: 12, 6: 8, 13: 8, 15: 12, 19: 12}
while p < end:
    no, info, st = struct.unpack('<III', d[p:p + 12])
    k, vl = info >> 24 & 0x1f, info & 0xffff
    body = d[p + 12:p + 12 + extra.get(k, 0) + per.get(k, 0) * vl]
    types.append((k, name(no), st, vl, body))
    p += 12 + len(body)
def peel(i):
    while types[i][0] in (8, 9, 10, 11, 18):
        i = types[i][2]
    return types[i][0]
for k, n, st, vl, body in types[1:]:
    if k == 4 and n == 'net_device':
        for j in range(vl):
            mn, mt, _ = struct.unpack('<III', body[12 * j:12 * j + 12])
            if mn and peel(mt) in (1, 2, 6):
                print(name(mn))
        break
PY
m=$(wc -l < "$OUT/members")
awk -v n="$N" -v m="$m" '{ a[NR] = $1 } END { for (i = 1; i <= n; i++) printf "kprobe k%d register_netdevice { a = dev->%s }\n", i, a[(i - 1) % m + 1] }' \
	"$OUT/members" > "$OUT/names.probes"
sed 's/dev->[a-z_0-9]*/arg1/' "$OUT/names.probes" > "$OUT/args.probes"
args=(--arch x86_64 --kernel-version 6.1 --plan /dev/null)
# every name resolves (the placement's warnings aside: 100 kprobes do not fit the command line)
./probecc "${args[@]}" --btf "$OUT/btf" "$OUT/names.probes" 2> "$OUT/names.err" ||
	{ cat "$OUT/names.err" >&2; exit 1; }
echo "$N names of $m members of struct net_device; BTF $(stat -c %s "$OUT/btf") bytes"
echo "A: $N C names resolved from BTF; B: the same file with arg1 (BTF loaded, nothing resolved)"
farm-bench -n 5 --vs "./probecc ${args[*]} --btf $OUT/btf $OUT/args.probes" -- \
	./probecc "${args[@]}" --btf "$OUT/btf" "$OUT/names.probes"
echo "A: BTF loaded (arg1 fields); B: no BTF"
farm-bench -n 5 --vs "./probecc ${args[*]} $OUT/args.probes" -- \
	./probecc "${args[@]}" --btf "$OUT/btf" "$OUT/args.probes"
eval "$(qemu-images/fetch --dbg x86_64)"
./probecc --arch x86_64 --kernel-version 6.1 --btf "$OUT/btf" --plan "$OUT/plan.btf" "$OUT/names.probes" 2> /dev/null
./probecc --arch x86_64 --kernel-version 6.1 --vmlinux "$DBG_VMLINUX" --plan "$OUT/plan.dwarf" "$OUT/names.probes" 2> /dev/null
cmp "$OUT/plan.btf" "$OUT/plan.dwarf" ||
	{ diff "$OUT/plan.btf" "$OUT/plan.dwarf" >&2; echo "BTF and DWARF disagree" >&2; exit 1; }
echo "A: $N C names from BTF; B: the same from DWARF ($DBG_VMLINUX, $(stat -c %s "$DBG_VMLINUX") bytes); the same plan"
farm-bench -n 5 --vs "./probecc ${args[*]} --vmlinux $DBG_VMLINUX $OUT/names.probes" -- \
	./probecc "${args[@]}" --btf "$OUT/btf" "$OUT/names.probes"
