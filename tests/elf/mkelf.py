#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hostile ELF kernels for the ELF readers' bad-* cases, built from scratch
(no toolchain, so the bytes are the same everywhere): a tiny x86_64
ET_EXEC "vmlinux" with .text, .symtab (register_netdevice, FUNC),
.strtab and .shstrtab, then damaged one way per file.

    python3 tests/elf/mkelf.py OUTDIR

good.vmlinux          the undamaged file
entsize0.vmlinux      .symtab sh_entsize 0 (was a SIGFPE)
truncated.vmlinux     good.vmlinux less its last byte (was "stripped")
symtab-past.vmlinux   .symtab's sh_offset + sh_size past the end
shnum-huge.vmlinux    e_shnum 0xffff: the section headers past the end
mcount-reversed.vmlinux  __start_mcount_loc after __stop_mcount_loc (was
                      a range of 2^64 - 16 bytes: "out of memory")
"""
import struct
import sys


def build(entsize=24, symoff_delta=0, shnum=None, mcount=False):
    text = b"\xc3" * 16
    strtab = b"\0register_netdevice\0"
    extra = b""
    if mcount:
        # NOTYPE GLOBAL markers in .text, the start after the stop
        start = len(strtab)
        strtab += b"__start_mcount_loc\0"
        stop = len(strtab)
        strtab += b"__stop_mcount_loc\0"
        extra = struct.pack("<IBBHQQ", start, 0x10, 0, 1, 0xffffffff81000010, 0)
        extra += struct.pack("<IBBHQQ", stop, 0x10, 0, 1, 0xffffffff81000000, 0)
    shstr = b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    sym0 = b"\0" * 24
    # st_name, st_info (GLOBAL FUNC), st_other, st_shndx 1, value, size
    sym1 = struct.pack("<IBBHQQ", 1, 0x12, 0, 1, 0xffffffff81000000, 16)
    symtab = sym0 + sym1 + extra
    off = 64
    text_off = off
    off += len(text)
    off = (off + 7) & ~7
    sym_off = off
    off += len(symtab)
    str_off = off
    off += len(strtab)
    shs_off = off
    off += len(shstr)
    off = (off + 7) & ~7
    shoff = off
    n = 5

    def sh(name, typ, flags, addr, offset, size, link, info, align, ent):
        return struct.pack("<IIQQQQIIQQ", name, typ, flags, addr, offset,
                           size, link, info, align, ent)
    shdrs = sh(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    shdrs += sh(1, 1, 6, 0xffffffff81000000, text_off, len(text), 0, 0, 16, 0)
    shdrs += sh(7, 2, 0, 0, sym_off + symoff_delta, len(symtab), 3, 1, 8,
                entsize)
    shdrs += sh(15, 3, 0, 0, str_off, len(strtab), 0, 0, 1, 0)
    shdrs += sh(23, 3, 0, 0, shs_off, len(shstr), 0, 0, 1, 0)
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
    eh = ident + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, 0xffffffff81000000,
                             0, shoff, 0, 64, 56, 0, 64,
                             n if shnum is None else shnum, 4)
    img = bytearray(eh)
    img += b"\0" * (text_off - len(img)) + text
    img += b"\0" * (sym_off - len(img)) + symtab + strtab + shstr
    img += b"\0" * (shoff - len(img)) + shdrs
    return bytes(img)


def main():
    out = sys.argv[1]
    good = build()
    files = {
        "good.vmlinux": good,
        "entsize0.vmlinux": build(entsize=0),
        "truncated.vmlinux": good[:-1],
        "symtab-past.vmlinux": build(symoff_delta=4096),
        "shnum-huge.vmlinux": build(shnum=0xffff),
        "mcount-reversed.vmlinux": build(mcount=True),
    }
    for name, data in files.items():
        with open(f"{out}/{name}", "wb") as f:
            f.write(data)


main()
