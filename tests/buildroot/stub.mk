# tests/buildroot.sh: package/probecc/probecc.mk run outside Buildroot,
# its commands called the way Buildroot's infrastructure calls them
# (package/pkg-generic.mk of Buildroot 2026.08-rc1-25-ge991fa0716: the
# rsync of a local site, the POST_RSYNC hooks, BUILD_CMDS and
# INSTALL_CMDS run with $(@D) the package's build directory;
# package/Makefile.in's HOST_CONFIGURE_OPTS, TARGET_MAKE_ENV;
# package/pkg-utils.mk's KCONFIG_ENABLE_OPT).  What Buildroot would
# build first is the host's here: the host libraries (Debian's, where
# Buildroot builds host-dtc, host-elfutils, ...) and the target
# compiler (Debian's cross gcc; Buildroot's wrapper's --sysroot is
# -I/-L of a scratch staging directory).
# Variables from the command line: OUT (scratch), TREE (the probecc
# tree), BR2_* (the configuration), TARGET_CC.
BUILD_DIR := $(OUT)/build
HOST_DIR := $(OUT)/host
STAGING_DIR := $(OUT)/staging
TARGET_DIR := $(OUT)/target
BINARIES_DIR := $(OUT)/images
BR2_EXTERNAL_PROBECC_PATH := $(TREE)
INSTALL := install
SED := sed -i -e
Q := @
HOSTCC := gcc
HOST_CPPFLAGS := -I$(HOST_DIR)/include
HOST_CFLAGS := -O2 -I$(HOST_DIR)/include
HOST_LDFLAGS := -L$(HOST_DIR)/lib -Wl,-rpath,$(HOST_DIR)/lib
HOST_MAKE_ENV = GIT_DIR=. PATH=$(HOST_DIR)/bin:$(PATH)
HOST_CONFIGURE_OPTS = $(HOST_MAKE_ENV) CC="$(HOSTCC)" GCC="$(HOSTCC)" \
	CPPFLAGS="$(HOST_CPPFLAGS)" CFLAGS="$(HOST_CFLAGS)" LDFLAGS="$(HOST_LDFLAGS)"
TARGET_MAKE_ENV = GIT_DIR=. PATH=$(HOST_DIR)/bin:$(PATH)
RSYNC_VCS_EXCLUSIONS = --exclude .svn --exclude .git --exclude .hg --exclude .bzr --exclude CVS
qstrip = $(strip $(subst ",,$(1)))
KCONFIG_DOT_CONFIG = $(OUT)/linux.config
define KCONFIG_ENABLE_OPT
	$(Q)if ! grep -q '^$(strip $(1))=[my]' $(KCONFIG_DOT_CONFIG); then \
		$(SED) '/^\(# \)\?$(strip $(1))\>/d' $(KCONFIG_DOT_CONFIG) && \
		echo '$(strip $(1))=y' >> $(KCONFIG_DOT_CONFIG); \
	fi
endef
generic-package :=
host-generic-package :=

include $(TREE)/package/probecc/probecc.mk

SRCDIR := $(TREE)
.PHONY: host target linux-config
host: $(BUILD_DIR)/host-probecc-local/.stamp_installed
target: $(BUILD_DIR)/probecc-local/.stamp_installed

$(BUILD_DIR)/host-probecc-local/.stamp_installed:
	mkdir -p $(@D) $(HOST_DIR)/bin $(BINARIES_DIR)
	rsync -au --chmod=u=rwX,go=rX $(HOST_PROBECC_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS) \
		$(RSYNC_VCS_EXCLUSIONS) $(SRCDIR)/ $(@D)
	$(foreach hook,$(HOST_PROBECC_POST_RSYNC_HOOKS),$(call $(hook)))
	$(HOST_PROBECC_BUILD_CMDS)
	$(HOST_PROBECC_INSTALL_CMDS)
	touch $@

$(BUILD_DIR)/probecc-local/.stamp_installed:
	mkdir -p $(@D) $(TARGET_DIR)
	rsync -au --chmod=u=rwX,go=rX $(PROBECC_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS) \
		$(RSYNC_VCS_EXCLUSIONS) $(SRCDIR)/ $(@D)
	$(foreach hook,$(PROBECC_POST_RSYNC_HOOKS),$(call $(hook)))
	$(PROBECC_BUILD_CMDS)
	$(PROBECC_INSTALL_TARGET_CMDS)
	touch $@

# host-probecc from a release tarball (BR2_PACKAGE_PROBECC_TARBALL: the
# host package takes PROBECC_SOURCE, _SITE and _VERSION, as pkg-generic.mk
# gives a host package the target's when it has none): the file method's
# copy into DL_DIR, support/download/check-hash's check of its sha256
# against the hash file (BR2_GLOBAL_PATCH_DIR/probecc/VERSION/probecc.hash;
# no hash for it is an error there too), the default extract command
# (--strip-components=1), then the same BUILD_CMDS and INSTALL_CMDS.
DL_DIR := $(OUT)/dl
PROBECC_HASH_FILE = $(BR2_GLOBAL_PATCH_DIR)/probecc/$(PROBECC_VERSION)/probecc.hash
.PHONY: host-tarball print-version
print-version:
	@echo '$(PROBECC_VERSION) $(PROBECC_SITE_METHOD) $(PROBECC_SITE) $(PROBECC_SOURCE)'
ifneq ($(PROBECC_TARBALL),)
host-tarball: $(BUILD_DIR)/host-probecc-$(PROBECC_VERSION)/.stamp_installed
$(BUILD_DIR)/host-probecc-$(PROBECC_VERSION)/.stamp_installed:
	mkdir -p $(@D) $(HOST_DIR)/bin $(BINARIES_DIR) $(DL_DIR)/probecc
	cp $(PROBECC_SITE)/$(PROBECC_SOURCE) $(DL_DIR)/probecc/
	want=$$(awk '$$1 == "sha256" && $$3 == "$(PROBECC_SOURCE)" { print $$2 }' $(PROBECC_HASH_FILE)); \
	got=$$(sha256sum $(DL_DIR)/probecc/$(PROBECC_SOURCE) | cut -d' ' -f1); \
	[ -n "$$want" ] || { echo "ERROR: No hash found for $(PROBECC_SOURCE)" >&2; exit 3; }; \
	[ "$$want" = "$$got" ] || { echo "ERROR: $(PROBECC_SOURCE) has wrong sha256 hash: expected $$want, got $$got" >&2; exit 1; }
	gzip -d -c $(DL_DIR)/probecc/$(PROBECC_SOURCE) | tar --strip-components=1 -C $(@D) -xf -
	$(HOST_PROBECC_BUILD_CMDS)
	$(HOST_PROBECC_INSTALL_CMDS)
	touch $@
endif

# the kernel's .config after the fixups (linux/linux.mk applies each
# enabled package's <PKG>_LINUX_CONFIG_FIXUPS)
linux-config:
	: > $(KCONFIG_DOT_CONFIG)
	$(PROBECC_LINUX_CONFIG_FIXUPS)
