# usym: uprobes written PATH:SYMBOL[+OFF] hit in a real boot (the target
# check).  tests/usym/prog.c is cross-compiled for mipsel twice, as
# a static non-PIE executable and as a PIE, into a sysroot
# (/bin/usym-nopie, /bin/usym-pie); probecc compiles uprobes on its
# functions by name with --sysroot, and every file offset it emits is
# compared with one worked out here from readelf alone (the symbol's
# value minus the VirtAddr of the PT_LOAD holding it plus that
# segment's Offset); for the non-PIE binary it differs from the nm
# address, which probecc refuses with the right offset (the seed's
# mistake).  Then Debian's Malta kernel boots in QEMU (qemu-images/boot,
# -nic none) with the agent, the plan and tests/usym/rc as the real
# init, which runs both programs; the window dump must hold every call
# with the exact arguments the program passed.  Stripped copies give
# the errors of tests/usym/stripped.err.
#
# Static PIE: Debian's mipsel glibc has no rcrt1.o (static PIE is not
# supported on MIPS), so when -static-pie does not link the PIE is a
# dynamic one and the sysroot and the image get /lib/ld.so.1 and
# /lib/libc.so.6 from /usr/mipsel-linux-gnu/lib.
#
# Run alone: bash tests/usym.test.sh (through tests/run-tests.sh).

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

U=$T_OUT/usym
S=$U/sysroot
CC=mipsel-linux-gnu-gcc

# The calls of tests/usym/prog.c's main(): probecc_work(A, S) for
# these words, then probecc_work(-42, TAG); usym_scale(A + strlen(S),
# strlen(S)) returns (A + strlen(S)) * strlen(S) + 1.
usym_words="alpha beta gamma"

# usym_calls TAG: "A S V K R" per call, R probecc_work's return value.
usym_calls() {
	local i=1 w a
	for w in $usym_words "-42:$1"; do
		case $w in
		*:*) a=${w%%:*} w=${w#*:} ;;
		*) a=$((1000 * i + 7)) ;;
		esac
		echo "$a $w $((a + ${#w})) ${#w} $(((a + ${#w}) * ${#w} + 1))"
		i=$((i + 1))
	done
}

# sym_value FILE SYM: st_value of function SYM (0x..., .symtab first,
# then .dynsym) as readelf -sW prints it; nothing when there is none.
sym_value() {
	readelf -sW "$1" | awk -v s="$2" '
		/^Symbol table .\.symtab/ { t = "symtab" }
		/^Symbol table .\.dynsym/ { t = "dynsym" }
		$4 == "FUNC" && $7 != "UND" && $8 == s && !(t in v) { v[t] = $2 }
		END {
			if ("symtab" in v) print "0x" v["symtab"]
			else if ("dynsym" in v) print "0x" v["dynsym"]
		}'
}

# seg_foff FILE VADDR: the file offset of VADDR through the PT_LOAD of
# readelf -lW with VirtAddr <= VADDR < VirtAddr + FileSiz.
seg_foff() {
	local va=$(($2)) off pva fsz
	while read -r off pva fsz; do
		if ((va >= pva && va < pva + fsz)); then
			printf '0x%x\n' $((va - pva + off))
			return 0
		fi
	done < <(readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $3, $5 }')
	return 1
}

# plan_offset PLAN EVENT: the offset of EVENT's uprobe_events line.
plan_offset() {
	awk -F'\t' -v e="$2" '$1 == "arm" && $2 == e && $3 == "uprobe_events" {
		split($4, w, " "); sub(/.*:/, "", w[2]); print w[2] }' "$1"
}

# hits DUMP EVENT: the fields of each of EVENT's hits, in trace order.
hits() {
	sed -n '/^--- trace ---$/,$p' "$1" | grep -v '^#' |
		sed -n "s/^.* $2: ([^)]*) //p"
}

usym_missing=
for t in $CC mipsel-linux-gnu-strip mipsel-linux-gnu-nm readelf qemu-system-mipsel; do
	command -v "$t" > /dev/null || usym_missing="$usym_missing $t"
