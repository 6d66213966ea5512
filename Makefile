# probecc — plain Makefile in the style of dtc: each directory contributes
# a Makefile.<dir> fragment that this file includes.  Objects depend on
# the headers they include, as the compiler lists them (-MMD -MP, *.d).

CC       ?= gcc
# CPPFLAGS and LDFLAGS too, as distributions and build systems pass them
# (dpkg-buildflags, Buildroot's HOST_CONFIGURE_OPTS, Yocto's BUILD_*)
CFLAGS   ?= -O2 -g
WARNINGS  = -Wall -Wextra -Werror
INCLUDES  = -Icommon -Ibootconfig -Ifacts -Idumpread -Icompiler -Ireport -Ibootargs -Icli
ALL_CFLAGS = -std=gnu11 $(WARNINGS) $(CFLAGS) $(INCLUDES) $(CPPFLAGS)
SANITIZE  = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Kernels, packages and images are cached outside the clone, keyed by
# what goes into them (see qemu-images/README.md).
PROBECC_CACHE ?= $(HOME)/.cache/probecc
export PROBECC_CACHE

all:

# Every C object of the host programs, plain and ASan/UBSan.
%.o: %.c
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

%.asan.o: %.c
	$(CC) $(ALL_CFLAGS) $(SANITIZE) -MMD -MP -c -o $@ $<

include common/Makefile.common
include facts/Makefile.facts
include bootargs/Makefile.bootargs
include bootconfig/Makefile.bootconfig
include dumpread/Makefile.dumpread
include report/Makefile.report
include compiler/Makefile.compiler
include cli/Makefile.cli
include initramfs/Makefile.initramfs
include qemu-images/Makefile.qemu
include tests/Makefile.tests
include tests/fuzz/Makefile.fuzz

-include $(DEPFILES)

.PHONY: all clean check check-host check-deps check-kernel check-kernel-x86 check-regress check-rootfs check-hang check-6.12 check-riscv64 check-dbg check-lava demo install uninstall check-package
clean:
	rm -f $(CLEAN_FILES)

# The main job on the embedded default: examples/bond0.probes compiled
# against Debian's MIPS Malta kernel (its capture, one boot the first
# time), booted in QEMU, and the report: each probe's hits with their
# callers named (bond0: insmod -> do_init_module -> bonding_init ->
# bond_create -> register_netdevice).  The agent's raw dump is one option
# away: make demo DEMO_OPTS=--show.
DEMO_PROBES ?= examples/bond0.probes
DEMO_ARCH ?= mipsel
DEMO_OPTS ?=
demo: qemu-deps
	$(MAKE) all
	qemu-images/run-probes --arch $(DEMO_ARCH) --report $(DEMO_OPTS) $(DEMO_PROBES)
	@echo "make demo DEMO_OPTS=--show: the agent's raw dump too (manifest, items, the trace as the kernel printed it)"

# make install PREFIX=/usr/local DESTDIR=: the programs, every agent built
# (initramfs/agent-ARCH, the host ASan build excepted) as
# lib/probecc/ARCH/agent, where "probecc --agent-path ARCH" finds it from
# the installed binary, the man pages, docs/*.md and examples/.  The
# agents are listed when the recipe runs, after "all" built them, so an
# arch added to initramfs/ is installed without a change here.
PREFIX  ?= /usr/local
DESTDIR ?=
INSTALL ?= install
BINDIR   = $(DESTDIR)$(PREFIX)/bin
PKGLIBDIR = $(DESTDIR)$(PREFIX)/lib/probecc
MANDIR   = $(DESTDIR)$(PREFIX)/share/man
DOCDIR   = $(DESTDIR)$(PREFIX)/share/doc/probecc
INSTALL_PROGRAMS = probecc bootconfig/probecc-bootconfig
MAN1 = docs/man/probecc.1 docs/man/probecc-bootconfig.1
MAN5 = docs/man/probecc.probes.5
# The QEMU helpers, run from PKGLIBDIR/qemu-images (qemu-images/paths.sh
# finds probecc and the agents from there, machines.sh and deps.sh the
# arch table in PKGLIBDIR/common); build-kernel is not among them: it
# needs the source tree (kernel-patches/).
QEMU_HELPERS = fetch mkimage boot run-probes capture target \
	       extract-dump rootfs deps.sh lava-job lava-device
# sourced by the helpers, not run: installed without the x bits
QEMU_SOURCED = machines.sh paths.sh
# PREFIX/bin names for the helpers a user calls
QEMU_LINKS = run-probes capture extract-dump lava-job

install: all
	$(INSTALL) -d $(BINDIR) $(PKGLIBDIR) $(MANDIR)/man1 $(MANDIR)/man5 $(DOCDIR)/examples
	$(INSTALL) -m 755 $(INSTALL_PROGRAMS) $(BINDIR)/
	@for a in initramfs/agent-*; do \
		case $$a in *-asan|*.*) continue;; esac; \
		[ -f "$$a" ] || continue; \
		arch=$${a#initramfs/agent-}; \
		echo "$(INSTALL) -D -m 755 $$a $(PKGLIBDIR)/$$arch/agent"; \
		$(INSTALL) -D -m 755 "$$a" "$(PKGLIBDIR)/$$arch/agent" || exit 1; \
	done
	$(INSTALL) -d $(PKGLIBDIR)/qemu-images/rc $(PKGLIBDIR)/initramfs $(PKGLIBDIR)/common
	$(INSTALL) -m 755 $(addprefix qemu-images/,$(QEMU_HELPERS)) $(PKGLIBDIR)/qemu-images/
	$(INSTALL) -m 644 $(addprefix qemu-images/,$(QEMU_SOURCED)) $(PKGLIBDIR)/qemu-images/
	$(INSTALL) -m 755 common/arch-rows common/apt-download $(PKGLIBDIR)/common/
	$(INSTALL) -m 644 common/arch.def $(PKGLIBDIR)/common/
	$(INSTALL) -m 755 qemu-images/rc/* $(PKGLIBDIR)/qemu-images/rc/
	$(INSTALL) -m 755 initramfs/mkinitramfs $(PKGLIBDIR)/initramfs/
	for h in $(QEMU_LINKS); do \
		ln -sf ../lib/probecc/qemu-images/$$h $(BINDIR)/probecc-$$h || exit 1; \
	done
	$(INSTALL) -m 644 $(MAN1) $(MANDIR)/man1/
	$(INSTALL) -m 644 $(MAN5) $(MANDIR)/man5/
	$(INSTALL) -m 644 docs/*.md $(DOCDIR)/
	$(INSTALL) -m 644 examples/* $(DOCDIR)/examples/

uninstall:
	rm -f $(addprefix $(BINDIR)/,$(notdir $(INSTALL_PROGRAMS))) $(addprefix $(BINDIR)/probecc-,$(QEMU_LINKS))
	rm -f $(addprefix $(MANDIR)/man1/,$(notdir $(MAN1))) $(addprefix $(MANDIR)/man5/,$(notdir $(MAN5)))
	rm -rf $(PKGLIBDIR) $(DOCDIR)
