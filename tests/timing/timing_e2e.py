#!/usr/bin/env python3
"""tests/timing/timing_e2e.py — --timing latency end to end: the cycle
counts `morpheus run --stats` reports for tests/timing/chain.ptx are
recomputed here from the instruction mix (the record's warp instructions by
unit) and the configured latencies (configs/rtx3080.json), and must match
exactly; the warp scheduler must follow the model (more warps overlap up to
the issue width, an issue width of 1 bounds the throughput); memory levels
come from the hierarchy (a cold load from DRAM, the next from the L1); the
default (no model) stays one cycle per warp instruction; a shared-object
model loads, one built for another API version is refused by name, and bad
model names and arguments are clear errors.

usage: timing_e2e.py MORPHEUS CHAIN.PTX CONFIG.json EXAMPLE.so OLD.so"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from mxcheck import check, done  # noqa: E402

morpheus, ptx, cfgfile, example, old = sys.argv[1:6]
full = json.load(open(cfgfile))
cfg = full["timing"]
EN = full["energy"]
NSMS = full["gpu"]["num_sms"]
LAT = cfg["latency"]
LV = cfg["level"]
UNIT_KEY = {"INT": "int", "FP": "fp", "DP": "dp", "SFU": "sfu", "LDST": "ldst", "CTRL": "ctrl", "SYNC": "sync",
            "TEX": "tex", "TENSOR": "tensor"}


def run(kernel, block, *opts, buf="u32[64]=zero"):
    with tempfile.TemporaryDirectory() as tmp:
        st = os.path.join(tmp, "s.json")
        p = subprocess.run([morpheus, "run", ptx, kernel, "--grid", "1", "--block", str(block), "--stats", st, "-q"] +
                           list(opts) + ["--", buf], capture_output=True, text=True)
        rec = json.load(open(st)) if p.returncode == 0 and os.path.exists(st) else None
        return p, rec


def energy_parts(rec, cache_sms=0):
    """The record's energy by part (its "energy" object's keys), recomputed from its counts and the
    configuration's energy.* (facts/energy.md 1)."""
    lanes = rec["thread_instructions"] / rec["warp_instructions"]
    pj = EN["warp_insn_pj"] * rec["warp_instructions"] + EN["rf_lane_pj"] * rec["thread_instructions"]
    for u, n in rec["warp_instructions_by_unit"].items():
        pj += EN["lane_op_pj"].get(UNIT_KEY[u], 0) * lanes * n
    parts = dict.fromkeys(("l1_j", "llc_j", "xllc_j", "dram_j"), 0.0)
    parts["core_j"] = pj * 1e-12
    ms = rec.get("memsys")
    if ms:
        parts["l1_j"] = EN["l1_sector_pj"] * ms["l1"]["accesses"] * 1e-12
        parts["llc_j"] = EN["llc_sector_pj"] * ms["llc"]["accesses"] * 1e-12
        # the paper's whole-GPU figure less the constant and static power at its measurement (facts/energy.md 9)
        n, gbps = EN["xllc_measured_sms"], EN["xllc_measured_gbps_per_sm"]
        xpj = EN["xllc_pj_per_byte"] - ((EN["const_w"] + EN["static_sm_w"] * n) / (n * gbps) * 1000 if n and gbps else 0)
        parts["xllc_j"] = xpj * 128 * ms["xllc"]["accesses"] * 1e-12
        parts["dram_j"] = (EN["dram_read_pj_per_byte"] * ms["dram"]["read_bytes"] +
                           EN["dram_write_pj_per_byte"] * ms["dram"]["write_bytes"]) * 1e-12
    t = rec["cycles"] / (cfg["core_mhz"] * 1e6)
    parts["static_j"] = t * (EN["const_w"] + EN["static_sm_w"] * NSMS)
    parts["controller_j"] = sum(parts.values()) * EN["controller_frac"] if cache_sms else 0.0
    return parts, t


def energy(rec, cache_sms=0):
    """The record's energy and power, recomputed (energy_parts); with the record's parts checked against
    the recomputed ones."""
    parts, t = energy_parts(rec, cache_sms)
    e = sum(parts.values())
    got = rec.get("energy") or {}
    check("energy by part: the record's %s recomputed here" % " ".join(sorted(parts)),
          sorted(got) == sorted(parts) and all(close(got[k], v) or abs(got[k] - v) < 1e-18 for k, v in parts.items()),
          got, parts)
    return e, e / t


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def expected(rec, lat, last="ctrl"):
    """One warp: each instruction costs its unit's latency, the last (ret) nothing after it."""
    return sum(n * lat[UNIT_KEY[u]] for u, n in rec["warp_instructions_by_unit"].items()) - lat[last]


