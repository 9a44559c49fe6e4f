#!/usr/bin/env python3
"""tests/cli/test_evaluate.py — `morpheus evaluate` end to end on two
applications (one memory-bound, one compute-bound) at size small with a
two-point sweep: every run's object has the contract's names and agrees with
its configuration (the SM split each system implies); the figures' tables
are recomputed here from the run files (Figure 10's times normalised to BL,
Figure 1's scaling, Figure 11's predictors, Table 3's choice as the fastest
point of each sweep); a second invocation redoes nothing and changes
nothing; a deleted run is redone alone; bad input is refused before anything
is written.

usage: test_evaluate.py PATH/TO/morpheus
Prints one line per check; exit 1 if any failed."""
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mxcheck import check, done

M = sys.argv[1]


def evaluate(out, *extra):
    return subprocess.run([M, 'evaluate', '--size', 'small', '--sweep', '68,34', '-j', '2', '--out', out,
                           'kmeans', 'lib'] + list(extra), capture_output=True, text=True)


if not os.path.exists(os.path.join(os.path.dirname(os.path.abspath(M)), 'workloads', 'kmeans')):
    print('skip: the workloads are not built (no nvcc)')
    sys.exit(0)

TMP = tempfile.mkdtemp(prefix='mx-eval-')
OUT = os.path.join(TMP, 'ev')
p = evaluate(OUT)
check('evaluate kmeans lib: exit 0', p.returncode == 0, p.stdout[-2000:], p.stderr[-2000:])

runs = {}
for f in sorted(os.listdir(os.path.join(OUT, 'runs'))) if os.path.isdir(os.path.join(OUT, 'runs')) else []:
    runs[f[:-5]] = json.load(open(os.path.join(OUT, 'runs', f)))
CONTRACT = ['workload', 'system', 'predictor', 'cache_sms', 'compute_sms', 'cycles', 'time_s', 'energy_j', 'ipc',
            'memsys', 'gated_sms', 'llc_scale', 'perf_per_w', 'pass']
missing = {k: [c for c in CONTRACT if c not in r] for k, r in runs.items() if any(c not in r for c in CONTRACT)}
check('%d runs, each with the contract\'s names (%s)' % (len(runs), ' '.join(CONTRACT)),
      len(runs) > 20 and not missing, missing)

# kmeans (memory-bound): BL, IBL at 34, IBL 2x and 4x LLC at 68 and 34, Morpheus-Basic/ALL at 68 and 34; lib
# (compute-bound): BL, IBL at 34, Morpheus at 68; then phase 2 at the chosen counts
bad = []
for k, r in runs.items():
    n = 68
    if r['system'] in ('ibl', 'ibl-4x-llc', 'frequency-boost', 'unified-sm-mem'):
        ok = r['cache_sms'] == 0 and r['gated_sms'] == n - r['compute_sms']
    elif r['system'].startswith('morpheus'):
        ok = r['cache_sms'] == n - r['compute_sms'] and r['gated_sms'] == 0 and r['predictor'] in ('bloom', 'none', 'perfect')
    else:
        ok = r['system'] == 'bl' and r['compute_sms'] == n and r['cache_sms'] == 0 and r['gated_sms'] == 0
    ok = ok and r['pass'] is True and r['cycles'] > 0 and r['time_s'] > 0 and r['energy_j'] > 0
    ok = ok and abs(r['time_s'] - r['cycles'] / 1710e6) <= 1e-9 * max(1, r['time_s']) * 1e3  # launches add up
    if not ok:
        bad.append((k, {x: r.get(x) for x in CONTRACT if x != 'memsys'}))
check('every run: its system\'s SM split, passed, cycles, time, energy', not bad, bad[:3])
mb = [r for r in runs.values() if r['system'].startswith('morpheus') and r['workload'] == 'kmeans']
check('the Morpheus runs of kmeans with cache-mode SMs use the extended LLC (accesses > 0), those with every SM '
      'computing do not, and Morpheus-Basic\'s sweep has both points',
      mb and all((r['memsys']['xllc']['accesses'] > 0) == (r['cache_sms'] > 0) for r in mb
                 if not r['key'].endswith('.auto')) and  # (the online run's split is its last)
      {r['compute_sms'] for r in mb if r['system'] == 'morpheus-basic' and '.pred-' not in r['key']} >= {68, 34},
      [(r['key'], r['cache_sms'], r['memsys']['xllc']['accesses']) for r in mb])


