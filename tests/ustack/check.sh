# The checks of a boot of tests/ustack/chain.probes, sourced by
# tests/ustack.test.sh and tests/kernel/mips64be.sh (t_pass, t_fail,
# t_grep from tests/lib.sh).

# user_frames PROBE LOG: the user frames of PROBE's first stack in the
# report's text, one a line, without the counts
user_frames() {
	awk -v p="$1" '$1 == p && $3 == "hit(s)," { in_p = 1; next }
		in_p && /user callers/ { on = 1; next }
		on && /^      / { $1 = ""; sub(/^ /, ""); print; next }
		on { exit }' "$2"
}

# ustack_check NAME REPORT RAW CONSOLE DIR: for probe_me (/bin/chain,
# -O2) and probe_me_O0 (/bin/chain-O0) of the report's text REPORT: the
# exact chain, innermost first, the direct caller at probe_me's first
# instruction included, every caller found with CFI (NAME/PROBE/
# exact-chain); the walk reaches the entry point's function (to-start);
# the agent armed the perf user-stack sample (armed, in the raw dump
# RAW); and the kernel did not warn about the registers sampled
# (no-kernel-warning, in CONSOLE: MIPS's perf_reg_value() WARNs on $k0,
# $k1).  Files of its own in DIR.
ustack_check() {
	local name=$1 report=$2 raw=$3 console=$4 d=$5 probe prog

	for probe in probe_me probe_me_O0; do
		case $probe in
		probe_me) prog=/bin/chain ;;
		probe_me_O0) prog=/bin/chain-O0 ;;
		esac
		user_frames $probe "$report" > "$d/$probe.frames"
		printf '%s\n' "probe_me+0x0 [$prog] (pc)" "caller_three (cfi)" "caller_two (cfi)" \
			"caller_one (cfi)" "main (cfi)" > "$d/$probe.want"
		head -5 "$d/$probe.frames" |
			sed -E 's/\+0x[0-9a-f]+ \[\/bin\/chain(-O0)?\] \(cfi\)$/ (cfi)/' > "$d/$probe.got"
		if cmp -s "$d/$probe.want" "$d/$probe.got"; then
			t_pass $name/$probe/exact-chain
		else
			t_fail $name/$probe/exact-chain "$(tr '\n' '|' < "$d/$probe.frames")" "$report"
		fi
		if grep -q '\[user stack cut' "$d/$probe.frames" ||
		   ! tail -1 "$d/$probe.frames" | grep -Eq "^_?_start\+0x[0-9a-f]+ \[$prog\] \(cfi\)$"; then
			t_fail $name/$probe/to-start "the unwind stops before _start" "$d/$probe.frames"
		else
			t_pass $name/$probe/to-start
		fi
		t_grep $name/$probe/armed "$raw" \
			$'^item\t'$probe$'\tarmed\tperf\tperf: [0-9]+ cpus, id [0-9]+, user stack$'
	done
	if grep -Eq 'WARNING: .*(perf_reg|perf_output_sample)' "$console"; then
		t_fail $name/no-kernel-warning "$(grep -m1 'WARNING:' "$console")"
	else
		t_pass $name/no-kernel-warning
	fi
}

# ustack_tools ARCH: cc (the C compiler) and x (the binutils prefix) of
# the boot target ARCH's userland (mips64: big-endian n64 Malta)
ustack_tools() {
	case $1 in
	mipsel | loongson3-o32) cc=mipsel-linux-gnu-gcc x=mipsel-linux-gnu- ;;
	loongson3) cc=mips64el-linux-gnuabi64-gcc x=mips64el-linux-gnuabi64- ;;
	mips64) cc=mips64-linux-gnuabi64-gcc x=mips64-linux-gnuabi64- ;;
	x86_64) cc=gcc x= ;;
	arm64) cc=aarch64-linux-gnu-gcc x=aarch64-linux-gnu- ;;
	*) return 1 ;;
	esac
}

# ustack_libc ARCH: libc.so.6's path in the target (where dyn_libs puts it)
ustack_libc() {
	case $1 in
	x86_64) echo /lib/x86_64-linux-gnu/libc.so.6 ;;
	*) echo /lib/libc.so.6 ;;
	esac
}

