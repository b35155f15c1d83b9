#!/usr/bin/env bash
# Builds the CUB reference of `tessera bench gpu-sort` (bench/cuda/cub_sort_ref.cu) with nvcc into
# .device/cub_sort_ref, which scripts/gpu-run.sh carries to the GPU machine with the rest of .device, so that the
# reference runs there without a CUDA toolkit. ARCH picks the GPU (default sm_90, the H100 and H200).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
arch=${ARCH:-sm_90}
nvcc=$(command -v nvcc || true)
if [[ -z $nvcc ]]; then
  for c in /usr/local/cuda/bin/nvcc /usr/local/cuda-*/bin/nvcc; do
    [[ -x $c ]] && { nvcc=$c; break; }
  done
fi
[[ -n $nvcc ]] || { echo "build-cub-ref.sh: nvcc not found on the PATH or under /usr/local/cuda*/bin" >&2; exit 1; }
mkdir -p "$root/.device"
"$nvcc" -O3 -std=c++17 -arch="$arch" -o "$root/.device/cub_sort_ref" "$root/bench/cuda/cub_sort_ref.cu"
echo "wrote $root/.device/cub_sort_ref ($arch, $("$nvcc" --version | tail -1))"
