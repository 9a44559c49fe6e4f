#!/usr/bin/env python3
"""tests/cli/test_config.py — configurations (frontend/config.c, configs/*.json)
from the command line: `morpheus config list|show` for each built-in
configuration, configs/rtx3080.json equal to the built-in defaults, show
output loading back to the same values, -o and option precedence, unknown
keys and bad values named in the error, more cache-mode SMs than SMs refused
before anything runs (run, exec, workloads), `exec --config` reaching a CUDA
program (tests/cuda/config_props.cu) with the MORPHEUS_* variables winning
over the configuration and the options over both.

usage: test_config.py PATH/TO/morpheus [PATH/TO/cuda_config_props]
Prints one line per check; exit 1 if any failed."""
import json
import os
import subprocess
import sys
import tempfile

from mxcheck import check, done

M = sys.argv[1]
PROG = sys.argv[2] if len(sys.argv) > 2 else None
ROOT = os.environ.get('MX_SOURCE_ROOT', os.path.join(os.path.dirname(__file__), '..', '..'))
CONFIGS = os.path.join(ROOT, 'configs')
BUILTIN = ['a100', 'h100', 'h200', 'rtx3080']
TMP = tempfile.mkdtemp(prefix='mx-cfg-')


def run(*args, env=None):
    e = dict(os.environ)
    for k in list(e):
        if k.startswith('MORPHEUS_'):
            del e[k]
    e.update(env or {})
    p = subprocess.run([M] + list(args), capture_output=True, text=True, env=e, timeout=120)
    return p.returncode, p.stdout, p.stderr


def first_line(s):
    return s.splitlines()[0] if s else ''


def expect_error(name, want, *args, env=None, code=2):
    rc, out, err = run(*args, env=env)
    check(name, rc == code and first_line(err) == want, 'exit %d (want %d)' % (rc, code), 'stderr: ' + first_line(err),
          'want:   ' + want)


def flat(o, prefix=''):
    """{'memsys.llc.ways': 16, ...} of a configuration's JSON (description and source left out)."""
    r = {}
    for k, v in o.items():
        key = prefix + k
        if isinstance(v, dict):
            r.update(flat(v, key + '.'))
        elif key not in ('description', 'source'):
            r[key] = v
    return r


def show(*args, env=None):
    rc, out, err = run('config', 'show', *args, env=env)
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, None, err + out


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


# ------------------------------------------------------------------ config list
rc, out, err = run('config', 'list')
want = []
for n in BUILTIN:
    with open(os.path.join(CONFIGS, n + '.json')) as f:
        want.append('%-10s %s' % (n, json.load(f)['description']))
check('config list: the four built-ins with their descriptions', rc == 0 and out.splitlines() == want, out, want)

# ------------------------------------------------------------------ config show NAME = the file, every key
rc, defaults, err = show()
check('config show (no NAME): the built-in defaults, JSON', rc == 0 and defaults is not None, err)
keys = set(flat(defaults))
check('config show: 115 keys', len(keys) == 115, sorted(keys))
for n in BUILTIN:
    with open(os.path.join(CONFIGS, n + '.json')) as f:
        text = json.load(f)
    fk = flat(text)
    check(n + '.json has every key', set(fk) == keys, 'missing: %s' % sorted(keys - set(fk)),
          'extra: %s' % sorted(set(fk) - keys))
    check(n + '.json has a source', len(text.get('source', '')) > 100)
    rc, shown, err = show(n)
    check('config show ' + n + ': exit 0, JSON', rc == 0 and shown is not None, err)
    if shown is None:
        continue
    check('config show ' + n + ' = the file', flat(shown) == fk and shown['description'] == text['description'] and
          shown['source'] == text['source'], {k: (v, fk.get(k)) for k, v in flat(shown).items() if fk.get(k) != v})
    # round trip: the output is a configuration file that loads to the same values
    path = write(n + '-shown.json', json.dumps(shown))
    rc2, again, err2 = show(path)
    check('round trip ' + n + ': show -> load -> show is the same', rc2 == 0 and again == shown, err2)
    rc3, out3, _ = run('config', 'show', path)
    rc4, out4, _ = run('config', 'show', n)
    check('round trip ' + n + ': the same text', out3 == out4)

