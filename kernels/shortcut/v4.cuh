// shortcut/v4 — v3 with 16-byte accesses everywhere: the 64 threads each load one float4 of t
// and one of d per stage (threads 0-15 row ks, 16-31 row ks+1, ...), read xx and yy as float4,
// and store float4 into a result whose rows are padded to nn floats, so every row is aligned.
// Picture: a warp's global load is two rows of 16 float4 (16 sectors); a shared float4 access
// is served in 4 phases of 8 lanes; one store instruction replaces four.
__global__ void __launch_bounds__(8*8) shortcut_v4(Global<float4> r, Global<const float4> d, Global<const float4> t, int n, int nn) {
  int ia = threadIdx.x;
  int ja = threadIdx.y;
  int ic = blockIdx.x;
  int jc = blockIdx.y;

  __shared__ Shared<float4[4][16]> xx;
  __shared__ Shared<float4[4][16]> yy;

  float v[8][8];
  for (int ib = 0; ib < 8; ++ib) {
    for (int jb = 0; jb < 8; ++jb) {
      v[ib][jb] = HUGE_VALF;
    }
  }
  for (int ks = 0; ks < n; ks += 4) {
    int lin_vec_index = (ja * 8 + ia);
    int ija = lin_vec_index % 16;
    int f = lin_vec_index / 16;
    int i = ic * 16 + ija;
    int j = jc * 16 + ija;
    xx[f][ija] = t[nn/4 * (ks + f) + i];
    yy[f][ija] = d[nn/4 * (ks + f) + j];

    __syncthreads();

    for (int f = 0; f < 4; ++f) {
      float y[8];
      for (int jb = 0; jb < 8; jb += 4) {
        float4 vy = yy[f][jb * 2 + ja];
        y[jb+0] = vy.x;
        y[jb+1] = vy.y;
        y[jb+2] = vy.z;
        y[jb+3] = vy.w;
      }
      for (int ib = 0; ib < 8; ib += 4) {
        float4 vx = xx[f][ib * 2 + ia];
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
      int i = ic * 64 + (ib / 4) * 32 + ia * 4 + ib % 4;
      int j = jc * 64 + jb * 8 + ja * 4;
      if (i < n && j < n) {
        r[nn/4 * i + j/4] = make_float4(v[ib][jb], v[ib][jb+1], v[ib][jb+2], v[ib][jb+3]);
      }
    }
  }
}

WS_VARIANT(v4, .order = 7, .title = "V4: float4 from global and shared, float4 stores",
           .watch = "One float4 load per thread and stage; shared reads and the stores are 16 bytes wide.") {
  // Rows of r padded to nn floats, so that every row starts 16-byte aligned.
  return RunTiled<float4, const float4>(b, r, 64, true, shortcut_v4);
}
