// The textbook parallel reductions (M. Harris, "Optimizing Parallel Reduction in CUDA":
// reduce0 .. reduce6) in the dialect, for blocks of kBlock threads; each block writes its
// partial sum to out[blockIdx.x], but reduce4 (tests/fidelity/reductions.cu has it, with and
// without volatile). Plus the unrolled last warp with __syncwarp (the Programming Guide's form
// since Volta). tests/test_reductions.cpp runs them.
// No includes: the including file provides the dialect (sim/dialect.h or, for nvcc,
// kernels/dialect_cuda.h). The guarded load of reduce0-2 has a line of its own: on one line
// with the store, the lanes that load and those that do not would reach the store with
// different ordinals within the line, and the simulator would issue it as two instructions.
constexpr unsigned kBlock = 128;

// reduce0: interleaved addressing, divergent branch (tid % (2s)).
__global__ void reduce0(Global<const float> in, Global<float> out, unsigned n) {
  __shared__ Shared<float[kBlock]> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = (i < n) ? float(in[i]) : 0.0f;
  sdata[tid] = x;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// reduce1: interleaved addressing with a strided index: no divergence, bank conflicts.
__global__ void reduce1(Global<const float> in, Global<float> out, unsigned n) {
  __shared__ Shared<float[kBlock]> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = (i < n) ? float(in[i]) : 0.0f;
  sdata[tid] = x;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// reduce2: sequential addressing, conflict-free.
__global__ void reduce2(Global<const float> in, Global<float> out, unsigned n) {
  __shared__ Shared<float[kBlock]> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = (i < n) ? float(in[i]) : 0.0f;
  sdata[tid] = x;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// reduce3: first add during the load (half the blocks).
__global__ void reduce3(Global<const float> in, Global<float> out, unsigned n) {
  __shared__ Shared<float[kBlock]> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  float sum = (i < n) ? float(in[i]) : 0.0f;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// reduce4, the last warp unrolled through a volatile pointer, and reduce4 without volatile are
// tests/fidelity/reductions.cu's reduce4_volatile and reduce4_plain (a kernel file, compiled from
// its own text alone, whose Nsight Compute counters were recorded): written once, there.

// reduce5: completely unrolled for a block size known at compile time.
template <unsigned blockSize>
__device__ void warpReduce5(Shared<volatile float*> sdata, unsigned tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned blockSize>
__global__ void reduce5(Global<const float> in, Global<float> out, unsigned n) {
  __shared__ Shared<float[blockSize]> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  float sum = (i < n) ? float(in[i]) : 0.0f;
  if (i + blockSize < n) sum += in[i + blockSize];
  sdata[tid] = sum;
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
  if (tid < 32) warpReduce5<blockSize>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// reduce6: multiple elements per thread (a grid-stride loop), then as reduce5.
template <unsigned blockSize>
__global__ void reduce6(Global<const float> in, Global<float> out, unsigned n) {
  __shared__ Shared<float[blockSize]> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  unsigned gridSize = blockSize * 2 * gridDim.x;
  float sum = 0.0f;
  while (i < n) {
    sum += in[i];
    if (i + blockSize < n) sum += in[i + blockSize];
    i += gridSize;
  }
  sdata[tid] = sum;
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
  if (tid < 32) warpReduce5<blockSize>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// reduce4 as the Programming Guide writes it for Volta and later: the value in a register,
// __syncwarp() between every read and write of shared memory.
__global__ void reduce4_syncwarp(Global<const float> in, Global<float> out, unsigned n) {
  __shared__ Shared<float[kBlock]> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  float sum = (i < n) ? float(in[i]) : 0.0f;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float v = sdata[tid];
    for (unsigned s = 32; s > 0; s >>= 1) {
      v += sdata[tid + s];
      __syncwarp();
      sdata[tid] = v;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
