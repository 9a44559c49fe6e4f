#!/usr/bin/env python3
"""Host threads change nothing a program can see: run the workloads at size
small with `morpheus workloads run --host-threads 1` and `--host-threads 2`,
each keeping its per-launch JSON records (--stats DIR), and check that both
runs pass and that the records are identical (same launches in the same
order, same kernels, grids, statuses and instruction counts) except the
wall-clock fields.

The emulator promises this for programs without data races on global memory
(emu/emu.h, host_threads): plain loads and stores of different SMs within a
quantum meet in host order.  A workload in RACY has such a (benign) race:
its results are still checked (the program compares them with its host
reference) and its launches must match, but its instruction counts may
differ, and are not compared.

usage: workloads_host_threads.py MORPHEUS NAME...

Exit 0 if identical, 1 with the first difference of each workload printed.
"""
import json
import os
import subprocess
import sys
import tempfile


RACY = {
    # if (level[u] == UNSEEN) { level[u] = cur + 1; *changed = 1; } with plain
    # accesses from every block: whether a thread sees another SM's store
    # during the same quantum decides whether it runs the branch
    'p-bfs': 'pbfs_level tests and sets level[] of other blocks with plain loads and stores',
}
COUNTS = ('warp_instructions', 'thread_instructions', 'warp_instructions_by_unit')


def wall_clock(key):
    """Fields that measure host time (or rates derived from it)."""
    return key.endswith('seconds') or key.endswith('per_second')


def run(morpheus, names, threads, statsdir):
    p = subprocess.run([morpheus, 'workloads', 'run', '--size', 'small', '--host-threads', str(threads),
                        '--stats', statsdir] + names, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=600)
    print(p.stdout, end='')
    return p.returncode


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    morpheus, names = sys.argv[1], sys.argv[2:]
    bad = 0
    with tempfile.TemporaryDirectory(prefix='mx-wl-threads-') as tmp:
        dirs = {}
        for threads in (1, 2):
            dirs[threads] = os.path.join(tmp, 'ht%d' % threads)
            rc = run(morpheus, names, threads, dirs[threads])
            if rc:
                print('FAIL: workloads run --host-threads %d exited %d' % (threads, rc))
                bad += 1
        for name in names:
            got = {}
            for threads in (1, 2):
                path = os.path.join(dirs[threads], name + '.jsonl')
                got[threads] = records(path) if os.path.exists(path) else None
            a, b = got[1], got[2]
            if not a or b is None:
                print('FAIL %s: no launch records (%s)' % (name, 'host threads 1' if not a else 'host threads 2'))
                bad += 1
                continue
            for r in a + b:
                if 'warp_instructions' not in r or 'thread_instructions' not in r:
                    print('FAIL %s: a record without instruction counts: %s' % (name, json.dumps(r)))
                    bad += 1
                    break
            if len(a) != len(b):
                print('FAIL %s: %d launches with 1 host thread, %d with 2' % (name, len(a), len(b)))
                bad += 1
                continue
            skip = lambda k: wall_clock(k) or (name in RACY and k in COUNTS)
            for i, (x, y) in enumerate(zip(a, b)):
                kx = {k: v for k, v in x.items() if not skip(k)}
                ky = {k: v for k, v in y.items() if not skip(k)}
                if kx != ky:
                    diff = sorted(k for k in set(kx) | set(ky) if kx.get(k) != ky.get(k))
                    print('FAIL %s: launch %d (%s) differs in %s: 1 host thread %s, 2 host threads %s'
                          % (name, i + 1, x.get('kernel'), ', '.join(diff),
                             {k: kx.get(k) for k in diff}, {k: ky.get(k) for k in diff}))
                    bad += 1
                    break
            else:
                print('ok %s: %d launches identical%s' % (name, len(a), ' but for instruction counts (racy: %s)' % RACY[name]
                                                           if name in RACY else ''))
    print('%d workloads, %d failures' % (len(names), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
