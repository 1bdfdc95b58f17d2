// The kernel dialect: the few ways a warpscope kernel differs from plain CUDA C++.
// The same .cuh file is compiled by nvcc for the GPU (kernels/dialect_cuda.h) and by the host
// compiler for the simulator (sim/dialect.h), which records every memory access.
//
//   plain CUDA                            warpscope kernel
//   const float* d                        Global<const float> d      (a pointer to global memory)
//   __shared__ float tile[32][33];        __shared__ Shared<float[32][33]> tile;
//   reinterpret_cast<const float4*>(p)    global_cast<const float4>(p)
//   volatile float* g                     Global<volatile float> g   (a volatile pointer)
//   volatile float* vs = sdata;           Shared<volatile float*> vs = sdata;  (into shared)
//   extern __shared__ int temp[];         extern __shared__ Shared<int[]> temp;  (dynamic)
//
// Everything else is CUDA as usual: threadIdx, blockIdx, blockDim, gridDim, __syncthreads,
// __syncwarp, __shfl_*_sync, __all/__any/__ballot_sync, __activemask, the atomics on global and
// shared memory, __ldg, __popc/__ffs/__clz, float4 and make_float4, min/max/fminf/fabsf,
// __float_as_int, HUGE_VALF (README, "The dialect", lists them). Source lines need no
// annotation: the simulator learns the line of each access from the subscript itself.
// A kernel file that #defines a macro #undefs it at its end: every family is compiled in one
// translation unit (tests/test_dialect.cpp checks this).
//
// Kernel files have no includes and no namespace: a family's launch file includes them
// inside a namespace of its own, once per back end.
#pragma once
#ifdef __CUDACC__
#include "kernels/dialect_cuda.h"
#else
#include "sim/dialect.h"
#endif
