# Shared helpers for test groups (sourced by tests/run-tests.sh).
# Each group script calls t_pass/t_fail/t_skip once per test case; the
# harness counts the lines they append to $T_RESULTS.

# The sanitizers of every ASan/UBSan build the groups run (probecc-asan,
# agent-asan, probecc-bootconfig-asan, the test drivers): the first
# error aborts the run with its stack; leaks are not errors here (a CLI
# that exits leaves its program in memory on purpose, as dtc does).  A
# group that checks for leaks too sets ASAN_OPTIONS itself.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# make check-host sets T_HOST=1: the offline inner loop, which boots
# nothing, fetches nothing and calls no apt.  A part of a group that
# would calls t_host_skip NAME instead (a skip even under CI=true: make
# check, not check-host, is what CI runs).
T_HOST=${T_HOST:-0}
# and what qemu-images/fetch has cached is used as it is (no apt)
[ "$T_HOST" = 1 ] && export PROBECC_OFFLINE=1
t_host_skip() {
	printf 'SKIP %s: boots or fetches (make check-host does neither; make check runs it)\n' \
		"$1" | tee -a "$T_RESULTS"
}

t_pass() { printf 'PASS %s\n' "$1" | tee -a "$T_RESULTS"; }

# t_fail NAME WHY [FILE...]: FILEs (diffs, logs) are shown indented.
t_fail() {
	local name=$1 why=$2 f
	shift 2
	printf 'FAIL %s: %s\n' "$name" "$why" | tee -a "$T_RESULTS"
	for f in "$@"; do
		[ -f "$f" ] && sed 's/^/    /' "$f" | head -40
	done
	return 0
}

# t_skip NAME WHY: under CI (CI=true) a test may not be skipped, so a skip
# is counted as a failure there (docs/developing.md, "Set-up and the test groups": every real-boot
# test runs in CI).
t_skip() {
	if [ "${CI:-}" = true ]; then
		t_fail "$1" "cannot run under CI: $2"
	else
		printf 'SKIP %s: %s\n' "$1" "$2" | tee -a "$T_RESULTS"
	fi
}

# elf_foff PROG FUNC: FUNC's file offset in PROG, worked out apart from
# probecc: nm's address, in the executable PT_LOAD readelf -l shows
# holding it, less its VirtAddr plus its Offset (any arch: ELF headers
# only).  Fails when no such segment holds it.
elf_foff() {
	local v o a s f
	v=$((16#$(nm "$1" | awk -v f="$2" '$3 == f { print $1 }')))
	while read -r o a s f; do
		if [ $v -ge $((a)) ] && [ $v -lt $((a + s)) ]; then
			printf '0x%x\n' $((v - a + o))
			return 0
		fi
	done < <(readelf -lW "$1" | awk '$1 == "LOAD" && / E +0x/ { print $2, $3, $5, "x" }')
	return 1
}

# t_grep NAME FILE REGEX [WHY]: pass when a line of FILE (text or not)
# matches the extended REGEX; WHY is the failure's reason.
t_grep() {
	if grep -a -Eq -- "$3" "$2"; then
		t_pass "$1"
	else
		t_fail "$1" "${4:-no line matches /$3/ in $2}"
	fi
}

# t_args FILE [NAME=VALUE...]: the one way a probe-file case gives its
# options: its first line "# args: ...", printed with each @NAME@ put
# as VALUE (a path of the cache, a scratch directory); nothing when the
# case has no such line.
t_args() {
	local f=$1 kv line
	shift
	line=$(sed -n '1s/^# args: //p' "$f")
	for kv in "$@"; do
		line=${line//@${kv%%=*}@/${kv#*=}}
	done
	printf '%s\n' "$line"
}

# t_check NAME EXPECTED_FILE ACTUAL_FILE: pass when identical.
t_check() {
	if cmp -s "$2" "$3"; then
		t_pass "$1"
	else
		diff -u "$2" "$3" > "$T_OUT/$(echo "$1" | tr / _).diff" 2>&1
		t_fail "$1" "output differs from $2" "$T_OUT/$(echo "$1" | tr / _).diff"
	fi
}

# t_bad_cases TAG BIN ARGS_FN NORM_FN FILE...: each FILE (a bad-*.probes)
# compiled by BIN with the options ARGS_FN FILE prints must exit 1, leave
# no output behind and print FILE's .err once NORM_FN (a sed filter on a
# file) has taken out what changes with Debian's uploads.
t_bad_cases() {
	local tag=$1 bin=$2 args_fn=$3 norm_fn=$4 f name d rc
	shift 4
	for f in "$@"; do
		name=$tag/$(basename "$f" .probes)
		d=$T_OUT/$name; rm -rf "$d"; mkdir -p "$d/out"
		"$bin" $($args_fn "$f") "$f" --plan "$d/out/plan" > "$d/stdout" 2> "$d/stderr.raw"
		rc=$?
		$norm_fn "$d/stderr.raw" > "$d/stderr"
		if [ $rc -ne 1 ]; then
			t_fail "$name" "exit status $rc, expected 1" "$d/stderr"
		elif [ -n "$(ls -A "$d/out")" ]; then
			t_fail "$name" "left files behind"
		else
			t_check "$name" "${f%.probes}.err" "$d/stderr"
		fi
	done
}

# The MIPS kprobe single-step oops (a kernel defect: "Break
# instruction in kernel code" at an insn slot; the task dies and the oops
# turns tracing off while the boot goes on; kernel-patches/README.md:
# fixed by kernel-patches/mipsel/0005 on the test kernel, not on Debian's).
# Seen in 1 boot in 10 and, in one cold CI trial on an idle host, in 5
# boots of 8 with a do_sys_openat2 kprobe on the command line.  A boot
# that shows it, and only that, is booted again, up to KPROBE_OOPS_TRIES
# boots in all.
KPROBE_OOPS_TRIES=8

# kprobe_oops LOG [RAW]: true when the agent's dumps in RAW (the dump
# channel) report that oops (a kprobe-oops line, docs/plan.md), or the
# console log LOG shows it: an oops after the last dump, or one that
# killed init and panicked, is only on the console.
kprobe_oops() {
	grep -qa '^kprobe-oops	' "${2:-/dev/null}" 2> /dev/null ||
		grep -q 'Break instruction in kernel code' "$1" 2> /dev/null
}

# run_probes_oops NAME DIR RUN-PROBES-ARGS...: qemu-images/run-probes
# --out DIR ARGS, booted again while the console shows the MIPS kprobe
# oops (KPROBE_OOPS_TRIES boots at most; the crashed ones kept as
# DIR.bootN); then one t_pass or t_fail NAME.  0 when the last boot
# passed.
run_probes_oops() {
	local name=$1 d=$2 try rc
	shift 2
	rm -rf "$d".boot[0-9]
	for try in $(seq $KPROBE_OOPS_TRIES); do
		rm -rf "$d" && mkdir -p "$d"
		qemu-images/run-probes --out "$d" --timeout 240 "$@" > "$d/run.log" 2>&1
		rc=$?
		[ $try != $KPROBE_OOPS_TRIES ] && kprobe_oops "$d/console.log" "$d/ttyS1.raw" || break
		mv "$d" "$d.boot$try"
		echo "    ($name: the kernel's kprobe single-step crash, see $d.boot$try/console.log: booting again)"
	done
	if [ $rc = 0 ]; then
		t_pass "$name"
		return 0
	fi
	t_fail "$name" "run-probes exit $rc" "$d/run.log"
	tail -20 "$d/console.log" 2>/dev/null | sed 's/^/    console: /'
	return 1
}
