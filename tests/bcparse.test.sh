# The bootconfig reader (bc_parse, "probecc-bootconfig -l") against the
# kernel's own parser: tools/bootconfig of Debian's linux-source-6.1,
# built by bootconfig/kernel-tool with the samples it ships.
#
#  - every samples/good-*.bconf is accepted and bad-*.bconf refused, by
#    probecc-bootconfig and its ASan/UBSan build, each refusal with the
#    kernel tool's message at its line:column;
#  - every good sample (and tests/bootconfig/good-*.bconf) is read into
#    the tree the kernel tool lists ("bootconfig -l"), and that tree,
#    written back by bc_write, is read by the kernel tool into the same;
#  - tests/bootconfig/bad-*.bconf give exactly the .err beside them,
#    which is also what the kernel tool says;
#  - the limits (nodes, key length, text size) and a few hundred random
#    texts: the same verdict, message and position as the kernel tool.
#
# Run alone: bash tests/bcparse.test.sh (through tests/run-tests.sh).

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

# leaks are errors here too: the bootconfig library frees everything
t_asan_leaks

if ! kt=$(bootconfig/kernel-tool 2> "$T_OUT/kernel-tool.err"); then
	t_skip bcparse/kernel-tool "$(cat "$T_OUT/kernel-tool.err")"
	return 0
fi
samples=$(dirname "$kt")/samples
d=$T_OUT/bcparse && rm -rf "$d" && mkdir -p "$d"
pb=bootconfig/probecc-bootconfig
pbs="$pb bootconfig/probecc-bootconfig-asan"
for b in $pbs; do
	if [ ! -x "$b" ]; then
		t_fail bcparse/build "$b is not built (make $b)"
		return 0
	fi
done

# kernel_says FILE OUT: what the kernel tool makes of FILE, in our words:
# its "-l" listing, or its error as "FILE:LINE:COL: error: MSG".
kernel_says() {
	if "$kt" -l "$1" > "$2.out" 2> "$2.err" && [ ! -s "$2.err" ]; then
		cp "$2.out" "$2"
	else
		sed -n -e "s|^Parse Error: \(.*\) at \([0-9]*\):\([0-9]*\)\$|$1:\2:\3: error: \1|p" \
		       -e "s|^Error: \(.*\)\.\$|$1: error: \1|p" "$2.err" > "$2"
		[ -s "$2" ] || cp "$2.err" "$2"
	fi
}

# we_say BIN FILE OUT: the same from probecc-bootconfig -l, its listing in
# the kernel's terms (a key without value as KEY = "", and an array whose
# first value is empty as KEY = "", as "bootconfig -l" prints them).
we_say() {
	if "$1" -l "$2" > "$3.out" 2> "$3.err"; then
		sed -e 's/^\([A-Za-z0-9_.-]*\)$/\1 = ""/' \
		    -e 's/^\([A-Za-z0-9_.-]*\) = "", .*/\1 = ""/' "$3.out" > "$3"
	else
		cp "$3.err" "$3"
	fi
}

# (a) verdicts on the kernel's samples, both builds.
for f in "$samples"/good-*.bconf "$samples"/bad-*.bconf; do
	s=$(basename "$f")
	for b in $pbs; do
		name=bcparse/samples/$s${b##*probecc-bootconfig}
		"$b" -l "$f" > "$d/$s.verdict" 2> "$d/$s.verdict.err"
		rc=$?
		case $s:$rc in
		good-*:0 | bad-*:1) t_pass "$name" ;;
		good-*) t_fail "$name" "refused (exit $rc)" "$d/$s.verdict.err" ;;
		*) t_fail "$name" "not refused (exit $rc)" "$d/$s.verdict" ;;
		esac
	done
done

