# LAVA (make check-lava; docs/lava.md): the job qemu-images/lava-job
# writes, checked by LAVA's own schema and `lava-run --validate`; a LAVA
# job log read back by probecc report, through LAVA's own logger code
# (tests/lava/relog.py) on stored real captures; and real `lava-run`
# jobs: bond0's creator named from the LAVA log on Malta and x86_64,
# the agent's test cases in LAVA's results, the KCIDB file valid, the
# same verdicts as run-probes for the same probe file (Malta), a panic
# and a hang, each with its verdict.  Needs Debian's lava-dispatcher
# (qemu-images/deps.sh lava, which make check-lava runs) and root
# (lava-run's own rule).
# Run alone: bash tests/lava.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

lv=$T_OUT/lava
rm -rf "$lv" && mkdir -p "$lv"
P=${PROBECC:-./probecc}
# lava-dispatcher's python (a python3 earlier on PATH may not import it)
PY=/usr/bin/python3

lava_ok=1
$PY -c 'import lava_dispatcher, lava_common.schemas' 2> "$lv/import.err" || lava_ok=0
if [ "$lava_ok" = 0 ]; then
	t_skip lava "no lava-dispatcher (qemu-images/deps.sh lava): $(tail -1 "$lv/import.err")"
	return 0
fi

# t_rc NAME WANT GOT FILE: the exit status
t_rc() {
	if [ "$3" = "$2" ]; then t_pass "$1"; else t_fail "$1" "exit $3, expected $2" "$4"; fi
}
# t_has NAME FILE ERE: FILE has a line matching ERE
t_has() {
	if grep -Eq -- "$3" "$2"; then t_pass "$1"; else t_fail "$1" "no line matching: $3" "$2"; fi
}

# --- The reader, on real captures through LAVA's own logger ---

# A text dump's console through ShellLogger and the record writer: the
# same dumps, byte for byte, and the same report.
ci=tests/report/mipsel-ci
$PY tests/lava/relog.py "$ci/ttyS1.raw" > "$lv/ci.log"
same=1
for n in 1 2; do
	$P report --extract $n "$ci/ttyS1.raw" > "$lv/raw.$n" 2> /dev/null
	$P report --extract $n "$lv/ci.log" > "$lv/lava.$n" 2> "$lv/lava.$n.err" || same=0
	cmp -s "$lv/raw.$n" "$lv/lava.$n" || same=0
done
if [ "$same" = 1 ] && [ -s "$lv/raw.2" ]; then
	t_pass lava/relog/text-dumps-exact
else
	t_fail lava/relog/text-dumps-exact "dumps 1, 2 differ from the raw capture's" "$lv/lava.2.err"
fi
rawrc=0
$P report "$ci/ttyS1.raw" --probes "$ci/ci-bond0.probes" > "$lv/raw.full" 2> /dev/null || rawrc=$?
tail -n +2 "$lv/raw.full" > "$lv/raw.report"
rc=0
$P report "$lv/ci.log" --probes "$ci/ci-bond0.probes" > "$lv/lava.report" 2> "$lv/lava.report.err" || rc=$?
t_rc lava/relog/report-exit "$rawrc" "$rc" "$lv/lava.report.err"
# the same report, and a boot verdict from the job's end on top
if diff <(cat "$lv/raw.report") <(tail -n +2 "$lv/lava.report" | grep -v '^boot: ') > "$lv/report.diff"; then
	t_pass lava/relog/same-report
else
	t_fail lava/relog/same-report "the report differs from the raw capture's" "$lv/report.diff"
fi
t_has lava/relog/boot-verdict "$lv/lava.report" '^boot: clean: '
t_has lava/relog/job-said "$lv/lava.report.err" '^probecc report: LAVA job: pass$'

