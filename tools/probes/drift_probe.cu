// The kernels of tests/fidelity/drift.cu in plain CUDA, for Nsight Compute on a machine without
// this program's build: every warp of every block reads the same n = 16,384 floats in turn, 32 at
// a time, with 1, 8 and 64 warps on each SM (132 blocks of 32 threads, 264 of 128, 1,056 of 256).
// Each kernel is launched once; tools/fidelity_ncu.sh's metric list over this binary, one kernel
// at a time (--kernel-name), gives the rows tools/fidelity_compare.py reads for drift.cu.
//
// Built: nvcc -O2 -arch=sm_90 -std=c++17 -o drift_probe tools/probes/drift_probe.cu
// usage: drift_probe
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "check.cuh"

__device__ float SumInTurn(const float* x, int n) {
  float s = 0;
  for (int i = threadIdx.x % 32; i < n; i += 32) s += x[i];
  return s;
}

__global__ void same_stream_1(const float* x, float* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = SumInTurn(x, n);
}
__global__ void same_stream_8(const float* x, float* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = SumInTurn(x, n);
}
__global__ void same_stream_64(const float* x, float* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = SumInTurn(x, n);
}

int main() {
  const int n = 16384;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = float((i * 2654435761u) % 1000) / 1000.0f + 0.5f;
  float *x, *out;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&out, 1056 * 256 * sizeof(float)));
  CHECK(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  same_stream_1<<<132, 32>>>(x, out, n);
  same_stream_8<<<264, 128>>>(x, out, n);
  same_stream_64<<<1056, 256>>>(x, out, n);
  CHECK(cudaDeviceSynchronize());
  float first = 0;
  CHECK(cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost));
  double want = 0;
  for (int i = 0; i < n; i += 32) want += host[i];
  std::printf("out[0] %.3f (the sum of every 32nd float: %.3f)\n", first, want);
  return 0;
}
