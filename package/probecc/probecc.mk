################################################################################
#
# probecc
#
################################################################################

# The source: a release tarball of "make dist" when
# BR2_PACKAGE_PROBECC_TARBALL names one (a path, or a URL), its version
# the one in its name (probecc-VERSION.tar.gz; the VERSION file in it
# says the same to the Makefile), its hash in BR2_GLOBAL_PATCH_DIR's
# probecc/VERSION/probecc.hash, which make dist writes beside it
# (DIST_DIR/buildroot is that BR2_GLOBAL_PATCH_DIR entry).
# Without one, the probecc tree this file is part of (package/probecc/
# of that tree, used as a BR2_EXTERNAL: external.desc at its top),
# rsynced by Buildroot.
PROBECC_TARBALL = $(call qstrip,$(BR2_PACKAGE_PROBECC_TARBALL))
ifneq ($(PROBECC_TARBALL),)
PROBECC_SOURCE = $(notdir $(PROBECC_TARBALL))
PROBECC_VERSION = $(patsubst probecc-%.tar.gz,%,$(PROBECC_SOURCE))
ifeq ($(PROBECC_VERSION),$(PROBECC_SOURCE))
$(error BR2_PACKAGE_PROBECC_TARBALL: $(PROBECC_SOURCE) is not probecc-VERSION.tar.gz, as make dist names it)
endif
PROBECC_SITE = $(patsubst %/,%,$(dir $(PROBECC_TARBALL)))
ifeq ($(findstring ://,$(PROBECC_TARBALL)),)
PROBECC_SITE_METHOD = file
endif
else
PROBECC_VERSION = local
PROBECC_SITE = $(BR2_EXTERNAL_PROBECC_PATH)
PROBECC_SITE_METHOD = local
endif
PROBECC_LICENSE = GPL-2.0
PROBECC_LICENSE_FILES = debian/copyright
# the tree's test outputs (tests/out: boot images, packages, this
# package's own test builds) are no source
PROBECC_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = --exclude /tests/out
HOST_PROBECC_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = --exclude /tests/out

# The rsync of the tree leaves .git out: the tree's version (git
# describe) goes into VERSION, which the Makefile reads outside git
# (probecc --version), as a tarball's own VERSION file is read.  It
# copies the tree's build products too: make clean, so that nothing of
# another configuration (the agents, TRACEDAT) is taken as built.
define PROBECC_SET_VERSION
	$(MAKE) -s --no-print-directory -C $(SRCDIR) print-version > $(@D)/VERSION
	$(MAKE) -s --no-print-directory -C $(@D) clean
endef
PROBECC_POST_RSYNC_HOOKS += PROBECC_SET_VERSION
HOST_PROBECC_POST_RSYNC_HOOKS += PROBECC_SET_VERSION

# probecc's --arch of the target (common/arch.def)
ifeq ($(BR2_mipsel),y)
PROBECC_ARCH = mipsel
else ifeq ($(BR2_mips64el),y)
PROBECC_ARCH = mips64el
else ifeq ($(BR2_mips64),y)
PROBECC_ARCH = mips64
else ifeq ($(BR2_x86_64),y)
PROBECC_ARCH = x86_64
else ifeq ($(BR2_aarch64),y)
PROBECC_ARCH = arm64
else ifeq ($(BR2_RISCV_64),y)
PROBECC_ARCH = riscv64
endif
PROBECC_ARCH_CC = $(shell echo $(PROBECC_ARCH) | tr a-z A-Z)_CC

# The agent: static (-static in its Makefile rule), built by the target
# compiler in place of the cross compiler the Makefile would name.  Its
# raw dumps are compressed with a static zlib when the configuration
# installs one (static or shared+static libraries).
PROBECC_MAKE_OPTS = $(PROBECC_ARCH_CC)="$(TARGET_CC)"
ifeq ($(BR2_SHARED_LIBS),)
PROBECC_DEPENDENCIES += zlib
PROBECC_MAKE_OPTS += agent_zlib_$(PROBECC_ARCH)=$(STAGING_DIR)/usr/lib/libz.a
endif

define PROBECC_BUILD_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(PROBECC_MAKE_OPTS) \
		initramfs/agent-$(PROBECC_ARCH)
endef

PROBECC_PROBES = $(call qstrip,$(BR2_PACKAGE_HOST_PROBECC_PROBES))
ifneq ($(PROBECC_PROBES),)
PROBECC_DEPENDENCIES += host-probecc
define PROBECC_INSTALL_PLAN
	$(INSTALL) -D -m 0644 $(BINARIES_DIR)/probecc/plan $(TARGET_DIR)/probecc/plan
endef
endif

define PROBECC_INSTALL_TARGET_CMDS
	$(INSTALL) -D -m 0755 $(@D)/initramfs/agent-$(PROBECC_ARCH) $(TARGET_DIR)/probecc/init
	$(PROBECC_INSTALL_PLAN)
endef

# What probecc needs of the kernel (docs/kernel-features.md; the test
# kernels' qemu-images/kernel/malta.config): the initramfs and devtmpfs
# the agent runs on, tracefs and the tracers the command line starts,
# kprobe and uprobe events, perf for the agent's callchains, boot-time
# tracing and bootconfig, kallsyms for the report's names.
define PROBECC_LINUX_CONFIG_FIXUPS
	$(call KCONFIG_ENABLE_OPT,CONFIG_BLK_DEV_INITRD)
	$(call KCONFIG_ENABLE_OPT,CONFIG_DEVTMPFS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_FTRACE)
	$(call KCONFIG_ENABLE_OPT,CONFIG_FUNCTION_TRACER)
	$(call KCONFIG_ENABLE_OPT,CONFIG_FUNCTION_GRAPH_TRACER)
	$(call KCONFIG_ENABLE_OPT,CONFIG_DYNAMIC_FTRACE)
	$(call KCONFIG_ENABLE_OPT,CONFIG_KPROBES)
	$(call KCONFIG_ENABLE_OPT,CONFIG_KPROBE_EVENTS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_UPROBES)
	$(call KCONFIG_ENABLE_OPT,CONFIG_UPROBE_EVENTS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_PERF_EVENTS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_BOOT_CONFIG)
	$(call KCONFIG_ENABLE_OPT,CONFIG_BOOTTIME_TRACING)
	$(call KCONFIG_ENABLE_OPT,CONFIG_KALLSYMS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_KALLSYMS_ALL)
	$(call KCONFIG_ENABLE_OPT,CONFIG_IKCONFIG)
	$(call KCONFIG_ENABLE_OPT,CONFIG_IKCONFIG_PROC)
endef

# host-probecc: the compiler and probecc-bootconfig, with the host
# libraries Buildroot builds.  TRACEDAT=no: Buildroot has no host
# libtracecmd, libtraceevent or libtracefs, so this report does not
# read raw dumps (text dumps it does).
HOST_PROBECC_DEPENDENCIES = host-dtc host-elfutils host-libarchive host-pkgconf host-zlib
HOST_PROBECC_MAKE_OPTS = $(HOST_CONFIGURE_OPTS) TRACEDAT=no

define HOST_PROBECC_BUILD_CMDS
	$(HOST_MAKE_ENV) $(MAKE) -C $(@D) $(HOST_PROBECC_MAKE_OPTS) \
		probecc bootconfig/probecc-bootconfig
endef

# Like uboot-tools' boot script: the probe file compiled into the
# images directory (the command line, the bootconfig, the plan).
ifneq ($(PROBECC_PROBES),)
define HOST_PROBECC_COMPILE_PROBES
	mkdir -p $(BINARIES_DIR)/probecc
	$(@D)/probecc $(PROBECC_PROBES) --arch $(PROBECC_ARCH) \
		-o $(BINARIES_DIR)/probecc/bootconfig \
		--plan $(BINARIES_DIR)/probecc/plan \
		--cmdline > $(BINARIES_DIR)/probecc/cmdline
endef
endif

define HOST_PROBECC_INSTALL_CMDS
	$(INSTALL) -D -m 0755 $(@D)/probecc $(HOST_DIR)/bin/probecc
	$(INSTALL) -D -m 0755 $(@D)/bootconfig/probecc-bootconfig \
		$(HOST_DIR)/bin/probecc-bootconfig
	$(HOST_PROBECC_COMPILE_PROBES)
endef

$(eval $(generic-package))
$(eval $(host-generic-package))
