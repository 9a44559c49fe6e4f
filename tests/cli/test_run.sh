#!/bin/bash
# tests/cli/test_run.sh — shell-level tests of `morpheus run`: usage errors
# with their exact messages and exit codes, buffer initialisers and
# write-back compared byte for byte with references made here, --stats JSON,
# faults, printf, --host-threads, local-memory limits.  Usage: test_run.sh PATH/TO/morpheus
# Prints one line per check and "N checks, M failed"; exits 1 if any failed.
set -u
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH/TO/morpheus" >&2
    exit 2
fi
M=$1
HERE=$(cd "$(dirname "$0")" && pwd)
PTX=$HERE/run.ptx
. "$HERE/lib.sh"

# ------------------------------------------------------------------ help
run run --help
if [ "$rc" -eq 0 ] && head -n 1 "$T/out" | grep -q '^usage: morpheus run ' && [ ! -s "$T/err" ]; then
    ok "run --help: exit 0, usage on stdout"
else
    bad "run --help" "exit $rc" "$(head -n 2 "$T/out")"
fi
run help run
[ "$rc" -eq 0 ] && cmp -s "$T/out" <("$M" run --help) && ok "help run = run --help" || bad "help run" "exit $rc"

# ------------------------------------------------------------------ usage errors (exit 2)
expect "missing --grid" 2 "morpheus run: need FILE.ptx, KERNEL, --grid and --block" -- \
    run "$PTX" axpi --block 32 -- 'u32[4]=zero' 'u32[4]=zero' u32:4 u32:1
has "missing --grid prints the usage" "$T/err" "usage: morpheus run [OPTIONS] FILE.ptx|FILE.cubin KERNEL"
expect "missing --block" 2 "morpheus run: need FILE.ptx, KERNEL, --grid and --block" -- \
    run "$PTX" axpi --grid 1 -- 'u32[4]=zero' 'u32[4]=zero' u32:4 u32:1
expect "missing kernel name" 2 "morpheus run: need FILE.ptx, KERNEL, --grid and --block" -- run "$PTX" --grid 1 --block 1
expect "--grid without value" 2 "morpheus run: --grid needs a value" -- run "$PTX" axpi --block 1 --grid
DIMS="X[,Y[,Z]] of integers from 1 to 2147483647"
for g in 0 -1 ' 4' 2147483648 4, ,4 1.5; do
    expect "--grid '$g'" 2 "morpheus run: --grid: expected $DIMS, got '$g'" -- run "$PTX" axpi --grid "$g" --block 1
done
expect "--block 4,x" 2 "morpheus run: --block: expected $DIMS, got '4,x'" -- run "$PTX" axpi --grid 1 --block 4,x
expect "--block 1,1,1,1" 2 "morpheus run: --block: expected $DIMS, got '1,1,1,1'" -- run "$PTX" axpi --grid 1 --block 1,1,1,1

# Every numeric option is parsed strictly: a bad value is a usage error
# naming the option, the value and what is expected (none of them may turn
# the watchdog off, as nan, -1 and 12abc once did).
# badval OPTION VALUE EXPECTED: `run OPTION VALUE ...` exits 2 with that message.
badval() {
    expect "$1 '$2'" 2 "morpheus run: $1: expected $3, got '$2'" -- run "$1" "$2" "$PTX" spin --grid 1 --block 1
}
for v in nan -nan -1 -0 inf infinity 1e400 1e-400 '' ' 5' 5s 0x10 1,5; do badval --timeout "$v" "a number of seconds >= 0"; done
for v in -1 12abc 1.5 1e9 0x '' +5 ' 5' 18446744073709551616; do
    badval --max-insns "$v" "a number of warp instructions >= 0"
