# The checks of a boot of tests/ustack/chain.probes, sourced by
# tests/ustack.test.sh and tests/kernel/mips64be.sh (t_pass, t_fail,
# t_grep from tests/lib.sh).

# user_frames PROBE LOG: the user frames of PROBE's first stack in the
# report's text, one a line, without the counts
user_frames() {
	awk -v p="$1" '$1 == p && $3 == "hit(s)," { in_p = 1; next }
		in_p && /user callers/ { on = 1; next }
		on && /^      / { $1 = ""; sub(/^ /, ""); print; next }
		on { exit }' "$2"
}

# ustack_check NAME REPORT RAW CONSOLE DIR: for probe_me (/bin/chain,
# -O2) and probe_me_O0 (/bin/chain-O0) of the report's text REPORT: the
# exact chain, innermost first, the direct caller at probe_me's first
# instruction included, every caller found with CFI (NAME/PROBE/
# exact-chain); the walk reaches the entry point's function (to-start);
# the agent armed the perf user-stack sample (armed, in the raw dump
# RAW); and the kernel did not warn about the registers sampled
# (no-kernel-warning, in CONSOLE: MIPS's perf_reg_value() WARNs on $k0,
# $k1).  Files of its own in DIR.
ustack_check() {
	local name=$1 report=$2 raw=$3 console=$4 d=$5 probe prog

	for probe in probe_me probe_me_O0; do
		case $probe in
		probe_me) prog=/bin/chain ;;
		probe_me_O0) prog=/bin/chain-O0 ;;
		esac
		user_frames $probe "$report" > "$d/$probe.frames"
		printf '%s\n' "probe_me+0x0 [$prog] (pc)" "caller_three (cfi)" "caller_two (cfi)" \
			"caller_one (cfi)" "main (cfi)" > "$d/$probe.want"
		head -5 "$d/$probe.frames" |
			sed -E 's/\+0x[0-9a-f]+ \[\/bin\/chain(-O0)?\] \(cfi\)$/ (cfi)/' > "$d/$probe.got"
		if cmp -s "$d/$probe.want" "$d/$probe.got"; then
			t_pass $name/$probe/exact-chain
		else
			t_fail $name/$probe/exact-chain "$(tr '\n' '|' < "$d/$probe.frames")" "$report"
		fi
		if grep -q '\[user stack cut' "$d/$probe.frames" ||
		   ! tail -1 "$d/$probe.frames" | grep -Eq "^_?_start\+0x[0-9a-f]+ \[$prog\] \(cfi\)$"; then
			t_fail $name/$probe/to-start "the unwind stops before _start" "$d/$probe.frames"
		else
			t_pass $name/$probe/to-start
		fi
		t_grep $name/$probe/armed "$raw" \
			$'^item\t'$probe$'\tarmed\tperf\tperf: [0-9]+ cpus, id [0-9]+, user stack$'
	done
	if grep -Eq 'WARNING: .*(perf_reg|perf_output_sample)' "$console"; then
		t_fail $name/no-kernel-warning "$(grep -m1 'WARNING:' "$console")"
	else
		t_pass $name/no-kernel-warning
	fi
}
