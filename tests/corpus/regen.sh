#!/usr/bin/env bash
# tests/corpus/regen.sh — regenerate every PTX file of the test corpus in
# tests/corpus/ptx/ from the sources beside it (cuda/*.cu, opencl/*.cl,
# c/*.c), with the real compilers:
#
#   NAME.nvcc.ptx            nvcc -arch=compute_80 -ptx -O3
#   NAME.nvcc-lineinfo.ptx   the same with -lineinfo   (.file/.loc)
#   NAME.nvcc-G.ptx          the same with -G          (.file/.loc/.section debug)
#   NAME.nvcc90.ptx          nvcc -arch=compute_90 -ptx -O3
#   NAME.nvcc-fastmath.ptx   the same as .nvcc with --use_fast_math (.ftz, approx)
#   NAME.clang.ptx           clang-19 CUDA, -O2, with workloads/include/mx_cuda_clang.h
#   NAME.cl.ptx              clang-19 OpenCL C 2.0 for nvptx64-nvidia-nvcl, libclc linked
#   NAME.c.ptx               clang-19 C for nvptx64-nvidia-cuda
#
# Usage: tests/corpus/regen.sh   (from anywhere; no arguments)
# Environment: NVCC (default /usr/local/cuda/bin/nvcc), CLANG (clang-19),
#   LIBCLC (/usr/lib/clc/nvptx64--nvidiacl.bc, Debian package libclc-19),
#   MX_CORPUS_STAGE (/tmp/morpheus-corpus), MX_ANY_VERSION=1 to accept
#   compiler versions other than nvcc 13.0 / clang 19.
#
# Determinism: the output depends only on the sources and the compiler
# versions.  nvcc puts the absolute source path into .file directives and
# debug sections, and hashes it into the names of internal-linkage
# functions (_ZN37_INTERNAL_<hash>_...), so every compiler runs in a fixed
# staging directory ($MX_CORPUS_STAGE) on relative paths, never in the
# checkout: the PTX is then the same wherever the repository lives.  The
# CUDA include directory (/usr/local/cuda/...) also appears in the -G and
# -lineinfo files.  Nothing is stripped or edited after compilation.
# Neither compiler embeds dates; nvcc embeds its build id and version in
# the header comment.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CLANG=${CLANG:-clang-19}
LIBCLC=${LIBCLC:-/usr/lib/clc/nvptx64--nvidiacl.bc}
STAGE=${MX_CORPUS_STAGE:-/tmp/morpheus-corpus}
HEADER=$root/workloads/include/mx_cuda_clang.h

die() {
    echo "regen.sh: error: $*" >&2
    exit 1
}

# ---- the compilers must all be there, in the versions the corpus was made with
command -v "$NVCC" >/dev/null 2>&1 || die "nvcc not found at '$NVCC' (set NVCC=/path/to/nvcc)"
command -v "$CLANG" >/dev/null 2>&1 || die "clang not found as '$CLANG' (Debian: apt-get install clang-19; or set CLANG=)"
[ -f "$LIBCLC" ] || die "libclc bitcode not found at '$LIBCLC' (Debian: apt-get install libclc-19; or set LIBCLC=)"
[ -f "$HEADER" ] || die "missing $HEADER"
nvcc_ver=$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
clang_ver=$("$CLANG" --version | sed -n '1s/.*clang version \([0-9.]*\).*/\1/p')
if [ "${MX_ANY_VERSION:-0}" != 1 ]; then
    [ "$nvcc_ver" = 13.0 ] || die "nvcc $nvcc_ver found, the corpus is made with nvcc 13.0 (MX_ANY_VERSION=1 to go on)"
    case $clang_ver in 19.*) ;; *) die "clang $clang_ver found, the corpus is made with clang 19 (MX_ANY_VERSION=1 to go on)" ;; esac
fi
CUDA_HOME=$(cd "$(dirname "$(command -v "$NVCC")")/.." && pwd)
echo "regen.sh: nvcc $nvcc_ver ($NVCC), clang $clang_ver ($CLANG), libclc $LIBCLC"

