// pairs/v1 — one element of a per thread, N_ITERATIONS elements of b, and one atomicAdd per
// thread. The read of a is coalesced; every lane reads the same b[y + i] (one sector, a
// broadcast). Picture: 32 lanes of a warp add into the same address, 32 atomics per warp.
__global__ void work_v1(size_t N_ITERATIONS, size_t n, Global<const float> a,
                        Global<const float> b, Global<float> ans) {
  size_t x = blockDim.x * blockIdx.x + threadIdx.x;
  size_t y = N_ITERATIONS * blockIdx.y;
  float sum = 0;
  for (size_t i = 0; i < N_ITERATIONS; i++) {
    float val = (x < n && y + i < n) ? cal(a[x], b[y + i]) : 0;
    sum += val;
  }
  atomicAdd(ans, sum);
}

WS_VARIANT(v1, .order = 1, .title = "V1: a from global, b from global, one atomic per thread",
           .watch = "Reads of a are coalesced; all lanes read the same b[y + i]; 32 atomics per warp "
                    "to one address.") {
  return RunPairs(b, r, work_v1);
}