# dyn_libs ARCH SYSROOT: the loader (the programs' PT_INTERP) and
# libc.so.6 of the cross toolchain's libc at the target's paths (/lib is
# in every one of these loaders' default search paths)
dyn_libs() {
	local t
	case $1 in
	x86_64)
		mkdir -p "$2/lib64" "$2/lib/x86_64-linux-gnu" &&
		cp -L /lib64/ld-linux-x86-64.so.2 "$2/lib64/" &&
		cp -L /lib/x86_64-linux-gnu/libc.so.6 "$2/lib/x86_64-linux-gnu/"
		return ;;
	mipsel | loongson3-o32) t=mipsel-linux-gnu ;;
	loongson3) t=mips64el-linux-gnuabi64 ;;
	mips64) t=mips64-linux-gnuabi64 ;;
	arm64) t=aarch64-linux-gnu ;;
	esac
	mkdir -p "$2/lib" && cp -L /usr/$t/lib/libc.so.6 "$2/lib/" || return 1
	case $1 in
	mipsel | loongson3-o32) cp -L /usr/$t/lib/ld.so.1 "$2/lib/" ;;
	loongson3 | mips64) mkdir -p "$2/lib64" && cp -L /usr/$t/lib64/ld.so.1 "$2/lib64/" ;;
	arm64) cp -L /usr/$t/lib/ld-linux-aarch64.so.1 "$2/lib/" ;;
	esac
}

# strip_into PROG SYSROOT ARCH NAME HOW: PROG stripped to SYSROOT/bin/NAME
# (no .symtab, no .debug_frame: mipsel's CFI of C code was only there),
# its "objcopy --only-keep-debug" file placed where the report looks:
# HOW build-id (SYSROOT/usr/lib/debug/.build-id/xx/rest.debug) or
# debuglink (SYSROOT/usr/lib/debug/bin/NAME.debug, named by the
# program's .gnu_debuglink with its CRC-32), as Debian's -dbgsym
# packages and GDB place them
strip_into() {
	local prog=$1 root=$2 name=$4 how=$5 id cc x
	ustack_tools $3 || return 1
	mkdir -p "$root/bin" "$root/usr/lib/debug/bin" && root=$(cd "$root" && pwd)
	# (binutils warns of the notes it keeps without their segment's bytes)
	${x}objcopy --only-keep-debug "$prog" "$root/$name.debug.tmp" 2> /dev/null || return 1
	${x}strip --strip-all -o "$root/bin/$name" "$prog" || return 1
	case $how in
	build-id)
		id=$(readelf -n "$prog" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
		[ -n "$id" ] || return 1
		mkdir -p "$root/usr/lib/debug/.build-id/${id:0:2}"
		mv "$root/$name.debug.tmp" "$root/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ;;
	debuglink)
		mv "$root/$name.debug.tmp" "$root/usr/lib/debug/bin/$name.debug"
		(cd "$root/usr/lib/debug/bin" && ${x}objcopy --add-gnu-debuglink=$name.debug "$root/bin/$name") ;;
	*) return 1 ;;
	esac
}

# probe_off PROG: the file offset of probe_me in PROG (tests/lib.sh)
probe_off() { elf_foff "$1" probe_me; }

