#!/usr/bin/env python3
"""tests/thirdparty/run_programs.py — third-party CUDA programs under the
emulator: builds each program of a list from a checkout the user points at
(nothing is copied into this tree), runs it with `morpheus exec`, and prints
a table: PASS (exit 0 and the program said it passed), RAN (exit 0, no
self-check in its output), WAIVED (exit 2, the samples' EXIT_WAIVED), FAIL
(with the first line that says why), TIMEOUT, BUILD (did not compile).

    tests/thirdparty/run_programs.py --suite cuda-samples --root ~/cuda-samples \\
        [--morpheus build/morpheus] [--only NAME...] [--timeout 120] [--json FILE] [--exec-opts "..."]
        [--cudart shared|static]

Lists: tests/thirdparty/<suite>.list, one program per line: a directory
relative to --root, then optional extra nvcc arguments and, after ' -- ',
arguments for the program.  Among the nvcc arguments, --mx-fatbin=SRC:OUT
and --mx-ptx=SRC:OUT build the program's device code SRC (a file of its
directory, then left out of the program itself) into OUT beside the
executable, as the driver-API samples load it at run time: such a program
gets a folder of its own in --work (with a copy of the sample's data/) and
runs there.  Programs are built with nvcc -arch=compute_80
-cudart shared (PTX in the fatbinary, our libcudart.so.13; --cudart static:
nvcc's default, NVIDIA's runtime linked in, which reaches only our
libcuda.so.1), every .cu and
.cpp below the directory (its header folders on the include path), into --work (default /tmp/mx-thirdparty).  Exit
status 0 if nothing fails to run (BUILD rows do not count: they say what the
host toolchain lacks)."""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXEC_OPTS = []  # --exec-opts, split
PASS_RE = re.compile(r"passed|result = pass|\bpass\b|returned OK|\b0 failures|\bOK\b", re.I)
FAIL_RE = re.compile(r"\bfail(ed|s|ure)?\b|mismatch|incorrect|\berrors? (found|detected)", re.I)
NOT_FAIL_RE = re.compile(r"\b0 (failures|errors)\b", re.I)


def parse_list(path):
    progs = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            build, _, run = line.partition(" -- ")
            parts = build.split()
            progs.append({"dir": parts[0], "nvcc": parts[1:], "args": run.split()})
    return progs


def first_reason(text):
    for line in text.splitlines():
        if line.startswith("morpheus:") or line.startswith("========="):
            return line.strip()
    for line in text.splitlines():
        if FAIL_RE.search(line):
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


def nvcc_error(p):
    lines = (p.stderr + p.stdout).splitlines()
    err = [l for l in lines if "error" in l.lower()] or [l for l in lines if l.strip()] or ["nvcc failed"]
    return err[0].strip()


def build(prog, root, work, nvcc, cudart="shared"):
    src = os.path.join(root, prog["dir"])
    # device code built on its own (--mx-fatbin=SRC:OUT, --mx-ptx=SRC:OUT)
    arts = [a[5:].split("=", 1) for a in prog["nvcc"] if a.startswith("--mx-fatbin=") or a.startswith("--mx-ptx=")]
    extra = [a for a in prog["nvcc"] if not (a.startswith("--mx-fatbin=") or a.startswith("--mx-ptx="))]
    own = {os.path.join(src, spec.split(":", 1)[0]) for _, spec in arts}
    files = sorted(f for f in glob.glob(os.path.join(src, "**", "*.cu"), recursive=True) +
                   glob.glob(os.path.join(src, "**", "*.cpp"), recursive=True) if f not in own)
    if not files:
        return None, f"no .cu/.cpp in {prog['dir']}"
    exe = os.path.join(work, prog["dir"].replace("/", "_") + ("" if cudart == "shared" else "_" + cudart))
    if arts:  # a folder of its own: the executable, its device code, and the sample's data (they look in ./)
        wdir = exe + ".d"
        os.makedirs(wdir, exist_ok=True)
        exe = os.path.join(wdir, os.path.basename(prog["dir"]))
        if os.path.isdir(os.path.join(src, "data")) and not os.path.lexists(os.path.join(wdir, "data")):
            shutil.copytree(os.path.join(src, "data"), os.path.join(wdir, "data"))  # outputs land here, not in the checkout
        work = wdir
    dirs = [src] + sorted({os.path.dirname(f) for f in glob.glob(os.path.join(src, "**", "*.h"), recursive=True)})
    incs = [f"-I{d}" for d in dirs] + [f"-I{d}" for d in glob.glob(os.path.join(root, "Common")) + glob.glob(os.path.join(root, "common"))]
    for kind, spec in arts:
        if ":" not in spec:
            return None, f"--mx-{kind}={spec}: expected SRC:OUT"
        ksrc, out = spec.split(":", 1)
        if not os.path.isfile(os.path.join(src, ksrc)):
            return None, f"--mx-{kind}: no {ksrc} in {prog['dir']}"
        p = subprocess.run([nvcc, "-arch=compute_80", "-O2", "-w", "-" + kind, "-o", os.path.join(work, out)] + incs +
                           [os.path.join(src, ksrc)], capture_output=True, text=True)
        if p.returncode != 0:
            return None, f"{ksrc}: " + nvcc_error(p)
    cmd = [nvcc, "-arch=compute_80", "-cudart", cudart, "-O2", "-w", "-o", exe] + incs + extra + files
    if any(f.endswith(".cpp") for f in files) and arts:
        cmd += ["-lcuda"]  # driver-API programs: our libcuda.so.1 at run time
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, nvcc_error(p)
    return exe, ""


