#!/usr/bin/env python3
# Make the dumps of tests/report/derived/ from the real ones (README.md,
# "Derived dumps"): run from the top of the tree after `make probecc`,
#
#   python3 tests/report/derive.py
#
# An edit of what the agent dumped (an item, a cpu line, a traced string)
# is made on the dump's body, which `probecc report --extract` gives, and
# the body is framed again as the agent frames it (common/dumpframe.h:
# the boot's nonce, a chunk of the manifest and chunks of the trace cut
# at line ends, each with its length and CRC-32, the end line's counts),
# so that only the edit differs.  Damage on the way (a cut, a byte
# changed, a chunk lost, CRLF) is made on the raw bytes instead.
import os
import re
import subprocess
import zlib

CHUNK_MAX = 64 * 1024
D = 'tests/report/derived/'
CI = 'tests/report/mipsel-ci/ttyS1.raw'


def raw(path):
    with open(path, 'rb') as f:
        return f.read()


def nonce(data):
    return re.search(rb'=== probecc dump \d+ begin ([0-9a-f]{16}) ===', data).group(1)


def body(path, n):
    return subprocess.run(['./probecc', 'report', '--extract', str(n), path],
                          check=True, stdout=subprocess.PIPE).stdout


def chunks(data):
    """Pieces of at most CHUNK_MAX bytes, each cut after its last newline."""
    while data:
        k = min(len(data), CHUNK_MAX)
        nl = data.rfind(b'\n', 0, k)
        if nl >= 0:
            k = nl + 1
        yield data[:k]
        data = data[k:]


def frame(n, nonce, body):
    """Dump @n with @body, framed as initramfs/dump.c frames it."""
    cut = body.index(b'--- trace ---\n') + len(b'--- trace ---\n')
    pieces = list(chunks(body[:cut])) + list(chunks(body[cut:]))
    out = b'=== probecc dump %d begin %s ===\n' % (n, nonce)
    for i, p in enumerate(pieces, 1):
        out += b'=== probecc dump %d chunk %d %d %08x %s ===\n' % (
            n, i, len(p), zlib.crc32(p), nonce) + p
        if not p.endswith(b'\n'):
            out += b'\n'
    return out + b'=== probecc dump %d end %d %d %s ===\n' % (
        n, len(pieces), len(body), nonce)


def edited(path, edit, out, dumps=(1, 2)):
    """Every dump of @path with @edit(n, body) applied, framed again."""
    data = raw(path)
    no = nonce(data)
    text = b''.join(frame(n, no, edit(n, body(path, n))) for n in dumps)
    with open(D + out, 'wb') as f:
        f.write(text)


def sub(pattern, repl, only=None):
    def edit(n, b):
        if only and n != only:
            return b
        new = re.sub(pattern, repl, b)
        assert new != b, pattern
        return new
    return edit


def refused(n, b):
    b = sub(rb'item\tnetdev\tarmed\tkprobe_events\t[^\n]*',
            b'item\tnetdev\tfailed\tkprobe_events\tNo such file or directory | trace_kprobe: error: Failed to register probe event | Command: p:kprobes/netdev register_netdevice name=+0(%r4):string | ^ at 16')(n, b)
    return sub(rb'item\tnetdev\tarmed\tset_event\t[^\n]*',
               b'item\tnetdev\tfailed\tset_event\tInvalid argument')(n, b)


edited(CI, refused, 'arming-refused.raw')
edited(CI, sub(rb'cpu\t0\tentries\t(\d+)\toverrun\t0\tdropped\t0\n',
               rb'cpu\t0\tentries\t\1\toverrun\t12\tdropped\t3\ncpu\t1\tentries\t0\toverrun\t0\tdropped\t7\n', 2),
       'lost.raw')
edited(CI, sub(rb'cpu\t0\tentries\t(\d+)\toverrun\t0\tdropped\t0\n',
               rb'cpu\t0\tentries\t\1\toverrun\t9223372036854775807\tdropped\t0\ncpu\t1\tentries\t0\toverrun\t9223372036854775807\tdropped\t0\n', 2),
       'lost-overflow.raw')
edited(CI, sub(rb'(perf\tnetdev\t\d+\t0\t)94\t94\t', rb'\g<1>95\t95\t', 2), 'perf-unmatched.raw')
# agent_us below 0: the target's CLOCK_MONOTONIC read less at dump 1 than
# at the agent's start (seen once on loongson3-o32, initramfs/README.md)
edited(CI, sub(rb'agent_us\t\d+\n', b'agent_us\t-3310061\n', 1), 'clock-back.raw')
edited(CI, lambda n, b: b.replace(b'name="bond%d"', b'name="bond\x1b[2J\x07%d"'),
       'escape-in-string.raw')
