#!/usr/bin/env python3
"""tests/memsys/lru_ref.py — an independent, deliberately simple model of
the L1s and the conventional LLC, written from docs/memsys.md (not from
memsys/*.c): it reads a --mem-trace file and recomputes every L1 and LLC
counter, the DRAM bytes per channel, and each record's `l1` and `served`
columns, then compares them with the stats JSON of the same run.

Caches here are lists: each set is a list of way slots (None or a line), plus
a recency list of slot numbers, most recent first.

usage: lru_ref.py CONFIG.json TRACE STATS.json   (a real program's run: tests/e2e/memtrace_ref.py)
       lru_ref.py --gen GEN_TRACE linear|xor   (runs the generator in a temp dir first, and requires
                                                its stream to cover every kind of record)
Exit 0 when everything matches, 1 with the differences."""
import json
import os
import subprocess
import sys
import tempfile

SECTOR_BYTES = 32


def pop(x):
    return bin(x).count('1')


class Cache:
    """sets x ways_max slots; slots[s][w] is None or [tag, valid, dirty]."""

    def __init__(self, sets, ways):
        self.sets = sets
        self.ways = ways
        self.slots = [[None] * ways for _ in range(sets)]
        self.order = [[] for _ in range(sets)]  # slot numbers, MRU first

    def find(self, s, tag):
        for w in range(self.ways):
            line = self.slots[s][w]
            if line is not None and line[0] == tag:
                return w
        return None

    def use(self, s, w):
        self.order[s].remove(w)
        self.order[s].insert(0, w)

    def insert(self, s, tag, evict_first):
        """Returns (slot, victim line or None); slot None when no way is in use."""
        if self.ways == 0:
            return None, None
        victim = None
        empty = [w for w in range(self.ways) if self.slots[s][w] is None]
        if empty:
            w = empty[0]
        else:
            w = self.order[s].pop()  # the LRU line
            victim = self.slots[s][w]
        if w in self.order[s]:
            self.order[s].remove(w)
        self.slots[s][w] = [tag, 0, 0]
        if evict_first:
            self.order[s].append(w)
        else:
            self.order[s].insert(0, w)
        return w, victim

    def drop(self, s, w):
        self.slots[s][w] = None
        self.order[s].remove(w)

    def set_ways(self, ways):
        dropped = 0
        for s in range(self.sets):
            for w in range(ways, self.ways):
                if self.slots[s][w] is not None:
                    dropped += 1
                    self.drop(s, w)
        self.ways = ways
        return dropped


def zero():
    return {'accesses': 0, 'hits': 0, 'misses': 0, 'evictions': 0, 'writebacks': 0}


def parse(trace_path):
    """Records, and the quantum each belongs to."""
    recs, quantum = [], 0
    with open(trace_path) as f:
        first = f.readline()
        if first.strip() != '# morpheus mem-trace v2':
            raise SystemExit('lru_ref: not a v1 mem-trace: %r' % first)
        for text in f:
            if text.startswith('# quantum'):
                quantum += 1
                continue
            if text.startswith('#'):
                continue
            c = text.split()
            recs.append({'clock': int(c[0]), 'sm': int(c[1]), 'seq': int(c[2]), 'op': c[6], 'space': c[7],
                         'cop': c[8], 'strong': c[9] == '1', 'smem': int(c[11]), 'rf': int(c[12]),
                         'line': int(c[13], 16), 'sectors': int(c[14], 16), 'l1': c[15], 'served': c[16], 'q': quantum})
    return recs


def l1_ways(cfg, smem, rf):
    carve = 0
    for k in cfg['l1_carveouts_kib']:  # the smallest that holds smem, else the largest
        carve = k
        if k * 1024 >= smem:
            break
    way = cfg['l1_sets'] * cfg['l1_line']
    lend = max(cfg.get('l1_rf_kib', 0) * 1024 - rf, 0)  # the register file left unallocated, whole ways
    return (cfg['l1_unified_kib'] - carve) * 1024 // way + lend // way


def run_l1(cfg, recs, bad):
    st = zero()
    max_ways = (cfg['l1_unified_kib'] + cfg.get('l1_rf_kib', 0)) * 1024 // (cfg['l1_sets'] * cfg['l1_line'])
    sms = {}
    for r in sorted(recs, key=lambda r: (r['sm'], r['seq'])):  # issue order of each SM
        if r['sm'] not in sms:
            c = Cache(cfg['l1_sets'], max_ways)
            c.set_ways(l1_ways(cfg, 0, 0))
            sms[r['sm']] = [c, 0, 0]
        c, smem, rf = sms[r['sm']]
        if r['smem'] != smem or r['rf'] != rf:
            st['evictions'] += c.set_ways(l1_ways(cfg, r['smem'], r['rf']))
            sms[r['sm']][1:] = [r['smem'], r['rf']]
        ln = r['line'] // cfg['l1_line']
        s, want = ln % cfg['l1_sets'], r['sectors']
        op, cop = r['op'], r['cop']
        out, l1 = want, 'na'
        if op == 'ld' and (r['strong'] or cop in ('cg', 'cv')):
            l1 = 'bypass'
        elif op == 'ld':
            ef = cop in ('cs', 'lu')
            w = c.find(s, ln)
            if w is not None:
                line = c.slots[s][w]
                out = want & ~line[1]
                line[1] |= want
                if not ef:
                    c.use(s, w)
            else:
                w, victim = c.insert(s, ln, ef)
                if victim is not None:
                    st['evictions'] += 1
                if w is not None:
                    c.slots[s][w][1] = want
            st['accesses'] += pop(want)
            st['hits'] += pop(want & ~out)
            st['misses'] += pop(out)
            l1 = 'miss' if out else 'hit'
        elif op in ('atom', 'red'):
            w = c.find(s, ln)
            if w is not None:
                c.slots[s][w][1] &= ~want
                if c.slots[s][w][1] == 0:
                    c.drop(s, w)
        r['out'] = out
        if r['l1'] != l1:
            bad.append('sm %d seq %d: l1 %s, the reference says %s' % (r['sm'], r['seq'], r['l1'], l1))
    return st


