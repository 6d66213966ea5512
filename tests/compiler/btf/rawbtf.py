# rawbtf.py: raw BTF made by hand for tests/compiler.test.sh's damaged
# cases, laid out as the kernel's Documentation/bpf/btf.rst says.
import struct


def t(name, kind, vlen, st, extra=b""):
    """One type: its name's string offset, kind, vlen, size or type, then its extra words."""
    return struct.pack("<III", name, kind << 24 | vlen, st) + extra


def write(path, types, strs):
    """@types and @strs behind a header of 24 bytes, into @path."""
    hdr = struct.pack("<HBBIIIII", 0xeb9f, 1, 0, 24, 0, len(types), len(types), len(strs))
    with open(path, "wb") as f:
        f.write(hdr + types + strs)
