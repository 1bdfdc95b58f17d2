// pairs/v3 — v2_diagonal plus a warp-shuffle reduction: the 32 partial sums are added inside
// the warp in 5 steps, and only lane 0 does the atomicAdd.
// Picture: one atomic per warp instead of 32, with a single active lane.
__global__ void work_v3(size_t N_ITERATIONS, size_t n, Global<const float> a,
                        Global<const float> b, Global<float> ans) {
  size_t x = blockDim.x * blockIdx.x + threadIdx.x;
  size_t y = N_ITERATIONS * blockIdx.y;
  __shared__ Shared<float[32]> _b;
  if (y + x % 32 < n) {
    _b[x % 32] = b[y + x % 32];
  }
  float sum = 0;

  for (size_t i = 0; i < N_ITERATIONS; i++) {
    int idx = (32 - i + threadIdx.x) % 32;
    float val = (x < n && y + idx < n) ? cal(a[x], _b[idx]) : 0;
    sum += val;
  }

  for (unsigned w = 16; w >= 1; w /= 2) {
    sum += __shfl_down_sync(0xffffffff, sum, w);
  }

  if (threadIdx.x == 0) {
    atomicAdd(ans, sum);
  }
}

WS_VARIANT(v3, .order = 4, .title = "V3: warp-shuffle reduction, one atomic per warp",
           .watch = "Five __shfl_down_sync steps add the warp's sums; lane 0 alone adds to ans.",
           .warns = {sim::FindingKind::WarpSyncRace}) {
  return RunPairs(b, r, work_v3);
}
