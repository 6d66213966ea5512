# C names from DWARF, on real -g -O2 code: tests/dwarf/prog.c
# cross-compiled for mipsel into a sysroot, probed by C names with
# --sysroot.  tests/dwarf/good-*.probes must compile to the .plan and
# .explain beside them, bad-*.probes must fail with their .err and write
# nothing; --vars listings against vars-*.txt.  What varies with the
# toolchain is normalised (file offsets, addresses, the clone's suffix);
# the offsets themselves are then checked against readelf.  The kernel
# side (register_netdevice dev->name in a boot) is tests/kernel/dwarf.sh.
# Run alone: bash tests/dwarf.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi


DW=$T_OUT/dwarf
rm -rf "$DW" && mkdir -p "$DW/sysroot/bin"

dw_missing=
for t in mipsel-linux-gnu-gcc mipsel-linux-gnu-nm readelf; do
	command -v "$t" > /dev/null || dw_missing="$dw_missing $t"
done
if [ -n "$dw_missing" ]; then
	t_skip dwarf "missing:$dw_missing (qemu-images/deps.sh)"
	return 0 2> /dev/null || exit 0
fi
if mipsel-linux-gnu-gcc -static -no-pie -g -O2 -o "$DW/sysroot/bin/dw" tests/dwarf/prog.c 2> "$DW/cc.err"; then
	t_pass dwarf/build
else
	t_fail dwarf/build "mipsel-linux-gnu-gcc failed" "$DW/cc.err"
	return 0 2> /dev/null || exit 0
fi
# Debug info whose types refer back to themselves (typeloop.awk damages
# the assembly of typeloop.c three ways): refused, never looped on.
for m in const ptr array; do
	M=$(echo $m | tr a-z A-Z)
	if mipsel-linux-gnu-gcc -DLOOP_$M -g -O2 -S -dA -o "$DW/loop-$m.s" tests/dwarf/typeloop.c 2>> "$DW/cc.err" &&
	   awk -v mode=$m -f tests/dwarf/typeloop.awk "$DW/loop-$m.s" "$DW/loop-$m.s" > "$DW/loop-$m.bad.s" 2>> "$DW/cc.err" &&
	   mipsel-linux-gnu-gcc -static -nostdlib -no-pie -o "$DW/sysroot/bin/loop-$m" "$DW/loop-$m.bad.s" 2>> "$DW/cc.err"; then
		t_pass dwarf/build-loop-$m
	else
		t_fail dwarf/build-loop-$m "typeloop.c or typeloop.awk failed" "$DW/cc.err"
	fi
done
# -O2 clones dw_unused without its unused parameter; GCC names the clone
# the same program without -g: "no DWARF debug info" says -g, not a kernel option
mipsel-linux-gnu-gcc -static -no-pie -O2 -o "$DW/sysroot/bin/nodw" tests/dwarf/prog.c 2> "$DW/cc.err" ||
	t_fail dwarf/build-nodw "mipsel-linux-gnu-gcc failed" "$DW/cc.err"
dw_unused=$(mipsel-linux-gnu-nm "$DW/sysroot/bin/dw" | awk '$3 ~ /^dw_unused\./ { print $3 }')

dw_args() {
	t_args "$1" SYSROOT="$DW/sysroot"
}
dw_subst() {
	sed "s|@UNUSED@|$dw_unused|g" "$1"
}
# Offsets and addresses move with the toolchain; the clone's suffix too.
dw_normalise() {
	sed -E "s|$DW/sysroot|SYSROOT|g; s|$dw_unused|dw_unused.CLONE|g;
		s|/bin/dw:0x[0-9a-f]+|/bin/dw:OFFSET|g; s|@\+0x[0-9a-f]+|@+OFFSET|g;
		s|0x[0-9a-f]{5,}|ADDR|g; s|DIE 0x[0-9a-f]+|DIE OFF|g" "$1"
}