done
[ -x ./probecc ] && [ -x ./probecc-asan ] && [ -f initramfs/agent-mipsel ] ||
	usym_missing="$usym_missing probecc/probecc-asan/initramfs/agent-mipsel (make)"
if [ -n "$usym_missing" ]; then
	t_skip usym "missing:$usym_missing"
	return 0 2> /dev/null || exit 0
fi

rm -rf "$U" && mkdir -p "$S/bin" "$S/lib"

# --- 1. the programs: static non-PIE, and a (static if possible) PIE ---
if $CC -static -O2 -g -no-pie -o "$S/bin/usym-nopie" tests/usym/prog.c 2> "$U/cc-nopie.err" &&
   readelf -hW "$S/bin/usym-nopie" | grep -q 'Type: *EXEC'; then
	t_pass usym/build-nopie
else
	t_fail usym/build-nopie "$CC -static -no-pie failed" "$U/cc-nopie.err"
fi
if $CC -static-pie -fPIE -O2 -g -o "$S/bin/usym-pie" tests/usym/prog.c 2> "$U/cc-pie.err"; then
	pie_kind=static-pie
elif $CC -fPIE -pie -O2 -g -o "$S/bin/usym-pie" tests/usym/prog.c 2>> "$U/cc-pie.err"; then
	pie_kind="dynamic PIE; -static-pie: $(grep -o 'cannot find [^ :]*' "$U/cc-pie.err" | head -1)"
	# what the dynamic PIE needs, as the target has it
	for l in $(readelf -dW "$S/bin/usym-pie" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p') ld.so.1; do
		cp -L "/usr/mipsel-linux-gnu/lib/$l" "$S/lib/$l" 2>> "$U/cc-pie.err"
	done
else
	pie_kind=
fi
if [ -n "$pie_kind" ] && readelf -hW "$S/bin/usym-pie" | grep -q 'Type: *DYN'; then
	t_pass usym/build-pie
	echo "    (usym-pie: $pie_kind)"
else
	t_fail usym/build-pie "no PIE" "$U/cc-pie.err"
fi
mipsel-linux-gnu-strip -o "$S/bin/usym-stripped" "$S/bin/usym-nopie"
mipsel-linux-gnu-strip -o "$S/bin/usym-pie-stripped" "$S/bin/usym-pie"

# --- 2. probecc's offsets against readelf's ---
cat > "$U/usym.probes" <<-'PROBES'
	# uprobes by symbol, resolved with --sysroot (tests/usym.test.sh)
	uprobe work_nopie /bin/usym-nopie:probecc_work { a = arg1:s32; s = arg2:string }
	uprobe work_pie /bin/usym-pie:probecc_work { a = arg1:s32; s = arg2:string }
	uprobe scale_nopie /bin/usym-nopie:usym_scale { v = arg1:s32; k = arg2:s32 }
	uprobe scale_pie /bin/usym-pie:usym_scale { v = arg1:s32; k = arg2:s32 }
	# +4: the second instruction of the $gp prologue, a0 and a1 untouched
	uprobe work4_pie /bin/usym-pie:probecc_work+4 { a = %r4:s32; s = +0(%r5):string }
	uretprobe ret_nopie /bin/usym-nopie:probecc_work { r = $retval:s32; v0 = %r2:s32; a3 = %r7:x32 }
	uretprobe ret_pie /bin/usym-pie:probecc_work { v0 = %r2:s32 }
	dump /dev/ttyS1
	window 4s
	expect armed
	expect no lost
	expect work_nopie hits == 4 after init
	expect work_pie hits == 4 after init
	expect work4_pie hits == 4 after init
	expect scale_nopie hits == 4 after init
	expect ret_pie hits == 4 after init
	expect work_nopie.s == "alpha"
	expect work_pie.s == "pie"
PROBES
eval "$(qemu-images/fetch mipsel)"
kver=${KREL%%-*}
user="console=ttyS0 rdinit=/init"
# the room run-probes gives on Malta (a 256-byte YAMON argument)
rd="rd_start=0xffffffff80000000 rd_size=123456789 "
opts=(--arch mipsel --kernel-version "$kver" --cmdline-max $((255 - ${#rd} - ${#user} - 1)) --sysroot "$S")
if ./probecc "$U/usym.probes" "${opts[@]}" --plan "$U/plan" --cmdline > "$U/cmdline" 2> "$U/compile.err"; then
	t_pass usym/compile
else
	t_fail usym/compile "probecc failed" "$U/compile.err"
fi
./probecc-asan "$U/usym.probes" "${opts[@]}" --plan "$U/plan.asan" \
	--cmdline > "$U/cmdline.asan" 2> "$U/compile-asan.err"
rc=$?
if [ $rc = 0 ] && cmp -s "$U/plan" "$U/plan.asan" && cmp -s "$U/cmdline" "$U/cmdline.asan"; then
	t_pass usym/compile-asan
else
	t_fail usym/compile-asan "probecc-asan differs or failed" "$U/compile-asan.err"
fi

# EVENT BINARY SYMBOL [+OFF]
while read -r ev bin sym plus; do
	f=$S/bin/$bin
	va=$(sym_value "$f" "$sym")
	want=
	[ -n "$va" ] && want=$(seg_foff "$f" $((va + ${plus:-0})))
	got=$(plan_offset "$U/plan" "$ev")
	if [ -n "$want" ] && [ "$((got))" = "$((want))" ] 2> /dev/null; then
		t_pass "usym/offset/$ev"
		echo "    ($bin:$sym${plus:++$plus}: st_value $va, file offset $got)"
	else
		t_fail "usym/offset/$ev" "probecc says '$got', readelf -s/-l say '$want' (st_value '$va')"
	fi
done <<-EOF
	work_nopie usym-nopie probecc_work
	work_pie usym-pie probecc_work
	scale_nopie usym-nopie usym_scale
	scale_pie usym-pie usym_scale
	work4_pie usym-pie probecc_work 4
	ret_nopie usym-nopie probecc_work
	ret_pie usym-pie probecc_work
EOF

# The seed's mistake: the nm address is not the file offset, and
# probecc says which offset is meant.
nm_addr=$(printf '0x%x' "0x$(mipsel-linux-gnu-nm "$S/bin/usym-nopie" |
	awk '$3 == "probecc_work" { print $1 }')")
foff=$(plan_offset "$U/plan" work_nopie)
va=$(sym_value "$S/bin/usym-nopie" probecc_work)
if [ -n "$va" ] && [ "$((nm_addr))" = "$((va))" ] &&
   [ "$((nm_addr))" != "$((foff))" ]; then
	t_pass usym/nm-address-is-not-the-offset
	echo "    (nm: $nm_addr, file offset: $foff)"
else
	t_fail usym/nm-address-is-not-the-offset "nm $nm_addr, probecc $foff"
fi
printf 'uprobe seed /bin/usym-nopie:%s { a = arg1:s32 }\n' "$nm_addr" > "$U/nm.probes"
./probecc "$U/nm.probes" --arch mipsel --sysroot "$S" --plan /dev/null 2> "$U/nm.err"
rc=$?
if [ $rc = 1 ] && grep -q "^$U/nm.probes:1:13: error: $nm_addr is a virtual address (symbol probecc_work); the file offset is $foff\$" "$U/nm.err"; then
	t_pass usym/nm-address-refused
else
	t_fail usym/nm-address-refused "exit $rc" "$U/nm.err"
fi

# --- 4. stripped copies ---
# The static one has no symbol table at all; the PIE keeps .dynsym,
# which still has the exported probecc_work but not the static usym_scale.
for cc in probecc probecc-asan; do
	./$cc tests/usym/stripped.probes --arch mipsel --sysroot "$S" --plan /dev/null 2>&1 |
		sed -E "s|$S|SYSROOT|g; s|\.build-id/[0-9a-f]{2}/[0-9a-f]+\.debug|.build-id/XX/ID.debug|g" > "$U/stripped-$cc.err"
	t_check "usym/stripped/$cc" tests/usym/stripped.err "$U/stripped-$cc.err"
done
printf 'uprobe w /bin/usym-pie-stripped:probecc_work\n' > "$U/dynsym.probes"
./probecc "$U/dynsym.probes" --arch mipsel --sysroot "$S" --plan "$U/dynsym.plan" 2> "$U/dynsym.err"
got=$(plan_offset "$U/dynsym.plan" w)
if [ -n "$got" ] && [ "$got" = "$(plan_offset "$U/plan" work_pie)" ]; then
	t_pass usym/stripped-pie-dynsym
else
	t_fail usym/stripped-pie-dynsym "offset '$got'" "$U/dynsym.err"
fi

# --- 3. the boot ---
# tests/usym/rc runs qemu-images/rc/bond0's steps
adds=(--add "$S/bin/usym-nopie:/bin/usym-nopie" --add "$S/bin/usym-pie:/bin/usym-pie"
	--add qemu-images/rc/bond0:/probecc/bond0)
for l in "$S"/lib/*; do
	[ -e "$l" ] && adds+=(--add "$l:/lib/${l##*/}")
done
if ! qemu-images/mkimage mipsel -o "$U/initrd.gz" --plan "$U/plan" --rc tests/usym/rc \
	--module none "${adds[@]}" 2> "$U/mkimage.err"; then
	t_fail usym/boot "mkimage failed" "$U/mkimage.err"
	return 0 2> /dev/null || exit 0
fi
echo "$user $(cat "$U/cmdline")" > "$U/append"
start=$(date +%s%N)
qemu-images/boot mipsel --kernel "$VMLINUZ" --initrd "$U/initrd.gz" --quiet \
	--append "$(cat "$U/append")" --dump "$U/ttyS1.raw" \
	--console-log "$U/console.log" --timeout 120 2> "$U/boot.err"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
for i in $(qemu-images/extract-dump --list "$U/ttyS1.raw" 2> /dev/null); do
	qemu-images/extract-dump "$U/ttyS1.raw" "$i" > "$U/dump$i"
done
if [ $rc = 0 ] && [ -s "$U/dump2" ]; then
	t_pass usym/boot
	printf '    (boot: %d.%03d s wall, %s; %s)\n' $((ms / 1000)) $((ms % 1000)) \
		"$KERNEL_PKG" "$(tr -d '\r' < "$U/console.log" | grep -m1 'rc: agent done' || echo 'no agent line')"
else
	t_fail usym/boot "qemu-images/boot exit $rc, or no window dump" "$U/boot.err"
	tail -20 "$U/console.log" 2> /dev/null | sed 's/^/    console: /'
	return 0 2> /dev/null || exit 0
fi
D=$U/dump2

if [ "$(grep -c "^item	[^	]*	armed	" "$D")" = 14 ] && ! grep -q "^item	[^	]*	failed" "$D"; then
	t_pass usym/armed
else
	t_fail usym/armed "not every uprobe armed" "$D"
fi
for tag in nopie pie; do
	s=0
	while read -r a w v k r; do s=$((s + r)); done < <(usym_calls $tag)
	if tr -d '\r' < "$U/console.log" | grep -qx "rc: usym $tag: sum $s"; then
		t_pass "usym/ran-$tag"
	else
		t_fail "usym/ran-$tag" "no 'rc: usym $tag: sum $s' on the console" "$U/console.log"
	fi
done

# The hits, with the exact values: entry by symbol, static function,
# entry+4 with raw registers, return (v0) in both binaries.
for tag in nopie pie; do
	usym_calls $tag | while read -r a w v k r; do echo "a=$a s=\"$w\""; done > "$U/want-work_$tag"
	hits "$D" "work_$tag" > "$U/got-work_$tag"
	t_check "usym/hit/work_$tag" "$U/want-work_$tag" "$U/got-work_$tag"
	usym_calls $tag | while read -r a w v k r; do echo "v=$v k=$k"; done > "$U/want-scale_$tag"
	hits "$D" "scale_$tag" > "$U/got-scale_$tag"
	t_check "usym/hit/scale_$tag" "$U/want-scale_$tag" "$U/got-scale_$tag"
	usym_calls $tag | while read -r a w v k r; do echo "$r"; done > "$U/want-ret_$tag"
	hits "$D" "ret_$tag" | sed -n 's/.*v0=\([-0-9]*\).*/\1/p' > "$U/got-ret_$tag"
	t_check "usym/hit/ret_$tag" "$U/want-ret_$tag" "$U/got-ret_$tag"
done
hits "$D" work4_pie > "$U/got-work4_pie"
t_check usym/hit/work4_pie "$U/want-work_pie" "$U/got-work4_pie"

# Where the kernel put them: the hit's address is the nm address in the
# non-PIE binary, and the symbol's value plus a page-aligned load bias
# in the PIE.
at=$(sed -n 's/^.* work_nopie: (\(0x[0-9a-f]*\)).*/\1/p' "$D" | sort -u)
if [ "$at" = "$nm_addr" ]; then
	t_pass usym/hit-address-nopie
else
	t_fail usym/hit-address-nopie "the kernel hit '$at', nm says $nm_addr"
fi
at=$(sed -n 's/^.* work_pie: (\(0x[0-9a-f]*\)).*/\1/p' "$D" | sort -u)
va=$(sym_value "$S/bin/usym-pie" probecc_work)
if [ -n "$at" ] && [ "$(echo "$at" | wc -l)" = 1 ] && [ $(((at - va) % 4096)) = 0 ] && [ $((at - va)) -gt 0 ]; then
	t_pass usym/hit-address-pie
	printf '    (usym-pie loaded at bias 0x%x)\n' $((at - va))
else
	t_fail usym/hit-address-pie "the kernel hit '$at', st_value $va"
fi

# $retval in a MIPS uretprobe: the kernel's regs_return_value()
# (arch/mips/include/asm/ptrace.h) reads v0 as a syscall result and
# negates it when a3 is not 0, which in a user function's return is
# whatever a3 happens to hold.  While probecc writes $retval, the trace
# shows exactly that rule; were it to write %r2 instead, r == v0.
hits "$D" ret_nopie | sed -n 's/^r=\([-0-9]*\) v0=\([-0-9]*\) a3=\(0x[0-9a-f]*\)$/\1 \2 \3/p' > "$U/retval"
if grep -q 'r=\$retval' "$U/plan"; then rule=kernel; else rule=v0; fi
bad=$(while read -r r v0 a3; do
	if [ $rule = kernel ] && [ $((a3)) != 0 ]; then want=$((-v0)); else want=$v0; fi
	[ "$r" = "$want" ] || echo "r=$r v0=$v0 a3=$a3"
done < "$U/retval")
if [ -s "$U/retval" ] && [ -z "$bad" ]; then
	t_pass usym/retval-mips
	[ $rule = kernel ] && awk '$3 != "0x0" { n++ } END { printf "    ($retval negated in %d of %d returns: a3 != 0)\n", n, NR }' "$U/retval"
else
	t_fail usym/retval-mips "\$retval does not follow the $rule rule: $bad"
fi

# The same expectations through probecc report (a CI job's verdict).
./probecc report "$U/ttyS1.raw" --probes "$U/usym.probes" --junit "$U/junit.xml" > "$U/report.txt" 2>&1
rc=$?
# nine expectations and the report's own "complete dump" testcase
if [ $rc = 0 ] && grep -q '<testsuite name="probecc" tests="10" failures="0">' "$U/junit.xml"; then
	t_pass usym/report
else
	t_fail usym/report "probecc report exit $rc" "$U/report.txt"
fi