# ------------------------------------------------------------------ rtx3080.json = the built-in defaults
rc, rtx, err = show('rtx3080')
check('rtx3080.json = the built-in defaults (every key)', rtx is not None and flat(rtx) == flat(defaults),
      {k: (v, flat(defaults).get(k)) for k, v in flat(rtx or {}).items() if flat(defaults).get(k) != v})

# ------------------------------------------------------------------ exact values of the built-ins
def llc_bytes(c):
    l = c['memsys']['llc']
    return l['partitions'] * l['sets'] * l['ways'] * l['line']


VALUES = {
    'rtx3080': dict(sms=68, warps=48, threads=1536, ctas=16, shared=102400, cc='8.6', l1=128, llc=5 << 20, ch=10,
                    carve=[0, 8, 16, 32, 64, 100]),
    'a100': dict(sms=108, warps=64, threads=2048, ctas=32, shared=167936, cc='8.0', l1=192, llc=40 << 20, ch=10,
                 carve=[0, 8, 16, 32, 64, 100, 132, 164]),
    'h100': dict(sms=132, warps=64, threads=2048, ctas=32, shared=233472, cc='9.0', l1=256, llc=50 << 20, ch=10,
                 carve=[0, 8, 16, 32, 64, 100, 164, 228]),
    'h200': dict(sms=132, warps=64, threads=2048, ctas=32, shared=233472, cc='9.0', l1=256, llc=50 << 20, ch=12,
                 carve=[0, 8, 16, 32, 64, 100, 164, 228]),
}
for n, v in VALUES.items():
    rc, c, err = show(n)
    got = dict(sms=c['gpu']['num_sms'], warps=c['gpu']['max_warps_per_sm'], threads=c['gpu']['max_threads_per_sm'],
               ctas=c['gpu']['max_ctas_per_sm'], shared=c['gpu']['shared_per_sm'], cc=c['gpu']['cc'],
               l1=c['memsys']['l1']['unified_kib'], llc=llc_bytes(c), ch=c['memsys']['dram']['channels'],
               carve=c['memsys']['l1']['carveouts_kib'])
    check(n + ': SMs, limits, cc, L1, LLC bytes, channels, carve-outs', got == v, got, v)
    check(n + ': memory hierarchy and watchdog left to the command (null)',
          c['memsys']['enabled'] is None and c['emu']['max_insns'] is None)

# ------------------------------------------------------------------ -o and options
rc, c, err = show('a100', '-o', 'memsys.llc.ways=8', '-o', 'memsys.l1.carveouts_kib=0,8,16', '-o',
                  'memsys.enabled=on', '-o', 'emu.isa_ext=park,indirect-mov', '-o', 'gpu.cc=9.0', '-o',
                  'memsys.xllc.capacity_kib.rf+l1=300', '-o', 'emu.timeout=2.5', '-o', 'memsys.mem_trace=/tmp/t',
                  '-o', 'emu.max_insns=0x10')
check('-o sets each key (ways, list, boolean, extensions, cc, rf+l1, seconds, path, hex)',
      rc == 0 and c['memsys']['llc']['ways'] == 8 and c['memsys']['l1']['carveouts_kib'] == [0, 8, 16] and
      c['memsys']['enabled'] is True and c['emu']['isa_ext'] == ['indirect-mov', 'park'] and c['gpu']['cc'] == '9.0' and
      c['memsys']['xllc']['capacity_kib']['rf+l1'] == 300 and c['emu']['timeout'] == 2.5 and
      c['memsys']['mem_trace'] == '/tmp/t' and c['emu']['max_insns'] == 16 and c['gpu']['num_sms'] == 108, err, c)