for bin in ./probecc ./probecc-asan; do
	tag=dwarf/$(basename "$bin")
	for f in tests/dwarf/good-*.probes; do
		name=$tag/$(basename "$f" .probes)
		d=$T_OUT/$name && rm -rf "$d" && mkdir -p "$d"
		dw_subst "$f" > "$d/in.probes"
		if "$bin" $(dw_args "$f") "$d/in.probes" --plan "$d/plan.raw" --explain > "$d/explain.raw" 2> "$d/stderr"; then
			dw_normalise "$d/plan.raw" > "$d/plan"
			dw_normalise "$d/explain.raw" | sed "s|$d/in.probes|IN|g" > "$d/explain"
			t_check "$name.plan" "${f%.probes}.plan" "$d/plan"
			t_check "$name.explain" "${f%.probes}.explain" "$d/explain"
		else
			t_fail "$name" "exit status $?" "$d/stderr"
		fi
	done
	for f in tests/dwarf/bad-*.probes; do
		name=$tag/$(basename "$f" .probes)
		d=$T_OUT/$name && rm -rf "$d" && mkdir -p "$d/out"
		dw_subst "$f" > "$d/in.probes"
		timeout 20 "$bin" $(dw_args "$f") "$d/in.probes" --plan "$d/out/plan" > "$d/stdout" 2> "$d/stderr.raw"
		rc=$?
		dw_normalise "$d/stderr.raw" | sed "s|$d/in.probes|$(basename "$f")|g" > "$d/stderr"
		if [ $rc -ne 1 ]; then
			t_fail "$name" "exit status $rc, expected 1" "$d/stderr"
		elif [ -n "$(ls -A "$d/out")" ] || [ -s "$d/stdout" ]; then
			t_fail "$name" "wrote output on error"
		else
			t_check "$name" "${f%.probes}.err" "$d/stderr"
		fi
	done
	for fn in dw_item dw_unused dw_point; do
		name=$tag/vars-$fn
		sym=$fn
		[ $fn = dw_unused ] && sym=$dw_unused
		"$bin" --vars "/bin/dw:$sym" --sysroot "$DW/sysroot" --arch mipsel > "$DW/vars.raw" 2>&1
		dw_normalise "$DW/vars.raw" > "$DW/vars-$fn-$(basename "$bin")"
		t_check "$name" "tests/dwarf/vars-$fn.txt" "$DW/vars-$fn-$(basename "$bin")"
	done
	for m in const ptr array; do
		timeout 20 "$bin" --vars "/bin/loop-$m:dw_loop" --sysroot "$DW/sysroot" --arch mipsel > "$DW/vars.raw" 2>&1
		echo "exit $?" >> "$DW/vars.raw"
		dw_normalise "$DW/vars.raw" > "$DW/vars-loop-$m-$(basename "$bin")"
		t_check "$tag/vars-loop-$m" "tests/dwarf/vars-loop-$m.txt" "$DW/vars-loop-$m-$(basename "$bin")"
	done
done

# The normalised numbers, checked against readelf: the uprobe's file
# offset is the symbol's, and @+OFFSET of the global dw_calls is its
# address relative to the probed segment (uprobetracer.rst: the kernel
# adds the probe's load base), as readelf -s / -l give them.
plan=$T_OUT/dwarf/probecc/good-item/plan.raw
line=$(grep "	item	uprobe_events	" "$plan")
got_off=$(echo "$line" | sed -n 's|.*/bin/dw:\(0x[0-9a-f]*\) .*|\1|p')
got_g=$(echo "$line" | sed -n 's|.*calls=@+\(0x[0-9a-f]*\):.*|\1|p')
sym() { readelf -sW "$DW/sysroot/bin/dw" | awk -v s="$1" '$8 == s { print "0x" $2; exit }'; }
read -r seg_off seg_va < <(readelf -lW "$DW/sysroot/bin/dw" | awk '$1 == "LOAD" && ($7 ~ /E/ || $8 ~ /E/) { print $2, $3; exit }')
want_off=$((${seg_off} + $(sym dw_item) - ${seg_va}))
want_g=$((${seg_off} + $(sym dw_calls) - ${seg_va}))
if [ -n "$got_off" ] && [ $((got_off)) = $want_off ] && [ -n "$got_g" ] && [ $((got_g)) = $want_g ]; then
	t_pass dwarf/offsets-match-readelf
	printf '    (dw_item at file offset %s, dw_calls at @+%s)\n' "$got_off" "$got_g"
else
	t_fail dwarf/offsets-match-readelf "probecc: $got_off, @+$got_g; readelf: $(printf '0x%x' $want_off), @+$(printf '0x%x' $want_g)"
fi