done
for v in 0 257 -1 abc 2x; do badval --host-threads "$v" "an integer from 1 to 256"; done
for v in 0 1073741825 -5 16k; do badval --quantum "$v" "an integer from 1 to 1073741824"; done
for v in fifo LRR gto, '' lrrgto; do badval --warp-sched "$v" "one of lrr, gto"; done
for v in 0 4097 abc -68; do badval --sms "$v" "an integer from 1 to 4096"; done
for v in -1 4k 1073741825; do badval --dyn-smem "$v" "an integer from 0 to 1073741824"; done
for v in -1 x; do badval --print "$v" "an integer >= 0"; done
expect "--timeout without value" 2 "morpheus run: --timeout needs a value" -- run "$PTX" spin --grid 1 --block 1 --timeout
# good values: hexadecimal counts, decimal seconds, 0 = no limit
run run --max-insns 0x400 "$PTX" spin --grid 1 --block 32
[ "$rc" -eq 1 ] && has "--max-insns 0x400 is 1024" "$T/err" "watchdog: kernel exceeded 1024 warp instructions" || bad "--max-insns 0x400" "exit $rc"
run run --max-insns 0 --timeout 0.3 "$PTX" spin --grid 1 --block 32
[ "$rc" -eq 1 ] && has "--max-insns 0: no instruction limit, --timeout 0.3 stops it" "$T/err" "watchdog: kernel ran longer than 0.3 s (--timeout)" ||
    bad "--max-insns 0 --timeout 0.3" "exit $rc" "$(cat "$T/err")"
# --help states the defaults and what 0 means, and promises no identical
# results with several host threads (atomics across blocks run in any order)
run run --help
grep -qi "identical" "$T/out" && bad "--help: --host-threads promises identical results" || ok "--help: no promise of identical results"
has "--help: --host-threads: the same for every N, races included" "$T/out" "every run, data races on global memory included"
has "--help: --max-insns default" "$T/out" "(default 10^10, about 2 minutes of emulation; 0: no limit)"
has "--help: --timeout default" "$T/out" "--timeout SECONDS    watchdog: stop the kernel after this much wall-clock time"
grep -A1 -e '--timeout SECONDS' "$T/out" | grep -qF "(default 0: no limit)" && ok "--help: --timeout default 0: no limit" ||
    bad "--help: --timeout default" "$(grep -A1 -e '--timeout' "$T/out")"
expect "unknown option" 2 "morpheus run: unknown option '--frobnicate' (see morpheus run --help)" -- \
    run "$PTX" axpi --grid 1 --block 1 --frobnicate
expect "stray argument before --" 2 "morpheus run: unexpected 'u32:4' (kernel arguments go after --)" -- \
    run "$PTX" axpi --grid 1 --block 1 u32:4
expect "unknown kernel lists the kernels" 2 "morpheus run: no kernel 'nope' in $PTX; kernels: axpi _Z4fillPyy oob spin hello" -- \
    run "$PTX" nope --grid 1 --block 1
expect "wrong argument count" 2 "morpheus run: kernel axpi takes 4 parameters, 1 given" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero'
expect "wrong argument count (none)" 2 "morpheus run: kernel axpi takes 4 parameters, 0 given" -- run "$PTX" axpi --grid 1 --block 1
expect "bad TYPE" 2 "morpheus run: argument 1 'q32[4]=zero': unknown type (u8 u16 u32 u64 s8 s16 s32 s64 f32 f64)" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'q32[4]=zero' 'u32[4]=zero' u32:4 u32:1
expect "bad TYPE (scalar)" 2 "morpheus run: argument 3 'int:4': unknown type (u8 u16 u32 u64 s8 s16 s32 s64 f32 f64)" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero' 'u32[4]=zero' int:4 u32:1
expect "bad scalar value" 2 "morpheus run: argument 3: bad .u32 value '4x'" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero' 'u32[4]=zero' u32:4x u32:1
expect "scalar out of range" 2 "morpheus run: argument 4: bad .u32 value '4294967296'" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero' 'u32[4]=zero' u32:4 u32:4294967296
expect "scalar of the wrong size" 2 "morpheus run: argument 3 is .u64 (8 bytes) but parameter n is 4 bytes" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero' 'u32[4]=zero' u64:4 u32:1
expect "buffer for a 4-byte parameter" 2 "morpheus run: argument 3 is a buffer (8-byte address) but parameter n is 4 bytes" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero' 'u32[4]=zero' 'u32[4]=zero' u32:1
expect "unknown initialiser" 2 "morpheus run: argument 2: unknown initialiser 'ones' (zero, iota, fill:V, rand:SEED, file:PATH)" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero' 'u32[4]=ones' u32:4 u32:1
expect ">PATH on a scalar" 2 "morpheus run: argument 3: '>PATH' applies to buffers only" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero' 'u32[4]=zero' "u32:4>$T/x" u32:1
expect "empty >PATH" 2 "morpheus run: argument 1: empty output path after '>'" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero>' 'u32[4]=zero' u32:4 u32:1
printf 'abcdef' >"$T/short.bin"
expect "file: of the wrong size" 2 "morpheus run: argument 2: $T/short.bin: has 6 bytes, the buffer needs 16" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero' "u32[4]=file:$T/short.bin" u32:4 u32:1

