// shortcut/v2_float4 — v2 with 16-byte loads: each thread takes 4 consecutive elements per
// load, so a thread's 8 rows are now two runs of 4 (i = ic*64 + ib*8 + ia*4 + 0..3, ib = 0, 4).
// Picture: a quarter of v2's load instructions; the t read is 8 float4 (4 sectors, one line),
// the d read 4 float4 (2 sectors). The stores now step 4 rows and 4 columns between lanes.
__global__ void shortcut_v2_float4(Global<float> r, Global<const float4> d, Global<const float4> t, int n, int nn) {
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
    for (int ib = 0; ib < 8; ib += 4) {
      float4 vx = t[nn/4 * k + (ic * 8 + ib) * 2 + ia];
      x[ib+0] = vx.x;
      x[ib+1] = vx.y;
      x[ib+2] = vx.z;
      x[ib+3] = vx.w;
    }
    for (int jb = 0; jb < 8; jb += 4) {
      float4 vy = d[nn/4 * k + (jc * 8 + jb) * 2 + ja];
      y[jb+0] = vy.x;
      y[jb+1] = vy.y;
      y[jb+2] = vy.z;
      y[jb+3] = vy.w;
    }
    for (int ib = 0; ib < 8; ++ib) {
      for (int jb = 0; jb < 8; ++jb) {
        v[ib][jb] = min(v[ib][jb], x[ib] + y[jb]);
      }
    }
  }
  for (int ib = 0; ib < 8; ++ib) {
    for (int jb = 0; jb < 8; ++jb) {
      int i = ic * 64 + (ib / 4) * 32 + ia * 4 + ib % 4;
      int j = jc * 64 + (jb / 4) * 32 + ja * 4 + jb % 4;
      if (i < n && j < n) {
        r[n*i + j] = v[ib][jb];
      }
    }
  }
}

WS_VARIANT(v2_float4, .order = 5, .title = "V2 with float4 loads",
           .watch = "Each load brings 4 consecutive floats: a quarter of the load instructions.") {
  return RunTiled<float, const float4>(b, r, 64, false, shortcut_v2_float4);
}
