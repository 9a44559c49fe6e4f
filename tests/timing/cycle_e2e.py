#!/usr/bin/env python3
"""tests/timing/cycle_e2e.py — --timing cycle end to end on tests/timing/cycle.ptx.
One warp's cycle counts are recomputed here from the model's documented rules
(timing/cycle.c, docs/timing.md "The cycle model") with a small scoreboard of
this script's own: an instruction starts when its operands are ready and its
pipeline takes it, a dependence chain costs the unit latency per link,
independent instructions the initiation interval, and independent loads
overlap (their data crosses the SM's port one after another).  Many CTAs
streaming from DRAM are bound by its bandwidth (twice the data, twice the
cycles; without a cap, not); cycles are the same for 1 and 2 host threads; DRAM's time is charged for the
lines the hierarchy reads (a stream the CTAs share is not bandwidth-bound); a copy's reads and write-backs
together move no more than DRAM's bandwidth;
bad arguments are clear errors.

usage: cycle_e2e.py MORPHEUS CYCLE.PTX CONFIG.json"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from mxcheck import check, done  # noqa: E402

morpheus, ptx, cfgfile = sys.argv[1:4]
full = json.load(open(cfgfile))
T = full["timing"]
LAT, II, LV = T["latency"], T["initiation"], T["level"]
UNIT = {"mov": "int", "add": "int", "mad": "int", "cvta": "int", "ld": "ldst", "st": "ldst", "ret": "ctrl"}


def run(kernel, *opts, grid=1, block=32, args=("u32[4096]=zero",)):
    with tempfile.TemporaryDirectory() as tmp:
        st = os.path.join(tmp, "s.json")
        p = subprocess.run([morpheus, "run", ptx, kernel, "--grid", str(grid), "--block", str(block), "--stats", st,
                            "-q"] + list(opts) + ["--"] + list(args), capture_output=True, text=True)
        rec = json.load(open(st)) if p.returncode == 0 and os.path.exists(st) else None
        return p, rec


SLOT = {}  # register name -> its slot: declaration order, %r<N> as N consecutive slots


def body(kernel):
    """The kernel's instructions as (opcode, destination registers, source registers)."""
    src = open(ptx).read()
    text = src[src.index(f".entry {kernel}("):]
    text = text[text.index("{", text.index(")")) + 1:text.index("\n}")]
    out = []
    SLOT.clear()
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"\.reg \.\w+ (%\w+?)<(\d+)>;", line)
        if m:
            for i in range(int(m.group(2))):
                SLOT[f"{m.group(1)}{i}"] = len(SLOT)
        if not line or line.startswith(".reg") or line.startswith("//"):
            continue
        full_op = line.split()[0].rstrip(";")
        op = full_op.split(".")[0]
        regs = re.findall(r"%r[d]?\d+", line)
        if op == "st" or op == "ret":
            out.append((full_op, [], regs))
        else:
            out.append((full_op, regs[:1], regs[1:]))
    return out


def one_warp(kernel, lat, ii, mem=None, banks=0):
    """Cycles of one warp of straight-line code under the cycle model's rules: an instruction starts at
    max(issue slot, its unit's pipeline free, its operands ready); its result is ready a unit latency later
    (a global load: when mem(start) says); the next instruction's issue slot is one cycle later.  With
    `banks` register-file banks a partition, an instruction reading k distinct registers of one bank (slot
    mod banks) starts k - 1 cycles later.  The kernel's cycles are the start of its last instruction (ret)."""
    ready, pipe, slot, t = {}, {}, 0, 0
    for full_op, dst, srcs in body(kernel):
        op = full_op.split(".")[0]
        u = UNIT[op]
        t = max([slot, pipe.get(u, 0)] + [ready.get(r, 0) for r in srcs])
        if banks:
            b = [SLOT[r] % banks for r in set(srcs)]
            t += max([b.count(x) for x in b] + [1]) - 1
        pipe[u] = t + ii[u]
        slot = t + 1
        done = t + lat[u]
        if full_op.startswith("ld.global") and mem:
            done = mem(t)
        for r in dst:
            ready[r] = max(ready.get(r, 0), done)
    return t


for k in ("dep", "indep"):
    for args, lat, ii in ((("cycle",), LAT, II), (("cycle,int=10,ii_int=1",), dict(LAT, int=10), dict(II, int=1))):
        p, r = run(k, "--timing", *args)
        want = one_warp(k, lat, ii)
        check(f"{k} under --timing {args[0]}: {want} cycles from its dependences", r and r["cycles"] == want,
              p.stderr, r and r["cycles"])
