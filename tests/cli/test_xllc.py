#!/usr/bin/env python3
"""tests/cli/test_xllc.py — `morpheus xllc characterize`: the helper kernel's
rows for every Indirect-MOV build and warp count, checked against what
follows from the kernel and the GPU without running it: the capacity is
min(warps, warps that fit the register file) x 32 ways x 128 B at the
kernel's registers per thread (ptxas's count, or the declared one) rounded
up to 8; the native movind saves
exactly 2 instructions per Indirect-MOV (brx.idx + mov + bra.uni against one
movind): one on a load hit, one on a miss's insertion, one on a dirty
victim's read-out.  Also its errors.

usage: test_xllc.py MORPHEUS"""
import json
import os
import subprocess
import sys
import tempfile

morpheus = sys.argv[1]
bad = []


def check(what, ok, *info):
    print(("ok: " if ok else "FAIL ") + what)
    if not ok:
        bad.append(what)
        for i in info:
            print("   ", i)


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "x.json")
    p = subprocess.run([morpheus, "xllc", "characterize", "--json", out], capture_output=True, text=True)
    check("characterize runs", p.returncode == 0, p.stdout, p.stderr)
    rows = json.load(open(out)) if p.returncode == 0 else []
    keys = {"variant", "warps", "capacity_bytes", "insns_per_hit", "insns_per_miss", "insns_per_writeback",
            "indirect_mov"}
    check("40 rows (rf, rf+l1, rf-bdi x brx, movind; l1; shm) x 1 8 16 32 48 warps with the contract's keys",
          len(rows) == 40 and all(keys <= set(r) for r in rows) and
          sorted((r["variant"], r["indirect_mov"], r["warps"]) for r in rows) ==
          sorted((v, b, w) for v, b in (("rf", "brx"), ("rf", "movind"), ("l1", "none"), ("shm", "none"),
                                        ("rf+l1", "brx"), ("rf+l1", "movind"), ("rf-bdi", "brx"),
                                        ("rf-bdi", "movind"))
                 for w in (1, 8, 16, 32, 48)), rows)
    for r in rows:
        r8 = (r["regs_per_thread"] + 7) // 8 * 8
        fit = 65536 // (r8 * 32)
        # the RTX 3080's L1 (128 KiB) and shared memory (100 KiB) hold 32 and 25 sets of 4 KiB
        fit = min(fit, {"rf": 10 ** 9, "l1": 32, "shm": 25, "rf+l1": 64, "rf-bdi": 10 ** 9}[r["variant"]])
        res = min(r["warps"], fit, 48)
        if r["capacity_bytes"] != res * 32 * 128 or r["warps_resident"] != res:
            check(f"capacity of {r['indirect_mov']} at {r['warps']} warps", False, r, res)
            break
    else:
        check("capacity = resident warps x 4 KiB, resident = min(warps, register-file fit, 48)", bool(rows))
    by = {(r["indirect_mov"], r["warps"]): r for r in rows if r["variant"] == "rf"}
    by_var = {(r["variant"], r["warps"]): r for r in rows if r["indirect_mov"] in ("brx", "none")}
    mem = {(r["variant"], r["warps"]): r for r in rows if r["variant"] in ("l1", "shm")}
    comb = {(r["indirect_mov"], r["warps"]): r for r in rows if r["variant"] == "rf+l1"}
    if rows:
        mv = by[("movind", 8)]
        check("the l1 and shm kernels declare 28 fewer registers (the 32 data registers, less the two 64-bit "
              "address registers) and access a block word in 4 instructions (mul.wide, add, add, ld/st) where "
              "movind takes 1: 3 more per access on a hit, a miss's insertion and a write-back's read-out",
              all(mem[(v, 8)]["regs_declared"] == mv["regs_declared"] - 28 and
                  mem[(v, 8)]["insns_per_hit"] == mv["insns_per_hit"] + 3 and
                  mem[(v, 8)]["insns_per_miss"] == mv["insns_per_miss"] + 3 and
                  mem[(v, 8)]["insns_per_writeback"] == mv["insns_per_writeback"] + 3 for v in ("l1", "shm")), mem)
        check("the shm variant is bounded by shared memory (25 sets), l1 by the L1 (32 sets) at 48 warps",
              mem[("shm", 48)]["warps_resident"] == 25 and mem[("l1", 48)]["warps_resident"] == 32, mem)
    if rows:
        b, m = by[("brx", 8)], by[("movind", 8)]
        check("movind saves 2 instructions per Indirect-MOV: hit, miss (insertion), write-back (read-out)",
              b["insns_per_hit"] - m["insns_per_hit"] == 2 and b["insns_per_miss"] - m["insns_per_miss"] == 2 and
              b["insns_per_writeback"] - m["insns_per_writeback"] == 2, b, m)
        check("instruction counts do not depend on the warp count",
              len({(r["variant"], r["indirect_mov"], r["insns_per_hit"], r["insns_per_miss"]) for r in rows}) == 8, rows)
        bdi = {(r["indirect_mov"], r["warps"]): r for r in rows if r["variant"] == "rf-bdi"}
        check("the BDI build (every register uncompressed here) costs more per hit, miss and write-back than rf "
              "(four metadata registers to search, the level's field to decode and encode), holds more state "
              "registers, and movind saves instructions there too",
              all(bdi[(i, 8)][k] > by[(i, 8)][k] for i in ("brx", "movind")
                  for k in ("insns_per_hit", "insns_per_miss", "insns_per_writeback")) and
              bdi[("brx", 8)]["regs_declared"] > b["regs_declared"] and
              bdi[("movind", 8)]["insns_per_hit"] < bdi[("brx", 8)]["insns_per_hit"] and
              bdi[("movind", 8)]["insns_per_miss"] < bdi[("brx", 8)]["insns_per_miss"], bdi, by)
        check("rf+l1's register sets cost what rf's do (the same service loop), its kernel declares rf's registers "
              "and the L1 half's two address registers",
              all(comb[(b, 8)]["insns_per_hit"] == by[(b, 8)]["insns_per_hit"] and
                  comb[(b, 8)]["insns_per_miss"] == by[(b, 8)]["insns_per_miss"] and
                  comb[(b, 8)]["regs_declared"] == by[(b, 8)]["regs_declared"] + 4 for b in ("brx", "movind")),
              comb)
        check("a miss costs more than a hit, and a write-back more than nothing",
              all(r["insns_per_miss"] > r["insns_per_hit"] > 20 and r["insns_per_writeback"] > 0 for r in rows), rows)
        check("the paper's RTX 3080 capacities are given beside ours (8 warps 239 KiB, 48 warps 192 KiB)",
              b["paper_capacity_bytes"] == 239 * 1024 and by[("brx", 48)]["paper_capacity_bytes"] == 192 * 1024 and
              by[("brx", 16)]["paper_capacity_bytes"] is None and mem[("l1", 8)]["paper_capacity_bytes"] == 128 * 1024)
    check("the table is printed", "insns/hit" in p.stdout and "rf" in p.stdout, p.stdout)
    check("registers per thread: what ptxas allocates when it is there, else the declared ones; ptxas, which "
          "shares registers between what is not live at once, allocates fewer than the PTX declares",
          all(r["regs_per_thread"] == (r["regs_ptxas"] or r["regs_declared"]) and
              (r["regs_ptxas"] == 0 or r["regs_ptxas"] < r["regs_declared"]) for r in rows) and
          (not os.access("/usr/local/cuda/bin/ptxas", os.X_OK) or all(r["regs_ptxas"] > 0 for r in rows)), rows)
    cfg = os.path.join(tmp, "ours.json")
    p = subprocess.run([morpheus, "xllc", "characterize", "--emit-config", cfg], capture_output=True, text=True)
    q = subprocess.run([morpheus, "config", "show", cfg], capture_output=True, text=True)
    kib = json.loads(q.stdout)["memsys"]["xllc"]["capacity_kib"] if q.returncode == 0 else {}
    want = {v: by_var[(v, 48)]["capacity_bytes"] // 1024 for v in ("rf", "l1", "shm", "rf+l1")} if rows else {}
    check("--emit-config writes a configuration `config show` reads, with each variant's capacity at 48 warps",
          p.returncode == 0 and q.returncode == 0 and kib == want, p.stderr, q.stderr, kib, want)
    p = subprocess.run([morpheus, "xllc", "characterize", "--config", "a100", "--json", out], capture_output=True,
                       text=True)
    rows = json.load(open(out)) if p.returncode == 0 else []
    check("on the a100 (64 warps per SM) it runs, without paper numbers",
          p.returncode == 0 and rows and all(r["paper_capacity_bytes"] is None for r in rows), p.stderr)
    p = subprocess.run([morpheus, "xllc"], capture_output=True, text=True)
    check("no subcommand: usage error naming characterize", p.returncode == 2 and "characterize" in p.stderr, p.stderr)
    p = subprocess.run([morpheus, "xllc", "characterize", "--bogus"], capture_output=True, text=True)
    check("an unknown option: usage error naming it", p.returncode == 2 and "--bogus" in p.stderr, p.stderr)
    p = subprocess.run([morpheus, "xllc", "characterize", "--json", os.path.join(tmp, "no", "such", "dir.json")],
                       capture_output=True, text=True)
    check("an unwritable --json: I/O error naming the file", p.returncode == 3 and "dir.json" in p.stderr, p.stderr)
    p = subprocess.run([morpheus, "--help"], capture_output=True, text=True)
    check("morpheus --help lists xllc", "xllc" in p.stdout)

sys.exit(1 if bad else 0)
