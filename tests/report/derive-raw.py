#!/usr/bin/env python3
# Raw dumps ("dump SINK raw", docs/plan.md "Raw dump") for the report's
# golden tests, from a real one (docs/trace-cmd.md):
#
#   python3 tests/report/derive-raw.py trim BOOT.raw   # -> mipsel-raw/ttyS1.raw
#   python3 tests/report/derive-raw.py trim BOOT.raw OUT.raw
#   python3 tests/report/derive-raw.py                 # -> derived/raw-*.raw
#
# Each dump's body (`probecc report --extract N`) is read as its records
# ("raw\tNAME\tLEN\n" + LEN bytes), edited as a hostile board could, and
# framed again as the agent frames it (the boot's nonce, chunks of at
# most 64 KiB with their lengths and CRC-32s), so that every frame is
# valid and only the edit reaches the record reader.
import os
import re
import struct
import subprocess
import sys
import zlib

CHUNK_MAX = 64 * 1024
D = 'tests/report/derived/'
BASE = 'tests/report/mipsel-raw/ttyS1.raw'
MARK = b'--- raw ---\n'


def nonce(data):
    return re.search(rb'=== probecc dump \d+ begin ([0-9a-f]{16}) ===', data).group(1)


def body(path, n):
    # exit 3: a dump cut or damaged, its checked part printed
    r = subprocess.run(['./probecc', 'report', '--extract', str(n), path],
                       stdout=subprocess.PIPE)
    if r.returncode not in (0, 3):
        raise SystemExit('%s: probecc report --extract %d: exit %d' % (path, n, r.returncode))
    return r.stdout


def records(b):
    """(head, [[name, data], ...]) of a raw body."""
    i = b.index(MARK) + len(MARK)
    head, recs = b[:i], []
    while i < len(b):
        nl = b.find(b'\n', i)
        h = b[i:nl].split(b'\t')
        if nl < 0 or h[0] not in (b'raw', b'rawz') or len(h) < 3 or not h[2].isdigit():
            break	# the records as far as they go (a hostile or cut one)
        n = int(h[2])
        data = b[nl + 1:nl + 1 + n]
        try:
            recs.append([h[1], zlib.decompress(data) if h[0] == b'rawz' else data])
        except zlib.error:
            break
        i = nl + 1 + n
    return head, recs


def unrecords(head, recs):
    return head + b''.join(b'raw\t%s\t%d\n' % (k, len(v)) + v for k, v in recs)


def frame(n, no, body, end=True):
    """Dump @n with @body, framed as initramfs/dump.c frames it."""
    cut = body.index(MARK) + len(MARK)
    pieces = [body[:cut]] + [body[i:i + CHUNK_MAX] for i in range(cut, len(body), CHUNK_MAX)]
    out = b'=== probecc dump %d begin %s ===\n' % (n, no)
    for i, p in enumerate(pieces, 1):
        out += b'=== probecc dump %d chunk %d %d %08x %s ===\n' % (
            n, i, len(p), zlib.crc32(p), no) + p
        if not p.endswith(b'\n'):
            out += b'\n'
    if end:
        out += b'=== probecc dump %d end %d %d %s ===\n' % (n, len(pieces), len(body), no)
    return out


def dumps(path):
    data = open(path, 'rb').read()
    return nonce(data), [records(body(path, n)) for n in (1, 2)]


def write(name, no, ds, end2=True):
    with open(D + name, 'wb') as f:
        for n, (head, recs) in enumerate(ds, 1):
            f.write(frame(n, no, unrecords(head, recs), end=end2 or n != len(ds)))


def edit(name, fn, end2=True):
    """@fn(n, head, recs) edits dump n's records in place."""
    no, ds = dumps(BASE)
    for n, (head, recs) in enumerate(ds, 1):
        r = fn(n, head, recs)
        if r is not None:
            ds[n - 1] = (r, recs)
    write(name, no, ds, end2)


def rec(recs, name):
    for r in recs:
        if r[0] == name:
            return r
    raise KeyError(name)


