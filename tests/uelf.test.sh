# uelf tests: facts/uelf.c turns a uprobe's PATH:SYMBOL[+OFF] into
# the file offset uprobe_events wants, and checks a raw PATH:OFFSET.
# tests/uelf/prog.c is built for mipsel as a non-PIE and a PIE
# executable and a shared library (each also stripped), as a static
# stripped executable (no symbol table at all), and natively for x86_64
# (PIE and non-PIE), and for mips64el (n64 PIE) when
# mips64el-linux-gnuabi64-gcc is there.  Every offset uelf-test prints is compared with
# one worked out here in awk from readelf -sW and readelf -lW: the
# symbol's value minus the VirtAddr of the PT_LOAD holding it plus that
# segment's Offset.  Its SDT probes (.note.stapsdt) are checked the
# same way against readelf -n and the .stapsdt.base of readelf -SW.
# Which ELF runs under which --arch (uelf_check_arch: e_machine,
# EI_DATA, class and the MIPS e_flags ABI bits) is checked on those and
# on a tiny big-endian o32, n32 and big-endian n64 program.
# The driver tests/uelf/uelf-test.c is built twice,
# plainly and with ASan/UBSan, and every case runs with both.
#
# Run alone: bash tests/uelf.test.sh (through tests/run-tests.sh).

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

# leaks are errors here too: uelf_close() frees everything
t_asan_leaks

U=$T_OUT/uelf
rm -rf "$U" && mkdir -p "$U"
# the functions of tests/uelf/prog.c; scale is static (not in .dynsym)
FUNCS="add_one scale parse_line parse_lines main"
EXPORTED="add_one parse_line parse_lines main"
STRIPPED_HINT="pass an unstripped copy under --sysroot or use PATH:0xOFFSET"

# readelf_sym FILE SYM: "VALUE SIZE OFFSET" of function SYM, in hex,
# from readelf alone: .symtab first, then .dynsym; OFFSET from the
# PT_LOAD with VirtAddr <= VALUE < VirtAddr + FileSiz.  Prints nothing
# when there is no such function or segment.
readelf_sym() {
	{ readelf -lW "$1"; echo '@@syms'; readelf -sW "$1"; } | awk -v sym="$2" '
	function hex(s,    i, c, v) {
		s = tolower(s)
		sub(/^0x/, "", s)
		v = 0
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1))
			if (c == 0)
				return -1
			v = v * 16 + c - 1
		}
		return v
	}
	BEGIN { n = 0 }
	$0 == "@@syms" { syms = 1; next }
	!syms && $1 == "LOAD" { off[n] = hex($2); va[n] = hex($3); fsz[n] = hex($5); n++ }
	syms && /^Symbol table .\.symtab/ { tab = "symtab" }
	syms && /^Symbol table .\.dynsym/ { tab = "dynsym" }
	syms && $4 == "FUNC" && $7 != "UND" && $8 == sym {
		size = $3 ~ /^0x/ ? hex($3) : $3 + 0
		if (tab != "" && !(tab in v)) { v[tab] = hex($2); sz[tab] = size }
	}
	END {
		t = ("symtab" in v) ? "symtab" : ("dynsym" in v) ? "dynsym" : ""
		if (t == "")
			exit
		for (i = 0; i < n; i++)
			if (v[t] >= va[i] && v[t] < va[i] + fsz[i]) {
				printf "0x%x 0x%x 0x%x\n", v[t], sz[t], v[t] - va[i] + off[i]
				exit
			}
	}'
}

