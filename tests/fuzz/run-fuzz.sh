#!/bin/sh
# tests/fuzz/run-fuzz.sh — builds the PTX front-end fuzz target with clang
# (libFuzzer + ASan + UBSan) into a temporary directory and runs it for a
# bounded time over a seed corpus made of tests/frontend/*.ptx and, when
# present, tests/corpus/ptx/*.ptx.  Exits non-zero on any crash, leak, UB
# report, timeout or round-trip mismatch; the offending input is kept.
#
# usage: tests/fuzz/run-fuzz.sh [SECONDS] [extra libFuzzer flags...]
#   SECONDS   total fuzzing time (default 30)
#   CLANG     compiler to use (default clang-19, then clang)
#   FUZZ_DIR  work directory to keep (default: a fresh mktemp -d)
#   JOBS      parallel fuzzing jobs (default 1)
set -eu

secs=${1:-30}
[ $# -gt 0 ] && shift
case $secs in ''|*[!0-9]*) echo "run-fuzz.sh: SECONDS must be a number, got '$secs'" >&2; exit 2 ;; esac

root=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CLANG:-}
if [ -z "$cc" ]; then
    for c in clang-19 clang; do
        if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi
    done
fi
[ -n "$cc" ] || { echo "run-fuzz.sh: no clang found (set CLANG)" >&2; exit 2; }

work=${FUZZ_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/mx-fuzz.XXXXXX")}
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
echo "run-fuzz.sh: building with $cc in $work"

san="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
# shellcheck disable=SC2086
"$cc" -g -O1 $san -fno-omit-frame-pointer -std=gnu11 \
    -I"$root" -I"$root/include" -DSOURCE_ROOT="\"$root\"" \
    "$root"/frontend/diag.c "$root"/frontend/lexer.c "$root"/frontend/parser.c "$root"/frontend/cfg.c \
    "$root"/isa/isa.c "$root"/isa/program.c "$root"/isa/disasm.c "$root"/isa/opdtype.c \
    "$root"/tests/fuzz/fuzz_ptx.c -lpthread -lm -o "$work/fuzz_ptx"

n=0
for f in "$root"/tests/frontend/*.ptx "$root"/tests/corpus/ptx/*.ptx; do
    [ -f "$f" ] || continue
    cp "$f" "$work/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"
    n=$((n + 1))
done
echo "run-fuzz.sh: $n seed files; fuzzing for ${secs}s"

# ASAN_OPTIONS: leaks are findings; UBSan stops at the first report.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
jobs=${JOBS:-1}
par=""
[ "$jobs" -gt 1 ] && par="-jobs=$jobs -workers=$jobs"
status=0
# Run inside the work directory: with -jobs libFuzzer writes fuzz-N.log to the cwd.
# shellcheck disable=SC2086
(cd "$work" && ./fuzz_ptx -max_total_time="$secs" -max_len=65536 -timeout=5 -rss_limit_mb=2048 \
    -print_final_stats=1 -dict="$root/tests/fuzz/ptx.dict" $par -artifact_prefix="$work/artifacts/" "$@" \
    corpus seeds) || status=$?

found=$(ls "$work/artifacts" 2>/dev/null | wc -l)
if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
    echo "run-fuzz.sh: FAILED (status $status); findings in $work/artifacts:" >&2
    ls -l "$work/artifacts" >&2
    exit 1
fi
echo "run-fuzz.sh: no findings; corpus in $work/corpus"