def run_of(w, system, c, pred=None, llc=1):
    for r in runs.values():
        if r['key'].endswith('.auto'):
            continue  # the online controller's run
        if r['workload'] == w and r['system'] == system and r['compute_sms'] == c and r['llc_scale'] == llc and \
                (pred is None or r['predictor'] == pred) and (pred is not None or r['key'].find('.pred-') < 0):
            return r
    return None


# Table 3: the fastest point of each sweep
t3 = {row['workload']: row for row in csv.DictReader(open(os.path.join(OUT, 'table3_sm_counts.csv')))}
for w in ('kmeans', 'lib'):
    ibl = {68: run_of(w, 'bl', 68), 34: run_of(w, 'ibl', 34)}
    want = min(ibl, key=lambda c: (ibl[c]['time_s'], c))  # a tie: fewer SMs
    check('Table 3 %s: IBL\'s count is the sweep\'s fastest (%d)' % (w, want), int(t3[w]['IBL']) == want,
          t3[w], {c: ibl[c]['time_s'] for c in ibl})
for col, system in (('Morpheus-Basic', 'morpheus-basic'), ('Morpheus-ALL', 'morpheus-all')):
    pts = {c: run_of('kmeans', system, c) for c in (68, 34)}
    want = min(pts, key=lambda c: (pts[c]['time_s'], c)) if all(pts.values()) else None
    check('Table 3 kmeans: %s\'s count is its sweep\'s fastest, every SM computing (68) one of the points (%s)'
          % (col, want), want is not None and int(t3['kmeans'][col]) == want, t3['kmeans'],
          {c: r and r['time_s'] for c, r in pts.items()})

# Figure 10: time normalised to BL, recomputed
rows = {row['workload']: row for row in csv.DictReader(open(os.path.join(OUT, 'fig10_time.csv')))}
labels = {'BL': 'bl', 'IBL': 'ibl', 'Frequency-Boost': 'frequency-boost', 'Morpheus-Basic': 'morpheus-basic',
          'Morpheus-ALL': 'morpheus-all', 'Morpheus-Indirect-MOV': 'morpheus-indirect-mov'}
errs = []
for label, system in labels.items():
    col = {'Frequency-Boost': 'IBL', 'Morpheus-Indirect-MOV': 'Morpheus-Basic'}.get(label, label)
    c = int(t3['kmeans'][col])
    r = run_of('kmeans', 'bl' if system == 'ibl' and c == 68 else system, c)
    want = r['time_s'] / run_of('kmeans', 'bl', 68)['time_s'] if r else None
    got = float(rows['kmeans'][label]) if rows['kmeans'][label] else None
    if want is None or got is None or abs(got - want) > 1e-5 * want:
        errs.append((label, got, want))
check('fig10_time.csv: kmeans\'s times over BL\'s, recomputed from the runs', not errs, errs)
check('fig10_time.csv: BL is 1 and the GMEAN row is kmeans\'s (the only memory-bound one)',
      float(rows['kmeans']['BL']) == 1 and all(
          abs(float(rows['GMEAN (memory-bound)'][k]) - float(rows['kmeans'][k])) < 1e-5 for k in labels), rows)

