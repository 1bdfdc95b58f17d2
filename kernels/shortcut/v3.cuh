// shortcut/v3 — v2 plus shared memory: per stage the block copies four rows of t and d (the
// 64 columns it needs) into xx and yy with coalesced loads, then every thread reads its
// operands from there. Two __syncthreads per stage keep the copy and the reads apart.
// Picture: each global load is 32 consecutive floats (4 sectors, 1 line); the shared reads
// are 8 or 4 distinct words, broadcast, one wavefront each.
__global__ void shortcut_v3(Global<float> r, Global<const float> d, Global<const float> t, int n, int nn) {
  int ia = threadIdx.x;
  int ja = threadIdx.y;
  int ic = blockIdx.x;
  int jc = blockIdx.y;

  __shared__ Shared<float[4][64]> xx;
  __shared__ Shared<float[4][64]> yy;

  float v[8][8];
  for (int ib = 0; ib < 8; ++ib) {
    for (int jb = 0; jb < 8; ++jb) {
      v[ib][jb] = HUGE_VALF;
    }
  }
  for (int ks = 0; ks < n; ks += 4) {
    int ija = ja * 8 + ia;
    int i = ic * 64 + ija;
    int j = jc * 64 + ija;
    for (int f = 0; f < 4; ++f) {
      int k = ks + f;
      xx[f][ija] = t[nn*k + i];
      yy[f][ija] = d[nn*k + j];
    }

    __syncthreads();

    for (int f = 0; f < 4; ++f) {
      float y[8];
      for (int jb = 0; jb < 8; ++jb) {
        y[jb] = yy[f][jb * 8 + ja];
      }
      for (int ib = 0; ib < 8; ++ib) {
        float x = xx[f][ib * 8 + ia];
        for (int jb = 0; jb < 8; ++jb) {
          v[ib][jb] = min(v[ib][jb], x + y[jb]);
        }
      }
    }

    __syncthreads();
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

WS_VARIANT(v3, .order = 6, .title = "V3: shared memory, four k-steps per stage",
           .watch = "The block stages 4 rows of t and d in shared memory with coalesced loads; operands "
                    "come from shared memory as broadcasts.") {
  return RunTiled<float, const float>(b, r, 64, false, shortcut_v3);
}
