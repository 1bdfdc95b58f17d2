// The kernel dialect for nvcc: every wrapper is the plain CUDA thing it stands for.
#pragma once
#include <cuda_runtime.h>
#include <cmath>

namespace ws::dialect {
template <class T> using Global = T*;
template <class Arr> using Shared = Arr;  // also Shared<volatile float*>: volatile float*
template <class U, class V> __host__ __device__ inline U* global_cast(V* p) { return reinterpret_cast<U*>(p); }
using ::float4; using ::float2; using ::float3; using ::int4; using ::int2; using ::uint2; using ::uint4;
using ::double2; using ::dim3;
}  // namespace ws::dialect
