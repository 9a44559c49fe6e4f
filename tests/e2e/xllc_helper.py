#!/usr/bin/env python3
"""tests/e2e/xllc_helper.py — the extended LLC served by the helper kernel
(--xllc helper): real PTX on the cache-mode SMs holds the data, so it must
be right, and a wrong helper must show.

1. Transparency: all 17 workloads (size small) PASS their host checks with
   --xllc helper --xllc-check on (every decision equal to the native model's,
   every block returned or written back equal to a shadow of memory), with
   1, 8 and 20 cache-mode SMs, Indirect-MOV by brx.idx and by the native
   instruction (--isa-ext indirect-mov), and with a tiny extended LLC that
   evicts all the time; each runs, launch by launch, exactly the kernels and
   thread-instructions of the same device with --memsys off (p-bfs, which
   races benignly, the same kernels); the extended
   LLC serves requests; the statistics are the same for 1 and 2 host threads.
   With BDI compression (--compress bdi, docs/xllc-bdi.md) too, with epochs
   short enough that every set re-splits its registers many times.
2. Broken helper builds (gen_helper.py --break) on the stencil workload:
   without the check, no-writeback, tag-bit6 and imov-off-by-one make the
   workload's own check FAIL; with it, each is reported by name (xllc-check:
   ... differs / differ at request) and the run fails.  no-lru-hit keeps the
   data right (the workload PASSes) and only the check's decision comparison
   reports it.  An atomic executed by the helper warp (§4.2.3) whose result
   goes to the wrong lane (atom-lane) fails histo and is named by the check.
   A BDI build that zero-extends its deltas (bdi-decode) fails nw and is
   named by the check.
3. Bad helper code (a helper that faults, one that never parks, one that
   parks without answering, one that rewrites the request it was given)
   ends the run with a report naming the helper warp, its set and the PTX
   line; never a hang.
4. Our CUDA test programs (host writes between kernels, atomics, a flag
   spun on across grids, grid sync, thrust, graphs) PASS through a tiny
   evicting extended LLC with the check on.

usage: xllc_helper.py MORPHEUS BUILD_TESTS_DIR [--full]
  BUILD_TESTS_DIR holds helper_rf_{brx,movind}_broken_BUG.ptx; --full adds
  the movind broken builds and every cache-SM count with both builds."""
import json
import os
import re
import subprocess
import sys
import tempfile

morpheus, bdir = sys.argv[1], sys.argv[2]
full = "--full" in sys.argv[3:]
problems = []
HELPER = ["--xllc", "helper", "--xllc-variant", "rf"]  # (a later --xllc-variant wins)
# 8 LLC partitions of 4 conventional + 4 extended sets (16 KiB of sets per cache-mode SM x 8), all 32-way as
# the helper's: address separation deals a partition's lines over 4 + 4 sets, so the blocks of one set lie
# 64 blocks apart and a tag compare that ignores bit 6 aliases them (tag-bit6), and the sets evict all the
# time (no-writeback, imov-off-by-one show)
TINY = ["--cache-sms", "8", "-o", "memsys.xllc.capacity_kib.rf=16", "-o", "memsys.llc.partitions=8",
        "-o", "memsys.llc.sets=4", "-o", "memsys.llc.ways=32", "-o", "memsys.dram.channels=8"]


def run(args, timeout=300):
    try:
        p = subprocess.run([morpheus] + args, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", f"timed out after {timeout} s"


def workloads(tmp, tag, opts, apps=("--all",), threads=1):
    """workloads run; returns (rc, {app: result}, {app: [records]}, output)."""
    d = os.path.join(tmp, tag)
    os.makedirs(d)
    rc, out, err = run(["workloads", "run", "--size", "small", "--stats", d, "--host-threads", str(threads)]
                       + list(apps) + opts)
    res = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) > 2 and f[1] == "small":
            res[f[0]] = f[2]
    recs = {}
    for f in sorted(os.listdir(d)):
        with open(os.path.join(d, f)) as fh:
            recs[f[:-6]] = [json.loads(x) for x in fh if x.strip()]
    return rc, res, recs, out + err


# p-bfs races benignly: a thread that finds a neighbour unseen writes its level, and another thread of the
# same launch may or may not see that write yet (fewer instructions if it does); the helper mode's loads see
# other SMs' stores of the quantum in another order than device memory does.  Its launches and its result
# (the host check) must still be the same.
RACY = {"p-bfs"}


