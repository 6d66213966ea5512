# make check-hang: Debian's Linux 6.12 for amd64 (target x86_64-6.12,
# bookworm-security; qemu-images/fetch pins the version) and the hang
# path of run-probes.  Not in make check: its cold cost (the 6.12 kernel,
# 107 MB, 22.6 s; its headers, 16.6 MB, 49 s; a module build; three
# boots) would add more than 3 minutes to the cold CI run.
#   x86_64-6.12/bond0   examples/bond0.probes through run-probes and the
#                       agent on 6.12: both dumps, the kprobe's hit by
#                       insmod bonding (the window dump)
#   x86_64-6.12/spin-module  tests/hang/spin.c built against the kernel's
#                       headers (fetch --headers) loads
#   x86_64-6.12/hang    tests/hang/hang.probes, rc-spin: bonding, then
#                       spin.ko, whose init never returns.  run-probes
#                       --hang 8 resets the hung boot (system_reset keeps
#                       RAM), the next boot's agent dumps the persistent
#                       instance; the verdict from what CI reads: exit
#                       status 3, report.json (every expectation holds
#                       on the hung boot's hits: do_init_module of tls,
#                       bonding and spin, register_netdevice, named
#                       through last_boot_info's text delta), junit.xml
#   mipsel/hang-6.1     the same reset on Debian's Malta 6.1 (no
#                       persistent ring buffer; a userspace hang, rc-sleep):
#                       exit status 3, and the report says the next boot
#                       had no trace of the hung one (exit 2: no evidence)
hg=$T_OUT/hang
mkdir -p "$hg"

# x86_64-6.12/bond0: the target boots with the agent; 6.12's modules are
# .ko.xz, which mkimage unpacks for busybox's insmod.
hang_bond0() {
	local n=x86_64-6.12/bond0 d=$hg/bond0 rc=0
	rm -rf "$d"
	qemu-images/run-probes --arch x86_64-6.12 --out "$d" --timeout 120 \
		examples/bond0.probes > "$d.log" 2>&1 || rc=$?
	if [ $rc -ne 0 ]; then
		t_fail "$n" "run-probes exited $rc" "$d.log"
	elif ! grep -q '^stage	window' "$d/dump2" 2>/dev/null; then
		t_fail "$n" "no window dump" "$d.log"
	elif ! grep -q 'insmod-.*netdev: (register_netdevice+0x4/' "$d/dump2"; then
		# +0x4: past the endbr64 (IBT).  The name field reads "": 6.12's
		# struct net_device no longer starts with name[] (the 6.8
		# cacheline groups), so bond0.probes' +0(arg1) misses it here
		t_fail "$n" "no kprobe hit of insmod's register_netdevice in the window dump" "$d/dump2"
	elif ! grep -q '^cmdline	.*6\.12\|Linux version 6\.12' "$d/dump1" "$d/console.log"; then
		t_fail "$n" "not a 6.12 kernel" "$d/console.log"
	else
		t_pass "$n"
	fi
}
hang_bond0

# x86_64-6.12/spin-module: the module that hangs, from the kernel's own
# headers (its Kbuild; BTF left out: pahole is not installed, and the
# test needs none)
hang_module() {
	local n=x86_64-6.12/spin-module d=$hg/spin rc=0
	rm -rf "$d" && mkdir -p "$d"
	cp tests/hang/spin.c tests/hang/Kbuild "$d/"
	if ! (eval "$(qemu-images/fetch --headers x86_64-6.12)" &&
	      make -C "$HEADERS" M="$d" CONFIG_DEBUG_INFO_BTF_MODULES= modules) \
	      > "$d.log" 2>&1; then
		t_fail "$n" "the module did not build" "$d.log"
		return 1
	fi
	t_grep "$n" "$d/spin.ko" 'vermagic=6\.12\.[0-9]+\+deb12-amd64 SMP preempt mod_unload modversions'
}