if len(sys.argv) == 4 and sys.argv[1] == 'many':
    # the real dumps, then N one-byte format records of distinct names in
    # dump 2 (tests/tracedat.test.sh times the report on them)
    no, ds = dumps(BASE)
    ds[1][1][:0] = [[b'events/s%d/e%d/format' % (i // 100, i), b'x'] for i in range(int(sys.argv[2]))]
    with open(sys.argv[3], 'wb') as f:
        for n, (head, recs) in enumerate(ds, 1):
            f.write(frame(n, no, unrecords(head, recs)))
    sys.exit(0)

if len(sys.argv) == 5 and sys.argv[1] == 'seed':
    # tests/fuzz/seeds.sh raw: each dump's records (rawz inflated), kallsyms
    # cut to 64 lines, as tests/fuzz/fuzz-raw.c takes them (no empty line
    # added: the report refuses one, and the seeds stopped there)
    for out, (head, recs) in zip(sys.argv[3:], dumps(sys.argv[2])[1]):
        ks = b''.join(v for k, v in recs if k == b'kallsyms')
        recs[:] = [r for r in recs if r[0] != b'kallsyms']
        if ks:
            recs.append([b'kallsyms', b''.join(l + b'\n' for l in ks.split(b'\n')[:64] if l)])
        with open(out, 'wb') as f:
            f.write(unrecords(b'', recs))
    sys.exit(0)

if len(sys.argv) == 3 and sys.argv[1] == 'bomb':
    # 257 rawz records of 1 MiB of zeros each (1 KiB compressed): more
    # than the report inflates in all (tests/tracedat.test.sh)
    no, ds = dumps(BASE)
    piece = zlib.compress(bytes(1 << 20), 9)
    z = b''.join(b'rawz\tkallsyms\t%d\t%d\n' % (len(piece), 1 << 20) + piece for _ in range(257))
    with open(sys.argv[2], 'wb') as f:
        for n, (head, recs) in enumerate(ds, 1):
            f.write(frame(n, no, unrecords(head, recs) + (z if n == 2 else b'')))
    sys.exit(0)

if len(sys.argv) in (3, 4) and sys.argv[1] == 'trim':
    # kallsyms cut to the lines of the functions the trace names (and
    # the symbol after each, which ends it): 1.1 MB -> a few hundred
    # bytes; into mipsel-raw/ttyS1.raw, or the path given after BOOT.raw
    out_path = sys.argv[3] if len(sys.argv) == 4 else BASE
    no, ds = dumps(sys.argv[2])
    keep = (b'_stext', b'register_netdevice', b'do_mkdirat', b'bond_create')
    for head, recs in ds:
        ks = b''.join(v for k, v in recs if k == b'kallsyms')
        lines = ks.split(b'\n')
        out = []
        for i, l in enumerate(lines):
            f = l.split(b' ')
            if len(f) >= 3 and f[2] in keep:
                out += lines[i:i + 2]
        recs[:] = [r for r in recs if r[0] != b'kallsyms']
        if out:
            recs.append([b'kallsyms', b'\n'.join(out) + b'\n'])
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, 'wb') as f:
        for n, (head, recs) in enumerate(ds, 1):
            f.write(frame(n, no, unrecords(head, recs)))
    sys.exit(0)


def setrec(name, data, only=None):
    def fn(n, head, recs):
        if only is None or n == only:
            rec(recs, name)[1] = data
    return fn


def page_commit(value, fmt='<I', only=2):
    """Dump @only's first ring-buffer page with its commit set to @value."""
    def fn(n, head, recs):
        if n == only:
            r = rec(recs, b'per_cpu/cpu0/trace_pipe_raw')
            r[1] = r[1][:8] + struct.pack(fmt, value) + r[1][8 + struct.calcsize(fmt):]
    return fn


HP = open(BASE, 'rb').read()
HP = HP[HP.index(b'raw\tevents/header_page\t'):]
HP = HP[HP.index(b'\n') + 1:][:205]

# A record header line of 300 bytes: a name of 290, longer than the
# 256 bytes read_records() once copied it into (ASan: stack overflow).
edit('raw-long-name.raw', lambda n, h, r: r.insert(0, [b'events/' + b'a' * 280 + b'/format', b'x\n']))
# header_page's data not ending in a NUL and its commit line cut after
# the name: the search for "offset:" ran past the data (ASan: heap over-read).
edit('raw-header-cut.raw', setrec(b'events/header_page', HP[:HP.index(b'commit;') + 7]))
# a page whose commit is larger than the page's data (4096 > 4084), and
# one whose commit is all ones: libtraceevent's kbuffer read past the page
edit('raw-commit-4096.raw', page_commit(4096))
edit('raw-commit-ones.raw', page_commit(0xffffffff))
# dump 2's page: a padding event whose length (0xfffffffc) brings
# kbuffer's 32-bit sum back to itself: libtraceevent looped for ever
def padding_wraps(n, head, recs):
    if n == 2:
        r = rec(recs, b'per_cpu/cpu0/trace_pipe_raw')
        r[1] = (r[1][:8] + struct.pack('<III', 16, 29 | 1 << 5, 0xfffffffc) + r[1][20:])


edit('raw-padding-wraps.raw', padding_wraps)
# header_page with no timestamp field: libtracecmd refuses it, and its
# error path crashed (tracecmd_close of a half-made handle)
edit('raw-no-timestamp.raw', setrec(b'events/header_page', HP.replace(b'timestamp', b'stamp')))
# header_page's data offset 2^64-1: offset + size wrapped to 4083, past
# the 1024..65536 check
edit('raw-offset-wraps.raw', setrec(b'events/header_page',
                                    HP.replace(b'offset:12;', b'offset:18446744073709551615;')))
# a record named "events" before "events/header_page": a file where a
# directory must go
edit('raw-file-is-dir.raw', lambda n, h, r: r.insert(0, [b'events', b'x\n']))
# dump 2 cut (no end line): its page holds the only netdev hit, and the
# report reads the last complete dump (dump 1), as for text dumps
edit('raw-dump2-no-end.raw', lambda n, h, r: None, end2=False)
# netdev's print fmt "__get_str(name)" mutated to "__get_str%name)" (a
# fuzz-raw find): libtraceevent folds the two atoms, each strtoull() 0,
# and tep_parse_event() ended by SIGFPE (trace-cmd restore's, the
# report's child's)
def print_fmt_mod_zero(n, head, recs):
    r = rec(recs, b'events/kprobes/netdev/format')
    r[1] = r[1].replace(b'__get_str(name)', b'__get_str%name)')


edit('raw-print-fmt-mod-zero.raw', print_fmt_mod_zero)
# netdev's name as a zero-size field ("char name[]", the rest of the
# record for libtraceevent) at offset 94 of records of 28 bytes (a
# fuzz-raw find, on ftrace/print's "char buf[]"): libtraceevent takes
# the record's size less the offset as the string's length, a negative
# that became malloc(4294967247) in tep_print_event()
def field_past_record(n, head, recs):
    r = rec(recs, b'events/kprobes/netdev/format')
    r[1] = (r[1].replace(b'field:__data_loc char[] name;\toffset:12;\tsize:4;',
                         b'field:char name[];\toffset:94;\tsize:0;')
            .replace(b'__get_str(name)', b'REC->name'))


edit('raw-field-past-record.raw', field_past_record)
