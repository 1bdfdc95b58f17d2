// pairs/v2 — the tile of b is copied into shared memory first, one element per thread, and
// then read by all lanes at once. As in the seed there is no barrier between the copy and the
// reads: correct only because the 32 threads are one warp running in lockstep, which CUDA no
// longer promises (the simulator reports it as a warp-synchronous race).
// Picture: every lane reads the same word _b[i]: a broadcast, one wavefront, no conflict.
__global__ void work_v2(size_t N_ITERATIONS, size_t n, Global<const float> a,
                        Global<const float> b, Global<float> ans) {
  size_t x = blockDim.x * blockIdx.x + threadIdx.x;
  size_t y = N_ITERATIONS * blockIdx.y;
  __shared__ Shared<float[32]> _b;
  if (y + x % 32 < n) {
    _b[x % 32] = b[y + x % 32];
  }
  float sum = 0;
  for (size_t i = 0; i < N_ITERATIONS; i++) {
    float val = (x < n && y + i < n) ? cal(a[x], _b[i]) : 0;
    sum += val;
  }
  atomicAdd(ans, sum);
}

WS_VARIANT(v2, .order = 2, .title = "V2: b tiled in shared memory (no barrier, as in the seed)",
           .watch = "All lanes read the same word of the tile: a broadcast, not a bank conflict. The "
                    "missing barrier is reported as a warp-synchronous race.",
           .warns = {sim::FindingKind::WarpSyncRace}) {
  return RunPairs(b, r, work_v2);
}
