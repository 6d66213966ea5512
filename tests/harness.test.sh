# The test harness itself (tests/run-tests.sh, tests/lib.sh), on real
# inputs, with no boot: a suite that passes by accident is worse than none.
#  - the awk helpers of tests/lib.sh (stack_after, stack_next) under both
#    awks a machine may have: Debian's default mawk and gawk (which
#    lava-dispatcher pulls in, and which update-alternatives then makes
#    "awk"), on a real x86_64 dump (tests/report/x86_64-bond0/ttyS1.raw)
#  - a group that records no case fails; a run where nothing passed fails
#  - a group narrowed by a variable says what it left out (t_left_out)
#  - two runs in one checkout at once each count their own cases
# Run alone: bash tests/harness.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

hd=$T_OUT/harness && rm -rf "$hd" && mkdir -p "$hd"

# --- the awk helpers under each awk (a PATH with "awk" that one) ---
raw=tests/report/x86_64-bond0/ttyS1.raw
for a in mawk gawk; do
	if ! p=$(command -v $a); then
		t_skip harness/awk-$a "no $a (qemu-images/deps.sh build installs it)"
		continue
	fi
	mkdir -p "$hd/$a" && ln -sf "$p" "$hd/$a/awk"
	# the kprobe's stack: bonding.ko's init creating bond0 through insmod
	PATH=$hd/$a:$PATH stack_after "$raw" 'netdev: \(register_netdevice' \
		> "$hd/$a.after" 2> "$hd/$a.err"
	if [ "$(sed -n 2,3p "$hd/$a.after" | tr '\n' ' ')" = "bond_create bonding_init " ] &&
	   [ ! -s "$hd/$a.err" ]; then
		t_pass harness/awk-$a/stack_after
	else
		t_fail harness/awk-$a/stack_after "not register_netdevice <- bond_create <- bonding_init" \
			"$hd/$a.after" "$hd/$a.err"
	fi
	# the same stack right after the hit, offsets taken off; a regex
	# whose next line is no stack gives nothing
	PATH=$hd/$a:$PATH stack_next "$raw" 'netdev: \(register_netdevice\+0x0/0x[0-9a-f]+\) name="bond%d"' \
		> "$hd/$a.next" 2> "$hd/$a.err"
	PATH=$hd/$a:$PATH stack_next "$raw" '^--- trace ---$' > "$hd/$a.none" 2>> "$hd/$a.err"
	if [ "$(head -3 "$hd/$a.next" | tr '\n' ' ')" = "register_netdevice bond_create bonding_init " ] &&
	   [ ! -s "$hd/$a.none" ] && [ ! -s "$hd/$a.err" ]; then
		t_pass harness/awk-$a/stack_next
	else
		t_fail harness/awk-$a/stack_next "not the three frames, or a stack where none follows" \
			"$hd/$a.next" "$hd/$a.none" "$hd/$a.err"
	fi
done

# --- the harness's counts: planted groups, each run in its own scratch ---
# plant NAME BODY: a group file holding BODY
plant() { printf '%s\n' "$2" > "$hd/$1.test.sh"; }
# harness NAME GROUP...: tests/run-tests.sh on the planted GROUPs (its
# exit status in $hd/NAME.rc, its output in $hd/NAME.log)
harness() {
	local name=$1 g args=()
	shift
	for g; do args+=("$hd/$g.test.sh"); done
	T_OUT=$hd/$name.out T_RESULTS=$hd/$name.results CI= tests/run-tests.sh "${args[@]}" \
		> "$hd/$name.log" 2>&1
	echo $? > "$hd/$name.rc"
}
plant empty ': no case recorded'
plant one 't_pass planted/one'
plant skipped 't_skip planted/skipped "planted"'
plant narrowed 'NARROW="b"; t_left_out planted NARROW a b c; t_pass planted/b'

harness empty one empty
if [ "$(cat "$hd/empty.rc")" != 0 ] &&
   grep -qx 'FAIL empty.test.sh: the group recorded no test case' "$hd/empty.log" &&
   grep -qx '1 passed, 1 failed, 0 skipped' "$hd/empty.log"; then
	t_pass harness/group-without-case-fails
else
	t_fail harness/group-without-case-fails "exit $(cat "$hd/empty.rc")" "$hd/empty.log"
fi

harness skipped skipped
if [ "$(cat "$hd/skipped.rc")" != 0 ] && grep -qx 'FAIL run-tests: no test case passed' "$hd/skipped.log"; then
	t_pass harness/nothing-passed-fails
else
	t_fail harness/nothing-passed-fails "exit $(cat "$hd/skipped.rc")" "$hd/skipped.log"
fi

harness narrowed narrowed
if [ "$(cat "$hd/narrowed.rc")" = 0 ] &&
   [ "$(grep -c '^SKIP planted/[ac]: left out by NARROW="b"$' "$hd/narrowed.results")" = 2 ] &&
   grep -qx '1 passed, 0 failed, 2 skipped' "$hd/narrowed.log"; then
	t_pass harness/narrowed-says-what-it-left-out
else
	t_fail harness/narrowed-says-what-it-left-out "exit $(cat "$hd/narrowed.rc")" "$hd/narrowed.log"
fi

# two runs in one checkout (one T_OUT, no T_RESULTS), the second started
# while the first still runs: each counts its own cases
plant slow 'sleep 2; t_pass planted/slow-a; t_pass planted/slow-b'
(T_OUT=$hd/shared.out T_RESULTS= CI= tests/run-tests.sh "$hd/slow.test.sh" > "$hd/shared1.log" 2>&1) &
sleep 1
T_OUT=$hd/shared.out T_RESULTS= CI= tests/run-tests.sh "$hd/one.test.sh" > "$hd/shared2.log" 2>&1
wait
if grep -qx '2 passed, 0 failed, 0 skipped' "$hd/shared1.log" &&
   grep -qx '1 passed, 0 failed, 0 skipped' "$hd/shared2.log"; then
	t_pass harness/runs-side-by-side-count-their-own
else
	t_fail harness/runs-side-by-side-count-their-own "a run's count changed by the other's" \
		"$hd/shared1.log" "$hd/shared2.log"
fi
