// shortcut/v5 — v4 scaled up: 16x16 threads, each still 8x8 results, so a block covers a
// 128x128 tile; eight k-steps per stage (half v4's barriers per step); and the next stage's
// float4 of t and d are fetched into registers while this stage computes, hiding their latency.
// Picture: a warp's global load is 32 consecutive float4 (one 512-byte run); xx reads are 16
// distinct float4 in phases of 8 lanes (no conflict), yy reads are two float4 (broadcasts).
__global__ void __launch_bounds__(16*16) shortcut_v5(Global<float4> r, Global<const float4> d, Global<const float4> t, int n, int nn) {
  int ia = threadIdx.x;
  int ja = threadIdx.y;
  int ic = blockIdx.x;
  int jc = blockIdx.y;

  __shared__ Shared<float4[8][32]> xx;
  __shared__ Shared<float4[8][32]> yy;

  float v[8][8];
  for (int ib = 0; ib < 8; ++ib) {
    for (int jb = 0; jb < 8; ++jb) {
      v[ib][jb] = HUGE_VALF;
    }
  }
  // Each of the 256 threads moves one float4 of t and one of d per stage: row ks + f.
  int lin = ja * 16 + ia;
  int f = lin / 32;
  int idx = lin % 32;
  float4 gx = t[nn/4 * f + ic * 32 + idx];
  float4 gy = d[nn/4 * f + jc * 32 + idx];
  for (int ks = 0; ks < n; ks += 8) {
    xx[f][idx] = gx;
    yy[f][idx] = gy;

    __syncthreads();

    if (ks + 8 < n) {
      gx = t[nn/4 * (ks + 8 + f) + ic * 32 + idx];
      gy = d[nn/4 * (ks + 8 + f) + jc * 32 + idx];
    }
    for (int k = 0; k < 8; ++k) {
      float y[8];
      for (int jb = 0; jb < 8; jb += 4) {
        float4 vy = yy[k][(jb / 4) * 16 + ja];
        y[jb+0] = vy.x;
        y[jb+1] = vy.y;
        y[jb+2] = vy.z;
        y[jb+3] = vy.w;
      }
      for (int ib = 0; ib < 8; ib += 4) {
        float4 vx = xx[k][(ib / 4) * 16 + ia];
        float x[4] = {vx.x, vx.y, vx.z, vx.w};
        for (int q = 0; q < 4; ++q) {
          for (int jb = 0; jb < 8; ++jb) {
            v[ib+q][jb] = min(v[ib+q][jb], x[q] + y[jb]);
          }
        }
      }
    }

    __syncthreads();
  }
  for (int ib = 0; ib < 8; ++ib) {
    for (int jb = 0; jb < 8; jb += 4) {
      int i = ic * 128 + (ib / 4) * 64 + ia * 4 + ib % 4;
      int j = jc * 128 + (jb / 4) * 64 + ja * 4;
      if (i < n && j < n) {
        r[nn/4 * i + j/4] = make_float4(v[ib][jb], v[ib][jb+1], v[ib][jb+2], v[ib][jb+3]);
      }
    }
  }
}

WS_VARIANT(v5, .order = 8, .title = "V5: 128x128 tiles, 8 k-steps per stage, next stage prefetched",
           .watch = "v4 with 256 threads per block: half the barriers per k-step, and the global loads "
                    "of the next stage overlap this stage's arithmetic.") {
  // 16x16 threads, 8x8 results each; rows of r padded as in v4.
  return RunTiled<float4, const float4>(b, r, 128, true, shortcut_v5);
}
