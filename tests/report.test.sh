# Report golden tests: `probecc report` on dumps from real boots (and on
# dumps derived from them by editing, for every failure path), no boot
# needed.  Each case is a directory tests/report/cases/NAME/ holding:
#
#   args     "# ..." comment lines (where the inputs come from), then one
#            line: the arguments after "probecc report" (paths relative
#            to the top of the tree)
#   status   the expected exit status
#   stdout, stderr            the expected text
#   report.json, stacks.folded, junit.xml, timeline.svg
#            the expected machine outputs (--json, --folded, --junit,
#            --svg, always requested before the case's own arguments);
#            a missing file means that output must not be written
#
# Every case runs with probecc and with probecc-asan (ASan/UBSan).
# tests/report/README.md says where each dump came from.
# Run alone: bash tests/report.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi


report_outs="report.json stacks.folded junit.xml timeline.svg perfetto.json"

# report_case BIN CASEDIR TAG
report_case() {
	local bin=$1 c=$2 tag=$3 name d args rc f
	name=report/$tag/$(basename "$c")
	d=$T_OUT/report/$tag/$(basename "$c")
	rm -rf "$d" && mkdir -p "$d/out"
	args=$(t_opts "$c/args")
	"$bin" report --json "$d/out/report.json" --folded "$d/out/stacks.folded" \
		--junit "$d/out/junit.xml" --svg "$d/out/timeline.svg" \
		--perfetto "$d/out/perfetto.json" $args > "$d/stdout" 2> "$d/stderr"
	rc=$?
	echo $rc > "$d/status"
	t_check "$name.status" "$c/status" "$d/status"
	t_check "$name.stdout" "$c/stdout" "$d/stdout"
	t_check "$name.stderr" "$c/stderr" "$d/stderr"
	for f in $report_outs; do
		if [ -f "$c/$f" ]; then
			t_check "$name.$f" "$c/$f" "$d/out/$f"
		elif [ -e "$d/out/$f" ]; then
			t_fail "$name.$f" "wrote $f, expected none"
		fi
	done
	# whatever was written parses as what it claims to be
	if [ -n "$(ls -A "$d/out")" ]; then
		if python3 tests/report/validate.py "$d/out" > "$d/validate" 2>&1; then
			t_pass "$name.outputs-parse"
		else
			t_fail "$name.outputs-parse" "an output is not valid UTF-8, JSON, Trace Event Format or XML" "$d/validate"
		fi
	fi
	if [ -n "$(ls -A "$d/out" | grep -v -x -F -e report.json -e stacks.folded \
			-e junit.xml -e timeline.svg -e perfetto.json)" ]; then
		t_fail "$name.staging" "left files behind: $(ls -A "$d/out")"
	fi
}

for bin in ./probecc ./probecc-asan; do
	tag=$(basename "$bin")
	if [ ! -x "$bin" ]; then
		t_fail "report/$tag" "not built (run make)"
		continue
	fi
	for c in tests/report/cases/*/; do
		report_case "$bin" "${c%/}" "$tag"
	done
done

# An output that is an input (the same device and inode, whatever the
# name) is refused before anything is written: the capture, a baseline,
# --console and --probes stay as they were.
d=$T_OUT/report/output-is-input && rm -rf "$d" && mkdir -p "$d"
cp tests/report/mipsel-ci/ttyS1.raw "$d/cap.raw"
cp tests/report/mipsel-ci/ci-bond0.probes "$d/p.probes"
cp tests/report/wrong/mipsel-panic/console.log "$d/console.log"
ln -s cap.raw "$d/link.raw"
ok=true
for args in "--json $d/cap.raw" "--junit $d/link.raw" "--svg $d/console.log --console $d/console.log" \
	    "--folded $d/p.probes" "--perfetto $d/cap.raw --baseline tests/report/mipsel-ci/ttyS1.raw"; do
	./probecc report $args --probes "$d/p.probes" "$d/cap.raw" > "$d/out" 2> "$d/err"
	rc=$?
	if [ $rc != 2 ] || ! grep -q 'is the input of .*: refused, it would be overwritten' "$d/err" ||
	   ! cmp -s "$d/cap.raw" tests/report/mipsel-ci/ttyS1.raw ||
	   ! cmp -s "$d/p.probes" tests/report/mipsel-ci/ci-bond0.probes ||
	   ! cmp -s "$d/console.log" tests/report/wrong/mipsel-panic/console.log; then
		ok=false
		echo "$args: exit $rc" >> "$d/why"
		cp tests/report/mipsel-ci/ttyS1.raw "$d/cap.raw"
		cp tests/report/mipsel-ci/ci-bond0.probes "$d/p.probes"
		cp tests/report/wrong/mipsel-panic/console.log "$d/console.log"
	fi
done
if $ok; then
	t_pass report/output-is-input-refused
else
	t_fail report/output-is-input-refused "an input was overwritten, or not refused with exit 2" "$d/why"
fi

# The timeline is a picture: rsvg-convert (librsvg, Debian librsvg2-bin)
# renders the real Malta boot's SVG to a PNG of the SVG's size.
svg=$T_OUT/report/probecc/arming-refused/out/timeline.svg
if ! command -v rsvg-convert > /dev/null; then
	t_skip report/svg-renders "no rsvg-convert (qemu-images/deps.sh installs librsvg2-bin)"
elif rsvg-convert -o "$T_OUT/report-timeline.png" "$svg" 2> "$T_OUT/report-timeline.err" &&
     [ "$(od -An -tx1 -N8 "$T_OUT/report-timeline.png" | tr -d ' ')" = 89504e470d0a1a0a ] &&
     [ "$(od -An -tu1 -j16 -N8 "$T_OUT/report-timeline.png" | awk '{ print $3 * 256 + $4, $7 * 256 + $8 }')" = \
       "$(sed -n '1s/.* width="\([0-9]*\)" height="\([0-9]*\)".*/\1 \2/p' "$svg")" ]; then
	t_pass report/svg-renders
