# probecc capture --from-log (facts/logframe.c), the frame finder of
# qemu-images/capture: tests/capture/good-*.log must give the .target
# beside them, bad-*.log must fail (exit 1) with the .err beside them and
# write nothing.  The logs are module.target's lines in frames, with
# kernel messages (a whole one, one cutting a frame line, one quoting the
# end marker), and the ways a log goes wrong: a frame twice, a frame
# inside a frame, an empty one, a cut one, none, a NUL byte.  Each case
# runs with probecc and probecc-asan, and through qemu-images/capture;
# then a 100 MB line, refused in well under a second (mawk took 281 s).
# Run alone: bash tests/capture.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

C=$T_OUT/capture
rm -rf "$C" && mkdir -p "$C"

for run in probecc probecc-asan script; do
	case $run in
	script) cmd="qemu-images/capture --from-log" ;;
	*) cmd="./$run capture --from-log" ;;
	esac
	for f in tests/capture/good-*.log; do
		name=capture/$run/$(basename "$f" .log)
		d=$C/$run/$(basename "$f" .log) && mkdir -p "$d"
		if $cmd "$f" -o "$d/target" 2> "$d/stderr"; then
			t_check "$name" "${f%.log}.target" "$d/target"
		else
			t_fail "$name" "exit $?" "$d/stderr"
		fi
	done
	for f in tests/capture/bad-*.log; do
		name=capture/$run/$(basename "$f" .log)
		d=$C/$run/$(basename "$f" .log) && mkdir -p "$d/out"
		$cmd "$f" -o "$d/out/target" 2> "$d/stderr.raw"
		rc=$?
		sed "s|$d/out/|OUT/|g" "$d/stderr.raw" > "$d/stderr"
		if [ $rc -ne 1 ]; then
			t_fail "$name" "exit $rc, expected 1" "$d/stderr"
		elif [ -n "$(ls -A "$d/out")" ]; then
			t_fail "$name" "wrote $(ls -A "$d/out")"
		else
			t_check "$name" "${f%.log}.err" "$d/stderr"
		fi
	done
done

# One line of 100 MB: refused at LOGFRAME_LINE_MAX, in linear time.
{ echo '=== probecc target begin ==='; head -c 100000000 /dev/zero | tr '\0' a; echo; } > "$C/long.log"
start=$(date +%s%N)
./probecc capture --from-log "$C/long.log" -o "$C/long.target" 2> "$C/long.err"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
rm -f "$C/long.log"
if [ $rc = 1 ] && [ ! -e "$C/long.target" ] && [ $ms -lt 5000 ] &&
   grep -q 'long.log:2: a line of more than 65536 bytes' "$C/long.err"; then
	t_pass "capture/long-line-refused (${ms} ms)"
else
	t_fail "capture/long-line-refused" "exit $rc in $ms ms" "$C/long.err"
fi
