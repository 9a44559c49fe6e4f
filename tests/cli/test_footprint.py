#!/usr/bin/env python3
"""tests/cli/test_footprint.py — the footprints `morpheus workloads list`
shows (workloads/NAME/INFO footprint_mib.*) are what the workloads touch:
every application run at sizes small and twice-llc (about 20 s), its largest
launch's memory_touched_bytes against the INFO value (rounded to 0.1 MiB);
the list's "x LLC" column is twice-llc's and medium's footprints over rtx3080's
5 MiB LLC; the memory-bound applications at size medium all exceed the LLC
at least 3 times over, at twice-llc between 1.6 and 5 times and under medium.

usage: test_footprint.py PATH/TO/morpheus
Prints one line per check; exit 1 if any failed."""
import json
import os
import subprocess
import sys
import tempfile

from mxcheck import check, done

M = sys.argv[1]
ROOT = os.environ.get('MX_SOURCE_ROOT', os.path.join(os.path.dirname(__file__), '..', '..'))


def info(name):
    d = {}
    for line in open(os.path.join(ROOT, 'workloads', name, 'INFO')):
        if '=' in line:
            k, v = line.rstrip('\n').split('=', 1)
            d[k] = v
    return d


p = subprocess.run([M, 'workloads', 'list'], capture_output=True, text=True)
rows = {l.split()[0]: l.split() for l in p.stdout.splitlines()[1:] if l and not l.startswith('(')}
check('workloads list: 17 rows', p.returncode == 0 and len(rows) == 17, p.stdout, p.stderr)
p2 = subprocess.run([M, 'workloads', 'list', '--bogus'], capture_output=True, text=True)
check('workloads list --bogus: refused, named', p2.returncode == 2 and "unknown option '--bogus'" in p2.stderr, p2.stderr)
p2 = subprocess.run([M, 'workloads', 'run', '--size', 'huge', 'stencil'], capture_output=True, text=True)
check('workloads run --size huge: refused, the sizes named', p2.returncode == 2 and
      "--size is small, twice-llc, medium or large, got 'huge'" in p2.stderr, p2.stderr)
p2 = subprocess.run([M, 'workloads', 'list', '--long'], capture_output=True, text=True)
check('workloads list --long: the access patterns too', p2.returncode == 0 and 'anti-diagonal wavefront' in p2.stdout,
      p2.stdout[:500])
llc = 10 * 256 * 16 * 128 / 1048576
bad = []
for name, r in rows.items():
    i = info(name)
    fs, fl, fm = i['footprint_mib.small'], i['footprint_mib.twice-llc'], i['footprint_mib.medium']
    rl, rm = (float(x) for x in r[5].split(','))
    ok = r[2:5] == [fs, fl, fm] and abs(rl - float(fl) / llc) < 0.051 and abs(rm - float(fm) / llc) < 0.051
    if i['class'] == 'memory':
        ok = ok and float(fm) >= 3 * llc and 1.6 * llc <= float(fl) <= 5 * llc and float(fl) < float(fm)
    if not ok:
        bad.append((name, r, fs, fl, fm))
check('list: INFO footprints, twice-llc and medium over the 5 MiB LLC; every memory-bound medium footprint is at least '
      '3 times it, every twice-llc one 1.6 to 5 times and under medium\'s', not bad, bad)

if os.path.exists(os.path.join(os.path.dirname(os.path.abspath(M)), 'workloads', 'kmeans')):
    p2 = subprocess.run([os.path.join(os.path.dirname(os.path.abspath(M)), 'workloads', 'stencil'), '--size', 'huge'],
                        capture_output=True, text=True)
    check('a workload program refuses --size huge, naming the sizes', p2.returncode == 2 and
          'stencil: --size is small, twice-llc, medium or large' in p2.stderr, p2.stderr)
    for size in ('small', 'twice-llc'):
        with tempfile.TemporaryDirectory() as tmp:
            j = os.path.join(tmp, 'w.json')
            p = subprocess.run([M, 'workloads', 'run', '--all', '--size', size, '--memsys', 'off', '--json', j],
                               capture_output=True, text=True)
            res = json.load(open(j)) if os.path.exists(j) else []
            key = 'footprint_mib.' + size
            diff = [(r['name'], r['memory_touched_bytes'] / 1048576, info(r['name'])[key]) for r in res
                    if '%.1f' % (r['memory_touched_bytes'] / 1048576) != info(r['name'])[key]]
            check('size %s: the measured footprint of all 17 is INFO\'s, all pass' % size,
                  p.returncode == 0 and len(res) == 17 and not diff and all(r['pass'] for r in res),
                  diff, p.stderr[-1000:])
else:
    print('skip the measurement (workloads not built: no nvcc)')
done()