# readelf_sdt FILE PROVIDER NAME: every site of the SDT probe, one a
# line, as FOFF or FOFF(SEMAPHORE_FOFF) in hex (uprobe_events' syntax),
# from readelf -n (the notes), -S (.stapsdt.base) and -l (segments).
readelf_sdt() {
	{ readelf -lW "$1"; echo '@@sections'; readelf -SW "$1"; echo '@@notes'; readelf -nW "$1"; } |
	awk -v prov="$2" -v name="$3" '
	function hex(s,    i, v) {
		s = tolower(s); sub(/^0x/, "", s); sub(/,$/, "", s); v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	function foff(a,    i) {
		for (i = 0; i < n; i++)
			if (a >= va[i] && a < va[i] + fsz[i])
				return a - va[i] + off[i]
		return -1
	}
	BEGIN { n = 0; part = "segs"; base = 0 }
	$0 == "@@sections" { part = "sections"; next }
	$0 == "@@notes" { part = "notes"; next }
	part == "segs" && $1 == "LOAD" { off[n] = hex($2); va[n] = hex($3); fsz[n] = hex($5); n++ }
	part == "sections" {
		for (i = 1; i < NF; i++)
			if ($i == ".stapsdt.base")
				base = hex($(i + 2))
	}
	part == "notes" {
		for (i = 1; i < NF; i++)
			if ($i == "Provider:")
				p = $(i + 1)
	}
	part == "notes" && $1 == "Name:" { nm = $2 }
	part == "notes" && $1 == "Location:" && p == prov && nm == name {
		loc = hex($2); nbase = hex($4); sem = hex($6)
		if (base)
			loc += base - nbase
		if (sem)
			printf "0x%x(0x%x)\n", foff(loc), foff(sem)
		else
			printf "0x%x\n", foff(loc)
	}'
}

# readelf_symtab_offs FILE SYM: the file offsets of every function SYM
# in .symtab, in table order, as "0xA, 0xB".
readelf_symtab_offs() {
	{ readelf -lW "$1"; echo '@@syms'; readelf -sW "$1"; } | awk -v sym="$2" '
	function hex(s,    i, v) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	BEGIN { n = 0; out = "" }
	$0 == "@@syms" { syms = 1; next }
	!syms && $1 == "LOAD" { off[n] = hex($2); va[n] = hex($3); fsz[n] = hex($5); n++ }
	syms && /^Symbol table / { tab = $3 }
	syms && tab == "\x27.symtab\x27" && $4 == "FUNC" && $7 != "UND" && $8 == sym {
		a = hex($2)
		for (i = 0; i < n; i++)
			if (a >= va[i] && a < va[i] + fsz[i])
				out = out (out == "" ? "" : ", ") sprintf("0x%x", a - va[i] + off[i])
	}
	END { print out }'
}

# readelf_dataseg FILE: "OFFSET FILESIZ" of the first non-executable
# PT_LOAD whose file range no executable PT_LOAD also covers, in hex.
readelf_dataseg() {
	readelf -lW "$1" | awk '
	function hex(s,    i, v) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	BEGIN { n = 0 }
	$1 == "LOAD" {
		o[n] = hex($2); f[n] = hex($5); x[n] = ($0 ~ / R?W?E /); n++
	}
	END {
		for (i = 0; i < n; i++) {
			if (x[i] || f[i] == 0)
				continue
			ok = 1
			for (j = 0; j < n; j++)
				if (x[j] && o[i] < o[j] + f[j] && o[j] < o[i] + f[i])
					ok = 0
			if (ok) { printf "0x%x 0x%x\n", o[i], f[i]; exit }
		}
	}'
}

# run NAME EXPECTED ARGS...: uelf-test ARGS must print exactly EXPECTED.
run() {
	local name=$1 want=$2 f
	shift 2
	f=$U/$(echo "$name" | tr / _)
	printf '%s\n' "$want" > "$f.want"
	"$UT" "$@" > "$f.got" 2> "$f.err"
	if grep -q 'Sanitizer\|runtime error' "$f.err"; then
		t_fail "$name" "sanitizer report" "$f.err"
	else
		t_check "$name" "$f.want" "$f.got"
	fi
}

# ---- build ----
uelf_ok=1
UELF_SRCS="facts/uelf.c common/arch.c common/elffile.c common/unpack.c common/diag.c common/die.c common/alloc.c common/suggest.c"
gcc -std=gnu11 -Wall -Wextra -Werror -Icommon -Ifacts $UELF_SRCS tests/uelf/uelf-test.c \
	-lelf -larchive -o "$U/uelf-test" > "$U/build.log" 2>&1 ||
	{ t_fail uelf/build "uelf-test does not build (libelf-dev missing?)" "$U/build.log"; uelf_ok=; }
gcc -std=gnu11 -Wall -Wextra -Werror -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-Icommon -Ifacts $UELF_SRCS tests/uelf/uelf-test.c -lelf -larchive -o "$U/uelf-test-asan" \
	> "$U/build-asan.log" 2>&1 ||
	{ t_fail uelf/build-asan "uelf-test-asan does not build" "$U/build-asan.log"; uelf_ok=; }

BINS=
# a tiny program without libc, for the ABIs no C library is installed for
printf 'int f(int a, int b, int c, int d, int e) { return a + b + c + d + e; }\nvoid __start(void) { for (;;) f(1, 2, 3, 4, 5); }\n' \
	> "$U/tiny.c"
TINY="-O2 -nostdlib -static $U/tiny.c"
if command -v mipsel-linux-gnu-gcc > /dev/null; then
	MCC="mipsel-linux-gnu-gcc -O2 tests/uelf/prog.c"
	if $MCC -no-pie -fno-pie -o "$U/mipsel-nopie" > "$U/cross.log" 2>&1 &&
	   $MCC -fPIE -pie -o "$U/mipsel-pie" >> "$U/cross.log" 2>&1 &&
	   $MCC -shared -fPIC -o "$U/mipsel-so" >> "$U/cross.log" 2>&1 &&
	   $MCC -static -o "$U/mipsel-static" >> "$U/cross.log" 2>&1 &&
	   mipsel-linux-gnu-strip -o "$U/mipsel-nopie-stripped" "$U/mipsel-nopie" >> "$U/cross.log" 2>&1 &&
	   mipsel-linux-gnu-strip -o "$U/mipsel-so-stripped" "$U/mipsel-so" >> "$U/cross.log" 2>&1 &&
	   mipsel-linux-gnu-strip -o "$U/mipsel-static-stripped" "$U/mipsel-static" >> "$U/cross.log" 2>&1 &&
	   mipsel-linux-gnu-gcc -EB $TINY -o "$U/mips-o32" >> "$U/cross.log" 2>&1; then
		BINS="mipsel-nopie mipsel-pie mipsel-so"
	else
		t_fail uelf/cross "mipsel-linux-gnu-gcc failed" "$U/cross.log"
	fi
else
	t_skip uelf/mipsel "no mipsel-linux-gnu-gcc (qemu-images/deps.sh build)"
fi
M64=
if command -v mips64el-linux-gnuabi64-gcc > /dev/null; then
	if mips64el-linux-gnuabi64-gcc -O2 -fPIE -pie tests/uelf/prog.c -o "$U/mips64el-pie" \
		> "$U/cross64.log" 2>&1 &&
	   mips64el-linux-gnuabi64-gcc -mabi=n32 $TINY -o "$U/mips64el-n32" >> "$U/cross64.log" 2>&1 &&
	   mips64el-linux-gnuabi64-gcc -EB $TINY -o "$U/mips64-n64" >> "$U/cross64.log" 2>&1; then
		BINS="$BINS mips64el-pie"
		M64=1
	else
		t_fail uelf/cross64 "mips64el-linux-gnuabi64-gcc failed" "$U/cross64.log"
	fi
else
	t_skip uelf/mips64el "no mips64el-linux-gnuabi64-gcc (qemu-images/deps.sh build)"
fi
# two static functions of one name, in two files
printf 'static int __attribute__((noinline, used)) dup(int x) { return x * 3; }\nint a(int x) { return dup(x); }\n' \
	> "$U/dup1.c"
printf 'static int __attribute__((noinline, used)) dup(int x) { return x + 7; }\nint a(int);\nint main(int c, char **v) { (void)v; return a(c) + dup(c); }\n' \
	> "$U/dup2.c"
if gcc -O2 -fPIE -pie tests/uelf/prog.c -o "$U/x86_64-pie" > "$U/native.log" 2>&1 &&
   gcc -O2 -fno-pie -no-pie tests/uelf/prog.c -o "$U/x86_64-nopie" >> "$U/native.log" 2>&1 &&
   gcc -O2 -DNO_SDT tests/uelf/prog.c -o "$U/x86_64-nosdt" >> "$U/native.log" 2>&1 &&
   gcc -O2 -c tests/uelf/prog.c -o "$U/prog.o" >> "$U/native.log" 2>&1 &&
   gcc -O2 -no-pie -fno-pie "$U/dup1.c" "$U/dup2.c" -o "$U/x86_64-dup" >> "$U/native.log" 2>&1; then
	BINS="$BINS x86_64-pie x86_64-nopie"
else
	t_fail uelf/native "gcc failed" "$U/native.log"
fi

for UT in ${uelf_ok:+"$U/uelf-test" "$U/uelf-test-asan"}; do
	tag=uelf
	[ "${UT%-asan}" = "$UT" ] || tag=uelf-asan

	for b in $BINS; do
		f=$U/$b
		# every function: SYMBOL, SYMBOL+4, the last word, one past the end
		for fn in $FUNCS; do
			set -- $(readelf_sym "$f" "$fn")
			if [ $# -ne 3 ]; then
				t_fail "$tag/$b/$fn" "readelf shows no function $fn in a PT_LOAD"
				continue
			fi
			va=$1 size=$2 off=$3
			run "$tag/$b/$fn" "$off" "$f" "$fn"
			run "$tag/$b/$fn+4" "$(printf '0x%x' $((off + 4)))" "$f" "$fn+4"
			run "$tag/$b/$fn+size-4" "$(printf '0x%x' $((off + size - 4)))" \
				"$f" "$fn+$((size - 4))"
			run "$tag/$b/$fn+size" \
				"$(printf 'error: %s+0x%x is past the end of %s in %s (st_size 0x%x)' \
					"$fn" $((size)) "$fn" "$f" $((size)))" \
				"$f" "$fn+$((size))"
			# --check: the real offset passes; the address nm prints
			# fails naming the symbol and the right offset, unless
			# the two coincide (PIE and shared libraries, usually)
			run "$tag/$b/check/$fn+4" "$(printf '0x%x' $((off + 4)))" \
				--check "$f" "$((off + 4))"
			if [ $((va)) -ne $((off)) ]; then
				run "$tag/$b/check-nm-address/$fn+4" \
					"$(printf 'error: 0x%x is a virtual address (symbol %s+0x4); the file offset is 0x%x' \
						$((va + 4)) "$fn" $((off + 4)))" \
					--check "$f" "$(printf '0x%x' $((va + 4)))"
			fi
		done

		# did you mean: the closest names by edit distance, at most 3
		run "$tag/$b/unknown-transposed" \
			"error: no symbol \"parse_lien\" in $f; did you mean parse_line or parse_lines?" \
			"$f" parse_lien
		run "$tag/$b/unknown-typo" "error: no symbol \"mian\" in $f; did you mean main?" "$f" mian
		run "$tag/$b/unknown-far" "error: no symbol \"zzzzzzzzzz\" in $f" "$f" zzzzzzzzzz
		run "$tag/$b/data-symbol" \
			"error: \"counter\" in $f is a data object (STT_OBJECT), not a function" "$f" counter

		# SDT probes: every site, and the semaphore's offset
		for p in prog:tick prog:line prog:twice; do
			readelf_sdt "$f" "${p%%:*}" "${p#*:}" > "$U/want.sdt"
			if [ ! -s "$U/want.sdt" ] || grep -q -- -1 "$U/want.sdt"; then
				t_fail "$tag/$b/sdt/$p" "readelf shows no site of $p in a PT_LOAD"
				continue
			fi
			run "$tag/$b/sdt/$p" "$(cat "$U/want.sdt")" --sdt "$f" "$p"
		done
		run "$tag/$b/sdt/unknown" \
			"error: no SDT probe \"prog:tikc\" in $f; did you mean prog:tick?" \
			--sdt "$f" prog:tikc

		# --check on data and past every segment
		set -- $(readelf_dataseg "$f")
		if [ $# -eq 2 ]; then
			run "$tag/$b/check-data" \
				"$(printf 'error: offset 0x%x is in a non-executable segment of %s (file offsets 0x%x-0x%x); a uprobe must be on code' \
					$(($1)) "$f" $(($1)) $(($1 + $2)))" \
				--check "$f" "$1"
		else
			t_fail "$tag/$b/check-data" "readelf shows no data-only PT_LOAD"
		fi
		run "$tag/$b/check-outside" \
			"error: offset 0x7ffffff0 is outside every loadable segment of $f" \
			--check "$f" 0x7ffffff0
	done

	case " $BINS " in
	*" mipsel-nopie "*)
		# MIPS instructions are 4 bytes: arch/mips/kernel/uprobes.c
		set -- $(readelf_sym "$U/mipsel-nopie" parse_line)
		run "$tag/mipsel-nopie/misaligned" \
			"$(printf 'error: parse_line+0x2 (0x%x) in %s is not 4-byte aligned; MIPS uprobes must be on an instruction boundary' \
				$(($1 + 2)) "$U/mipsel-nopie")" \
			"$U/mipsel-nopie" parse_line+2
		run "$tag/mipsel-nopie/check-misaligned" \
			"$(printf 'error: offset 0x%x in %s is not 4-byte aligned; MIPS uprobes must be on an instruction boundary' \
				$(($3 + 2)) "$U/mipsel-nopie")" \
			--check "$U/mipsel-nopie" $(($3 + 2))

		# stripped: .dynsym still has what is exported (main, on
		# MIPS even in a non-PIE), not static functions
		f=$U/mipsel-nopie-stripped
		run "$tag/mipsel-nopie-stripped/add_one" \
			"error: no symbol \"add_one\" in the .dynsym of $f, which has no .symtab (stripped); $STRIPPED_HINT" \
			"$f" add_one
		set -- $(readelf_sym "$f" main)
		run "$tag/mipsel-nopie-stripped/main" "$3" "$f" main
		f=$U/mipsel-static-stripped
		run "$tag/mipsel-static-stripped/main" \
			"error: $f has no symbol table (stripped); $STRIPPED_HINT" "$f" main
		# a stripped shared library keeps its exports in .dynsym
		f=$U/mipsel-so-stripped
		for fn in $EXPORTED; do
			set -- $(readelf_sym "$U/mipsel-so" "$fn")
			run "$tag/mipsel-so-stripped/$fn" "$3" "$f" "$fn"
		done
		# strip keeps .note.stapsdt
		run "$tag/mipsel-nopie-stripped/sdt/prog:tick" "$(readelf_sdt "$U/mipsel-nopie" prog tick)" \
			--sdt "$U/mipsel-nopie-stripped" prog:tick
		run "$tag/mipsel-so-stripped/scale" \
			"error: no symbol \"scale\" in the .dynsym of $f, which has no .symtab (stripped); $STRIPPED_HINT" \
			"$f" scale
		;;
	esac

	# --arch: which ELF runs under which kernel, and its user ABI
	x86="x86-64 (ELFCLASS64, ELFDATA2LSB, EM_X86_64)"
	run "$tag/arch/x86_64-under-x86_64" sysv --arch x86_64 "$U/x86_64-pie"
	run "$tag/arch/x86_64-under-mipsel" \
		"error: $U/x86_64-pie is $x86, not a mipsel program" --arch mipsel "$U/x86_64-pie"
	run "$tag/arch/x86_64-under-arm64" \
		"error: $U/x86_64-pie is $x86, not an arm64 program" --arch arm64 "$U/x86_64-pie"
	run "$tag/arch/unknown-arch" "error: unknown --arch 'sparc' for $U/x86_64-pie" \
		--arch sparc "$U/x86_64-pie"
	run "$tag/arch/not-elf" "error: tests/uelf/prog.c is not an ELF file" \
		--arch mipsel tests/uelf/prog.c
	case " $BINS " in
	*" mipsel-nopie "*)
		f=$U/mipsel-nopie
		o32le="little-endian MIPS o32 (ELFCLASS32, ELFDATA2LSB, EM_MIPS)"
		run "$tag/arch/mipsel-under-mipsel" o32 --arch mipsel "$f"
		# o32 userland on a 64-bit kernel (Loongson-3, Octeon)
		run "$tag/arch/mipsel-under-mips64el" o32 --arch mips64el "$f"
		run "$tag/arch/mipsel-under-x86_64" "error: $f is $o32le, not an x86_64 program" \
			--arch x86_64 "$f"
		run "$tag/arch/mipsel-under-mips" "error: $f is $o32le, not a mips program" \
			--arch mips "$f"
		run "$tag/arch/mipsel-under-mips64" "error: $f is $o32le, not a mips64 program" \
			--arch mips64 "$f"
		set -- $(readelf_sym "$f" add_one)
		run "$tag/arch/abi-mipsel" "$3 o32" --abi "$f" add_one
		f=$U/mips-o32
		run "$tag/arch/mips-under-mips" o32 --arch mips "$f"
		run "$tag/arch/mips-under-mips64" o32 --arch mips64 "$f"
		run "$tag/arch/mips-under-mipsel" \
			"error: $f is big-endian MIPS o32 (ELFCLASS32, ELFDATA2MSB, EM_MIPS), not a mipsel program" \
			--arch mipsel "$f"
		;;
	esac
	if [ -n "$M64" ]; then
		f=$U/mips64el-pie
		run "$tag/arch/n64-under-mips64el" n64 --arch mips64el "$f"
		run "$tag/arch/n64-under-mipsel" \
			"error: $f is little-endian MIPS n64 (ELFCLASS64, ELFDATA2LSB, EM_MIPS), not a mipsel program; a 32-bit MIPS kernel runs o32 programs only" \
			--arch mipsel "$f"
		run "$tag/arch/n64-under-mips64" \
			"error: $f is little-endian MIPS n64 (ELFCLASS64, ELFDATA2LSB, EM_MIPS), not a mips64 program" \
			--arch mips64 "$f"
		run "$tag/arch/n64-under-x86_64" \
			"error: $f is little-endian MIPS n64 (ELFCLASS64, ELFDATA2LSB, EM_MIPS), not an x86_64 program" \
			--arch x86_64 "$f"
		set -- $(readelf_sym "$f" add_one)
		run "$tag/arch/abi-n64" "$3 n64" --abi "$f" add_one
		f=$U/mips64el-n32
		run "$tag/arch/n32-under-mips64el" n32 --arch mips64el "$f"
		run "$tag/arch/n32-under-mipsel" \
			"error: $f is little-endian MIPS n32 (ELFCLASS32, ELFDATA2LSB, EM_MIPS, EF_MIPS_ABI2), not a mipsel program; a 32-bit MIPS kernel runs o32 programs only" \
			--arch mipsel "$f"
		f=$U/mips64-n64
		run "$tag/arch/mips64-n64-under-mips64" n64 --arch mips64 "$f"
		run "$tag/arch/mips64-n64-under-mips" \
			"error: $f is big-endian MIPS n64 (ELFCLASS64, ELFDATA2MSB, EM_MIPS), not a mips program; a 32-bit MIPS kernel runs o32 programs only" \
			--arch mips "$f"
		run "$tag/arch/mips64-n64-under-mips64el" \
			"error: $f is big-endian MIPS n64 (ELFCLASS64, ELFDATA2MSB, EM_MIPS), not a mips64el program" \
			--arch mips64el "$f"
	fi

	run "$tag/sdt/none" "error: $U/x86_64-nosdt has no SDT probes (no .note.stapsdt section)" \
		--sdt "$U/x86_64-nosdt" prog:tick
	run "$tag/ambiguous" \
		"error: 2 functions named \"dup\" in the .symtab of $U/x86_64-dup (file offsets $(readelf_symtab_offs "$U/x86_64-dup" dup)); use PATH:0xOFFSET to pick one" \
		"$U/x86_64-dup" dup
	run "$tag/not-elf" "error: tests/uelf/prog.c is not an ELF file" tests/uelf/prog.c main
	run "$tag/relocatable" \
		"error: $U/prog.o is an ELF relocatable object, not an executable or shared library" \
		"$U/prog.o" main
	run "$tag/missing" "error: cannot open $U/none: No such file or directory" "$U/none" main
done
