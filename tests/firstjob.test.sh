# A new user's first job through qemu-images/run-probes (docs/developing.md, "Set-up and the test groups";
# issue: "The first job a new user writes ... work the first time"):
# what stops a job before the boot says why in one line at the place it
# is, and nothing the user did not ask for is left in --out.
# Run alone: bash tests/firstjob.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

fj_dir=$T_OUT/firstjob
rm -rf "$fj_dir" && mkdir -p "$fj_dir"

# --- Stops before the boot (no QEMU) ---

# Over the command-line room: each statement's bytes at FILE:LINE:COL,
# the budget said as run-probes computed it, no --cmdline-max hint
# (compiled against the capture: the functions only bonding has are
# left out of the boot filter, as the kernel would drop them).
d=$fj_dir/over-budget && mkdir -p "$d"
qemu-images/run-probes --arch mipsel --out "$d/out" tests/firstjob/over-budget.probes \
	> "$d/stdout" 2> "$d/stderr"
rc=$?
if [ $rc -ne 1 ] || [ -e "$d/out/console.log" ]; then
	t_fail firstjob/over-budget/stops "exit $rc, expected 1 before any boot" "$d/stderr"
else
	t_grep firstjob/over-budget/budget-said "$d/stderr" \
		"over the budget of 182 \(the room of mipsel's 255-byte command line after the firmware's rd_start= rd_size= and run-probes' own 'console=ttyS0 rdinit=/init'\): ftrace= 15, ftrace_filter= 163, trace_event= 37$"
	t_grep firstjob/over-budget/statement-noted "$d/stderr" \
		"^tests/firstjob/over-budget.probes:4:10: note: takes 79 bytes of the fragment \(ftrace_filter=\)$"
	# nothing half-made in --out: no empty cmdline, no ERR trap line
	if [ -n "$(ls -A "$d/out")" ] || grep -q 'run-probes: line' "$d/stderr"; then
		t_fail firstjob/over-budget/nothing-left "left in --out: $(ls -A "$d/out")" "$d/stderr"
	else
		t_pass firstjob/over-budget/nothing-left
	fi
	# the fetched kernel's config is known (its package's /boot/config):
	# no "whether this kernel has CONFIG_BOOT_CONFIG is not known"
	if grep -q 'CONFIG_BOOT_CONFIG is not known' "$d/stderr"; then
		t_fail firstjob/over-budget/config-known "says the config is not known, though run-probes fetched it" "$d/stderr"
	else
		t_pass firstjob/over-budget/config-known
	fi
	if grep -q -- '--cmdline-max' "$d/stderr"; then
		t_fail firstjob/over-budget/no-option-hint "hints an option run-probes does not have" "$d/stderr"
	else
		t_pass firstjob/over-budget/no-option-hint
	fi
fi

# A warning is said once, though run-probes compiles twice (the outputs,
# then the explanation); the module typo stops the job at the image,
# after both compiles, before any boot.
d=$fj_dir/warn-once && mkdir -p "$d"
qemu-images/run-probes --arch mipsel --out "$d/out" --report --module bondng \
	tests/firstjob/warn-init.probes > "$d/stdout" 2> "$d/stderr"
rc=$?
n=$(grep -c "warning: 'start_kernel' is __init" "$d/stderr")
if [ $rc -ne 0 ] && [ ! -e "$d/out/console.log" ] && [ "$n" = 1 ]; then
	t_pass firstjob/warn-once
else
	t_fail firstjob/warn-once "exit $rc, the warning $n time(s)" "$d/stderr"
fi
# the module typo itself: did-you-mean from the kernel package's modules
t_grep firstjob/module-typo "$d/stderr" \
	'^mkimage: no module bondng in linux-image-[^ ]*; did you mean bonding\?$'
# and only that: one line, no ERR trap line of run-probes after it
if grep -q '^run-probes: line ' "$d/stderr"; then
	t_fail firstjob/module-typo-one-line "run-probes' trap line follows mkimage's reason" "$d/stderr"
else
	t_pass firstjob/module-typo-one-line
fi


