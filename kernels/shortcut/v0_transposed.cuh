// shortcut/v0_transposed — the CPU instinct: read a transposed copy t so that each thread walks
// along a row of memory. On a GPU what matters is what the 32 lanes read together, and that
// has not changed. Picture: the x read still touches 16 lines; the y read now 2 lines.
__global__ void shortcut_v0_transposed(Global<float> r, Global<const float> d, Global<const float> t, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= n || j >= n)
    return;
  float v = HUGE_VALF;
  for (int k = 0; k < n; ++k) {
    float x = d[n*i + k];
    float y = t[n*j + k];
    float z = x + y;
    v = min(v, z);
  }
  r[n*i + j] = v;
}