# A raw (binary) dump in plain chunks does not survive LAVA's log
# (invalid UTF-8 replaced, \r dropped): damaged, said so, never taken.
rc_=tests/report/mipsel-raw/ttyS1.raw
$PY tests/lava/relog.py "$rc_" > "$lv/raw.log"
rc=0
$P report --extract 1 "$lv/raw.log" > /dev/null 2> "$lv/rawdump.err" || rc=$?
t_rc lava/relog/binary-damaged 4 "$rc" "$lv/rawdump.err"
t_has lava/relog/binary-crc-said "$lv/rawdump.err" 'fails its CRC-32'
# The same capture with its binary chunks in the b64 form (what the agent
# writes under probecc_signals=lava; tests/lava/b64frames.py encodes
# from the format's description): both dumps byte-exact through LAVA.
$PY tests/lava/b64frames.py "$rc_" > "$lv/b64.raw"
$PY tests/lava/relog.py "$lv/b64.raw" > "$lv/b64.log"
same=1
for n in 1 2; do
	$P report --extract $n "$rc_" > "$lv/b64.want.$n" 2> /dev/null
	$P report --extract $n "$lv/b64.log" > "$lv/b64.got.$n" 2> "$lv/b64.$n.err" || same=0
	cmp -s "$lv/b64.want.$n" "$lv/b64.got.$n" || same=0
done
if [ "$same" = 1 ] && grep -q ' b64 ' "$lv/b64.log" && [ -s "$lv/b64.want.1" ]; then
	t_pass lava/relog/b64-raw-dumps-exact
else
	t_fail lava/relog/b64-raw-dumps-exact "dumps 1, 2 differ from the raw capture's (or no b64 chunk)" "$lv/b64.1.err"
fi
# one base64 character changed in the log: the chunk fails its CRC-32
awk '!done && /"msg": "[A-Za-z0-9+\/=]{76}"/ { sub(/"msg": "./, "\"msg\": \"!"); done = 1 } { print }' \
	"$lv/b64.log" > "$lv/b64bad.log"
rc=0
$P report --extract 1 "$lv/b64bad.log" > /dev/null 2> "$lv/b64bad.err" || rc=$?
t_rc lava/relog/b64-damaged 4 "$rc" "$lv/b64bad.err"
t_has lava/relog/b64-crc-said "$lv/b64bad.err" 'fails its CRC-32'
# the log cut inside a b64 chunk: the dump is cut, not damaged
n=$(grep -n -m1 ' b64 ' "$lv/b64.log" | cut -d: -f1)
head -n $((n + 3)) "$lv/b64.log" > "$lv/b64cut.log"
rc=0
$P report --extract 1 "$lv/b64cut.log" > /dev/null 2> "$lv/b64cut.err" || rc=$?
t_rc lava/relog/b64-cut 3 "$rc" "$lv/b64cut.err"

# A log cut inside dump 2 (the job still running, or the log lost its
# tail): dump 2 is cut short, and no verdict without the job's end.
n=$(grep -n 'probecc dump 2 chunk 2 ' "$lv/ci.log" | cut -d: -f1)
head -n $((n + 5)) "$lv/ci.log" > "$lv/cut.log"
rc=0
$P report --extract 2 "$lv/cut.log" > /dev/null 2> "$lv/cut.x.err" || rc=$?
t_rc lava/cut/dump-cut 3 "$rc" "$lv/cut.x.err"
rc=0
$P report "$lv/cut.log" --probes "$ci/ci-bond0.probes" > "$lv/cut.out" 2> "$lv/cut.err" || rc=$?
t_rc lava/cut/no-verdict 2 "$rc" "$lv/cut.err"
t_has lava/cut/said "$lv/cut.err" "ends before the job's result \(cut short\)"

# A record not of LAVA's shape: an error at its place, nothing taken.
sed '3s/}$//' "$lv/ci.log" > "$lv/bad.log"
rc=0
$P report --list "$lv/bad.log" > "$lv/bad.out" 2> "$lv/bad.err" || rc=$?
t_rc lava/bad-record/exit 2 "$rc" "$lv/bad.err"
t_has lava/bad-record/place "$lv/bad.err" "bad\.log:3:[0-9]+: neither ',' nor '}' after a value \(not a LAVA job log record\)$"
if [ -s "$lv/bad.out" ]; then t_fail lava/bad-record/nothing "listed dumps" "$lv/bad.out"; else t_pass lava/bad-record/nothing; fi

