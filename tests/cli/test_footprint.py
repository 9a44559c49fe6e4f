#!/usr/bin/env python3
"""tests/cli/test_footprint.py — the footprints `morpheus workloads list`
shows (workloads/NAME/INFO footprint_mib.*) are what the workloads touch:
every application run at size small (about 2 s), its largest launch's
memory_touched_bytes against the INFO value (rounded to 0.1 MiB); the list's
"x LLC" column is medium's footprint over rtx3080's 5 MiB LLC; the memory-
bound applications at size medium all exceed the LLC at least 3 times over.

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
p2 = subprocess.run([M, 'workloads', 'list', '--long'], capture_output=True, text=True)
check('workloads list --long: the access patterns too', p2.returncode == 0 and 'anti-diagonal wavefront' in p2.stdout,
      p2.stdout[:500])
llc = 10 * 256 * 16 * 128 / 1048576
bad = []
for name, r in rows.items():
    i = info(name)
    ok = r[2] == i['footprint_mib.small'] and r[3] == i['footprint_mib.medium'] and \
        abs(float(r[4]) - float(i['footprint_mib.medium']) / llc) < 0.051
    if not ok or (i['class'] == 'memory' and float(i["footprint_mib.medium"]) < 3 * llc):
        bad.append((name, r, i.get('footprint_mib.small'), i.get('footprint_mib.medium')))
check('list: INFO footprints, medium over the 5 MiB LLC; every memory-bound medium footprint is at least 3 times it',
      not bad, bad)

if os.path.exists(os.path.join(os.path.dirname(os.path.abspath(M)), 'workloads', 'kmeans')):
    with tempfile.TemporaryDirectory() as tmp:
        j = os.path.join(tmp, 'w.json')
        p = subprocess.run([M, 'workloads', 'run', '--all', '--size', 'small', '--memsys', 'off', '--json', j],
                           capture_output=True, text=True)
        res = json.load(open(j)) if os.path.exists(j) else []
        diff = [(r['name'], r['memory_touched_bytes'] / 1048576, info(r['name'])['footprint_mib.small']) for r in res
                if '%.1f' % (r['memory_touched_bytes'] / 1048576) != info(r['name'])['footprint_mib.small']]
        check('size small: the measured footprint of all 17 is INFO\'s', p.returncode == 0 and len(res) == 17 and not diff,
              diff, p.stderr[-1000:])
else:
    print('skip the measurement (workloads not built: no nvcc)')
done()
