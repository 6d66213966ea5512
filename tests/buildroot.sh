# make check-package (with tests/package.sh): Buildroot's package/probecc/
#   check-package  Buildroot's own utils/check-package -b on
#                  package/probecc/* and the BR2_EXTERNAL files
#                  (external.desc, external.mk, Config.in), from the
#                  Buildroot checkout $BUILDROOT (checked: 2026.08-rc1-25-
#                  ge991fa0716); a skip without one
#   host, target   probecc.mk's commands run outside Buildroot the way its
#                  infrastructure calls them (tests/buildroot/stub.mk):
#                  host-probecc (TRACEDAT=no) into HOST_DIR, the probe
#                  file into the images directory (cmdline, bootconfig,
#                  plan: what ./probecc makes of it), the arm64 agent of
#                  a BR2_STATIC_LIBS configuration into the target's
#                  /probecc/init (static, aarch64, with the staged zlib)
#                  and the plan beside it
#   report         the TRACEDAT=no probecc reads a text dump as the tree's
#                  does, and refuses a raw dump saying why
#   tarball        host-probecc from make dist's tarball, as with
#                  BR2_PACKAGE_PROBECC_TARBALL: its version, the hash file
#                  make dist wrote checked (a changed tarball refused)
#   kernel         PROBECC_LINUX_CONFIG_FIXUPS enables every option
#                  the compiler asks of a kernel
br=$T_OUT/buildroot
rm -rf "$br" && mkdir -p "$br"
top=$(pwd)