# Expected failures before the boot get the one sentence of the step that
# failed and no ERR trap line (run-probes: line N: exit ...; the trap is
# for what nobody foresaw): a file to --add that is not there (bad usage,
# exit 2, before anything is fetched), an --out
# that cannot be made, and an offline cache that has no kernel (fetch's
# reason, not an "unbound variable" from the eval of its empty output).
d=$fj_dir/one-sentence && mkdir -p "$d" "$d/empty-cache"
qemu-images/run-probes --arch mipsel --out "$d/add" --add "$d/nonexist:/bin/x" \
	examples/bond0.probes > /dev/null 2> "$d/add.err"
rc1=$?
qemu-images/run-probes --arch mipsel --out /proc/probecc-out examples/bond0.probes \
	> /dev/null 2> "$d/out.err"
rc2=$?
PROBECC_CACHE=$d/empty-cache PROBECC_OFFLINE=1 qemu-images/run-probes --arch mipsel \
	--out "$d/fetch" examples/bond0.probes > /dev/null 2> "$d/fetch.err"
rc3=$?
PROBECC_CACHE=$d/empty-cache PROBECC_OFFLINE=1 qemu-images/run-probes --arch mipsel \
	--out "$d/runs" --runs 2 --report examples/bond0.probes > /dev/null 2> "$d/runs.err"
rc4=$?
ok=1
[ $rc1 = 2 ] && [ "$(cat "$d/add.err")" = "run-probes: --add $d/nonexist:/bin/x: no such file $d/nonexist" ] || ok=0
[ $rc2 = 1 ] && [ "$(wc -l < "$d/out.err")" = 1 ] && grep -q "^mkdir: cannot create directory" "$d/out.err" || ok=0
[ $rc3 = 1 ] && [ "$(cat "$d/fetch.err")" = "fetch: offline and no usable $d/empty-cache/fetch/mipsel.env" ] || ok=0
[ $rc4 = 1 ] && [ "$(cat "$d/runs.err")" = "fetch: offline and no usable $d/empty-cache/fetch/mipsel.env" ] || ok=0
if [ $ok = 1 ] && ! grep -q -E ': line [0-9]+: exit |unbound variable' "$d"/*.err; then
	t_pass firstjob/one-sentence
else
	t_fail firstjob/one-sentence "exit $rc1/$rc2/$rc3/$rc4" "$d/add.err" "$d/out.err" "$d/fetch.err" "$d/runs.err"
fi

# --add of a program of another arch stops the job before the boot, with
# the file and both sides named (probecc elf-arch).
d=$fj_dir/wrong-arch && mkdir -p "$d"
qemu-images/run-probes --arch mipsel --out "$d/out" --add /bin/true:/bin/x \
	tests/firstjob/wrong-arch.probes > "$d/stdout" 2> "$d/stderr"
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$d/out/console.log" ] &&
   grep -q '^run-probes: --add /bin/true:/bin/x: /bin/true is x86-64 (ELFCLASS64, ELFDATA2LSB, EM_X86_64), not a mipsel program$' "$d/stderr"; then
	t_pass firstjob/wrong-arch
else
	t_fail firstjob/wrong-arch "exit $rc" "$d/stderr"
fi
# Another arch's file that no uprobe names (data, a host tool) is added
# with a note, not refused: here the job goes on to mkimage, which stops
# it at the misspelt module (no boot)
qemu-images/run-probes --arch mipsel --out "$d/out2" --add /bin/true:/bin/data --module nosuchmod \
	tests/firstjob/wrong-arch.probes > "$d/stdout2" 2> "$d/stderr2"
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$d/out2/console.log" ] &&
   grep -q '^run-probes: --add /bin/true:/bin/data: /bin/true is x86-64 .*: added as it is (no uprobe names /bin/data)$' "$d/stderr2" &&
   grep -q '^mkimage: no module nosuchmod' "$d/stderr2"; then
	t_pass firstjob/add-foreign-data
else
	t_fail firstjob/add-foreign-data "exit $rc" "$d/stderr2"
fi
./probecc elf-arch --arch mipsel initramfs/agent-mipsel tests/firstjob/init-stays > "$d/ok.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q 'agent-mipsel: little-endian MIPS o32' "$d/ok.out" &&
   grep -q 'init-stays: not an ELF file' "$d/ok.out"; then
	t_pass firstjob/elf-arch-fits
else
	t_fail firstjob/elf-arch-fits "exit $rc" "$d/ok.out"
fi

# docs/your-board.md is read from an installed tree (PREFIX/share/doc):
# its commands are the installed names, it points at no file that is not
# installed unless it says "source tree" or "checkout", and its mkimage
# line for the script is the one probecc bootargs --help gives.
d=$fj_dir/your-board && mkdir -p "$d"
doc=docs/your-board.md
links="bootconfig $(sed -n 's/^QEMU_LINKS *= *//p' Makefile)"
bad=
for c in $(grep -o 'probecc-[a-z-]*' "$doc" | sort -u); do
	case " $links " in
	*" ${c#probecc-} "*) ;;
	*) bad="$bad $c" ;;
	esac
