// Vector types as the hardware counts them: a float2 is one 8-byte access (LDG.64, LDS.64), a
// float4 one 16-byte access; kernel files whose counters the simulator must give as Nsight
// Compute measures them (tools/fidelity_ncu.sh).

__global__ void copy_float2(Global<const float2> x, Global<float2> y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}

__global__ void copy_float4(Global<const float4> x, Global<float4> y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}

// Shared float2 written by lane order, read at a stride of 2 float2s (16 bytes): lanes 0 and 16
// of a warp hit the same banks.
__global__ void shared_float2_stride(Global<const float2> x, Global<float2> y, int n) {
  __shared__ Shared<float2[512]> s;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = x[i];
  s[threadIdx.x + 256] = x[i];
  __syncthreads();
  float2 v = s[(threadIdx.x * 2) % 512];
  y[i] = v;
}

// Shared float4: each lane writes its own, then every lane of a quarter-warp reads one float4
// (a broadcast within each group of 8 lanes).
__global__ void shared_float4_broadcast(Global<const float4> x, Global<float4> y, int n) {
  __shared__ Shared<float4[256]> s;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = x[i];
  __syncthreads();
  float4 v = s[threadIdx.x / 8];
  y[i] = v;
}

// Distinct, exactly representable values: element i is (i, -i) or (i, -i, 2i, 0.5).
std::vector<float2> Pairs(int n) {
  std::vector<float2> v(n);
  for (int i = 0; i < n; ++i) v[i] = {float(i), float(-i)};
  return v;
}
std::vector<float4> Quads(int n) {
  std::vector<float4> v(n);
  for (int i = 0; i < n; ++i) v[i] = {float(i), float(-i), float(2 * i), 0.5f};
  return v;
}

WS_KERNEL(copy_float2, .title = "float2 copy", .teaching_n = 4096, .timing_n = 4096) {
  auto x = k.InputFrom<const float2>("x", Pairs(k.n));
  auto y = k.Output<float2>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), copy_float2, x, y, k.n);
}

WS_KERNEL(copy_float4, .title = "float4 copy", .teaching_n = 4096, .timing_n = 4096) {
  auto x = k.InputFrom<const float4>("x", Quads(k.n));
  auto y = k.Output<float4>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), copy_float4, x, y, k.n);
}

WS_KERNEL(shared_float2_stride, .title = "shared float2 read at a stride of 16 bytes",
          .teaching_n = 4096, .timing_n = 4096) {
  auto x = k.InputFrom<const float2>("x", Pairs(k.n));
  auto y = k.Output<float2>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), shared_float2_stride, x, y, k.n);
}

WS_KERNEL(shared_float4_broadcast, .title = "shared float4, 8 lanes read one", .teaching_n = 4096,
          .timing_n = 4096) {
  auto x = k.InputFrom<const float4>("x", Quads(k.n));
  auto y = k.Output<float4>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), shared_float4_broadcast, x, y, k.n);
}