# (a, b) every sample: what we say is what the kernel tool says (the
# refusals: same message, same place).
for f in "$samples"/*.bconf; do
	s=$(basename "$f")
	kernel_says "$f" "$d/$s.kernel"
	we_say "$pb" "$f" "$d/$s.ours"
	t_check "bcparse/samples/$s.as-kernel" "$d/$s.kernel" "$d/$s.ours"
done

# (b) round trip: the tree we read, written back, is the tree the kernel
# tool reads from the original.
round_trip() {
	local f=$1 name=$2 o
	o=$d/$(basename "$f").written
	if ! "$pb" -l "$f" > "$o" 2> "$o.err"; then
		t_fail "$name" "probecc-bootconfig -l refused it" "$o.err"
		return
	fi
	"$kt" -l "$f" > "$o.orig.list" 2>&1
	if ! "$kt" -l "$o" > "$o.list" 2>&1; then
		t_fail "$name" "the kernel tool refuses what bc_write wrote" "$o.list" "$o"
		return
	fi
	t_check "$name" "$o.orig.list" "$o.list"
}
n=0
for f in "$samples"/good-*.bconf; do
	round_trip "$f" "bcparse/samples/$(basename "$f").round-trip"
	n=$((n + 1))
done
[ $n -ge 13 ] && t_pass bcparse/samples/enough || t_fail bcparse/samples/enough "only $n good samples"

# (b, c) our own cases.
for f in tests/bootconfig/good-*.bconf; do
	s=$(basename "$f")
	kernel_says "$f" "$d/$s.kernel"
	we_say "$pb" "$f" "$d/$s.ours"
	t_check "bcparse/own/$s.as-kernel" "$d/$s.kernel" "$d/$s.ours"
	round_trip "$f" "bcparse/own/$s.round-trip"
done
for f in tests/bootconfig/bad-*.bconf; do
	s=$(basename "$f")
	for b in $pbs; do
		"$b" -l "$f" > /dev/null 2> "$d/$s.err${b##*probecc-bootconfig}"
		t_check "bcparse/own/$s${b##*probecc-bootconfig}" "${f%.bconf}.err" \
			"$d/$s.err${b##*probecc-bootconfig}"
	done
	kernel_says "$f" "$d/$s.kernel"
	t_check "bcparse/own/$s.kernel-agrees" "${f%.bconf}.err" "$d/$s.kernel"
done

# A value with both quotes (plain bytes inside an unquoted value): the
# kernel reads it, but the format cannot say it again (the kernel tool's
# own -l writes a text that ends the value at its first quote).  -l
# refuses to write it back: exit 1, the .err, nothing on stdout.  Found
# by tests/fuzz/fuzz-bootconfig's round-trip oracle.
for f in tests/bootconfig/unwritable-*.bconf; do
	s=$(basename "$f")
	if ! "$kt" -l "$f" > /dev/null 2> "$d/$s.kernel"; then
		t_fail "bcparse/own/$s.kernel-reads" "the kernel tool refuses it" "$d/$s.kernel"
	else
		t_pass "bcparse/own/$s.kernel-reads"
	fi
	for b in $pbs; do
		"$b" -l "$f" > "$d/$s.out" 2> "$d/$s.err${b##*probecc-bootconfig}"
		rc=$?
		if [ $rc != 1 ] || [ -s "$d/$s.out" ]; then
			t_fail "bcparse/own/$s${b##*probecc-bootconfig}.exit" "exit $rc, want 1 and no output" "$d/$s.out"
		else
			t_pass "bcparse/own/$s${b##*probecc-bootconfig}.exit"
		fi
		t_check "bcparse/own/$s${b##*probecc-bootconfig}" "${f%.bconf}.err" \
			"$d/$s.err${b##*probecc-bootconfig}"
	done
done

# The limits, on either side of each: XBC_NODE_MAX nodes, XBC_KEYLEN_MAX
# with the NUL, XBC_DATA_MAX bytes of text.
l=$d/limits && mkdir -p "$l"
keys2() {	# 4096 two-letter keys with a value each: 8192 nodes
	local a b
	for a in {a..z} {A..Z} {0..9} - _; do
		for b in {a..z} {A..Z} {0..9} - _; do
			printf '%s%s=1\n' "$a" "$b"
		done
	done
}
keys2 > "$l/nodes-8192.bconf"
{ keys2; printf 'x\n'; } > "$l/nodes-8193.bconf"
printf '%0255d = 1\n' 0 | tr 0 k > "$l/key-255.bconf"
printf '%0256d = 1\n' 0 | tr 0 k > "$l/key-256.bconf"
printf 'a.%0253d = 1\n' 0 | tr 0 k > "$l/key-dotted-255.bconf"
printf 'a.%0254d = 1\n' 0 | tr 0 k > "$l/key-dotted-256.bconf"
{ printf 'k = 1\n#'; printf '%032755d' 0; printf '\nk :='; } > "$l/override-at-32767.bconf"
{ printf 'k = 1\n#'; printf '%032760d' 0; } > "$l/size-32767.bconf"
for f in "$l"/*.bconf; do
	s=$(basename "$f")
	kernel_says "$f" "$f.kernel"
	we_say "$pb" "$f" "$f.ours"
	t_check "bcparse/limits/$s" "$f.kernel" "$f.ours"
done
# Over XBC_DATA_MAX, "bootconfig -l" silently lists nothing; -a says why.
{ printf 'k = 1\n#'; printf '%032761d' 0; } > "$l/size-32768.bconf"
: > "$l/initrd"
"$kt" -a "$l/size-32768.bconf" "$l/initrd" > /dev/null 2> "$l/size.kernel"
"$pb" -l "$l/size-32768.bconf" > /dev/null 2> "$l/size.ours"
if grep -qx 'Error: Config data is too big.' "$l/size.kernel" &&
   grep -qx "$l/size-32768.bconf: error: Config data is too big" "$l/size.ours"; then
	t_pass bcparse/limits/size-32768.bconf
else
	t_fail bcparse/limits/size-32768.bconf "not refused as too big by both" "$l/size.kernel" "$l/size.ours"
fi

# Random texts: statements from the format's pieces, some with noise put
# in: the same verdict, message, position and listing as the kernel tool.
r=$d/random && mkdir -p "$r"
# bytes, not characters: the noise has a lone \303 (invalid UTF-8), on
# which gawk in a UTF-8 locale warns and counts differently
LC_ALL=C awk -v dir="$r" -v n=200 '
function pick(a, n) { return a[1 + int(rand() * n)] }
function key(   s, i, m) {
	m = 1 + int(rand() * 3)
	for (i = 0; i < m; i++)
		s = s (i ? "." : "") pick(W, nw)
	return s
}
function stmt(depth,   s, i, m) {
	s = pick(SP, 3)
	if ((m = rand()) < 0.5) {
		s = s key() pick(SP, 2) pick(OP, nop)
		m = rand() < 0.3 ? 1 + int(rand() * 3) : 1
		for (i = 0; i < m; i++)
			s = s (i ? "," pick(SP, nsp) : "") pick(SP, 2) pick(V, nv)
		return s pick(EN, depth ? nend : nend - 1)
	}
	if (m < 0.7 && depth < 3) {
		s = s key() pick(SP, 2) "{" pick(SP, nsp)
		m = int(rand() * 4)
		for (i = 0; i < m; i++)
			s = s stmt(depth + 1)
		return s pick(SP, nsp) "}" pick(SP, nsp)
	}
	if (m < 0.9)
		return s key() pick(BARE, 3)
	return pick(T, nt)
}
BEGIN {
	srand(6102)
	nw = split("a b key k-1 _x 9", W, " ")
	nop = split("= += := = =", OP, " ")
	nv = split("1|v|\"q v\"|\047s\047|\"\"|x y|\"a\047b\"|\047a\"b\047||a\"b", V, "|")
	nsp = split("| |\t|\n| # c\n|  ", SP, "|")
	nend = split("\n|;| # x\n|\n| |}", EN, "|")
	split("\n|;|#\n", BARE, "|")
	nt = split("a|.| |\t|\n|=|+=|:=|+|:|{|}|;|,|#|\"|\047|\001|\303|\r|~|\\", T, "|")
	for (f = 0; f < n; f++) {
		s = ""
		m = 1 + int(rand() * 8)
		for (i = 0; i < m; i++)
			s = s stmt(0)
		if (rand() < 0.3 && length(s)) {
			i = 1 + int(rand() * length(s))
			s = substr(s, 1, i - 1) pick(T, nt) substr(s, i + 1)
		}
		out = sprintf("%s/r%03d.bconf", dir, f)
		printf "%s", s > out
		close(out)
	}
}'
bad=0 ok=0 n=0 unwritable=0
for f in "$r"/*.bconf; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	kernel_says "$f" "$f.kernel"
	we_say "$pb" "$f" "$f.ours"
	if cmp -s "$f.kernel" "$f.ours"; then
		grep -q ': error: ' "$f.ours" || ok=$((ok + 1))
	elif grep -q ': error: cannot be written back: ' "$f.ours" &&
	     grep -q "^[^ ]* = .*'.*\".*'" "$f.kernel"; then
		# read as the kernel reads it; a value with both quotes
		# cannot be listed back (unwritable-both-quotes above)
		unwritable=$((unwritable + 1))
	else
		bad=$((bad + 1))
		[ $bad -le 3 ] && diff -u "$f.kernel" "$f.ours" >> "$r/diffs"
	fi
done
if [ $n -ne 200 ]; then
	t_fail bcparse/random "$n random texts made, not 200"
elif [ $bad -eq 0 ]; then
	t_pass "bcparse/random ($ok of 200 accepted, $unwritable with a value that cannot be listed back)"
else
	t_fail bcparse/random "$bad of 200 differ from the kernel tool" "$r/diffs"
fi
