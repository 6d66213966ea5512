# probecc bootargs: the fragment merged into a boot loader's command line.
#
# Goldens (tests/bootargs/): a case is NAME.frag (the fragment),
# NAME.existing (the bootargs there are, optional), NAME.opts (more
# options, optional).  good-* cases have the expected outputs
# .merged (--print), .script (--uboot-script), .env (--uboot-env),
# .fw (--fw-script), .octeon (--octeon 0x20000000); bad-* cases have
# .mode (the output option, default --uboot-script OUT) and .err (the
# expected stderr: exit 1, nothing written, nothing on stdout).  Every
# case runs with probecc and probecc-asan.  BA_REGEN=1 rewrites the
# expected files (then read the diff).
#
# Then the readers themselves: every good .script through Debian's Malta
# U-Boot in QEMU (printenv must show .merged byte for byte), mkimage -l
# on the script image, mkenvimage + fw_printenv on .env, fw_setenv -s on
# .env; a real Malta boot from U-Boot with the bootargs of
# examples/bond0.probes and examples/retval.probes ($retval and ";"),
# whose agent dump must show the fragment in /proc/cmdline and the
# probes armed; --dtb on QEMU's arm64 virt device tree (fdtget); and a real
# arm64 virt boot of Debian's kernel from a tree patched by --dtb, with no
# -append: /proc/cmdline is the merged /chosen/bootargs, the kprobes exist.
# Run alone: bash tests/bootargs.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi


ba_dir=$T_OUT/bootargs
rm -rf "$ba_dir" && mkdir -p "$ba_dir"
ba_gold=tests/bootargs

# ba_exec BIN BASE OUTPUT-OPTIONS...: probecc bootargs on case BASE.
ba_exec() {
	local bin=$1 base=$2 opts=()
	shift 2
	[ -f "$base.opts" ] && read -r -a opts <<< "$(t_opts "$base.opts")"
	if [ -f "$base.existing" ]; then
		"$bin" bootargs --fragment "$base.frag" --bootargs "$(cat "$base.existing")" \
			"${opts[@]}" "$@"
	else
		"$bin" bootargs --fragment "$base.frag" "${opts[@]}" "$@"
	fi
}

# ba_expect NAME EXPECTED ACTUAL: t_check, or with BA_REGEN=1 rewrite
# the golden: then the case is a skip (its output was not checked, read
# the diff), and under CI (CI=true) a failure with nothing rewritten.
ba_expect() {
	if [ "${BA_REGEN:-0}" != 1 ]; then
		t_check "$1" "$2" "$3"
	elif [ "${CI:-}" = true ]; then
		t_fail "$1" "BA_REGEN=1 under CI: goldens are never rewritten there"
	else
		cp "$3" "$2"
		t_skip "$1" "golden rewritten (BA_REGEN=1): check git diff $2"
	fi
}