# register-file bank conflicts (optional, -o timing.rf_banks=N per SM: N / 4 banks a scheduler partition):
# by hand, banks() waits 8 cycles more: two adds, a mad and the st read two registers of a bank (1 each), two
# mads three (2 each)
p0, r0 = run("banks", "--timing", "cycle")
pb, rb = run("banks", "--timing", "cycle", "-o", "timing.rf_banks=8")
w0, wb = one_warp("banks", LAT, II), one_warp("banks", LAT, II, banks=2)
check(f"bank conflicts off by default: {w0} cycles", T.get("rf_banks") == 0 and r0 and r0["cycles"] == w0,
      p0.stderr, r0 and r0["cycles"])
check(f"timing.rf_banks=8 (2 banks a partition): {wb} cycles, each same-bank read one cycle more",
      rb and rb["cycles"] == wb and wb - w0 == 8, pb.stderr, rb and rb["cycles"])
p, r = run("banks", "--timing", "cycle", "-o", "timing.rf_banks=-1")
check("timing.rf_banks=-1: refused by name", p.returncode == 2 and "timing.rf_banks" in p.stderr, p.stderr)
p1, r1 = run("dep", "--timing", "cycle,int=10,ii_int=1")
p2, r2 = run("indep", "--timing", "cycle,int=10,ii_int=1")
check("a chain of 16 dependent adds costs 16 latencies, 16 independent ones overlap",
      r1 and r2 and r1["cycles"] - r2["cycles"] == 15 * 10 - 15, r1 and r1["cycles"], r2 and r2["cycles"])

# eight loads of eight cold lines: each is looked up in the L1 (a line per cycle), sends a request flit and gets
# its sector back over the SM's port (flit_bytes per cycle at the interconnect clock; the lanes all read one word,
# so one 32-byte sector moves, timing API v8), then DRAM's latency; no bandwidth caps beyond the port here
flit = T["icnt"]["flit_bytes"] * T["clock_mhz"]["icnt"] / T["core_mhz"]
port = {"l1": 0.0, "req": 0.0, "rep": 0.0}


def dram_load(t):
    l1 = max(float(t), port["l1"])
    port["l1"] = l1 + 1
    port["req"] = max(port["req"], l1) + T["icnt"]["flit_bytes"] / flit
    port["rep"] = max(port["rep"], l1) + 32 / flit
    return math.ceil(max(port["req"], port["rep"]) + LV["dram"])


nocap = ["-o", "timing.bandwidth.dram_gbps=0", "-o", "timing.bandwidth.llc_gbps=0"]
p, r = run("loads", "--timing", "cycle", "--memsys", "on", *nocap)
want = one_warp("loads", LAT, II, dram_load)
check(f"8 independent loads overlap: {want} cycles", r and r["cycles"] == want, p.stderr, r and r["cycles"])
pl, rl = run("loads", "--timing", "latency", "--memsys", "on", *nocap)
check("... where the latency model (a warp waits for each load) takes 8 DRAM latencies",
      r and rl and rl["cycles"] >= 8 * LV["dram"] > 2 * r["cycles"], rl and rl["cycles"])

# DRAM bandwidth: 32 CTAs of 256 threads each read n words a grid's width apart (every line once)
def stream(n, *opts, grid=32, threads=1):
    words = grid * 256 * n
    return run("stream", "--timing", "cycle", "--memsys", "on", "--host-threads", str(threads), *opts, grid=grid,
               block=256, args=(f"u32[{words}]=zero", f"u32:{n}", f"u32:{grid * 256 * 4}", f"u32[{grid * 256}]=zero"))


cap = ["-o", "timing.bandwidth.dram_gbps=20", "-o", "timing.bandwidth.llc_gbps=0"]
pa, ra = stream(32, *cap)
pb, rb = stream(64, *cap)
ok = ra and rb
if ok:
    rate = 20e3 / T["core_mhz"]  # bytes per core cycle
    want = 32 * 256 * 4 * 64 / rate
    check(f"bandwidth-bound: 64 words per thread at 20 GB/s take about bytes / bandwidth ({want:.0f} cycles)",
          0.9 * want <= rb["cycles"] <= 1.25 * want, rb["cycles"])
    check("twice the data, about twice the cycles", 1.8 <= rb["cycles"] / ra["cycles"] <= 2.2,
          ra["cycles"], rb["cycles"])
else:
    check("stream runs", False, pa.stderr, pb.stderr)
pc, rc = stream(64, *nocap)
check("without caps the same stream is far faster (latency-bound)", rc and rb and rc["cycles"] * 4 < rb["cycles"],
      rc and rc["cycles"])
p1, r1 = stream(16, threads=1)
p2, r2 = stream(16, threads=2)
check("the same cycles on 1 and 2 host threads (per-SM shares, state shared only between quanta)",
      r1 and r2 and r1["cycles"] == r2["cycles"] and r1["memsys"] == r2["memsys"], r1 and r1["cycles"],
      r2 and r2["cycles"])

