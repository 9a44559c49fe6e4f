#!/usr/bin/env bash
# Regenerates the committed PTX of the benchmark kernels (needs nvcc 13).
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
"$NVCC" -arch=compute_80 -ptx -O3 bench.cu -o bench.nvcc.ptx
echo "wrote $(pwd)/bench.nvcc.ptx"