def run(prog, exe, morpheus, timeout, cwd):
    cmd = [morpheus, "exec"] + EXEC_OPTS + ["--", exe] + prog["args"]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd, errors="replace")
    except subprocess.TimeoutExpired:
        return "TIMEOUT", f"did not finish in {timeout} s", time.monotonic() - t0
    secs = time.monotonic() - t0
    out = p.stdout + p.stderr
    if p.returncode == 0:
        failed = [l for l in p.stdout.splitlines() if FAIL_RE.search(l) and not NOT_FAIL_RE.search(l)]
        if failed and not PASS_RE.search(p.stdout):
            return "FAIL", "exit 0 but: " + failed[0].strip(), secs
        return ("PASS" if PASS_RE.search(p.stdout) else "RAN"), "", secs
    if p.returncode == 2:
        return "WAIVED", first_reason(out), secs
    return "FAIL", f"exit {p.returncode}: " + first_reason(out), secs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", required=True, help="list name: tests/thirdparty/SUITE.list")
    ap.add_argument("--root", required=True, help="the suite's checkout")
    ap.add_argument("--morpheus", default=os.path.join(HERE, "..", "..", "build", "morpheus"))
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--work", default="/tmp/mx-thirdparty")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per program (default 120)")
    ap.add_argument("--only", nargs="*", help="program directories (or their last component) to run")
    ap.add_argument("--json", help="also write the table as JSON")
    ap.add_argument("--exec-opts", default="", help="options for morpheus exec, e.g. "
                    "'--memsys on --cache-sms 8 --xllc helper --xllc-check on'")
    ap.add_argument("--cudart", choices=["shared", "static"], default="shared",
                    help="how nvcc links the CUDA runtime (default shared; static is nvcc's own default)")
    a = ap.parse_args()
    EXEC_OPTS[:] = a.exec_opts.split()
    lst = os.path.join(HERE, a.suite + ".list")
    if not os.path.isfile(lst):
        sys.exit(f"run_programs.py: no list {lst} (lists: {', '.join(sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(HERE, '*.list'))))})")
    if not os.path.isdir(a.root):
        sys.exit(f"run_programs.py: --root {a.root} is not a directory")
    if not os.access(a.morpheus, os.X_OK):
        sys.exit(f"run_programs.py: {a.morpheus} is not an executable (build first, or give --morpheus)")
    if a.timeout < 1:
        sys.exit("run_programs.py: --timeout must be at least 1 second")
    progs = parse_list(lst)
    if a.only:
        progs = [p for p in progs if p["dir"] in a.only or os.path.basename(p["dir"]) in a.only]
        if not progs:
            sys.exit("run_programs.py: --only matches no program of the list")
    os.makedirs(a.work, exist_ok=True)
    rows = []
    print(f"{'program':34} {'result':8} {'s':>6}  why", flush=True)
    for i, prog in enumerate(progs):
        exe, why = build(prog, a.root, a.work, a.nvcc, a.cudart)
        if not exe:
            res, secs = "BUILD", 0.0
        else:
            cwd = os.path.dirname(exe) if exe.endswith(".d/" + os.path.basename(prog["dir"])) else os.path.join(a.root, prog["dir"])
            res, why, secs = run(prog, exe, os.path.abspath(a.morpheus), a.timeout, cwd)
        name = os.path.basename(prog["dir"])
        rows.append({"program": prog["dir"], "result": res, "seconds": round(secs, 2), "why": why})
        print(f"{name:34} {res:8} {secs:6.1f}  {why[:120]}", flush=True)
    counts = {}
    for r in rows:
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    print("total: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + f" of {len(rows)}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"suite": a.suite, "counts": counts, "programs": rows}, f, indent=1)
    sys.exit(1 if counts.get("FAIL", 0) + counts.get("TIMEOUT", 0) else 0)


if __name__ == "__main__":
    main()
