# make check-package (with tests/package.sh, tests/buildroot.sh): the
# Yocto layer meta-probecc/, as far as this host allows: there is no
# bitbake here (Debian bookworm has none), so no build, no do_* task and
# none of oe-core's QA ran.  What is checked:
#   parse      bitbake's own parser (lib/bb of the bitbake checkout
#              $BITBAKE; checked: yocto-6.1_M1-53-gc251833d2) reads
#              conf/layer.conf and probecc_git.bb with its BBCLASSEXTEND
#              variants, oe-core's classes stood in for by
#              tests/yocto/classes (their name and class override only):
#              a syntax error is its exception.  Per variant: target:
#              PACKAGECONFIG tracedat (TRACEDAT=yes, trace-cmd,
#              libtraceevent, libtracefs in DEPENDS), the agent built and
#              installed as /probecc/init in probecc-agent (FILES,
#              INSANE_SKIP already-stripped); native, nativesdk:
#              TRACEDAT=no, no agent; PROBECC_ARCH of every TARGET_ARCH
#   dist       make dist's probecc_VERSION.bb against its tarball (version,
#              sha256) and probecc.inc's do_compile/do_install run on it
#   license    LIC_FILES_CHKSUM's md5 is debian/copyright's (and
#              package/probecc/probecc.hash's sha256 is, for Buildroot)
# The make commands the recipe runs are tests/buildroot.sh's (TRACEDAT=no
# host tools; NAME_CC= and agent_zlib_NAME= for the agent).
yo=$T_OUT/yocto
rm -rf "$yo" && mkdir -p "$yo"
top=$(pwd)

if [ -n "${BITBAKE:-}" ] && [ -f "$BITBAKE/lib/bb/parse/__init__.py" ]; then
	if /usr/bin/python3 tests/yocto/parse.py "$BITBAKE" "$top/meta-probecc" "$top/tests/yocto" \
			> "$yo/parse.out" 2> "$yo/parse.err"; then
		t_pass yocto/parse
	else
		t_fail yocto/parse "bitbake's parser refused the layer or the recipe" "$yo/parse.err"
	fi
	# one variant's block of parse.out
	variant() { awk -v v="variant $1" '/^variant / { on = ($0 == v) } on' "$yo/parse.out"; }
	variant target > "$yo/target"
	variant native > "$yo/native"
	variant nativesdk > "$yo/nativesdk"
	ok=1
	for l in '  PACKAGECONFIG "tracedat"' '  make TRACEDAT=yes' \
		 '  DEPENDS dtc elfutils libarchive zlib trace-cmd libtraceevent libtracefs' \
		 '  FILES:probecc-agent /probecc' '  INSANE_SKIP:probecc-agent already-stripped' \
		 '  do_compile agent True' '  do_install agent True' '  BBCLASSEXTEND native nativesdk' \
		 '  TARGET_ARCH aarch64 PROBECC_ARCH "arm64" ARM64_CC' \
		 '  TARGET_ARCH mipsel PROBECC_ARCH "mipsel" MIPSEL_CC' \
		 '  TARGET_ARCH riscv64 PROBECC_ARCH "riscv64" RISCV64_CC' \
		 '  TARGET_ARCH arm PROBECC_ARCH "" _CC'; do
		grep -qxF -- "$l" "$yo/target" || { echo "target: no line '$l'" >> "$yo/why"; ok=0; }
	done
	grep -q '^  PACKAGES probecc-agent ' "$yo/target" || { echo "target: probecc-agent not in PACKAGES" >> "$yo/why"; ok=0; }
	for v in native nativesdk; do
		for l in '  PACKAGECONFIG ""' '  make TRACEDAT=no' '  DEPENDS dtc elfutils libarchive zlib' \
			 '  do_compile agent False' '  do_install agent False'; do
			grep -qxF -- "$l" "$yo/$v" || { echo "$v: no line '$l'" >> "$yo/why"; ok=0; }
		done
	done
	if [ $ok = 1 ]; then
		t_pass yocto/variants
	else
		t_fail yocto/variants "a variant is not as meant" "$yo/why" "$yo/parse.out"
	fi