# ------------------------------------------------------------------ I/O errors (exit 3)
expect "file:PATH missing" 3 "morpheus run: argument 2: $T/nope.bin: No such file or directory" -- \
    run "$PTX" axpi --grid 1 --block 1 -- 'u32[4]=zero' "u32[4]=file:$T/nope.bin" u32:4 u32:1
run run "$T/none.ptx" axpi --grid 1 --block 1
[ "$rc" -eq 3 ] && grep -qF "$T/none.ptx" "$T/err" && ok "missing PTX file: exit 3" || bad "missing PTX file" "exit $rc" "$(cat "$T/err")"
run run "$PTX" axpi --grid 1 --block 1 -- "u32[4]=zero>$T/no/such/dir/out.bin" 'u32[4]=zero' u32:4 u32:1
[ "$rc" -eq 3 ] && grep -qF "morpheus run: cannot write $T/no/such/dir/out.bin" "$T/err" && ok "unwritable >PATH: exit 3" ||
    bad "unwritable >PATH" "exit $rc" "$(cat "$T/err")"

# ------------------------------------------------------------------ results
# out[i] = 3 * in[i] + i for i < 1000, with in read from a file made here
python3 - "$T" <<'PY'
import struct, sys, random
t = sys.argv[1]
random.seed(7)
vals = [random.randrange(0, 1 << 32) for _ in range(1024)]
open(t + "/in.bin", "wb").write(struct.pack("<1024I", *vals))
out = [((3 * v + i) & 0xffffffff) if i < 1000 else 0 for i, v in enumerate(vals)]
open(t + "/want.bin", "wb").write(struct.pack("<1024I", *out))
open(t + "/fill_want.bin", "wb").write(struct.pack("<96Q", *[(1 << 40) + i for i in range(96)]))
open(t + "/iota_want.bin", "wb").write(struct.pack("<1024I", *range(1024)))
PY
run run -q "$PTX" axpi --grid 4 --block 256 -- "u32[1024]=zero>$T/out.bin" "u32[1024]=file:$T/in.bin>$T/in_back.bin" u32:1000 u32:3
if [ "$rc" -eq 0 ] && cmp -s "$T/out.bin" "$T/want.bin"; then ok "write-back equals the reference"; else
    bad "write-back" "exit $rc" "$(cat "$T/err")" "$(cmp "$T/out.bin" "$T/want.bin" 2>&1)"; fi
cmp -s "$T/in_back.bin" "$T/in.bin" && ok "an input buffer written back is unchanged" || bad "input write-back" "$(cmp "$T/in_back.bin" "$T/in.bin" 2>&1)"
[ ! -s "$T/err" ] && ok "-q: nothing on stderr" || bad "-q" "$(cat "$T/err")"
[ "$(od -An -tu4 -j 4 -N 4 "$T/out.bin" | tr -d ' ')" = "$(od -An -tu4 -j 4 -N 4 "$T/want.bin" | tr -d ' ')" ] &&
    ok "od agrees on out[1]" || bad "od out[1]"
