# Shared helpers for test groups (sourced by tests/run-tests.sh).
# Each group script calls t_pass/t_fail/t_skip once per test case; the
# harness counts the lines they append to $T_RESULTS.

# The sanitizers of every ASan/UBSan build the groups run (probecc-asan,
# agent-asan, probecc-bootconfig-asan, the test drivers): the first
# error aborts the run with its stack; leaks are not errors here (a CLI
# that exits leaves its program in memory on purpose, as dtc does).  A
# group whose code frees everything calls t_asan_leaks.  These are the
# only sanitizer options a group sets.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# t_asan_leaks: from here on a leak is an error too (LeakSanitizer)
t_asan_leaks() { export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1; }

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
# is counted as a failure there.  What CI (.ci/run) runs: make check
# (every tests/*.test.sh), then make check-kernel (tests/kernel/run.sh:
# dwarf, stacks, kprobe-oops, mips64be) beside make check-rootfs
# (tests/rootfs.sh).  Real boots it does NOT run, each only by its own
# make target (tests/Makefile.tests has their cold costs):
# check-kernel-x86 (tests/kernel/x86.sh), check-hang (tests/hang.sh,
# Debian's 6.12), check-6.12 (boot64 and instance on arm64-6.12 and
# x86_64-6.12), check-dbg (tests/dbg.sh), check-regress (tests/regress.sh),
# check-package (package.sh, buildroot.sh, yocto.sh) and check-lava
# (tests/lava.sh).
t_skip() {
	if [ "${CI:-}" = true ]; then
		t_fail "$1" "cannot run under CI: $2"
	else
		printf 'SKIP %s: %s\n' "$1" "$2" | tee -a "$T_RESULTS"
	fi
}

