#!/usr/bin/env python3
"""tests/e2e/bench_host_threads.py — `morpheus bench --size small` with 1, 2
and 3 host threads (2 twice): every kernel passes its C check and executes
the same number of thread-instructions each time.  bfs races on global
memory (threads of different SMs store and load the same levels), so its
count shows whether SMs see each other's stores in host order or in the
global clock's."""
import json
import os
import subprocess
import sys
import tempfile

morpheus = sys.argv[1]
runs = []
with tempfile.TemporaryDirectory() as tmp:
    for i, threads in enumerate([1, 2, 3, 2]):
        out = os.path.join(tmp, f"b{i}.json")
        p = subprocess.run([morpheus, "bench", "--size", "small", "--repeat", "1", "--host-threads", str(threads),
                            "--json", out], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"bench --host-threads {threads} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
        with open(out) as f:
            d = json.load(f)
        assert d["host_threads"] == threads, d["host_threads"]
        runs.append((threads, {k["kernel"]: (k["pass"], k["thread_instructions"]) for k in d["kernels"]}))
base_threads, base = runs[0]
assert "bfs" in base and len(base) >= 7, base
bad = 0
for threads, r in runs:
    for k, (ok, n) in r.items():
        if not ok:
            print(f"{k}: wrong result with {threads} host threads")
            bad += 1
        if n != base[k][1]:
            print(f"{k}: {n} thread-instructions with {threads} host threads, {base[k][1]} with {base_threads}")
            bad += 1
sys.exit(1 if bad else 0)
