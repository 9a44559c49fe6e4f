#!/usr/bin/env python3
"""tests/e2e/memtrace_ref.py — `--mem-trace` of real programs, fed to an
independent model: workloads run under `morpheus exec --memsys on
--mem-trace FILE --stats FILE`, and tests/memsys/lru_ref.py (a plain Python
LRU model written from docs/memsys.md) recomputes every L1, LLC and DRAM
counter from the trace alone; they must equal the sums of the run's
per-launch memsys records.  The LLC is shrunk to 160 KiB (-o
memsys.llc.sets=8) so that it evicts and writes back; the geometry the
model uses comes from `morpheus config show` with the same settings.

usage: memtrace_ref.py MORPHEUS LRU_REF WORKLOAD_BINARY..."""
import json
import os
import subprocess
import sys
import tempfile

morpheus, lru_ref, programs = sys.argv[1], sys.argv[2], sys.argv[3:]
bad = 0
with tempfile.TemporaryDirectory() as tmp:
    # the L1 also takes the register file the resident CTAs leave unallocated (as Unified-SM-Mem does): the
    # reference sees each request's allocation in the trace's rf column
    ovr = ["-o", "memsys.llc.sets=8", "-o", "memsys.l1.rf_kib=64"]
    shown = subprocess.run([morpheus, "config", "show", "rtx3080"] + ovr, capture_output=True, text=True, check=True)
    m = json.loads(shown.stdout)["memsys"]
    flat = {"l1_unified_kib": m["l1"]["unified_kib"], "l1_sets": m["l1"]["sets"], "l1_line": m["l1"]["line"],
            "l1_sector": m["l1"]["sector"], "l1_carveouts_kib": m["l1"]["carveouts_kib"],
            "l1_rf_kib": m["l1"]["rf_kib"],
            "llc_partitions": m["llc"]["partitions"], "llc_sets": m["llc"]["sets"], "llc_ways": m["llc"]["ways"],
            "llc_hash": m["llc"]["hash"], "dram_channels": m["dram"]["channels"]}
    cfg = os.path.join(tmp, "config.json")
    with open(cfg, "w") as f:
        json.dump(flat, f)
    for prog in programs:
        name = os.path.basename(prog)
        trace, stats, total = (os.path.join(tmp, name + x) for x in (".trace", ".jsonl", ".json"))
        p = subprocess.run([morpheus, "exec", "--config", "rtx3080"] + ovr + ["--memsys", "on", "--mem-trace", trace,
                            "--stats", stats, "--", prog, "--size", "small"], capture_output=True, text=True)
        if p.returncode != 0:
            print(f"{name}: exit {p.returncode}\n{p.stdout}{p.stderr}")
            bad += 1
            continue
        # the launches' shares add up to the run's totals
        sums = None
        with open(stats) as f:
            for line in f:
                ms = json.loads(line)["memsys"]
                if sums is None:
                    sums = ms
                    continue
                for lv in ("l1", "llc", "xllc"):
                    for k in ("accesses", "hits", "misses", "evictions", "writebacks"):
                        sums[lv][k] += ms[lv][k]
                for k in ("read_bytes", "write_bytes"):
                    sums["dram"][k] += ms["dram"][k]
                for a, b in zip(sums["dram"]["channels"], ms["dram"]["channels"]):
                    a["read_bytes"] += b["read_bytes"]
                    a["write_bytes"] += b["write_bytes"]
        if not sums or not sums["l1"]["accesses"] or not sums["llc"]["evictions"]:
            print(f"{name}: no memory traffic recorded, or no LLC eviction")
            bad += 1
            continue
        with open(total, "w") as f:
            json.dump(sums, f)
        # emu says what the resident CTAs allocate: a request comes from a resident CTA, whose warps take
        # 256 registers each at the least (the allocation unit)
        with open(trace) as f:
            rfs = {int(t.split()[12]) for t in f if not t.startswith("#")}
        if not rfs or min(rfs) < 256 * 4:
            print(f"{name}: a request saw less register file allocated than one warp's: {sorted(rfs)[:5]}")
            bad += 1
        r = subprocess.run([sys.executable, lru_ref, cfg, trace, total], capture_output=True, text=True)
        print(f"{name}: {r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr.strip()}")
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            bad += 1
sys.exit(1 if bad else 0)
