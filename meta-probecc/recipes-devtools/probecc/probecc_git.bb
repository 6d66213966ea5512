SUMMARY = "Boot-time tracing compiler for embedded Linux"
DESCRIPTION = "probecc turns one declarative probe file into what a Linux \
boot needs to trace itself: the kernel command-line fragment, a bootconfig, \
the plan of an early-init agent, and a report of the agent's dumps."
SECTION = "devel"
LICENSE = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://debian/copyright;md5=20bc6812774f9e0bcc96d25e19439362"

# The tree this layer is part of (conf/layer.conf), as a git repository:
# its version is the tree's (git describe, as probecc --version says).
SRC_URI = "git://${PROBECC_TREE};protocol=file;branch=main"
SRCREV = "${AUTOREV}"
PV = "0+git"
S = "${WORKDIR}/git"

inherit pkgconfig

DEPENDS = "dtc elfutils libarchive zlib"

# trace.dat: probecc report decodes raw dumps with libtracecmd and
# libtraceevent (meta-oe's trace-cmd, libtraceevent, libtracefs), which
# have no native variant: the native and nativesdk builds are TRACEDAT=no
# (their report reads text dumps and says that raw ones need it).
PACKAGECONFIG ??= "tracedat"
PACKAGECONFIG:class-native ??= ""
PACKAGECONFIG:class-nativesdk ??= ""
PACKAGECONFIG[tracedat] = "TRACEDAT=yes,TRACEDAT=no,trace-cmd libtraceevent libtracefs,trace-cmd"

EXTRA_OEMAKE = "CC='${CC}' CFLAGS='${CFLAGS}' CPPFLAGS='${CPPFLAGS}' LDFLAGS='${LDFLAGS}' ${PACKAGECONFIG_CONFARGS}"

# probecc's --arch of the target (common/arch.def); empty: no agent
def probecc_arch(d):
    return {
        'mipsel': 'mipsel',
        'mips64el': 'mips64el',
        'mips64': 'mips64',
        'x86_64': 'x86_64',
        'aarch64': 'arm64',
        'riscv64': 'riscv64',
    }.get(d.getVar('TARGET_ARCH'), '')

PROBECC_ARCH = "${@probecc_arch(d)}"
PROBECC_ARCH_CC = "${@d.getVar('PROBECC_ARCH').upper()}_CC"

do_compile() {
	oe_runmake probecc bootconfig/probecc-bootconfig
}

# The agent, static, by the target's compiler in place of the one the
# Makefile names; the sysroot's static zlib compresses its raw dumps
# when there is one.
do_compile:append:class-target() {
	if [ -n "${PROBECC_ARCH}" ]; then
		zl=
		if [ -f ${STAGING_LIBDIR}/libz.a ]; then
			zl="agent_zlib_${PROBECC_ARCH}=${STAGING_LIBDIR}/libz.a"
		fi
		oe_runmake ${PROBECC_ARCH_CC}="${CC}" $zl initramfs/agent-${PROBECC_ARCH}
	fi
}

do_install() {
	install -d ${D}${bindir} ${D}${mandir}/man1 ${D}${mandir}/man5
	install -m 0755 probecc bootconfig/probecc-bootconfig ${D}${bindir}/
	install -m 0644 docs/man/probecc.1 docs/man/probecc-bootconfig.1 ${D}${mandir}/man1/
	install -m 0644 docs/man/probecc.probes.5 ${D}${mandir}/man5/
}

do_install:append:class-target() {
	if [ -n "${PROBECC_ARCH}" ]; then
		install -D -m 0755 initramfs/agent-${PROBECC_ARCH} ${D}/probecc/init
	fi
}

# The agent as its own package, for an INITRAMFS_IMAGE: add probecc-agent
# to the initramfs image's PACKAGE_INSTALL and rdinit=/probecc/init (and
# the fragment probecc --cmdline prints) to the kernel command line; the
# agent execs the initramfs's own /init.
PACKAGES =+ "${PN}-agent"
SUMMARY:${PN}-agent = "probecc's early-init agent, /probecc/init of an initramfs"
FILES:${PN}-agent = "/probecc"
# built stripped (-s) and static by its Makefile rule
INSANE_SKIP:${PN}-agent = "already-stripped"

BBCLASSEXTEND = "native nativesdk"