rc, c, err = show('--sms', '20', 'a100', '-o', 'gpu.num_sms=10')
check('options win over -o, -o over the file (whatever the order)', rc == 0 and c['gpu']['num_sms'] == 20, err)
rc, c, err = show('a100', '-o', 'gpu.num_sms=10', '-o', 'gpu.num_sms=11')
check('the last -o wins', rc == 0 and c['gpu']['num_sms'] == 11, err)
rc, c, err = show('--memsys', 'off', '--cache-sms', '4', '--xllc', 'native', '--xllc-variant', 'shm', '--predictor',
                  'perfect', '--compress', 'bdi', '--mem-trace', 'tr.bin', '--warp-sched', 'gto', '--quantum', '97',
                  '--host-threads', '3', '--mem-mb', '512', '--timeout', '1', '--max-insns', '5', '--isa-ext', 'park')
m = c and c['memsys']
check('each option sets its key', rc == 0 and m['enabled'] is False and m['cache_sms'] == 4 and
      m['xllc']['mode'] == 'native' and m['xllc']['variant'] == 'shm' and m['predictor'] == 'perfect' and
      m['compress'] == 'bdi' and m['mem_trace'] == 'tr.bin' and c['emu']['warp_sched'] == 'gto' and
      c['emu']['quantum'] == 97 and c['emu']['host_threads'] == 3 and c['gpu']['mem_mb'] == 512 and
      c['emu']['timeout'] == 1 and c['emu']['max_insns'] == 5 and c['emu']['isa_ext'] == ['park'], err, c)
rc, c, err = show('--cache-sms', '4', '--xllc', 'helper')
check('the helper kernel takes the default variant (rf+l1)', rc == 0 and c['memsys']['xllc']['mode'] == 'helper', rc, err)
rc, c, err = show('--cache-sms', '4', '--xllc', 'helper', '--compress', 'bdi')
check('the helper kernels do not compress yet: bdi is refused by its key', rc == 2 and 'memsys.compress' in err, rc, err)
rc, c, err = show('--cache-sms', '4', '--xllc', 'helper', '--xllc-variant', 'rf', '--xllc-check', 'on',
                  '--xllc-helper', 'h.ptx')
check('--xllc-check and --xllc-helper set their keys', rc == 0 and c['memsys']['xllc']['check'] is True and
      c['memsys']['xllc']['helper'] == 'h.ptx', rc, err, c)
rc, c, err = show('a100', '--cache-sms', '20', '--xllc', 'native')
check('an A100 cache-mode SM has 64 helper warps (392 KiB rf+l1 = 49 sets of 64 ways fit)', rc == 0, rc, err)
rc, c, err = show('--cache-sms', '20', '--xllc', 'native', '-o', 'memsys.xllc.ways=32')
check('more extended-LLC sets than helper warps: refused before anything runs, naming memsys.xllc.ways',
      rc == 2 and 'memsys.xllc.ways' in err and 'use at least 55 ways' in err, rc, err)
part = write('part.json', '{"gpu": {"num_sms": 7}, "memsys": {"llc": {"hash": "xor"}}}')
rc, c, err = show(part)
check('a file may leave keys out: they keep the defaults',
      rc == 0 and c['gpu']['num_sms'] == 7 and c['memsys']['llc']['hash'] == 'xor' and
      flat(c)['memsys.llc.ways'] == 16 and flat(c)['gpu.max_warps_per_sm'] == 48, err)
nulls = write('nulls.json', '{"memsys": {"enabled": null, "mem_trace": null}, "emu": {"max_insns": null}}')
rc, c, err = show(nulls, '-o', 'memsys.enabled=true')
check('null: the command\'s default; -o still wins', rc == 0 and c['memsys']['enabled'] is True and
      c['emu']['max_insns'] is None, err)

# ------------------------------------------------------------------ unknown keys, bad values
bad = write('bad-key.json', '{"memsys": {"llc": {"wayz": 3}}}')
expect_error('unknown key in a file, named with its file', 
             "morpheus config: config %s: unknown key 'memsys.llc.wayz' (did you mean 'memsys.llc.ways'?)" % bad,
             'config', 'show', bad)