# Figure 11: Morpheus-Basic with each predictor; No-Prediction can only be slower than Perfect-Prediction
f11 = {row['workload']: row for row in csv.DictReader(open(os.path.join(OUT, 'fig11_predictor.csv')))}
none_r, perf_r = run_of('kmeans', 'morpheus-basic', 34, 'none'), run_of('kmeans', 'morpheus-basic', 34, 'perfect')
bl_t = run_of('kmeans', 'bl', 68)['time_s']
check('fig11: No-Prediction and Perfect-Prediction from their runs; none >= perfect in time, same hits',
      none_r and perf_r and abs(float(f11['kmeans']['No-Prediction']) - none_r['time_s'] / bl_t) < 1e-5 and
      abs(float(f11['kmeans']['Perfect-Prediction']) - perf_r['time_s'] / bl_t) < 1e-5 and
      none_r['time_s'] >= perf_r['time_s'] and
      none_r['memsys']['xllc']['hits'] == perf_r['memsys']['xllc']['hits'], f11, none_r and none_r['time_s'],
      perf_r and perf_r['time_s'])

# the extended LLC at the same split: Morpheus-ALL over IBL at 34 SMs, recomputed
xs = {row['workload']: row for row in csv.DictReader(open(os.path.join(OUT, 'xllc_split.csv')))}
want = run_of('kmeans', 'morpheus-all', 34)['time_s'] / run_of('kmeans', 'ibl', 34)['time_s']
check('xllc_split.csv: kmeans at 34 SMs = Morpheus-ALL\'s time over IBL\'s (%.4f), its best split with cache-mode '
      'SMs 34, and summary.md\'s section' % want,
      abs(float(xs['kmeans']['34 SMs']) - want) < 1e-5 and xs['kmeans']['best split'] == '34' and
      abs(float(xs['kmeans']['at best split']) - want) < 1e-5 and 'lib' not in xs and
      '## The extended LLC at the same split' in open(os.path.join(OUT, 'summary.md')).read(), xs)

# Figure 1: BL's time over IBL's at 34 SMs
f1 = {row['compute_sms']: row for row in csv.DictReader(open(os.path.join(OUT, 'fig1_sm_scaling.csv')))}
check('fig1: performance at 34 SMs = BL time / IBL(34) time, 1 at 68',
      abs(float(f1['34']['kmeans']) - bl_t / run_of('kmeans', 'ibl', 34)['time_s']) < 1e-5 and
      float(f1['68']['kmeans']) == 1, f1)

# runs.csv: one row per run file
rc = list(csv.DictReader(open(os.path.join(OUT, 'runs.csv'))))
check('runs.csv: one row per run, the contract\'s columns',
      len(rc) == len(runs) and all(k in rc[0] for k in ('workload', 'system', 'predictor', 'cache_sms', 'compute_sms',
                                                         'cycles', 'time_s', 'energy_j', 'ipc')), len(rc), len(runs))
# the online controller: one Morpheus-ALL run per application with --compute-sms auto; its record says where
# it ended; lib launches two different kernels once each, so it never starts a trial and stays on all SMs
auto = {r['workload']: r for r in runs.values() if r['key'].endswith('.auto')}
check('online: a Morpheus-ALL run with --compute-sms auto per application, ending on a split it reports',
      sorted(auto) == ['kmeans', 'lib'] and all(r['system'] == 'morpheus-all' and r['pass'] is True and
                                                r['compute_sms'] + r['cache_sms'] == 68 and
                                                17 <= r['online']['best_compute_sms'] <= 68 and
                                                (r['online']['next_compute_sms'] == r['compute_sms'] or
                                                 not r['online']['settled']) for r in auto.values()),
      {w: (r.get('compute_sms'), r.get('online')) for w, r in auto.items()})
check('online: lib (no kernel repeats) stays on all 68 SMs, nothing changed',
      auto.get('lib', {}).get('compute_sms') == 68 and auto['lib']['online']['changes'] == 0, auto.get('lib'))
ev = json.load(open(os.path.join(OUT, 'evaluate.json')))
want = auto['kmeans']['time_s'] / run_of('kmeans', 'morpheus-all', int(t3['kmeans']['Morpheus-ALL']))['time_s']
check('evaluate.json: online_time_vs_offline = kmeans\'s online time over Morpheus-ALL\'s at the Table 3 count',
      ev['online_time_vs_offline'] is not None and abs(ev['online_time_vs_offline'] - want) < 1e-6 * want,
      ev['online_time_vs_offline'], want)
