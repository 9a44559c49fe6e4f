#!/usr/bin/env python3
"""tests/cli/test_online.py — the online controller of the SM split
(--compute-sms auto, frontend/online.h) as a user runs it: the resolved
configuration, its refusals, and a real CUDA program (kmeans) whose launch
records follow the controller's decisions.  The decisions are recomputed
here by a second implementation of the policy (written from online.h's
description) from the records' own instruction and cycle counts, and the
run is the same on 1 and 2 host threads.

usage: test_online.py PATH/TO/morpheus
Prints one line per check; exit 1 if any failed."""
import json
import os
import subprocess
import sys
import tempfile

from mxcheck import check, done

M = sys.argv[1]
N = 68


def show(*args):
    p = subprocess.run([M, 'config', 'show'] + list(args), capture_output=True, text=True)
    return p, (json.loads(p.stdout) if p.returncode == 0 else None)


for how in (['--compute-sms', 'auto'], ['-o', 'system.compute_sms=auto']):
    p, c = show('--system', 'morpheus-all', '--timing', 'cycle', *how)
    check('%s: compute_sms "auto", every SM computing at the start, the native extended LLC' % ' '.join(how),
          c and c['system']['compute_sms'] == 'auto' and c['memsys']['cache_sms'] == 0 and
          c['memsys']['xllc']['mode'] == 'native' and c['memsys']['enabled'] is True, p.stderr, c and c['system'])

for args, want in ((['--system', 'bl', '--compute-sms', 'auto', '--timing', 'cycle'], 'for the Morpheus systems'),
                   (['--system', 'ibl', '--compute-sms', 'auto', '--timing', 'cycle'], 'for the Morpheus systems'),
                   (['--system', 'morpheus-all', '--compute-sms', 'auto'], 'give a timing model'),
                   (['--system', 'morpheus-all', '--compute-sms', 'auto', '--timing', 'none'], 'give a timing model'),
                   (['--system', 'morpheus-all', '--compute-sms', 'auto', '--timing', 'cycle', '--xllc', 'helper'],
                    'needs the native extended LLC'),
                   (['--system', 'morpheus-all', '--compute-sms', 'auto', '--timing', 'cycle', '-o',
                     'memsys.enabled=off'], 'needs memsys.enabled on'),
                   (['--system', 'morpheus-all', '--compute-sms', 'many'],
                    "--compute-sms: expected an integer from 0 to 4096, or auto, got 'many'")):
    p, c = show(*args)
    check('refused: %s' % ' '.join(args), p.returncode == 2 and want in p.stderr, p.stderr)


def policy(recs):
    """The controller of frontend/online.h, again: the compute-mode SMs after each record."""
    lo, step, min_step = N // 4, N // 4, N // 16
    cur = best = N
    tried = {N}
    ref, trial = {}, {}
    settled = warm = False
    tb = tc = 0.0
    tl = 0
    out = []

    def nxt():
        nonlocal step
        while step >= min_step:
            for t in (best - step, best + step):
                if lo <= t <= N and t not in tried:
                    return t
            step //= 2
        return 0

    def move(t):
        nonlocal cur, warm
        if t != cur:
            warm = True
        cur = t

    def advance():
        nonlocal settled, tb, tc, tl, trial
        t = 0 if settled else nxt()
        if not t:
            settled, t = True, best
        else:
            tried.add(t)
            tb = tc = 0.0
            tl = 0
            trial = {}
        move(t)

    for r in recs:
        key = '%s<<<%d,%d,%d|%d,%d,%d>>>' % ((r['kernel'],) + tuple(r['grid']) + tuple(r['block']))
        ins, cyc = r['thread_instructions'], r['cycles']
        if not cyc:
            pass
        elif warm:
            warm = False
        elif cur == best:
            again = key in ref
            i0, c0 = ref.get(key, (0, 0))
            ref[key] = (i0 + ins, c0 + cyc)
            if again:
                advance()
        else:
            i0, c0 = trial.get(key, (0, 0))
            trial[key] = (i0 + ins, c0 + cyc)
            tl += 1
            if key in ref:
                tb += ins * ref[key][1] / ref[key][0]
                tc += cyc
            if tc or tl >= 8:
                if not tc:
                    tried.discard(cur)
                    move(best)
                elif tb / tc > 1.02:
                    best, ref = cur, dict(trial)
                    advance()
                elif any(k not in ref for k in trial):
                    move(best)
                else:
                    advance()
        out.append(cur)
    return out