expect_error('unknown section in a file', "morpheus config: config %s: unknown key 'cache' (morpheus config show "
             "rtx3080 lists every key)" % write('bad-sec.json', '{"cache": {}}'), 'config', 'show',
             os.path.join(TMP, 'bad-sec.json'))
expect_error('unknown key in -o', "morpheus config: -o: unknown key 'memsys.llc.wayz' (did you mean 'memsys.llc.ways'?)",
             'config', 'show', '-o', 'memsys.llc.wayz=3')
expect_error('bad value in -o names the key', "morpheus config: -o: memsys.llc.sets: expected an integer from 1 to "
             "16777216, got 'x'", 'config', 'show', '-o', 'memsys.llc.sets=x')
expect_error('a bad energy (a real >= 0) in -o names the key', "morpheus config: -o: energy.const_w: expected a number "
             ">= 0, got '-1'", 'config', 'show', '-o', 'energy.const_w=-1')
# the extended LLC's whole-GPU energy per byte must hold the static power the model charges at its measurement:
# (32.3 + 0.48 x 68) W over 68 x 34 GB/s = 28.1 pJ/B (docs/timing.md, Energy)
expect_error('an extended-LLC energy below the static share is refused, naming the keys and the share',
             "morpheus config: energy.xllc_pj_per_byte: 20 pJ/B is less than the static power the model charges at "
             "its measurement (energy.const_w 32.3 W + energy.static_sm_w 0.48 W x 68 SMs over 68 SMs x 34 GB/s = "
             "28.1 pJ/B); set energy.xllc_measured_sms=0 if it is already the extended LLC's own energy",
             'config', 'show', '-o', 'energy.xllc_pj_per_byte=20')
rc, out, err = run('config', 'show', '-o', 'energy.xllc_pj_per_byte=20', '-o', 'energy.xllc_measured_sms=0')
check('... and taken as the extended LLC\'s own energy with energy.xllc_measured_sms=0',
      rc == 0 and json.loads(out)['energy']['xllc_pj_per_byte'] == 20, err)
expect_error('-o without =', "morpheus config: -o: expected KEY=VALUE, got 'memsys.llc.sets'", 'config', 'show', '-o',
             'memsys.llc.sets')
p = write('bad-type.json', '{"memsys": {"llc": {"ways": "16"}}}')
expect_error('a string for an integer key, named', "morpheus config: config %s: memsys.llc.ways: expected an integer "
             "from 1 to 1024, got '\"16\"'" % p, 'config', 'show', p)
p = write('bad-neg.json', '{"gpu": {"num_sms": -1}}')
expect_error('a negative count, named', "morpheus config: config %s: gpu.num_sms: expected an integer from 1 to 4096, "
             "got '-1'" % p, 'config', 'show', p)
p = write('bad-choice.json', '{"memsys": {"xllc": {"variant": "rf+shm"}}}')
expect_error('a bad choice, named', "morpheus config: config %s: memsys.xllc.variant: expected one of rf, l1, shm, "
             "rf+l1, got 'rf+shm'" % p, 'config', 'show', p)
p = write('bad-bool.json', '{"memsys": {"enabled": "on"}}')
expect_error('a string for a boolean, named', "morpheus config: config %s: memsys.enabled: expected true, false or "
             "null, got '\"on\"'" % p, 'config', 'show', p)
expect_error('timing.level.xllc_imov=0 refused by name', "morpheus config: -o: timing.level.xllc_imov: expected an "
             "integer from 1 to 100000, got '0'", 'config', 'show', '-o', 'timing.level.xllc_imov=0')

# ------------------------------------------------------------------ Indirect-MOV's native extended-LLC latency
def lat(*args):
    rc, c, err = show(*args)
    lv = c['timing']['level'] if c else {}
    return rc, lv.get('xllc'), lv.get('xllc_dram'), err