done
grep -n -E '(^|[ `(])(qemu-images|tests|initramfs)/' "$doc" |
	grep -v -E 'source tree|checkout' > "$d/pointers"
help_line=$(./probecc bootargs --help 2>&1 | sed -n 's/^ *\(mkimage .*-T script.*\)$/\1/p' |
	sed 's/ARCH/mips/; s/-d OUT boot.scr/-d boot.cmd boot.scr/')
if [ -z "$bad" ] && [ ! -s "$d/pointers" ] && [ -n "$help_line" ] &&
   grep -q -F -- "$help_line" "$doc" && grep -q 'rd_size=' "$doc" &&
   grep -q 'bootm ' "$doc"; then
	t_pass firstjob/your-board-doc
else
	t_fail firstjob/your-board-doc "not installed:${bad:- none}; mkimage line '$help_line'" "$d/pointers"
fi

# --- Boots (Debian's Malta kernel, QEMU) ---

# Overlay mode on a Buildroot-style initrd whose /init stays in the
# initramfs (tests/firstjob/init-stays): the agent's /run/probecc.done
# reaches it (the agent's own root, /.probecc, is detached by then).
d=$fj_dir/overlay-done && mkdir -p "$d"
if ! qemu-images/mkimage mipsel -o "$d/base.img" --agent tests/firstjob/init-stays \
	--module none > "$d/mkimage.log" 2>&1; then
	t_fail firstjob/overlay-done "mkimage failed" "$d/mkimage.log"
else
	# the init powers off by itself once it has said its word; an
	# --until-console it never prints lets the boot end by that
	# poweroff, which run-probes must call a poweroff, not "until".
	# Booted again on the MIPS kprobe single-step oops
	# (run_probes_retrying, tests/lib.sh): kernel_execve's kprobe is hit
	# by the kernel's own modprobe helpers before /init, where a CI run
	# saw the oops (at 0.99 s).  Its --timeout 240 gives way to ours.
	run_probes_retrying firstjob/overlay-done "$d/out" --arch mipsel \
		--base-initrd "$d/base.img" --until-console 'init: never says this' \
		--timeout 180 tests/firstjob/overlay-done.probes
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^init: saw /run/probecc.done: window 2' "$d/out/console.log"; then
		t_pass firstjob/overlay-done
	else
		t_fail firstjob/overlay-done "exit $rc; the init's word: $(grep '^init:' "$d/out/console.log" 2>/dev/null)" "$d/out/run.log"
	fi
	# run-probes' "boot: WORD" is qemu-images/boot's own: a guest that
	# powered off before --until matched is a poweroff, not "until"
	bw=$(sed -n '/^run-probes: boot took /{x;p;q};h' "$d/out/run.log" | sed -n 's/^boot: \([a-z-]*\): .*/\1/p')
	rw=$(sed -n 's/^run-probes: boot took .* s wall, boot: \([a-z-]*\)$/\1/p' "$d/out/run.log")
	if [ -n "$bw" ] && [ "$bw" = "$rw" ]; then
		t_pass firstjob/overlay-boot-word
	else
		t_fail firstjob/overlay-boot-word "boot said '$bw', run-probes '$rw'" "$d/out/run.log"
	fi
fi

# A misspelt function without --report or --target: run-probes checks
# the file against the capture of the kernel that boots all the same
# (qemu-images/target: one boot, then cached) and stops before the boot
# with the place and a did-you-mean.  With --kernel (a kernel of the
# user's own: no capture here) it says before the boot that nothing was
# checked, and after it what the agent could not arm (the kernel's own
# reason), not only inside dump1.
d=$fj_dir/typo-checked && mkdir -p "$d"
qemu-images/run-probes --arch mipsel --out "$d/out" --module none \
	tests/firstjob/typo.probes > "$d/stdout" 2> "$d/stderr"