# --kcidb-file takes NAME=URL as KCIDB's resource does: a NAME with '/'
# or a URL without a scheme is refused, nothing written.
for bad in 'dir/report.txt=https://lab.example/r' 'report.txt=lab.example/r' 'report.txt=https://lab.example/a b' '=https://lab.example/r'; do
	rm -f "$lv/bad-kcidb.json"
	rc=0
	$P report "$ci/ttyS1.raw" --probes "$ci/ci-bond0.probes" --kcidb "$lv/bad-kcidb.json" \
		--kcidb-file "$bad" > /dev/null 2> "$lv/bad-kcidb.err" || rc=$?
	if [ "$rc" = 2 ] && [ ! -e "$lv/bad-kcidb.json" ] && grep -q 'not NAME=URL' "$lv/bad-kcidb.err"; then
		t_pass "lava/kcidb-file-refused/$bad"
	else
		t_fail "lava/kcidb-file-refused/$bad" "exit $rc, or a file written" "$lv/bad-kcidb.err"
	fi
done

# --- The job generator ---

# validate JOB: LAVA's own schema (strict), 0 or the message on stdout
lava_schema() {
	$PY - "$1" <<'EOF'
import sys, yaml
from lava_common.schemas import validate
validate(yaml.safe_load(open(sys.argv[1])), strict=True)
EOF
}
sed 's#^dump /dev/ttyS1#dump console#' examples/ci-bond0.probes > "$lv/ci-console.probes"
for arch in mipsel x86_64; do
	d=$lv/job-$arch
	rc=0
	qemu-images/lava-job --arch "$arch" --out "$d" "$lv/ci-console.probes" > "$d.out" 2> "$d.err" || rc=$?
	t_rc lava/job/$arch/written 0 "$rc" "$d.err"
	[ "$rc" = 0 ] || continue
	if lava_schema "$d/job.yaml" > "$d.schema" 2>&1; then
		t_pass lava/job/$arch/schema
	else
		t_fail lava/job/$arch/schema "lava_common.schemas refuses it" "$d.schema"
	fi
	qemu-images/lava-device "$d/job.yaml" > "$d/device.yaml" 2> "$d.dev.err"
	rc=0
	$PY /usr/bin/lava-run --validate --job-id "44$$${arch//[!0-9]/}" --output-dir "$d/validate" \
		--device "$d/device.yaml" "$d/job.yaml" > "$d.validate" 2>&1 || rc=$?
	t_rc lava/job/$arch/lava-run-validate 0 "$rc" "$d.validate"
	# the fragment, whole, in the kernel's arguments; TCG; the end is
	# the window dump's
	frag=$(cat "$d/cmdline")
	if grep -F -- "$frag" "$d/job.yaml" | grep -q image_arg &&
	   grep -qx '  no_kvm: true' "$d/job.yaml" &&
	   grep -q "end: '=== probecc dump 2 end |Kernel panic - not syncing'" "$d/job.yaml"; then
		t_pass lava/job/$arch/contents
	else
		t_fail lava/job/$arch/contents "fragment, no_kvm or end pattern missing" "$d/job.yaml"
	fi
done
# the QEMU command LAVA builds from the stock template: no KVM, the
# kernel's -append with the fragment
if grep -q -- '-enable-kvm' "$lv/job-mipsel/device.yaml"; then
	t_fail lava/job/mipsel/no-kvm "the device asks for KVM" "$lv/job-mipsel/device.yaml"
else
	t_pass lava/job/mipsel/no-kvm
fi

