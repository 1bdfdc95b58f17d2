// shortcut/v1 — v0 with the roles of i and j swapped: consecutive lanes now take consecutive j.
// Picture: the x read is 2 floats in 2 rows; the y read is 16 consecutive floats (2 sectors,
// 1 line); the store writes 2 runs of 16 floats.
__global__ void shortcut_v1(Global<float> r, Global<const float> d, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= n || j >= n)
    return;
  float v = HUGE_VALF;
  for (int k = 0; k < n; ++k) {
    float x = d[n*j + k];
    float y = d[n*k + i];
    float z = x + y;
    v = min(v, z);
  }
  r[n*j + i] = v;
}

WS_VARIANT(v1, .order = 3, .title = "V1: i and j swapped (coalesced)",
           .watch = "Consecutive lanes read consecutive floats: 16 floats in one line instead of 16 lines.") {
  return RunOnePerThread(b, r, shortcut_v1);
}
