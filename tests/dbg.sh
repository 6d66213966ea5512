# make check-dbg: C names on Debian's own kernels, from the DWARF of
# their -dbg packages (qemu-images/fetch --dbg: linux-image-KREL-dbg of
# the very kernel package fetched, only its vmlinux kept).  Not in make
# check: each package is a ~640 MB download (README's table: the cold
# cost of each).
#   mipsel/fetch-dbg       the Malta -dbg's vmlinux is there, with DWARF
#   mipsel/vars-register_netdevice  probecc --vars on it: o32 registers
#                          (tests/dbg/vars-register_netdevice.txt)
#   mipsel/devname-boot    a real boot of Debian's Malta kernel through
#                          run-probes --dbg --report: dev->name at
#                          register_netdevice ("bond%d") and ndev->name
#                          at netdev_register_kobject ("bond0"), the
#                          offsets from the -dbg's DWARF
#                          (tests/dbg/devname.probes)
#   mipsel/vmlinux-not-target  a --vmlinux of another kernel than
#                          --target's capture is refused
#   mipsel/vars-regster_netdevice  a misspelt one: did you mean
#   octeon/vars-FUNC       probecc --vars on built-in Octeon drivers:
#                          n64 registers, C types (vars-FUNC.txt); the
#                          the Octeon NAND user's cvmx_nand_page_write: not there
#   octeon/octeon-i2c      C names compiled to n64 fetchargs
#                          (octeon-i2c.probes -> octeon-i2c.cmdline)
#   loongson3/vars-register_netdevice  --vars on Loongson-3's: n64
#   x86_64-6.12/devname-boot  the same boot as mipsel's on Debian's 6.12
#                          amd64, whose struct net_device no longer
#                          starts with name[] (+0(arg1) reads ""): the
#                          -dbg's DWARF puts it at its offset, bond0
# The --vars and compile cases run with probecc and probecc-asan.
# Outputs are normalised for the release, the cache, addresses and
# source lines, which change with Debian's uploads.
dg=$T_OUT/dbg
rm -rf "$dg" && mkdir -p "$dg"