rc=$?
if [ $rc = 1 ] && [ ! -e "$d/out/console.log" ] && [ -z "$(ls -A "$d/out")" ] &&
   grep -q "^tests/firstjob/typo.probes:2:15: error: the kernel has no function 'register_netdevce'; did you mean register_netdevice" "$d/stderr"; then
	t_pass firstjob/typo-checked
else
	t_fail firstjob/typo-checked "exit $rc, or it booted, or left files in --out: $(ls -A "$d/out")" "$d/stderr"
fi
# The same with --report: a CI job that stops before the boot still
# leaves junit.xml (the reason as its failing case) and report.json
# (verdict "stopped"), and no boot's files.
d=$fj_dir/typo-report && mkdir -p "$d"
qemu-images/run-probes --arch mipsel --out "$d/out" --report --module none \
	tests/firstjob/typo.probes > "$d/stdout" 2> "$d/stderr"
rc=$?
if [ $rc = 1 ] && [ ! -e "$d/out/console.log" ] &&
   grep -q '<failure type="stopped" message="tests/firstjob/typo.probes:2:15: error: the kernel has no function' "$d/out/junit.xml" 2> /dev/null &&
   python3 -c 'import json, sys; b = json.load(open(sys.argv[1]))["boot"]; sys.exit(not (b["verdict"] == "stopped" and b["status"] == 1 and "register_netdevce" in b["message"]))' "$d/out/report.json" 2> /dev/null &&
   [ "$(ls -A "$d/out" | tr '\n' ' ')" = "junit.xml report.json " ]; then
	t_pass firstjob/typo-report-artifacts
else
	t_fail firstjob/typo-report-artifacts "exit $rc; in --out: $(ls -A "$d/out" 2> /dev/null | tr '\n' ' ')" "$d/stderr"
fi
d=$fj_dir/typo-unchecked && mkdir -p "$d"
eval "$(qemu-images/fetch mipsel)"
qemu-images/run-probes --arch mipsel --out "$d/out" --module none \
	--kernel "$VMLINUZ" --kernel-version 6.1 \
	tests/firstjob/typo.probes > "$d/stdout" 2> "$d/stderr"
rc=$?
if grep -q "^run-probes: your --kernel has no capture here (--target FILE gives one): nothing is checked against it" "$d/stderr" &&
   grep -q "run-probes: not armed: netdev (kprobe_events failed: .*Invalid probed address or symbol" "$d/stderr"; then
	t_pass firstjob/typo-unchecked
else
	t_fail firstjob/typo-unchecked "exit $rc" "$d/stderr"
fi

# make demo, the README's main job: the report, bond0's creator with its
# callers named (insmod -> do_init_module -> bonding_init -> bond_create
# -> register_netdevice), not the agent's raw dump, which is one option
# away (DEMO_OPTS=--show).
d=$fj_dir/demo && mkdir -p "$d"
make -s demo > "$d/out" 2>&1
rc=$?
if [ $rc -eq 0 ] &&
   grep -q 'insmod-[0-9]*: (register_netdevice+0x0/0x[0-9a-f]*) name="bond%d"' "$d/out" &&
   grep -q '^ *1 bond_create+0x[0-9a-f]* \[bonding\]$' "$d/out" &&
   grep -q '^ *1 bonding_init+0x[0-9a-f]* \[bonding\]$' "$d/out" &&
   grep -q '^ *1 do_init_module+0x' "$d/out" &&
   grep -q 'DEMO_OPTS=--show' "$d/out" && ! grep -q "^item	" "$d/out"; then
	t_pass firstjob/demo-report
else
	t_fail firstjob/demo-report "exit $rc" "$d/out"
fi

