#!/usr/bin/env python3
"""oracle.py: an independent check of the report goldens.

For each case of tests/report/cases/ with a report.json, read the case's
capture (the one raw file its args name) here, in Python, with none of
probecc's code, and recompute what report.json and stdout claim:

  dumps      the complete dumps (docs/plan.md "Dump framing": the first
             begin line's nonce, each chunk's length and CRC-32, the end
             line's counts); a capture with a dump cut or damaged is
             never "complete", one with every dump whole is never
             incomplete for a cut
  ring       each cpu line of the last complete dump (entries, overrun,
             dropped) as stdout prints it; "expect no lost" says their
             overrun + dropped (and the "[LOST N EVENTS]" lines of the
             console's ftrace dump), and holds only when that is 0
  hits       per probe of the probe file: the trace lines of the last
             complete dump (an event line "NAME: ...", a function
             tracer line "FUNC <-PARENT"), with the hits the kernel
             printed on the console at an oops or a panic (--console);
             report.json's hit times and stdout's counts
  before     init_time is dump 1's uptime less its agent_us, and stdout's
             "N before userspace" counts the hits before it (not when the
             timebase was measured: then times are the trace clock's)
  own        the agent's own hits (its "notrace" line and its mark
             "probecc-notrace PID NS" once in the trace, by PID: its PID's
             from its start, after its sched_process_exec when later, to
             the mark) are left out of the hits, and counted as
             report.json says; none without such a mark
  perf       report.json's samples per probe: the dump's perf and
             perf-user lines of that probe

A raw ring-buffer dump (binary records) gets the dumps check only.  A
case without report.json or without one capture and one probe file is
left out, and named.  A full run that checks fewer than MIN_CHECKED
cases fails: the oracle cannot pass by checking nothing.

usage: tests/report/oracle.py [--cases DIR] [CASE...]   (default: every
       case of DIR, tests/report/cases/; paths in args are the tree's)
Prints one line per case ("ok", "skip" or "FAIL" with what differs) and
exits 1 when a case differs or too few were checked.
"""
import json
import os
import re
import sys
import zlib

MIN_CHECKED = 20

FRAME = re.compile(rb'=== probecc dump ([0-9]+) (begin|chunk|end) ([^=]*)===(\r?)\n')


def read_dumps(raw):
    """The dumps of a capture: {N: (complete, body bytes, why)}, by the
    framing rules of docs/plan.md.  The boot's nonce is the first begin
    line's; chunk bytes are taken by count, never searched."""
    dumps = {}
    nonce = None
    cur = None          # [n, body, next chunk, total bytes]
    pos = 0
    while True:
        m = FRAME.search(raw, pos)
        if not m:
            break
        n, kind, rest, cr = int(m.group(1)), m.group(2), m.group(3).split(), m.group(4)
        pos = m.end()
        if kind == b'begin':
            if len(rest) != 1:
                continue
            if nonce is None:
                nonce = rest[0]
            if rest[0] != nonce:
                continue
            if cur is not None:
                dumps[cur[0]] = (False, cur[1], 'begins again before its end line')
            cur = [n, b'', 1, 0]
            dumps[n] = (False, b'', 'no end line')
            continue
        if cur is None or n != cur[0] or not rest or rest[-1] != nonce:
            continue
        if kind == b'chunk':
            if len(rest) != 4:
                continue
            k, length, crc = int(rest[0]), int(rest[1]), int(rest[2], 16)
            if cr:
                # the sink made every \n a \r\n: LEN counts the bytes
                # before that
                data = bytearray()
                while len(data) < length and pos < len(raw):
                    if raw[pos:pos + 2] == b'\r\n':
                        data += b'\n'
                        pos += 2
                    else:
                        data.append(raw[pos])
                        pos += 1
                data = bytes(data)
            else:
                data = raw[pos:pos + length]
                pos += length
            if k != cur[2] or len(data) != length or zlib.crc32(data) != crc:
                dumps[n] = (False, cur[1], 'damaged at chunk %d' % k)
                cur = None
                continue
            cur[1] += data
            cur[2] += 1
            cur[3] += length
            dumps[n] = (False, cur[1], 'no end line')
        else:
            if len(rest) != 3:
                continue
            chunks, nbytes = int(rest[0]), int(rest[1])
            ok = chunks == cur[2] - 1 and nbytes == cur[3]
            why = '' if ok else 'end line disagrees'
            # a text dump holds no NUL (a raw one's records after "--- raw ---" may)
            if ok and b'\0' in cur[1].partition(b'\n--- raw ---\n')[0]:
                ok, why = False, 'a NUL byte in its text'
            dumps[n] = (ok, cur[1], why)
            cur = None
    return dumps