for bin in ./probecc ./probecc-asan; do
	tag=bootargs/$(basename "$bin")
	for in in "$ba_gold"/good-*.frag; do
		base=${in%.frag} name=$(basename "${in%.frag}")
		d=$ba_dir/$(basename "$bin")/$name
		mkdir -p "$d"
		if ! ba_exec "$bin" "$base" --print > "$d/merged" 2> "$d/stderr"; then
			t_fail "$tag/$name" "--print failed" "$d/stderr"
			continue
		fi
		ba_expect "$tag/$name.merged" "$base.merged" "$d/merged"
		ba_exec "$bin" "$base" --uboot-script "$d/script" 2>> "$d/stderr"
		ba_expect "$tag/$name.script" "$base.script" "$d/script"
		ba_exec "$bin" "$base" --uboot-env "$d/env" 2>> "$d/stderr"
		ba_expect "$tag/$name.env" "$base.env" "$d/env"
		ba_exec "$bin" "$base" --fw-script "$d/fw" 2>> "$d/stderr"
		ba_expect "$tag/$name.fw" "$base.fw" "$d/fw"
		ba_exec "$bin" "$base" --octeon 0x20000000 > "$d/octeon" 2>> "$d/stderr"
		ba_expect "$tag/$name.octeon" "$base.octeon" "$d/octeon"
		# a second run on its own output changes nothing
		"$bin" bootargs --fragment "$base.frag" --bootargs "$(cat "$d/merged")" \
			--print > "$d/again" 2>> "$d/stderr"
		t_check "$tag/$name.rerun-is-stable" "$d/merged" "$d/again"
	done
	for in in "$ba_gold"/bad-*.frag; do
		base=${in%.frag} name=$(basename "${in%.frag}")
		d=$ba_dir/$(basename "$bin")/$name
		rm -rf "$d" && mkdir -p "$d/out"
		mode=(--uboot-script "$d/out/boot.cmd")
		if [ -f "$base.mode" ]; then
			read -r -a mode < "$base.mode"
			case ${mode[0]} in --octeon|--print) ;; *) mode+=("$d/out/file") ;; esac
		fi
		ba_exec "$bin" "$base" "${mode[@]}" > "$d/stdout" 2> "$d/stderr"
		rc=$?
		if [ $rc -ne 1 ]; then
			t_fail "$tag/$name" "exit status $rc, expected 1" "$d/stderr"
		elif [ -n "$(ls -A "$d/out")" ]; then
			t_fail "$tag/$name" "left files behind: $(ls -A "$d/out")"
		elif [ -s "$d/stdout" ]; then
			t_fail "$tag/$name" "printed to stdout on error" "$d/stdout"
		else
			ba_expect "$tag/$name" "$base.err" "$d/stderr"
		fi
	done
	# usage errors exit 2
	"$bin" bootargs --fragment /dev/null --print --uboot-env x > /dev/null 2>&1
	rc=$?
	if [ $rc -eq 2 ] && [ ! -e x ]; then
		t_pass "$tag/usage-two-outputs"
	else
		t_fail "$tag/usage-two-outputs" "exit status $rc, expected 2"
	fi
done

# ---- the readers: U-Boot's hush, mkimage, mkenvimage, fw_setenv -------------
d=$ba_dir/readers && mkdir -p "$d"
have_uboot=1
for t in qemu-system-mipsel mkimage fdtput mkenvimage fw_printenv fw_setenv; do
	command -v $t > /dev/null || have_uboot=0
done
[ -r /usr/lib/u-boot/maltael/u-boot.bin ] || have_uboot=0
if [ "$T_HOST" = 1 ]; then
	have_uboot=0
	t_host_skip bootargs/uboot
	t_host_skip bootargs/boot
elif [ $have_uboot = 0 ]; then
	t_skip bootargs/uboot "needs qemu-system-mips u-boot-qemu u-boot-tools libubootenv-tool (qemu-images/deps.sh boot)"
