# Target facts (issue "probecc knows its target"): probe files
# checked against what real kernels say of themselves.  The targets are
# captured from a boot of Debian's Malta and amd64 kernels
# (qemu-images/target: one boot each, cached), the configs and modules
# are those of the same Debian packages.
#
# tests/facts/bad-*.probes must fail with the .err beside them (the
# kernel release and cache paths normalised), good-*.probes must pass,
# warn-*.probes must pass with the warnings of the .warn beside them;
# "# args:" names the inputs: @MIPSEL@, @MIPSEL_CONFIG@, @MIPSEL_MODULES@
# and the same for X86_64.
# Run alone: bash tests/facts.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi


target_setup() { # target_setup ARCH VAR: sets VAR, VAR_CONFIG, VAR_MODULES
	local t
	if ! t=$(qemu-images/target "$1" 2> "$T_OUT/facts/$1.capture.log"); then
		return 1
	fi
	eval "$(qemu-images/fetch "$1")"
	eval "$2=\$t ${2}_CONFIG=\$CONFIG ${2}_MODULES=\$MODULES"
}

target_args() { # the case's "# args:" with the inputs filled in
	t_args "$1" MIPSEL="$MIPSEL" MIPSEL_CONFIG="$MIPSEL_CONFIG" \
		MIPSEL_MODULES="$MIPSEL_MODULES" X86_64="$X86_64" \
		X86_64_CONFIG="$X86_64_CONFIG" X86_64_MODULES="$X86_64_MODULES"
}

# Releases, addresses, sizes and cache paths change with Debian's
# uploads; the messages do not.
target_normalise() {
	sed -E "s|${PROBECC_CACHE:-$HOME/.cache/probecc}|CACHE|g; s/6\.1\.0-[0-9]+-(4kc-malta|amd64)/KREL/g;
		s/0x[0-9a-f]{8,16}/0xADDR/g; s/which is [0-9]+ bytes/which is N bytes/" "$1"
}

