#!/usr/bin/env python3
"""tests/fuzz/split-entries.py — seeds for the kernel fuzz target: copies
each PTX file to OUTDIR, split into one file per kernel (.entry) when it has
several.  Every output keeps everything else of its module (declarations,
.func bodies, globals) in place, so it parses as the original did.  One
kernel per seed keeps inputs small and lets every kernel be launched (the
target launches at most a few per input).

usage: split-entries.py OUTDIR FILE.ptx...
Output names: PARENT_BASE.ptx, or PARENT_BASE.N.ptx for the Nth kernel."""
import os
import re
import sys


def segments(text):
    """Splits text into [(is_entry, chunk)], entries with their body."""
    out, start, i, n = [], 0, 0, len(text)
    depth = 0
    entry_at = None  # offset of the line holding a top-level .entry
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
            continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            i = j + 1
            continue
        if depth == 0 and entry_at is None and re.match(r'\.entry\b', text[i:i + 7]):
            entry_at = text.rfind('\n', 0, i) + 1
        elif c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0 and entry_at is not None:
                end = text.find('\n', i)
                end = n if end < 0 else end + 1
                out.append((False, text[start:entry_at]))
                out.append((True, text[entry_at:end]))
                start, entry_at = end, None
                i = end
                continue
        elif c == ';' and depth == 0:
            entry_at = None  # a prototype, not a definition
        i += 1
    out.append((False, text[start:]))
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    written = 0
    for path in sys.argv[2:]:
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            text = f.read()
        base = os.path.basename(os.path.dirname(os.path.abspath(path))) + '_' + os.path.basename(path)
        base = base[:-4] if base.endswith('.ptx') else base
        segs = segments(text)
        entries = [k for k, (e, _) in enumerate(segs) if e]
        if len(entries) <= 1:
            outs = [(base + '.ptx', text)]
        else:
            outs = []
            for num, k in enumerate(entries):
                body = ''.join(s for j, (e, s) in enumerate(segs) if not e or j == k)
                outs.append(('%s.%d.ptx' % (base, num), body))
        for name, body in outs:
            with open(os.path.join(outdir, name), 'w', encoding='utf-8', errors='surrogateescape') as f:
                f.write(body)
            written += 1
    print('split-entries.py: %d files from %d inputs' % (written, len(sys.argv) - 2))


if __name__ == '__main__':
    main()