else
	t_fail report/svg-renders "rsvg-convert gave no PNG of the SVG's size" "$T_OUT/report-timeline.err"
fi

# A report that cannot be written is no report: standard output on
# /dev/full exits 2 with a message (it exited 0).
if [ -w /dev/full ]; then
	./probecc report tests/report/mipsel-ci/ttyS1.raw > /dev/full 2> "$T_OUT/report-full.err"
	rc=$?
	if [ $rc = 2 ] && grep -q 'cannot write the report' "$T_OUT/report-full.err"; then
		t_pass report/stdout-dev-full
	else
		t_fail report/stdout-dev-full "exit $rc" "$T_OUT/report-full.err"
	fi
else
	t_fail report/stdout-dev-full "no writable /dev/full on this machine"
fi

# A stack deeper than a kernel writes (tests/report/derive.py): 2,000
# frames printed as a tree indented a level deeper each were 8 MB of
# text (O(N^2)); cut at the kernel's bound, said, and indented linearly.
d=$T_OUT/report-deep && mkdir -p "$d"
./probecc report tests/report/derived/deep-stack.raw --probes tests/report/mipsel-ci/ci-bond0.probes \
	--system-map tests/report/mipsel-6.1/System.map --modules tests/report/mipsel-6.1/modules --json "$d/json" > "$d/out" 2>&1
rc=$?
size=$(wc -c < "$d/out")
if [ $rc = 0 ] && [ "$size" -lt 200000 ] &&
   [ "$(grep -c '1 stack(s) deeper than the kernel.s deepest .*cut there' "$d/out")" = 2 ] &&
   grep -q '"stack_frames_not_kept": 1880' "$d/json" && grep -q '"stack_frames_not_kept": 977' "$d/json"; then
	t_pass report/deep-stack-cut
else
	t_fail report/deep-stack-cut "exit $rc, $size bytes, or the cut not said" "$d/out"
fi

# A module file under --modules that cannot be read (cut short, not ELF)
# is named with why; it was skipped in silence, its frames bare addresses.
d=$T_OUT/report-badko && rm -rf "$d" && mkdir -p "$d/cut/kernel" "$d/notelf/kernel"
head -c 4000 tests/report/mipsel-6.1/modules/kernel/drivers/net/bonding/bonding.ko > "$d/cut/kernel/bonding.ko"
echo 'not a module' > "$d/notelf/kernel/bonding.ko"
ok=true
for m in cut notelf; do
	./probecc report tests/report/mipsel-ci/ttyS1.raw --probes tests/report/mipsel-ci/ci-bond0.probes \
		--system-map tests/report/mipsel-6.1/System.map --modules "$d/$m" > "$d/$m.out" 2>&1
	grep -q "^module bonding: its file under --modules not read ($d/$m/kernel/bonding.ko.*): its frames are addresses" "$d/$m.out" || ok=false
done
if $ok && grep -q 'truncated' "$d/cut.out"; then
	t_pass report/module-unreadable-named
