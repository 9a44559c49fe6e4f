#!/bin/sh
# tests/fuzz/run-fuzz.sh — the bounded fuzzing run of .ci/run: builds the
# fuzz targets with clang (libFuzzer + ASan + UBSan, build-fuzz.sh) into
# WORK/bin and runs each for SECONDS over its seed corpus (seeds.sh):
#   fuzz_ptx     the PTX front end (parse, disassemble, re-parse)
#   fuzz_kernel  front end + emulator: every kernel launched on a tiny grid
# Exits non-zero on any crash, leak, UB report, timeout or harness abort;
# each offending input is kept in WORK/TARGET/artifacts and the line to
# reproduce it is printed.  Long runs with a kept corpus: long-run.sh.
#
# usage: tests/fuzz/run-fuzz.sh [SECONDS] [extra libFuzzer flags...]
#   SECONDS   fuzzing time per target (default $MX_FUZZ_SECONDS, else 30)
#   TARGETS   targets to run (default "fuzz_ptx fuzz_kernel")
#   CLANG     compiler to use (default clang-19, then clang)
#   FUZZ_DIR  work directory to keep (default: a fresh mktemp -d)
#   JOBS      parallel fuzzing jobs per target (default 1)
#   SEED      libFuzzer's -seed (default 1: a CI run explores the same inputs
#             in the same order every time, so a finding reproduces; 0 = random)
set -eu

secs=${1:-${MX_FUZZ_SECONDS:-30}}
[ $# -gt 0 ] && shift
case $secs in ''|*[!0-9]*) echo "run-fuzz.sh: SECONDS must be a number, got '$secs'" >&2; exit 2 ;; esac

here=$(cd "$(dirname "$0")" && pwd)
targets=${TARGETS:-fuzz_ptx fuzz_kernel}
work=${FUZZ_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/mx-fuzz.XXXXXX")}
mkdir -p "$work"
# shellcheck disable=SC2086
sh "$here/build-fuzz.sh" "$work/bin" $targets

# Leaks are findings; UBSan stops at the first report; frames get file:line.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
    for s in llvm-symbolizer-19 llvm-symbolizer; do
        if command -v "$s" >/dev/null 2>&1; then ASAN_SYMBOLIZER_PATH=$(command -v "$s"); export ASAN_SYMBOLIZER_PATH; break; fi
    done
fi
jobs=${JOBS:-1}
par=""
seed=${SEED:-1}
case $seed in ''|*[!0-9]*) echo "run-fuzz.sh: SEED must be a number, got '$seed'" >&2; exit 2 ;; esac
[ "$jobs" -gt 1 ] && par="-jobs=$jobs -workers=$jobs"

failed=""
for t in $targets; do
    d=$work/$t
    mkdir -p "$d/corpus" "$d/seeds" "$d/artifacts"
    sh "$here/seeds.sh" "$t" "$d/seeds"
    case $t in
    fuzz_kernel) lim="-max_len=131072 -timeout=10" ;;
    *) lim="-max_len=65536 -timeout=5" ;;
    esac
    echo "run-fuzz.sh: fuzzing $t for ${secs}s"
    status=0
    # Run inside the target's directory: with -jobs libFuzzer writes fuzz-N.log to the cwd.
    # shellcheck disable=SC2086
    (cd "$d" && "$work/bin/$t" -max_total_time="$secs" $lim -rss_limit_mb=2048 -print_final_stats=1 -seed="$seed" \
        -dict="$work/bin/ptx.dict" $par -artifact_prefix="$d/artifacts/" "$@" corpus seeds) || status=$?
    found=$(ls "$d/artifacts" | wc -l)
    if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
        echo "run-fuzz.sh: $t FAILED (status $status); findings in $d/artifacts:" >&2
        ls -l "$d/artifacts" >&2
        for a in "$d"/artifacts/*; do
            [ -f "$a" ] && echo "run-fuzz.sh: reproduce with: $work/bin/$t $a" >&2
        done
        failed="$failed $t"
    else
        echo "run-fuzz.sh: $t: no findings; corpus in $d/corpus"
    fi
done
if [ -n "$failed" ]; then
    echo "run-fuzz.sh: FAILED:$failed (work directory $work)" >&2
    exit 1
fi
echo "run-fuzz.sh: no findings ($targets)"
