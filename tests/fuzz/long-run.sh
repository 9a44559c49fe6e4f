#!/bin/sh
# tests/fuzz/long-run.sh — a long fuzzing session whose corpus is kept
# between runs, so each run starts where the last one stopped.  Builds the
# target (build-fuzz.sh) and runs it in libFuzzer's fork mode: it goes on
# after a crash, timeout or out-of-memory, keeping every finding.
#
# usage: tests/fuzz/long-run.sh TARGET SECONDS [CORPUS_DIR] [-- extra libFuzzer flags...]
#   TARGET      fuzz_ptx or fuzz_kernel
#   SECONDS     total fuzzing time
#   CORPUS_DIR  the kept corpus (default ~/.cache/morpheus-fuzz/TARGET);
#               findings go to CORPUS_DIR-artifacts, the build to
#               ~/.cache/morpheus-fuzz/build, the log to CORPUS_DIR.log
#   JOBS        parallel fuzzing processes (default 1; -fork=JOBS)
#   CLANG       compiler (default clang-19, then clang)
set -eu

[ $# -ge 2 ] || { sed -n '7,15s/^# \{0,1\}//p' "$0" >&2; exit 2; }
target=$1
secs=$2
shift 2
case $target in fuzz_ptx|fuzz_kernel) ;; *) echo "long-run.sh: unknown target '$target' (fuzz_ptx, fuzz_kernel)" >&2; exit 2 ;; esac
case $secs in ''|*[!0-9]*) echo "long-run.sh: SECONDS must be a number, got '$secs'" >&2; exit 2 ;; esac
cache=${XDG_CACHE_HOME:-$HOME/.cache}/morpheus-fuzz
corpus=$cache/$target
if [ $# -gt 0 ] && [ "$1" != -- ]; then
    corpus=$1
    shift
fi
[ "${1:-}" = -- ] && shift
art=$corpus-artifacts
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$corpus" "$art" "$cache/build"
corpus=$(cd "$corpus" && pwd)
art=$(cd "$art" && pwd)

sh "$here/build-fuzz.sh" "$cache/build" "$target"
seeds=$cache/build/$target-seeds
rm -rf "$seeds"
sh "$here/seeds.sh" "$target" "$seeds"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
    for s in llvm-symbolizer-19 llvm-symbolizer; do
        if command -v "$s" >/dev/null 2>&1; then ASAN_SYMBOLIZER_PATH=$(command -v "$s"); export ASAN_SYMBOLIZER_PATH; break; fi
    done
fi
case $target in
fuzz_kernel) lim="-max_len=131072 -timeout=10" ;;
*) lim="-max_len=65536 -timeout=5" ;;
esac
before=$(ls "$corpus" | wc -l)
art_before=$(ls "$art" | wc -l)
echo "long-run.sh: $target for ${secs}s, ${JOBS:-1} job(s); corpus $corpus ($before files), findings in $art"
# The first directory receives new inputs; the seeds are only read.  Fork
# mode writes its per-job logs to the cwd.
# shellcheck disable=SC2086
{
    st=0
    (cd "$cache/build" && "./$target" -fork="${JOBS:-1}" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$secs" $lim -rss_limit_mb=2048 -print_final_stats=1 -dict="$cache/build/ptx.dict" \
        -artifact_prefix="$art/" "$@" "$corpus" "$seeds") 2>&1 || st=$?
    echo "$st" >"$corpus.status"
} | tee "$corpus.log"
status=$(cat "$corpus.status")
rm -f "$corpus.status"
found=$(($(ls "$art" | wc -l) - art_before))
echo "long-run.sh: corpus $before -> $(ls "$corpus" | wc -l) files; $found new finding(s), $(ls "$art" | wc -l) in $art"
for a in $(ls -t "$art" | head -n "$found"); do
    echo "long-run.sh: reproduce with: $cache/build/$target $art/$a"
done
[ "$found" -eq 0 ] || exit 1
exit "$status"
