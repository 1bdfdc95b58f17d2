// Atomics as the hardware counts them: kernel files (not lessons) whose counters the simulator
// must give as Nsight Compute measures them on the GPU (tools/fidelity_ncu.sh runs both).
// histo_global: scattered atomics on a loaded subscript; histo_shared: shared atomics, then one
// global atomic per bin; sum_same_address: 32 float atomics to one address per warp (never
// combined); count_same_address: integer atomics to one address, result unused (the compiler
// combines a warp's into one).

__global__ void histo_global(Global<const int> bytes, int n, Global<unsigned> histo) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (; i < n; i += stride) atomicAdd(&histo[bytes[i]], 1);
}

__global__ void histo_shared(Global<const int> bytes, int n, Global<unsigned> histo) {
  __shared__ Shared<unsigned[256]> bins;
  bins[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (; i < n; i += stride) atomicAdd(&bins[bytes[i]], 1);
  __syncthreads();
  atomicAdd(&histo[threadIdx.x], bins[threadIdx.x]);
}

__global__ void sum_same_address(Global<const float> x, int n, Global<float> total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&total[0], x[i]);
}

__global__ void count_same_address(Global<const float> x, int n, Global<int> count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 1.0f) atomicAdd(&count[0], 1);
}

// Bytes 0..255 (the Input fill is 1..255; the histogram of 256 bins takes them as they are).
WS_KERNEL(histo_global, .title = "256-bin histogram, global atomics", .teaching_n = 8192,
          .timing_n = 8192) {
  auto bytes = k.Input<const int>("bytes", k.n, 1, 255);
  auto histo = k.InputFrom<unsigned>("histo", std::vector<unsigned>(256, 0));
  k.Launch(dim3(8), dim3(256), histo_global, bytes, k.n, histo);
  std::vector<unsigned> want(256, 0);
  for (int v : k.Host(bytes)) ++want[v];
  k.Expect(histo, want);
}

WS_KERNEL(histo_shared, .title = "256-bin histogram, shared atomics", .teaching_n = 8192,
          .timing_n = 8192) {
  auto bytes = k.Input<const int>("bytes", k.n, 1, 255);
  auto histo = k.InputFrom<unsigned>("histo", std::vector<unsigned>(256, 0));
  k.Launch(dim3(8), dim3(256), histo_shared, bytes, k.n, histo);
  std::vector<unsigned> want(256, 0);
  for (int v : k.Host(bytes)) ++want[v];
  k.Expect(histo, want);
}

WS_KERNEL(sum_same_address, .title = "float atomicAdd, every lane to one address", .teaching_n = 4096,
          .timing_n = 4096) {
  auto x = k.Input<const float>("x", k.n);
  auto total = k.InputFrom<float>("total", {0.0f});
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), sum_same_address, x, k.n, total);
  double s = 0;
  for (float v : k.Host(x)) s += v;
  k.Expect(total, {float(s)}, 1e-3);
}

WS_KERNEL(count_same_address, .title = "int atomicAdd(&count, 1), every lane to one address",
          .teaching_n = 4096, .timing_n = 4096) {
  auto x = k.Input<const float>("x", k.n);
  auto count = k.InputFrom<int>("count", {0});
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), count_same_address, x, k.n, count);
  int c = 0;
  for (float v : k.Host(x)) c += v > 1.0f;
  k.Expect(count, {c});
}