def manifest(body):
    """The manifest lines of a dump body (before "--- trace ---") as
    lists of tab-separated fields, and the trace text after it."""
    text = body.decode('utf-8', errors='replace')
    head, sep, trace = text.partition('\n--- trace ---\n')
    return [l.split('\t') for l in head.split('\n') if l], trace if sep else ''


PROBE_KINDS = ('kprobe', 'kretprobe', 'uprobe', 'uretprobe', 'function', 'event')


def probe_names(path):
    """The probe names of a probe file: the word after the kind (for an
    event, its name after the system's colon)."""
    names = []
    for line in open(path, encoding='utf-8', errors='replace'):
        w = line.split('#')[0].split()
        if len(w) >= 2 and w[0] in PROBE_KINDS:
            n = w[1].split('{')[0]
            if w[0] == 'event':
                n = n.split(':')[-1]
            names.append((w[0], n))
    return names


# "TASK-PID [CPU] FLAGS TIME: REST" (the kernel's trace text; FLAGS may
# be absent in old formats)
TRACE_LINE = re.compile(r'^\s*(.+?-[0-9]+)\s+\[([0-9]+)\]\s+(?:\S+\s+)?([0-9]+\.[0-9]+): (.*)$')


def trace_hits(trace, names, pids=False):
    """(probe, time) of each hit in trace text: an event line "NAME: ..."
    of a probe, or a function tracer line "FUNC <-PARENT"; with @pids,
    (probe, time, pid)."""
    kinds = dict((n, k) for k, n in names)
    hits = []
    for line in trace.split('\n'):
        m = TRACE_LINE.match(line)
        if not m:
            continue
        rest = m.group(4)
        ev = rest.split(':', 1)[0] if ':' in rest.split(' ', 1)[0] else None
        pid = (int(m.group(1).rsplit('-', 1)[1]),) if pids else ()
        if ev is not None and ev in kinds and kinds[ev] != 'function':
            hits.append((ev, float(m.group(3))) + pid)
            continue
        w = rest.split()
        if len(w) >= 2 and w[1].startswith('<-') and kinds.get(w[0]) == 'function':
            hits.append((w[0], float(m.group(3))) + pid)
    return hits


def agent_own(dumps, complete, trace):
    """(PID, from, until, exclusive[, mark]) of the agent's own hits,
    which the report leaves out: dump 1's "own PID NS" line (its worker,
    in no PID list: from and until None, every hit of PID, when the trace
    has its mark "probecc-own PID NS" once, by PID; mark its time), or
    its "notrace PID NS" line (NS between the
    agent's start and its clock mark) and the mark "probecc-notrace PID
    NS" that PID wrote in the trace once (until: its time on the trace
    clock); from: the agent's start, NS less the timebase line's start
    before the mark, or, when later, the PID's sched_process_exec event
    (exclusive: the kernel's exec stays); from None for a PID other than
    1, the agent's worker: its every hit; None when any of it is
    missing, twice or another task's."""
    if 1 not in complete:
        return None
    m1 = dict((f[0], f[1:]) for f in manifest(dumps[1][1])[0])
    kinds = [k for k in ('notrace', 'own') if k in m1]
    if len(kinds) != 1 or len(m1[kinds[0]]) != 2 or len(m1.get('timebase', [])) != 4:
        return None
    kind = kinds[0]
    pid, ns = int(m1[kind][0]), int(m1[kind][1])
    start, mark = (int(x) for x in m1['timebase'][:2])
    if not start <= ns <= mark or (kind == 'own' and pid == 1):
        return None
    marks = []
    execs = []
    for line in trace.split('\n'):
        m = TRACE_LINE.match(line)
        if not m:
            continue
        task_pid = int(m.group(1).rsplit('-', 1)[1])
        if m.group(4) == 'tracing_mark_write: probecc-%s %d %d' % (kind, pid, ns):
            marks.append((float(m.group(3)), task_pid))
        elif m.group(4).startswith('sched_process_exec: ') and task_pid == pid:
            execs.append(float(m.group(3)))
    if len(marks) != 1 or marks[0][1] != pid:
        return None
    until = marks[0][0]
    if kind == 'own':
        return pid, None, None, False, until   # in no PID list: its every hit
    if pid != 1:
        return pid, None, until, False   # the agent's worker: its every hit
    frm = until - (ns - start) / 1e9
    ex = [t for t in execs if frm <= t <= until]
    if ex:
        return pid, max(ex), until, True
    return pid, frm, until, False


