# probecc — plain Makefile in the style of dtc: each directory contributes
# a Makefile.<dir> fragment that this file includes.

CC       ?= gcc
CFLAGS   ?= -O2 -g
WARNINGS  = -Wall -Wextra -Werror
ALL_CFLAGS = -std=gnu11 $(WARNINGS) $(CFLAGS) -Icompiler -Ibootconfig
SANITIZE  = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Kernels, packages and images are cached outside the clone, keyed by
# what goes into them (see qemu-images/README.md).
PROBECC_CACHE ?= $(HOME)/.cache/probecc
export PROBECC_CACHE

all:

include bootconfig/Makefile.bootconfig
include report/Makefile.report
include compiler/Makefile.compiler
include initramfs/Makefile.initramfs
include qemu-images/Makefile.qemu
include tests/Makefile.tests

.PHONY: all clean check check-kernel demo
clean:
	rm -f $(CLEAN_FILES)

# The main job on the embedded default: examples/bond0.probes compiled
# for Debian's MIPS Malta kernel, booted in QEMU, the trace shown.
DEMO_PROBES ?= examples/bond0.probes
DEMO_ARCH ?= mipsel
demo: qemu-deps
	$(MAKE) all
	qemu-images/run-probes --arch $(DEMO_ARCH) --show $(DEMO_PROBES)
