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

# wrong_case NAME STATUS VERDICT RUN-PROBES-ARGS...: one boot; the job must
# exit STATUS with report.json's boot verdict VERDICT and junit.xml's boot
# testcase failing with that type (passing for "clean").  0 when it did.
wrong_case() {
	local name=$1 want_status=$2 want=$3 d junit got
	shift 3
	d=$wrong_dir/$name
	rm -rf "$d" && mkdir -p "$d"
	qemu-images/run-probes --out "$d" --report "$@" > "$d/run.log" 2>&1
	echo $? > "$d/status"
	junit=fail-$want
	[ "$want" != clean ] || junit=pass
	got=$(artifacts "$d")
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

# The real init (the --rc script as /sbin/init) exits with status 3.
if wrong_case mipsel-init-exit 9 init-exited --arch mipsel --rc tests/wrong/rc-exit3 \
	examples/ci-bond0.probes; then
	t_grep wrong/mipsel-init-exit/status "$wrong_dir/mipsel-init-exit/report.json" \
		'"init_status": 3'
fi