# the same with 4 host threads: byte-identical
run run -q --host-threads 4 "$PTX" axpi --grid 4 --block 256 -- "u32[1024]=zero>$T/out4.bin" "u32[1024]=file:$T/in.bin" u32:1000 u32:3
[ "$rc" -eq 0 ] && cmp -s "$T/out4.bin" "$T/want.bin" && ok "--host-threads 4: identical bytes" || bad "--host-threads 4" "exit $rc"
# the same with the other warp scheduler and a 7-cycle quantum: byte-identical
run run -q --warp-sched gto --quantum 7 --host-threads 2 "$PTX" axpi --grid 4 --block 256 -- "u32[1024]=zero>$T/outg.bin" "u32[1024]=file:$T/in.bin" u32:1000 u32:3
[ "$rc" -eq 0 ] && cmp -s "$T/outg.bin" "$T/want.bin" && ok "--warp-sched gto --quantum 7: identical bytes" || bad "--warp-sched gto --quantum 7" "exit $rc"
# iota initialiser, read back unchanged (a = 0: out = i... and in stays iota)
run run -q "$PTX" axpi --grid 1 --block 1024 -- "u32[1024]=zero" "u32[1024]=iota>$T/iota.bin" u32:1024 u32:0
[ "$rc" -eq 0 ] && cmp -s "$T/iota.bin" "$T/iota_want.bin" && ok "iota initialiser" || bad "iota" "exit $rc"
# fill: and the demangled kernel name
run run -q "$PTX" fill --grid 3 --block 32 -- "u64[96]=fill:7>$T/fill.bin" u64:0x10000000000
[ "$rc" -eq 0 ] && cmp -s "$T/fill.bin" "$T/fill_want.bin" && ok "demangled kernel name, u64 buffer" || bad "fill" "exit $rc" "$(cat "$T/err")"
# summary line without -q
run run "$PTX" axpi --grid 4 --block 256 -- 'u32[1024]=zero' 'u32[1024]=rand:1' u32:1000 u32:3
has "summary line" "$T/err" "morpheus: axpi grid (4,1,1) block (256,1,1): "
[ "$rc" -eq 0 ] && ok "rand: initialiser runs" || bad "rand:" "exit $rc"
# --print
run run -q --print 4 "$PTX" axpi --grid 1 --block 4 -- 'u32[4]=zero' 'u32[4]=fill:5' u32:4 u32:2
[ "$rc" -eq 0 ] && has "--print" "$T/err" "morpheus: u32[4]=zero: 10 11 12 13" || bad "--print" "exit $rc"

# ------------------------------------------------------------------ --stats
run run -q --stats "$T/stats.json" "$PTX" axpi --grid 4 --block 256 -- 'u32[1024]=zero' 'u32[1024]=iota' u32:1000 u32:3
if [ "$rc" -eq 0 ] && python3 - "$T/stats.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["kernel"] == "axpi", s
assert s["grid"] == [4, 1, 1] and s["block"] == [256, 1, 1], s
assert isinstance(s["warp_instructions"], int) and s["warp_instructions"] > 0, s
assert isinstance(s["thread_instructions"], int) and s["thread_instructions"] >= s["warp_instructions"], s
# 32 warps, every thread runs the same path up to the bound check: at most 32 thread instructions per warp instruction
assert s["thread_instructions"] <= 32 * s["warp_instructions"], s
assert isinstance(s["wall_seconds"], (int, float)) and s["wall_seconds"] >= 0, s
assert s["status"] == "MX_OK", s
assert s["ctas"] == 4 and s["warps"] == 32, s
PY
then ok "--stats JSON fields"; else bad "--stats JSON" "exit $rc" "$(cat "$T/stats.json" 2>/dev/null)"; fi

# ------------------------------------------------------------------ faults (exit 1)
run run "$PTX" oob --grid 2 --block 32 -- "u32[10]=zero>$T/oob.bin" u32:10
if [ "$rc" -eq 1 ]; then ok "fault: exit 1"; else bad "fault exit" "exit $rc"; fi
has "fault: kernel failed line" "$T/err" "morpheus: kernel oob failed"
has "fault: message" "$T/err" "========= Invalid __global__ write of size 4 bytes at 0x"
has "fault: PTX line" "$T/err" "at PTX line 68 (pc "
has "fault: thread and block" "$T/err" "by thread (3,0,0) in block (1,0,0), warp 0 lane 3"
has "fault: nearest allocation" "$T/err" "is 0 bytes after the nearest allocation at 0x"
[ ! -e "$T/oob.bin" ] && ok "fault: no write-back" || bad "fault wrote the buffer back"
[ ! -s "$T/out" ] && ok "fault: nothing on stdout" || bad "fault stdout" "$(cat "$T/out")"
run run --max-insns 10000 --stats "$T/wd.json" "$PTX" spin --grid 1 --block 32
[ "$rc" -eq 1 ] && ok "watchdog: exit 1" || bad "watchdog exit" "exit $rc"
has "watchdog: message" "$T/err" "watchdog: kernel exceeded 10000 warp instructions"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); assert s["status"]=="MX_EWATCHDOG", s' "$T/wd.json" &&
    ok "watchdog: status in --stats" || bad "watchdog --stats"

# ------------------------------------------------------------------ local memory per thread (limit 512 KiB)
EPTX=$(cd "$HERE/../emu/ptx" && pwd)
expect "4 GiB + 64 B of local memory: refused, not wrapped" 1 \
    "morpheus run: cannot load $EPTX/local_4g.ptx: kernel 'k' needs 4294967360 bytes of local memory per thread; the limit is 524288 (512 KiB)" -- \
    run "$EPTX/local_4g.ptx" k --grid 1 --block 1 -- 'u32[1]=zero'
