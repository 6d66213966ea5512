#!/usr/bin/python3
# relog.py CAPTURE > LAVA.log: CAPTURE (a console's or a dump channel's
# bytes) as a LAVA job log holds it, through LAVA's own code: pexpect's
# UTF-8 decoding with codec_errors="replace" (lava_dispatcher/shell.py
# ShellCommand), ShellLogger.write() in reads of spawn_maxread bytes
# (its \r, ESC, '"' and "\n\n" rewriting), and lava_common.log.dump(),
# the record writer of lava-run's stderr.  Run with /usr/bin/python3
# (lava-dispatcher's python), after qemu-images/deps.sh lava.
import codecs
import sys

from lava_common.log import dump
from lava_dispatcher.shell import ShellLogger


class Records:
    """The logger ShellLogger writes to: one record per console line."""

    namespace = None

    def _out(self, lvl, msg):
        sys.stdout.write(dump({"dt": "2026-11-28T00:00:00.000000", "lvl": lvl, "msg": msg}) + "\n")

    def target(self, line):
        self._out("target", line)

    def feedback(self, line, namespace=None):
        self._out("feedback", line)


def main():
    data = open(sys.argv[1], "rb").read()
    maxread = int(sys.argv[2]) if len(sys.argv) > 2 else 4092  # base.jinja2 spawn_maxread
    log = ShellLogger(Records())
    log.namespace = None
    dec = codecs.getincrementaldecoder("utf-8")(errors="replace")
    for i in range(0, len(data), maxread):
        text = dec.decode(data[i:i + maxread])
        if text:
            log.write(text)
    tail = dec.decode(b"", final=True)
    if tail:
        log.write(tail)
    log.flush(force=True)
    sys.stdout.write(dump({"dt": "2026-11-28T00:00:01.000000", "lvl": "results",
                           "msg": {"case": "job", "definition": "lava", "result": "pass"}}) + "\n")


main()