# A file whose dumps go to /dev/ttyS1 never reaches LAVA's log: refused.
rc=0
qemu-images/lava-job --arch mipsel --out "$lv/ttyS1" examples/ci-bond0.probes > /dev/null 2> "$lv/ttyS1.err" || rc=$?
t_rc lava/job/ttyS1-refused 1 "$rc" "$lv/ttyS1.err"
t_has lava/job/ttyS1-said "$lv/ttyS1.err" "the dumps go to /dev/ttyS1, which LAVA never records.*say 'dump console'"

# The board form: deploy to tftp, boot u-boot, the fragment merged into
# the board's bootargs as `probecc bootargs` merges it.
d=$lv/board
rc=0
qemu-images/lava-job --arch mipsel --board beaglebone-black --bootargs 'console=ttyS0,115200 root=/dev/mmcblk0p2 rw' \
	--url http://lab.example/probecc --out "$d" "$lv/ci-console.probes" > /dev/null 2> "$d.err" || rc=$?
t_rc lava/job/board/written 0 "$rc" "$d.err"
if [ "$rc" = 0 ]; then
	if lava_schema "$d/job.yaml" > "$d.schema" 2>&1; then
		t_pass lava/job/board/schema
	else
		t_fail lava/job/board/schema "lava_common.schemas refuses it" "$d.schema"
	fi
	merged=$($P bootargs --fragment "$d/cmdline" --bootargs 'console=ttyS0,115200 root=/dev/mmcblk0p2 rw probecc_signals=lava' --arch mipsel --print)
	t_has lava/job/board/bootargs "$d/job.yaml" "^  extra_kernel_args: '$(printf '%s' "$merged" | sed 's/[][\.*^$+?(){}|]/\\&/g')'$"
	t_has lava/job/board/url "$d/job.yaml" "url: 'http://lab.example/probecc/initrd.gz'"
fi

# --- Real lava-run jobs (Malta) ---

if [ "$T_HOST" = 1 ]; then
	t_host_skip lava/run
	return 0
fi
# lava_run NAME DIR: lava-run DIR/job.yaml (device rendered for it);
# its log in DIR/lava.log, its exit status in $lrc
lava_run() {
	qemu-images/lava-device "$2/job.yaml" > "$2/device.yaml"
	lrc=0
	$PY /usr/bin/lava-run --job-id "$3" --output-dir "$2/lava-out" \
		--device "$2/device.yaml" "$2/job.yaml" > "$2/lava.log" 2>&1 || lrc=$?
}

# kcidb_valid FILE: valid KCIDB I/O 5.3 (python3-jsonschema, Draft 7 with
# format checks, as kcidb-io's README says); prints PATH STATUS UNIT a test
kcidb_valid() {
	$PY - "$1" <<'EOF'
import json, sys, jsonschema
schema = json.load(open("tests/kcidb/kcidb-io.schema.v5.3.json"))
data = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker()).validate(data)
for t in data["tests"]:
    print(t["path"], t["status"], t.get("number", {}).get("unit", "-"))
    if "output_files" in t:
        print("files", t["path"], " ".join(f["name"] + "=" + f["url"] for f in t["output_files"]))
EOF
}