IM = ('--system', 'morpheus-indirect-mov', '--compute-sms', '60')
check('Morpheus-Basic: the native extended LLC at level.xllc (261, xllc_dram 515)',
      lat('--system', 'morpheus-basic', '--compute-sms', '60')[:3] == (0, 261, 515))
check('Morpheus-Indirect-MOV: at level.xllc_imov (254), xllc_dram 7 cycles shorter (508)', lat(*IM)[:3] == (0, 254, 508))
check('--isa-ext indirect-mov with a native extended LLC, no preset: the same',
      lat('--memsys', 'on', '--cache-sms', '8', '--xllc', 'native', '--isa-ext', 'indirect-mov')[:3] == (0, 254, 508))
check('a given timing.level.xllc is kept (and xllc_dram with it)',
      lat(*IM, '-o', 'timing.level.xllc=300')[:3] == (0, 300, 515))
check('the helper kernel times its own instructions: --xllc helper keeps level.xllc',
      lat(*IM, '--xllc', 'helper')[:3] == (0, 261, 515))
rc, out, err = run('config', 'show', *IM)
check('a resolved Morpheus-Indirect-MOV file loaded back is not shortened twice',
      rc == 0 and lat('--config', write('imov.json', out))[:3] == (0, 254, 508), err)

p = write('bad-list.json', '{"memsys": {"l1": {"carveouts_kib": [0, 8, 16, 32, 64, 100, 132, 164, 196]}}}')
expect_error('more than 8 carve-outs, named', "morpheus config: config %s: memsys.l1.carveouts_kib: expected 1 to 8 "
             "integers from 0 to 65536 separated by commas, got '0,8,16,32,64,100,132,164,196'" % p, 'config', 'show', p)
p = write('bad-json.json', '{"gpu": {"num_sms": 8,}}\n')
expect_error('not JSON: file, line and column', "morpheus config: config %s:1:23: not JSON: unexpected character" % p,
             'config', 'show', p)
expect_error('a bad --xllc', "morpheus config: --xllc: expected one of off, native, helper, got 'on'", 'config', 'show',
             '--xllc', 'on')
expect_error('a bad --memsys', "morpheus config: --memsys: expected one of on, off, true, false, got 'yes'", 'config',
             'show', '--memsys', 'yes')
expect_error('a bad cc', "morpheus config: -o: gpu.cc: expected a compute capability MAJOR.MINOR such as 8.6, got "
             "'8.10'", 'config', 'show', '-o', 'gpu.cc=8.10')
expect_error('a bad extension', "morpheus config: -o: emu.isa_ext: expected ISA extension names separated by commas "
             "(indirect-mov, park), got 'park,'", 'config', 'show', '-o', 'emu.isa_ext=park,')
expect_error('no such configuration', "morpheus config: config 'a200': no such configuration (built in: a100 h100 h200 "
             "rtx3080; a file needs a '/' or .json)", 'config', 'show', 'a200')
expect_error('per-CTA limit above the SM\'s', "morpheus config: gpu.shared_per_cta: 200000 bytes is more than "
             "gpu.shared_per_sm (102400)", 'config', 'show', '-o', 'gpu.shared_per_cta=200000')

# The memory hierarchy's own check (mx_memsys_config_check, memsys/config.c).
rc, out, err = run('config', 'show', '-o', 'memsys.llc.sets=100')
check('LLC sets not a power of two: refused, naming memsys.llc.sets', rc == 2 and 'memsys.llc.sets' in err, rc, err)
rc, out, err = run('config', 'show', '-o', 'memsys.l1.sets=3')
check('L1 sets not a power of two: refused, naming memsys.l1.sets', rc == 2 and 'memsys.l1.sets' in err, rc, err)
rc, out, err = run('config', 'show', '-o', 'memsys.l1.unified_kib=192')
check('a 192 KiB L1 (A100: not a power of two, and none is needed) is accepted', rc == 0, rc, err)