# DRAM's reads are the hierarchy's (timing API v12): with a stride of one CTA's width instead of the grid's, CTA c
# reads at step k what CTA c + 1 read at step k - 1 (on another SM, mostly in the same quantum): the same 8 MiB of
# requests, but DRAM reads each line once (288 KiB) and the LLC serves the rest.  The hierarchy answers each access
# from its state at the quantum's start, so the model is told DRAM for most of them; charged as told, the shared
# stream took 681,067 cycles at 20 GB/s, as long as the unshared one (718,493)
def shared_stream(n, stride, *opts, grid=32):
    return run("stream", "--timing", "cycle", "--memsys", "on", *opts, grid=grid, block=256,
               args=(f"u32[{grid * 256 * n}]=zero", f"u32:{n}", f"u32:{stride}", f"u32[{grid * 256}]=zero"))


pu, ru = shared_stream(256, 32 * 256 * 4, *cap)
ps, rs = shared_stream(256, 256 * 4, *cap)
ok = ru and rs and rs["memsys"]["dram"]["read_bytes"] <= (32 + 256) * 1024 + 4096 and \
    ru["memsys"]["dram"]["read_bytes"] >= 8 << 20
check("the same 8 MiB of requests shared by the CTAs (DRAM reads each line once) take less than 0.3 of the time "
      "they take unshared, at 20 GB/s", ok and rs["cycles"] < 0.3 * ru["cycles"], pu.stderr, ps.stderr,
      ru and ru["cycles"], rs and rs["cycles"], rs and rs["memsys"]["dram"])

# DRAM's writes: a copy of 16 MiB (dst[i] = src[i] + 1) through the rtx3080 hierarchy reads the source and writes
# back the dirty lines the 5 MiB LLC evicts; reads and write-backs share the channels, so together they move no
# more than the configured bandwidth allows (results revision 2026-12-06b's rule charged a quantum's write-backs
# only to later quanta and let this copy move 1080 GB/s of a 760 GB/s DRAM), and being a stream they move most of it
def copy(*opts, n=4 << 20):
    return run("copy", "--timing", "cycle", "--memsys", "on", *opts, grid=n // 256, block=256,
               args=(f"u32[{n}]=iota", f"u32[{n}]=zero", f"u32:{n}"))


def dram_gbps(r):
    """A run's DRAM reads and write-backs together, GB/s over its cycles."""
    return (r["memsys"]["dram"]["read_bytes"] + r["memsys"]["dram"]["write_bytes"]) / (
        r["cycles"] / (T["core_mhz"] * 1e6)) / 1e9


peak = T["bandwidth"]["dram_gbps"]
pq, rq = copy()
ok = rq and rq["memsys"]["dram"]["write_bytes"] > 8 << 20
gbps = ok and dram_gbps(rq)
check(f"a 16 MiB copy writes back most of its destination (> 8 MiB) and reads and writes together at most "
      f"the {peak} GB/s DRAM allows, at least 60 % of it", ok and 0.6 * peak <= gbps <= peak,
      pq.stderr, rq and rq["memsys"]["dram"], gbps)
# ... and a copy shorter than the model's span (6 MiB, about 15,000 of timing.span's 16,384 cycles; several
# quanta of 2048): its last write-backs are told at the quantum's end, after its warps are done; the grid's end
# ends the span, and its span is raised to what its busiest channel needed (timing API v11, on_kernel_end, and
# v13; before v11 it moved 1137 GB/s of the 760)
pqs, rqs = copy(n=3 << 19)
ok = rqs and rqs["memsys"]["dram"]["write_bytes"] > 2 << 20 and rqs["cycles"] < 16384 * 2
gbps = ok and dram_gbps(rqs)
check(f"a 6 MiB copy, shorter than a span, also moves at most the {peak} GB/s DRAM allows, at least 60 % of it",
      ok and 0.6 * peak <= gbps <= peak, pqs.stderr, rqs and rqs["memsys"]["dram"], rqs and rqs["cycles"], gbps)
pq4, rq4 = copy("--quantum", "4096")
check("... at about the same cycles with a quantum of 4096 (within 10 %)",
      rq and rq4 and abs(rq4["cycles"] / rq["cycles"] - 1) <= 0.1, rq and rq["cycles"], rq4 and rq4["cycles"])

p, r = run("dep", "--timing", "cycle,bogus=1")
check("an unknown model argument: an error naming it", p.returncode != 0 and "bogus" in p.stderr, p.stderr)
p, r = run("dep", "--timing", "cycle,ii_int=0")
check("an initiation interval of 0: refused", p.returncode != 0 and "ii_int=0" in p.stderr, p.stderr)
p, r = run("dep", "--timing", "cycle", "-o", "timing.dram.banks=0")
check("timing.dram.banks=0: refused by name", p.returncode == 2 and "timing.dram.banks" in p.stderr, p.stderr)
p, r = run("dep", "--timing", "cycle", "-o", "timing.span=-5")
check("timing.span=-5: refused by name", p.returncode == 2 and "timing.span" in p.stderr, p.stderr)
done()