# bond0 on each QEMU target: the job passes, and the report from its log
# names the creator
for arch in mipsel x86_64; do
	eval "$(qemu-images/fetch $arch)"
	target=$(qemu-images/target $arch)
	d=$lv/job-$arch
	lava_run bond0 "$d" "44$$${arch//[!0-9]/}1"
	t_rc lava/run/$arch/bond0/job-passed 0 "$lrc" "$d/lava.log"
	rc=0
	$P report "$d/lava.log" --probes "$lv/ci-console.probes" --target "$target" --modules "$MODULES" \
		--append "$d/append" --json "$d/report.json" --junit "$d/junit.xml" > "$d/report.txt" 2> "$d/report.err" || rc=$?
	t_rc lava/run/$arch/bond0/report-exit 0 "$rc" "$d/report.txt"
	t_has lava/run/$arch/bond0/creator "$d/report.txt" '^  PASS  expect register_netdevice stack has bond_create '
	t_has lava/run/$arch/bond0/name "$d/report.txt" '^  PASS  expect netdev.name == "bond%d" '
	t_has lava/run/$arch/bond0/boot "$d/report.txt" '^boot: clean: '
	# the agent's test cases in LAVA's results: the kprobe armed, its hit
	# counted by the kernel (kprobe_profile) in the window dump, and dump 1's
	# size as its end frame says it
	t_has lava/run/$arch/bond0/case-item "$d/lava.log" '"lvl": "results", "msg": \{"case": "item_netdev_kprobe_events", "definition": "probecc",.*"result": "pass"'
	t_has lava/run/$arch/bond0/case-hits "$d/lava.log" '"case": "dump2_hits_netdev", "definition": "probecc",.*"measurement": "1", .*"units": "hits"'
	b1=$(grep -o '=== probecc dump 1 end [0-9]* [0-9]* ' "$d/lava.log" | awk '{ print $7 }')
	t_has lava/run/$arch/bond0/case-bytes "$d/lava.log" "\"case\": \"dump1_bytes\", \"definition\": \"probecc\",.*\"measurement\": \"${b1:-none}\", .*\"units\": \"bytes\""
	# KernelCI: the same verdicts as KCIDB I/O, valid against kcidb-io's schema
	# the artifacts where the lab put them: output files of boot.probecc
	u=https://lab.example/artifacts/$arch
	$P report "$d/lava.log" --probes "$lv/ci-console.probes" --target "$target" --modules "$MODULES" \
		--kcidb "$d/kcidb.json" --kcidb-build lab_build:1 --kcidb-file "report.txt=$u/report.txt" \
		--kcidb-file "trace.dat=$u/boot.dat" --kcidb-file "perfetto.json=$u/perfetto.json" > /dev/null 2>&1
	if kcidb_valid "$d/kcidb.json" > "$d/kcidb.txt" 2>&1; then
		t_pass lava/run/$arch/bond0/kcidb-valid
	else
		t_fail lava/run/$arch/bond0/kcidb-valid "not valid KCIDB I/O 5.3" "$d/kcidb.txt"
	fi
	t_has lava/run/$arch/bond0/kcidb-boot "$d/kcidb.txt" '^boot\.probecc PASS -$'
	t_has lava/run/$arch/bond0/kcidb-creator "$d/kcidb.txt" '^boot\.probecc\.expect\.register_netdevice_stack_has_bond_create PASS -$'
	t_has lava/run/$arch/bond0/kcidb-first-hit "$d/kcidb.txt" '^boot\.probecc\.first_hit\.netdev DONE s$'
	t_has lava/run/$arch/bond0/kcidb-files "$d/kcidb.txt" "^files boot\.probecc report\.txt=$u/report\.txt trace\.dat=$u/boot\.dat perfetto\.json=$u/perfetto\.json$"
done
eval "$(qemu-images/fetch mipsel)"
# A raw dump through a real LAVA job: the agent (probecc_signals=lava)
# writes its binary chunks as b64, the report reads the dump from the
# log whole, and its verdicts are those of the text dumps.
d=$lv/rawjob
sed 's#^dump /dev/ttyS1 raw#dump console raw#' tests/report/mipsel-raw/trace-dat.probes > "$lv/raw.probes"
rc=0
qemu-images/lava-job --arch mipsel --out "$d" "$lv/raw.probes" > /dev/null 2> "$d.err" || rc=$?
t_rc lava/run/raw/job-written 0 "$rc" "$d.err"
lava_run raw "$d" "44$$4"
t_rc lava/run/raw/job-passed 0 "$lrc" "$d/lava.log"
t_has lava/run/raw/b64-chunks "$d/lava.log" '"msg": "=== probecc dump 1 b64 1 '
rc=0
$P report "$d/lava.log" --probes "$lv/raw.probes" --target "$(qemu-images/target mipsel)" --modules "$MODULES" \
	> "$d/report.txt" 2> "$d/report.err" || rc=$?