mkdir -p "$T_OUT/facts"
if target_setup mipsel MIPSEL && target_setup x86_64 X86_64; then
	for bin in ./probecc ./probecc-asan; do
		tag=facts/$(basename "$bin")
		for f in tests/facts/good-*.probes; do
			name=$tag/$(basename "$f" .probes)
			d=$T_OUT/$name; mkdir -p "$d"
			if "$bin" $(target_args "$f") "$f" --explain > "$d/explain" 2> "$d/stderr" &&
			   grep -q '^target kernel:' "$d/explain" && [ ! -s "$d/stderr" ]; then
				t_pass "$name"
			else
				t_fail "$name" "did not pass its target (or warned)" "$d/stderr"
			fi
		done
		t_bad_cases "$tag" "$bin" target_args target_normalise tests/facts/bad-*.probes
		# warn-*.probes compile (exit 0, the outputs written) with the
		# warnings of their .warn on stderr
		for f in tests/facts/warn-*.probes; do
			name=$tag/$(basename "$f" .probes)
			d=$T_OUT/$name; rm -rf "$d"; mkdir -p "$d"
			"$bin" $(target_args "$f") "$f" --plan "$d/plan" --cmdline > "$d/cmdline" 2> "$d/stderr.raw"
			rc=$?
			target_normalise "$d/stderr.raw" > "$d/stderr"
			if [ $rc -ne 0 ] || [ ! -s "$d/plan" ]; then
				t_fail "$name" "exit $rc, plan $(wc -c < "$d/plan" 2> /dev/null || echo none)" "$d/stderr"
			else
				t_check "$name" "${f%.probes}.warn" "$d/stderr"
			fi
		done
	done

	# The capture itself: every section there, real addresses.
	for a in mipsel x86_64; do
		t=$(qemu-images/target $a)
		miss=
		for s in kallsyms available_filter_functions kprobe_blacklist available_events; do
			grep -qx -- "--- $s ---" "$t" || miss="$miss $s"
		done
		if [ -z "$miss" ] && grep -q '^[0-9a-f]* [Tt] register_netdevice$' "$t" &&
		   ! grep -q '^0\{8,16\} [Tt] register_netdevice$' "$t"; then
			t_pass "facts/capture-$a"
		else
			t_fail "facts/capture-$a" "missing:$miss, or no real address of register_netdevice"
		fi
	done

	# The arch and kernel version come from the target: no --arch needed
	# for an x86_64 kprobe on %di, and --explain says where they came from.
	printf 'kprobe k do_sys_openat2 { dfd = %%di }\n' > "$T_OUT/facts/x86reg.probes"
	if ./probecc "$T_OUT/facts/x86reg.probes" --target "$X86_64" --cmdline > "$T_OUT/facts/x86reg.out" 2>&1 &&
	   grep -q 'kprobe_event=p:k,do_sys_openat2,dfd=%di' "$T_OUT/facts/x86reg.out"; then
		t_pass "facts/arch-from-target"
	else
		t_fail "facts/arch-from-target" "" "$T_OUT/facts/x86reg.out"
	fi

	# A stripped vmlinuz (Debian's Malta one) gives its machine, no symbols.
	eval "$(qemu-images/fetch mipsel)"
	if ./probecc tests/facts/good-bond0-mipsel.probes --vmlinux "$VMLINUZ" --explain > "$T_OUT/facts/vmlinuz.out" 2>&1 &&
	   grep -q 'mipsel, stripped (no symbols' "$T_OUT/facts/vmlinuz.out"; then
		t_pass "facts/stripped-vmlinuz"
	else
		t_fail "facts/stripped-vmlinuz" "" "$T_OUT/facts/vmlinuz.out"
	fi

	# The kernel's BTF from its boot image alone, no capture: Debian's
	# amd64 bzImage (its xz payload unpacked) and arm64 Image (raw, with
	# no section headers), the blob between __start_BTF and __stop_BTF
	# found by its header: as many types as the capture's copy of
	# /sys/kernel/btf/vmlinux, and 6.1's dev->name at +0.
	d=$T_OUT/facts/image-btf && rm -rf "$d" && mkdir -p "$d"
	for a in x86_64 arm64; do
		eval "$(qemu-images/fetch $a)"
		if ! t=$(qemu-images/target $a 2> "$d/$a.capture.log"); then
			t_fail "facts/image-btf-$a" "no capture of $a" "$d/$a.capture.log"
			continue
		fi
		./probecc --arch $a --btf "$VMLINUZ" examples/ci-bond0.probes --explain > "$d/$a.image" 2>&1
		./probecc --target "$t" --modules "$MODULES" examples/ci-bond0.probes --explain > "$d/$a.capture" 2>&1
		ni=$(sed -n 's/^BTF .*: \([0-9]*\) types, for C names.*/\1/p' "$d/$a.image")
		nc=$(sed -n 's/^BTF .*: \([0-9]*\) types, for C names.*/\1/p' "$d/$a.capture")
		if [ -n "$ni" ] && [ "$ni" = "$nc" ] &&
		   grep -Eq '^  netdev\.name = dev->name: .*->name at \+0 \(char\[16\]\) -> \+0\(%(di|x0)\):string$' "$d/$a.image"; then
			t_pass "facts/image-btf-$a"
		else
			t_fail "facts/image-btf-$a" "image: '$ni' types, capture: '$nc'" "$d/$a.image"
		fi
	done
	# run-probes with no capture (your --kernel) takes the image's BTF:
	# dev->name compiled from Debian's arm64 Image, no -dbg fetched
	# (--prepare: no boot)
	eval "$(qemu-images/fetch arm64)"
	qemu-images/run-probes --arch arm64 --out "$d/rp" --kernel "$VMLINUZ" --kernel-version 6.1 \
		--prepare examples/ci-bond0.probes > "$d/rp.out" 2>&1
	rc=$?
	if [ $rc = 0 ] && grep -q 'kprobe_event=p:netdev,register_netdevice,name=+0(%x0):string' "$d/rp/cmdline" &&
	   ! grep -q -- '-dbg' "$d/rp.out"; then
		t_pass "facts/run-probes-image-btf"
	else
		t_fail "facts/run-probes-image-btf" "exit $rc" "$d/rp.out"
	fi
