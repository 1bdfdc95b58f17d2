// Harris's reductions where nvcc's code differs from the source (docs/FIDELITY.md, "What nvcc made
// of a line"): reduce4 without volatile (sums kept in registers across the unrolled last warp),
// the same with volatile (every access made), reduce6 without volatile (the grid-stride loop's
// sum in a register), and a tiled matrix product whose row reads become LDS.128. Kernel files whose
// Nsight Compute counters `stats --as-compiled` must give (tools/fidelity_ncu.sh,
// tools/fidelity_compare.py --as-compiled). tests/test_reductions.cpp runs reduce4_plain and
// reduce4_volatile through the simulator beside the other textbook reductions (tests/reductions.cuh).

constexpr unsigned kBlock = 128;

__global__ void reduce4_plain(Global<const float> in, Global<float> out, unsigned n) {
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
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__device__ void warp_reduce_volatile(Shared<volatile float*> sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__global__ void reduce4_volatile(Global<const float> in, Global<float> out, unsigned n) {
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
  if (tid < 32) warp_reduce_volatile(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void reduce6_plain(Global<const float> in, Global<float> out, unsigned n) {
  __shared__ Shared<float[kBlock]> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (kBlock * 2) + threadIdx.x;
  unsigned gridSize = kBlock * 2 * gridDim.x;
  sdata[tid] = 0;
  while (i < n) {
    sdata[tid] += in[i] + in[i + kBlock];
    i += gridSize;
  }
  __syncthreads();
  if (tid < 64) sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

constexpr int kTile = 16;

__global__ void matmul_tiled4(Global<const float> a, Global<const float> b, Global<float> c, int n) {
  __shared__ Shared<float[kTile][kTile]> as;
  __shared__ Shared<float[kTile][kTile]> bs;
  int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < n / kTile; ++t) {
    as[threadIdx.y][threadIdx.x] = a[row * n + t * kTile + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(t * kTile + threadIdx.y) * n + col];
    __syncthreads();
    for (int e = 0; e < kTile; ++e) sum += as[threadIdx.y][e] * bs[e][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

// 80 blocks of 2 x 128 elements; n is not a multiple of the 256 a block takes, so the last
// block's guarded loads are partial.
WS_KERNEL(reduce4_plain, .title = "reduce4 without volatile", .teaching_n = 20400, .timing_n = 20400) {
  auto in = k.Input<const float>("in", k.n);
  auto out = k.Output<float>("out", (k.n + 255) / 256);
  k.Launch(dim3((k.n + 255) / 256), dim3(kBlock), reduce4_plain, in, out, unsigned(k.n));
}

WS_KERNEL(reduce4_volatile, .title = "reduce4 with volatile", .teaching_n = 20400, .timing_n = 20400) {
  auto in = k.Input<const float>("in", k.n);
  auto out = k.Output<float>("out", (k.n + 255) / 256);
  k.Launch(dim3((k.n + 255) / 256), dim3(kBlock), reduce4_volatile, in, out, unsigned(k.n));
}

// 16 blocks over 65536 elements: 16 iterations of the grid-stride loop per thread.
WS_KERNEL(reduce6_plain, .title = "reduce6 without volatile", .teaching_n = 65536, .timing_n = 65536) {
  auto in = k.Input<const float>("in", k.n);
  auto out = k.Output<float>("out", 16);
  k.Launch(dim3(16), dim3(kBlock), reduce6_plain, in, out, unsigned(k.n));
}

WS_KERNEL(matmul_tiled4, .title = "tiled matrix product, 16 x 16 tiles", .teaching_n = 128, .timing_n = 128) {
  auto a = k.Input<const float>("a", int64_t(k.n) * k.n, 0, 0, k.n, k.n);
  auto b = k.Input<const float>("b", int64_t(k.n) * k.n, 0, 0, k.n, k.n);
  auto c = k.Output<float>("c", int64_t(k.n) * k.n, k.n, k.n);
  k.Launch(dim3(k.n / kTile, k.n / kTile), dim3(kTile, kTile), matmul_tiled4, a, b, c, k.n);
}
