#!/usr/bin/env python3
# tests/layers.py [TOP]: the folders of probecc include and call only
# downward, and no two files call each other.
#
# Reads every #include "..." of the product folders' .c and .h files,
# finds the folder of each included header (the including file's own
# folder first, as the compiler's quote search does, then the -I
# folders) and fails, naming the files, on
#  - a folder cycle: A includes from B and B from A (directly or through
#    other folders), with one file of each step of the cycle;
#  - an include against the order below (docs/developing.md, "Layout"): a folder
#    may include from the folders of lower rank only, never from a
#    sibling of the same rank or from above;
#  - a library's private header (NAME-local.h, NAME-int.h) included from
#    another folder: the others read its public header;
#  - by calls, not only includes (a call needs no include of the file
#    that defines it): a function defined in two files of one program (a
#    FILE-none.c build alternative aside, it hides who is called), a
#    call circle between files (A calls into B, B back into A, directly
#    or through others: each step named with the function called), a
#    call into a folder of the same or higher rank.  A call is a name
#    followed by "(" in a .c file, comments and strings left out, that
#    another file of the same program defines without "static"; the
#    agent (initramfs/) is a program of its own.
# Exit 0 and one line per folder on success, 1 with a line per problem.
import os
import re
import sys

# rank: a folder may include from lower ranks only
#   common <- bootconfig, facts <- dumpread, compiler <- report, bootargs <- cli
# initramfs/ (the agent, a program of its own) takes only common/'s
# framing and line headers.
ORDER = {
    'common': 0,
    'bootconfig': 1, 'facts': 1, 'initramfs': 1,
    'compiler': 2, 'dumpread': 2,
    'report': 3, 'bootargs': 3,
    'cli': 4,
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
PRIVATE = re.compile(r'-(local|int)\.h$')
# a definition: a line at column 0, not static, "... NAME(" not ending in ";"
DEFINE = re.compile(r'^(?!static\b|typedef\b|extern\b)[A-Za-z_][\w \*]*?\b(\w+)\s*\(([^;]*)$')
CALL = re.compile(r'\b(\w+)\s*\(')
NOT_CALLS = {'if', 'while', 'for', 'switch', 'return', 'sizeof', 'main'}
ORDER_TEXT = 'common <- bootconfig, facts <- dumpread, compiler <- report, bootargs <- cli'


def code_only(src):
    """@src without comments, string and character literals (lines kept)."""
    src = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), src, flags=re.S)
    src = re.sub(r'//[^\n]*', '', src)
    src = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', src)
    return re.sub(r"'(?:\\.|[^'\\\n])*'", "''", src)


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def calls(top, folders):
    """Problems of the call graph (see the top of this file), as lines."""
    bad = []
    defs = {}           # (program, name) -> [file]
    code = {}           # file -> its code
    for f in folders:
        for name in sorted(os.listdir(os.path.join(top, f))):
            if not name.endswith('.c') or name.endswith('-none.c'):
                continue
            path = f'{f}/{name}'
            with open(os.path.join(top, path), errors='replace') as fh:
                code[path] = code_only(fh.read())
            prog = 'agent' if f == 'initramfs' else 'probecc'
            for line in code[path].split('\n'):
                m = DEFINE.match(line)
                if m and m.group(1) not in NOT_CALLS:
                    defs.setdefault((prog, m.group(1)), []).append(path)
    for (prog, name), where in sorted(defs.items()):
        if len(set(where)) > 1:
            bad.append(f'{name}() is defined in {" and ".join(sorted(set(where)))}: '
                       f'one definition, or the call graph cannot tell who is called')
    graph, why = {}, {}
    for path, src in code.items():
        prog = 'agent' if path.startswith('initramfs/') else 'probecc'
        for n, line in enumerate(src.split('\n'), 1):
            for m in CALL.finditer(line):
                for to in set(defs.get((prog, m.group(1)), ())):
                    if to != path:
                        graph.setdefault(path, set()).add(to)
                        why.setdefault((path, to), f'{path}:{n} calls {m.group(1)}() of {to}')
    for comp in cycles(graph):
        bad.append('call circle ' + ' <-> '.join(comp) + ':')
        for a in comp:
            for b in comp:
                if (a, b) in why:
                    bad.append('  ' + why[(a, b)])
    for (a, b), where in sorted(why.items()):
        fa, fb = a.split('/')[0], b.split('/')[0]
        if fa != fb and fa in ORDER and fb in ORDER and ORDER[fb] >= ORDER[fa]:
            bad.append(f'{where}: {fa}/ may call only below it ({ORDER_TEXT})')
    return bad


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
    bad_private = []
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
                    if to is not None and to != f and PRIVATE.search(inc):
                        print(f'{path}:{n} includes {inc}: the private header of {to}/ '
                              f'(its public header is for the other folders)')
                        bad_private.append(path)
                    if to is None or to == f:
                        continue    # generated (version.h) or its own
                    edges.setdefault((f, to), f'{path}:{n} includes {inc}')
    bad = len(bad_private)
    for line in calls(top, folders):
        bad += not line.startswith('  ')
        print(line)
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
            print(f'{where}: {a}/ may include only from below it ({ORDER_TEXT})')
    if bad:
        return 1
    for f in sorted(folders, key=lambda f: (ORDER[f], f)):
        below = sorted(b for a, b in edges if a == f)
        print(f'{f}: {", ".join(below) if below else "(nothing)"}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