# A traced string with one '"' (a netdev may be named a"b: the kernel's
# dev_valid_name() allows it): the lines after it are still events.
edited(CI, lambda n, b: b.replace(b'name="bond%d"', b'name="a"b"'), 'odd-quote.raw')
# The same, the trace's entries count one more than its event lines: an
# entry no line shows is one not read.
def entries_plus(b, k):
    """@b with its trace's entries count @k more (an event line added)."""
    return re.sub(rb'entries-in-buffer/entries-written: (\d+)/(\d+)',
                  lambda m: b'entries-in-buffer/entries-written: %d/%d' % (int(m.group(1)) + k, int(m.group(2)) + k), b)


edited(CI, lambda n, b: entries_plus(b, 1), 'entries-missing.raw')
# A trace_marker write holding a newline and an event line after it (any
# program may write that text; the kernel prints it as it is), the
# entries count one more for the marker itself: the line looks like a
# netdev hit the boot never had, and a forged header line under it says
# the buffer holds that many entries.
def marker_forged(n, b):
    if n != 2:
        return b
    i = b.index(b'          insmod-94      [000] .....    35.422593')
    forge = (b'              sh-99      [000] .....    30.000000: tracing_mark_write: hi\n'
             b'          insmod-94      [000] .....    30.000001: netdev: (register_netdevice+0x0/0x898) name="eth0"\n'
             b'# entries-in-buffer/entries-written: 7/7   #P:1\n')
    return entries_plus(b[:i], 1) + forge + b[i:]


edited(CI, marker_forged, 'marker-forged.raw')
# A NUL byte at the start of dump 2's trace (a broken page; the frame's
# CRC-32 covers it, the agent framed what it read): every string ends
# there, so every hit after it went unread.
edited(CI, sub(b'--- trace ---\n', b'--- trace ---\n\0', only=2), 'nul-in-text.raw')
# The ring buffer's own "CPU:0 [LOST 100 EVENTS]" in dump 2's trace
# (print_trace_line()), before insmod's hits: "expect no lost" fails.
edited(CI, sub(b'(          insmod-94      \[000\] \.\.\.\.\.    35\.422593)',
               b'CPU:0 [LOST 100 EVENTS]\n\\1', only=2), 'trace-lost.raw')
# The dump's own uprobe_events items naming their files with "..": the
# report reads a guest's path inside --sysroot only.
edited('tests/report/derived/uprobe-vaddr.raw', sub(b' /bin/busybox:0x4005e0', b' /../outside/busybox:0x4005e0'),
       'uprobe-vaddr-dotdot.raw')
edited('tests/report/x86_64-ustack/ttyS1.raw', sub(b' /bin/usym-nopie:', b' /../outside/usym-nopie:'),
       'ustack-dotdot.raw')
# A stack deeper than a kernel writes (2,000 frames after the function
# tracer's first one, 2,000 more addresses in the perf callchain): the
# frames past the kernel's bound are cut, and the cut is said.
edited(CI, lambda n, b: re.sub(rb'(perf\tnetdev\t[^\n]*)\n', lambda m: m.group(1) + b''.join(b' %08x' % (0x81000000 + 4 * i) for i in range(2000)) + b'\n',
                               b.replace(b' => ftrace_graph_call\n', b' => ftrace_graph_call\n' + b''.join(b' => deep_%d\n' % i for i in range(2000)), 1)),
       'deep-stack.raw')
# An initcall's finish stamped before its start (per-CPU trace clocks are
# not synchronised), and one started twice in its task: no duration.
IC = 'tests/report/mipsel-initcalls/ttyS1.raw'
edited(IC, lambda n, b: b.replace(b'2.146433: initcall_finish: func=crypto_algapi_init',
                                  b'1.000000: initcall_finish: func=crypto_algapi_init'),
       'initcall-backwards.raw')
def start_twice(n, b):
    new = b.replace(b'2.146433: initcall_finish: func=crypto_algapi_init',
                    b'2.100000: initcall_start: func=crypto_algapi_init+0x0/0xd4\n'
                    b'            init-1       [000] .....     2.146433: initcall_finish: func=crypto_algapi_init')
    return entries_plus(new, 1) if new != b else b


edited(IC, start_twice, 'initcall-twice.raw')
# crypto_algapi_init one second slower (557 -> 1557 ms), the rest of the
# boot as it was: a regression the boot's speed must not divide away;
# and its finish at an absurd 1e20 s, in a baseline boot.
edited(IC, lambda n, b: b.replace(b'2.146433: initcall_finish: func=crypto_algapi_init',
                                  b'3.146433: initcall_finish: func=crypto_algapi_init'),
       'initcall-slower.raw')