rc_auto = [row for row in rc if row['online'] == 'true']
check('runs.csv: the online runs are marked (column online)', len(rc_auto) == 2, [r['workload'] for r in rc_auto])
summary = open(os.path.join(OUT, 'summary.md')).read()
check('summary.md: the online controller\'s section', '## The SM split chosen online' in summary and
      'chosen online: time over the offline choice' in summary, summary[-1500:])
check('summary.md: the paper\'s numbers beside ours', '+39 %' in summary and 'Morpheus-ALL speedup over BL' in summary,
      summary[:500])
keeps = int(t3['kmeans']['Morpheus-ALL']) == 68
# compression's share: summary.md gives the BDI sizes of the blocks Morpheus-ALL placed at its best split with
# cache-mode SMs (kmeans: 34), as that run's memsys.bdi counts them
b4 = run_of('kmeans', 'morpheus-all', 34)['memsys']['bdi']
t4 = sum(b4[k] for k in ('blocks_32', 'blocks_64', 'blocks_128'))
want = 'its extended LLC at its best splits with cache-mode SMs, %.1f %% compressed 4x, %.1f %% 2x and %.1f %% not ' \
       'at all' % tuple(100 * b4[k] / (t4 or 1) for k in ('blocks_32', 'blocks_64', 'blocks_128'))
check('summary.md: the BDI sizes of the blocks Morpheus-ALL placed, from its run at 34 SMs (%s)' % b4,
      t4 > 0 and t4 >= run_of('kmeans', 'morpheus-all', 34)['memsys']['xllc']['misses'] and want in summary,
      want, summary[-3000:])
check('summary.md: names kmeans as keeping every SM computing exactly when Morpheus-ALL chose 68 for it (%s)' % keeps,
      ('keep all 68 SMs computing under Morpheus-ALL' in summary and '(kmeans)' in summary) == keeps, summary[-3000:])
# where the energy goes: each run's energy object adds up to its energy_j; energy.csv has Figure 10's runs' parts;
# summary.md's table gives, per system, each part over BL's energy (kmeans is the only memory-bound application)
PARTS = ['core_j', 'l1_j', 'llc_j', 'xllc_j', 'dram_j', 'static_j', 'controller_j']
bad = [(k, r.get('energy'), r['energy_j']) for k, r in runs.items()
       if not r.get('energy') or sorted(r['energy']) != sorted(PARTS) or
       abs(sum(r['energy'].values()) - r['energy_j']) > 1e-9 * r['energy_j'] or
       (r['energy']['xllc_j'] > 0) != (r['memsys']['xllc']['accesses'] > 0) or
       # (an online run's cache_sms is its last launch's split)
       not r['key'].endswith('.auto') and (r['energy']['controller_j'] > 0) != (r['cache_sms'] > 0)]
check('every run: energy by part (%s) adding up to energy_j; extended-LLC and controller energy exactly where there '
      'are extended-LLC accesses and cache-mode SMs' % ' '.join(PARTS), not bad, bad[:3])
en = [row for row in csv.DictReader(open(os.path.join(OUT, 'energy.csv')))]
ka = [row for row in en if row['workload'] == 'kmeans' and row['system'] == 'morpheus-all']
ra = run_of('kmeans', 'morpheus-all', int(t3['kmeans']['Morpheus-ALL']))
check('energy.csv: a row per application and Figure 10 system; kmeans\'s Morpheus-ALL row is its Table 3 run\'s parts',
      len(en) == 2 * 9 and len(ka) == 1 and all(abs(float(ka[0][k]) - ra['energy'][k]) <= 1e-6 * ra['energy_j']
                                                 for k in PARTS), ka, ra and ra['energy'])
eb = run_of('kmeans', 'bl', 68)['energy_j']
want = '| Morpheus-ALL | %.3f | %.3f | %.3f |' % (run_of('kmeans', 'bl', 68)['time_s'] / ra['time_s'],
                                               ra['perf_per_w'] / run_of('kmeans', 'bl', 68)['perf_per_w'],
                                               ra['energy_j'] / eb) + \
    ''.join(' %.3f |' % (ra['energy'][k] / eb) for k in PARTS)
