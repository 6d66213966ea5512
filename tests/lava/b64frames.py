#!/usr/bin/python3
# b64frames.py CAPTURE > OUT: CAPTURE with every chunk of its dumps in
# the b64 form (common/dumpframe.h) the agent writes under
# probecc_signals=lava, as the agent decides it: a chunk of bytes LAVA's
# log would change (anything but printable ASCII, TAB and single
# newlines) goes as base64 in lines of 76 characters, the rest stays
# plain.  Written from the format's description, not from the agent's
# code, so a test of the reader on its output checks both against it.
import base64
import re
import sys

CHUNK = re.compile(rb"=== probecc dump (\d+) chunk (\d+) (\d+) ([0-9a-f]{8}) ([0-9a-f]{16}) ===\r?\n")
SAFE = re.compile(rb"[\t\x20-\x7e]*(\n[\t\x20-\x7e]+)*\n?")


def main():
    data = open(sys.argv[1], "rb").read()
    out = sys.stdout.buffer
    pos = 0
    while True:
        m = CHUNK.search(data, pos)
        if not m:
            break
        crlf = m.group(0).endswith(b"\r\n")
        n = int(m.group(3))
        at = m.end()
        body = bytearray()
        while len(body) < n:     # the capture's CR-LF as LF (frame.c's rule)
            if crlf and data[at:at + 2] == b"\r\n":
                at += 1
            body.append(data[at])
            at += 1
        body = bytes(body)
        if not body.endswith(b"\n"):
            at += 2 if crlf and data[at:at + 2] == b"\r\n" else 1
        out.write(data[pos:m.start()])
        if SAFE.fullmatch(body) and not body.startswith(b"\n"):
            out.write(data[m.start():at])
        else:
            out.write(b"=== probecc dump %s b64 %s %s %s %s ===\n" % m.group(1, 2, 3, 4, 5))
            for i in range(0, n, 57):
                out.write(base64.b64encode(body[i:i + 57]) + b"\n")
        pos = at
    out.write(data[pos:])


main()