# --- The new user's first job, end to end (README alone) ---
# Their own static program (tests/firstjob/hello.c, -g) and rc script,
# a uprobe with field expectations and "stack has main" (the agent's
# user-stack sample, unwound with the program's CFI from --sysroot), a
# kprobe with a field expectation and "stack has" (the agent's perf
# callchain on MIPS), on mipsel: green the first time; then red, before
# any boot, with a one-line reason, for a misspelt function, a program
# of the wrong arch and a module typo.
d=$fj_dir/first-job && mkdir -p "$d/sysroot/bin" "$d/x86/bin"
if ! mipsel-linux-gnu-gcc -static -g -O2 -o "$d/sysroot/bin/hello" tests/firstjob/hello.c 2> "$d/cc.err" ||
   ! gcc -static -g -O2 -o "$d/x86/bin/hello" tests/firstjob/hello.c 2>> "$d/cc.err"; then
	t_fail firstjob/first-job "the program does not build" "$d/cc.err"
else
	qemu-images/run-probes --arch mipsel --out "$d/green" --rc tests/firstjob/rc-hello \
		--sysroot "$d/sysroot" --report tests/firstjob/hello.probes > "$d/green.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^6 of 6 expectation(s) hold$' "$d/green.log"; then
		t_pass firstjob/first-job/green
	else
		t_fail firstjob/first-job/green "exit $rc" "$d/green.log"
	fi
	# red: each stops before the boot (no console.log) with its reason
	sed 's/kprobe netdev register_netdevice/kprobe netdev register_netdevce/' \
		tests/firstjob/hello.probes > "$d/typo.probes"
	qemu-images/run-probes --arch mipsel --out "$d/red-typo" --rc tests/firstjob/rc-hello \
		--sysroot "$d/sysroot" --report "$d/typo.probes" > "$d/red-typo.log" 2>&1
	rc1=$?
	qemu-images/run-probes --arch mipsel --out "$d/red-arch" --rc tests/firstjob/rc-hello \
		--sysroot "$d/x86" --report tests/firstjob/hello.probes > "$d/red-arch.log" 2>&1
	rc2=$?
	qemu-images/run-probes --arch mipsel --out "$d/red-module" --rc tests/firstjob/rc-hello \
		--module bondng --sysroot "$d/sysroot" --report tests/firstjob/hello.probes > "$d/red-module.log" 2>&1
	rc3=$?
	ok=1
	[ $rc1 -ne 0 ] && [ ! -e "$d/red-typo/console.log" ] &&
		grep -q "typo.probes:3:15: error: the kernel has no function 'register_netdevce'; did you mean register_netdevice" "$d/red-typo.log" || ok=0
	[ $rc2 -ne 0 ] && [ ! -e "$d/red-arch/console.log" ] &&
		grep -q "hello is x86-64 (ELFCLASS64, ELFDATA2LSB, EM_X86_64), not a mipsel program" "$d/red-arch.log" || ok=0
	[ $rc3 -ne 0 ] && [ ! -e "$d/red-module/console.log" ] &&
		grep -q "no module bondng in linux-image-[^ ]*; did you mean bonding?" "$d/red-module.log" || ok=0
	if [ $ok = 1 ]; then
		t_pass firstjob/first-job/red-reasons
	else
		t_fail firstjob/first-job/red-reasons "exit $rc1/$rc2/$rc3" "$d/red-typo.log" "$d/red-arch.log" "$d/red-module.log"
	fi
fi

# A uprobe's "stack has" through run-probes (x86_64): run-probes gives
# the report its --sysroot, so the agent's user stack sample is unwound
# and named, the direct caller main at greet's entry included.
d=$fj_dir/uprobe-stack && mkdir -p "$d/sysroot/bin"
if ! gcc -static -g -O0 -fno-omit-frame-pointer -o "$d/sysroot/bin/hello" tests/firstjob/hello.c 2> "$d/cc.err"; then
	t_fail firstjob/uprobe-stack "gcc failed" "$d/cc.err"
else
	qemu-images/run-probes --arch x86_64 --out "$d/out" --rc tests/firstjob/rc-hello \
		--sysroot "$d/sysroot" --report tests/firstjob/hello-stack.probes > "$d/run.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^ *1 greet+0x0 \[/bin/hello\] (pc)$' "$d/run.log" &&
	   grep -q '^ *1 main+0x[0-9a-f]* \[/bin/hello\] (cfi)$' "$d/run.log" &&
	   grep -q '^3 of 3 expectation(s) hold$' "$d/run.log"; then
		t_pass firstjob/uprobe-stack
	else
		t_fail firstjob/uprobe-stack "exit $rc" "$d/run.log"
	fi
fi