if [ -n "${BUILDROOT:-}" ] && [ -x "$BUILDROOT/utils/check-package" ]; then
	# check-package's python3 is Debian's (python3-magic, flake8), not
	# whichever python3 comes first on PATH
	if /usr/bin/python3 "$BUILDROOT/utils/check-package" -b package/probecc/* \
			external.desc external.mk Config.in > "$br/check-package.log" 2>&1 &&
	   grep -q '^0 warnings generated' "$br/check-package.log"; then
		t_pass buildroot/check-package
	else
		t_fail buildroot/check-package "warnings" "$br/check-package.log"
	fi
else
	t_skip buildroot/check-package "no Buildroot checkout: make check-package BUILDROOT=DIR"
fi

# a staged static zlib for arm64, as Buildroot's zlib package stages it
zl=${PROBECC_CACHE:-$HOME/.cache/probecc}/zlib/arm64
mkdir -p "$br/out/staging/usr/lib" "$br/out/staging/usr/include"
have_zlib=0
if [ -f "$zl/lib/libz.a" ]; then
	cp "$zl/lib/libz.a" "$br/out/staging/usr/lib/"
	cp "$zl/include/zlib.h" "$zl/include/zconf.h" "$br/out/staging/usr/include/"
	have_zlib=1
fi
probes=$top/examples/bond0.probes
stub() {
	make -s -f tests/buildroot/stub.mk OUT="$br/out" TREE="$top" \
		BR2_aarch64=y BR2_STATIC_LIBS=y BR2_SHARED_LIBS= \
		BR2_PACKAGE_HOST_PROBECC_PROBES="\"$probes\"" \
		TARGET_CC="aarch64-linux-gnu-gcc -I$br/out/staging/usr/include" "$@"
}
if stub host > "$br/host.log" 2>&1; then
	t_pass buildroot/host-build
else
	t_fail buildroot/host-build "make -f tests/buildroot/stub.mk host" "$br/host.log"
fi
hp=$br/out/host/bin/probecc
got=$("$hp" --version 2>&1)
if [ "$got" = "$(./probecc --version 2>&1)" ] && [ -x "$br/out/host/bin/probecc-bootconfig" ]; then
	t_pass buildroot/host-version
else
	t_fail buildroot/host-version "HOST_DIR/bin/probecc --version: '$got'"
fi
img=$br/out/images/probecc
./probecc "$probes" --arch arm64 -o "$br/bootconfig.want" --plan "$br/plan.want" \
	--cmdline > "$br/cmdline.want" 2> /dev/null
ok=1
for f in cmdline bootconfig plan; do
	cmp -s "$br/$f.want" "$img/$f" || ok=0
done
if [ $ok = 1 ] && [ -s "$img/cmdline" ]; then
	t_pass buildroot/images-probes
else
	t_fail buildroot/images-probes "images/probecc/{cmdline,bootconfig,plan} are not ./probecc's" "$br/host.log"
fi

if stub target > "$br/target.log" 2>&1; then
	t_pass buildroot/target-build
else
	t_fail buildroot/target-build "make -f tests/buildroot/stub.mk target" "$br/target.log"
fi
ag=$br/out/target/probecc/init
readelf -h -l "$ag" > "$br/agent.elf" 2>&1
if grep -q 'Machine: *AArch64' "$br/agent.elf" && ! grep -q 'INTERP' "$br/agent.elf" &&
   cmp -s "$img/plan" "$br/out/target/probecc/plan"; then
	t_pass buildroot/target-agent
else
	t_fail buildroot/target-agent "TARGET_DIR/probecc/init is not a static aarch64 program, or no plan" "$br/agent.elf" "$br/target.log"
fi
if [ $have_zlib = 1 ]; then
	if grep -q 'deflate' "$ag"; then
		t_pass buildroot/target-agent-zlib
	else
		t_fail buildroot/target-agent-zlib "the agent has no zlib (deflate) though the staging has libz.a"
	fi
else
	t_skip buildroot/target-agent-zlib "no arm64 zlib in \$PROBECC_CACHE (make agent-zlib)"
fi

# TRACEDAT=no: text dumps read as ever; raw dumps refused, and why
hb=$br/out/build/host-probecc-local
for c in boot-clean mipsel-raw; do
	cd=tests/report/cases/$c
	args=$(grep -v '^#' "$cd/args")
	"$hb/probecc" report $args > "$br/$c.out" 2> "$br/$c.err"
	echo $? > "$br/$c.status"
done
if cmp -s tests/report/cases/boot-clean/stdout "$br/boot-clean.out" &&
   cmp -s tests/report/cases/boot-clean/status "$br/boot-clean.status"; then
	t_pass buildroot/notracedat-text-dump
else
	t_fail buildroot/notracedat-text-dump "not the golden report" "$br/boot-clean.out" "$br/boot-clean.err"
fi
if [ "$(cat "$br/mipsel-raw.status")" != 0 ] &&
   grep -q 'built without (make TRACEDAT=no)' "$br/mipsel-raw.out" "$br/mipsel-raw.err"; then
	t_pass buildroot/notracedat-raw-refused
else
	t_fail buildroot/notracedat-raw-refused "exit $(cat "$br/mipsel-raw.status"), or the reason not said" \
		"$br/mipsel-raw.out" "$br/mipsel-raw.err"
fi

# host-probecc from make dist's tarball (BR2_PACKAGE_PROBECC_TARBALL):
# the version is the tarball's, its sha256 is checked against the hash
# file make dist wrote (as BR2_GLOBAL_PATCH_DIR holds one), and a tarball
# that is not that one is refused
dd=$br/dist && mkdir -p "$dd"
if make -s dist DIST_DIR="$dd" > "$dd/dist.log" 2>&1 &&
   t=$(ls "$dd"/probecc-*.tar.gz) && v=$(tar -xOzf "$t" "$(basename "$t" .tar.gz)/VERSION"); then
	dstub() {
		make -s -f tests/buildroot/stub.mk OUT="$br/dist-out" TREE="$top" \
			BR2_PACKAGE_PROBECC_TARBALL="\"$t\"" BR2_GLOBAL_PATCH_DIR="$dd/buildroot" "$@"
	}
	if [ "$(dstub print-version)" = "$v file $dd $(basename "$t")" ] &&
	   dstub host-tarball > "$br/dist-host.log" 2>&1 &&
	   [ "$("$br/dist-out/host/bin/probecc" --version 2>&1)" = "probecc $v" ]; then
		t_pass buildroot/tarball-host
	else
		t_fail buildroot/tarball-host "version '$v' of $t: $(dstub print-version 2>&1), $("$br/dist-out/host/bin/probecc" --version 2>&1)" \
			"$br/dist-host.log"
	fi
	# the same name, other bytes: Buildroot's hash check refuses it
	mkdir -p "$dd/other" && cp "$t" "$dd/other/" && echo >> "$dd/other/$(basename "$t")"
	rm -rf "$br/dist-out"
	if ! make -s -f tests/buildroot/stub.mk OUT="$br/dist-out" TREE="$top" \
		BR2_PACKAGE_PROBECC_TARBALL="\"$dd/other/$(basename "$t")\"" BR2_GLOBAL_PATCH_DIR="$dd/buildroot" \
		host-tarball > "$br/dist-other.log" 2>&1 &&
	   grep -q 'has wrong sha256 hash' "$br/dist-other.log"; then
		t_pass buildroot/tarball-hash-checked
	else
		t_fail buildroot/tarball-hash-checked "a changed tarball was not refused" "$br/dist-other.log"
	fi
else
	t_fail buildroot/tarball-host "make dist wrote no tarball with a VERSION" "$dd/dist.log"
fi

stub linux-config > "$br/kconfig.log" 2>&1
missing=
for o in $(grep -ho '"CONFIG_[A-Z0-9_]*"' compiler/*.c | tr -d '"' | sort -u) CONFIG_BOOT_CONFIG CONFIG_BLK_DEV_INITRD; do
	# optional: kprobes on notrace functions only; an arch's own
	# properties (HAVE_*, *_SUPPORT: selected by the arch, no prompt)
	case $o in CONFIG_KPROBE_EVENTS_ON_NOTRACE|CONFIG_*_SUPPORT|CONFIG_HAVE_*) continue ;; esac
	grep -qx "$o=y" "$br/out/linux.config" || missing="$missing $o"
done
if [ -z "$missing" ]; then
	t_pass buildroot/kernel-fixups
else
	t_fail buildroot/kernel-fixups "not enabled:$missing" "$br/out/linux.config" "$br/kconfig.log"
fi