else
	t_skip yocto/parse "no bitbake checkout: make check-package BITBAKE=DIR"
fi

md5=$(md5sum debian/copyright | cut -d' ' -f1)
sha=$(sha256sum debian/copyright | cut -d' ' -f1)
if grep -q "file://debian/copyright;md5=$md5\"" meta-probecc/recipes-devtools/probecc/probecc.inc &&
   grep -qx "sha256  $sha  debian/copyright" package/probecc/probecc.hash; then
	t_pass yocto/license-checksums
else
	t_fail yocto/license-checksums "LIC_FILES_CHKSUM or probecc.hash is not debian/copyright's (md5 $md5, sha256 $sha)"
fi

# make dist's recipe of its tarball (probecc_VERSION.bb): its version
# (the file name's) is the tarball's VERSION, its SRC_URI[sha256sum] is
# the tarball's, it requires meta-probecc's probecc.inc; and the
# commands of probecc.inc's do_compile and do_install, run on the
# unpacked tarball as bitbake runs them for the native variant
# (oe_runmake: make with its EXTRA_OEMAKE, PACKAGECONFIG empty:
# TRACEDAT=no; ${D}, ${bindir} and ${mandir} as oe-core sets them),
# install a probecc that says that version.  Not run: bitbake's fetch,
# unpack and QA, which need a bitbake and oe-core.
dd=$yo/dist && mkdir -p "$dd"
if make -s dist DIST_DIR="$dd" > "$dd/dist.log" 2>&1 &&
   t=$(ls "$dd"/probecc-*.tar.gz) && b=$(basename "$t" .tar.gz) &&
   v=$(tar -xOzf "$t" "$b/VERSION") && r=$dd/probecc_$v.bb && [ -f "$r" ]; then
	sha=$(sha256sum "$t" | cut -d' ' -f1)
	if grep -qx "SRC_URI\[sha256sum\] = \"$sha\"" "$r" &&
	   grep -qx 'SRC_URI = "${PROBECC_DIST}/probecc-${PV}.tar.gz"' "$r" &&
	   grep -qx 'require probecc.inc' "$r" && [ "$b" = "probecc-$v" ] &&
	   [ -f meta-probecc/recipes-devtools/probecc/probecc.inc ]; then
		t_pass yocto/dist-recipe
	else
		t_fail yocto/dist-recipe "probecc_$v.bb: not the sha256 $sha of $b.tar.gz, or not its SRC_URI" "$r"
	fi
	tar -C "$dd" -xzf "$t"
	task() { # the body of probecc.inc's do_TASK, oe-core's variables put in
		awk -v f="do_$1() {" '$0 == f { on = 1; next } on && /^}/ { exit } on' \
			meta-probecc/recipes-devtools/probecc/probecc.inc |
			sed -e 's|${D}|$D|g' -e 's|${bindir}|/usr/bin|g' -e 's|${mandir}|/usr/share/man|g'
	}
	D=$dd/image
	{ task compile; task install; } > "$dd/tasks.sh"
	if ! grep -q '\${' "$dd/tasks.sh" &&
	   (cd "$dd/$b" && oe_runmake() { make -j2 CC=gcc CFLAGS=-O2 CPPFLAGS= LDFLAGS= TRACEDAT=no "$@"; } &&
	    D=$D && set -e && . "$dd/tasks.sh") > "$dd/build.log" 2>&1 &&
	   [ "$("$D/usr/bin/probecc" --version 2>&1)" = "probecc $v" ] &&
	   [ -f "$D/usr/share/man/man5/probecc.probes.5" ]; then
		t_pass yocto/dist-build
	else
		t_fail yocto/dist-build "probecc.inc's do_compile, do_install on $b.tar.gz" "$dd/tasks.sh" "$dd/build.log"
	fi
else
	t_fail yocto/dist-recipe "make dist wrote no tarball with a VERSION and its probecc_VERSION.bb" "$dd/dist.log"
fi