# ------------------------------------------------------------------ cache-mode SMs, before anything runs
CMSG = "memsys.cache_sms: 68 cache-mode SMs leave no compute-mode SM of the 68 (gpu.num_sms); expected at most 67"
expect_error('config show --cache-sms 68', 'morpheus config: ' + CMSG, 'config', 'show', '--cache-sms', '68')
ptx = os.path.join(ROOT, 'tests', 'cli', 'run.ptx')
expect_error('run --cache-sms 68', 'morpheus run: ' + CMSG, 'run', '--cache-sms', '68', ptx, 'axpi', '--grid', '1',
             '--block', '1', '--', 'u32:1')
expect_error('run --sms 8 -o memsys.cache_sms=8', "morpheus run: memsys.cache_sms: 8 cache-mode SMs leave no "
             "compute-mode SM of the 8 (gpu.num_sms); expected at most 7", 'run', '--sms', '8', '-o',
             'memsys.cache_sms=8', ptx, 'axpi', '--grid', '1', '--block', '1', '--', 'u32:1')
started = os.path.join(TMP, 'started')
expect_error('exec --config a100 --cache-sms 108', "morpheus exec: memsys.cache_sms: 108 cache-mode SMs leave no "
             "compute-mode SM of the 108 (gpu.num_sms); expected at most 107", 'exec', '--config', 'a100',
             '--cache-sms', '108', '--', 'touch', started)
check('exec: the program was not started', not os.path.exists(started))
expect_error('MORPHEUS_CACHE_SMS=68 exec', 'morpheus exec: ' + CMSG, 'exec', '--', 'touch', started,
             env={'MORPHEUS_CACHE_SMS': '68'})
check('exec (variable): the program was not started', not os.path.exists(started))
expect_error('workloads run --cache-sms 68', 'morpheus workloads: ' + CMSG, 'workloads', 'run', 'sgemm',
             '--cache-sms', '68')
expect_error('exec: unknown key in -o', "morpheus exec: -o: unknown key 'gpu.sm' (did you mean 'gpu.cc'?)", 'exec', '-o',
             'gpu.sm=3', '--', 'touch', started)
expect_error('MORPHEUS_O with a bad value', "morpheus exec: MORPHEUS_O: gpu.num_sms: expected an integer from 1 to "
             "4096, got 'x'", 'exec', '--', 'touch', started, env={'MORPHEUS_O': 'gpu.num_sms=x'})
expect_error('MORPHEUS_CONFIG naming nothing', "morpheus exec: MORPHEUS_CONFIG: config 'nope': no such configuration "
             "(built in: a100 h100 h200 rtx3080; a file needs a '/' or .json)", 'exec', '--', 'touch', started,
             env={'MORPHEUS_CONFIG': 'nope'})
check('exec: still not started', not os.path.exists(started))

# ------------------------------------------------------------------ run with a configuration
rc, out, err = run('run', '-q', '--config', 'h100', '-o', 'emu.host_threads=2', '--memsys', 'on', ptx, 'axpi', '--grid',
                   '2', '--block', '64', '--print', '3', '--', 'u32[128]=iota', 'u32[128]=iota', 'u32:3', 'u32:128')
check('run --config h100 -o ... --memsys on: runs', rc == 0, err)

