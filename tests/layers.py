#!/usr/bin/env python3
# tests/layers.py [TOP]: the folders of probecc include only downward.
#
# Reads every #include "..." of the product folders' .c and .h files,
# finds the folder of each included header (the including file's own
# folder first, as the compiler's quote search does, then the -I
# folders) and fails, naming the files, on
#  - a folder cycle: A includes from B and B from A (directly or through
#    other folders), with one file of each step of the cycle;
#  - an include against the order below (docs/developing.md, "Layout"): a folder
#    may include from the folders of lower rank only, never from a
#    sibling of the same rank or from above.
# Exit 0 and one line per folder on success, 1 with a line per problem.
import os
import re
import sys

# rank: a folder may include from lower ranks only
#   common <- bootconfig, facts <- compiler <- report, bootargs <- cli
# initramfs/ (the agent, a program of its own) takes only common/'s
# framing and line headers.
ORDER = {
    'common': 0,
    'bootconfig': 1, 'facts': 1, 'initramfs': 1,
    'compiler': 2,
    'report': 3, 'bootargs': 3,
    'cli': 4,
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else '.'
    folders = [f for f in ORDER if os.path.isdir(os.path.join(top, f))]
    owner = {}          # header basename -> folder
    for f in folders:
        for name in os.listdir(os.path.join(top, f)):
            if name.endswith(('.h', '.def')):
                if name in owner and owner[name] != f:
                    print(f'{f}/{name}: the header name is also {owner[name]}/{name}')
                    return 1
                owner[name] = f
    edges = {}          # (from folder, to folder) -> first "file:line includes header"
    for f in sorted(folders):
        for name in sorted(os.listdir(os.path.join(top, f))):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(f, name)
            with open(os.path.join(top, path), errors='replace') as fh:
                for n, line in enumerate(fh, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    inc = m.group(1)
                    if os.path.exists(os.path.join(top, f, inc)):
                        to = os.path.normpath(os.path.join(f, inc)).split(os.sep)[0]
                    else:
                        to = owner.get(os.path.basename(inc))
                    if to is None or to == f:
                        continue    # generated (version.h) or its own
                    edges.setdefault((f, to), f'{path}:{n} includes {inc}')
    bad = 0
    # folder cycles: a path back to where it started, each step named
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    seen = set()
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    cyc = path + [start]
                    key = frozenset(zip(cyc, cyc[1:]))
                    if key in seen:
                        continue
                    seen.add(key)
                    bad += 1
                    print('folder cycle ' + ' -> '.join(cyc) + ':')
                    for a, b in zip(cyc, cyc[1:]):
                        print('  ' + edges[(a, b)])
                elif nxt not in path and nxt > start:
                    stack.append((nxt, path + [nxt]))
    for (a, b), where in sorted(edges.items()):
        if ORDER[b] >= ORDER[a]:
            bad += 1
            print(f'{where}: {a}/ may include only from below it '
                  f'(common <- bootconfig, facts <- compiler <- report, bootargs <- cli)')
    if bad:
        return 1
    for f in sorted(folders, key=lambda f: (ORDER[f], f)):
        below = sorted(b for a, b in edges if a == f)
        print(f'{f}: {", ".join(below) if below else "(nothing)"}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