# ---- which compiler builds what -------------------------------------------
# Every .cu goes through nvcc.  Extra nvcc flags per file:
#   printf_assert.cu  -rdc=true: its dynamic-parallelism kernels launch
#                     kernels from device code, which needs relocatable
#                     device code.
nvcc_extra() {
    case $1 in
    printf_assert) echo -rdc=true ;;
    *) echo ;;
    esac
}
# Extra nvcc variants (each also gets the file's nvcc_extra flags):
LINEINFO_FILES="control matmul reduce_scan" # -lineinfo: .file/.loc without debug sections
DEBUG_FILES="vecadd histogram control"      # -G: full debug info (.section .debug_*)
NVCC90_FILES="async"                         # compute_90: cluster, elect, try_wait, griddepcontrol
FASTMATH_FILES="arith_float"                 # --use_fast_math: .ftz and approximate forms
# Every .cu also goes through clang-19, except:
#   texture.cu  tex1Dfetch/tex2D/surf2Dwrite etc. are templates from the
#               CUDA headers, which -nocudainc leaves out; and without
#               -nocudainc clang 19's __clang_cuda_runtime_wrapper.h stops at
#               "texture_fetch_functions.h file not found" (CUDA 13 no
#               longer ships that header).
# Kernels that only nvcc can build inside otherwise shared files are
# guarded with #ifdef __NVCC__ (libcu++ atomic_ref, cooperative_groups,
# wmma, 16-bit CAS, the __v*4 SIMD intrinsics, dynamic parallelism);
# MANIFEST.md marks them "nvcc only".
CLANG_SKIP="texture"

# ---- staging ----------------------------------------------------------------
exec 9>"$STAGE.lock"
flock 9 2>/dev/null || true # one regen at a time per staging directory
rm -rf "$STAGE"
mkdir -p "$STAGE/cuda" "$STAGE/opencl" "$STAGE/c" "$STAGE/include" "$STAGE/out"
cp "$here"/cuda/*.cu "$STAGE/cuda/"
cp "$here"/opencl/*.cl "$STAGE/opencl/"
cp "$here"/c/*.c "$STAGE/c/"
cp "$HEADER" "$STAGE/include/"

count_insns() {
    # Instruction statements in a PTX file: split the text into ';'-ended
    # statements (directive and label lines, which may lack ';', are
    # closed first), drop leading labels/braces and a @p guard, and count
    # what starts with an opcode.  Handles several statements per line
    # (inline asm) and calls spread over several lines.
    awk '
    {
        sub(/\/\/.*/, "")
        line = $0
        if (line ~ /^[ \t]*(\.|[{}]|[$A-Za-z_][$A-Za-z0-9_]*:)/ && line !~ /;[ \t]*$/)
            line = line ";"
        buf = buf " " line
    }
    END {
        n = split(buf, st, ";")
        c = 0
        for (i = 1; i <= n; i++) {
            s = st[i]
            sub(/^[ \t]+/, "", s)
            while (match(s, /^(\{|\}|[$A-Za-z_][$A-Za-z0-9_]*:)[ \t]*/))
                s = substr(s, RLENGTH + 1)
            sub(/^@!?%?[$A-Za-z0-9_]+[ \t]+/, "", s)
            if (s ~ /^[a-z][a-z0-9]*(\.[A-Za-z0-9_:]+)*([ \t(]|$)/)
                c++
        }
        print c
    }' "$1"
}

generated=0
gen() { # gen OUTNAME compiler-args...
    local outname=$1
    shift
    (cd "$STAGE" && "$@") || die "failed to generate $outname: $*"
    [ -s "$STAGE/out/$outname" ] || die "$outname is empty"
    printf '  %-34s %6d lines %6d instructions\n' "$outname" "$(wc -l <"$STAGE/out/$outname")" \
        "$(count_insns "$STAGE/out/$outname")"
    generated=$((generated + 1))
}

in_list() { # in_list WORD LIST
    case " $2 " in *" $1 "*) return 0 ;; esac
    return 1
}

NV=("$NVCC" -ptx -O3)
CL=("$CLANG" -x cuda --cuda-device-only -nocudainc --cuda-path="$CUDA_HOME" --cuda-gpu-arch=sm_80 -O2 -S
    -Wno-unknown-cuda-version -include include/mx_cuda_clang.h)
OCL=("$CLANG" -target nvptx64-nvidia-nvcl -march=sm_80 -x cl -cl-std=CL2.0 -O2 -S
     -Xclang -mlink-builtin-bitcode -Xclang "$LIBCLC" -Wno-linker-warnings)
CC=("$CLANG" -target nvptx64-nvidia-cuda -march=sm_80 -O2 -S)