# t_left_out TAG VAR ITEM...: a group narrowed by the variable VAR (a
# developer's subset of targets or scenarios) says what it left out: a
# t_skip TAG/ITEM for each ITEM (the group's full list) not in VAR, so
# the closing line counts it and CI (which narrows nothing) fails on it.
# Nothing when VAR is unset or empty.
t_left_out() {
	local tag=$1 var=$2 x
	shift 2
	[ -n "${!var:-}" ] || return 0
	for x; do
		[[ " ${!var} " == *" $x "* ]] || t_skip "$tag/$x" "left out by $var=\"${!var}\""
	done
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

# A regex goes to awk through the environment (ENVIRON), never -v: -v
# values have their escapes processed, and the two awks differ there
# (gawk turns "\(" into "(" with a warning, so 'netdev: \(reg' no longer
# compiles; mawk keeps it).  Debian's default awk is mawk; gawk comes
# with lava-dispatcher.  tests/harness.test.sh runs these under both.

# stack_after FILE REGEX: the " => " frame lines (the word after "=>")
# of the first stack trace recorded after the first line of FILE
# matching the extended REGEX (other lines may come between).
stack_after() {
	T_RE=$2 awk '
		!seen && $0 ~ ENVIRON["T_RE"] { seen = 1; next }
		seen && /<stack trace>/ { inst = 1; next }
		inst && /^ => / { print $2; next }
		inst { exit }' "$1"
}

# stack_next FILE REGEX: the functions (offsets taken off) of the stack
# trace recorded right after the first line matching REGEX; nothing when
# another line comes between.
stack_next() {
	T_RE=$2 awk '
		!seen && $0 ~ ENVIRON["T_RE"] { seen = 1; next }
		seen && /<stack trace>/ { inst = 1; next }
		inst && /^ => / { sub(/\+.*/, "", $2); print $2; next }
		seen { exit }' "$1"
}

# t_qemu_user ARCH: the qemu-user command that runs ARCH's static
# binaries here (qemu-user-static's qemu-X-static, X the qemu-system-X of
# common/arch.def), or nothing for the host's own arch.
t_qemu_user() {
	local q
	[ "$1" != "$(uname -m)" ] || return 0
	q=$(common/arch-rows qemu "$1") || return 1
	echo "qemu-${q#qemu-system-}-static"
}

# t_agent_zlib NAME AGENT ARCH DIR: whether the static agent program
# AGENT (of ARCH, run under t_qemu_user) compresses a raw dump: with a
# raw-dump plan over a stand-in tracefs in DIR, a ring buffer that
# deflates must go as a rawz record that inflates back to the file
# (zlib, RFC 1950: Python's zlib on the host; initramfs/raw.c).  A plain
# raw record is a skip when WHY_RAW is set (the caller knows the agent
# may be built without zlib), a failure otherwise.
t_agent_zlib() {
	local name=$1 agent=$2 arch=$3 x=$4 q i
	q=$(t_qemu_user "$arch")
	rm -rf "$x" && mkdir -p "$x/root/proc" "$x/root/dev" "$x/root/probecc" "$x/tfs/per_cpu/cpu0"
	echo '3.14 1.00' > "$x/root/proc/uptime"
	printf 'console=ttyS0 rdinit=/init\n' > "$x/root/proc/cmdline"
	: > "$x/root/dev/console"
	printf 'local [global]\n' > "$x/tfs/trace_clock"
	for i in $(seq 200); do printf 'page %04d of the same ring buffer\n' "$i"; done \
		> "$x/tfs/per_cpu/cpu0/trace_pipe_raw"
	printf 'probecc-plan\t1\narch\t%s\nkernel\t6.1\nsink\t/dump.out\ndump\traw\n' "$arch" > "$x/plan"
	timeout 60 $q "$agent" --root "$x/root" --tracefs "$x/tfs" \
		--plan "$x/plan" --no-exec 2> "$x/agent.err"
	if ./probecc report --extract 1 "$x/root/dump.out" > "$x/raw.body" 2> "$x/raw.err" &&
	   python3 -c '
import sys, zlib
body, want = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
head = b"\nrawz\tper_cpu/cpu0/trace_pipe_raw\t"
i = body.index(head) + len(head)
j = body.index(b"\n", i)
n, size = map(int, body[i:j].split(b"\t"))
sys.exit(not (size == len(want) and zlib.decompress(body[j + 1:j + 1 + n]) == want))
' "$x/raw.body" "$x/tfs/per_cpu/cpu0/trace_pipe_raw" 2>> "$x/raw.err"; then
		t_pass "$name"
	elif [ -n "${WHY_RAW:-}" ] &&
	     grep -aq $'^raw\tper_cpu/cpu0/trace_pipe_raw\t' "$x/root/dump.out" 2> /dev/null; then
		t_skip "$name" "$WHY_RAW"
	else
		t_fail "$name" "no rawz record of trace_pipe_raw that inflates to the ring buffer" \
			"$x/agent.err" "$x/raw.err"
	fi
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

# t_opts FILE: the options of a case whose input is no probe file (a
# report case's args, a bootargs case's NAME.opts), kept in a file of
# their own: its lines but the "#" comments, on one line.  With t_args
# the only ways a case gives its options.
t_opts() {
	grep -v '^#' "$1" | tr '\n' ' ' | sed 's/ *$//'
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

# run_probes_retrying NAME DIR RUN-PROBES-ARGS...: qemu-images/run-probes
# --out DIR ARGS, booted again while the console shows the MIPS kprobe
# oops (KPROBE_OOPS_TRIES boots at most; the crashed ones kept as
# DIR.bootN); returns the last boot's run-probes exit status.
run_probes_retrying() {
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
	return $rc
}

# run_probes_oops NAME DIR RUN-PROBES-ARGS...: run_probes_retrying, then
# one t_pass or t_fail NAME.  0 when the last boot passed.
run_probes_oops() {
	local name=$1 d=$2 rc=0
	run_probes_retrying "$@" || rc=$?
	if [ $rc = 0 ]; then
		t_pass "$name"
		return 0
	fi
	t_fail "$name" "run-probes exit $rc" "$d/run.log"
	tail -20 "$d/console.log" 2>/dev/null | sed 's/^/    console: /'
	return 1
}