p, r = run("chain", 32, "--timing", "latency")
check("chain runs under --timing latency", r is not None, p.stderr)
if r:
    want = expected(r, LAT)
    check(f"one warp: cycles = sum of its instructions' unit latencies ({want})", r["cycles"] == want, r)
    check("the record names the model and gives ipc and time_s at the core clock",
          r["timing"] == "latency" and abs(r["ipc"] - r["warp_instructions"] / r["cycles"]) < 1e-9 and
          abs(r["time_s"] - r["cycles"] / (cfg["core_mhz"] * 1e6)) < 1e-15, r)
    e, w = energy(r)
    check("energy: the record's energy_j and power_w are the per-event model over its counts (recomputed here)",
          close(r["energy_j"], e) and close(r["power_w"], w) and
          close(r["perf_per_w"], r["warp_instructions"] / r["cycles"] / w), r, e, w)
    pe, re_ = run("chain", 32, "--timing", "latency", "-o", "energy.const_w=100")
    check("the energy constants come from the configuration (energy.const_w=100: more joules)",
          re_ is not None and re_["energy_j"] > r["energy_j"] and close(re_["power_w"] - r["power_w"], 100 - EN["const_w"]),
          re_)
    p7, r7 = run("chain", 32, "--timing", "latency,int=7")
    lat7 = dict(LAT, int=7)
    check("the model's arguments override the configuration (int=7)",
          r7 is not None and r7["cycles"] == expected(r7, lat7), p7.stderr, r7)
    p8, r8 = run("chain", 32, "--timing", "latency", "-o", "timing.latency.int=5")
    check("so does -o timing.latency.int=5",
          r8 is not None and r8["cycles"] == expected(r8, dict(LAT, int=5)), p8.stderr, r8)
    p2, r2 = run("chain", 64, "--timing", "latency")
    check("two warps issue side by side (issue width 4): the same cycles as one",
          r2 is not None and r2["cycles"] == r["cycles"] and r2["warp_instructions"] == 2 * r["warp_instructions"], r2)
    p3, r3 = run("chain", 512, "--timing", "latency", "-o", "timing.issue_width=1")
    check("16 warps at issue width 1: at least one cycle per warp instruction, and more than one warp's time",
          r3 is not None and r3["cycles"] >= r3["warp_instructions"] - 1 and r3["cycles"] > r["cycles"], r3)
    pn, rn = run("chain", 32)
    check("no model: one cycle per warp instruction (the functional default)",
          rn is not None and rn["timing"] == "none" and rn["cycles"] == rn["warp_instructions"] and
          rn["time_s"] is None and rn["energy_j"] is None, rn)

BW = cfg["bandwidth"]


def bw_wait(gbps_llc, gbps_dram, users=1, nbytes=32, scale=1.0):
    """cycles a DRAM load of `nbytes` waits for its SM's share (1/users) of the LLC's and DRAM's bandwidth, with
    empty queues: the slower of the two (timing/latency.c).  twoloads' lanes all read one word: one 32-byte
    sector of the line moves (timing API v8), not the line's 128 bytes"""
    waits = [nbytes * users / (g * 1e3 / cfg["core_mhz"] * scale) for g in (gbps_llc, gbps_dram) if g > 0]
    return math.ceil(max(waits)) if waits else 0


p, r = run("twoloads", 32, "--timing", "latency", "--memsys", "on")
if r:
    # ld.param (no request: the ldst unit), cvta, a cold load (DRAM, after its bytes pass the bandwidth caps:
    # one CTA, so the whole bandwidth), the same line again (L1), add, a store (does not wait: the ldst unit), ret
    want = LAT["ldst"] + LAT["int"] + LV["dram"] + bw_wait(BW["llc_gbps"], BW["dram_gbps"]) + LV["l1"] + \
        LAT["int"] + LAT["ldst"]
    check(f"memory levels from the hierarchy: DRAM then L1 ({want} cycles)", r["cycles"] == want, r)
    e, w = energy(r)
    check("energy with the hierarchy's counts (L1 and LLC sectors, DRAM bytes) recomputed here",
          close(r["energy_j"], e) and r["memsys"]["dram"]["read_bytes"] > 0, r, e)
else:
    check("twoloads runs with --memsys on", False, p.stderr)

# the memory side's clock (Frequency-Boost): what lies beyond the L1 scales by 1/scale
p, r = run("twoloads", 32, "--timing", "latency", "--memsys", "on", "-o", "timing.mem_clock_scale=2")
want = LAT["ldst"] + LAT["int"] + LV["l1"] + int((LV["dram"] - LV["l1"]) / 2 + 0.5) + \
    bw_wait(BW["llc_gbps"], BW["dram_gbps"], scale=2) + LV["l1"] + LAT["int"] + LAT["ldst"]
