# Conformance with the kernel's own bootconfig parser: the kernel's
# tools/bootconfig (lib/bootconfig.c of Debian's linux-source-6.1, built
# by bootconfig/kernel-tool) must read every bootconfig probecc writes
# into exactly the tree probecc wrote.

if ! kt=$(bootconfig/kernel-tool 2> "$T_OUT/kernel-tool.err"); then
	t_skip conformance/kernel-tool "$(cat "$T_OUT/kernel-tool.err")"
	return 0
fi
d=$T_OUT/conformance && rm -rf "$d" && mkdir -p "$d"

# canon FILE: what "bootconfig -l" prints for the tree FILE means to
# probecc: comments dropped, a key without value as KEY = "", sorted.
canon() {
	sed -e '/^#/d' -e 's/^\([^ =]*\)$/\1 = ""/' "$1" | sort
}

# Every golden bootconfig, and every good probe file compiled for
# bootconfig on x86_64 and mipsel.
n=0
for f in tests/compiler/good-*.bootconfig; do
	cp "$f" "$d/$(basename "$f")"
done
for f in tests/compiler/good-*.probes examples/*.probes; do
	for a in x86_64 mipsel; do
		out=$d/$(basename "${f%.probes}")-$a.bconf
		./probecc "$f" --arch $a --kernel-version 6.1 -o "$out" 2>/dev/null || continue
	done
done
for f in "$d"/*.bootconfig "$d"/*.bconf; do
	name=conformance/$(basename "$f")
	if ! "$kt" -l "$f" > "$f.kernel" 2> "$f.err"; then
		t_fail "$name" "the kernel's parser refuses it" "$f.err"
		continue
	fi
	sort "$f.kernel" > "$f.kernel.sorted"
	canon "$f" > "$f.ours"
	t_check "$name" "$f.ours" "$f.kernel.sorted"
	n=$((n + 1))
done
[ $n -ge 20 ] && t_pass conformance/enough-files || t_fail conformance/enough-files "only $n files checked"