expect "512 KiB + 1 B of local memory: refused" 1 \
    "morpheus run: cannot load $EPTX/local_over.ptx: kernel 'over' needs 524289 bytes of local memory per thread; the limit is 524288 (512 KiB)" -- \
    run "$EPTX/local_over.ptx" over --grid 1 --block 1 -- 'u32[1]=zero'
# 100 KiB per thread: every word written and read back; the sums against Python's
run run -q "$EPTX/local.ptx" rw100k --grid 2 --block 40 -- "u32[160]=zero>$T/local.bin" u32:77
if [ "$rc" -eq 0 ] && python3 - "$T/local.bin" <<'PY'
import struct, sys
got = struct.unpack("<160I", open(sys.argv[1], "rb").read())
n = 102400 // 4
for g in range(80):
    key = (g * 40503 + 77) & 0xffffffff
    s = sum((((i * 0x9E3779B1) & 0xffffffff) ^ key) * ((i & 7) + 1) for i in range(n)) & 0xffffffff
    assert got[2 * g] == s and got[2 * g + 1] == 0, (g, got[2 * g], s, got[2 * g + 1])
PY
then ok "100 KiB of local memory per thread: results"; else bad "100 KiB of local memory" "exit $rc" "$(cat "$T/err")"; fi

# ------------------------------------------------------------------ the park ISA extension
# Off: each park/wake line is an error at its file:line:column naming the
# switch (exit 1, as any module that does not load).
run run "$EPTX/park.ptx" mixed --grid 1 --block 64
[ "$rc" -eq 1 ] && ok "park without --isa-ext: exit 1" || bad "park without --isa-ext" "exit $rc"
has "park without --isa-ext: message" "$T/err" \
    "$EPTX/park.ptx:$(grep -n '// @HO_PARK' "$EPTX/park.ptx" | cut -d: -f1):3: error: 'park' belongs to ISA extension 'park', which is not enabled (use --isa-ext park)"
# On: a token passed round 4 SMs by wake.grid while other warps take tickets:
# the same buffers and statistics (bar wall-clock fields) for 1 and 3 host threads.
RING=("$EPTX/park.ptx" ring --grid 4 --block 64 --)
for th in 1 3; do
    run run -q --isa-ext park --sms 4 --quantum 97 --host-threads $th --stats "$T/ring$th.json" "${RING[@]}" \
        'u32[1]=zero' "u32[20]=zero>$T/order$th.bin" 'u32[1]=zero' "u32[20]=zero>$T/tix$th.bin" "u32[24]=zero>$T/noise$th.bin" u32:5 u32:6
    [ "$rc" -eq 0 ] || bad "park ring, $th host threads" "exit $rc" "$(cat "$T/err")"
done
python3 - "$T" <<'PY' && ok "park ring: token order, same results and stats for 1 and 3 host threads" || bad "park ring across host threads"
import json, struct, sys
t = sys.argv[1]
rd = lambda n: open(f"{t}/{n}", "rb").read()
assert struct.unpack("<20I", rd("order1.bin")) == tuple(range(20))
for n in ("order", "tix", "noise"):
    assert rd(f"{n}1.bin") == rd(f"{n}3.bin"), n
a, b = (json.load(open(f"{t}/ring{k}.json")) for k in (1, 3))
for s in (a, b):
    for k in [k for k in s if "second" in k]:
        del s[k]
assert a == b and a["status"] == "MX_OK", (a, b)
PY
# A parked warp nothing can wake: exit 1 and the report names it and its line.
run run --isa-ext park "$EPTX/park.ptx" mixed --grid 1 --block 64
[ "$rc" -eq 1 ] && ok "parked for ever: exit 1" || bad "parked for ever" "exit $rc"
has "parked for ever: message" "$T/err" \
    "deadlock: warp 1 of block (0,0,0) is parked at PTX line $(grep -n '// @MIX_PARK' "$EPTX/park.ptx" | cut -d: -f1) and nothing can wake it"

# ------------------------------------------------------------------ printf
run run -q "$PTX" hello --grid 1 --block 64
[ "$rc" -eq 0 ] && [ "$(cat "$T/out")" = "$(printf 'tid=0 ok\ntid=1 ok')" ] && ok "printf on stdout" || bad "printf" "exit $rc" "$(cat "$T/out")"

finish
