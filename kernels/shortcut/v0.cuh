// shortcut/v0 — the first GPU version: a 16x16 block, one result per thread, i taken from
// threadIdx.x. A warp's 32 lanes have 16 different i, so `d[n*i + k]` reads down a column.
// Picture: the x read touches 16 lines for 16 distinct floats; the y read is 2 floats, 1 sector.
__global__ void shortcut_v0(Global<float> r, Global<const float> d, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= n || j >= n)
    return;
  float v = HUGE_VALF;
  for (int k = 0; k < n; ++k) {
    float x = d[n*i + k];
    float y = d[n*k + j];
    float z = x + y;
    v = min(v, z);
  }
  r[n*i + j] = v;
}

WS_VARIANT(v0, .order = 1, .title = "V0: i from threadIdx.x (poor)",
           .watch = "A warp's lanes have 16 different i: the read of d[n*i + k] touches 16 lines for "
                    "16 floats.") {
  return RunOnePerThread(b, r, shortcut_v0);
}