# The same, every other initcall renamed (zNAME): crypto_algapi_init is
# the one initcall this boot shares with the real one, so a boot speed
# taken from it would hide its own slowdown.
edited(IC, lambda n, b: re.sub(rb'(initcall_finish: func=)(?!crypto_algapi_init)', rb'\1z',
                               b.replace(b'2.146433: initcall_finish: func=crypto_algapi_init',
                                         b'3.146433: initcall_finish: func=crypto_algapi_init')),
       'initcall-slower-alone.raw')
edited(IC, lambda n, b: b.replace(b'    2.146433: initcall_finish: func=crypto_algapi_init',
                                  b' 100000000000000000000.000000: initcall_finish: func=crypto_algapi_init'),
       'initcall-absurd.raw')
# A perf-user line whose DYN_SIZE is 2^63 + len/2: 2 * DYN wraps to the
# stack's length (the check that the counts agree must not).
def huge_dyn(n, b):
    if n != 2:
        return b
    lines = b.split(b'\n')
    for i, l in enumerate(lines):
        if l.startswith(b'perf-user\t'):
            f = l.split(b'\t')
            f[9] = b'%d' % ((1 << 63) + len(f[10]) // 2)
            lines[i] = b'\t'.join(f)
            break
    return b'\n'.join(lines)


edited('tests/report/x86_64-qsort/ttyS1.raw', huge_dyn, 'perf-user-dyn-wraps.raw')
# A traced function name with ESC and SUB, which XML cannot hold (the SVG
# and JUnit outputs write \xNN; found by tests/fuzz/fuzz-report).
edited(CI, lambda n, b: b.replace(b': register_netdevice <-bond_create',
                                  b': register\x1b\x1a_netdevice <-bond_create'),
       'control-in-name.raw')

# Bytes that are not UTF-8 in a traced string (a kprobe's name field):
# 0xff, a lone continuation byte 0x80, a cut sequence 0xe2 0x82, then a
# valid U+20AC; --json and --perfetto stay valid UTF-8.
edited(CI, lambda n, b: b.replace(b'name="bond%d"', b'name="bo\xff\x80nd\xe2\x82%d\xe2\x82\xac"'),
       'invalid-utf8.raw')

# The hostile-input review's reproducer: a traced file name (a kprobe "+0(arg2):string" on
# do_sys_openat2) holding the old frame lines and a whole made-up dump in
# this layout, with the boot's own nonce and right CRC-32s, whose items
# all hold.  It sits in the trace of both dumps of arming-refused.raw:
# the kernel's refusals must stay the verdict.
fake_body = (b'probecc-manifest\t1\nstage\twindow\nitem\tnetdev\tarmed\tkprobe_events\tx\n'
             b'--- trace ---\n')


def forged(n, b):
    b = refused(n, b)
    no = nonce(raw(CI))
    name = (b'x\n=== probecc dump 1 end ===\n=== probecc dump 2 begin ===\n' + fake_body +
            b'=== probecc dump 2 end ===\n' + frame(3, no, fake_body) + b'y')
    hit = (b'              sh-90      [000] .....    30.000000: openat: '
           b'(do_sys_openat2+0x0/0xd8) name="' + name + b'"\n')
    return b + hit


edited(CI, forged, 'forged-frame.raw')

# Damage on the way, on the raw bytes.
ci = raw(CI)
hit = ci.index(b'netdev: (register_netdevice', ci.index(b'=== probecc dump 2 begin'))
with open(D + 'cut-in-dump2.raw', 'wb') as f:
    f.write(ci[:hit + 20])
tracer = ci.index(b'# tracer')
with open(D + 'cut-in-dump1.raw', 'wb') as f:
    f.write(ci[:tracer + 25])
with open(D + 'dump1-no-end.raw', 'wb') as f:
    f.write(re.sub(rb'=== probecc dump 1 end [^\n]*\n', b'', ci))
with open(D + 'damaged-chunk.raw', 'wb') as f:
    f.write(ci[:hit] + ci[hit:].replace(b'bond%d', b'bond%e', 1))
# lost-chunk: dump 2's chunk 1 (its line and its bytes) gone
m = re.search(rb'=== probecc dump 2 chunk 1 (\d+) [^\n]*\n', ci)
with open(D + 'lost-chunk.raw', 'wb') as f:
    f.write(ci[:m.start()] + ci[m.end() + int(m.group(1)):])
# a console that turns "\n" into "\r\n" (OPOST|ONLCR, as the kernel sets it)
with open(D + 'crlf-console.raw', 'wb') as f:
    f.write(ci.replace(b'\n', b'\r\n'))
# kernel lines between the frames (a console): one with an old frame line
# after kernel text, one with an end line of another nonce; neither is
# taken, the verdicts stand
d2 = ci.index(b'=== probecc dump 2 begin')
with open(D + 'stray-frames.raw', 'wb') as f:
    f.write(ci[:d2] + b'[   30.100000] audit: name=x=== probecc dump 2 end ===\n'
            b'[   30.200000] audit: name=x=== probecc dump 1 end 2 1387 0123456789abcdef ===\n' + ci[d2:])
# a begin line of another nonce between the dumps, and a whole dump of
# that nonce after the agent's, whose items all hold: not the boot's
# (the first begin line's), not taken, the verdicts stand
with open(D + 'stray-begin.raw', 'wb') as f:
    f.write(ci[:d2] + b'=== probecc dump 2 begin 0123456789abcdef ===\n' + ci[d2:] +
            frame(3, b'0123456789abcdef', fake_body))
# Times the kernel never prints (it prints "%5llu.%06lu" or "%12llu"):
# strtod() reads "3.04E0956" and "1e999" as infinity, which hung the
# SVG's axis (found by fuzz-report) and wrote "inf" into the JSON.  The
# hit is not taken, the last dump's start is not known.
edited(CI, lambda n, b: sub(rb'    4\.741102: register_netdevice', b' 3.04E0956: register_netdevice', 2)(
    n, sub(rb'uptime\t31\.170\n', b'uptime\t1e999\n', 2)(n, b)), 'time-not-decimal.raw')

# "perf-mmap" lines the report refuses (docs/plan.md): from the x86_64
# boot of tests/ustack.test.sh with its dynamic program; libc's mapping
# in dump 2 made malformed, one way each: the line counted as unread,
# no verdict passes.
QS = 'tests/report/x86_64-qsort/ttyS1.raw'
LIBC = rb'(perf-mmap\t\d+\t\d+\t[0-9a-f]+\t)([0-9a-f]+)(\t[0-9a-f]+\t/lib/x86_64-linux-gnu/libc\.so\.6\n)'
edited(QS, sub(LIBC, rb'\g<1>ffffffffffffffff\3', 2), 'perf-mmap-wraps.raw')
edited(QS, sub(LIBC, rb'\g<1>\2\t/lib/x86_64-linux-gnu/libc.so.6\n', 2), 'perf-mmap-field.raw')
edited(QS, sub(rb'(perf-mmap\t\d+\t)(\d+)(\t[0-9a-f]+\t[0-9a-f]+\t[0-9a-f]+\t/lib/x86_64-linux-gnu/libc\.so\.6\n)',
               rb'\g<1>2147483648\3', 2), 'perf-mmap-pid.raw')
edited(QS, sub(rb'\t/lib/x86_64-linux-gnu/libc\.so\.6\n', rb'\tlib/x86_64-linux-gnu/libc.so.6\n', 2),
       'perf-mmap-path.raw')

# A kprobe's "stack user" sample in a kernel thread (docs/plan.md
# "perf-user"): the x86_64 ksync boot's two samples written as perf
# writes a kernel thread's (ABI 0, no registers, no stack), their kernel
# callchains kept: the report says "no user context".
KS = 'tests/report/x86_64-ksync/ttyS1.raw'
edited(KS, sub(rb'(perf-user\tksync\t\d+\t\d+\t\d+\t\d+)\t\d+\t([0-9a-f]+)\t[^\t]*\t\d+\t[^\t]*\t',
               rb'\1\t0\t\2\t-\t0\t-\t', 2), 'ksync-kthread.raw')

# The agent's "notrace" line (docs/plan.md), from the x86_64 boot of
# examples/args.probes (one dump): its time moved past the agent's clock
# mark, where the agent never writes it; the report takes no such
# window (it would leave out what the agent traced): nothing left out.
AR = 'tests/report/x86_64-args/ttyS1.raw'
edited(AR, sub(rb'\nnotrace\t1\t\d+\n', rb'\nnotrace\t1\t99999999999999\n'),
       'notrace-past-mark.raw', dumps=(1,))
# The same boot again with the agent's mark "probecc-notrace 1 NS" (the
# end of its own hits on the trace clock): the mark twice, and the mark
# written by another task (sh-77): the report takes no end it cannot
# trust and leaves nothing out.  The trace's entries count one more for
# the second mark, as the kernel would count it.
AM = 'tests/report/x86_64-args/ttyS1-mark.raw'
MARK = rb'(\n\s*)init-1(\s+\[\d+\] \S+\s+[0-9.]+: tracing_mark_write: probecc-notrace 1 \d+\n)'
ENTRIES = rb'entries-in-buffer/entries-written: (\d+)/(\d+)'


def entries(k):
    """The trace's entries count @k more (a line added or taken out)."""
    return sub(ENTRIES, lambda m: b'entries-in-buffer/entries-written: %d/%d' %
               (int(m.group(1)) + k, int(m.group(2)) + k))


edited(AM, lambda n, b: entries(1)(n, sub(MARK, rb'\1init-1\2\1init-1\2')(n, b)),
       'notrace-mark-twice.raw', dumps=(1,))
edited(AM, sub(MARK, rb'\1  sh-77\2'), 'notrace-mark-other-task.raw', dumps=(1,))
# A kernel before 5.8 (no set_event_notrace_pid): the agent writes no
# notrace line and no mark but its note (initramfs/agent.c
# notrace_buffer()); the report keeps its hits and says so.  The
# trace's entries count one fewer, for the mark taken out.


def before_5_8(n, b):
    b = sub(rb'\nnotrace\t1\t\d+\n',
            b"\nnote\tnotrace\tno set_event_notrace_pid (a kernel before 5.8): the agent's own hits are in the trace\n")(n, b)
    return entries(-1)(n, sub(MARK, rb'\n')(n, b))


edited(AM, before_5_8, 'notrace-before-5.8.raw', dumps=(1,))

# The agent's worker in no PID list (its manifest's "own PID NS" line
# and mark "probecc-own PID NS"), from the Malta boot of
# examples/args.probes (one dump): the mark written by another task
# (sh-77); the line's PID 1 (the real init's, never the worker's) with
# the mark PID 1's; both an own and a notrace line.  The report leaves
# nothing out of any of them, and says why.
AO = 'tests/report/mipsel-args-own/ttyS1.raw'
OWN = rb'(\n\s*)init-(\d+)(\s+\[\d+\] \S+\s+[0-9.]+: tracing_mark_write: probecc-own )(\d+)( \d+\n)'
edited(AO, sub(OWN, rb'\1  sh-77\3\4\5'), 'own-mark-other-task.raw', dumps=(1,))
edited(AO, lambda n, b: sub(rb'\nown\t\d+\t', rb'\nown\t1\t')(n, sub(OWN, rb'\1init-1\g<3>1\5')(n, b)),
       'own-pid-1.raw', dumps=(1,))
edited(AO, sub(rb'\n(own\t\d+\t\d+\n)', rb'\n\1notrace\t1\t1\n'), 'own-and-notrace.raw', dumps=(1,))

# A module file under --modules cut short (bonding.ko's first 4,000
# bytes): unreadable, named with why in every output.
KO = 'tests/report/mipsel-6.1/modules/kernel/drivers/net/bonding/bonding.ko'
os.makedirs(D + 'modules-cut/kernel/drivers/net/bonding', exist_ok=True)
with open(D + 'modules-cut/kernel/drivers/net/bonding/bonding.ko', 'wb') as f:
    f.write(raw(KO)[:4000])

# The Malta overlay boot of make check-rootfs (tests/report/mipsel-yourboot,
# the agent's mark at 14.221454 s, the kernel's exec of /probecc/init
# at 14.137343 s, 2.9 ms before the agent's start as the mark puts it
# there): the agent's start (the timebase line's START_NS) 5 ms
# earlier, as when the trace clock runs slower than CLOCK_BOOTTIME over
# the agent's first 81 ms (a loaded QEMU: a final CI run's exec fell
# after the start so mapped).  The window then opens after the exec
# event, which stays a hit (expect ... == /probecc/init passes).
YB = 'tests/report/mipsel-yourboot/ttyS1.raw'
edited(YB, sub(rb'\ntimebase\t(\d+)\t',
               lambda m: b'\ntimebase\t%d\t' % (int(m.group(1)) - 5000000)),
       'yourboot-stamps-cross.raw')

# A real Loongson-3 boot whose dump 1 STOP_NS went back before its
# MARKED_NS (tests/report/loongson3-clock-back): dump 2's too, so that
# when the last dump's recording stopped is not known; its mark still
# gives the offset.
LC = 'tests/report/loongson3-clock-back/ttyS1.raw'
edited(LC, sub(rb'(\ntimebase\t\d+\t\d+\t\d+\t)\d+\n', rb'\g<1>1000\n', 2),
       'clock-back-last-stop.raw')