else
	t_skip "facts/*" "no target capture: $(tail -2 "$T_OUT"/facts/*.capture.log)"
fi

# Modules compressed with xz (MODULE_COMPRESS_XZ: Debian's 6.12 ships
# NAME.ko.xz): the same functions as the plain .ko, the module named
# without ".ko.xz"; an xz cut short and an xz of what is no ELF file are
# no module (common/elffile.c unpacks them in memory and refuses them).
d=$T_OUT/facts/ko-xz && rm -rf "$d" && mkdir -p "$d/plain" "$d/xz"
ko=tests/report/mipsel-6.1/modules/kernel/drivers/net/bonding/bonding.ko
cp "$ko" "$d/plain/"
xz -c "$ko" > "$d/xz/bonding.ko.xz"
head -c 1000 "$d/xz/bonding.ko.xz" > "$d/xz/cut.ko.xz"
printf 'not an ELF file' | xz > "$d/xz/junk.ko.xz"
printf 'kprobe bc bond_create\n' > "$d/bc.probes"
# a kernel without bond_create: the module's is found, by its name
printf '80100000 T _stext\n80100010 T register_netdevice\n' > "$d/System.map"
for m in plain xz; do
	./probecc --arch mipsel "$d/bc.probes" --modules "$d/$m" \
		--system-map "$d/System.map" --explain > "$d/$m.out" 2>&1
done
if grep -qx "modules $d/xz: 1 modules, 3 functions" "$d/xz.out" &&
   grep -qx "modules $d/plain: 1 modules, 3 functions" "$d/plain.out" &&
   grep -q 'bc: bond_create is in module bonding: defined as bonding:bond_create' "$d/xz.out"; then
	t_pass "facts/modules-ko-xz"
else
	t_fail "facts/modules-ko-xz" "not the plain .ko's functions, or a damaged .ko.xz counted" "$d/xz.out" "$d/plain.out"
fi

