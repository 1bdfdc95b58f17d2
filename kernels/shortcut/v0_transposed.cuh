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

WS_VARIANT(v0_transposed, .order = 2, .title = "V0 on a transposed copy (just as poor)",
           .watch = "Each thread now walks along rows of t, but the warp still reads 16 rows at once: "
                    "the access pattern of the warp is what counts.") {
  const int n = r.n;
  const auto host = ShortcutInput(r);
  std::vector<float> tr(size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) tr[size_t(n) * j + i] = host[size_t(n) * i + j];
  // t is made after r: the views list d, r, t.
  return RunVariant(b, r, kOnePerThread, OnePerThreadGrid(n), shortcut_v0_transposed,
                    Output<float>("r", n, n, [&] { return ShortcutReference(host, n); }), Input("d", host, n, n),
                    Input("t", tr, n, n).AfterOutput(), n);
}
