# The initrd footer's byte order (bootconfig/footer.c, bc_footer_order):
# probecc-bootconfig writes size and checksum little-endian, as 5.10 and
# later read them on every arch, and big-endian for a big-endian kernel
# (--arch mips/mips64) before 5.10, which read them in its own order
# (init/main.c of 5.6-5.9: "size = hdr[0]; csum = hdr[1]").
#  - goldens of the whole image (a 6-byte initrd, footer.bconf, padding,
#    footer) for both orders, made and checked by hand once (size 150,
#    checksum 0x3525);
#  - the big-endian image is the little-endian one with each of the two
#    words byte-reversed and nothing else changed;
#  - each order reads its own image back and refuses the other's;
#  - a kernel older than 5.6 and an unknown arch are refused.
# Run as the normal and the ASan/UBSan build.  The 6.1 big-endian kernel
# accepting the little-endian footer is proven by a boot
# (tests/kernel/mips64be.sh).

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi
# leaks are errors here too: the bootconfig library frees everything
t_asan_leaks

d=$T_OUT/footer && rm -rf "$d" && mkdir -p "$d"
bc=tests/bootconfig/footer.bconf
for pb in bootconfig/probecc-bootconfig bootconfig/probecc-bootconfig-asan; do
	s=${pb##*probecc-bootconfig}	# "" or -asan
	if [ ! -x "$pb" ]; then
		t_fail "footer/build$s" "$pb is not built (make $pb)"
		continue
	fi
	# mk NAME [OPTIONS]: the image of footer.bconf, dumped as the goldens are
	mk() {
		local n=$1
		shift
		printf initrd > "$d/$n$s.img" &&
		"$pb" "$@" -a "$bc" "$d/$n$s.img" 2> "$d/$n$s.err" &&
		od -An -tx1 -v "$d/$n$s.img" > "$d/$n$s.od"
	}
	# mk_check CASE NAME GOLDEN [OPTIONS]: mk, then its dump against
	# GOLDEN; a failed mk is the case's failure, never a missing line
	mk_check() {
		local c=$1 n=$2 g=$3
		shift 3
		if mk "$n" "$@"; then
			t_check "$c" "$g" "$d/$n$s.od"
		else
			t_fail "$c" "$pb $* -a failed" "$d/$n$s.err"
		fi
	}
	mk_check "footer/default-le$s" default tests/bootconfig/footer-le.golden
	mk_check "footer/mips64-6.1-le$s" le61 tests/bootconfig/footer-le.golden --arch mips64 --kernel-version 6.1
	mk_check "footer/mips-5.10-le$s" le510 tests/bootconfig/footer-le.golden --arch mips --kernel-version 5.10
	mk_check "footer/mips64el-5.8-le$s" el58 tests/bootconfig/footer-le.golden --arch mips64el --kernel-version 5.8
	mk_check "footer/mips64-5.8-be$s" be58 tests/bootconfig/footer-be.golden --arch mips64 --kernel-version 5.8
	mk_check "footer/mips-5.9.12-be$s" be59 tests/bootconfig/footer-be.golden --arch mips --kernel-version 5.9.12
	# the two words reversed, nothing else
	# (perl-base is Essential in Debian)
	perl -0777 -pe 'my $n = length; for my $o (20, 16) {
		substr($_, $n - $o, 4) = reverse substr($_, $n - $o, 4) }' \
		"$d/default$s.img" > "$d/swapped$s.img"
	if cmp -s "$d/swapped$s.img" "$d/be58$s.img"; then
		t_pass "footer/be-is-le-with-words-swapped$s"
	else
		t_fail "footer/be-is-le-with-words-swapped$s" "$(cmp "$d/swapped$s.img" "$d/be58$s.img" 2>&1)"
	fi
	# read back in its own order; the other order sees a bad footer
	if "$pb" --arch mips64 --kernel-version 5.8 "$d/be58$s.img" > "$d/be-shows$s" &&
	   cmp -s "$d/be-shows$s" "$bc" &&
	   ! "$pb" "$d/be58$s.img" > /dev/null 2> "$d/be-as-le$s.err" &&
	   grep -q 'size is larger' "$d/be-as-le$s.err" &&
	   ! "$pb" --arch mips64 --kernel-version 5.8 "$d/default$s.img" > /dev/null 2>&1; then
		t_pass "footer/each-order-reads-its-own$s"
	else
		t_fail "footer/each-order-reads-its-own$s" "" "$d/be-as-le$s.err"
	fi
	# -d in the big-endian order gives the initrd back
	cp "$d/be58$s.img" "$d/del$s.img"
	"$pb" --arch mips64 --kernel-version 5.8 -d "$d/del$s.img" &&
	[ "$(cat "$d/del$s.img")" = initrd ] && t_pass "footer/be-delete$s" ||
		t_fail "footer/be-delete$s" "-d left: $(od -c "$d/del$s.img" | head -2)"
	# refusals: exit 2, a message, the image untouched
	printf initrd > "$d/old$s.img"
	"$pb" --arch mips64 --kernel-version 5.4 -a "$bc" "$d/old$s.img" 2> "$d/old$s.err"
	rc=$?
	[ $rc = 2 ] && grep -q 'no bootconfig from the initrd before 5.6' "$d/old$s.err" &&
	[ "$(cat "$d/old$s.img")" = initrd ] && t_pass "footer/refuses-before-5.6$s" ||
		t_fail "footer/refuses-before-5.6$s" "exit $rc" "$d/old$s.err"
	"$pb" --arch sparc64 --kernel-version 5.8 -a "$bc" "$d/old$s.img" 2> "$d/arch$s.err"
	rc=$?
	[ $rc = 2 ] && grep -q -- '--arch sparc64: unknown' "$d/arch$s.err" &&
	[ "$(cat "$d/old$s.img")" = initrd ] && t_pass "footer/refuses-unknown-arch$s" ||
		t_fail "footer/refuses-unknown-arch$s" "exit $rc" "$d/arch$s.err"
	"$pb" --kernel-version 5.x -a "$bc" "$d/old$s.img" 2> "$d/ver$s.err"
	rc=$?
	[ $rc = 2 ] && grep -q -- '--kernel-version 5.x: want X.Y' "$d/ver$s.err" &&
		t_pass "footer/refuses-bad-version$s" ||
		t_fail "footer/refuses-bad-version$s" "exit $rc" "$d/ver$s.err"
done
