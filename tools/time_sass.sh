#!/bin/bash
# Times the cold path of `warpscope sass` for one kernel file on 2 cores (taskset -c 0,1): nvcc's
# cubin with ptxas -v, then nvdisasm -gi, three times, and nvcc's phases (docs/PERFORMANCE.md).
# Usage: tools/time_sass.sh KERNEL.cu INCLUDE_DIR NVDISASM OUTDIR  (KERNEL.cu and INCLUDE_DIR: a
# cache entry kernel-*.cu and the include-* folder warpscope wrote for it under $WARPSCOPE_CACHE)
set -u
src=$1 inc=$2 nvdisasm=$3 out=$4
nvcc=${WARPSCOPE_NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$out"
nproc; uptime; "$nvcc" --version | tail -1
flags=(-std=c++20 -O2 --expt-relaxed-constexpr "-I$inc" -arch=sm_90 -cubin -lineinfo -Xptxas -v)
for i in 1 2 3; do
  /usr/bin/time -f "nvcc cubin: %e s wall, %U s user, %S s sys" taskset -c 0,1 "$nvcc" "${flags[@]}" -x cu "$src" \
    -o "$out/t.cubin" >"$out/ptxas.log" 2>&1
  tail -1 "$out/ptxas.log"
  /usr/bin/time -f "nvdisasm: %e s wall, %U s user" taskset -c 0,1 "$nvdisasm" -c -gi "$out/t.cubin" >"$out/t.sass"
done
taskset -c 0,1 "$nvcc" "${flags[@]}" -x cu "$src" -o "$out/t2.cubin" -time "$out/phases.csv" >/dev/null 2>&1
cut -d, -f2,7,8 "$out/phases.csv"
uptime