# x86_64-6.12/hang: the verdict and the hung boot's trace, from the
# artifacts a CI job reads
hang_reset() {
	local n=x86_64-6.12/hang d=$hg/hang rc=0
	rm -rf "$d"
	qemu-images/run-probes --arch x86_64-6.12 --out "$d" --timeout 150 \
		--hang 8 --rc tests/hang/rc-spin --add "$hg/spin/spin.ko:/spin.ko" \
		--report tests/hang/hang.probes > "$d.log" 2>&1 || rc=$?
	if [ $rc -ne 3 ]; then
		t_fail "$n/exit-status" "run-probes exited $rc, expected 3 (a hang)" "$d.log"
	else
		t_pass "$n/exit-status"
	fi
	t_grep "$n/reset" "$d.log" '^boot: reset: no progress for 8s: system_reset at '
	t_grep "$n/spun" "$d/console.log" 'spin: spinning in init, preemption off'
	t_grep "$n/kept" "$d/console.log" 'Ring buffer meta \[0\] is from previous boot!'
	# the console split at the reset: the hang's message quotes the hung
	# boot's last line (spin.ko's), not the next boot's last one
	t_grep "$n/console-next" "$d/console.log.next" 'Linux version 6\.12\.'
	t_grep "$n/last-line" "$d/report.txt" 'the last console line: .*spin: spinning in init, preemption off\)'
	t_grep "$n/previous-dump" "$d/previous" '^stage	previous$'
	if python3 - "$d/report.json" > "$d/json.check" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ex = r["expectations"]
assert len(ex) == 3 and all(e["pass"] for e in ex), ex
hits = {}
for h in r["hits"]:
    hits.setdefault(h["probe"], []).append(h)
names = [h["fields"]["name"] for h in hits["modinit"]]
assert names == ["tls", "bonding", "spin"], names
# named through last_boot_info's text delta and the capture
assert all(h["args"].startswith("(do_init_module+0x0) ") for h in hits["modinit"]), hits["modinit"]
assert hits["netdev"][0]["args"].startswith("(register_netdevice+0x4) "), hits["netdev"]
PY
	then
		t_pass "$n/report-json"
	else
		t_fail "$n/report-json" "report.json" "$d/json.check" "$d/report.txt"
	fi
	# junit.xml: the expectations hold on the hung boot's trace, and
	# the boot's own testcase fails with the hang (a timed-out job is
	# never all green): one failure in all
	if grep -q '<testsuite [^>]*failures="1"' "$d/junit.xml" &&
	   grep -q '<testcase classname="probecc.boot" name="boot ends clean"><failure type="hang"' "$d/junit.xml" &&
	   [ "$(grep -c '<testcase classname="probecc" name="expect ' "$d/junit.xml")" = 3 ] &&
	   ! grep -q '<testcase classname="probecc" name="expect [^>]*><failure' "$d/junit.xml"; then
		t_pass "$n/junit"
	else
		t_fail "$n/junit" "not 3 expectations without failure and the boot's case failing as hang" "$d/junit.xml"
	fi
}

# mipsel/hang-6.1: Malta, Debian's 6.1: the same reset, and no trace
hang_malta() {
	local n=mipsel/hang-6.1 d=$hg/malta rc=0
	rm -rf "$d"
	qemu-images/run-probes --arch mipsel --out "$d" --timeout 150 \
		--hang 8 --rc tests/hang/rc-sleep --report tests/hang/hang.probes \
		> "$d.log" 2>&1 || rc=$?
	if [ $rc -ne 3 ]; then
		t_fail "$n/exit-status" "run-probes exited $rc, expected 3 (a hang)" "$d.log"
	else
		t_pass "$n/exit-status"
	fi
	t_grep "$n/reset" "$d.log" '^boot: reset: no progress for 8s: system_reset at '
	# the machine booted again after the reset: two banners
	if [ "$(grep -c 'Linux version 6\.1\.' "$d/console.log")" = 2 ]; then
		t_pass "$n/rebooted"
	else
		t_fail "$n/rebooted" "not two boots in the console log" "$d.log"
	fi
	t_grep "$n/no-trace" "$d.log" 'the next boot had no trace of the hung boot'
	t_grep "$n/last-line" "$d/report.txt" 'the last console line: .*rc: hanging in userspace now\)'
	t_grep "$n/report-says" "$d/report.txt" 'no dump of the previous boot.s trace'
}

hang_module && hang_reset
hang_malta