t_rc lava/run/raw/report-exit 0 "$rc" "$d/report.txt"
t_has lava/run/raw/name "$d/report.txt" '^  PASS  expect netdev.name == "bond%d" '
t_has lava/run/raw/creator "$d/report.txt" '^  PASS  expect netdev stack has bond_create '
t_has lava/run/raw/decoded "$d/report.txt" '^raw dumps: [1-9][0-9]* event\(s\) decoded by their format files$'
rc=0
$P report --trace-dat "$d/boot.dat" "$d/lava.log" > "$d/tracedat.out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && [ -s "$d/boot.dat" ]; then
	t_pass lava/run/raw/trace-dat
else
	t_fail lava/run/raw/trace-dat "exit $rc, or no trace.dat" "$d/tracedat.out"
fi
d=$lv/job-mipsel
# the same file through run-probes: the same verdicts, one by one
r=$lv/run-probes
rc=0
qemu-images/run-probes --arch mipsel --out "$r" --report "$lv/ci-console.probes" > "$r.out" 2> "$r.err" || rc=$?
t_rc lava/run/run-probes/exit 0 "$rc" "$r.err"
v() { grep -E '^  (PASS|FAIL|ERROR|MISS)' "$1" | sed 's/  (.*//'; grep -o '^boot: [a-z-]*' "$1"; }
if diff <(v "$r/report.txt") <(v "$d/report.txt") > "$lv/verdicts.diff"; then
	t_pass lava/run/same-verdicts-as-run-probes
else
	t_fail lava/run/same-verdicts-as-run-probes "run-probes and LAVA differ" "$lv/verdicts.diff"
fi

# Two LAVA runs of one file compared (--baseline): the second boot's rc
# also makes bond1 (a second register_netdevice from bond_create), which
# the comparison names as regressions.
d=$lv/bond1
sed 's#^rc_bond0$#echo +bond1 > /sys/class/net/bonding_masters; &#' qemu-images/rc/bond0 > "$lv/bond1.rc"
qemu-images/lava-job --arch mipsel --out "$d" --rc "$lv/bond1.rc" "$lv/ci-console.probes" > /dev/null 2> "$d.err"
lava_run bond1 "$d" "44$$6"
t_rc lava/run/baseline/second-job-passed 0 "$lrc" "$d/lava.log"
rc=0
sym=(--target "$(qemu-images/target mipsel)" --modules "$MODULES")
$P report "$d/lava.log" --probes "$lv/ci-console.probes" "${sym[@]}" --baseline "$lv/job-mipsel/lava.log" \
	> "$d/report.txt" 2> "$d/report.err" || rc=$?
t_rc lava/run/baseline/regression-exit 1 "$rc" "$d/report.txt"
t_has lava/run/baseline/hits "$d/report.txt" 'REGRESSION  hits netdev  1 -> 2 '
t_has lava/run/baseline/value "$d/report.txt" 'REGRESSION  values netdev.name  new: "bond1"'
rc=0
$P report "$lv/job-mipsel/lava.log" --probes "$lv/ci-console.probes" "${sym[@]}" --baseline "$lv/job-mipsel/lava.log" \
	> "$d/same.txt" 2> "$d/same.err" || rc=$?
t_rc lava/run/baseline/same-boot-exit 0 "$rc" "$d/same.txt"
t_has lava/run/baseline/same-boot "$d/same.txt" '^baseline: 1 boot\(s\) against 1: .* 0 regression\(s\)$'

# A panic before the agent (no init, no root): LAVA's own verdict is a
# Test error (the job's guard), probecc's the panic (exit 4); on x86_64
# the guard's job only.
d=$lv/panic-x86_64
qemu-images/lava-job --arch x86_64 --out "$d" --append 'rdinit=/no-such-init root=/dev/no-such-root' \
	"$lv/ci-console.probes" > /dev/null 2> "$d.err"
