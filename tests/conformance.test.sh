# Conformance with the kernel's own bootconfig parser: the kernel's
# tools/bootconfig (lib/bootconfig.c of Debian's linux-source-6.1, built
# by bootconfig/kernel-tool) must read every bootconfig probecc writes
# into exactly the tree probecc wrote.
# Run alone: bash tests/conformance.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

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

# The initrd footer: probecc-bootconfig against the kernel's tools/bootconfig
# on a real initramfs (qemu-images/mkimage).  Run as the ASan/UBSan build.
pb="./bootconfig/probecc-bootconfig-asan"
bc=$d/bootconfig
./probecc tests/kernel/bootconfig.probes -o "$bc" 2>/dev/null
if qemu-images/mkimage mipsel -o "$d/initrd.gz" --module none 2> "$d/mkimage.err"; then
	cp "$d/initrd.gz" "$d/ours.gz"
	cp "$d/initrd.gz" "$d/kernel.gz"
	# Each step's exit status counts, and the image must have gained the
	# footer (its last 12 bytes "#BOOTCONFIG\n", the kernel's
	# BOOTCONFIG_MAGIC): an -a that failed leaves both images the same.
	footed() { [ "$(tail -c 12 "$1")" = "#BOOTCONFIG" ] && ! cmp -s "$1" "$d/initrd.gz"; }
	if $pb -a "$bc" "$d/ours.gz" && "$kt" -a "$bc" "$d/kernel.gz" > /dev/null &&
	   footed "$d/ours.gz" && cmp -s "$d/ours.gz" "$d/kernel.gz"; then
		t_pass conformance/footer-same-bytes-as-kernel-tool
	else
		t_fail conformance/footer-same-bytes-as-kernel-tool "$(cmp "$d/ours.gz" "$d/kernel.gz" 2>&1)"
	fi
	# Appending again replaces: no second config stacked behind the first.
	cp "$d/ours.gz" "$d/once.gz"
	if $pb -a "$bc" "$d/ours.gz" && footed "$d/ours.gz" && cmp -s "$d/ours.gz" "$d/once.gz"; then
		t_pass conformance/footer-append-replaces
	else
		t_fail conformance/footer-append-replaces "a second -a failed or changed the image"
	fi
	# The kernel tool reads ours back; ours reads the kernel tool's.
	"$kt" "$d/ours.gz" > "$d/kernel-shows" 2>&1
	if $pb "$d/kernel.gz" > "$d/ours-shows" && cmp -s "$d/ours-shows" "$bc" &&
	   grep -q 'kprobes' "$d/kernel-shows"; then
		t_pass conformance/footer-read-both-ways
	else
		t_fail conformance/footer-read-both-ways "show output differs" "$d/ours-shows"
	fi
	# Delete gives the original image back, byte for byte.
	if footed "$d/ours.gz" && $pb -d "$d/ours.gz" && cmp -s "$d/ours.gz" "$d/initrd.gz"; then
		t_pass conformance/footer-delete-restores
	else
		t_fail conformance/footer-delete-restores "no footer to delete, -d failed, or the image differs after it"
	fi
	# A corrupt checksum is refused, and the image is left as it was.
	cp "$d/kernel.gz" "$d/bad.gz"
	size=$(stat -c %s "$d/bad.gz")
	printf '\377' | dd of="$d/bad.gz" bs=1 seek=$((size - 16)) conv=notrunc 2> /dev/null
	cp "$d/bad.gz" "$d/bad-copy.gz"
	if ! $pb -a "$bc" "$d/bad.gz" 2> "$d/bad.err" && grep -q 'checksum' "$d/bad.err" &&
	   cmp -s "$d/bad.gz" "$d/bad-copy.gz"; then
		t_pass conformance/footer-bad-checksum
	else
		t_fail conformance/footer-bad-checksum "accepted or changed" "$d/bad.err"
	fi
else
	t_fail conformance/footer-image "mkimage failed" "$d/mkimage.err"
fi
