// A 1-D stencil of radius 3 through a shared-memory tile with halos: a 50-line kernel file for
// the save-to-picture benchmark (tools/bench_save_to_picture.py). Each block stages
// 256 + 2 * 3 floats of `in`, waits at the barrier, and writes 256 weighted sums.
#define RADIUS 3
#define BLOCK 256

__global__ void stencil(Global<float> out, Global<const float> in, int n) {
  __shared__ Shared<float[BLOCK + 2 * RADIUS]> tile;
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  // The centre, then the halos on both sides (clamped at the ends of the array).
  tile[l] = in[g < n ? g : n - 1];
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS;
    int right = g + BLOCK;
    tile[l - RADIUS] = in[left < 0 ? 0 : left];
    tile[l + BLOCK] = in[right < n ? right : n - 1];
  }
  __syncthreads();
  if (g < n) {
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
      float w = k == 0 ? 0.4f : 0.1f;
      sum += w * tile[l + k];
    }
    out[g] = sum;
  }
}

WS_KERNEL(stencil, .title = "1-D stencil, radius 3, shared tile",
          .watch = "halo loads: 3 lanes of a warp; centre loads: one line per warp",
          .teaching_n = 4096, .timing_n = 1 << 24, .max_n = 1 << 24, .size_meaning = "n floats") {
  const int n = k.n;
  auto in = k.Input<const float>("in", n);
  auto out = k.Output<float>("out", n);
  k.Launch(dim3((n + BLOCK - 1) / BLOCK), dim3(BLOCK), stencil, out, in, n);
  // The CPU reference: the same weights, the same clamping, the same order of additions.
  const auto& x = k.Host(in);
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) {
    float sum = 0.0f;
    for (int d = -RADIUS; d <= RADIUS; ++d) {
      int j = i + d < 0 ? 0 : (i + d < n ? i + d : n - 1);
      float w = d == 0 ? 0.4f : 0.1f;
      sum += w * x[j];
    }
    want[i] = sum;
  }
  k.Expect(out, want);
}