lava_run panic "$d" "44$$7"
t_rc lava/run/panic-x86_64/job-failed 1 "$lrc" "$d/lava.log"
t_has lava/run/panic-x86_64/test-error "$d/lava.log" '"case": "job".*"error_type": "Test"'
rc=0
$P report "$d/lava.log" --probes "$lv/ci-console.probes" > "$d/report.txt" 2> "$d/report.err" || rc=$?
t_rc lava/run/panic-x86_64/verdict 4 "$rc" "$d/report.txt"
d=$lv/panic
qemu-images/lava-job --arch mipsel --out "$d" --append 'rdinit=/no-such-init root=/dev/no-such-root' \
	"$lv/ci-console.probes" > /dev/null 2> "$d.err"
lava_run panic "$d" "44$$2"
t_rc lava/run/panic/job-failed 1 "$lrc" "$d/lava.log"
t_has lava/run/panic/test-error "$d/lava.log" '"case": "job".*"error_type": "Test"'
rc=0
$P report "$d/lava.log" --probes "$lv/ci-console.probes" > "$d/report.txt" 2> "$d/report.err" || rc=$?
t_rc lava/run/panic/verdict 4 "$rc" "$d/report.txt"
t_has lava/run/panic/said "$d/report.txt" '^boot: panic: kernel panic: '
$P report "$d/lava.log" --probes "$lv/ci-console.probes" --kcidb "$d/kcidb.json" > /dev/null 2>&1
if kcidb_valid "$d/kcidb.json" > "$d/kcidb.txt" 2>&1; then
	t_pass lava/run/panic/kcidb-valid
else
	t_fail lava/run/panic/kcidb-valid "not valid KCIDB I/O 5.3" "$d/kcidb.txt"
fi
# no dump: the boot FAILs, the capture is no evidence, the expectations MISS
t_has lava/run/panic/kcidb-boot "$d/kcidb.txt" '^boot\.probecc FAIL -$'
t_has lava/run/panic/kcidb-miss "$d/kcidb.txt" '^boot\.probecc\.expect\.register_netdevice_stack_has_bond_create MISS -$'

# A panic after the agent's first dump (the rc crashes the kernel through
# /proc/sysrq-trigger): the monitor ends at the panic and the job's last
# step makes it a Test error too, not LAVA's Infrastructure "Connection
# closed"; probecc's verdict is the panic, with dump 1 read.
d=$lv/late-panic
printf '#!/bin/sh\necho c > /proc/sysrq-trigger\n' > "$lv/crash.rc"
qemu-images/lava-job --arch mipsel --out "$d" --rc "$lv/crash.rc" "$lv/ci-console.probes" > /dev/null 2> "$d.err"
lava_run late-panic "$d" "44$$5"
t_rc lava/run/late-panic/job-failed 1 "$lrc" "$d/lava.log"
t_has lava/run/late-panic/dump1 "$d/lava.log" '"msg": "=== probecc dump 1 end '
t_has lava/run/late-panic/test-error "$d/lava.log" '"case": "job".*"error_type": "Test"'
rc=0
$P report "$d/lava.log" --probes "$lv/ci-console.probes" > "$d/report.txt" 2> "$d/report.err" || rc=$?
t_rc lava/run/late-panic/verdict 4 "$rc" "$d/report.txt"
t_has lava/run/late-panic/said "$d/report.txt" '^boot: panic: '

# A boot whose last dump never comes within the job's time (a window
# longer than the monitor's timeout): LAVA's timeout, probecc's hang.
d=$lv/hang
sed 's/^window .*/window 300s/' "$lv/ci-console.probes" > "$lv/long.probes"
qemu-images/lava-job --arch mipsel --out "$d" --test-timeout 20 "$lv/long.probes" > /dev/null 2> "$d.err"
lava_run hang "$d" "44$$3"
t_rc lava/run/hang/job-failed 1 "$lrc" "$d/lava.log"
rc=0
$P report "$d/lava.log" --probes "$lv/long.probes" > "$d/report.txt" 2> "$d/report.err" || rc=$?
t_rc lava/run/hang/verdict 3 "$rc" "$d/report.txt"
t_has lava/run/hang/said "$d/report.txt" '^boot: hang: '
