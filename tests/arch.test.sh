# The arch table (common/arch.def): every row has every field, so that
# an arch added without its ABI data, its DWARF registers or its quirks
# is refused, by this check and by the C build alike.
#  - the rows as make and the shell read them (common/arch-rows) have as
#    many fields as the table's ARCH(...) comment names, none empty but
#    CLOCKS and REG_PREFIXES (whose "" says "none"), numbers where the
#    field is a number, and each C name a row gives (its ARGREGS,
#    REGNAMES, DWARF_REGS, REG_ALIASES arrays, its ABI_SOURCE) defined
#    in compiler/abi.c;
#  - a copy of the table with one field taken out of a row, and one
#    with a field emptied, are refused by the same check and by the C
#    compiler (common/arch.c, compiler/abi.c): the check can fail.
#  - no two rows share an ELF machine, class and byte order (what
#    common/arch.c arch_by_elf() finds a row by).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

d=$T_OUT/arch && rm -rf "$d" && mkdir -p "$d"

# The field names of the ARCH(...) comment, one a line.
arch_fields() {
	sed -n '/^ \* ARCH(/,/)$/p' "$1" | sed 's/^ \*//; s/ARCH(//; s/)//' |
		tr ',' '\n' | tr -d ' \t' | grep -v '^$'
}

# arch_rows_check DIR: what is wrong with DIR/arch.def's rows, a line
# each (DIR holds arch.def and arch-rows); nothing when all is well.
arch_rows_check() {
	local dir=$1 fields n
	fields=$(arch_fields "$dir/arch.def" | paste -sd' ')
	n=$(echo "$fields" | wc -w)
	[ "$n" -ge 27 ] || echo "the ARCH(...) comment names $n fields, not 27 or more"
	"$dir/arch-rows" | awk -F'\t' -v n="$n" -v names="$fields" '
	BEGIN { split(names, name, " ") }
	{
		if (NF != n) { printf "row %s: %d fields, not %d\n", $1, NF, n; next }
		for (i = 1; i <= NF; i++) {
			f = name[i]
			if ($i == "" && f != "CLOCKS" && f != "REG_PREFIXES")
				printf "row %s: %s is empty\n", $1, f
			if (f ~ /^(LONG_BYTES|NARGREGS|STACK_FIRST|COMMAND_LINE_SIZE|DWARF_SP|ENTRY_CFA|PERF_PC|PERF_SP|ARG_ACCESS|USER_STACKS|KSTACK_PERF|FTRACE_ENTRY|KPROBE_NMI)$/ &&
			    $i !~ /^[0-9]+$/)
				printf "row %s: %s is \"%s\", not a number\n", $1, f, $i
			if (f ~ /^(ARGREGS|REGNAMES|DWARF_REGS|REG_ALIASES|ABI_SOURCE)$/ && $i != "NULL")
				print $1 "\t" f "\t" $i > "/dev/stderr"
		}
	}' 2> "$d/names"
	# the C names a row gives, each defined in compiler/abi.c
	while IFS=$'\t' read -r a f name; do
		grep -Eq "^(static const [a-z_ ]+\*?(const )?$name\[\] =|#define $name )" compiler/abi.c ||
			echo "row $a: $f $name is not defined in compiler/abi.c"
	done < "$d/names"
}

out=$(arch_rows_check common)
if [ -z "$out" ]; then
	t_pass arch/rows-complete
else
	t_fail arch/rows-complete "$out"
fi

# compile_with DIR: common/arch.c and compiler/abi.c built against
# DIR/arch.def (a quoted include looks beside the file first, so both
# are copied there); the compiler's messages in DIR/cc.log.
compile_with() {
	cp common/arch.c common/arch.h "$1/" && cp compiler/abi.c "$1/" &&
	${CC:-cc} -std=gnu11 -fsyntax-only -Icommon -Icompiler -Ifacts -Ibootconfig \
		"$1/arch.c" "$1/abi.c" > "$1/cc.log" 2>&1
}

# mutant NAME SED [cc]: a copy of the table changed by SED, which the
# check must refuse, and with "cc" the C compiler too
mutant() {
	local m=$d/$1 out
	mkdir -p "$m"
	cp common/arch-rows "$m/"
	sed "$2" common/arch.def > "$m/arch.def"
	if cmp -s common/arch.def "$m/arch.def"; then
		t_fail "arch/refused-$1" "the edit '$2' changed nothing: the test is stale"
		return
	fi
	out=$(arch_rows_check "$m")
	if [ -n "$out" ]; then
		t_pass "arch/refused-$1"
	else
		t_fail "arch/refused-$1" "a table with '$2' passes the check"
	fi
	[ "${3-}" = cc ] || return 0
	if compile_with "$m"; then
		t_fail "arch/refused-$1-by-cc" "common/arch.c and compiler/abi.c build with '$2'"
	else
		t_pass "arch/refused-$1-by-cc"
	fi
}
# riscv64 without its DWARF registers (the last row's first quirk)
mutant no-dwarf '/^\triscv_dwarf, /s/^\triscv_dwarf, /\t/' cc
# x86_64 without its argument registers
mutant no-argregs '/^ARCH(x86_64,/s/ x86_64_args,//' cc
# arm64 with an empty ABI name: C takes "", so only the check refuses it
mutant empty-abi '/^ARCH(arm64,/s/"aapcs64"/""/'

# The real table builds (the same command; a failure above is the mutant's).
mkdir -p "$d/real" && cp common/arch.def "$d/real/"
if compile_with "$d/real"; then
	t_pass arch/builds
else
	t_fail arch/builds "common/arch.c and compiler/abi.c do not build" "$d/real/cc.log"
fi

# No two rows with the same ELF machine, class and byte order.
dups=$(common/arch-rows | cut -f2-4 | sort | uniq -d)
if [ -z "$dups" ]; then
	t_pass arch/elf-unique
else
	t_fail arch/elf-unique "rows share e_machine, EI_CLASS and EI_DATA: $dups"
fi