check('summary.md: where the energy goes, Morpheus-ALL\'s row recomputed from its run and BL\'s (%s)' % want,
      '## Where the energy goes' in summary and want in summary, summary[-3000:])
rb = run_of('kmeans', 'bl', 68)['energy']
want = (ra['energy']['xllc_j'] / eb, (rb['dram_j'] + rb['llc_j'] - ra['energy']['dram_j'] - ra['energy']['llc_j']) / eb,
        (rb['static_j'] - ra['energy']['static_j']) / eb)
m = re.search(r'Morpheus-ALL against BL: its extended LLC costs (\S+) of BL\'s energy and saves (\S+) in DRAM and the '
              r'LLC; the static energy falls by (\S+) with', summary)
check('summary.md: Morpheus-ALL\'s energy against BL\'s by part, recomputed (%.4f %.4f %.4f)' % want,
      m and all(abs(float(g) - w) < 6e-4 and not g.startswith('-0.000') for g, w in zip(m.groups(), want)),
      m and m.groups(), summary[-3000:])
# the working sets against the LLC: kmeans's LLC misses at 2x and 4x over BL's, from the runs; the capacity the
# paper's Table 3 split adds (Morpheus-ALL: 47 of 68 SMs computing, 21 x 328 KiB over the 5 MiB LLC)
lm = {row['workload']: row for row in csv.DictReader(open(os.path.join(OUT, 'llc_misses.csv')))}
b1, b2, b4 = run_of('kmeans', 'bl', 68), run_of('kmeans', 'ibl', 68, llc=2), run_of('kmeans', 'ibl-4x-llc', 68, llc=4)
k = lm.get('kmeans', {})
check('llc_misses.csv: kmeans\'s misses at 2x and 4x the LLC over 1x\'s, from its runs; the paper\'s split adds '
      '21 x 328 KiB to the 5 MiB LLC (2.345 LLCs); summary.md\'s section',
      b1 and b2 and b4 and 'lib' not in lm and int(float(k['LLC misses 1x'])) == b1['memsys']['llc']['misses'] and
      abs(float(k['misses 2x / 1x']) - b2['memsys']['llc']['misses'] / b1['memsys']['llc']['misses']) < 1e-5 and
      abs(float(k['misses 4x / 1x']) - b4['memsys']['llc']['misses'] / b1['memsys']['llc']['misses']) < 1e-5 and
      k['paper cache SMs'] == '21' and abs(float(k['paper LLC + extended LLC x LLC']) - (1 + 21 * 328 / 1024 / 5)) < 1e-4
      and '## The working sets against the LLC' in summary, k)
