# make check-regress: boots against a baseline, on Debian's Malta kernel
# (qemu-images/run-probes --runs, --baseline; probecc report --baseline).
# tests/regress/regress.probes: the netdev kprobe (names, callers) and the
# initcall timeline.  Two clean boots make the baseline (one
# run-probes --runs 2 --report, its output directory kept as a CI job
# keeps its artifact); then
#   clean      two more clean boots against it: no regression, exit 0
#   bond1      an rc that adds bond1 through bonding_masters: a second
#              netdev hit and the value "bond1" named, exit 1
#   nobond     an rc without bonding.ko: netdev's hits gone, bonding's
#              init gone, exit 1
#   slowinit   bonding.ko loaded with max_bonds=20: its initcall
#              bonding_init named slower, exit 1
# Seven boots, 2.5-6 min on the shared 2-core host (README.md,
# "Baselines"), so not part of make check; the goldens of the same
# comparisons on stored boots are (tests/report/cases/regress-*).
rg=$T_OUT/regress
rm -rf "$rg" && mkdir -p "$rg"
p=tests/regress/regress.probes

qemu-images/run-probes --arch mipsel --out "$rg/base" --runs 2 --report "$p" \
	> "$rg/base.log" 2>&1
rc=$?
if [ $rc = 0 ] && [ -f "$rg/base/run-1/ttyS1.raw" ] && [ -f "$rg/base/run-2/ttyS1.raw" ] &&
   grep -q '^2 boot(s): median (min..max) per metric:' "$rg/base.log"; then
	t_pass regress/baseline-two-runs
else
	t_fail regress/baseline-two-runs "exit $rc" "$rg/base.log"
fi

# regress_case NAME WANT_EXIT RUNS RC GREP...: RUNS boots with rc RC
# (- : the image's own) against the baseline; each GREP a line of the
# report that must be there
regress_case() {
	local name=$1 want=$2 runs=$3 rcfile=$4 rc g ok=1
	shift 4
	qemu-images/run-probes --arch mipsel --out "$rg/$name" --runs "$runs" \
		${rcfile:+--rc "$rcfile"} --baseline "$rg/base" --report "$p" \
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
regress_case clean 0 2 "" '^baseline: 2 boot\(s\) against 2: .* 0 regression\(s\)$'
regress_case bond1 1 1 tests/regress/bond1 \
	'REGRESSION  hits netdev  1 -> 2 ' 'REGRESSION  values netdev.name  new: "bond1"'
regress_case nobond 1 1 tests/regress/nobond \
	'REGRESSION  hits netdev  1 -> 0 .*gone' 'REGRESSION  initcall bonding_init  gone'
regress_case slowinit 1 1 tests/regress/slowinit 'REGRESSION  initcall bonding_init  '
