# Octeon without a boot: probe files checked against Debian's
# octeon kernel, whose package ships the unstripped ELF vmlinux itself
# (boot/vmlinux-KREL: symbols, __mcount_loc, the kprobe blacklist, the
# version string; a mips64el n64 kernel).  No QEMU machine boots it.
# qemu-images/fetch octeon downloads it (44.6 MB .deb) into
# $PROBECC_CACHE when it is not there, so the group runs alone from an
# empty cache (tests/isolation.sh).
#
# tests/octeon/good-*.probes must compile; their --cmdline output (the
# n64 registers) must be the .cmdline beside them.  bad-*.probes must
# fail with the .err beside them, warn-*.probes compile with the warnings
# of the .warn beside them.  "# args:" names the inputs: @OCTEON@
# (the vmlinux) and @OCTEON_CONFIG@ (the package's config).  Outputs are
# normalised for the kernel release, the cache and the symbol counts,
# which change with Debian's uploads; the messages do not.  Every case
# runs with probecc and probecc-asan.
#
# Runs as a group of tests/run-tests.sh, or alone: bash tests/octeon.test.sh

if [ -z "${T_RESULTS:-}" ]; then
	cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
	T_OUT=${T_OUT:-$PWD/tests/out}
	T_RESULTS=$T_OUT/octeon.results
	export T_OUT T_RESULTS
	mkdir -p "$T_OUT"
	: > "$T_RESULTS"
	. tests/lib.sh
	octeon_alone=1
fi


O=$T_OUT/octeon
rm -rf "$O" && mkdir -p "$O"

octeon_args() { # the case's "# args:" with the inputs filled in
	t_args "$1" OCTEON="$VMLINUX" OCTEON_CONFIG="$CONFIG"
}

octeon_normalise() {
	sed -E "s|${PROBECC_CACHE:-$HOME/.cache/probecc}|CACHE|g;
		s/6\.1\.0-[0-9]+-octeon/KREL/g; s/_6\.1\.[0-9]+-[0-9a-z.+~]+_mipsel/_VERSION_mipsel/g;
		s/[0-9]+ symbols, [0-9]+ ftrace call sites/N symbols, N ftrace call sites/" "$1"
}

if ! (eval "$(qemu-images/fetch octeon)" && [ -f "$VMLINUX" ]) > /dev/null 2> "$O/fetch.log"; then
	t_skip "octeon/*" "no octeon vmlinux: $(tail -2 "$O/fetch.log")"
else
	eval "$(qemu-images/fetch octeon 2> /dev/null)"
	for bin in ./probecc ./probecc-asan; do
		tag=octeon/$(basename "$bin")
		for f in tests/octeon/good-*.probes; do
			name=$tag/$(basename "$f" .probes)
			d=$T_OUT/$name; mkdir -p "$d"
			if "$bin" $(octeon_args "$f") "$f" --cmdline > "$d/cmdline" 2> "$d/stderr"; then
				t_check "$name" "${f%.probes}.cmdline" "$d/cmdline"
			else
				t_fail "$name" "did not pass its target" "$d/stderr"
			fi
		done
		t_bad_cases "$tag" "$bin" octeon_args octeon_normalise tests/octeon/bad-*.probes
		# warn-*.probes compile (exit 0, a plan written) with the
		# warnings of their .warn: the vmlinux names its init text
		for f in tests/octeon/warn-*.probes; do
			name=$tag/$(basename "$f" .probes)
			d=$T_OUT/$name; rm -rf "$d"; mkdir -p "$d"
			"$bin" $(octeon_args "$f") "$f" --plan "$d/plan" > /dev/null 2> "$d/stderr.raw"
			rc=$?
			octeon_normalise "$d/stderr.raw" > "$d/stderr"
			if [ $rc -ne 0 ] || [ ! -s "$d/plan" ]; then
				t_fail "$name" "exit $rc" "$d/stderr"
			else
				t_check "$name" "${f%.probes}.warn" "$d/stderr"
			fi
		done

		# What probecc reads from the vmlinux: arch and endianness
		# (mips64el, so the n64 ABI), the release and the version
		# (6.1), the symbols, mcount sites and the blacklist.
		name=$tag/vmlinux-facts
		d=$T_OUT/$name; mkdir -p "$d"
		if "$bin" tests/octeon/good-n64-args.probes --vmlinux "$VMLINUX" --explain \
			> "$d/explain.raw" 2> "$d/stderr"; then
			{ sed -n '1p' "$d/explain.raw"; grep '^vmlinux ' "$d/explain.raw"; } > "$d/facts.raw"
			octeon_normalise "$d/facts.raw" > "$d/facts"
			t_check "$name" tests/octeon/vmlinux-facts "$d/facts"
		else
			t_fail "$name" "--explain failed" "$d/stderr"
		fi
	done
fi

if [ -n "${octeon_alone:-}" ]; then
	pass=$(grep -c '^PASS' "$T_RESULTS")
	fail=$(grep -c '^FAIL' "$T_RESULTS")
	skip=$(grep -c '^SKIP' "$T_RESULTS")
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
fi