else
	# One U-Boot run for every script: set, print, next; then reset.
	: > "$d/all.cmd"
	: > "$d/want"
	for s in "$ba_gold"/good-*.script; do
		cat "$s" >> "$d/all.cmd"
		echo 'printenv bootargs' >> "$d/all.cmd"
		printf 'bootargs=%s\n' "$(cat "${s%.script}.merged")" >> "$d/want"
	done
	# Controls: the fragment pasted as it is, and between double quotes;
	# the trap must be real in this U-Boot, or the quoting proves nothing.
	frag=$(cat "$ba_gold/good-keep-user.frag")
	{
		echo 'echo == naive =='
		printf 'setenv bootargs %s\nprintenv bootargs\n' "$frag"
		printf 'setenv bootargs "%s"\nprintenv bootargs\n' "$frag"
		echo reset
	} >> "$d/all.cmd"
	qemu-images/uboot/boot-malta-uboot --script "$d/all.cmd" \
		--console "$d/uboot.log" --timeout 60 2> "$d/uboot.err"
	rc=$?
	tr -d '\r' < "$d/uboot.log" | sed '/^== naive ==/q' > "$d/quoted.log"
	tr -d '\r' < "$d/uboot.log" | sed '1,/^== naive ==/d' > "$d/naive.log"
	grep '^bootargs=' "$d/quoted.log" > "$d/got"
	if [ $rc -ne 0 ]; then
		t_fail bootargs/uboot-hush "U-Boot run: exit $rc" "$d/uboot.err"
	else
		t_check bootargs/uboot-hush-gets-exactly-merged "$d/want" "$d/got"
	fi
	if grep -q 'Unknown command\|syntax error' "$d/quoted.log"; then
		t_fail bootargs/uboot-hush-no-errors "U-Boot complained: $(grep -m1 'Unknown command\|syntax error' "$d/quoted.log")"
	else
		t_pass bootargs/uboot-hush-no-errors
	fi
	# unquoted: ";" ends setenv, "r:open_ret,..." runs as a command and
	# $retval expands to nothing; double quotes: $retval still expands
	want_u=${frag%%;*} want_d=${frag//\$retval/}
	if [ "$(grep -c '^bootargs=' "$d/naive.log")" = 2 ] &&
	   [ "$(grep -m1 '^bootargs=' "$d/naive.log")" = "bootargs=$want_u" ] &&
	   grep -q "^Unknown command 'r:open_ret,do_sys_openat2,ret=:s32'" "$d/naive.log" &&
	   [ "$(grep '^bootargs=' "$d/naive.log" | sed -n 2p)" = "bootargs=$want_d" ]; then
		t_pass bootargs/uboot-hush-naive-paste-is-broken
	else
		t_fail bootargs/uboot-hush-naive-paste-is-broken "U-Boot did not mangle the naive forms as expected" "$d/naive.log"
	fi

	# mkimage: the script makes a script image that mkimage -l reads back
	mkimage -A mips -T script -C none -d "$ba_gold/good-quotes.script" \
		"$d/boot.scr" > /dev/null 2>&1
	mkimage -l "$d/boot.scr" > "$d/mkimage-l" 2>&1
	expect=$(stat -c %s "$ba_gold/good-quotes.script")
	if grep -q 'Image Type:.*Script' "$d/mkimage-l" &&
	   grep -q "Image 0: *$expect Bytes" "$d/mkimage-l"; then
		t_pass bootargs/mkimage-script-image
	else
		t_fail bootargs/mkimage-script-image "mkimage -l does not show a $expect-byte script" "$d/mkimage-l"
	fi

	# mkenvimage and libubootenv's fw_printenv / fw_setenv -s on .env
	for env in "$ba_gold"/good-*.env; do
		name=$(basename "${env%.env}")
		e=$d/env-$name && mkdir -p "$e"
		echo "$e/env.bin 0x0 0x4000" > "$e/fw_env.config"
		mkenvimage -s 0x4000 -o "$e/env.bin" "$env" &&
			fw_printenv -c "$e/fw_env.config" -n bootargs > "$e/got" 2> "$e/err"
		printf '%s\n' "$(cat "${env%.env}.merged")" > "$e/want"
		t_check "bootargs/mkenvimage/$name" "$e/want" "$e/got"
		echo "$e/env2.bin 0x0 0x4000" > "$e/fw_env2.config"
		echo 'baudrate=115200' | mkenvimage -s 0x4000 -o "$e/env2.bin" - &&
			fw_setenv -c "$e/fw_env2.config" -s "$env" 2>> "$e/err" &&
			fw_printenv -c "$e/fw_env2.config" -n bootargs > "$e/got2" 2>> "$e/err"
		t_check "bootargs/fw_setenv-s/$name" "$e/want" "$e/got2"
	done
fi

# ---- a real boot: U-Boot's bootargs from --uboot-script, Malta 6.1 -----------
# ba_boot NAME [USER-PARAMS]: compile examples/NAME.probes, merge into
# the board's bootargs (and USER-PARAMS), boot through U-Boot, and check
# the agent's dump.
ba_boot() {
	local name=$1 user=${2:-} b=$ba_dir/boot-$1 frag got try
	rm -rf "$b" && mkdir -p "$b"
	./probecc "examples/$name.probes" --arch mipsel --cmdline --cmdline-max 2000 \
		--plan "$b/plan" > "$b/frag" 2> "$b/compile.err" ||
		{ t_fail "bootargs/boot-$name" "probecc failed" "$b/compile.err"; return; }
	qemu-images/mkimage mipsel -o "$b/initrd.gz" --plan "$b/plan" 2> "$b/mkimage.err" ||
		{ t_fail "bootargs/boot-$name" "mkimage failed" "$b/mkimage.err"; return; }
	eval "$(qemu-images/uboot/boot-malta-uboot --layout --kernel "$VMLINUZ" \
		--initrd "$b/initrd.gz")"
	./probecc-asan bootargs --fragment "$b/frag" \
		--bootargs "console=ttyS0 rdinit=/init panic=-1 $board_args${user:+ $user}" \
		--uboot-script "$b/bootargs.cmd" 2> "$b/bootargs.err" ||
		{ t_fail "bootargs/boot-$name" "probecc bootargs failed" "$b/bootargs.err"; return; }
	./probecc bootargs --fragment "$b/frag" \
		--bootargs "console=ttyS0 rdinit=/init panic=-1 $board_args${user:+ $user}" --print > "$b/merged"
	{
		echo 'setenv initrd_high 0xffffffff'
		cat "$b/bootargs.cmd"
		echo "$bootm_cmd"
	} > "$b/boot.cmd"
	# 12-20 s wall on 2 loaded cores (docs/bootargs.md).  Debian's Malta
	# 6.1 kernel sometimes dies of its own kprobe single-step ("Break
	# instruction in kernel code" at an insn slot, 1 boot in ~10 with
	# the kretprobe of retval.probes: docs/bootargs.md): that boot, and
	# only that, is booted again (tests/lib.sh: KPROBE_OOPS_TRIES; panic=-1
	# ends it at once), its log kept as console.log.N.
	for try in $(seq $KPROBE_OOPS_TRIES); do
		SECONDS=0
		qemu-images/uboot/boot-malta-uboot --script "$b/boot.cmd" --kernel "$VMLINUZ" \
			--initrd "$b/initrd.gz" --console "$b/console.log" --dump "$b/ttyS1.raw" \
			--timeout 60 2> "$b/boot.err"
		echo "$SECONDS" >> "$b/seconds"
		kprobe_oops "$b/console.log" || break
		[ $try = $KPROBE_OOPS_TRIES ] && break
		mv "$b/console.log" "$b/console.log.$try"
		echo "    (bootargs/boot-$name: the kernel's kprobe single-step crash, see $b/console.log.$try: booting again)"
	done
	if ! qemu-images/extract-dump "$b/ttyS1.raw" 1 > "$b/dump1" 2> /dev/null; then
		t_fail "bootargs/boot-$name" "no dump on ttyS1" "$b/boot.err"
		tail -5 "$b/console.log" 2>/dev/null | sed 's/^/    console: /'
		return
	fi
	t_pass "bootargs/boot-$name"
	frag=$(cat "$b/frag")
	got=$(sed -n 's/^cmdline\t//p' "$b/dump1")
	case " $got " in
	*" $frag "*) t_pass "bootargs/boot-$name/cmdline-has-fragment" ;;
	*) t_fail "bootargs/boot-$name/cmdline-has-fragment" "/proc/cmdline: $got" ;;
	esac
	if [ "$got" = "$(cat "$b/merged")" ]; then
		t_pass "bootargs/boot-$name/cmdline-is-merged"
	else
		t_fail "bootargs/boot-$name/cmdline-is-merged" "/proc/cmdline: $got, merged: $(cat "$b/merged")"
	fi
}