# ------------------------------------------------------------------ exec --config reaching a CUDA program
if PROG:
    def props(*args, env=None):
        rc, out, err = run('exec', *args, '--', PROG, env=env)
        lines = [l for l in out.splitlines() if l.startswith('props ')]
        return rc, (lines[0] if lines else ''), out + err

    CASES = [
        ('exec (defaults)', [], None, 'props sms 68 cc 8.6 threads/SM 1536 shared/SM 102400 mem_mb 10240 l2_kib 5120'),
        ('exec --config a100', ['--config', 'a100'], None,
         'props sms 108 cc 8.0 threads/SM 2048 shared/SM 167936 mem_mb 40960 l2_kib 40960'),
        ('exec --config h200', ['--config', 'h200'], None,
         'props sms 132 cc 9.0 threads/SM 2048 shared/SM 233472 mem_mb 144384 l2_kib 51200'),
        ('exec --config FILE (a shown configuration)', ['--config', os.path.join(TMP, 'h100-shown.json')], None,
         'props sms 132 cc 9.0 threads/SM 2048 shared/SM 233472 mem_mb 81920 l2_kib 51200'),
        ('exec --config a100 --cache-sms 8: the compute-mode SMs', ['--config', 'a100', '--cache-sms', '8'], None,
         'props sms 100 cc 8.0 threads/SM 2048 shared/SM 167936 mem_mb 40960 l2_kib 40960'),
        ('exec -o over the file', ['--config', 'a100', '-o', 'gpu.num_sms=12', '-o', 'gpu.mem_mb=2048'], None,
         'props sms 12 cc 8.0 threads/SM 2048 shared/SM 167936 mem_mb 2048 l2_kib 40960'),
        ('MORPHEUS_SMS over the configuration', ['--config', 'a100'], {'MORPHEUS_SMS': '20'},
         'props sms 20 cc 8.0 threads/SM 2048 shared/SM 167936 mem_mb 40960 l2_kib 40960'),
        ('MORPHEUS_SMS over -o', ['--config', 'a100', '-o', 'gpu.num_sms=12'], {'MORPHEUS_SMS': '20'},
         'props sms 20 cc 8.0 threads/SM 2048 shared/SM 167936 mem_mb 40960 l2_kib 40960'),
        ('--sms over MORPHEUS_SMS', ['--config', 'a100', '--sms', '30'], {'MORPHEUS_SMS': '20'},
         'props sms 30 cc 8.0 threads/SM 2048 shared/SM 167936 mem_mb 40960 l2_kib 40960'),
        ('MORPHEUS_CONFIG and MORPHEUS_O without options', [], {'MORPHEUS_CONFIG': 'h100', 'MORPHEUS_O':
         'gpu.num_sms=9\nmemsys.cache_sms=2'}, 'props sms 7 cc 9.0 threads/SM 2048 shared/SM 233472 mem_mb 81920 l2_kib 51200'),
        ('--config over MORPHEUS_CONFIG, -o after MORPHEUS_O', ['--config', 'a100', '-o', 'gpu.num_sms=5'],
         {'MORPHEUS_CONFIG': 'h100', 'MORPHEUS_O': 'gpu.num_sms=9'},
         'props sms 5 cc 8.0 threads/SM 2048 shared/SM 167936 mem_mb 40960 l2_kib 40960'),
        ('MORPHEUS_SYSTEM=ibl-4x-llc MORPHEUS_COMPUTE_SMS=30: 30 SMs on, 4x the LLC and the paper\'s 210 KiB',
         [], {'MORPHEUS_SYSTEM': 'ibl-4x-llc', 'MORPHEUS_COMPUTE_SMS': '30'},
         'props sms 30 cc 8.6 threads/SM 1536 shared/SM 102400 mem_mb 10240 l2_kib %d' % (4 * 5120 + 210)),
        ('--system over MORPHEUS_SYSTEM', ['--system', 'ibl', '--compute-sms', '20'],
         {'MORPHEUS_SYSTEM': 'ibl-4x-llc', 'MORPHEUS_COMPUTE_SMS': '30'},
         'props sms 20 cc 8.6 threads/SM 1536 shared/SM 102400 mem_mb 10240 l2_kib %d' % (5120 + 210)),
        ('a KEY=VALUE --config file still works', ['--config', write('old.cfg', 'sms=6\ncache-sms=1\nmem-mb=64\n')],
         None, 'props sms 5 cc 8.6 threads/SM 1536 shared/SM 102400 mem_mb 64 l2_kib 5120'),
    ]
    for name, args, env, want in CASES:
        rc, line, text = props(*args, env=env)
        check(name, rc == 0 and line == want and 'PASS config_props' in text, 'exit %d' % rc, 'got:  ' + line,
              'want: ' + want, text)
else:
    print('skip exec --config with a CUDA program: config_props not built (nvcc or the CUDA headers missing)')

done()