dbg_normalise() {
	sed -E "s|${PROBECC_CACHE:-$HOME/.cache/probecc}|CACHE|g;
		s/6\.1\.0-[0-9]+-(4kc-malta|octeon|loongson-3|amd64|arm64)/KREL/g;
		s/_6\.1\.[0-9]+-[0-9a-z.+~]+_(mipsel|mips64el|amd64|arm64)/_VERSION_\1/g;
		s/ at 0x[0-9a-f]+ \(/ at ADDR (/; s/\((0x[0-9a-f]+)\)/(ADDR)/g;
		s/\.c:[0-9]+, in /.c:LINE, in /" "$1"
}

# fetch_dbg TARGET: the target's env with DBG_VMLINUX in this shell;
# the cold cost (download, extract, sizes) is said on fetch's stderr
fetch_dbg() {
	local t=$1
	if ! qemu-images/fetch --dbg "$t" > "$dg/fetch-$t.env" 2> "$dg/fetch-$t.log"; then
		t_fail "$t/fetch-dbg" "qemu-images/fetch --dbg $t failed" "$dg/fetch-$t.log"
		return 1
	fi
	grep -h '^fetch: linux-image' "$dg/fetch-$t.log" | sed 's/^/    /'
	. "$dg/fetch-$t.env"
	if ! readelf -S "$DBG_VMLINUX" 2> /dev/null | grep -q ' \.debug_info '; then
		t_fail "$t/fetch-dbg" "$DBG_VMLINUX has no .debug_info"
		return 1
	fi
	t_pass "$t/fetch-dbg"
}

# vars_case TARGET FUNC: --vars FUNC against the -dbg vmlinux, both builds
# (FUNC-SUFFIX: the golden vars-FUNC-SUFFIX.txt of FUNC)
vars_case() {
	local t=$1 g=$2 fn=${2%-*} bin name
	for bin in ./probecc ./probecc-asan; do
		name=$t/vars-$g/$(basename "$bin")
		"$bin" --vars "$fn" --vmlinux "$DBG_VMLINUX" > "$dg/vars.raw" 2>&1
		echo "exit $?" >> "$dg/vars.raw"
		dbg_normalise "$dg/vars.raw" > "$dg/vars-$t-$g-$(basename "$bin")"
		t_check "$name" "tests/dbg/vars-$g.txt" "$dg/vars-$t-$g-$(basename "$bin")"
	done
}

if fetch_dbg mipsel; then
	vars_case mipsel register_netdevice
	vars_case mipsel regster_netdevice
	n=mipsel/devname-boot d=$dg/malta rc=0
	qemu-images/run-probes --dbg --out "$d" --report --timeout 180 \
		tests/dbg/devname.probes > "$d.log" 2>&1 || rc=$?
	if [ $rc -ne 0 ]; then
		t_fail "$n" "run-probes --dbg exited $rc" "$d.log"
	elif ! grep -q "^vmlinux $DBG_VMLINUX: its DWARF for C names" "$d/explain"; then
		t_fail "$n" "the compile did not read the -dbg vmlinux" "$d/explain"
	elif ! grep -q 'netdev_register_kobject+0x0/0x[0-9a-f]*) name="bond0" mtu=1500' "$d/report.txt" ||
	     ! grep -q 'register_netdevice+0x0/0x[0-9a-f]*) name="bond%d" ifindex=0' "$d/report.txt" ||
	     ! grep -q '^2 of 2 expectation(s) hold' "$d/report.txt"; then
		t_fail "$n" "no bond0 by C name in the report" "$d/report.txt"
	else
		t_pass "$n"
		grep 'name="bond' "$d/report.txt" | sed 's/^ */    /'
	fi
	# the DWARF must be the booted kernel's: Octeon's vmlinux against
	# Malta's capture is refused before anything is compiled
	n=mipsel/vmlinux-not-target
	target=$(qemu-images/target mipsel 2> /dev/null) &&
		oct=$(. <(qemu-images/fetch octeon 2> /dev/null) && echo "$VMLINUX") &&
		{ ./probecc tests/dbg/devname.probes --target "$target" --vmlinux "$oct" \
			> /dev/null 2> "$dg/not-target.err"; echo "exit $?" >> "$dg/not-target.err"; }
	t_grep "$n" "$dg/not-target.err" "vmlinux .* is Linux 6\.1\.0-[0-9]+-octeon, but --target .* is 6\.1\.0-[0-9]+-4kc-malta: the DWARF must be the booted kernel's"
fi

if fetch_dbg octeon; then
	vars_case octeon octeon_i2c_xfer
	vars_case octeon octeon_mgmt_xmit
	# the Octeon NAND user's function: the Cavium SDK's NAND driver is not
	# in Debian's (upstream's) Octeon kernel
	vars_case octeon cvmx_nand_page_write
	for bin in ./probecc ./probecc-asan; do
		name=octeon/octeon-i2c/$(basename "$bin")
		if "$bin" $(t_args tests/dbg/octeon-i2c.probes DBG="$DBG_VMLINUX") \
			tests/dbg/octeon-i2c.probes --cmdline > "$dg/i2c.cmdline" 2> "$dg/i2c.err"; then
			t_check "$name" tests/dbg/octeon-i2c.cmdline "$dg/i2c.cmdline"
		else
			t_fail "$name" "did not compile" "$dg/i2c.err"
		fi
	done
fi

if fetch_dbg loongson3; then
	vars_case loongson3 register_netdevice-n64
fi

if fetch_dbg x86_64-6.12; then
	n=x86_64-6.12/devname-boot d=$dg/x86_64-6.12 rc=0
	qemu-images/run-probes --arch x86_64-6.12 --dbg --out "$d" --report --timeout 240 \
		tests/dbg/devname.probes > "$d.log" 2>&1 || rc=$?
	if [ $rc -ne 0 ]; then
		t_fail "$n" "run-probes --dbg exited $rc" "$d.log"
	elif ! grep -q 'name=+[1-9][0-9]*(%di):string' "$d/cmdline"; then
		t_fail "$n" "dev->name is not at a DWARF offset past 0" "$d/cmdline"
	elif ! grep -q 'netdev_register_kobject+0x4/0x[0-9a-f]*) name="bond0" mtu=1500' "$d/report.txt" ||
	     ! grep -q '^2 of 2 expectation(s) hold' "$d/report.txt"; then
		t_fail "$n" "no bond0 by C name in the report" "$d/report.txt"
	else
		t_pass "$n"
		grep -o 'name=+[0-9]*(%di)' "$d/cmdline" | head -1 | sed 's/^/    dev->name: /'
		grep 'name="bond' "$d/report.txt" | sed 's/^ */    /'
	fi
fi