# ustack_sysroot ARCH DIR STRIP: the programs of a user-stack boot in
# DIR/sysroot, their probes in DIR/probes (errors in DIR/cc.err):
# tests/ustack/chain.c static -O2 (/bin/chain) and -O0 (/bin/chain-O0);
# the dynamic qsort.c (/bin/qsort) and dlopen.c (/bin/dlopen) with
# plugin.c (/lib/libuplugin.so), the loader and libc; uretprobes with
# 'stack' (ret.probes); and with STRIP (build-id or debuglink; "" none)
# /bin/chain-s, /bin/chain stripped with its debug file placed that way,
# its uprobe probe_me_s by name with its 'stack has' (the compiler reads
# the debug file), the file offset nm and readelf give for the
# unstripped program in DIR/chain-s.off.
ustack_sysroot() {
	local arch=$1 d=$2 strip=$3 cc x off
	ustack_tools $arch || return 1
	mkdir -p "$d/sysroot/bin" "$d/sysroot/lib"
	$cc -static -g -O2 -o "$d/sysroot/bin/chain" tests/ustack/chain.c 2> "$d/cc.err" &&
	$cc -static -g -O0 -o "$d/sysroot/bin/chain-O0" tests/ustack/chain.c 2>> "$d/cc.err" &&
	$cc -g -O2 -o "$d/sysroot/bin/qsort" tests/ustack/qsort.c 2>> "$d/cc.err" &&
	$cc -g -O2 -o "$d/sysroot/bin/dlopen" tests/ustack/dlopen.c 2>> "$d/cc.err" &&
	$cc -shared -fPIC -g -O2 -o "$d/sysroot/lib/libuplugin.so" tests/ustack/plugin.c 2>> "$d/cc.err" &&
	dyn_libs $arch "$d/sysroot" 2>> "$d/cc.err" || return 1
	cat tests/ustack/chain.probes tests/ustack/qsort.probes tests/ustack/dlopen.probes \
		tests/ustack/ret.probes > "$d/probes"
	[ -n "$strip" ] || return 0
	off=$(probe_off "$d/sysroot/bin/chain") && [ -n "$off" ] &&
	strip_into "$d/sysroot/bin/chain" "$d/sysroot" $arch chain-s $strip 2>> "$d/cc.err" || return 1
	echo "$off" > "$d/chain-s.off"
	printf '%s\n' "uprobe probe_me_s /bin/chain-s:probe_me {" '    x = arg1:s32' '    stack' '}' \
		'expect probe_me_s.x == 41' 'expect probe_me_s stack has caller_three' \
		'expect probe_me_s stack has caller_two' 'expect probe_me_s stack has caller_one' \
		'expect probe_me_s stack has main' >> "$d/probes"
}

# qsort_want ARCH LIBC DEBUGFILE: qsort_probe's frames up to main.  In
# libc: the comparison's caller, msort_with_tmp (static: named only by
# libc's debug file, libc6-dbg's .part.0 clone on x86_64; the cross
# libcs of mipsel, mips64el, mips64 and arm64 have no .symtab and no
# debug package here: "0x?"), then qsort_r, and on o32 qsort itself
# (x86_64's, arm64's and n64's qsort branch to qsort_r: no frame).
qsort_want() {
	local msort="0x? [$2] (cfi)"
	[ -e "$3" ] && msort="msort_with_tmp.part.0 [$2] (cfi)"
	echo "probe_me [/bin/qsort] (pc)"
	echo "compare [/bin/qsort] (cfi)"
	echo "$msort"
	echo "qsort_r [$2] (cfi)"
	case $1 in mipsel | loongson3-o32) echo "qsort [$2] (cfi)" ;; esac
	echo "sort_two [/bin/qsort] (cfi)"
	echo "main [/bin/qsort] (cfi)"
}

