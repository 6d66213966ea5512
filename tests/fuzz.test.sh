# fuzz tests: the libFuzzer harnesses of tests/fuzz/ (built with Debian's
# clang-14 and libclang-rt-14-dev, ASan and UBSan): first the inputs of
# tests/fuzz/regress/ replayed (each one a fuzzer failed on before its
# fix), then each target run for FUZZ_CI_SECONDS (default 20) from the
# seeds of the other groups' inputs (tests/fuzz/seeds.sh), then the
# out-of-process oracles over what the runs left (tests/fuzz/oracle.sh:
# the kernel's tools/bootconfig against bc_parse on every compiled
# bootconfig, mkenvimage + fw_printenv on every --uboot-env file).  A crash, a sanitizer report or a broken oracle
# fails, naming the input and the command that reproduces it.  The
# long runs and their figures are bench/fuzz.sh's (bench/README.md).
#
# Run alone: bash tests/fuzz.test.sh (through tests/run-tests.sh).

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

fz=$T_OUT/fuzz
mkdir -p "$fz"
if ! command -v clang > /dev/null ||
   ! ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a > /dev/null 2>&1; then
	t_skip fuzz/build "clang or libclang-rt-14-dev is missing (qemu-images/deps.sh build)"
	return 0
fi
if ! make -s -j2 fuzz-build probecc bootconfig/probecc-bootconfig > "$fz/build.log" 2>&1; then
	t_fail fuzz/build "make fuzz-build failed" "$fz/build.log"
	return 0
fi
t_pass fuzz/build

# Every input a fuzzer once failed on (tests/fuzz/regress/TARGET-NAME,
# kept after its fix) replays clean under its harness.
for f in tests/fuzz/regress/*-*; do
	b=$(basename "$f")
	# -timeout: an input that once hung fails here instead of hanging
	if tests/fuzz/fuzz-"${b%%-*}" -timeout=60 "$f" > "$fz/regress-$b.log" 2>&1; then
		t_pass "fuzz/regress/$b"
	else
		t_fail "fuzz/regress/$b" "tests/fuzz/fuzz-${b%%-*} $f: exit $?" "$fz/regress-$b.log"
	fi
done

# A harness's private directory (/dev/shm/probecc-fuzz.PID.*, the files
# its readers take by path) goes however the harness ends: killed
# (SIGKILL: no handler runs) or aborted (SIGABRT, as after a sanitizer's
# report: libFuzzer's crash handler _Exit()s, no atexit handler runs).
for sig in KILL ABRT; do
	rm -rf "$fz/tmpdir-$sig" && mkdir -p "$fz/tmpdir-$sig"
	tests/fuzz/seeds.sh modules "$fz/tmpdir-$sig/seeds" 2> /dev/null
	# -artifact_prefix: on SIGABRT libFuzzer writes the input as crash-SHA1 (into the top directory without it)
	tests/fuzz/fuzz-modules -max_total_time=120 -close_fd_mask=3 -artifact_prefix="$fz/tmpdir-$sig/" \
		"$fz/tmpdir-$sig/seeds" > "$fz/tmpdir-$sig/log" 2>&1 &
	pid=$!
	made=
	for i in $(seq 100); do
		made=$(ls -d /dev/shm/probecc-fuzz.$pid.* "${TMPDIR:-/tmp}"/probecc-fuzz.$pid.* 2> /dev/null | head -1)
		[ -z "$made" ] || break
		sleep 0.1
	done
	kill -$sig $pid
	wait $pid 2> /dev/null
	for i in $(seq 50); do
		[ -e "$made" ] || break
		sleep 0.1
	done
	if [ -n "$made" ] && [ ! -e "$made" ]; then
		t_pass "fuzz/tmpdir-removed-on-$sig"
	else
		t_fail "fuzz/tmpdir-removed-on-$sig" "${made:-no /dev/shm/probecc-fuzz.$pid.* made} left after SIG$sig" "$fz/tmpdir-$sig/log"
		rm -rf "$made"
	fi
done

# make check-host: the replays only (seconds, not minutes)
if [ "$T_HOST" = 1 ]; then
	return 0
fi

for t in compile report console baseline previous ustack modules raw bootconfig bootargs dtb btf plan facts logframe lavalog; do
	FUZZ_SECONDS=${FUZZ_CI_SECONDS:-20} FUZZ_WORK=$fz tests/fuzz/run.sh "$t" \
		> "$fz/$t.out" 2> "$fz/$t.err"
	rc=$?
	line=$(awk -v t="$t" '$1 == t' "$fz/$t.out")
	if [ $rc = 0 ] && [ -n "$line" ]; then
		set -- $line
		t_pass "fuzz/$t ($2 executions, $3 exec/s, $4 edges, 0 crashes)"
	else
		t_fail "fuzz/$t" "run.sh exit $rc" "$fz/$t.out" "$fz/$t.err"
	fi
done

# an oracle that checked nothing fails: an empty corpus, planted
mkdir -p "$fz/empty/compile/corpus" "$fz/empty/bootargs/corpus"
tests/fuzz/oracle.sh "$fz/empty" > "$fz/empty.out" 2> "$fz/empty.err"
rc=$?
if [ $rc = 1 ] && grep -q 'compile: no input' "$fz/empty.err" && grep -q 'bootargs: no input' "$fz/empty.err"; then
	t_pass fuzz/oracle/empty-corpus-fails
else
	t_fail fuzz/oracle/empty-corpus-fails "oracle.sh exit $rc on empty corpora" "$fz/empty.out" "$fz/empty.err"
fi

if tests/fuzz/oracle.sh "$fz" > "$fz/oracle.out" 2> "$fz/oracle.err"; then
	while read -r line; do
		t_pass "fuzz/oracle/${line#oracle.sh: }"
	done < "$fz/oracle.out"
else
	t_fail fuzz/oracle "oracle.sh exit $?" "$fz/oracle.out" "$fz/oracle.err"
fi
