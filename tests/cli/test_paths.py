#!/usr/bin/env python3
"""tests/cli/test_paths.py MORPHEUS DIGEST_BOTH DIGEST_PTX [WORKLOAD] — the
two code paths of a fatbinary, and what shows they agree.

DIGEST_BOTH is tests/cuda/digest.cu built with PTX and sm_86 machine code,
DIGEST_PTX the same with PTX only.  `morpheus exec --digest FILE` must
write the FNV-1a of exactly the bytes the program copied device-to-host,
recomputed here from what the program computes (c[i] = 3i + 1, a byte
pattern); `--prefer sass` must run the machine code (other instruction
counts, same bytes back), the default the PTX; bad values and --prefer sass
on a PTX-only binary are refused with a precise message.  With WORKLOAD,
`morpheus workloads run WORKLOAD --compare-paths --json` must pass with
equal digests of both paths and the counts of each."""
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mxcheck import check, done  # noqa: E402

morpheus, both, ptx_only = sys.argv[1:4]
workload = sys.argv[4] if len(sys.argv) > 4 else None
tmp = tempfile.mkdtemp(prefix='mx-paths-')


def fnv1a64(data, h=0xcbf29ce484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


def run(*args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([morpheus] + list(args), capture_output=True, text=True, env=e, timeout=120)


def exec_(prefer, tag, binary=both):
    dig, st = os.path.join(tmp, tag + '.digest'), os.path.join(tmp, tag + '.jsonl')
    opts = ['--prefer', prefer] if prefer else []
    p = run('exec', *opts, '--digest', dig, '--stats', st, '--', binary)
    rec = json.load(open(dig)) if os.path.exists(dig) else None
    tins = sum(json.loads(l)['thread_instructions'] for l in open(st)) if os.path.exists(st) else None
    return p, rec, tins


n = 4099
want = b''.join(struct.pack('<i', 3 * i + 1) for i in range(n))
want += bytes(((i * 7 + (i >> 3)) & 0xff) for i in range(n))
p, ptx, ptx_tins = exec_('ptx', 'ptx')
check('--prefer ptx: the program passes', p.returncode == 0 and 'PASS digest' in p.stdout, p.stdout + p.stderr)
check('--digest: three device-to-host copies of 5 n bytes', ptx and ptx['d2h_copies'] == 3 and
      ptx['d2h_bytes'] == len(want), ptx)
check('--digest: the FNV-1a of exactly the bytes read back', ptx and ptx['d2h_fnv1a64'] == '%016x' % fnv1a64(want),
      (ptx, '%016x' % fnv1a64(want)))
p, sass, sass_tins = exec_('sass', 'sass')
check('--prefer sass: the program passes', p.returncode == 0 and 'PASS digest' in p.stdout, p.stdout + p.stderr)
check('--prefer sass: the same bytes read back', sass == ptx, (sass, ptx))
check('--prefer sass runs other code than the PTX (its thread-instruction count differs)',
      sass_tins and ptx_tins and sass_tins != ptx_tins, (sass_tins, ptx_tins))
p, dflt, dflt_tins = exec_(None, 'default')
check('by default the PTX runs', p.returncode == 0 and dflt == ptx and dflt_tins == ptx_tins, (dflt_tins, ptx_tins))

p, _, _ = exec_('sass', 'ptxonly', ptx_only)
check('--prefer sass on a PTX-only program: the program fails', p.returncode != 0 and 'FAIL digest' in p.stdout, p.stdout)
check('... and the reason is said', 'morpheus: --prefer sass (MORPHEUS_PREFER): the fatbinary holds PTX but no '
      'sm_80/sm_86 machine code' in p.stderr, p.stderr)
p = run('exec', '--prefer', 'cubin', '--', both)
check('--prefer cubin: a usage error', p.returncode == 2 and "--prefer is ptx or sass, not 'cubin'" in p.stderr, p.stderr)
p = run('exec', '--prefer', 'sass', '--ptx', '/dev/null', '--', both)
check('--prefer sass with --ptx: a usage error', p.returncode == 2 and 'exclude each other' in p.stderr, p.stderr)
p = run('exec', '--digest', os.path.join(tmp, 'no', 'such', 'dir', 'd'), '--', both)
check('--digest into a missing directory: said', 'cannot open MORPHEUS_DIGEST file' in p.stderr, p.stderr)

if workload:
    js = os.path.join(tmp, 'wl.json')
    p = run('workloads', 'run', workload, '--compare-paths', '--json', js)
    check('workloads run --compare-paths %s: PASS' % workload, p.returncode == 0, p.stdout + p.stderr)
    rows = json.load(open(js)) if os.path.exists(js) else [{}]
    r = rows[0]
    pp, ss = r.get('ptx', {}), r.get('sass', {})
    check('both paths pass and read back the same bytes', r.get('pass') and r.get('same_output') and pp.get('pass') and
          ss.get('pass') and pp.get('d2h_fnv1a64') and pp.get('d2h_fnv1a64') == ss.get('d2h_fnv1a64'), r)
    check('the counts of both paths, from different code', pp.get('thread_instructions', 0) > 0 and
          ss.get('thread_instructions', 0) > 0 and pp['thread_instructions'] != ss['thread_instructions'], r)
    check('the table shows both counts and their ratio',
          str(pp.get('thread_instructions')) in p.stdout and str(ss.get('thread_instructions')) in p.stdout, p.stdout)
    p = run('workloads', 'run', workload, '--compare-paths', '--compiler', 'nvcc')
    check('--compare-paths with --compiler: a usage error', p.returncode == 2 and 'no --compiler' in p.stderr, p.stderr)
done()
