#!/bin/sh
# tests/fuzz/seeds.sh — writes the seed corpus of a fuzz target to OUTDIR.
#   fuzz_ptx     tests/frontend/*.ptx and tests/corpus/ptx/*.ptx
#   fuzz_kernel  tests/corpus/ptx/*.ptx, tests/emu/ptx/*.ptx and
#                workloads/*/*.ptx, one file per kernel (split-entries.py)
# usage: tests/fuzz/seeds.sh TARGET OUTDIR
set -eu
[ $# -eq 2 ] || { echo "usage: seeds.sh TARGET OUTDIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$2"
case $1 in
fuzz_ptx)
    n=0
    for f in "$root"/tests/frontend/*.ptx "$root"/tests/corpus/ptx/*.ptx; do
        [ -f "$f" ] || continue
        cp "$f" "$2/$(basename "$(dirname "$f")")_$(basename "$f")"
        n=$((n + 1))
    done
    echo "seeds.sh: $n seed files for fuzz_ptx" ;;
fuzz_kernel)
    # shellcheck disable=SC2046
    if command -v python3 >/dev/null 2>&1; then
        python3 "$root/tests/fuzz/split-entries.py" "$2" "$root"/tests/corpus/ptx/*.ptx "$root"/tests/emu/ptx/*.ptx \
            "$root"/workloads/*/*.ptx
    else
        # unsplit: the target then launches only the first kernels of a file
        for f in "$root"/tests/corpus/ptx/*.ptx "$root"/tests/emu/ptx/*.ptx "$root"/workloads/*/*.ptx; do
            cp "$f" "$2/$(basename "$(dirname "$f")")_$(basename "$f")"
        done
        echo "seeds.sh: no python3: seeds not split per kernel"
    fi ;;
*) echo "seeds.sh: unknown target '$1'" >&2; exit 2 ;;
esac
