#!/usr/bin/env python3
"""tests/e2e/xllc_speed.py — the benchmark of --xllc helper against --xllc
native (suite bench): the memory-bound workloads at size small, 20
cache-mode SMs, the register-file geometry in both (32 ways, 48 sets of a
cache-mode SM), best of REPEAT runs.  Prints per application the whole-run
host time in each mode, the extended-LLC accesses, and the host time per
access (the whole run's time over its extended-LLC accesses, and the extra
time of helper mode per access), then the geomean ratio helper / native.
The issue's target is at most 20x; the benchmark fails above it.

usage: xllc_speed.py MORPHEUS [REPEAT] [--json FILE] [--bdi]
  --bdi   both modes with --compress bdi (the helper: the rf kernel's BDI build)"""
import json
import math
import os
import subprocess
import sys
import tempfile

morpheus = sys.argv[1]
repeat = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 2
out_json = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
GEOM = ["--cache-sms", "20", "--xllc-variant", "rf", "-o", "memsys.xllc.ways=32", "-o", "memsys.xllc.capacity_kib.rf=192"]
if "--bdi" in sys.argv:
    GEOM += ["--compress", "bdi"]

p = subprocess.run([morpheus, "workloads", "list"], capture_output=True, text=True, check=True)
apps = [l.split()[0] for l in p.stdout.splitlines()[1:] if len(l.split()) > 1 and l.split()[1] == "memory"]


def run(mode):
    """{app: (wall seconds, extended-LLC accesses)}, best wall of `repeat` runs."""
    best = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(repeat):
            j = os.path.join(tmp, f"{mode}{r}.json")
            p = subprocess.run([morpheus, "workloads", "run", "--size", "small", "--json", j, "--xllc", mode] + GEOM +
                               apps, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"{mode}: workloads run failed ({p.returncode}):\n{p.stdout}{p.stderr}")
            for row in json.load(open(j)):
                w, a = row["wall_seconds"], row["memsys"]["xllc"]["accesses"]
                if row["name"] not in best or w < best[row["name"]][0]:
                    best[row["name"]] = (w, a)
    return best


nat, hlp = run("native"), run("helper")
print(f"{'app':8} {'native s':>9} {'helper s':>9} {'ratio':>6} {'xLLC acc (helper)':>18} {'us/acc native':>14} "
      f"{'us/acc helper':>14} {'extra us/acc':>13}")
ratios, rows = [], []
for a in apps:
    (tn, an), (th, ah) = nat[a], hlp[a]
    ratio = th / tn if tn > 0 else float("nan")
    ratios.append(ratio)
    per_n = 1e6 * tn / an if an else float("nan")
    per_h = 1e6 * th / ah if ah else float("nan")
    extra = 1e6 * (th - tn) / ah if ah else float("nan")
    rows.append({"app": a, "native_s": tn, "helper_s": th, "ratio": ratio, "xllc_accesses_native": an,
                 "xllc_accesses_helper": ah, "us_per_access_native": per_n, "us_per_access_helper": per_h,
                 "extra_us_per_access": extra})
    print(f"{a:8} {tn:9.3f} {th:9.3f} {ratio:6.2f} {ah:18d} {per_n:14.3f} {per_h:14.3f} {extra:13.3f}")
geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
tot_extra = 1e6 * sum(hlp[a][0] - nat[a][0] for a in apps) / max(1, sum(hlp[a][1] for a in apps))
print(f"geomean helper/native whole-run time: {geo:.2f}x over {len(apps)} memory-bound workloads "
      f"(target: at most 20x); helper mode costs {tot_extra:.2f} us of host time per extended-LLC access")
if out_json:
    with open(out_json, "w") as f:
        json.dump({"rows": rows, "geomean_ratio": geo, "extra_us_per_access": tot_extra}, f, indent=1)
sys.exit(0 if geo <= 20 else 1)