if [ "$T_HOST" = 1 ]; then
	:	# said above
elif [ $have_uboot = 1 ] && eval "$(qemu-images/fetch mipsel 2> /dev/null)" && [ -n "${VMLINUZ:-}" ]; then
	ba_boot bond0
	b=$ba_dir/boot-bond0
	if [ -f "$b/dump1" ]; then
		# the kprobe from the command line (kprobe_event=, found by the
		# agent) or defined by the agent, and its stack armed (on MIPS
		# the agent's perf kprobe: the kprobe PMU)
		if grep -qP '^item\tnetdev\t(armed|ok)\tkprobe_events\t' "$b/dump1" &&
		   grep -qP '^item\tnetdev\tarmed\tperf\t' "$b/dump1"; then
			t_pass bootargs/boot-bond0/netdev-armed
		else
			t_fail bootargs/boot-bond0/netdev-armed "no netdev kprobe in kprobe_events, or its perf stack not armed" "$b/dump1"
		fi
		# dump 2 (after rc's insmod bonding): the agent's kprobe and
		# the command line's function filter both recorded bond_create
		qemu-images/extract-dump "$b/ttyS1.raw" 2 > "$b/dump2" 2> /dev/null
		if grep -q 'netdev: (register_netdevice+0x0/[0-9a-fx]*) name="bond%d"' "$b/dump2" &&
		   grep -q 'register_netdevice <-bond_create' "$b/dump2"; then
			t_pass bootargs/boot-bond0/traced
		else
			t_fail bootargs/boot-bond0/traced "dump 2 has no netdev hit or no register_netdevice <-bond_create" "$b/dump2"
		fi
	else
		t_fail bootargs/boot-bond0/dumped "the U-Boot boot left no dump 1 ($b)"
	fi
	# $retval and ";" in kprobe_event=: armed by the kernel from the
	# command line.  The user's own parameters carry what hush and the
	# MIPS boot path could spoil: a double-quoted value with blanks, ";",
	# "$", "&&", "||", "#"; backslashes; a single quote; "${...}".  With
	# them the line is over 256 bytes, QEMU's own -append limit on Malta.
	# (bootargs_test.* are module parameters of no module: ignored.)
	ba_boot retval 'bootargs_test.dq="two words; $retval && a || b # c" bootargs_test.bs=a\b\\c bootargs_test.sq=it'\''s bootargs_test.var=${loadaddr}'
	b=$ba_dir/boot-retval
	if [ -f "$b/dump1" ]; then
		bad=$(grep -P '^item\t(open_entry|open_ret)\t' "$b/dump1" |
			awk -F'\t' '$3 == "failed" || $3 == "missing"')
		if grep -qP '^item\topen_ret\t' "$b/dump1" && [ -z "$bad" ]; then
			t_pass bootargs/boot-retval/kretprobe-armed
		else
			t_fail bootargs/boot-retval/kretprobe-armed "items: $bad" "$b/dump1"
		fi
		got=$(sed -n 's/^cmdline\t//p' "$b/dump1")
		if [ ${#got} -gt 256 ]; then
			t_pass bootargs/boot-retval/cmdline-over-256-bytes
		else
			t_fail bootargs/boot-retval/cmdline-over-256-bytes "${#got} bytes"
		fi
		# "$retval" reached the kernel: the kretprobe records ret=N
		if grep -qP 'open_ret: \(\S+ <- do_sys_openat2\) ret=-?[0-9]+$' "$b/dump1"; then
			t_pass bootargs/boot-retval/retval-recorded
		else
			t_fail bootargs/boot-retval/retval-recorded "no open_ret hit with ret=N" "$b/dump1"
		fi
	else
		t_fail bootargs/boot-retval/dumped "the U-Boot boot left no dump 1 ($b)"
	fi
else
	t_skip bootargs/boot "needs U-Boot, QEMU and the fetched Malta kernel (qemu-images/fetch mipsel)"
fi

# ---- --dtb on QEMU's arm64 virt device tree ----------------------------------
d=$ba_dir/dtb && mkdir -p "$d"
if command -v qemu-system-aarch64 > /dev/null && command -v fdtget > /dev/null; then
	frag=$ba_gold/good-keep-user.frag
	qemu-system-aarch64 -M virt,dumpdtb="$d/virt.dtb" -nic none -display none \
		> /dev/null 2>&1
	# (QEMU puts -append in /chosen/bootargs only with -kernel: fdtput it)
	cp "$d/virt.dtb" "$d/virt-args.dtb" && fdtput -t s "$d/virt-args.dtb" /chosen bootargs \
		'console=ttyAMA0 root=/dev/vda kprobe_event=p:old,do_sys_openat2'
	cp "$d/virt.dtb" "$d/virt-nochosen.dtb" && fdtput -r "$d/virt-nochosen.dtb" /chosen
	for bin in ./probecc ./probecc-asan; do
		tag=bootargs/dtb/$(basename "$bin")
		want=$(cat "$frag")
		for in in virt virt-nochosen; do
			rm -f "$d/$in.out.dtb"
			"$bin" bootargs --fragment "$frag" --dtb "$d/$in.dtb" -o "$d/$in.out.dtb" 2> "$d/err"
			got=$(fdtget "$d/$in.out.dtb" /chosen bootargs 2>&1)
			if [ "$got" = "$want" ] && dtc -I dtb -O dts -o /dev/null "$d/$in.out.dtb" 2>/dev/null &&
			   [ "$(fdtget "$d/$in.out.dtb" / compatible)" = "$(fdtget "$d/virt.dtb" / compatible)" ]; then
				t_pass "$tag/$in"
			else
				t_fail "$tag/$in" "fdtget: $got" "$d/err"
			fi
		done
		# an existing /chosen/bootargs: kept user params, conflict, --replace
		rm -f "$d/args.out.dtb"
		"$bin" bootargs --fragment "$frag" --dtb "$d/virt-args.dtb" -o "$d/args.out.dtb" 2> "$d/err"
		rc=$?
		if [ $rc -eq 1 ] && [ ! -e "$d/args.out.dtb" ] &&
		   grep -q "virt-args.dtb's /chosen/bootargs has kprobe_event=p:old,do_sys_openat2, the fragment kprobe_event=" "$d/err"; then
			t_pass "$tag/conflict"
		else
			t_fail "$tag/conflict" "exit $rc" "$d/err"
		fi
		"$bin" bootargs --fragment "$frag" --dtb "$d/virt-args.dtb" --replace -o "$d/args.out.dtb" 2> "$d/err"
		got=$(fdtget "$d/args.out.dtb" /chosen bootargs 2>&1)
		if [ "$got" = "console=ttyAMA0 root=/dev/vda $want" ]; then
			t_pass "$tag/replace"
		else
			t_fail "$tag/replace" "fdtget: $got" "$d/err"
		fi
		# a broken tree: error, nothing written
		head -c 300 "$d/virt.dtb" > "$d/cut.dtb"
		rm -f "$d/cut.out.dtb"
		"$bin" bootargs --fragment "$frag" --dtb "$d/cut.dtb" -o "$d/cut.out.dtb" 2> "$d/err"
		rc=$?
		if [ $rc -eq 1 ] && [ ! -e "$d/cut.out.dtb" ] && grep -q 'cut.dtb: truncated' "$d/err"; then
			t_pass "$tag/truncated"
		else
			t_fail "$tag/truncated" "exit $rc" "$d/err"
		fi
		"$bin" bootargs --fragment "$frag" --dtb "$frag" -o "$d/cut.out.dtb" 2> "$d/err"
		rc=$?
		if [ $rc -eq 1 ] && [ ! -e "$d/cut.out.dtb" ] && grep -q 'not a valid device tree blob' "$d/err"; then
			t_pass "$tag/not-a-dtb"
		else
			t_fail "$tag/not-a-dtb" "exit $rc" "$d/err"
		fi
	done
else
	t_skip bootargs/dtb "needs qemu-system-arm and device-tree-compiler (qemu-images/deps.sh)"
fi

# ---- a real boot from a patched tree: arm64 virt, Debian's kernel, -dtb -----
# The tree is QEMU's own for the machine (-machine dumpdtb), with the
# user's console= and rdinit= and two tracing parameters of an earlier
# run in /chosen/bootargs; probecc bootargs --dtb merges the arm64
# fragment of examples/retval.probes ($retval, ";") into it; QEMU boots
# it with -dtb and no -append.  The initramfs's /init reports
# /proc/cmdline, /proc/device-tree/chosen/bootargs, kprobe_events and
# the kprobe hits (qemu-images/uboot/boot-arm64-dtb).
d=$ba_dir/dtb-boot && mkdir -p "$d"
a64=qemu-images/uboot/boot-arm64-dtb
if [ "$T_HOST" = 1 ]; then
	t_host_skip bootargs/dtb-boot
elif ! command -v qemu-system-aarch64 > /dev/null || ! command -v fdtput > /dev/null; then
	t_skip bootargs/dtb-boot "needs qemu-system-arm and device-tree-compiler (qemu-images/deps.sh)"
elif ! a64_env=$(qemu-images/fetch arm64 2> "$d/fetch.err"); then
	t_skip bootargs/dtb-boot "no arm64 kernel: $(tail -1 "$d/fetch.err") (needs dpkg --add-architecture arm64)"
else
	a64_kernel=$(eval "$a64_env"; echo "$VMLINUZ")
	a64_busybox=$(eval "$a64_env"; echo "$BUSYBOX")
	user='console=ttyAMA0 rdinit=/init'
	if ! { $a64 --dumpdtb "$d/virt.dtb" &&
	       fdtput -t s "$d/virt.dtb" /chosen bootargs "$user trace_buf_size=1M ftrace=function" &&
	       ./probecc examples/retval.probes --arch arm64 --cmdline > "$d/frag" &&
	       ./probecc-asan bootargs --fragment "$d/frag" --dtb "$d/virt.dtb" -o "$d/out.dtb" &&
	       ./probecc bootargs --fragment "$d/frag" --bootargs "$user" --print > "$d/merged" &&
	       $a64 --initrd-out "$d/initrd.gz" --busybox "$a64_busybox"; } 2> "$d/prep.err"; then
		t_fail bootargs/dtb-boot "preparing the tree or the initramfs failed" "$d/prep.err"
	else
		SECONDS=0
		$a64 --dtb "$d/out.dtb" --initrd "$d/initrd.gz" --kernel "$a64_kernel" \
			--console "$d/console.log" --timeout 60 2> "$d/boot.err"
		rc=$?
		echo "$SECONDS" > "$d/seconds"
		tr -d '\r' < "$d/console.log" |
			sed -n '/^== report begin ==$/,/^== report end ==$/p' > "$d/report"
		if [ $rc -ne 0 ] || ! grep -q '^== report end ==$' "$d/report"; then
			t_fail bootargs/dtb-boot "exit $rc, no report on the console" "$d/boot.err"
			tail -5 "$d/console.log" 2>/dev/null | sed 's/^/    console: /'
		else
			t_pass bootargs/dtb-boot
			got=$(sed -n 's/^cmdline\t//p' "$d/report")
			want=$(cat "$d/merged")
			if [ "$got" = "$want" ] &&
			   [ "$(fdtget "$d/out.dtb" /chosen bootargs)" = "$want" ] &&
			   [ "$(sed -n 's/^chosen\t//p' "$d/report")" = "$want" ]; then
				t_pass bootargs/dtb-boot/cmdline-is-merged
			else
				t_fail bootargs/dtb-boot/cmdline-is-merged "/proc/cmdline: $got, merged: $want"
			fi
			# the earlier run's parameters went, and probecc said so
			if ! grep -qE 'trace_buf_size|ftrace=' "$d/report" &&
			   grep -q "virt.dtb's /chosen/bootargs: dropped trace_buf_size=1M, " "$d/prep.err" &&
			   grep -q "virt.dtb's /chosen/bootargs: dropped ftrace=function, " "$d/prep.err"; then
				t_pass bootargs/dtb-boot/earlier-run-dropped-with-a-note
			else
				t_fail bootargs/dtb-boot/earlier-run-dropped-with-a-note "kernel or notes" "$d/prep.err"
			fi
			# the kernel made both probes from kprobe_event= ...
			if grep -qxP 'kprobe_events\tp:kprobes/open_entry do_sys_openat2 path=\+0\(%x1\):string' "$d/report" &&
			   grep -qxP 'kprobe_events\tr[0-9]*:kprobes/open_ret do_sys_openat2 ret=\$retval:s32' "$d/report"; then
				t_pass bootargs/dtb-boot/kprobes-exist
			else
				t_fail bootargs/dtb-boot/kprobes-exist "kprobe_events lacks open_entry or open_ret" "$d/report"
			fi
			# ... and both recorded /init's own opens
			if grep -qP '^trace\t.* open_entry: \(do_sys_openat2\+0x0/0x[0-9a-f]+\) path="/init"$' "$d/report" &&
			   grep -qP '^trace\t.* open_ret: \(\S+ <- do_sys_openat2\) ret=-?[0-9]+$' "$d/report"; then
				t_pass bootargs/dtb-boot/kprobes-hit
			else
				t_fail bootargs/dtb-boot/kprobes-hit "no open_entry path=\"/init\" or open_ret ret=N hit" "$d/report"
			fi
		fi
	fi
fi
