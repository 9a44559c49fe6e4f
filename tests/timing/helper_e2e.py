#!/usr/bin/env python3
"""tests/timing/helper_e2e.py — the extended LLC served by the helper kernel
(--xllc helper), timed: its latency is the trip to the cache-mode SM and
back (timing.level.xllc_trip) plus the helper warp's own instructions, timed
by the same model on that SM (docs/timing.md "The helper kernel in time").

- Calibration: on every shipped configuration, a load that hits in the
  extended LLC costs what the native model charges (timing.level.xllc): a
  kernel that fills a line, waits, and loads it again takes the same cycles
  with --xllc helper (rf+l1) and --xllc native.  This pins xllc_trip to
  level.xllc minus the helper's unloaded hit, as the configurations say.
- The trip adds linearly; the helper's instructions are in the time (an
  Indirect-MOV build is faster than the brx one, BDI's decompression slower,
  a slower integer unit slows helper mode more than native mode).
- A request is not rounded up to the quantum's end any more: helper quanta
  of 16 and 32 cycles give the same cycles, a coarse one does not.
- With Indirect-MOV the native model charges timing.level.xllc_imov, which
  is the movind helper's hit (xllc_trip + its timed instructions).
- Cycles are the same for 1 and 2 host threads; bad values are refused.

usage: helper_e2e.py MORPHEUS CONFIGS_DIR"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from mxcheck import check, done  # noqa: E402

morpheus, cfgdir = sys.argv[1:3]
tmp = tempfile.mkdtemp(prefix="mx-helper-e2e-")
GAP = 150  # dependent adds between the fill and the hit: the helper's fill is over before the hit arrives
adds = "\n".join("  add.u32 %r3, %r3, %r1;" for _ in range(GAP))
ptx = os.path.join(tmp, "hit.ptx")
open(ptx, "w").write(f""".version 7.0
.target sm_80
.address_size 64
// a line comes from DRAM into the extended LLC, a chain of adds, then a load that hits there
.visible .entry hit(.param .u64 buf)
{{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [buf];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.cg.u32 %r1, [%rd2];
  mov.u32 %r3, 0;
{adds}
  ld.global.cg.u32 %r2, [%rd2+4];
  add.u32 %r1, %r2, %r3;
  ret;
}}
// each thread loads its word, adds one and stores it: many CTAs, many sets
.visible .entry stream(.param .u64 buf)
{{
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [buf];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.u32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd3, %r4, 4;
  add.u64 %rd4, %rd2, %rd3;
  ld.global.u32 %r5, [%rd4];
  add.u32 %r5, %r5, 1;
  st.global.u32 [%rd4], %r5;
  ret;
}}
""")

# 60 cache-mode SMs and a 1-set LLC: nearly every line belongs to the extended LLC; a perfect predictor sends the
# first load straight to DRAM in both modes (the controller's fill), so the two differ only in the hit.  rf+l1 with
# 128 KiB, 32 sets a cache-mode SM: every set is one of the register-file sets (the kernel's first 32; the others
# are served from L1, slower), whichever set address separation gives the line: the path xllc_trip is set for
BASE = ["--timing", "cycle", "--memsys", "on", "--cache-sms", "60", "-o", "memsys.llc.sets=1",
        "--predictor", "perfect", "-o", "memsys.xllc.capacity_kib.rf+l1=128"]


def run(*opts, kernel="hit", grid=1, block=32, args=("u32[64]=zero",)):
    st = os.path.join(tmp, "s.json")
    if os.path.exists(st):
        os.remove(st)
    p = subprocess.run([morpheus, "run", ptx, kernel, "--grid", str(grid), "--block", str(block), "--stats", st, "-q"]
                       + list(opts) + ["--"] + list(args), capture_output=True, text=True)
    rec = json.load(open(st)) if p.returncode == 0 and os.path.exists(st) else None
    return p, rec


def cycles(*opts, **kw):
    p, r = run(*opts, **kw)
    return (r["cycles"] if r else None), p.stderr


def helper(*opts, variant="rf+l1", **kw):
    return cycles(*BASE, "--xllc", "helper", "--xllc-variant", variant, *opts, **kw)


# the native model's quanta are as short as helper mode's, so both see the fill in the tags at once
def native(*opts, **kw):
    return cycles(*BASE, "--xllc", "native", "--quantum", "128", *opts, **kw)


for name in sorted(f[:-5] for f in os.listdir(cfgdir) if f.endswith(".json")):
    cfg = json.load(open(os.path.join(cfgdir, name + ".json")))
    lv = cfg["timing"]["level"]
    (h, he), (n, ne) = helper("--config", name), native("--config", name)
    check(f"{name}: an extended-LLC hit through the helper costs level.xllc ({lv['xllc']}) as the native model's "
          f"does: xllc_trip {lv['xllc_trip']} + the helper's unloaded hit", h is not None and h == n, he, ne, h, n)
    # the native model with Indirect-MOV: level.xllc_imov is the movind helper's hit, xllc_dram shorter by as much
    (hm, hme) = helper("--config", name, "--isa-ext", "indirect-mov")
    (nm, nme) = native("--config", name, "--isa-ext", "indirect-mov")
    check(f"{name}: with Indirect-MOV the native model charges level.xllc_imov ({lv['xllc_imov']}), the movind "
          f"helper's hit: {lv['xllc'] - lv['xllc_imov']} cycles less than brx.idx's",
          hm is not None and nm == hm and n - nm == lv["xllc"] - lv["xllc_imov"] > 0, hme, nme, hm, nm, n)

h0, e0 = helper()
h1, e1 = helper("-o", "timing.level.xllc_trip=251")
trip = json.load(open(os.path.join(cfgdir, "rtx3080.json")))["timing"]["level"]["xllc_trip"]
check(f"the trip adds linearly: xllc_trip {trip} -> 251 adds {251 - trip} cycles", h0 and h1 == h0 + 251 - trip,
      e0, e1, h0, h1)

brx, e1 = helper(variant="rf")
movind, e2 = helper("--isa-ext", "indirect-mov", variant="rf")
bdi, e3 = helper("--compress", "bdi", variant="rf")
check("the helper's instructions are timed: Indirect-MOV's hit is faster than brx's, BDI's decompression slower",
      brx and movind and bdi and movind < brx < bdi, e1, e2, e3, brx, movind, bdi)
nk, e1 = native("-o", "timing.latency.int=12")
n0, e2 = native()
hk, e3 = helper("-o", "timing.latency.int=12")
check("a slower integer unit slows helper mode more than native mode (the helper's own integer instructions)",
      nk and n0 and hk and h0 and hk - h0 > nk - n0 > 0, e1, e2, e3, nk, n0, hk, h0)

hq = json.load(open(os.path.join(cfgdir, "rtx3080.json")))["emu"]["helper_quantum"]
q16, e1 = helper("-o", "emu.helper_quantum=16")
q4k, e2 = helper("-o", "emu.helper_quantum=4096")
check(f"the data is back when the helper is done, not at the quantum's end: helper quanta of 16 and {hq} (the "
      "configuration's) agree, 4096 is slower", hq != 16 and q16 == h0 and q4k and q4k > h0, e1, e2, q16, h0, q4k)

# many CTAs on 8 compute SMs: requests queue for the helper's warps; the same on any number of host threads
s1, e1 = helper("--host-threads", "1", "--sms", "68", kernel="stream", grid=64, block=128,
                args=("u32[8192]=iota",))
s2, e2 = helper("--host-threads", "2", "--sms", "68", kernel="stream", grid=64, block=128,
                args=("u32[8192]=iota",))
sn, e3 = native("--sms", "68", kernel="stream", grid=64, block=128, args=("u32[8192]=iota",))
check("a stream of loads and stores: the same cycles on 1 and 2 host threads, slower than native (the sets' warps "
      "serve one request at a time)", s1 and s1 == s2 and sn and s1 > sn, e1, e2, e3, s1, s2, sn)

p, r = run(*BASE, "--xllc", "helper", "-o", "emu.helper_quantum=0")
check("emu.helper_quantum=0: refused by name", p.returncode == 2 and "emu.helper_quantum" in p.stderr, p.stderr)
p, r = run(*BASE, "--xllc", "helper", "--timing", "cycle,xllc_trip=0")
check("--timing cycle,xllc_trip=0: refused", p.returncode != 0 and "xllc_trip=0" in p.stderr, p.stderr)
p, r = run(*BASE, "--xllc", "helper", "--timing", "cycle,xllc_trip=300")
check("--timing cycle,xllc_trip=300: the model argument sets the trip", r and r["cycles"] == h0 + 300 - trip,
      p.stderr, r and r["cycles"])
done()
