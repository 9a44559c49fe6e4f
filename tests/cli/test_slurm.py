#!/usr/bin/env python3
"""tests/cli/test_slurm.py — `morpheus evaluate --slurm`.

usage: test_slurm.py errors|cluster PATH/TO/morpheus

errors: a Slurm that is not there or will not take the job (fake sbatch and
squeue scripts on PATH, or none): exit 2 and nothing written before the
runs; a submission refused after the check: exit 3, no run and no table.

cluster (root, Debian's slurm-wlm and munge): a real one-node Slurm on
localhost in a temporary directory (munged with a generated key, slurmctld
and slurmd in the foreground, stopped at the end), then the same plan locally
and with --slurm: the same runs (every run's object but its wall_seconds),
the same tables byte for byte, the array tasks seen by squeue; a second
invocation submits nothing; a run whose log cannot be created and one whose
status cannot be written are reported failed with their logs.

Exit 77 (meson's skip) when the workloads are not built or, for cluster,
when not root or Slurm is not installed (bash .ci/setup installs it)."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from mxcheck import check, done

MODE, M = sys.argv[1], os.path.abspath(sys.argv[2])
PLAN = ['--size', 'small', '--sweep', '68,34', 'kmeans', 'lib']

if not os.path.exists(os.path.join(os.path.dirname(M), 'workloads', 'kmeans')):
    print('skip: the workloads are not built (no nvcc)')
    sys.exit(77)

TMP = tempfile.mkdtemp(prefix='mx-slurm-')


def evaluate(out, *extra, env=None):
    return subprocess.run([M, 'evaluate', '--out', out] + list(extra), capture_output=True, text=True, env=env)


def tree(d):
    """Every file under d with its bytes."""
    r = {}
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            r[os.path.relpath(p, d)] = open(p, 'rb').read()
    return r


def fake_bin(name, **scripts):
    """A directory holding the given shell scripts as commands."""
    d = os.path.join(TMP, name)
    os.makedirs(d)
    for cmd, body in scripts.items():
        with open(os.path.join(d, cmd), 'w') as f:
            f.write('#!/bin/sh\n' + body + '\n')
        os.chmod(os.path.join(d, cmd), 0o755)
    return d


def errors():
    env = dict(os.environ)
    # no sbatch at all
    empty = fake_bin('empty')
    out = os.path.join(TMP, 'e1')
    p = evaluate(out, '--slurm', *PLAN, env=dict(env, PATH=empty))
    check('no sbatch on PATH: exit 2, named, nothing written',
          p.returncode == 2 and 'sbatch is not on PATH' in p.stderr and not os.path.exists(out), p.returncode, p.stderr)
    # sbatch but no squeue
    only = fake_bin('only-sbatch', sbatch='exit 0')
    p = evaluate(out, '--slurm', *PLAN, env=dict(env, PATH=only))
    check('no squeue on PATH: exit 2, named, nothing written',
          p.returncode == 2 and 'squeue is not on PATH' in p.stderr and not os.path.exists(out), p.returncode, p.stderr)
    # a controller that does not answer: sbatch's own message, and an existing output directory left as it was
    down = fake_bin('down', sbatch='echo "sbatch: error: Batch job submission failed: Unable to contact slurm '
                                   'controller (connect failure)" >&2; exit 1', squeue='exit 1')
    os.makedirs(os.path.join(out, 'runs'))
    with open(os.path.join(out, 'runs', 'keep.json'), 'w') as f:
        f.write('{}')
    before = tree(out)
    p = evaluate(out, '--slurm', *PLAN, env=dict(env, PATH=down + ':' + env.get('PATH', '')))
    check('sbatch cannot reach the controller: exit 2 with its message, the output directory unchanged',
          p.returncode == 2 and 'Unable to contact slurm controller' in p.stderr and 'nothing was written' in p.stderr
          and tree(out) == before and sorted(os.listdir(out)) == ['runs'], p.returncode, p.stderr, sorted(tree(out)))
    # the arguments reach sbatch --test-only, in order, --slurm-args last
    log = os.path.join(TMP, 'argv.log')
    rec = fake_bin('rec', sbatch='echo "$@" >> %s; exit 1' % log, squeue='exit 0')
    out2 = os.path.join(TMP, 'e2')
    p = evaluate(out2, '--slurm', '--slurm-partition', 'gpu', '--slurm-args', ' --time=30  --qos=low ', '-j', '3',
                 '--sweep', '68', 'lib', env=dict(env, PATH=rec + ':' + env.get('PATH', '')))
    got = open(log).read().split() if os.path.exists(log) else []
    check('sbatch --test-only gets the name, --array=0-(N-1)%j, the partition, then --slurm-args\' words',
          p.returncode == 2 and got[:2] == ['--test-only', '--job-name=morpheus-evaluate'] and
          got[2].startswith('--array=0-') and got[2].endswith('%3') and
          got[3:] == ['--partition', 'gpu', '--time=30', '--qos=low', '--wrap=true'] and not os.path.exists(out2),
          got, p.stderr)
    # the check passes but the submission fails: exit 3, no run, no table, no list left in tmp/
    late = fake_bin('late', sbatch='case "$*" in *--test-only*) exit 0;; esac; echo "sbatch: error: QOSMaxSubmitJob'
                                   'PerUserLimit" >&2; exit 1', squeue='exit 0')
    out3 = os.path.join(TMP, 'e3')
    p = evaluate(out3, '--slurm', *PLAN, env=dict(env, PATH=late + ':' + env.get('PATH', '')))
    files = sorted(tree(out3)) if os.path.isdir(out3) else []
    check('submission refused after the check: exit 3 with sbatch\'s message; no run, table or list written',
          p.returncode == 3 and 'QOSMaxSubmitJobPerUserLimit' in p.stderr and "did not take phase 1's job" in p.stderr
          and files == [], p.returncode, p.stderr, files)
    # an output directory with a '%' (sbatch's log names would read it as a pattern)
    out5 = os.path.join(TMP, 'e%j')
    p = evaluate(out5, '--slurm', *PLAN, env=dict(env, PATH=late + ':' + env.get('PATH', '')))
    check("an output directory with a '%': exit 2, nothing written",
          p.returncode == 2 and "cannot hold a '%'" in p.stderr and not os.path.exists(out5), p.returncode, p.stderr)
    # Slurm's options without --slurm, and bad values
    for args, want in ((['--slurm-partition', 'x'], '--slurm-partition is for --slurm'),
                       (['--slurm-args', '--time=1'], '--slurm-args is for --slurm'),
                       (['--slurm', '--slurm-partition', ''], '--slurm-partition: expected'),
                       (['--slurm', '--slurm-args', ' '.join(['-v'] * 40)], '--slurm-args: more than')):
        p = evaluate(os.path.join(TMP, 'e4'), *args, 'lib')
        check('refused: %s' % ' '.join(args)[:60], p.returncode == 2 and want in p.stderr and
              not os.path.exists(os.path.join(TMP, 'e4')), p.returncode, p.stderr)


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


DAEMONS = []


def stop_daemons():
    for d in reversed(DAEMONS):
        if d.poll() is None:
            d.terminate()
            try:
                d.wait(10)
            except subprocess.TimeoutExpired:
                d.kill()
                d.wait()
    DAEMONS.clear()


def start_slurm():
    """munged, slurmctld and slurmd on localhost, everything in TMP/slurm: the environment for Slurm's commands."""
    S = os.path.join(TMP, 'slurm')
    for d in ('state', 'spool', 'run'):
        os.makedirs(os.path.join(S, d))
    for d in (TMP, S, os.path.join(S, 'run')):
        os.chmod(d, 0o755)  # (munged: its socket's directories must be searchable by all)
    key = os.path.join(S, 'munge.key')
    with open(key, 'wb') as f:
        f.write(os.urandom(1024))
    os.chmod(key, 0o600)
    sock = os.path.join(S, 'run', 'munge.socket')
    DAEMONS.append(subprocess.Popen(
        ['munged', '-F', '--force', '--key-file', key, '--socket', sock, '--pid-file', os.path.join(S, 'munged.pid'),
         '--log-file', os.path.join(S, 'munged.log'), '--seed-file', os.path.join(S, 'munged.seed')],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))
    conf = os.path.join(S, 'slurm.conf')
    with open(conf, 'w') as f:
        f.write('\n'.join([
            'ClusterName=mxtest', 'SlurmctldHost=localhost', 'SlurmctldPort=%d' % free_port(),
            'SlurmdPort=%d' % free_port(), 'AuthType=auth/munge', 'CredType=cred/munge', 'AuthInfo=socket=' + sock,
            'SlurmUser=root', 'SlurmdUser=root', 'StateSaveLocation=' + os.path.join(S, 'state'),
            'SlurmdSpoolDir=' + os.path.join(S, 'spool'), 'SlurmctldPidFile=' + os.path.join(S, 'slurmctld.pid'),
            'SlurmdPidFile=' + os.path.join(S, 'slurmd.pid'), 'SlurmctldLogFile=' + os.path.join(S, 'slurmctld.log'),
            'SlurmdLogFile=' + os.path.join(S, 'slurmd.log'), 'ProctrackType=proctrack/linuxproc',
            'TaskPlugin=task/none', 'SelectType=select/cons_tres', 'SelectTypeParameters=CR_CPU', 'MpiDefault=none',
            'JobAcctGatherType=jobacct_gather/none', 'AccountingStorageType=accounting_storage/none',
            'ReturnToService=2', 'SlurmdParameters=config_overrides',
            'SchedulerParameters=batch_sched_delay=0',  # (default 3 s between starts of batch jobs)
            'NodeName=localhost NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN' % os.cpu_count(),
            'PartitionName=mxtest Nodes=localhost Default=YES MaxTime=INFINITE State=UP', '']))
    env = {k: v for k, v in os.environ.items() if not k.startswith('SLURM_')}
    env['SLURM_CONF'] = conf
    for _ in range(100):  # munged's socket first
        if os.path.exists(sock):
            break
        time.sleep(0.05)
    for cmd in (['slurmctld', '-D', '-i', '-f', conf], ['slurmd', '-D', '-f', conf, '-N', 'localhost']):
        DAEMONS.append(subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))
    state = ''
    for _ in range(300):
        if any(d.poll() is not None for d in DAEMONS):
            break
        p = subprocess.run(['sinfo', '-h', '-n', 'localhost', '-o', '%t'], capture_output=True, text=True, env=env)
        state = p.stdout.strip()
        if state == 'idle':
            break
        time.sleep(0.1)
    logs = ''.join('--- %s\n%s' % (f, open(os.path.join(S, f)).read()[-1500:]) for f in
                   ('munged.log', 'slurmctld.log', 'slurmd.log') if os.path.exists(os.path.join(S, f)))
    return env, state, logs


