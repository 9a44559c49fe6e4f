#!/usr/bin/env bash
# tests/cuda/regen.sh — regenerate the PTX files committed in this folder
# from the sources beside them:
#
#   driver_kernel.ptx       nvcc -arch=compute_80 -ptx -O2 driver_kernel.cu
#   driver_texture_kernel.ptx  the same for driver_texture_kernel.cu (driver_texture.c)
#                           (loaded by driver_api.c through the driver API)
#   rdc_link.ptx,           nvcc -arch=compute_80 -rdc=true -ptx -O2 (the two units
#   rdc_link_lib.ptx        of rdc_link, linked by driver_link.c through cuLink*)
#   NAME.clang.ptx          clang-19 CUDA, device only, -O2, with
#                           workloads/include/mx_cuda_clang.h, for NAME in
#                           matmul_shared reduce_shfl (run with
#                           `morpheus exec --ptx NAME.clang.ptx -- NAME`)
#
# Usage: tests/cuda/regen.sh   (from anywhere; no arguments)
# Environment: NVCC (default /usr/local/cuda/bin/nvcc), CLANG (clang-19).
# The compilers run in this folder on relative paths, so no absolute path
# ends up in the PTX; nvcc's header comment names its own version.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CLANG=${CLANG:-clang-19}

command -v "$NVCC" >/dev/null 2>&1 || { echo "regen.sh: nvcc not found at '$NVCC' (set NVCC=)" >&2; exit 1; }
command -v "$CLANG" >/dev/null 2>&1 || { echo "regen.sh: clang not found as '$CLANG' (set CLANG=)" >&2; exit 1; }

cd "$here"
"$NVCC" -arch=compute_80 -ptx -O2 driver_kernel.cu -o driver_kernel.ptx
echo "regen.sh: driver_kernel.ptx"
"$NVCC" -arch=compute_80 -ptx -O2 driver_texture_kernel.cu -o driver_texture_kernel.ptx
echo "regen.sh: driver_texture_kernel.ptx"
for name in rdc_link rdc_link_lib; do
    "$NVCC" -arch=compute_80 -rdc=true -ptx -O2 $name.cu -o $name.ptx
    echo "regen.sh: $name.ptx"
done
for name in matmul_shared reduce_shfl; do
    "$CLANG" -x cuda --cuda-device-only -nocudainc --cuda-gpu-arch=sm_80 -O2 -S -Wno-unknown-cuda-version \
        -include ../../workloads/include/mx_cuda_clang.h "$name.cu" -o "$name.clang.ptx"
    echo "regen.sh: $name.clang.ptx"
done
