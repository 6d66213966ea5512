# probecc — plain Makefile in the style of dtc: each directory contributes
# a Makefile.<dir> fragment that this file includes.  Objects depend on
# the headers they include, as the compiler lists them (-MMD -MP, *.d).

CC       ?= gcc
CFLAGS   ?= -O2 -g
WARNINGS  = -Wall -Wextra -Werror
INCLUDES  = -Icommon -Icompiler -Itarget -Ibootargs -Ibootconfig -Ireport
ALL_CFLAGS = -std=gnu11 $(WARNINGS) $(CFLAGS) $(INCLUDES)
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
include target/Makefile.target
include bootargs/Makefile.bootargs
include bootconfig/Makefile.bootconfig
include report/Makefile.report
include compiler/Makefile.compiler
include initramfs/Makefile.initramfs
include qemu-images/Makefile.qemu
include tests/Makefile.tests

-include $(DEPFILES)

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