# A target's paths stay inside --sysroot (facts/sysroot.c): a uprobe's
# PATH with ".." is refused and says so; an absolute symbolic link in the
# sysroot points into it (the host's libc it names is not read, the
# sysroot's own file is); a FIFO or an unreadable file under --modules
# or at a uprobe's PATH is refused at once and named (a blocking open
# hung the compiler).  The host's libc.so.6 stands in for a target's.
d=$T_OUT/facts/sysroot && rm -rf "$d" && mkdir -p "$d/root/lib" "$d/outside" "$d/mods"
libc=$(readlink -f "$(gcc -print-file-name=libc.so.6)")
if [ -f "$libc" ]; then
	cp "$libc" "$d/outside/libc.so.6"
	cp "$libc" "$d/root/lib/real.so"
	ln -s "$libc" "$d/root/lib/abs.so"
	ln -s /lib/real.so "$d/root/lib/inroot.so"
	mkfifo "$d/root/lib/fifo.so" "$d/mods/evil.ko"
	head -c 5000 tests/report/mipsel-6.1/modules/kernel/drivers/net/bonding/bonding.ko > "$d/mods/bonding.ko"
	for p in /../outside/libc.so.6 /lib/abs.so /lib/inroot.so /lib/fifo.so; do
		n=$(basename "$p" | tr . -)
		printf 'uprobe u %s:malloc\ndump /dev/ttyS1\n' "$p" > "$d/$n.probes"
		timeout 60 ./probecc "$d/$n.probes" --sysroot "$d/root" --arch x86_64 \
			-o "$d/$n.out" > /dev/null 2> "$d/$n.err"
		echo $? > "$d/$n.status"
	done
	if grep -q 'root/../outside/libc.so.6: refused: a ".." in a target.s path would leave --sysroot' "$d/libc-so-6.err"; then
		t_pass facts/sysroot-dotdot-refused
	else
		t_fail facts/sysroot-dotdot-refused "the file outside --sysroot was read, or not said" "$d/libc-so-6.err"
	fi
	if grep -q 'root/lib/abs.so: No such file or directory' "$d/abs-so.err" &&
	   ! grep -q 'root/lib/inroot.so' "$d/inroot-so.err"; then
		t_pass facts/sysroot-absolute-link-inside
	else
		t_fail facts/sysroot-absolute-link-inside "an absolute link was followed on the host" "$d/abs-so.err" "$d/inroot-so.err"
	fi
	if [ "$(cat "$d/fifo-so.status")" != 124 ] &&
	   grep -q 'root/lib/fifo.so: refused: not a regular file' "$d/fifo-so.err"; then
		t_pass facts/sysroot-fifo-refused
	else
		t_fail facts/sysroot-fifo-refused "exit $(cat "$d/fifo-so.status") (124: it hung)" "$d/fifo-so.err"
	fi
	printf 'kprobe b bond_create\ndump /dev/ttyS1\n' > "$d/b.probes"
	timeout 60 ./probecc "$d/b.probes" --modules "$d/mods" \
		--system-map tests/report/mipsel-6.1/System.map -o "$d/b.out" > /dev/null 2> "$d/b.err"
	echo $? > "$d/b.status"
	if [ "$(cat "$d/b.status")" = 1 ] &&
	   grep -q "no function 'bond_create' (2 module file(s) under --modules could not be read, the first: $d/mods/.*\(is not a regular file\|is truncated\)" "$d/b.err"; then
		t_pass facts/modules-unreadable-named
	else
		t_fail facts/modules-unreadable-named "exit $(cat "$d/b.status") (124: hung on the FIFO), or the files not named" "$d/b.err"
	fi
	# a module packed by zstd (not read) or a symbolic link named .ko
	# (not followed) is said too, not skipped in silence
	for m in zst link; do
		mkdir -p "$d/mods-$m"
		case $m in
		zst) printf 'not read' > "$d/mods-$m/bonding.ko.zst" ;;
		link) ln -s /dev/zero "$d/mods-$m/bonding.ko" ;;
		esac
		timeout 60 ./probecc "$d/b.probes" --modules "$d/mods-$m" \
			--system-map tests/report/mipsel-6.1/System.map -o "$d/b.out" > /dev/null 2> "$d/b-$m.err"
	done
	if grep -q "no function 'bond_create' (1 module file(s) under --modules could not be read, the first: $d/mods-zst/bonding.ko.zst is packed by zstd or gzip" "$d/b-zst.err" &&
	   grep -q "the first: $d/mods-link/bonding.ko is a symbolic link, not followed under --modules" "$d/b-link.err"; then
		t_pass facts/modules-not-read-named
	else
		t_fail facts/modules-not-read-named "a .ko.zst or a symbolic link skipped in silence" "$d/b-zst.err" "$d/b-link.err"
	fi
	# a socket at a uprobe's PATH is found by its type, never opened (an
	# open of a socket fails ENXIO; of a tty raises its lines)
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$d/root/lib/sock.so"
	printf 'uprobe u /lib/sock.so:malloc\ndump /dev/ttyS1\n' > "$d/sock.probes"
	timeout 60 ./probecc "$d/sock.probes" --sysroot "$d/root" --arch x86_64 -o "$d/sock.out" > /dev/null 2> "$d/sock.err"
	if grep -q 'root/lib/sock.so: refused: not a regular file' "$d/sock.err"; then
		t_pass facts/sysroot-socket-refused
	else
		t_fail facts/sysroot-socket-refused "opened, or not said" "$d/sock.err"
	fi
else
	t_host_skip facts/sysroot "no libc.so.6 from gcc -print-file-name"
fi
