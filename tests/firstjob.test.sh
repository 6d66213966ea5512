# A new user's first job through qemu-images/run-probes (README, "Set-up";
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
# the budget said as run-probes computed it, no --cmdline-max hint.
d=$fj_dir/over-budget && mkdir -p "$d"
qemu-images/run-probes --arch mipsel --out "$d/out" tests/firstjob/over-budget.probes \
	> "$d/stdout" 2> "$d/stderr"
rc=$?
if [ $rc -ne 1 ] || [ -e "$d/out/console.log" ]; then
	t_fail firstjob/over-budget/stops "exit $rc, expected 1 before any boot" "$d/stderr"
else
	t_grep firstjob/over-budget/budget-said "$d/stderr" \
		"over the budget of 182 \(the room of mipsel's 255-byte command line after the firmware's rd_start= rd_size= and run-probes' own 'console=ttyS0 rdinit=/init'\): ftrace= 15, ftrace_filter= 188, trace_event= 37$"
	t_grep firstjob/over-budget/statement-noted "$d/stderr" \
		"^tests/firstjob/over-budget.probes:4:10: note: takes 79 bytes of the fragment \(ftrace_filter=\)$"
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
qemu-images/run-probes --arch mipsel --out "$d/out" --module bondng \
	tests/firstjob/warn-stack.probes > "$d/stdout" 2> "$d/stderr"
rc=$?
n=$(grep -c "warning: 'stack' on uprobe 'u' records nothing" "$d/stderr")
if [ $rc -ne 0 ] && [ ! -e "$d/out/console.log" ] && [ "$n" = 1 ]; then
	t_pass firstjob/warn-once
else
	t_fail firstjob/warn-once "exit $rc, the warning $n time(s)" "$d/stderr"
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
	qemu-images/run-probes --arch mipsel --out "$d/out" --base-initrd "$d/base.img" \
		--until-console 'init: (saw|no) /run/probecc.done' --timeout 180 \
		tests/firstjob/overlay-done.probes > "$d/run.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^init: saw /run/probecc.done: window 2' "$d/out/console.log"; then
		t_pass firstjob/overlay-done
	else
		t_fail firstjob/overlay-done "exit $rc; the init's word: $(grep '^init:' "$d/out/console.log" 2>/dev/null)" "$d/run.log"
	fi
fi