check(f"timing.mem_clock_scale=2 halves the DRAM load's time beyond the L1 ({want} cycles)",
      r is not None and r["cycles"] == want, p.stderr, r)
p, r = run("twoloads", 32, "--timing", "latency", "--memsys", "on", "-o", "timing.mem_clock_scale=0")
check("timing.mem_clock_scale=0 is refused by name", p.returncode == 2 and "timing.mem_clock_scale" in p.stderr, p.stderr)

# the bandwidth caps: 1 GB/s of DRAM makes the cold sector wait 32 B / (1e3 / core_mhz B per cycle); 0 is unlimited
base = LAT["ldst"] + LAT["int"] + LV["dram"] + LV["l1"] + LAT["int"] + LAT["ldst"]
p, r = run("twoloads", 32, "--timing", "latency", "--memsys", "on", "-o", "timing.bandwidth.dram_gbps=1")
want = base + bw_wait(BW["llc_gbps"], 1)
check(f"timing.bandwidth.dram_gbps=1: the cold line waits for its bytes ({want} cycles)",
      r is not None and r["cycles"] == want and want > base + 50, p.stderr, r and r["cycles"])
p, r = run("twoloads", 32, "--timing", "latency", "--memsys", "on", "-o", "timing.bandwidth.dram_gbps=0", "-o",
           "timing.bandwidth.llc_gbps=0")
check(f"no bandwidth caps (0): the latencies alone ({base} cycles)", r is not None and r["cycles"] == base,
      p.stderr, r and r["cycles"])
# a grid of 4 CTAs on 1 GB/s: each SM's share is a quarter, its line waits 4x as long
p, r = run("twoloads", 32, "--timing", "latency", "--memsys", "on", "-o", "timing.bandwidth.dram_gbps=1",
           "--grid", "4")
want = base + bw_wait(BW["llc_gbps"], 1, users=4)
check(f"4 CTAs share the bandwidth: each cold line waits 4x as long ({want} cycles)",
      r is not None and r["cycles"] == want, p.stderr, r and r["cycles"])

# an extended-LLC line it does not hold: with --predictor none the load goes there first and then to DRAM
# (level xllc_dram), with a perfect predictor straight to DRAM; a 1-set LLC puts nearly every line in the
# extended LLC of 60 cache-mode SMs
xl = ["--timing", "latency", "--memsys", "on", "--cache-sms", "60", "--xllc", "native", "-o", "memsys.llc.sets=1"]
p1, r1 = run("twoloads", 32, *xl, "--predictor", "perfect")
p2, r2 = run("twoloads", 32, *xl, "--predictor", "none")
p3, r3 = run("twoloads", 32, *xl, "--predictor", "bloom")
ok = r1 and r2 and r3 and r1["memsys"]["xllc"]["misses"] == 1
check("an extended-LLC miss costs xllc_dram with --predictor none, dram with perfect and bloom (cold filters say miss)",
      ok and r2["cycles"] - r1["cycles"] == LV["xllc_dram"] - LV["dram"] and r3["cycles"] == r1["cycles"],
      p1.stderr, p2.stderr, r1 and r1["memsys"]["xllc"], r1 and r1["cycles"], r2 and r2["cycles"], r3 and r3["cycles"])

p, r = run("chain", 32, "--timing", example + ",3")
check("a shared-object model (timing/example/example_model.c: 3 cycles per instruction) loads and times",
      r is not None and r["timing"] == "example-fixed" and r["cycles"] == 3 * (r["warp_instructions"] - 1), p.stderr, r)
check("the emulator tells a model that subscribes to TM_EV_LAUNCH each kernel's start, once (on_launch)",
      p.stderr.count("example-fixed: kernel chain starts: 1 CTAs of 32 threads") == 1, p.stderr)
p, r = run("chain", 32, "--timing", old)
API = re.search(r"#define TM_API_VERSION (\d+)", open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                                   "include", "mx", "timing.h")).read()).group(1)
check("a model built for API version 1 is refused, naming both versions (this emulator's: %s)" % API,
      p.returncode != 0 and "version 1;" in p.stderr and "version %s:" % API in p.stderr, p.stderr)
p, r = run("chain", 32, "--timing", "no-such-model")
check("an unknown model: an error listing the models",
      p.returncode != 0 and "no-such-model" in p.stderr and "latency" in p.stderr, p.stderr)
p, r = run("chain", 32, "--timing", "latency,bogus=1")
check("an unknown model argument: an error naming it", p.returncode != 0 and "bogus" in p.stderr, p.stderr)
p, r = run("chain", 32, "--timing", "/no/such/model.so")
check("a missing .so: an error naming it", p.returncode != 0 and "/no/such/model.so" in p.stderr, p.stderr)
done()
