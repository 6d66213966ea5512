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


def netdev_btf(path, types, strs, next_id, struct_id, ret=1):
    """Raw BTF into @path: @types (ids 1 to @next_id - 1) and @strs, then
    "RET register_netdevice(struct net_device *dev)" at the next three ids,
    @struct_id the struct, @ret the id of its return type.  The names'
    string offsets are looked up in @strs, which must hold "dev" and
    "register_netdevice"."""
    off = lambda name: strs.index(b"\0" + name + b"\0") + 1
    types += t(0, 2, 0, struct_id)                                       # struct net_device *
    types += t(0, 13, 1, ret, struct.pack("<II", off(b"dev"), next_id))  # RET (dev)
    types += t(off(b"register_netdevice"), 12, 1, next_id + 1)          # register_netdevice
    write(path, types, strs)