root = os.environ.get('MX_SOURCE_ROOT', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
lv = json.load(open(os.path.join(root, 'configs', 'rtx3080.json')))['timing']['level']
paper_x = (lv['llc'] * 185 + 80) // 160  # the paper's 185 ns over about 160 ns, in the LLC's cycles
check('summary.md: no word on the extended LLC\'s latency when the configuration has the paper\'s ratio '
      '(rtx3080: %d cycles against %d)' % (lv['xllc'], lv['llc']),
      abs(lv['xllc'] - paper_x) <= 2 and 'An extended-LLC hit takes' not in summary, lv, summary[-2500:])
if shutil.which('gnuplot'):
    figs = ['fig1_sm_scaling', 'fig2_llc_size', 'fig10_time', 'fig10_perf_per_watt', 'fig11_predictor', 'bandwidth']
    okf = all(open(os.path.join(OUT, f + '.png'), 'rb').read(8) == b'\x89PNG\r\n\x1a\n' and
              b'<svg' in open(os.path.join(OUT, f + '.svg'), 'rb').read(4096) for f in figs)
    check('figures: PNG and SVG for each', okf, os.listdir(OUT))
else:
    print('skip figures (no gnuplot)')
check('no temporary files left', not [f for f in os.listdir(OUT) if f.endswith('.tmp')] and
      not os.path.exists(os.path.join(OUT, 'tmp')), os.listdir(OUT))

# resume: nothing redone, nothing changed
before = {f: open(os.path.join(OUT, 'runs', f)).read() for f in os.listdir(os.path.join(OUT, 'runs'))}
p = evaluate(OUT)
after = {f: open(os.path.join(OUT, 'runs', f)).read() for f in os.listdir(os.path.join(OUT, 'runs'))}
check('again: 0 runs, every run kept, files unchanged',
      p.returncode == 0 and 'phase 1: 0 runs (' in p.stderr and 'phase 2: 0 runs (' in p.stderr and before == after,
      p.stderr[-1500:])
victim = sorted(before)[0]
os.unlink(os.path.join(OUT, 'runs', victim))
p = evaluate(OUT)
check('a deleted run is redone alone (%s)' % victim,
      p.returncode == 0 and ('phase 1: 1 runs (' in p.stderr or 'phase 2: 1 runs (' in p.stderr) and
      os.path.exists(os.path.join(OUT, 'runs', victim)), p.stderr[-1500:])
# the workload program's bytes are part of what a kept run must match: its
# FNV-1a digest in each run's object (computed here), and a run whose program
# differs (a workload rebuilt with other sizes) is redone
def fnv1a(path):
    h = 0xcbf29ce484222325
    for b in open(path, 'rb').read():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return '%016x' % h


wdir = os.path.join(os.path.dirname(os.path.abspath(M)), 'workloads')
dig = {w: fnv1a(os.path.join(wdir, w)) for w in ('kmeans', 'lib')}
okd = [k for k, r in runs.items() if r.get('program_digest') != dig[r['workload']]]
check('program_digest: FNV-1a of build/workloads/NAME in every run', not okd, okd[:5], dig)
# the results revision, as frontend/cli.h defines it, in every run (it is part of settings_hash: a build whose
# runs report other cycles redoes the runs of the one before)
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'frontend', 'cli.h')
rev = re.search(r'#define MX_RESULTS_REV "([^"]+)"', open(src).read()).group(1)
okr = [k for k, r in runs.items() if r.get('results_rev') != rev]
check('results_rev: %s (frontend/cli.h) in every run' % rev, not okr, okr[:5])
p = evaluate(OUT, '--dry-run')
nk = len([l for l in p.stdout.splitlines() if ': (kept) workloads run ' in l])
check('--dry-run marks the kept runs', p.returncode == 0 and nk > 10 and ' kept from %s, 0 to run)' % OUT in p.stdout,
      nk, p.stdout[-500:])
victim2 = sorted(before)[-1]
vp = os.path.join(OUT, 'runs', victim2)
o = json.load(open(vp))
o['program_digest'] = '0' * 16
json.dump(o, open(vp, 'w'))
p = evaluate(OUT)
check('a run of another build of its program is redone alone (%s)' % victim2,
      p.returncode == 0 and ('phase 1: 1 runs (' in p.stderr or 'phase 2: 1 runs (' in p.stderr) and
      json.load(open(vp)).get('program_digest') == dig[o['workload']], p.stderr[-1500:])
# --xllc-gbps: Morpheus-ALL's splits with cache-mode SMs rerun at another bandwidth of the extended LLC per
# cache-mode SM, nothing else redone; xllc_bandwidth.csv recomputed from the runs
p = evaluate(OUT, '--xllc-gbps', '290,1')
xp = os.path.join(OUT, 'runs', 'kmeans.small.morpheus-all.c34.xbw290.json')
xr = json.load(open(xp)) if os.path.exists(xp) else None
r37 = run_of('kmeans', 'morpheus-all', 34)
x1p = os.path.join(OUT, 'runs', 'kmeans.small.morpheus-all.c34.xbw1.json')
x1 = json.load(open(x1p)) if os.path.exists(x1p) else None
check('--xllc-gbps 290,1: two more runs, kmeans\'s Morpheus-ALL at 34 SMs with 290 and 1 GB/s per cache-mode SM '
      '(their objects say so), the rest kept',
      p.returncode == 0 and 'phase 1: 2 runs (' in p.stderr and x1 is not None and x1['xllc_gbps_per_sm'] == 1 and 'phase 2: 0 runs (' in p.stderr and xr is not None and
      xr['xllc_gbps_per_sm'] == 290 and r37['xllc_gbps_per_sm'] == 37 and xr['cache_sms'] == 34 and
      xr['pass'] is True and xr['memsys']['xllc']['accesses'] > 0,
      p.stderr[-1500:], xr and {k: xr.get(k) for k in ('xllc_gbps_per_sm', 'cache_sms', 'pass')})
