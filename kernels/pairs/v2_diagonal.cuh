// pairs/v2_diagonal — v2 reading the tile "diagonally", the seed's cure for a bank conflict it
// expected: at step i lane l reads _b[(32 - i + l) % 32], so the lanes read 32 different words.
// Those lie in 32 different banks, so this is conflict-free too — but so was v2, whose lanes
// all read one word (a broadcast). Picture: one wavefront per read in both versions.
__global__ void work_v2_diagonal(size_t N_ITERATIONS, size_t n, Global<const float> a,
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
  atomicAdd(ans, sum);
}

WS_VARIANT(v2_diagonal, .order = 3, .title = "V2, diagonal read order",
           .watch = "Lanes read 32 different words in 32 banks: conflict-free, exactly like v2.",
           .warns = {sim::FindingKind::WarpSyncRace}) {
  return RunPairs(b, r, work_v2_diagonal);
}