echo "CUDA (nvcc):"
for src in "$STAGE"/cuda/*.cu; do
    n=$(basename "$src" .cu)
    read -r -a extra <<<"$(nvcc_extra "$n")"
    gen "$n.nvcc.ptx" "${NV[@]}" -arch=compute_80 ${extra[@]+"${extra[@]}"} "cuda/$n.cu" -o "out/$n.nvcc.ptx"
    if in_list "$n" "$LINEINFO_FILES"; then
        gen "$n.nvcc-lineinfo.ptx" "${NV[@]}" -arch=compute_80 -lineinfo ${extra[@]+"${extra[@]}"} \
            "cuda/$n.cu" -o "out/$n.nvcc-lineinfo.ptx"
    fi
    if in_list "$n" "$DEBUG_FILES"; then
        gen "$n.nvcc-G.ptx" "${NV[@]}" -arch=compute_80 -G ${extra[@]+"${extra[@]}"} "cuda/$n.cu" \
            -o "out/$n.nvcc-G.ptx"
    fi
    if in_list "$n" "$NVCC90_FILES"; then
        gen "$n.nvcc90.ptx" "${NV[@]}" -arch=compute_90 ${extra[@]+"${extra[@]}"} "cuda/$n.cu" -o "out/$n.nvcc90.ptx"
    fi
    if in_list "$n" "$FASTMATH_FILES"; then
        gen "$n.nvcc-fastmath.ptx" "${NV[@]}" -arch=compute_80 --use_fast_math ${extra[@]+"${extra[@]}"} \
            "cuda/$n.cu" -o "out/$n.nvcc-fastmath.ptx"
    fi
done

echo "CUDA (clang $clang_ver with mx_cuda_clang.h):"
for src in "$STAGE"/cuda/*.cu; do
    n=$(basename "$src" .cu)
    if in_list "$n" "$CLANG_SKIP"; then
        echo "  (skipped $n.cu: see CLANG_SKIP in regen.sh)"
        continue
    fi
    gen "$n.clang.ptx" "${CL[@]}" "cuda/$n.cu" -o "out/$n.clang.ptx"
done

echo "OpenCL C (clang $clang_ver, libclc):"
for src in "$STAGE"/opencl/*.cl; do
    n=$(basename "$src" .cl)
    gen "$n.cl.ptx" "${OCL[@]}" "opencl/$n.cl" -o "out/$n.cl.ptx"
done

echo "C (clang $clang_ver, NVVM builtins):"
for src in "$STAGE"/c/*.c; do
    n=$(basename "$src" .c)
    gen "$n.c.ptx" "${CC[@]}" "c/$n.c" -o "out/$n.c.ptx"
done

# ---- every file must assemble ---------------------------------------------
# ptxas from the same CUDA installation checks that the PTX is valid for
# its target: sm_90a for the compute_90 files, and -c (relocatable, no
# unresolved-extern check) for files compiled with -rdc=true.
PTXAS=$CUDA_HOME/bin/ptxas
[ -x "$PTXAS" ] || die "ptxas not found at $PTXAS"
echo "checking with ptxas:"
for f in "$STAGE"/out/*.ptx; do
    b=$(basename "$f")
    arch=sm_80
    reloc=()
    case $b in *.nvcc90.ptx) arch=sm_90a ;; esac
    n=${b%%.*}
    if [ -n "$(nvcc_extra "$n")" ] && [[ $b == *.nvcc*.ptx ]]; then reloc=(-c); fi
    # (warnings such as "stack size cannot be statically determined" for
    # recursion are expected and not shown)
    if ! msg=$("$PTXAS" -arch=$arch ${reloc[@]+"${reloc[@]}"} "$f" -o "$STAGE/check.cubin" 2>&1); then
        echo "$msg" >&2
        die "ptxas rejects $b"
    fi
done
echo "  all $generated files assemble"

# ---- replace the old corpus with the new one --------------------------------
mkdir -p "$here/ptx"
rm -f "$here"/ptx/*.ptx
cp "$STAGE"/out/*.ptx "$here/ptx/"
total_lines=$(cat "$here"/ptx/*.ptx | wc -l)
total_insns=0
for f in "$here"/ptx/*.ptx; do
    total_insns=$((total_insns + $(count_insns "$f")))
done
total_bytes=$(cat "$here"/ptx/*.ptx | wc -c)
echo "regen.sh: generated $generated PTX files in tests/corpus/ptx/:" \
    "$total_lines lines, $total_insns instructions, $total_bytes bytes"