bin_dir = os.path.join(os.path.dirname(os.path.abspath(M)), 'workloads', 'kmeans')
if not os.path.exists(bin_dir):
    print('skip the CUDA program (workloads not built: no nvcc)')
    done()

runs = {}
with tempfile.TemporaryDirectory() as tmp:
    for ht in (1, 2):
        st = os.path.join(tmp, 'st%d' % ht)
        j = os.path.join(tmp, 'w%d.json' % ht)
        p = subprocess.run([M, 'workloads', 'run', 'kmeans', '--size', 'small', '--system', 'morpheus-all',
                            '--compute-sms', 'auto', '--timing', 'cycle', '--host-threads', str(ht), '--json', j,
                            '--stats', st], capture_output=True, text=True)
        recs = [json.loads(line) for line in open(os.path.join(st, 'kmeans.jsonl'))] if os.path.exists(
            os.path.join(st, 'kmeans.jsonl')) else []
        res = json.load(open(j))[0] if os.path.exists(j) else {}
        runs[ht] = (p, recs, res)

p, recs, res = runs[1]
check('kmeans --compute-sms auto: PASS (the program\'s own check of its results)', p.returncode == 0 and res.get('pass'),
      p.stdout[-600:], p.stderr[-600:])
splits = [r['compute_sms'] for r in recs]
check('the split changes while it runs (%s)' % ' '.join(map(str, splits)), len(set(splits)) > 1 and splits[0] == N)
check('every record: compute + cache = %d SMs, and its split is what the record before it decided' % N,
      recs and all(r['compute_sms'] + r['cache_sms'] == N for r in recs) and
      all(recs[i]['compute_sms'] == recs[i - 1]['online']['next_compute_sms'] for i in range(1, len(recs))),
      [(r['compute_sms'], r['online']) for r in recs])
want = policy(recs)
got = [r['online']['next_compute_sms'] for r in recs]
check('its decisions are the policy\'s, recomputed from the records\' instructions and cycles', got == want, got, want)
check('the run\'s result ends on the last launch\'s split, with the controller\'s state',
      res.get('compute_sms') == splits[-1] and res.get('online', {}).get('changes') == recs[-1]['online']['changes'],
      {k: res.get(k) for k in ('compute_sms', 'cache_sms', 'online')})
key = lambda rs: [(r['compute_sms'], r['cycles'], r['online']) for r in rs]
check('the same launches, cycles and decisions on 2 host threads', key(runs[2][1]) == key(recs),
      key(runs[2][1])[:4], key(recs)[:4])

# a resolved configuration (config show) loaded back keeps the controller on
with tempfile.TemporaryDirectory() as tmp:
    p, c = show('--system', 'morpheus-all', '--compute-sms', 'auto', '--timing', 'cycle')
    f, j = os.path.join(tmp, 'auto.json'), os.path.join(tmp, 'w.json')
    open(f, 'w').write(p.stdout)
    p = subprocess.run([M, 'workloads', 'run', 'kmeans', '--size', 'small', '--config', f, '--json', j],
                       capture_output=True, text=True)
    r = json.load(open(j))[0] if os.path.exists(j) else {}
    check('--config of a resolved auto configuration: the same run, the controller on',
          p.returncode == 0 and r.get('online') == res.get('online') and r.get('cycles') == res.get('cycles'),
          p.stderr[-600:], r.get('online'), res.get('online'))
done()
