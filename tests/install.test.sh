# make install into a scratch DESTDIR (PREFIX=/usr), then what a user of
# the installed tree sees: the files in place (the QEMU helpers too, and
# PREFIX/bin/probecc-run-probes, -capture, -extract-dump linking to
# them), --version and --help, the
# same compile output as ./probecc, --agent-path pointing into the
# installed tree (found from the binary, not from this checkout), the
# man pages rendering with no warning, each installed agent running
# (--help, under qemu-user); make uninstall removes it all.
# Run alone: bash tests/install.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

inst_dest=$T_OUT/install/dest
inst_prefix=/usr
inst_root=$inst_dest$inst_prefix
inst_log=$T_OUT/install/make.log
rm -rf "$T_OUT/install" && mkdir -p "$T_OUT/install"

# The files make install must write (agents: every one built here).
inst_files="bin/probecc bin/probecc-bootconfig
share/man/man1/probecc.1 share/man/man1/probecc-bootconfig.1
share/man/man5/probecc.probes.5"
for f in docs/*.md; do inst_files="$inst_files share/doc/probecc/${f#docs/}"; done
for f in examples/*; do inst_files="$inst_files share/doc/probecc/examples/${f#examples/}"; done
for f in fetch machines.sh paths.sh mkimage boot run-probes capture target extract-dump rootfs deps.sh lava-job lava-device rc/bond0; do
	inst_files="$inst_files lib/probecc/qemu-images/$f"
done
inst_files="$inst_files lib/probecc/common/arch-rows lib/probecc/common/apt-download lib/probecc/common/arch.def"
inst_files="$inst_files lib/probecc/initramfs/mkinitramfs bin/probecc-run-probes bin/probecc-capture bin/probecc-extract-dump bin/probecc-lava-job"
inst_arches=
for a in initramfs/agent-*; do
	case $a in *-asan|*.*) continue;; esac
	[ -f "$a" ] || continue
	inst_arches="$inst_arches ${a#initramfs/agent-}"
	inst_files="$inst_files lib/probecc/${a#initramfs/agent-}/agent"
done

if make -s install DESTDIR="$inst_dest" PREFIX="$inst_prefix" > "$inst_log" 2>&1; then
	t_pass install/make-install
else
	t_fail install/make-install "make install failed" "$inst_log"
fi

missing=$T_OUT/install/missing
: > "$missing"
for f in $inst_files; do
	[ -f "$inst_root/$f" ] || echo "$inst_root/$f" >> "$missing"
done
if [ -s "$missing" ]; then
	t_fail install/files "not installed" "$missing"
else
	t_pass install/files
fi
for a in $inst_arches; do
	if cmp -s "initramfs/agent-$a" "$inst_root/lib/probecc/$a/agent" &&
	   [ -x "$inst_root/lib/probecc/$a/agent" ]; then
		t_pass "install/agent-$a"
	else
		t_fail "install/agent-$a" "lib/probecc/$a/agent is not initramfs/agent-$a, executable"
	fi
	# the installed agent runs, as the board would run it (qemu-user)
	q=$(t_qemu_user $a)
	if [ -n "$q" ] && ! command -v $q > /dev/null; then
		t_skip "install/agent-$a-runs" "no $q (qemu-images/deps.sh boot)"
	elif $q "$inst_root/lib/probecc/$a/agent" --help > "$T_OUT/install/agent-$a.out" 2>&1 &&
	     grep -q '^usage: agent ' "$T_OUT/install/agent-$a.out"; then
		t_pass "install/agent-$a-runs"
	else
		t_fail "install/agent-$a-runs" "${q:-the host} could not run it with --help" "$T_OUT/install/agent-$a.out"
	fi
done
if [ -e "$inst_root/lib/probecc/asan/agent" ]; then
	t_fail install/no-asan-agent "the host ASan agent was installed"
else
	t_pass install/no-asan-agent
fi

ip=$inst_root/bin/probecc
d=$T_OUT/install
"$ip" --version > "$d/version" 2> "$d/version.err"
rc=$?
./probecc --version > "$d/version.src" 2>&1
if [ $rc -eq 0 ] && [ ! -s "$d/version.err" ] &&
   grep -qx 'probecc [^ ]*' "$d/version" && cmp -s "$d/version" "$d/version.src"; then
	t_pass install/version
else
	t_fail install/version "exit $rc, or not one line 'probecc VERSION' as ./probecc says" \
		"$d/version" "$d/version.err" "$d/version.src"
fi
"$ip" -V > "$d/V" 2>&1
rc=$?
if [ $rc -eq 0 ] && cmp -s "$d/V" "$d/version"; then
	t_pass install/version-V
else
	t_fail install/version-V "exit $rc, or -V differs from --version" "$d/V"
fi
"$ip" --help > "$d/help" 2> "$d/help.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^usage: probecc FILE' "$d/help" && [ ! -s "$d/help.err" ]; then
	t_pass install/help
else
	t_fail install/help "exit $rc, or no usage on stdout" "$d/help" "$d/help.err"
fi
"$inst_root/bin/probecc-bootconfig" --help > "$d/bc-help" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^usage: probecc-bootconfig' "$d/bc-help"; then
	t_pass install/bootconfig-help
else
	t_fail install/bootconfig-help "exit $rc" "$d/bc-help"
fi

# The installed compiler gives exactly what the tree's does.
for args in "--cmdline" "--arch x86_64 --cmdline"; do
	tag=$(echo "$args" | tr -d ' -')
	rm -f "$d/plan.$tag" "$d/plan.src.$tag"
	"$ip" examples/bond0.probes $args --plan "$d/plan.$tag" > "$d/out.$tag" 2>&1
	rc=$?
	./probecc examples/bond0.probes $args --plan "$d/plan.src.$tag" > "$d/out.src.$tag" 2>&1
	if [ $rc -ne 0 ]; then
		t_fail "install/bond0-$tag" "installed probecc exited $rc" "$d/out.$tag"
	else
		t_check "install/bond0-$tag" "$d/out.src.$tag" "$d/out.$tag"
		t_check "install/bond0-$tag.plan" "$d/plan.src.$tag" "$d/plan.$tag"
	fi
done

# --agent-path: from the installed binary, the installed agent.
if [ -f initramfs/agent-mipsel ]; then
	want=$(cd "$inst_root/lib/probecc/mipsel" 2>/dev/null && pwd -P)/agent
	got=$("$ip" --agent-path mipsel 2> "$d/agent.err")
	rc=$?
	if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
		t_pass install/agent-path-mipsel
	else
		echo "want $want, got '$got' (exit $rc)" > "$d/agent.why"
		t_fail install/agent-path-mipsel "not the installed agent" "$d/agent.why" "$d/agent.err"
	fi
	got=$(./probecc --agent-path mipsel 2>&1)
	if [ "$got" = "$(pwd -P)/initramfs/agent-mipsel" ]; then
		t_pass install/agent-path-checkout
	else
		t_fail install/agent-path-checkout "./probecc --agent-path mipsel said '$got'"
	fi
else
	t_skip install/agent-path-mipsel "initramfs/agent-mipsel not built (Debian: gcc-mipsel-linux-gnu)"
fi
# A probecc with no agent beside it: exit 2 and both places named.
mkdir -p "$d/lonely/bin"
cp "$ip" "$d/lonely/bin/probecc"
"$d/lonely/bin/probecc" --agent-path mipsel > "$d/lonely.out" 2> "$d/lonely.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$d/lonely.out" ] && grep -q 'lib/probecc/mipsel/agent' "$d/lonely.err"; then
	t_pass install/agent-path-none
else
	t_fail install/agent-path-none "want exit 2 and a message, got $rc" "$d/lonely.out" "$d/lonely.err"
fi
"$ip" --agent-path ../x > /dev/null 2>&1
rc=$?
if [ $rc -eq 2 ]; then
	t_pass install/agent-path-bad-arch
else
	t_fail install/agent-path-bad-arch "--agent-path ../x exited $rc, not 2"
fi

# The QEMU helpers from the installed tree: run-probes through its PREFIX/bin
# link, from outside the checkout, with no checkout on PATH, boots Debian's
# Malta kernel with the installed agent and holds ci-bond0's expectations.
# (The capture for naming frames comes from the checkout's cache, to spare
# a boot.)  Booted again on the MIPS kprobe single-step oops (tests/lib.sh).
if [ -f initramfs/agent-mipsel ] && command -v qemu-system-mipsel > /dev/null; then
	tgt=$(qemu-images/target mipsel 2> "$d/target.err")
	for try in $(seq $KPROBE_OOPS_TRIES); do
		rm -rf "$d/run"
		(cd / && env PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			"$inst_root/bin/probecc-run-probes" --arch mipsel --out "$d/run" \
			--target "$tgt" --report "$inst_root/share/doc/probecc/examples/ci-bond0.probes") \
			> "$d/run.log" 2>&1
		rc=$?
		kprobe_oops "$d/run/console.log" || break
	done
	if [ $rc = 0 ] && grep -q '6 of 6 expectation(s) hold' "$d/run/report.txt" &&
	   cmp -s "$inst_root/lib/probecc/mipsel/agent" <(cd "$d" && rm -rf x && mkdir x && cd x &&
		gzip -dc ../run/initrd.gz | cpio -i --quiet init 2>/dev/null; cat init 2>/dev/null); then
		t_pass install/run-probes-installed
	else
		t_fail install/run-probes-installed "exit $rc, not 6 of 6, or /init of the image is not the installed agent" "$d/run.log"
	fi
else
	t_skip install/run-probes-installed "needs initramfs/agent-mipsel and qemu-system-mipsel"
fi

# The man pages, as installed: no warning from man or groff.
if command -v man > /dev/null 2>&1; then
	for m in man1/probecc.1 man1/probecc-bootconfig.1 man5/probecc.probes.5; do
		n=$(basename "$m")
		man --warnings -l "$inst_root/share/man/$m" > "$d/$n.txt" 2> "$d/$n.err"
		rc=$?
		if [ $rc -eq 0 ] && [ ! -s "$d/$n.err" ] && [ -s "$d/$n.txt" ]; then
			t_pass "install/man-$n"
		else
			t_fail "install/man-$n" "man --warnings -l exited $rc or warned" "$d/$n.err"
		fi
	done
	# found by name in the installed tree
	if MANPAGER=cat man -M "$inst_root/share/man" 5 probecc.probes 2>&1 | grep -q 'LEXICAL RULES'; then
		t_pass install/man-by-name
	else
		t_fail install/man-by-name "man -M ... 5 probecc.probes did not find the page"
	fi
else
	t_skip install/man "man not found (Debian: man-db)"
fi

if make -s uninstall DESTDIR="$inst_dest" PREFIX="$inst_prefix" > "$inst_log" 2>&1; then
	left=$(find "$inst_dest" -type f -o -type l)
	if [ -z "$left" ] && [ ! -e "$inst_root/lib/probecc" ] && [ ! -e "$inst_root/share/doc/probecc" ]; then
		t_pass install/uninstall
	else
		echo "$left" > "$d/left"
		t_fail install/uninstall "files left behind" "$d/left"
	fi
else
	t_fail install/uninstall "make uninstall failed" "$inst_log"
fi

# make dist: a release tarball that carries its version.  Built from it
# (no .git), print-version and debian/version.sh give HEAD's version,
# not "unknown" / 0~unknown (docs/packaging.md, "Version").
d=$T_OUT/install/dist && rm -rf "$d" && mkdir -p "$d"
if v=$(git describe --always 2> /dev/null) &&
	make -s dist DIST_DIR="$d" > "$d/dist.log" 2>&1 &&
	[ -s "$d/probecc-$v.tar.gz" ] && tar -C "$d" -xzf "$d/probecc-$v.tar.gz"; then
	# HEAD's files and the VERSION file, nothing else (before make runs)
	nfiles=$(cd "$d/probecc-$v" && find . ! -type d ! -name VERSION | wc -l)
	got=$(make -s --no-print-directory -C "$d/probecc-$v" print-version 2> "$d/pv.err")
	deb=$(cd "$d/probecc-$v" && debian/version.sh 2> "$d/deb.err")
	if [ "$got" = "$v" ] && [ -n "$deb" ] && [ "$deb" != 0~unknown ] &&
		[ "$(git ls-tree -r --name-only HEAD | wc -l)" = "$nfiles" ]; then
		t_pass install/dist-version
	else
		t_fail install/dist-version "from probecc-$v.tar.gz ($nfiles files): print-version '$got', debian/version.sh '$deb'" \
			"$d/pv.err" "$d/deb.err"
	fi
else
	t_fail install/dist-version "make dist wrote no probecc-VERSION.tar.gz" "$d/dist.log"
fi
# make dist with its default DIST_DIR, the top of a tree that has been
# built: the tarball and, beside it, Buildroot's hash file (under
# buildroot/, never a probecc/ that the probecc binary's name holds) and
# Yocto's recipe; in a clone of HEAD, the binary copied in
c=$d/clone
if git clone -q --shared . "$c" && cp probecc "$c/" &&
   make -s -C "$c" dist > "$d/dist-default.log" 2>&1 &&
   [ -s "$c/probecc-$v.tar.gz" ] && [ -s "$c/buildroot/probecc/$v/probecc.hash" ] &&
   [ -s "$c/probecc_$v.bb" ]; then
	t_pass install/dist-default-dir
else
	t_fail install/dist-default-dir "make dist in the top of a built tree" "$d/dist-default.log"
fi
