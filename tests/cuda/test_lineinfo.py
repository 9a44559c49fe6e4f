#!/usr/bin/env python3
"""tests/cuda/test_lineinfo.py MORPHEUS PTX_BIN SASS_BIN SOURCE — a fault's
source line on both code paths of an nvcc -lineinfo program.

PTX_BIN is tests/cuda/fault_oob.cu built with -lineinfo and PTX only,
SASS_BIN the same with sm_86 machine code only (its cubin's .debug_line).
Both must fail with the out-of-bounds store of write_past_end, the PTX path
naming FILE:LINE from its .loc lines, the SASS path the SASS address and
FILE:LINE from the cubin's line table; the two must agree, and LINE must be
the line of SOURCE that holds the store (found in the text, not written
here)."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'cli'))
from mxcheck import check, done  # noqa: E402

morpheus, ptx_bin, sass_bin, source = sys.argv[1:5]
lines = open(source).read().split('\n')
want = [i + 1 for i, t in enumerate(lines) if re.search(r'\bp\[off\] = ', t)]
check('the store is found in the source once', len(want) == 1, want)


def run(binary):
    return subprocess.run([morpheus, 'exec', '--', binary], capture_output=True, text=True, errors='replace',
                          timeout=120)


r = run(ptx_bin)
m = re.search(r'at PTX line \d+ \(pc \d+\) in kernel _Z14write_past_endPix \((.*):(\d+)\)', r.stderr)
check('PTX path: the fault names the source line', m and m.group(1).endswith('/fault_oob.cu') and
      int(m.group(2)) == want[0], 'want fault_oob.cu:%s' % want, r.stderr[-600:])
s = run(sass_bin)
ms = re.search(r'at SASS address 0x[0-9a-f]{4} \((.*):(\d+); line \d+, pc \d+ of the lowered program\) '
               r'in kernel _Z14write_past_endPix', s.stderr)
check('SASS path: the fault names the SASS address and the source line', ms and int(ms.group(2)) == want[0],
      'want fault_oob.cu:%s' % want, s.stderr[-600:])
check('both paths name the same file and line', m and ms and m.groups() == ms.groups(),
      m and m.groups(), ms and ms.groups())
check('both programs end with the sticky error checked (PASS)', 'PASS fault_oob' in r.stdout and
      'PASS fault_oob' in s.stdout, r.stdout[-200:], s.stdout[-200:])
check('no warning about the line table', 'line table ignored' not in s.stderr, s.stderr[-600:])
done()
