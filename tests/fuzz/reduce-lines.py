#!/usr/bin/env python3
"""tests/fuzz/reduce-lines.py — shrinks a fuzz finding line by line: drops
runs of lines (halves, quarters, ... single lines) as long as the target
still fails the same way, i.e. its report still names the same top stack
frame (or the same first "fuzz_kernel:" / "fuzz_ptx:" message).

usage: reduce-lines.py TARGET_BINARY CRASH_FILE [OUT_FILE]
  OUT_FILE defaults to CRASH_FILE.min.ptx.  The signature it keeps is printed
  first; ASAN_SYMBOLIZER_PATH must point to llvm-symbolizer for frames to
  carry file:line."""
import os
import re
import subprocess
import sys
import tempfile


def signature(binary, path):
    r = subprocess.run([binary, path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60,
                       env=dict(os.environ, MX_FUZZ_VERBOSE='0'))
    err = r.stderr.decode(errors='replace')
    if r.returncode == 0:
        return None
    m = re.search(r'#0 0x[0-9a-f]+ in (\S+ \S+)', err)
    if m:
        return m.group(1)
    m = re.search(r'^(fuzz_\w+: .*?)(?: \d+|$)', err, re.M)
    if m:
        return m.group(1)
    m = re.search(r'SUMMARY: (.*)', err)
    return m.group(1) if m else 'exit %d' % r.returncode


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, crash = sys.argv[1], sys.argv[2]
    out = sys.argv[3] if len(sys.argv) > 3 else crash + '.min.ptx'
    with open(crash, 'rb') as f:
        lines = f.read().split(b'\n')
    want = signature(binary, crash)
    if not want:
        sys.exit('reduce-lines.py: %s does not fail' % crash)
    print('signature:', want)
    fd, tmp = tempfile.mkstemp(suffix='.ptx')
    os.close(fd)

    def fails(cand):
        with open(tmp, 'wb') as f:
            f.write(b'\n'.join(cand))
        return signature(binary, tmp) == want

    chunk = max(1, len(lines) // 2)
    while True:
        i, changed = 0, False
        while i < len(lines):
            cand = lines[:i] + lines[i + chunk:]
            if cand and fails(cand):
                lines, changed = cand, True
            else:
                i += chunk
        if chunk == 1 and not changed:
            break
        chunk = max(1, chunk // 2)
    os.unlink(tmp)
    with open(out, 'wb') as f:
        f.write(b'\n'.join(lines))
    print('reduce-lines.py: %d lines in %s' % (len(lines), out))


if __name__ == '__main__':
    main()
