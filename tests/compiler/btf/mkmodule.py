#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A module file with split BTF, as a kernel's build makes one
(scripts/Makefile.modfinal: pahole -J --btf_base vmlinux), for
tests/compiler.test.sh's module-BTF cases:

    python3 tests/compiler/btf/mkmodule.py OUTDIR

OUTDIR/modules/bonding.ko: tests/compiler/btf/bonding.c compiled for x86_64
(its FUNC symbols, those of kernel.c taken out: they are the kernel's),
with a .BTF section made by libbpf (Debian's libbpf1): bonding.c's BTF
(clang -target bpf -g) appended to a split BTF on kernel.btf and
deduplicated against it (btf__add_btf(), btf__dedup()), so that only the
module's own types are in it, numbered after the kernel's.
OUTDIR/modules-nobtf/bonding.ko: the same without its .BTF (a kernel
built without CONFIG_DEBUG_INFO_BTF_MODULES).
"""
import ctypes
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def split_btf(bpf_obj):
    lib = ctypes.CDLL("libbpf.so.1")
    lib.btf__parse.restype = ctypes.c_void_p
    lib.btf__parse.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    lib.btf__parse_raw.restype = ctypes.c_void_p
    lib.btf__parse_raw.argtypes = [ctypes.c_char_p]
    lib.btf__new_empty_split.restype = ctypes.c_void_p
    lib.btf__new_empty_split.argtypes = [ctypes.c_void_p]
    lib.btf__add_btf.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.btf__dedup.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.btf__raw_data.restype = ctypes.c_void_p
    lib.btf__raw_data.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
    base = lib.btf__parse_raw(os.path.join(HERE, "kernel.btf").encode())
    src = lib.btf__parse(bpf_obj.encode(), None)
    if not base or not src:
        sys.exit("mkmodule.py: libbpf cannot read kernel.btf or %s" % bpf_obj)
    split = lib.btf__new_empty_split(base)
    if not split or lib.btf__add_btf(split, src) < 0 or lib.btf__dedup(split, None):
        sys.exit("mkmodule.py: libbpf: the split BTF failed")
    n = ctypes.c_uint32()
    p = lib.btf__raw_data(split, ctypes.byref(n))
    return ctypes.string_at(p, n.value)


def main():
    out = sys.argv[1]
    tmp = tempfile.mkdtemp()
    src = os.path.join(HERE, "bonding.c")
    bpf = os.path.join(tmp, "bonding.bpf.o")
    ko = os.path.join(out, "modules", "bonding.ko")
    nobtf = os.path.join(out, "modules-nobtf", "bonding.ko")
    os.makedirs(os.path.dirname(ko), exist_ok=True)
    os.makedirs(os.path.dirname(nobtf), exist_ok=True)
    btf = os.path.join(tmp, "bonding.btf")
    prefix = "-fdebug-prefix-map=%s=." % ROOT
    subprocess.run(["clang", "-target", "bpf", "-g", "-O2", prefix, "-c", src,
                    "-o", bpf], check=True)
    with open(btf, "wb") as f:
        f.write(split_btf(bpf))
    subprocess.run(["clang", "--target=x86_64-linux-gnu", "-O2", "-c", src,
                    "-o", ko + ".tmp"], check=True)
    strip = ["llvm-objcopy", "--strip-symbol=register_netdevice",
             "--strip-symbol=pass_struct", "--strip-symbol=loopback_ops",
             "--remove-section=.comment"]
    subprocess.run(strip + [ko + ".tmp", nobtf], check=True)
    subprocess.run(strip + ["--add-section", ".BTF=" + btf, ko + ".tmp", ko],
                   check=True)
    for f in (ko + ".tmp", bpf, btf):
        os.unlink(f)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