else
	t_fail report/module-unreadable-named "an unreadable .ko not named" "$d/cut.out" "$d/notelf.out"
fi

# An initcall is judged against the speed the OTHER initcalls give: with
# crypto_algapi_init one second slower and the one initcall shared with
# the baseline (tests/report/derive.py), its own ratio was the boot's
# speed, and 557 -> 1557 ms was divided back to no change at all.
d=$T_OUT/report-alone && mkdir -p "$d"
./probecc report tests/report/derived/initcall-slower-alone.raw --probes tests/report/mipsel-initcalls/initcalls.probes \
	--modules tests/report/mipsel-6.1/modules --baseline tests/report/mipsel-initcalls/ttyS1.raw > "$d/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q '^  REGRESSION  initcall crypto_algapi_init  557.485 -> 1557.485 ms' "$d/out"; then
	t_pass report/baseline-initcall-left-out
else
	t_fail report/baseline-initcall-left-out "exit $rc, or crypto_algapi_init divided by its own slowdown" "$d/out"
fi
# The phases, first hits and levels hold every initcall: their speed is
# the median of at least three initcalls' ratios.  With the one shared
# initcall slowed, the boot speed was its own ratio (2.79), and "phase
# kernel 2.244 -> 0.803 s", "first module_load 2.783 -> 0.996 s" were
# changes made of nothing; now the speed is not estimated, and said.
if grep -q 'boot speed .*: 1.00 (not estimated: fewer than 3 initcalls shared with the baseline) | baseline 1.00$' "$d/out" &&
   ! grep -Eq '^  (change|REGRESSION) +(phase|first) ' "$d/out"; then
	t_pass report/baseline-phase-speed
else
	t_fail report/baseline-phase-speed "a phase or first hit divided by the one slowed initcall's speed, or not said" "$d/out"
fi

# "-" reads the dump from standard input: the same report as from the
# file (but for the name it prints), the same exit status.
d=$T_OUT/report/stdin && rm -rf "$d" && mkdir -p "$d"
c=tests/report/cases/mipsel-ci-pass
./probecc report $(t_opts "$c/args" | sed 's|tests/report/mipsel-ci/ttyS1.raw|-|') \
	< tests/report/mipsel-ci/ttyS1.raw > "$d/stdout" 2> "$d/stderr"
rc=$?
sed 's|^probecc report: -:|probecc report: tests/report/mipsel-ci/ttyS1.raw:|' "$d/stdout" > "$d/stdout.named"
if [ $rc = "$(cat "$c/status")" ] && cmp -s "$d/stdout.named" "$c/stdout" && [ ! -s "$d/stderr" ]; then
	t_pass report/stdin
else
	t_fail report/stdin "exit $rc" "$d/stderr" "$d/stdout"
fi

# --json - writes the JSON, and only it, to standard output: it parses
# as JSON and equals the --json file of the same case; the exit status
# is the verdicts' (1: the failing case).
c=tests/report/cases/mipsel-ci-expect-fail
./probecc report $(t_opts "$c/args") --json - > "$d/json" 2> "$d/json.err"
rc=$?
if [ $rc = 1 ] && cmp -s "$d/json" "$c/report.json" &&
   python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$d/json" 2>> "$d/json.err"; then
	t_pass report/json-stdout
else
	t_fail report/json-stdout "exit $rc" "$d/json.err" "$d/json"
fi

# The same refused uprobe with --sysroot: the file itself says that
# 0x4005e0 is busybox's virtual address and which file offset it is at
# (facts/uelf.c on Debian's mipsel busybox, fetched by qemu-images/fetch).
if eval "$(qemu-images/fetch mipsel 2> "$d/fetch.err")" && [ -f "$BUSYBOX" ]; then
	mkdir -p "$d/root/bin" && cp "$BUSYBOX" "$d/root/bin/busybox"
	./probecc report tests/report/derived/uprobe-vaddr.raw \
		--probes tests/report/derived/uprobe-vaddr.probes --sysroot "$d/root" \
		> "$d/vaddr.out" 2>&1
	rc=$?
	off=$(tests/uprobe-offset.sh "$BUSYBOX")
	if [ $rc = 1 ] && grep -q "bbstart: the kernel enables a uprobe only inside its file: 0x4005e0 is a virtual address .*; the file offset is $off\$" "$d/vaddr.out"; then
		t_pass report/uprobe-vaddr-sysroot
	else
		t_fail report/uprobe-vaddr-sysroot "exit $rc (file offset $off)" "$d/vaddr.out"
	fi
	# the dump's own uprobe_events item is the guest's word: its
	# "/../outside/busybox" is refused, never read beside --sysroot
	mkdir -p "$d/outside" && cp "$BUSYBOX" "$d/outside/busybox"
	./probecc report tests/report/derived/uprobe-vaddr-dotdot.raw \
		--probes tests/report/derived/uprobe-vaddr.probes --sysroot "$d/root" \
		> "$d/dotdot.out" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q 'bbstart: its file not read: .*root/../outside/busybox: refused: a ".." in a target.s path would leave --sysroot' "$d/dotdot.out" &&
	   ! grep -q 'is a virtual address' "$d/dotdot.out"; then
		t_pass report/uprobe-item-dotdot-refused
	else
		t_fail report/uprobe-item-dotdot-refused "exit $rc: the file outside --sysroot was read, or the refusal not said" "$d/dotdot.out"
	fi
