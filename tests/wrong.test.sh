# When the boot goes wrong: real boots of Debian's Malta (mipsel) and
# amd64 kernels by qemu-images/run-probes --report that panic, hang, end
# their init or power off early, and what a CI system reads of each: the
# exit status, junit.xml (the "boot ends clean" testcase) and report.json
# ("boot").  Every verdict comes from those artifacts, not from files of
# the job's own.  Run alone: bash tests/wrong.test.sh (through
# tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

wrong_dir=$T_OUT/wrong

# artifacts DIR: "STATUS VERDICT JUNIT" of a run: the job's exit status
# (DIR/status), report.json's boot verdict, and junit.xml's boot testcase
# ("fail TYPE" or "pass") with the suite's failure count checked against
# its testcases.
artifacts() {
	python3 - "$1" <<'EOF'
import json, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
status = open(d + "/status").read().strip()
try:
    verdict = json.load(open(d + "/report.json"))["boot"]["verdict"]
except Exception as e:
    verdict = "no-json(%s)" % type(e).__name__
try:
    suite = ET.parse(d + "/junit.xml").getroot()
    cases = suite.findall("testcase")
    failed = sum(1 for c in cases if c.find("failure") is not None)
    boot = [c for c in cases if c.get("classname") == "probecc.boot"]
    if int(suite.get("failures")) != failed or int(suite.get("tests")) != len(cases):
        junit = "bad-counts"
    elif len(boot) != 1 or boot[0].get("name") != "boot ends clean":
        junit = "no-boot-case"
    elif boot[0].find("failure") is None:
        junit = "pass"
    else:
        junit = "fail-" + boot[0].find("failure").get("type")
except Exception as e:
    junit = "no-junit(%s)" % type(e).__name__
print(status, verdict, junit)
EOF
}

# wrong_boot NAME RUN-PROBES-ARGS...: one boot into $wrong_dir/NAME,
# booted again on Debian's MIPS kprobe single-step oops, which its
# kprobes can meet as any other boot's (run_probes_retrying, tests/lib.sh);
# its artifacts (above) in $got.
wrong_boot() {
	local name=$1 d
	shift
	d=$wrong_dir/$name
	run_probes_retrying "wrong/$name" "$d" --report "$@"
	echo $? > "$d/status"
	got=$(artifacts "$d")
}

# wrong_case NAME STATUS VERDICT RUN-PROBES-ARGS...: one boot; the job must
# exit STATUS with report.json's boot verdict VERDICT and junit.xml's boot
# testcase failing with that type (passing for "clean").  0 when it did.
wrong_case() {
	local name=$1 want_status=$2 want=$3 d=$wrong_dir/$1 junit
	shift 3
	wrong_boot "$name" "$@"
	junit=fail-$want
	[ "$want" != clean ] || junit=pass
	if [ "$got" = "$want_status $want $junit" ]; then
		t_pass "wrong/$name"
		return 0
	fi
	t_fail "wrong/$name" "exit status, report.json boot verdict, junit.xml boot case: got '$got', want '$want_status $want $junit'" "$d/run.log"
	tail -8 "$d/console.log" 2> /dev/null | sed 's/^/    console: /'
	return 1
}

for arch in mipsel x86_64; do
	# A panic after insmod bonding (sysrq c), before the window dump.
	if wrong_case $arch-panic 4 panic --arch $arch --rc tests/wrong/rc-panic \
		examples/ci-bond0.probes; then
		d=$wrong_dir/$arch-panic
		t_grep wrong/$arch-panic/message "$d/report.json" \
			'"message": "kernel panic: sysrq triggered crash"'
		t_grep wrong/$arch-panic/junit-console "$d/junit.xml" \
			'Kernel panic - not syncing: sysrq triggered crash'
		# the init dump's hits are kept, the window's expectations fail
		t_grep wrong/$arch-panic/armed-fails "$d/report.txt" \
			'FAIL  expect armed .*the window dump is missing'
		# the kernel's own dump on the console (run-probes compiles with
		# --crash-dump: ftrace_dump_on_oops) gives the report the bond0 hit
		# taken after the init dump, its name and its caller, joined once
		t_grep wrong/$arch-panic/bond0-hit "$d/report.txt" \
			'PASS  expect netdev.name == "bond%d"'
		t_grep wrong/$arch-panic/bond0-stack "$d/report.txt" \
			'PASS  expect register_netdevice stack has bond_create'
		t_grep wrong/$arch-panic/console-joined "$d/report.json" \
			'"console_trace": \{"dumps": 1, "events": [0-9]+, "joined": [1-9]'
		t_grep wrong/$arch-panic/last-events "$d/report.json" \
			'"last_events": \[\{'
		# x86_64's stacktrace trigger prints the kprobe's own stack in that dump
		[ $arch != x86_64 ] || t_grep wrong/$arch-panic/bond0-trigger-stack "$d/report.txt" \
			'PASS  expect netdev stack has bonding_init'
	fi
	# A panic before /init: rdinit= names nothing, so the kernel looks
	# for a root file system, and there is none (init/do_mounts.c).
	if wrong_case $arch-panic-before-init 4 panic --arch $arch \
		--append "rdinit=/nonexistent" examples/ci-bond0.probes; then
		t_grep wrong/$arch-panic-before-init/message "$wrong_dir/$arch-panic-before-init/report.json" \
			'"message": "kernel panic: VFS: Unable to mount root fs'
	fi
	# The real init powers off before the window dump.
	wrong_case $arch-early-poweroff 11 window-missing --arch $arch \
		--rc tests/wrong/rc-poweroff examples/ci-bond0.probes