def partition(cfg, ln):
    p = cfg['llc_partitions']
    if cfg['llc_hash'] == 'linear':
        return ln % p
    row = ln // p
    f = (row ^ (row >> 16) ^ (row >> 32) ^ (row >> 48)) & 0xffff
    return (ln % p + f) % p


def run_llc(cfg, recs, bad):
    st = zero()
    nch = cfg['dram_channels']
    rd, wr = [0] * nch, [0] * nch
    parts = [Cache(cfg['llc_sets'], cfg['llc_ways']) for _ in range(cfg['llc_partitions'])]
    prev = None
    for r in recs:  # file order: the quantum-end order
        key = (r['q'], r['clock'], r['sm'], r['seq'])
        if prev is not None and key <= prev:
            bad.append('order: %r after %r (must be (clock, sm, seq) within a quantum)' % (key, prev))
        prev = key
        served = 'l1'
        if r['out']:
            ln = r['line'] // cfg['l1_line']
            c = parts[partition(cfg, ln)]
            s = (ln // cfg['llc_partitions']) % cfg['llc_sets']
            sec = r['out']
            ef = r['cop'] in ('cs', 'lu')
            w = c.find(s, ln)
            if w is not None:
                missing = sec & ~c.slots[s][w][1]
                if not ef:
                    c.use(s, w)
            else:
                missing = sec
                w, victim = c.insert(s, ln, ef)
                if victim is not None:
                    st['evictions'] += 1
                    if victim[2]:
                        st['writebacks'] += 1
                        wr[victim[0] % nch] += pop(victim[2]) * SECTOR_BYTES
            line = c.slots[s][w]
            st['accesses'] += pop(sec)
            st['hits'] += pop(sec & ~missing)
            st['misses'] += pop(missing)
            line[1] |= sec
            if r['op'] == 'st':
                line[2] |= sec
                served = 'llc'
            else:
                rd[ln % nch] += pop(missing) * SECTOR_BYTES
                if r['op'] != 'ld':
                    line[2] |= sec
                served = 'dram' if missing else 'llc'
        if r['served'] != served:
            bad.append('sm %d seq %d: served %s, the reference says %s' % (r['sm'], r['seq'], r['served'], served))
    return st, rd, wr


def check(cfg_path, trace_path, stats_path, coverage=True):
    with open(cfg_path) as f:
        cfg = json.load(f)
    with open(stats_path) as f:
        got = json.load(f)
    recs = parse(trace_path)
    bad = []
    l1 = run_l1(cfg, recs, bad)
    llc, rd, wr = run_llc(cfg, recs, bad)
    for name, want in (('l1', l1), ('llc', llc)):
        for k, v in want.items():
            if got[name][k] != v:
                bad.append('%s.%s: memsys %d, reference %d' % (name, k, got[name][k], v))
    if got['dram']['read_bytes'] != sum(rd) or got['dram']['write_bytes'] != sum(wr):
        bad.append('dram: memsys %d/%d, reference %d/%d' % (got['dram']['read_bytes'], got['dram']['write_bytes'],
                                                           sum(rd), sum(wr)))
    chans = got['dram']['channels']
    if [(x['read_bytes'], x['write_bytes']) for x in chans] != list(zip(rd, wr)):
        bad.append('dram.channels: memsys %r, reference %r' % (chans, list(zip(rd, wr))))
    # the stream must exercise what it claims to, or the comparison proves little
    kinds = {(r['op'], r['l1'], r['served']) for r in recs}
    for need in [] if not coverage else (('ld', 'hit', 'l1'), ('ld', 'miss', 'dram'), ('ld', 'miss', 'llc'), ('ld', 'bypass', 'llc'),
                 ('st', 'na', 'llc'), ('atom', 'na', 'dram'), ('red', 'na', 'llc')):
        if need not in kinds:
            bad.append('the stream has no %r record' % (need,))
    if coverage and not (l1['evictions'] and llc['writebacks'] and len({r['q'] for r in recs}) == 2):
        bad.append('the stream evicts too little: l1 %r llc %r' % (l1, llc))
    if coverage and len({r['rf'] for r in recs}) < 3:
        bad.append('the stream moves the register file lent to the L1 too little: %r' % {r['rf'] for r in recs})
    for b in bad[:30]:
        print('lru_ref:', b)
    print('lru_ref: %d records; l1 %r; llc %r; dram %d/%d: %s' %
          (len(recs), l1, llc, sum(rd), sum(wr), 'MISMATCH' if bad else 'identical'))
    return 1 if bad else 0


def main(argv):
    if len(argv) == 4 and argv[1] == '--gen':
        with tempfile.TemporaryDirectory() as d:
            subprocess.run([argv[2], d, argv[3]], check=True)
            return check(os.path.join(d, 'config.json'), os.path.join(d, 'trace.txt'), os.path.join(d, 'stats.json'))
    if len(argv) == 4:
        return check(argv[1], argv[2], argv[3], coverage=False)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