def strip_wall(o):
    if isinstance(o, dict):
        return {k: strip_wall(v) for k, v in o.items() if k != 'wall_seconds'}
    if isinstance(o, list):
        return [strip_wall(v) for v in o]
    return o


def cluster():
    env, state, logs = start_slurm()
    if not check('Slurm on localhost: the node is idle', state == 'idle', state, logs, width=5000):
        return
    t0 = time.time()
    L, S = os.path.join(TMP, 'local'), os.path.join(TMP, 'slurm-out')
    p = evaluate(L, '-j', '2', *PLAN, env=env)
    check('local evaluate: exit 0', p.returncode == 0, p.stderr[-1500:])
    p = evaluate(S, '--slurm', *PLAN, env=env)
    err = p.stderr
    check('evaluate --slurm: exit 0', p.returncode == 0, err[-3000:])
    jobs = [line.split('Slurm job ')[1].split(',')[0] for line in err.splitlines() if ': Slurm job ' in line]
    check('two array jobs (phases 1 and 2), progress k/N as the runs finish',
          len(jobs) == 2 and 'evaluate: 1/' in err and not os.path.isdir(os.path.join(S, 'tmp')), jobs, err[-2000:])
    lr = sorted(os.listdir(os.path.join(L, 'runs')))
    sr = sorted(os.listdir(os.path.join(S, 'runs'))) if os.path.isdir(os.path.join(S, 'runs')) else []
    # each array task seen by Slurm itself, every one COMPLETED
    tasks = []
    for j in jobs:
        q = subprocess.run(['squeue', '-h', '-t', 'all', '-j', j, '-o', '%i %T'], capture_output=True, text=True,
                           env=env)
        tasks += q.stdout.splitlines()
    check('squeue: one COMPLETED array task per run (%d)' % len(lr),
          len(tasks) == len(lr) and all(t.endswith(' COMPLETED') for t in tasks), tasks)
    diff = [f for f in lr if f not in sr or strip_wall(json.load(open(os.path.join(L, 'runs', f)))) !=
            strip_wall(json.load(open(os.path.join(S, 'runs', f))))]
    check('the same %d runs, each object equal to the local run\'s (but wall_seconds): cycles, time, memsys, '
          'settings_hash' % len(lr), lr == sr and len(lr) > 20 and not diff, lr, sr, diff)
    tables = [f for f in sorted(os.listdir(L)) if f.endswith('.csv') or f == 'summary.md']
    tdiff = [f for f in tables if open(os.path.join(L, f), 'rb').read() !=
             open(os.path.join(S, f), 'rb').read() if os.path.exists(os.path.join(S, f))] + \
        [f for f in tables if not os.path.exists(os.path.join(S, f))]
    check('the tables and summary.md byte for byte (%d files)' % len(tables), len(tables) >= 8 and not tdiff, tdiff)
    check('evaluate.json equal but wall_seconds',
          strip_wall(json.load(open(os.path.join(L, 'evaluate.json')))) ==
          strip_wall(json.load(open(os.path.join(S, 'evaluate.json')))))
    check('no log left (every run passed)', os.listdir(os.path.join(S, 'logs')) == [], os.listdir(os.path.join(S, 'logs')))
    before = tree(os.path.join(S, 'runs'))
    p = evaluate(S, '--slurm', *PLAN, env=env)
    check('again: nothing submitted, runs unchanged',
          p.returncode == 0 and 'Slurm job' not in p.stderr and 'phase 2: 0 runs (' in p.stderr and
          tree(os.path.join(S, 'runs')) == before, p.stderr[-1500:])
    # failures: a run whose log cannot be created (a directory in its place), one whose status cannot be written
    F = os.path.join(TMP, 'fail')
    os.makedirs(os.path.join(F, 'logs', 'lib.small.morpheus-basic.c68.log'))
    os.makedirs(os.path.join(F, 'tmp', 'lib.small.morpheus-all.c68.status.tmp'))
    p = evaluate(F, '--slurm', '-j', '1', '--size', 'small', '--sweep', '68', '--no-figures', 'lib', env=env)
    err = p.stderr
    job = [line.split('Slurm job ')[1].split(',')[0] for line in err.splitlines() if ': Slurm job ' in line][:1]
    slog = os.path.join(F, 'logs', 'slurm-%s_1.log' % (job[0] if job else '?'))
    check('a run that cannot start: FAILED, named with its logs; Slurm\'s log says why',
          p.returncode == 1 and 'lib.small.morpheus-basic.c68 failed (Slurm task %s_1)' % (job[0] if job else '?') in err
          and os.path.exists(slog) and 'Is a directory' in open(slog).read(), p.returncode, err[-2500:])
    check('a task over without its status: FAILED once squeue says the job is over',
          'lib.small.morpheus-all.c68 failed without an exit status' in err, err[-2500:])
    check('-j 1: at most one task at once', 'at most 1 at once' in err, err[-1500:])
    res = json.load(open(os.path.join(F, 'evaluate.json')))['runs'] if os.path.exists(
        os.path.join(F, 'evaluate.json')) else []
    check('the other runs merged: BL passed; the tables written',
          any(r['key'] == 'lib.small.bl.c68' and r['pass'] for r in res) and
          os.path.exists(os.path.join(F, 'summary.md')), [(r['key'], r['pass']) for r in res])
    print('(Slurm part: %.1f s)' % (time.time() - t0))


def main():
    if MODE == 'errors':
        errors()
        return
    need = [c for c in ('munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'sinfo', 'scancel') if not shutil.which(c)]
    if os.geteuid() != 0 or need:
        print('skip: a real Slurm needs root and slurm-wlm, munge (%s; bash .ci/setup installs them)' %
              ('not root' if os.geteuid() else 'missing ' + ' '.join(need)))
        sys.exit(77)
    cluster()


def on_term(sig, frame):
    raise SystemExit(1)


signal.signal(signal.SIGTERM, on_term)
try:
    main()
finally:
    stop_daemons()
    shutil.rmtree(TMP, ignore_errors=True)
done()
