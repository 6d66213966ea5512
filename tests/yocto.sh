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
if grep -q "file://debian/copyright;md5=$md5\"" meta-probecc/recipes-devtools/probecc/probecc_git.bb &&
   grep -qx "sha256  $sha  debian/copyright" package/probecc/probecc.hash; then
	t_pass yocto/license-checksums
else
	t_fail yocto/license-checksums "LIC_FILES_CHKSUM or probecc.hash is not debian/copyright's (md5 $md5, sha256 $sha)"
fi