dl = [l for l in evaluate(OUT, '--xllc-gbps', '290', '--dry-run').stdout.splitlines() if '.xbw' in l.split(':')[0]]
check('--dry-run --xllc-gbps 290: the one 290 GB/s run is kept and passes -o timing.bandwidth.xllc_gbps_per_sm=290',
      len(dl) == 1 and dl[0].startswith('kmeans.small.morpheus-all.c34.xbw290: (kept) ') and
      dl[0].endswith(' -o timing.bandwidth.xllc_gbps_per_sm=290'), dl)
check('--xllc-gbps: 7.8x the bandwidth is not slower, 1 GB/s is (%s, %s against %s cycles)'
      % (xr and xr['cycles'], x1 and x1['cycles'], r37['cycles']),
      xr is not None and x1 is not None and xr['cycles'] <= r37['cycles'] < x1['cycles'])
xb = {row['workload']: row for row in csv.DictReader(open(os.path.join(OUT, 'xllc_bandwidth.csv')))}
r68 = run_of('kmeans', 'morpheus-all', 68)
errs = []
for gb, r34 in (('1', x1), ('37', r37), ('290', xr)):
    best_r = min((r68, r34), key=lambda r: (r['time_s'], r['compute_sms'])) if r34 else r68
    want = best_r['time_s'] / bl_t
    got = float(xb['kmeans'][gb + ' GB/s'])
    if abs(got - want) > 1e-5 * want or int(xb['kmeans'][gb + ' GB/s compute SMs']) != best_r['compute_sms']:
        errs.append((gb, got, want, xb['kmeans'][gb + ' GB/s compute SMs'], best_r['compute_sms']))
check('xllc_bandwidth.csv: kmeans\'s best Morpheus-ALL time over BL\'s at 1, 37 and 290 GB/s (the point with every '
      'SM computing in each), and its SMs', not errs and 'lib' not in xb, errs, xb)
ev = json.load(open(os.path.join(OUT, 'evaluate.json')))
xe = ev.get('xllc_bandwidth') or []
summary = open(os.path.join(OUT, 'summary.md')).read()
check('evaluate.json and summary.md: the speedup at each bandwidth (the GMEAN row\'s inverse)',
      [x['gbps_per_sm'] for x in xe] == [1, 37, 290] and
      all(abs(x['morpheus_all_speedup_vs_bl'] * float(xb['GMEAN']['%g GB/s' % x['gbps_per_sm']]) - 1) < 1e-5
          for x in xe) and '## Morpheus-ALL against the extended LLC\'s bandwidth' in summary and
      '| 290 | %.3f |' % xe[2]['morpheus_all_speedup_vs_bl'] in summary, xe, summary[-1500:])
rcx = [row for row in csv.DictReader(open(os.path.join(OUT, 'runs.csv'))) if row['xllc_gbps_per_sm'] == '290']
check('runs.csv: the 290 GB/s run, marked in column xllc_gbps_per_sm', len(rcx) == 1 and rcx[0]['cache_sms'] == '34',
      rcx)
if shutil.which('gnuplot'):
    check('xllc_bandwidth.png', open(os.path.join(OUT, 'xllc_bandwidth.png'), 'rb').read(8) == b'\x89PNG\r\n\x1a\n')
