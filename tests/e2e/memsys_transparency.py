#!/usr/bin/env python3
"""tests/e2e/memsys_transparency.py — the memory hierarchy never changes what
a program computes.  All 17 workloads (size small) run with the hierarchy on
for the rtx3080, a100 and h100 configurations, with no cache-mode SMs and
with 20 cache-mode SMs and the native extended LLC (each predictor, and BDI
compression); every application must PASS its host check and execute, launch
by launch, exactly the kernels and thread-instructions of the same run with
the hierarchy off (20 cache-mode SMs change where CTAs run, so that case is
compared with --memsys off --cache-sms 20).  Each record carries the memsys
object with every key the plots read, the extended LLC serves requests when
it exists, the Bloom predictor never gives a false negative, and two runs
with 1 and 2 host threads give identical statistics.

usage: memsys_transparency.py MORPHEUS [--quick]   (--quick: rtx3080 only)"""
import json
import os
import subprocess
import sys
import tempfile

morpheus = sys.argv[1]
quick = "--quick" in sys.argv[2:]
CACHE_KEYS = ["accesses", "hits", "misses", "evictions", "writebacks"]
problems = []


def run(tmp, tag, opts, threads=1):
    """workloads run --all with opts; returns {app: [records]}."""
    d = os.path.join(tmp, tag)
    os.makedirs(d)
    cmd = [morpheus, "workloads", "run", "--all", "--size", "small", "--stats", d,
           "--host-threads", str(threads)] + opts
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        problems.append(f"{tag}: {' '.join(cmd[1:])} exited {p.returncode}:\n{p.stdout}{p.stderr}")
        return {}
    out = {}
    for f in sorted(os.listdir(d)):
        with open(os.path.join(d, f)) as fh:
            out[f[:-6]] = [json.loads(line) for line in fh if line.strip()]
    if len(out) != 17:
        problems.append(f"{tag}: stats for {len(out)} applications, expected 17")
    return out


def shape(rec):
    return (rec["kernel"], tuple(rec["grid"]), tuple(rec["block"]), rec["status"], rec["warp_instructions"],
            rec["thread_instructions"])


def same_work(tag, got, base):
    for app, recs in base.items():
        g = got.get(app, [])
        if [shape(r) for r in g] != [shape(r) for r in recs]:
            problems.append(f"{tag}: {app} ran other launches or instruction counts than with --memsys off")


def check_memsys(tag, got, cache_sms, xllc, predictor):
    total = {"llc": 0, "xllc": 0, "fn": 0}
    for app, recs in got.items():
        for r in recs:
            fp = r.get("memory_touched_bytes")
            if not isinstance(fp, int) or fp <= 0 or fp % 65536:
                problems.append(f"{tag}: {app} launch {r.get('launch')}: memory_touched_bytes {fp} is not a positive "
                                "number of 64 KiB pages")
            m = r.get("memsys")
            if not isinstance(m, dict):
                problems.append(f"{tag}: {app} launch {r.get('launch')} has no memsys object")
                return
            for lv in ("l1", "llc", "xllc"):
                for k in CACHE_KEYS:
                    if not isinstance(m.get(lv, {}).get(k), int):
                        problems.append(f"{tag}: memsys.{lv}.{k} missing")
                        return
                if m[lv]["hits"] + m[lv]["misses"] != m[lv]["accesses"]:
                    problems.append(f"{tag}: {app}: memsys.{lv} hits + misses != accesses")
            for k in ("true_pos", "false_pos", "true_neg", "false_neg"):
                if not isinstance(m.get("predictor", {}).get(k), int):
                    problems.append(f"{tag}: memsys.predictor.{k} missing")
                    return
            if not isinstance(m.get("llc", {}).get("mpki"), (int, float)):
                problems.append(f"{tag}: memsys.llc.mpki missing")
            for k in ("read_bytes", "write_bytes"):
                if not isinstance(m.get("dram", {}).get(k), int):
                    problems.append(f"{tag}: memsys.dram.{k} missing")
            if m.get("sms", {}).get("cache") != cache_sms:
                problems.append(f"{tag}: memsys.sms = {m.get('sms')}, expected {cache_sms} cache-mode SMs")
            total["llc"] += m["llc"]["accesses"]
            total["xllc"] += m["xllc"]["accesses"]
            total["fn"] += m["predictor"]["false_neg"]
    if total["llc"] == 0:
        problems.append(f"{tag}: the LLC saw no access")
    if xllc and total["xllc"] == 0:
        problems.append(f"{tag}: the extended LLC saw no access")
    if not xllc and total["xllc"]:
        problems.append(f"{tag}: the extended LLC saw accesses with no cache-mode SM")
    if total["fn"]:
        problems.append(f"{tag}: {total['fn']} false negatives of the {predictor} predictor")


def strip_wall(d):
    return {app: [{k: v for k, v in r.items() if k != "wall_seconds"} for r in recs] for app, recs in d.items()}


with tempfile.TemporaryDirectory() as tmp:
    configs = ["rtx3080"] if quick else ["rtx3080", "a100", "h100"]
    for cfg in configs:
        # the same GPU with the hierarchy off, with and without 20 cache-mode SMs
        # (they change where CTAs run): what every case must match
        base = {cs: run(tmp, f"{cfg}-off{cs}", ["--memsys", "off", "--config", cfg, "--cache-sms", str(cs)])
                for cs in (0, 20)}
        cases = [("plain", ["--cache-sms", "0"], 0, False, "bloom")]
        for pred in ("bloom", "none", "perfect"):
            cases.append((f"xllc-{pred}", ["--cache-sms", "20", "--xllc", "native", "--predictor", pred], 20, True, pred))
        cases.append(("xllc-bdi", ["--cache-sms", "20", "--xllc", "native", "--compress", "bdi"], 20, True, "bloom"))
        for name, opts, cs, xl, pred in cases:
            tag = f"{cfg}-{name}"
            got = run(tmp, tag, ["--memsys", "on", "--config", cfg] + opts)
            if got:
                same_work(tag, got, base[cs])
                check_memsys(tag, got, cs, xl, pred)
    # determinism: identical statistics for 1 and 2 host threads
    opts = ["--memsys", "on", "--cache-sms", "20", "--xllc", "native", "--compress", "bdi"]
    a = run(tmp, "det1", opts, 1)
    b = run(tmp, "det2", opts, 2)
    if a and b and strip_wall(a) != strip_wall(b):
        problems.append("statistics differ between 1 and 2 host threads")

for p in problems:
    print(p)
print(f"{len(problems)} problem(s)")
sys.exit(1 if problems else 0)
