#!/usr/bin/env python3
# validate.py DIR: the machine outputs of one probecc report run in DIR
# parse as what they claim to be (tests/report.test.sh): each file is
# valid UTF-8; report.json and perfetto.json are JSON (RFC 8259);
# perfetto.json follows the Trace Event Format (every event has "ph",
# "pid", "tid", "name"; every one but metadata a "ts" in microseconds;
# instants a scope "s" of g, p or t; every "sf" and every frame's
# "parent" names a frame of "stackFrames"); timeline.svg and junit.xml
# are well-formed XML.  Prints what is wrong and exits 1, or exits 0.
import json
import os
import sys
import xml.etree.ElementTree as ET

d = sys.argv[1]
bad = []
for name in sorted(os.listdir(d)):
    path = os.path.join(d, name)
    try:
        text = open(path, 'rb').read().decode('utf-8')
    except UnicodeDecodeError as e:
        bad.append(f'{name}: not UTF-8: {e}')
        continue
    try:
        if name.endswith('.json'):
            doc = json.loads(text)
        elif name.endswith(('.svg', '.xml')):
            ET.fromstring(text)
            continue
        else:
            continue
    except (ValueError, ET.ParseError) as e:
        bad.append(f'{name}: does not parse: {e}')
        continue
    if name != 'perfetto.json':
        continue
    frames = doc.get('stackFrames', {})
    for k, f in frames.items():
        if 'name' not in f or ('parent' in f and f['parent'] not in frames):
            bad.append(f'{name}: frame {k}: {f}')
    for i, e in enumerate(doc.get('traceEvents', [])):
        for key in ('ph', 'pid', 'tid', 'name'):
            if key not in e:
                bad.append(f'{name}: event {i} has no "{key}": {e}')
        if e.get('ph') != 'M' and not isinstance(e.get('ts'), (int, float)):
            bad.append(f'{name}: event {i} has no numeric "ts": {e}')
        if e.get('ph') == 'i' and e.get('s') not in ('g', 'p', 't'):
            bad.append(f'{name}: instant event {i} has scope {e.get("s")!r}')
        if 'sf' in e and e['sf'] not in frames:
            bad.append(f'{name}: event {i}: sf {e["sf"]} is no frame')
        if 'args' in e and not isinstance(e['args'], dict):
            bad.append(f'{name}: event {i}: args is not an object')
for b in bad[:10]:
    print(b)
sys.exit(1 if bad else 0)
