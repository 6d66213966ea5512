# Trace instances in real boots: probecc's events in tracefs instance
# "boot" of their own ("instance boot", docs/language.md) survive
# another tool that empties, stops and writes the top buffer
# (tests/instance/other-tool.rc, run as the real init's script after
# bonding.ko registered bond0).
#   mipsel (Debian's Malta 6.1, no trace_instance=): the agent makes the
#     instance at /init and enables the kprobe there; the report's
#     expectations hold on the instance's dumps (text), and the other
#     tool's line is not among the hits; the agent's own opens of the
#     instance's files are not in it (its set_event_notrace_pid).  The control boot, the same file
#     without the instance line, loses the bond0 hit to the emptying and
#     has the other tool's line: its expectations fail (exit 1).
#   arm64-6.12 (INSTANCE_TARGETS, make check-6.12): trace_instance=boot,
#     sched:sched_process_exec makes the instance at boot with the static
#     event, whose hits before /init are in it; the agent's kprobe too;
#     raw dumps of the instance's per-CPU pages.
# Cold cost: nothing to fetch beyond the boot group's Malta kernel; two
# Malta boots (about 35 s each on an idle host, 70 s at load 8).
# Run alone: bash tests/instance.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

inst_dir=$T_OUT/instance
rc=tests/instance/other-tool.rc

t_left_out instance INSTANCE_TARGETS mipsel
for t in ${INSTANCE_TARGETS:-mipsel}; do
	if [ "$T_HOST" = 1 ]; then
		t_host_skip "instance/$t"
		continue
	fi
	probes=tests/instance/bond0.probes
	case $t in *-6.12) probes=tests/instance/bond0-612.probes ;; esac
	# the instance boot: every expectation holds (run-probes exits 0)
	if run_probes_oops "instance/$t" "$inst_dir/$t" --arch $t --report --rc $rc "$probes"; then
		d=$inst_dir/$t
		t_grep "instance/$t/other-tool-ran" "$d/console.log" \
			'^rc: other tool: top buffer of .* emptied'
		t_grep "instance/$t/dumps-the-instance" "$d/dump2" '^buffer	instances/boot/$'
		t_grep "instance/$t/bond0-kept" "$d/report.txt" \
			'^  PASS  expect netdev.name == "bond%d"'
		if grep -q 'other-tool: started' "$d/report.txt" "$d/dump2"; then
			t_fail "instance/$t/no-other-tool-line" "the other tool's line is in the instance" "$d/report.txt"
		else
			t_pass "instance/$t/no-other-tool-line"
		fi
		# the agent's opens of the instance's files (its dumps, marks)
		# are out of the instance's trace: set_event_notrace_pid there
		if grep -q '^kprobe openat ' "$probes"; then
			if grep -q $'^item\topenat\tarmed\tinstances/boot/set_event' "$d/dump1" &&
			   ! grep -h ' openat: ' "$d/dump1" "$d/dump2" | grep -q .; then
				t_pass "instance/$t/agent-not-in-instance"
			else
				t_fail "instance/$t/agent-not-in-instance" "the agent's opens of instances/boot/ are in the instance's trace, or openat not armed there" "$d/dump2"
			fi
		fi
		case $t in *-6.12)
			t_grep "instance/$t/trace_instance-at-boot" "$d/cmdline" \
				'trace_instance=boot,sched:sched_process_exec'
			t_grep "instance/$t/event-before-init" "$d/report.txt" \
				'^  PASS  expect sched:sched_process_exec hits >= 1 before init'
			t_grep "instance/$t/instance-from-kernel" "$d/dump1" \
				'^item	instance	ok	instances/boot	-$' ;;
		*)
			t_grep "instance/$t/instance-made-by-agent" "$d/dump1" \
				'^item	instance	armed	instances/boot	-$' ;;
		esac
	fi
	[ $t = mipsel ] || continue
	# the control: the same file without "instance": the top buffer's
	# bond0 hit is emptied by the other tool before the window dump
	c=$inst_dir/$t-control
	mkdir -p "$c"
	grep -v '^instance ' "$probes" > "$c.probes"
	crc=0
	run_probes_retrying "instance/$t-control" "$c" --arch $t --report --rc $rc \
		"$c.probes" || crc=$?
	if [ $crc = 1 ] && grep -q '^  FAIL  expect netdev.name == "bond%d"' "$c/report.txt" &&
	   grep -q 'other-tool: started' "$c/report.txt"; then
		t_pass "instance/$t-control/top-buffer-loses-bond0"
	else
		t_fail "instance/$t-control/top-buffer-loses-bond0" "exit $crc (want 1: the bond0 expectation failing)" "$c/run.log"
	fi
done
