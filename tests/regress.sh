# make check-regress: boots against a baseline, on Debian's Malta kernel
# (qemu-images/run-probes --runs, --baseline; probecc report --baseline).
# tests/regress/regress.probes: the netdev kprobe (names, callers) and the
# initcall timeline.  Two clean boots make the baseline (one
# run-probes --runs 2 --report with tests/regress/clean, its output
# directory kept as a CI job keeps its artifact); then
#   clean      two more clean boots against it: no regression, exit 0
#   bond1      an rc that adds bond1 through bonding_masters: a second
#              netdev hit and the value "bond1" named, exit 1
#   nobond     an rc without bonding.ko: netdev's hits gone, bonding's
#              init gone, exit 1
#   slowinit   /slowinit.ko loaded with delay_ms=200 where the
#              baseline loads it with 0 (tests/regress/slowinit.c, built
#              against Debian's linux-headers of the kernel by
#              build-slowinit.sh): its initcall named slower, exit 1
# Seven boots, 2.5-6 min on the shared 2-core host (README.md,
# "Baselines"), so not part of make check; the goldens of the same
# comparisons on stored boots are (tests/report/cases/regress-*).
rg=$T_OUT/regress
rm -rf "$rg" && mkdir -p "$rg"
p=tests/regress/regress.probes

# every image has /slowinit.ko (tests/regress/slowinit.c), built against
# Debian's headers of the kernel; the baseline's rc loads it as it is
if tests/regress/build-slowinit.sh "$rg/slowinit.ko" > "$rg/build.log" 2>&1; then
	t_pass regress/slowinit-module-builds
else
	t_fail regress/slowinit-module-builds "build-slowinit.sh failed" "$rg/build.log"
fi
# the rc variants run qemu-images/rc/bond0's steps
add=(--add "$rg/slowinit.ko:/slowinit.ko" --add qemu-images/rc/bond0:/probecc/bond0)
qemu-images/run-probes --arch mipsel --out "$rg/base" --runs 2 --rc tests/regress/clean \
	"${add[@]}" --report "$p" > "$rg/base.log" 2>&1
rc=$?
if [ $rc = 0 ] && [ -f "$rg/base/run-1/ttyS1.raw" ] && [ -f "$rg/base/run-2/ttyS1.raw" ] &&
   grep -q '^2 boot(s): median (min..max) per metric:' "$rg/base.log"; then
	t_pass regress/baseline-two-runs
else
	t_fail regress/baseline-two-runs "exit $rc" "$rg/base.log"
fi

# regress_case NAME WANT_EXIT RUNS RC GREP...: RUNS boots with rc RC
# against the baseline; each GREP a line of the report that must be
# there.  $th: thresholds for the report.
th=()
regress_case() {
	local name=$1 want=$2 runs=$3 rcfile=$4 rc g ok=1
	shift 4
	qemu-images/run-probes --arch mipsel --out "$rg/$name" --runs "$runs" \
		${rcfile:+--rc "$rcfile"} "${add[@]}" "${th[@]}" --baseline "$rg/base" --report "$p" \
		> "$rg/$name.log" 2>&1
	rc=$?
	[ "$rc" = "$want" ] || ok=0
	for g in "$@"; do
		grep -q -E -- "$g" "$rg/$name/report.txt" 2>/dev/null || ok=0
	done
	if [ $ok = 1 ]; then
		t_pass "regress/$name"
	else
		t_fail "regress/$name" "exit $rc, want $want and: $*" "$rg/$name.log"
	fi
}
# two boots against two: a single initcall's stall under TCG (up to ~1.8 s
# measured) is not hidden by a median of two, so times get wider
# thresholds here than the defaults chosen for five against five
th=(--threshold initcall=1s --threshold level=3s --threshold first=5s --threshold phase=5s)
regress_case clean 0 2 tests/regress/clean '^baseline: 2 boot\(s\) against 2: .* 0 regression\(s\)$'
th=()
regress_case bond1 1 1 tests/regress/bond1 \
	'REGRESSION  hits netdev  1 -> 2 ' 'REGRESSION  values netdev.name  new: "bond1"'
regress_case nobond 1 1 tests/regress/nobond \
	'REGRESSION  hits netdev  1 -> 0 .*gone' 'REGRESSION  initcall bonding_init  gone'
regress_case slowinit 1 1 tests/regress/slowinit \
	'REGRESSION  initcall slowinit:init_module  [0-9.]+ -> [0-9.]+ ms'