done

# The real init never powers off: the runner's timeout.
wrong_case mipsel-hang 3 hang --arch mipsel --timeout 25 --rc tests/wrong/rc-hang \
	examples/ci-bond0.probes

# The real init exits with status 3: the probe file makes the rc script
# itself the init the agent execs (init /probecc/rc), so PID 1 exits.
if wrong_case mipsel-init-exit 9 init-exited --arch mipsel --rc tests/wrong/rc-exit3 \
	tests/wrong/init-exit.probes; then
	t_grep wrong/mipsel-init-exit/status "$wrong_dir/mipsel-init-exit/report.json" \
		'"init_status": 3'
fi

# The user's rc (run-probes --rc) simply does its work and ends:
# rc/run-rc waits for the window dump, powers off and records the status.
for arch in mipsel x86_64; do
	d=$wrong_dir/$arch-rc-ends
	if wrong_case $arch-rc-ends 0 clean --arch $arch --rc tests/wrong/rc-work \
		examples/ci-bond0.probes; then
		t_grep wrong/$arch-rc-ends/rc-status "$d/report.json" '"rc_status": 0'
		t_grep wrong/$arch-rc-ends/window-dump "$d/report.json" '^\{"dumps": 2,'
	fi
	# no rc of the project calls an applet Debian's busybox lacks
	if grep -a -q 'applet not found' "$d/console.log"; then
		t_fail wrong/$arch-rc-ends/applets "$(grep -a -m1 'applet not found' "$d/console.log")"
	else
		t_pass wrong/$arch-rc-ends/applets
	fi
done
# ...and one that ends with status 3 is the verdict rc-failed, after the
# window dump.
if wrong_case mipsel-rc-exit 12 rc-failed --arch mipsel --rc tests/wrong/rc-exit3 \
	examples/ci-bond0.probes; then
	t_grep wrong/mipsel-rc-exit/rc-status "$wrong_dir/mipsel-rc-exit/report.json" '"rc_status": 3'
	t_grep wrong/mipsel-rc-exit/window-dump "$wrong_dir/mipsel-rc-exit/report.json" '^\{"dumps": 2,'
fi

# run-probes --help: the whole usage and the table of exit statuses and
# verdicts on standard output, nothing on standard error, exit 0.
qemu-images/run-probes --help > "$wrong_dir/help.out" 2> "$wrong_dir/help.err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$wrong_dir/help.err" ] &&
   grep -q '^usage: run-probes' "$wrong_dir/help.out" &&
   grep -q -- '--rc' "$wrong_dir/help.out" &&
   [ "$(grep -c '^  [0-9]' "$wrong_dir/help.out")" = 13 ]; then
	t_pass wrong/run-probes-help
else
	t_fail wrong/run-probes-help "exit $rc, or not the usage and the 13 statuses on stdout" "$wrong_dir/help.err"
fi