# dyn_check NAME ARCH DIR RAW DUMPS PLAN: the dynamic programs, the
# stripped copy and the uretprobes of a boot of ustack_sysroot's
# DIR/probes (its raw dump RAW, the dumps extracted from it DUMPS, the
# plan PLAN), reported again into
# DIR/full.report with a sysroot that
# also has libc's separate debug file where the host has one
# (libc6-dbg: x86_64), which names libc's static functions:
#  NAME/mmap-lines-sampled-only: perf-mmap lines only of processes
#    with a kept sample (the rc's other programs are held back);
#  NAME/mmap-lines-since-exec: what a sampled program inherited from
#    the rc's shell (busybox's mappings) died at its exec: not written;
#  NAME/qsort/mmap-lines, exact-chain: qsort_probe through libc
#    (qsort_want), to the entry point;
#  NAME/dlopen/mmap-line: the agent's perf-mmap line of
#    /lib/libuplugin.so, of dl_probe's process, after its exec's
#    mapping of /bin/dlopen and before the sample: dlopen's mmap;
#  NAME/dlopen/exact-chain: probe_me <- plugin_step <- plugin_apply
#    (named from the library under --sysroot, at that line's bias) <-
#    load_and_call <- main, to the entry point;
#  NAME/ret/chain, NAME/ret/qsort: a uretprobe's frames are the uprobe's
#    on the same function less its first, the return address first and
#    marked "(ret)", offsets and all;
#  NAME/stripped/exact-chain (when the boot has /bin/chain-s): its
#    frames are /bin/chain's, offsets and all, named and unwound from
#    the debug file; NAME/stripped/offset-from-debug-file: the plan's
#    uprobe of /bin/chain-s:probe_me is at the unstripped one's offset.
dyn_check() {
	local name=$1 arch=$2 d=$3 raw=$4 dumps=$5 plan=$6 libc id dbg pid t0 t1 ts
	local rs=$d/rsysroot

	if awk -F'\t' '$1 == "perf-user" { s[$5] = 1 } $1 == "perf-mmap" { m[$3] = 1; n++ }
		END { for (p in m) if (!(p in s)) { print "pid " p " has no sample"; exit 1 }; exit !n }' \
		"$dumps" > "$d/mmap-pids" 2>&1; then
		t_pass $name/mmap-lines-sampled-only
	else
		t_fail $name/mmap-lines-sampled-only "$(cat "$d/mmap-pids")" "$dumps"
	fi
	if grep -q $'^perf-mmap\t.*\t/bin/busybox$' "$dumps"; then
		t_fail $name/mmap-lines-since-exec "busybox mappings under a sampled pid" "$dumps"
	else
		t_pass $name/mmap-lines-since-exec
	fi
	libc=$(ustack_libc $arch)
	if grep -aq "^perf-mmap	[0-9]*	[0-9]*	[0-9a-f]*	[0-9a-f]*	[0-9a-f]*	$libc\$" "$dumps"; then
		t_pass $name/qsort/mmap-lines
	else
		t_fail $name/qsort/mmap-lines "no perf-mmap line of $libc in the dump" "$dumps"
	fi
	# copies, not links to the host's files: a sysroot's absolute links
	# point into the sysroot (facts/sysroot.c)
	rm -rf "$rs" && cp -a "$d/sysroot" "$rs"
	id=$(readelf -n "$rs$libc" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
	dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	if [ -n "$id" ] && [ -r "$dbg" ]; then
		mkdir -p "$rs/usr/lib/debug/.build-id/${id:0:2}" && cp "$dbg" "$rs$dbg"
	fi
	./probecc report --sysroot "$rs" --probes "$d/probes" "$raw" > "$d/full.report" 2>&1
	user_frames qsort_probe "$d/full.report" > "$d/qsort.frames"
	# offsets dropped; a libc frame no symbol names keeps its object ("0x? [LIBC]")
	sed -E -e 's/\+0x[0-9a-f]+ \[/ [/' -e 's/^0x[0-9a-f]+ \[/0x? [/' "$d/qsort.frames" |
		head -$(qsort_want $arch $libc "$rs$dbg" | wc -l) > "$d/qsort.got"
	qsort_want $arch $libc "$rs$dbg" > "$d/qsort.want"
	if cmp -s "$d/qsort.want" "$d/qsort.got" && ! grep -q '\[user stack cut' "$d/qsort.frames" &&
	   grep -Eq '^_?_start\+0x[0-9a-f]+ \[/bin/qsort\] \(cfi\)$' "$d/qsort.frames"; then
		t_pass $name/qsort/exact-chain
	else
		t_fail $name/qsort/exact-chain "$(tr '\n' '|' < "$d/qsort.frames")" "$d/full.report"
	fi

	# dlopen: the library's mapping, made by the running program
	pid=$(awk -F'\t' '$1 == "perf-user" && $2 == "dl_probe" { print $5; exit }' "$dumps")
	ts=$(awk -F'\t' '$1 == "perf-user" && $2 == "dl_probe" { print $3; exit }' "$dumps")
	t0=$(awk -F'\t' -v p="$pid" '$1 == "perf-mmap" && $3 == p && $7 == "/bin/dlopen" { print $2; exit }' "$dumps")
	t1=$(awk -F'\t' -v p="$pid" '$1 == "perf-mmap" && $3 == p && $7 == "/lib/libuplugin.so" { print $2; exit }' "$dumps")
	if [ -n "$pid" ] && [ -n "$t0" ] && [ -n "$t1" ] && [ "$t0" -lt "$t1" ] && [ "$t1" -lt "$ts" ]; then
		t_pass $name/dlopen/mmap-line
	else
		t_fail $name/dlopen/mmap-line "dl_probe's pid '$pid' sample at '$ts': /bin/dlopen mapped at '$t0', /lib/libuplugin.so at '$t1'" "$dumps"
	fi
	user_frames dl_probe "$d/full.report" > "$d/dlopen.frames"
	printf '%s\n' "probe_me+0x0 [/bin/dlopen] (pc)" "plugin_step [/lib/libuplugin.so] (cfi)" \
		"plugin_apply [/lib/libuplugin.so] (cfi)" "load_and_call [/bin/dlopen] (cfi)" \
		"main [/bin/dlopen] (cfi)" > "$d/dlopen.want"
	head -5 "$d/dlopen.frames" | sed -E 's/\+0x[0-9a-f]+ \[([^]]*)\] \(cfi\)$/ [\1] (cfi)/' > "$d/dlopen.got"
	if cmp -s "$d/dlopen.want" "$d/dlopen.got" && ! grep -q '\[user stack cut' "$d/dlopen.frames" &&
	   grep -Eq '^_?_start\+0x[0-9a-f]+ \[/bin/dlopen\] \(cfi\)$' "$d/dlopen.frames"; then
		t_pass $name/dlopen/exact-chain
	else
		t_fail $name/dlopen/exact-chain "$(tr '\n' '|' < "$d/dlopen.frames")" "$d/full.report"
	fi

	# uretprobes: the uprobe's callers, the first one the return address
	ret_same $name/ret/chain probe_me chain_ret "$d" chain
	ret_same $name/ret/qsort qsort_probe qsort_ret "$d" qsort

	if [ -s "$d/chain-s.off" ]; then
		user_frames probe_me "$d/full.report" | sed 's| \[/bin/chain\] | [/bin/chain-s] |' > "$d/stripped.want"
		user_frames probe_me_s "$d/full.report" > "$d/stripped.frames"
		if [ -s "$d/stripped.want" ] && cmp -s "$d/stripped.want" "$d/stripped.frames" &&
		   [ "$(wc -l < "$d/stripped.frames")" -ge 6 ]; then
			t_pass $name/stripped/exact-chain
		else
			t_fail $name/stripped/exact-chain "$(tr '\n' '|' < "$d/stripped.frames")" "$d/full.report"
		fi
		if grep -q "	uprobe_events	p:uprobes/probe_me_s /bin/chain-s:$(cat "$d/chain-s.off") " "$plan"; then
			t_pass $name/stripped/offset-from-debug-file
		else
			t_fail $name/stripped/offset-from-debug-file "not /bin/chain-s:$(cat "$d/chain-s.off")" "$plan"
		fi
	fi
}

# ret_same NAME UPROBE URETPROBE DIR TAG: URETPROBE's user frames in
# DIR/full.report are UPROBE's (on the same function) less the first,
# the next one's "(cfi)" written "(ret)"; and they reach the entry point
ret_same() {
	local name=$1 d=$4
	user_frames $2 "$d/full.report" | sed -e 1d -e '2s/ (cfi)$/ (ret)/' > "$d/$5-ret.want"
	user_frames $3 "$d/full.report" > "$d/$5-ret.frames"
	if [ -s "$d/$5-ret.want" ] && cmp -s "$d/$5-ret.want" "$d/$5-ret.frames" &&
	   ! grep -q '\[user stack' "$d/$5-ret.frames" && [ "$(wc -l < "$d/$5-ret.frames")" -ge 4 ]; then
		t_pass $name
	else
		t_fail $name "$(tr '\n' '|' < "$d/$5-ret.frames")" "$d/full.report"
	fi
}