def shape(rec, app=""):
    if app in RACY:
        return (rec["kernel"], tuple(rec["grid"]), tuple(rec["block"]), rec["status"])
    return (rec["kernel"], tuple(rec["grid"]), tuple(rec["block"]), rec["status"], rec["warp_instructions"],
            rec["thread_instructions"])


with tempfile.TemporaryDirectory() as tmp:
    # ---- 1. transparency
    configs = [("cs8-brx", ["--cache-sms", "8"]), ("cs20-movind", ["--cache-sms", "20", "--isa-ext", "indirect-mov"]),
               ("cs1-brx", ["--cache-sms", "1"]), ("tiny-brx", TINY),
               ("cs8-l1", ["--cache-sms", "8", "--xllc-variant", "l1"]),
               ("cs20-shm", ["--cache-sms", "20", "--xllc-variant", "shm"]),
               ("cs20-rfl1-movind", ["--cache-sms", "20", "--xllc-variant", "rf+l1", "--isa-ext", "indirect-mov"]),
               # BDI (docs/xllc-bdi.md): short epochs, so that every set re-splits its registers often
               ("cs20-bdi-brx", ["--cache-sms", "20", "--compress", "bdi", "--bdi-epoch", "16"]),
               ("tiny-bdi-movind", TINY + ["--compress", "bdi", "--bdi-epoch", "8", "--isa-ext", "indirect-mov"])]
    if full:
        configs += [("cs8-movind", ["--cache-sms", "8", "--isa-ext", "indirect-mov"]),
                    ("cs20-brx", ["--cache-sms", "20"]), ("cs1-movind", ["--cache-sms", "1", "--isa-ext", "indirect-mov"]),
                    ("tiny-movind", TINY + ["--isa-ext", "indirect-mov"]),
                    ("cs8-bdi-movind", ["--cache-sms", "8", "--compress", "bdi", "--isa-ext", "indirect-mov"]),
                    ("cs1-bdi-brx", ["--cache-sms", "1", "--compress", "bdi", "--bdi-epoch", "4"]),
                    ("tiny-bdi-brx", TINY + ["--compress", "bdi", "--bdi-epoch", "8"])]
    bases = {}
    for tag, opts in configs:
        cs = opts[opts.index("--cache-sms") + 1]
        if cs not in bases:
            _, _, bases[cs], _ = workloads(tmp, "off" + cs, ["--memsys", "off", "--cache-sms", cs])
        rc, res, recs, out = workloads(tmp, tag, HELPER + ["--xllc-check", "on"] + opts)
        bad = sorted(a for a, r in res.items() if r != "PASS")
        if rc != 0 or len(res) != 17 or bad:
            problems.append(f"{tag}: exit {rc}, {len(res)} applications, not PASS: {bad}\n{out[-3000:]}")
            continue
        served = 0
        for app, base in bases[cs].items():
            got = recs.get(app, [])
            if [shape(r, app) for r in got] != [shape(r, app) for r in base]:
                problems.append(f"{tag}: {app} ran other launches or instruction counts than with --memsys off")
            served += sum(r["memsys"]["xllc"]["accesses"] for r in got)
        if served == 0:
            problems.append(f"{tag}: the extended LLC served no request")
        hreq = sum(r["memsys"]["helper"]["requests"] for v in recs.values() for r in v)
        hins = sum(r["memsys"]["helper"]["warp_instructions"] for v in recs.values() for r in v)
        if not (hreq >= served and hins > 20 * hreq):
            problems.append(f"{tag}: the records say the helper served {hreq} requests in {hins} warp instructions "
                            f"for {served} extended-LLC accesses")
        print(f"ok: {tag}: 17 PASS with --xllc-check on, same work as --memsys off, {served} extended-LLC accesses, "
              f"{hreq} helper requests in {hins} helper warp instructions")
        if tag == "cs8-brx":
            rc2, _, recs2, out2 = workloads(tmp, tag + "-2threads", HELPER + ["--xllc-check", "on"] + opts, threads=2)
            if rc2 != 0 or {a: [r["memsys"] for r in v] for a, v in recs2.items()} != \
                    {a: [r["memsys"] for r in v] for a, v in recs.items()}:
                problems.append(f"{tag}: statistics differ between 1 and 2 host threads (exit {rc2})\n{out2[-2000:]}")
            else:
                print(f"ok: {tag}: identical statistics with 2 host threads")

    # ---- 2. broken builds
    builds = ["brx", "movind"] if full else ["brx"]
    for imov in builds:
        ext = ["--isa-ext", "indirect-mov"] if imov == "movind" else []
        for bug in ["no-writeback", "tag-bit6", "imov-off-by-one", "no-lru-hit"]:
            ptx = os.path.join(bdir, f"helper_rf_{imov}_broken_{bug}.ptx")
            opts = HELPER + TINY + ext + ["--xllc-helper", ptx]
            rc, res, _, out = workloads(tmp, f"{imov}-{bug}", opts, apps=("stencil",))
            want = "PASS" if bug == "no-lru-hit" else "FAIL"
            if res.get("stencil") != want:
                problems.append(f"{imov} {bug}: without the check stencil gave {res.get('stencil')}, expected {want}"
                                f" (exit {rc})\n{out[-2000:]}")
            else:
                print(f"ok: {imov} {bug}: without the check the workload's own check says {want}")
            rc, res, _, out = workloads(tmp, f"{imov}-{bug}-check", opts + ["--xllc-check", "on"], apps=("stencil",))
            m = re.search(r"xllc-check: [^\n]*(differs|differ at request)[^\n]*", out)
            if rc == 0 or res.get("stencil") != "FAIL" or not m:
                problems.append(f"{imov} {bug}: with --xllc-check on: exit {rc}, {res.get('stencil')}, no report\n"
                                f"{out[-2000:]}")
            else:
                print(f"ok: {imov} {bug}: {m.group(0)[:160]}")

    def caught(tag, opts, app):
        """A broken build: the workload's own check fails, and --xllc-check names it."""
        rc, res, _, out = workloads(tmp, tag, opts, apps=(app,))
        rc2, _, _, out2 = workloads(tmp, tag + "-check", opts + ["--xllc-check", "on"], apps=(app,))
        if res.get(app) != "FAIL" or rc2 == 0 or "xllc-check" not in out2:
            problems.append(f"{tag}: without the check {app} gave {res.get(app)}, with it exit {rc2}\n"
                            f"{out[-1500:]}\n{out2[-1500:]}")
        else:
            print(f"ok: {tag}: {app} fails its own check, and the check names it")

    # ... an atomic executed by the helper warp whose result lands in the wrong lane (histo's global atomics)
    for imov in builds:
        ext = ["--isa-ext", "indirect-mov"] if imov == "movind" else []
        caught(f"{imov}-atom-lane", HELPER + ["--cache-sms", "8"] + ext +
               ["--xllc-helper", os.path.join(bdir, f"helper_rf_{imov}_broken_atom-lane.ptx")], "histo")

    # ... a BDI decode that zero-extends the deltas (nw's scores go negative: its own check fails, the decisions
    # on the re-merged blocks differ from the native model's)
    for imov in builds:
        ext = ["--isa-ext", "indirect-mov"] if imov == "movind" else []
        caught(f"{imov}-bdi-decode", HELPER + TINY + ["--compress", "bdi", "--bdi-epoch", "8"] + ext +
               ["--xllc-helper", os.path.join(bdir, f"helper_rfbdi_{imov}_broken_bdi-decode.ptx")], "nw")

    # ... a BDI helper that ignores the controller's new-epoch flag (MX_MMIO_OP_EPOCH): it never re-splits, so its
    # data stays right (the workload passes without the check) and only --xllc-check sees its re-splits differ
    tag = "brx-bdi-epoch"
    opts = HELPER + TINY + ["--compress", "bdi", "--bdi-epoch", "8",
                            "--xllc-helper", os.path.join(bdir, "helper_rfbdi_brx_broken_bdi-epoch.ptx")]
    rc, res, _, out = workloads(tmp, tag, opts, apps=("nw",))
    rc2, res2, _, out2 = workloads(tmp, tag + "-check", opts + ["--xllc-check", "on"], apps=("nw",))
    m = re.search(r"xllc-check: [^\n]*the BDI re-split before it dropped 0 blocks[^\n]*", out2)
    if res.get("nw") != "PASS" or rc2 == 0 or res2.get("nw") != "FAIL" or not m:
        problems.append(f"{tag}: without the check nw gave {res.get('nw')} (expected PASS), with it exit {rc2}, "
                        f"{res2.get('nw')}, report {bool(m)}\n{out[-1500:]}\n{out2[-1500:]}")
    else:
        print(f"ok: {tag}: {m.group(0)[:200]}")

    # ... and the l1 and shm variants' kernels (blocks in memory, no Indirect-MOV)
    for store, bug in [("l1", "imov-off-by-one"), ("shm", "no-writeback")] + \
            ([("l1", "no-writeback"), ("shm", "imov-off-by-one")] if full else []):
        tiny = [o.replace("capacity_kib.rf=", f"capacity_kib.{store}=") for o in TINY]
        caught(f"{store}-{bug}", HELPER[:2] + ["--xllc-variant", store] + tiny +
               ["--xllc-helper", os.path.join(bdir, f"helper_{store}_broken_{bug}.ptx")], "stencil")

    # ---- 3. bad helper code
    with open(os.path.join(bdir, "helper_rf_brx.ptx")) as f:
        good = f.read()
    serve = good.index(".entry xllc_helper_rf_serve")
    head, tail = good[:serve], good[serve:]
    cases = {
        "faults": (tail.replace("  park;", "  park;\n  ld.global.u32 %x, [0];", 1),
                   [r"Invalid __global__ read", r"xllc_helper_rf_serve", r"helper warp \d+ of cache-mode SM \d+ serves "
                    r"extended-LLC set \d+", r"PTX line \d+"]),
        "loops": (tail.replace("$S_EVENT:", "$S_EVENT:\n$S_SPIN:\n  bra.uni $S_SPIN;", 1),
                  [r"without parking", r"helper warp \d+ of cache-mode SM \d+ serves extended-LLC set \d+",
                   r"PTX line \d+"]),
        "no-answer": (re.sub(r"  @%plane0 st\.global\.u32 \[%row\+16\], %st;\n", "", tail, count=1),
                      [r"parked without a valid answer", r"helper warp \d+ of cache-mode SM \d+ serves extended-LLC set"]),
        "rewrites-request": (tail.replace("$S_EVENT:", "$S_EVENT:\n  @%plane0 st.global.u32 [%row+12], 3;", 1),
                             [r"changed the request in its row", r"helper warp \d+ of cache-mode SM \d+ serves"]),
    }
    for name, (t, pats) in cases.items():
        if t == tail:
            problems.append(f"bad helper {name}: the edit did not apply")
            continue
        path = os.path.join(tmp, f"bad-{name}.ptx")
        with open(path, "w") as f:
            f.write(head + t)
        rc, res, _, out = workloads(tmp, "bad-" + name, HELPER + ["--cache-sms", "8", "--xllc-helper", path,
                                                                  "--max-insns", "100000000"], apps=("stencil",))
        missing = [p for p in pats if not re.search(p, out)]
        if rc is None or rc == 0 or res.get("stencil") != "FAIL" or missing:
            problems.append(f"bad helper {name}: exit {rc}, {res.get('stencil')}, missing {missing}\n{out[-2500:]}")
        else:
            print(f"ok: bad helper {name}: the run ends with a report naming the helper warp and its set")

    # ---- 4. our CUDA test programs, through a tiny evicting extended LLC with the check on: host writes
    # between kernels (managed memory, copies, symbols), atomics, a flag spun on across grids, grid sync
    for name in ["managed", "memory_api", "histogram_atomic", "streams_concurrent", "coop_grid_sync", "thrust_basic",
                 "graphs"]:
        prog = os.path.join(bdir, "cuda", "cuda_" + name)
        st = os.path.join(tmp, name + ".jsonl")
        rc, out, err = run(["exec", "--memsys", "on", "--stats", st, "--xllc-check", "on"] + HELPER + TINY + [prog])
        acc = 0
        if os.path.exists(st):
            with open(st) as f:
                acc = sum(json.loads(x)["memsys"]["xllc"]["accesses"] for x in f if x.strip())
        if rc != 0 or f"PASS {name}" not in out or not acc:
            problems.append(f"cuda {name}: exit {rc}, {acc} extended-LLC accesses\n{(out + err)[-2000:]}")
        else:
            print(f"ok: cuda {name}: PASS through the helper kernel ({acc} extended-LLC accesses)")

if problems:
    print("\n\n".join(problems))
    sys.exit(1)
print("all extended-LLC helper checks passed")