# run-probes' bad usage exits 2 (1 is "an expectation failed") before
# anything is fetched, compiled or booted: a PROBECC_CACHE that does not
# exist stays so (a fetch would make it), each option is named.
d=$wrong_dir/usage && rm -rf "$d" && mkdir -p "$d"
ok=true
for a in "--runs 00" "--runs x" "--hang 0" "--timeout abc" "--oops-wait -1" "--runs 2" "--vmlinux $d/none" "--bogus" \
	"--arch bogus" "--kernel $d/none --kernel-version 6.1" "--kernel-version x.y" "--dbg --kernel examples/ci-bond0.probes --kernel-version 6.1" \
	"--base-initrd $d/none" "--sysroot $d/none" "--rc $d/none" "--disk $d/none" "--target $d/none" \
	"--add $d/none:/bin/x" "--stack-method bogus" "--until-console (" "--threshold bogus --report"; do
	PROBECC_CACHE=$d/cache timeout 60 qemu-images/run-probes --out "$d/out" $a examples/ci-bond0.probes \
		> "$d/out.txt" 2> "$d/err.txt"
	rc=$?
	if [ $rc != 2 ] || [ -e "$d/cache" ] || [ -e "$d/out" ] ||
	   ! grep -q -- "${a%% *}" "$d/err.txt"; then
		ok=false
		echo "$a: exit $rc: $(head -2 "$d/err.txt")" >> "$d/why"
		rm -rf "$d/cache" "$d/out"
	fi
done
if $ok; then
	t_pass wrong/run-probes-usage-exit-2
else
	t_fail wrong/run-probes-usage-exit-2 "not exit 2 before any work" "$d/why"
fi

# The image's busybox applets (initramfs/mkinitramfs) are all in Debian's
# busybox-static: `busybox --list` of the amd64 one (the same
# configuration on every arch), run on this host.
if eval "$(qemu-images/fetch x86_64)" && [ -x "$BUSYBOX" ]; then
	missing=
	for a in $(sed -n '/^bin_applets="/,/"$/p; /^sbin_applets="/,/"$/p' initramfs/mkinitramfs |
		   sed 's/.*="//; s/"//'); do
		"$BUSYBOX" --list | grep -Fqx -- "$a" || missing="$missing $a"
	done
	if [ -z "$missing" ]; then
		t_pass wrong/applets-in-busybox
	else
		t_fail wrong/applets-in-busybox "mkinitramfs links applets busybox lacks:$missing"
	fi
else
	t_fail wrong/applets-in-busybox "qemu-images/fetch x86_64 gave no busybox"
fi

# An oops's verdict: the MIPS kprobe single-step oops of Debian's Malta
# kernel kills a task and the boot goes on; qemu-images/boot ends it once
# the oops is printed (boot word "oops"), and the job's artifacts say so.
# The oops is a race (a softirq's kprobe_flush_task() between the two
# breaks: kernel-patches/README.md), so the verdict is checked here on a
# stored boot that oopsed (tests/report/mipsel-kprobe-oops/: its dump
# channel and console), not on a boot that may not oops; the live boot
# and its time are bench/README.md's ("An oops ends the wait").
d=$wrong_dir/mipsel-oops-stored && rm -rf "$d" && mkdir -p "$d"
o=tests/report/mipsel-kprobe-oops
./probecc report "$o/ttyS1.raw" --probes "$o/openat.probes" --console "$o/console-oops.log" \
	--boot-end oops --json "$d/report.json" --junit "$d/junit.xml" > "$d/run.log" 2>&1
echo $? > "$d/status"
got=$(artifacts "$d")
if [ "$got" = "10 oops fail-oops" ]; then
	t_pass wrong/mipsel-oops
else
	t_fail wrong/mipsel-oops "exit status, report.json boot verdict, junit.xml boot case: got '$got', want '10 oops fail-oops'" "$d/run.log"
fi
t_grep wrong/mipsel-oops/names-task "$d/report.json" '"task": "[^"]+-[0-9]+"'

# Each tracer in each dump form (docs/language.md): a raw dump of the
# function tracer with a kprobe and one of function_graph, booted; every
# expectation judged as it should be, "must not be called" included
# (hits == 0 holds for the function never called, fails for the one
# called).  The text forms are report cases (tests/report/cases/forms-*),
# and a function_graph trace with a text dump is refused at compile time
# (tests/compiler/bad-graph-text-dump).
for form in function-raw graph-raw; do
	d=$wrong_dir/forms-$form
	wrong_boot forms-$form --arch mipsel tests/report/forms/$form.probes
	want="true true true false"
	[ $form = function-raw ] || want="true true false"
	got_exp=$(python3 -c 'import json, sys
print(" ".join("true" if e["pass"] else "false" for e in json.load(open(sys.argv[1]))["expectations"]))' \
		"$d/report.json" 2>&1)
	if [ "$got" = "1 clean pass" ] && [ "$got_exp" = "$want" ]; then
		t_pass wrong/forms-$form
	else
		t_fail wrong/forms-$form "artifacts '$got', expectations '$got_exp' (want '1 clean pass', '$want')" "$d/report.txt"
	fi
done
