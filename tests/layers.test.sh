# The folders include only downward (tests/layers.py; README.md,
# "Layout"): common <- bootconfig, facts <- compiler <- report,
# bootargs <- cli.  The checker itself is tried on a copy of the tree
# with a folder cycle and an upward include planted, which it must name.
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
for f in common bootconfig facts compiler report bootargs cli; do
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
