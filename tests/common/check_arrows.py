#!/usr/bin/env python3
"""tests/common/check_arrows.py — the arrows of DESIGN.md, checked on every
#include "..." of the tree (the compiler enforces the same through the
layered libraries' include paths, meson.build's layer_args; this check also
catches private *-internal.h headers and explains each violation): a folder includes its own headers, include/mx/
(the cross-folder contracts) and the public headers of the folders it may
depend on, never anything else.

  isa      -> (nothing)
  memsys   -> (nothing)
  timing   -> memsys
  frontend -> isa                      (the front-end library: lexer, parser, rules, cfg, diag, numopt)
  emu      -> isa, memsys              (timing only through include/mx/timing.h)
  the command line (frontend/main.c, cmd_*.c, cli.h, bench_ref.*, config.*), the CUDA
  shims (frontend/cuda/), tests/ and workloads/ may include anything.

A header named *-internal.h is private to its folder.  Exit 1 with one line
per violation (file:line: the include and why), 0 when the tree is clean.
With --link-cycles LIB.a it checks instead that the files of a static
library call each other without a circle (file A uses a function of B and
B, directly or not, one of A): the layering of emu/ (DESIGN.md's "the
house").

usage: check_arrows.py [SOURCE_ROOT] | --self-test | --link-cycles LIB.a"""
import os
import re
import sys

ALLOWED = {
    'isa': {'isa'},
    'memsys': {'memsys'},
    'timing': {'timing', 'memsys'},
    'frontend': {'frontend', 'isa'},
    'emu': {'emu', 'isa', 'memsys'},
}
FREE_FILES = re.compile(r'^frontend/(main\.c|cmd_[a-z_]+\.c|cli\.h|bench_ref\.[ch]|config\.[ch]|msys\.[ch])$')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folder_of(rel):
    """The layered folder a source file belongs to, or None when it is free."""
    if FREE_FILES.match(rel) or rel.startswith('frontend/cuda/'):
        return None
    top = rel.split('/', 1)[0]
    return top if top in ALLOWED else None


def check(root):
    bad = []
    for top in ALLOWED:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(('.c', '.h', '.def')):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, '/')
                me = folder_of(rel)
                if me is None:
                    continue
                with open(path, encoding='utf-8', errors='replace') as f:
                    for n, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        inc = m.group(1)
                        target = inc.split('/', 1)[0] if '/' in inc else me  # "x.h": same folder
                        if target == 'mx':
                            continue  # include/mx/: the contracts, open to all
                        if target not in ALLOWED[me]:
                            bad.append(f'{rel}:{n}: #include "{inc}": {me}/ may not depend on {target}/')
                        elif target != me and inc.endswith('-internal.h'):
                            bad.append(f'{rel}:{n}: #include "{inc}": a private header of {target}/')
    return bad


def self_test():
    """The checker on a made-up tree: every kind of violation is reported, by
    file and line, and the allowed includes are not."""
    import tempfile
    files = {
        'isa/a.c': '#include "isa/isa.h"\n#include "mx/status.h"\n#include "emu/emu.h"\n',
        'memsys/b.c': '#include "memsys/bloom.h"\n#include "isa/isa.h"\n',
        'timing/c.c': '#include "memsys/bloom.h"\n#include "emu/emu-internal.h"\n',
        'frontend/parser.c': '#include "isa/isa.h"\n#include "emu/emu.h"\n',
        'frontend/cmd_run.c': '#include "emu/emu.h"\n',
        'frontend/cuda/cudart.c': '#include "emu/emu.h"\n',
        'emu/d.c': '#include "isa/isa.h"\n#include "memsys/bloom.h"\n#include "frontend/ptx.h"\n#include "timing/none.h"\n',
        'emu/e.c': '#include "frontend/fe-internal.h"\n#include "interp.h"\n',
    }
    want = {
        'isa/a.c:3: #include "emu/emu.h": isa/ may not depend on emu/',
        'memsys/b.c:2: #include "isa/isa.h": memsys/ may not depend on isa/',
        'timing/c.c:2: #include "emu/emu-internal.h": timing/ may not depend on emu/',
        'frontend/parser.c:2: #include "emu/emu.h": frontend/ may not depend on emu/',
        'emu/d.c:3: #include "frontend/ptx.h": emu/ may not depend on frontend/',
        'emu/d.c:4: #include "timing/none.h": emu/ may not depend on timing/',
        'emu/e.c:1: #include "frontend/fe-internal.h": emu/ may not depend on frontend/',
    }
    with tempfile.TemporaryDirectory() as t:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(t, rel)), exist_ok=True)
            with open(os.path.join(t, rel), 'w') as f:
                f.write(text)
        got = set(check(t))
    if got != want:
        print('self-test: missing:', sorted(want - got))
        print('self-test: unexpected:', sorted(got - want))
        return 1
    print(f'self-test: {len(want)} violations found, none invented')
    return 0


def link_cycles(lib):
    """Circles among the members of static library lib, from nm's defined and
    undefined symbols: [(members, [(a, b, symbol), ...]), ...]."""
    import subprocess
    out = subprocess.run(['nm', '-A', lib], capture_output=True, text=True, check=True).stdout
    defs, uses = {}, {}
    for line in out.splitlines():
        where, _, rest = line.rpartition(':')
        member = where.rsplit(':', 1)[-1] if ':' in where else where
        parts = rest.split()
        if len(parts) == 3 and parts[1] in 'TDBR':
            defs[parts[2]] = member
        elif len(parts) == 2 and parts[0] == 'U':
            uses.setdefault(member, set()).add(parts[1])
    dep, why = {}, {}
    for m, us in uses.items():
        for u in us:
            if u in defs and defs[u] != m:
                dep.setdefault(m, set()).add(defs[u])
                why[(m, defs[u])] = u
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(dep.get(v, ())):
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
                edges = [(a, b, why[(a, b)]) for a in comp for b in sorted(dep.get(a, ())) if b in comp]
                found.append((sorted(comp), edges))

    sys.setrecursionlimit(10000)
    for v in sorted(dep):
        if v not in index:
            visit(v)
    return found


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if len(sys.argv) == 3 and sys.argv[1] == '--link-cycles':
        found = link_cycles(sys.argv[2])
        for comp, edges in found:
            print('circle of files:', ' '.join(comp))
            for a, b, sym in edges:
                print(f'  {a} -> {b} ({sym})')
        print(f'link-cycles: {len(found)} circle(s)')
        return 1 if found else 0
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    bad = check(root)
    for b in bad:
        print(b)
    print(f'arrows: {len(bad)} violation(s)')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