elif [ "$T_HOST" = 1 ]; then
	t_host_skip report/uprobe-vaddr-sysroot	# busybox not in the cache yet
else
	t_fail report/uprobe-vaddr-sysroot "qemu-images/fetch mipsel failed" "$d/fetch.err"
fi

# The kernel's <user stack trace> frames of a uprobe are named from its
# file under --sysroot, as the dump's uprobe_events item names it: an
# item's "/../outside/usym-nopie" is refused and said in its stacks
# (a file is there to be read), the frames stay addresses.
d=$T_OUT/report/ustack-dotdot && rm -rf "$d" && mkdir -p "$d/root/bin" "$d/outside"
cp /bin/true "$d/outside/usym-nopie"
./probecc report tests/report/derived/ustack-dotdot.raw --probes tests/report/x86_64-ustack/ustack.probes \
	--sysroot "$d/root" > "$d/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q '\[user stack not named: .*root/../outside/usym-nopie: refused: a ".." in a target.s path would leave --sysroot\]' "$d/out"; then
	t_pass report/ustack-item-dotdot-refused
else
	t_fail report/ustack-item-dotdot-refused "exit $rc: not said, or read outside --sysroot" "$d/out"
fi

# One timebase: in the real boots whose agent stamped its clock marks,
# no hit lies after the dump that holds it.  The capture up to dump 1's
# end line is the init dump alone; the whole capture's last dump is the
# window dump.  Each report's hits (JSON) are at or before its
# timebase's last_dump, which is the stop of that dump's recording on
# the trace clock.  The old mipsel-ci boot (uptime 31.170 yet a hit at
# 35.42 s) has no marks: its report says the timebase is not measured.
d=$T_OUT/report/timebase && rm -rf "$d" && mkdir -p "$d"
for b in mipsel-clock mipsel-clock-raw; do
	raw=tests/report/$b/ttyS1.raw
	end=$(grep -a -b -m1 '^=== probecc dump 1 end ' "$raw" | cut -d: -f1)
	line=$(grep -a -m1 '^=== probecc dump 1 end ' "$raw")
	head -c $((end + ${#line} + 1)) "$raw" > "$d/$b-dump1.raw"
	for n in 1 2; do
		f=$raw
		[ $n = 1 ] && f=$d/$b-dump1.raw
		./probecc report "$f" --json "$d/$b-$n.json" > "$d/$b-$n.out" 2>&1
		if python3 - "$d/$b-$n.json" "$n" > "$d/$b-$n.check" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tb = r["timebase"]
assert r["dumps"] == int(sys.argv[2]), r["dumps"]
assert tb["measured"], tb
late = [h for h in r["hits"] if h["time"] > tb["last_dump"]]
assert not late and tb["hits_after_dump"] == 0, (tb, late)
assert r["hits"] and 0 < r["init_time"] < tb["last_dump"], r["init_time"]
print(len(r["hits"]), "hits, the last at", max(h["time"] for h in r["hits"]),
      "; dump stopped at", tb["last_dump"])
PY
		then
			t_pass "report/timebase/$b-dump$n-holds-its-hits"
		else
			t_fail "report/timebase/$b-dump$n-holds-its-hits" "a hit after its dump, or no timebase" "$d/$b-$n.check" "$d/$b-$n.out"
		fi
	done
done
./probecc report tests/report/mipsel-ci/ttyS1.raw --json "$d/old.json" > "$d/old.out" 2>&1
if grep -q '^timebase: not measured: no timebase line' "$d/old.out" &&
   python3 -c 'import json, sys; assert not json.load(open(sys.argv[1]))["timebase"]["measured"]' "$d/old.json"; then
	t_pass report/timebase/old-dump-not-measured
else
	t_fail report/timebase/old-dump-not-measured "the old capture's times were taken as one clock" "$d/old.out"
fi

# ---- the goldens against an oracle that is not probecc's code ----
# tests/report/oracle.py reads each case's capture in Python (the dump
# framing, the trace text, the perf lines, the console's ftrace dump) and
# recomputes what report.json and stdout claim: dumps complete or cut,
# the ring buffer's cpu lines and lost events, hits per probe and before
# userspace, perf samples per probe.  Then the same on goldens mutated
# here: each change must make it fail, or it checks nothing.
od=$T_OUT/report/oracle && rm -rf "$od" && mkdir -p "$od"
if python3 tests/report/oracle.py > "$od/all.out" 2>&1; then
	t_pass "report/oracle ($(tail -1 "$od/all.out" | sed 's/^oracle: //'))"
else
	t_fail report/oracle "a golden disagrees with its capture" "$od/all.out"
fi
# mutant NAME CASE PYTHON: CASE's golden with PYTHON applied to its text
# (t: the file's text, in place) as FILE; the oracle must find it
mutant() {
	local name=$1 c=$2 f=$3 py=$4
	rm -rf "$od/$name" && mkdir -p "$od/$name"
	cp -r "tests/report/cases/$c" "$od/$name/$c"
	python3 -c "
import sys
p = sys.argv[1]; t = open(p).read()
$py
open(p, 'w').write(t)" "$od/$name/$c/$f"
	if cmp -s "$od/$name/$c/$f" "tests/report/cases/$c/$f"; then
		t_fail "report/oracle-finds/$name" "the mutation changed nothing in $c/$f"
	elif python3 tests/report/oracle.py --cases "$od/$name" "$c" > "$od/$name.out" 2>&1; then
		t_fail "report/oracle-finds/$name" "the oracle passed a wrong $c/$f" "$od/$name.out"
	else
		t_pass "report/oracle-finds/$name"
	fi
}
mutant hit-dropped mipsel-ci-pass report.json \
	't = t.replace("""  {"probe": "register_netdevice", "time": 35.486205""", """  {"probe": "register_netdevice", "time": 35.486206""")'
mutant hits-count mipsel-ci-pass stdout \
	't = t.replace("register_netdevice           2 hit(s)", "register_netdevice           3 hit(s)")'
mutant before-userspace mipsel-ci-pass stdout 't = t.replace(", 1 before userspace", ", 2 before userspace")'
mutant init-time mipsel-ci-pass report.json 't = t.replace("\"init_time\": 23.295761", "\"init_time\": 23.395761")'
mutant perf-samples mipsel-ci-pass report.json 't = t.replace("\"samples\": 1,", "\"samples\": 2,")'
mutant dumps-count mipsel-ci-pass report.json 't = t.replace("{\"dumps\": 2,", "{\"dumps\": 1,")'
mutant agent-own-count x86_64-args-agent-own report.json 't = t.replace("\"agent_own\": {\"left_out\": 1,", "\"agent_own\": {\"left_out\": 0,")'
mutant agent-own-not-after-exec yourboot-stamps-cross report.json 't = t.replace("\"after_exec\": true", "\"after_exec\": false")'
mutant cut-called-complete cut-in-dump2 report.json 't = t.replace("\"complete\": false", "\"complete\": true")'
mutant lost-hidden lost report.json 't = t.replace("\"22 event(s) overrun", "\"0 event(s) overrun")'
mutant cpu-line lost stdout 't = t.replace("entries 5, overrun 12", "entries 5, overrun 2")'
mutant console-hit boot-x86_64-panic report.json 't = t.replace("\"time\": 14.461303", "\"time\": 14.461304")'
# regen.sh rewrites goldens with the code under test: never under CI
touch "$od/mark" && sleep 1
if CI=true tests/report/regen.sh > "$od/regen.out" 2>&1; then rc=0; else rc=$?; fi
if [ $rc = 2 ] && grep -q 'refused under CI=true' "$od/regen.out" &&
   [ -z "$(find tests/report/cases -newer "$od/mark")" ]; then
	t_pass report/regen-refused-under-ci
else
	t_fail report/regen-refused-under-ci "exit $rc" "$od/regen.out"
fi
