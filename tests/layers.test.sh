# The folders include and call only downward (tests/layers.py;
# docs/developing.md, "Layout"): common <- bootconfig, facts <- dumpread,
# compiler <- report, bootargs <- cli; no two files call each other
# (directly or through others), no function is defined in two files, no
# folder includes another's private header (NAME-local.h, NAME-int.h).
# The checker itself is tried on copies of the tree with each of these
# planted, which it must name.
# Run alone: bash tests/layers.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

d=$T_OUT/layers
rm -rf "$d"; mkdir -p "$d"
if python3 tests/layers.py . > "$d/tree.out" 2>&1; then
	t_pass layers/tree
else
	t_fail layers/tree "a folder includes against the order" "$d/tree.out"
fi

# a planted cycle: facts/ including compiler.h, which includes from facts/
mkdir -p "$d/planted"
for f in common bootconfig facts dumpread compiler report bootargs cli; do
	mkdir -p "$d/planted/$f"
	cp $f/*.[ch] "$d/planted/$f/"
done
printf '#include "compiler.h"\n' >> "$d/planted/facts/kernel.h"
if python3 tests/layers.py "$d/planted" > "$d/planted.out" 2>&1; then
	t_fail layers/planted-cycle "a facts -> compiler include was not refused" "$d/planted.out"
else
	t_grep layers/planted-cycle "$d/planted.out" \
		'^  facts/kernel\.h:[0-9]+ includes compiler\.h$'
	t_grep layers/planted-cycle-names-both "$d/planted.out" \
		'^  compiler/[a-z]+\.[ch]:[0-9]+ includes (kernel|uelf|debuginfo|btf)\.h$'
fi

# a sibling include (report/ and bootargs/ are of one rank) is refused too
cp -r "$d/planted" "$d/sibling"
cp facts/kernel.h "$d/sibling/facts/kernel.h"
printf '#include "bootargs.h"\n' >> "$d/sibling/report/text.c"
if python3 tests/layers.py "$d/sibling" > "$d/sibling.out" 2>&1; then
	t_fail layers/sibling "a report -> bootargs include was not refused" "$d/sibling.out"
else
	t_grep layers/sibling "$d/sibling.out" '^report/text\.c:[0-9]+ includes bootargs\.h: report/ may include only from below it'
fi

# a planted call circle between two files (kconfig.c calls kernel.c's
# ksym_find(), kernel.c calls kconfig.c's kernel_set_kconfig()), a call
# upward (facts/ calling the reader) and a function defined twice: found
# by calls, with no include changed
cp -r "$d/planted" "$d/calls"
cp facts/kernel.h "$d/calls/facts/kernel.h"
printf 'static void planted(struct kernel *k) { (void)ksym_find(k, "x"); }\n' >> "$d/calls/facts/kconfig.c"
printf 'static void planted(void) { dumpread_capture(0, 0, 0, 0); }\n' >> "$d/calls/facts/ustack.c"
printf 'long task_pid(const char *task)\n{\n\treturn 0;\n}\n' >> "$d/calls/dumpread/timebase.c"
if python3 tests/layers.py "$d/calls" > "$d/calls.out" 2>&1; then
	t_fail layers/call-circle "planted calls were not refused" "$d/calls.out"
else
	t_grep layers/call-circle "$d/calls.out" '^call circle facts/kconfig\.c <-> facts/kernel\.c:$'
	t_grep layers/call-circle-names-calls "$d/calls.out" '^  facts/kconfig\.c:[0-9]+ calls ksym_find\(\) of facts/kernel\.c$'
	t_grep layers/call-upward "$d/calls.out" '^facts/ustack\.c:[0-9]+ calls dumpread_capture\(\) of dumpread/read\.c: facts/ may call only below it'
	t_grep layers/defined-twice "$d/calls.out" '^task_pid\(\) is defined in dumpread/read\.c and dumpread/timebase\.c'
fi

# a private header (the reader's dumpread-local.h) included from report/
cp -r "$d/planted" "$d/private"
cp facts/kernel.h "$d/private/facts/kernel.h"
printf '#include "dumpread-local.h"\n' >> "$d/private/report/text.c"
if python3 tests/layers.py "$d/private" > "$d/private.out" 2>&1; then
	t_fail layers/private-header "report/ including dumpread-local.h was not refused" "$d/private.out"
else
	t_grep layers/private-header "$d/private.out" '^report/text\.c:[0-9]+ includes dumpread-local\.h: the private header of dumpread/'
fi
