// Classic access patterns that are not lessons of the catalog: a strided and an offset copy, a
// matrix-vector product with a row per thread (uncoalesced) and with a warp per row, a 1-D
// stencil through dynamic shared memory, a shuffle reduction. Kernel files whose counters the
// simulator must give as Nsight Compute measures them (tools/fidelity_ncu.sh).

__global__ void copy_strided(Global<const float> x, Global<float> y, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i * stride < n) y[i] = x[i * stride];
}

__global__ void copy_offset(Global<const float> x, Global<float> y, int n, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + offset < n) y[i] = x[i + offset];
}

__global__ void matvec_row_per_thread(Global<const float> a, Global<const float> x, Global<float> y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0;
  for (int c = 0; c < cols; ++c) sum += a[r * cols + c] * x[c];
  y[r] = sum;
}

__global__ void matvec_warp_per_row(Global<const float> a, Global<const float> x, Global<float> y, int rows, int cols) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (r >= rows) return;
  float sum = 0;
  for (int c = lane; c < cols; c += 32) sum += a[r * cols + c] * x[c];
  for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffff, sum, d);
  if (lane == 0) y[r] = sum;
}

constexpr int kRadius = 3;

__global__ void stencil(Global<const float> in, Global<float> out, int n) {
  extern __shared__ Shared<float[]> window;
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + kRadius;
  window[l] = in[g + kRadius];
  if (threadIdx.x < kRadius) {
    window[l - kRadius] = in[g];
    window[l + blockDim.x] = in[g + kRadius + blockDim.x];
  }
  __syncthreads();
  float sum = 0;
  for (int o = -kRadius; o <= kRadius; ++o) sum += window[l + o];
  if (g < n) out[g] = sum;
}

WS_KERNEL(copy_strided, .title = "copy at a stride of 2", .teaching_n = 8192, .timing_n = 8192) {
  auto x = k.Input<const float>("x", k.n);
  auto y = k.Output<float>("y", k.n / 2);
  k.Launch(dim3(CeilDiv(k.n / 2, 256)), dim3(256), copy_strided, x, y, k.n, 2);
}

WS_KERNEL(copy_offset, .title = "copy at an offset of one float", .teaching_n = 8192, .timing_n = 8192) {
  auto x = k.Input<const float>("x", k.n);
  auto y = k.Output<float>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), copy_offset, x, y, k.n, 1);
}

WS_KERNEL(matvec_row_per_thread, .title = "y = A x, a row per thread", .teaching_n = 256, .timing_n = 256) {
  auto a = k.Input<const float>("a", int64_t(k.n) * k.n, 0, 0, k.n, k.n);
  auto x = k.Input<const float>("x", k.n);
  auto y = k.Output<float>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n, 128)), dim3(128), matvec_row_per_thread, a, x, y, k.n, k.n);
}

WS_KERNEL(matvec_warp_per_row, .title = "y = A x, a warp per row", .teaching_n = 256, .timing_n = 256) {
  auto a = k.Input<const float>("a", int64_t(k.n) * k.n, 0, 0, k.n, k.n);
  auto x = k.Input<const float>("x", k.n);
  auto y = k.Output<float>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n * 32, 128)), dim3(128), matvec_warp_per_row, a, x, y, k.n, k.n);
}

WS_KERNEL(stencil, .title = "1-D stencil, radius 3, dynamic shared memory", .teaching_n = 8192,
          .timing_n = 8192) {
  auto in = k.Input<const float>("in", k.n + 2 * kRadius);
  auto out = k.Output<float>("out", k.n);
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), (256 + 2 * kRadius) * sizeof(float), stencil, in, out, k.n);
}