# a configuration file whose values change: every run redone (the file's name is the same); lib alone, a
# compute-bound application: the figures of the memory-bound ones (2, 11, bandwidth) are left out, exit 0
cfg = os.path.join(TMP, 'my3080.json')
root = os.environ.get('MX_SOURCE_ROOT', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
shutil.copy(os.path.join(root, 'configs', 'rtx3080.json'), cfg)
OUT2 = os.path.join(TMP, 'ev2')
p = subprocess.run([M, 'evaluate', '--size', 'small', '--sweep', '68,34', '-j', '2', '--out', OUT2, '--config', cfg, 'lib'],
                   capture_output=True, text=True)
c = json.load(open(cfg))
c['timing']['level']['dram'] += 10
json.dump(c, open(cfg, 'w'))
p2 = subprocess.run([M, 'evaluate', '--size', 'small', '--sweep', '68,34', '-j', '2', '--out', OUT2, '--config', cfg, 'lib'],
                    capture_output=True, text=True)
check('--config FILE with other values in the same file: every run redone',
      p.returncode == 0 and p2.returncode == 0 and '(0 kept from before)' in p2.stderr, p.stderr[-800:], p2.stderr[-800:])
p = evaluate(OUT, '-o', 'timing.level.xllc=316')
check('other settings (-o timing.level.xllc=316): every run redone',
      p.returncode == 0 and '(0 kept from before)' in p.stderr, p.stderr[-1500:])
summary = open(os.path.join(OUT, 'summary.md')).read()
want = 'An extended-LLC hit takes 316 cycles, an LLC hit %d: %.2fx' % (lv['llc'], 316 / lv['llc'])
check('summary.md: the extended LLC\'s latency against the LLC\'s when it is not the paper\'s ratio (%s), and the '
      '-o keys that give it' % want, want in summary and '-o timing.level.xllc=%d ' % paper_x in summary,
      summary[-2500:])

# --xllc helper: the Morpheus runs go through the helper kernel (their JSON says so, its requests counted) and
# summary.md says what that means
OUT3 = os.path.join(TMP, 'ev3')
p = subprocess.run([M, 'evaluate', '--size', 'small', '--sweep', '68,34', '-j', '2', '--out', OUT3, '--xllc', 'helper',
                    '--no-figures', '-q', 'kmeans'], capture_output=True, text=True)
mr = [json.load(open(os.path.join(OUT3, 'runs', f))) for f in os.listdir(os.path.join(OUT3, 'runs'))
      if '.morpheus-' in f] if p.returncode == 0 else []
check('--xllc helper: every Morpheus run with cache-mode SMs served by the helper kernel (none without), and '
      'summary.md says so',
      p.returncode == 0 and any(r['cache_sms'] for r in mr) and
      all(r.get('xllc') == 'helper' and (r['memsys']['helper']['requests'] > 0) == (r['cache_sms'] > 0) for r in mr)
      and 'Extended LLC `helper`: every access is served by the helper kernel' in
      open(os.path.join(OUT3, 'summary.md')).read(), p.stderr[-1500:], [(r.get('xllc'), r['memsys']['helper']) for r in mr])

# bad input: refused, exit 2, nothing written
for args, want in ((['nope'], "unknown application 'nope'"), (['--timing', 'none'], '--timing none gives no cycles'),
                   (['--timing', 'no-such-model'], 'no-such-model'), (['-o', 'memsys.nope=1'], 'memsys.nope'),
                   (['--predictor', 'none'], '--predictor is set by each evaluated system'),
                   (['--sweep', '68,0'], '--sweep: expected'), (['--sweep', '99'], 'more than the GPU'),
                   (['-j', '0'], '-j: expected'), (['--size', 'huge'], "--size is small, twice-llc, medium or large, got 'huge'"),
                   (['--xllc', 'off'], '--xllc is native or helper'),
                   (['--xllc-gbps', '74,0'], '--xllc-gbps: expected'), (['--xllc-gbps', '7x'], '--xllc-gbps: expected'),
                   (['--xllc', 'helper', '--xllc-gbps', '74'], '--xllc-gbps is for the native extended LLC')):
    out = os.path.join(TMP, 'bad')
    p = subprocess.run([M, 'evaluate', '--out', out] + args, capture_output=True, text=True)
    check('refused: %s' % ' '.join(args), p.returncode == 2 and want in p.stderr and not os.path.exists(out), p.stderr)

shutil.rmtree(TMP)
done()
