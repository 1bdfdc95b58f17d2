// shortcut/v2 — register blocking: each thread computes 8x8 results, so a block of 8x8 threads
// covers a 64x64 tile and every float it loads is used 8 times. The input is padded to nn (a
// multiple of 64) with HUGE_VALF and stored twice: d row-major and t transposed.
// Picture: per k, 8 reads of t and 8 of d; each is 8 (or 4) distinct floats in one sector,
// every float broadcast to 4 (or 8) lanes.
__global__ void shortcut_v2(Global<float> r, Global<const float> d, Global<const float> t, int n, int nn) {
  int ia = threadIdx.x;
  int ja = threadIdx.y;
  int ic = blockIdx.x;
  int jc = blockIdx.y;

  float v[8][8];
  for (int ib = 0; ib < 8; ++ib) {
    for (int jb = 0; jb < 8; ++jb) {
      v[ib][jb] = HUGE_VALF;
    }
  }
  for (int k = 0; k < n; ++k) {
    float x[8];
    float y[8];
    for (int ib = 0; ib < 8; ++ib) {
      int i = ic * 64 + ib * 8 + ia;
      x[ib] = t[nn*k + i];
    }
    for (int jb = 0; jb < 8; ++jb) {
      int j = jc * 64 + jb * 8 + ja;
      y[jb] = d[nn*k + j];
    }
    for (int ib = 0; ib < 8; ++ib) {
      for (int jb = 0; jb < 8; ++jb) {
        v[ib][jb] = min(v[ib][jb], x[ib] + y[jb]);
      }
    }
  }
  for (int ib = 0; ib < 8; ++ib) {
    for (int jb = 0; jb < 8; ++jb) {
      int i = ic * 64 + ib * 8 + ia;
      int j = jc * 64 + jb * 8 + ja;
      if (i < n && j < n) {
        r[n*i + j] = v[ib][jb];
      }
    }
  }
}

WS_VARIANT(v2, .order = 4, .title = "V2: 8x8 results per thread in registers",
           .watch = "A 64x64 tile per block; per k each thread loads 8 floats of t and 8 of d, each used "
                    "8 times. Every float is broadcast to several lanes.") {
  return RunTiled<float, const float>(b, r, 64, false, shortcut_v2);
}