# the kernel's ftrace_dump_on_oops lines on a console:
# "[  9.159160] TASK-PID   CPU FLAGS TIMEus : REST"
CONSOLE_LINE = re.compile(r'^\[ *[0-9]+\.[0-9]+\] +(\S+-[0-9]+) +([0-9]+)\S* +([0-9]+)us : (.*)$')


PRINTK = re.compile(r'^\[ *[0-9]+\.[0-9]+\] (.*)$')
OOPS = re.compile(r'\[#[0-9]+\]')
LOST = re.compile(r'^CPU:[0-9]+ \[LOST (-?[0-9]+) EVENTS\]')


def console_trace(path):
    """The trace lines the kernel printed on the console at an oops or a
    panic, in the trace text's form (time in seconds), and the events its
    "CPU:N [LOST N EVENTS]" lines say were lost.  Only printk's lines
    (a "[ SECONDS] " stamp) after the kernel began to die (an oops
    header "[#N]" or a panic, the deaths the boot verdict names) count:
    anything else on a console any program could have printed."""
    out = []
    lost = 0
    dead = on = False
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\r\n').replace('\0', '')
        p = PRINTK.match(line)
        if not p:
            continue
        text = p.group(1)
        if (OOPS.search(text) and not text.startswith('Kernel panic')) or \
           'Kernel panic - not syncing: ' in text:
            dead = True
        if dead and text.startswith('Dumping ftrace buffer:'):
            on = True
            continue
        if not on:
            continue
        m = LOST.match(text)
        if m:
            lost += max(int(m.group(1)), 1)
            continue
        m = CONSOLE_LINE.match(line)
        if m:
            out.append('%s [%03d] . %d.%06d: %s' % (m.group(1), int(m.group(2)),
                       int(m.group(3)) // 1000000, int(m.group(3)) % 1000000, m.group(4)))
    return '\n'.join(out), lost


def check(cases_dir, case):
    """(status, message) of one case: 'ok', 'skip' or 'FAIL'."""
    d = os.path.join(cases_dir, case)
    words = ' '.join(l for l in open(os.path.join(d, 'args')) if not l.startswith('#')).split()
    if not os.path.isfile(os.path.join(d, 'report.json')):
        return 'skip', 'no report.json (refused before a report)'
    raws = [w for w in words if os.path.isfile(w) and not w.endswith('.probes')
            and words[words.index(w) - 1] not in ('--system-map', '--modules', '--console',
                                                  '--append', '--baseline', '--target')]
    if len(raws) != 1 or '--probes' not in words:
        return 'skip', 'not one capture and a probe file in its args'
    probes = words[words.index('--probes') + 1]
    if not os.path.isfile(probes):
        return 'skip', 'its probe file is missing (the case says so)'
    rep = json.load(open(os.path.join(d, 'report.json')))
    stdout = open(os.path.join(d, 'stdout'), encoding='utf-8', errors='replace').read()
    dumps = read_dumps(open(raws[0], 'rb').read())
    bad = []
    done = []

    complete = sorted(n for n, v in dumps.items() if v[0])
    if rep.get('dumps') != len(complete):
        bad.append('dumps: report.json %s, the capture %d complete' % (rep.get('dumps'), len(complete)))
    # complete: a capture with a dump cut or damaged is never complete
    # evidence; one whose dumps are whole may still be incomplete for
    # what is inside them (a line of no form the report reads), but then
    # not for a cut
    cut = ['dump %d %s' % (n, v[2]) for n, v in sorted(dumps.items()) if not v[0]]
    if cut and rep.get('complete'):
        bad.append('complete: report.json true, the capture: ' + '; '.join(cut))
    if not cut and dumps and 'cut short or damaged' in rep.get('incomplete', ''):
        bad.append('incomplete: report.json "%s", every dump of the capture whole' % rep['incomplete'])
    done.append('dumps')
    if not complete:
        return ('FAIL', '; '.join(bad)) if bad else ('ok', 'no complete dump: ' + ', '.join(done))
    if rep.get('dumps') == 0:
        return ('FAIL', '; '.join(bad)) if bad else ('ok', ', '.join(done))

    man, trace = manifest(dumps[complete[-1]][1])
    if any(f[0] in ('raw', 'rawz') for f in man) or not trace:
        return ('FAIL', '; '.join(bad)) if bad else ('ok', 'dumps only (a raw ring-buffer dump: its records are binary)')

    # the ring buffer: the cpu lines, as the report prints them, and the
    # entries the trace text holds
    cpus = [f for f in man if f[0] == 'cpu' and len(f) >= 8]
    for f in cpus:
        want = '  cpu %s: entries %s, overrun %s, dropped %s' % (f[1], f[3], f[5], f[7])
        if not any(l == want or l.startswith(want + ' (') for l in stdout.split('\n')):
            bad.append('ring buffer: no line "%s" in stdout' % want.strip())
    lost = sum(int(f[5]) + int(f[7]) for f in cpus)
    # the trace's own "CPU:N [LOST N EVENTS]" lines (print_trace_line())
    lost += sum(max(int(m.group(1) or 1), 1) for m in
                (re.match(r'^CPU:[0-9]+ \[LOST (-?[0-9]+ )?EVENTS\]', l.strip()) for l in trace.split('\n')) if m)
    console = None
    if '--console' in words:
        console = console_trace(words[words.index('--console') + 1])
        lost += console[1]
    for e in rep.get('expectations', []):
        if e['expect'].split('#')[0].split() == ['expect', 'no', 'lost']:
            said = re.match(r'([0-9]+) event\(s\) overrun or dropped', e['why'])
            if not said or int(said.group(1)) != lost or (e['pass'] and lost):
                bad.append('expect no lost: report.json "%s" (%s), the cpu lines, the trace and the console %d' % (e['why'], e['pass'], lost))
    done.append('ring buffer')

    # hits per probe, and before userspace (dump 1's uptime less the
    # agent's time since its exec, in microseconds)
    names = probe_names(probes)
    hits = trace_hits(trace, names)
    if '--console' in words and rep.get('console_trace', {}).get('events'):
        # hits the kernel printed at the oops or panic after the last
        # dump join the dump's (the same hit is in both at most once)
        hits = sorted(set(hits) | set(trace_hits(console[0], names)))
        done.append('console trace')
    own = agent_own(dumps, complete, trace)
    if own:
        drop = set((p, t) for p, t, pid in trace_hits(trace, names, pids=True)
                   if pid == own[0] and (own[2] is None or t <= own[2]) and
                   (own[1] is None or (own[1] < t if own[3] else own[1] <= t)))
        hits = [h for h in hits if h not in drop]
        n = rep.get('timebase', {}).get('agent_own_left_out', 0)
        if n != len(drop):
            bad.append('the agent\'s own: report.json %s left out, the trace %d' % (n, len(drop)))
        w = rep.get('agent_own', {})
        frm_bad = (w.get('from') is not None or w.get('worker') != own[0]) if own[1] is None else \
            (w.get('from') is None or abs(w['from'] - own[1]) > 1e-6)
        until_bad = (w.get('until', -1) is not None or abs(w.get('mark', -1) - own[4]) > 1e-6) \
            if own[2] is None else abs(w.get('until', -1) - own[2]) > 1e-6
        if (w.get('left_out') != len(drop) or frm_bad or until_bad or
                w.get('after_exec') != own[3]):
            bad.append('the agent\'s own: report.json\'s window %s, the trace (%s, %.6f, after exec %s)' %
                       (w, own[1], own[2], own[3]))
        done.append('agent\'s own')
    elif rep.get('timebase', {}).get('agent_own_left_out', 0) or 'agent_own' in rep:
        bad.append('the agent\'s own: report.json left %s out, with no mark of the agent\'s to end them' %
                   rep['timebase']['agent_own_left_out'])
    init = None
    if 1 in complete:
        m1 = dict((f[0], f[1:]) for f in manifest(dumps[1][1])[0])
        if 'uptime' in m1 and 'agent_us' in m1:
            init = round(float(m1['uptime'][0]) - int(m1['agent_us'][0]) / 1e6, 6)
            if rep.get('timebase', {}).get('measured'):
                init = None	# on the trace clock: the timebase's, not checked here
            elif rep.get('init_time', -1) == -1 and (init < 0 or any(
                    float(dict((f[0], f[1:]) for f in manifest(dumps[n][1])[0]).get('uptime', ['1e9'])[0])
                    < init for n in complete)):
                init = None	# no userspace start: the clock went back
            elif abs(rep.get('init_time', -1) - init) > 1e-6:
                bad.append('init_time: report.json %s, dump 1 %s' % (rep.get('init_time'), init))
    got = {}
    for h in rep.get('hits', []):
        got.setdefault(h['probe'], []).append(h['time'])
    for k, n in names:
        mine = sorted(t for p, t in hits if p == n)
        theirs = sorted(got.get(n, []))
        if mine != theirs:
            bad.append('hits of %s: report.json %d (%s), the trace %d (%s)'
                       % (n, len(theirs), theirs[:3], len(mine), mine[:3]))
        line = re.search(r'^  %s +([0-9]+) hit\(s\)(?:, first at [0-9.]+ s, ([0-9]+) before userspace|$)'
                         % re.escape(n), stdout, re.M)
        if line and int(line.group(1)) != len(mine):
            bad.append('hits of %s: stdout %s, the trace %d' % (n, line.group(1), len(mine)))
        tb = rep.get('timebase', {})
        if line and line.group(2) is not None and init is not None and not tb.get('measured'):
            before = sum(1 for t in mine if t < init)
            if int(line.group(2)) != before:
                bad.append('%s before userspace: stdout %s, the trace %d (init at %s)'
                           % (n, line.group(2), before, init))
    done.append('hits')

    # perf samples per probe: the dump's perf and perf-user lines
    pp = rep.get('perf', {}).get('probes', [])
    for p in pp:
        mine = sum(1 for f in man if f[0] in ('perf', 'perf-user') and len(f) > 1 and f[1] == p['probe'])
        if p['samples'] != mine:
            bad.append('perf samples of %s: report.json %d, the dump %d' % (p['probe'], p['samples'], mine))
    if pp:
        done.append('perf')
    return ('FAIL', '; '.join(bad)) if bad else ('ok', ', '.join(done))


def main(argv):
    cases_dir = 'tests/report/cases'
    if argv[:1] == ['--cases']:
        cases_dir = os.path.abspath(argv[1])
        argv = argv[2:]
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    cases = [os.path.basename(c.rstrip('/')) for c in argv] or sorted(os.listdir(cases_dir))
    failed = checked = 0
    for c in cases:
        status, msg = check(cases_dir, c)
        print('%s %s: %s' % ('FAIL' if status == 'FAIL' else status, c, msg))
        failed += status == 'FAIL'
        checked += status == 'ok'
    print('oracle: %d case(s) checked, %d differ, %d left out' % (checked, failed, len(cases) - checked - failed))
    if not argv and checked < MIN_CHECKED:
        print('oracle: fewer than %d cases checked: it proves nothing' % MIN_CHECKED)
        return 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
