// shortcut (seeds 000 and 001): r[i][j] = min over k of d[i][k] + d[k][j], from the naive GPU
// version to register blocking, shared memory and 16-byte accesses. The lesson, its CPU
// reference and the launches the variants share; each variant is a .cuh of this folder
// (kernels/declare.h).

WS_FAMILY(.order = 1, .title = "Shortcut (min-plus product): coalescing, registers, shared memory, float4",
          .story = "Every result reads a row and a column of d. Which index the lanes of a warp share "
                   "decides whether a read is one line or sixteen; blocking 8x8 results per thread, "
                   "staging in shared memory and 16-byte loads then cut the number of instructions.",
          // Teaching 64: four 16x16 blocks a side for v0/v1, one 64x64 tile for v2-v4.
          // Timing 4096: the largest size the seeds' course runs (v0 takes about a second).
          // Simulation cap 1024 (the seed's example is n = 1000): v0 and v1 make 2n^3 lane
          // loads, about 2 billion there, roughly 50 s for a whole launch on one core.
          .teaching_n = 64, .timing_n = 4096, .max_sim_n = 1024, .size_meaning = "n x n matrix of floats",
          // d read once, r written once; per (i, j, k) one addition and one minimum.
          .work = [](double n) { return Work{2.0 * n * n * sizeof(float), 2.0 * n * n * n, "additions and minimums"}; },
          .arithmetic_bound = true);

// The family's CPU reference. Each sum d[i][k] + d[k][j] is rounded once, as on the GPU, and
// a minimum does not depend on the order it is taken in, so the result is exact. The loops run
// i, k, j so that the inner loop walks rows (about 30x faster than walking columns).
inline std::vector<float> ShortcutReference(const std::vector<float>& d, int n) {
  std::vector<float> r(size_t(n) * n, HUGE_VALF);
  for (int i = 0; i < n; ++i) {
    float* row = &r[size_t(n) * i];
    for (int k = 0; k < n; ++k) {
      const float x = d[size_t(n) * i + k];
      const float* dk = &d[size_t(n) * k];
      for (int j = 0; j < n; ++j) {
        const float z = x + dk[j];
        row[j] = z < row[j] ? z : row[j];  // inputs are finite: no NaN to care about
      }
    }
  }
  return r;
}

inline std::vector<float> ShortcutInput(const RunRequest& r) { return RandomFloats(size_t(r.n) * r.n, r.seed); }

// v0 and v1: one result per thread, the seed's 16x16 block; kernel(r, d, n).
template <class K>
Check RunOnePerThread(Backend& b, const RunRequest& r, K kernel) {
  const int n = r.n;
  RequireBlock(r.block, 16, 16, "the seed's 16x16 block, one result per thread");
  const auto host = ShortcutInput(r);
  auto d = b.Upload<const float>("d", "float", host, n, n);
  auto out = b.Alloc<float>("r", "float", size_t(n) * n, n, n);
  const dim3 grid(CeilDiv(n, 16), CeilDiv(n, 16)), block(16, 16);
  b.Launch(grid, block, kernel, out, d, n);
  return Compare(b.Download(out), ShortcutReference(host, n));
}

// v2 to v5: a tile x tile block of results per block, 8x8 per thread, from d and its transpose
// t, both padded to nn, a multiple of the tile, with HUGE_VALF (which never wins a minimum).
// Prepare uploads them; the variant launches; Finish checks r.
struct Tiled {
  int n = 0, nn = 0;
  dim3 grid, block;
  Global<const float> d{}, t{};
  Global<float> out{};
  bool rows_padded = false;  // r's rows are nn floats long (16-byte aligned for float4 stores)
};

inline Tiled PrepareTiled(Backend& b, const RunRequest& r, int tile, bool rows_padded) {
  Tiled l;
  l.n = r.n;
  const unsigned threads = unsigned(tile / 8);
  RequireBlock(r.block, threads, threads,
               std::to_string(threads) + "x" + std::to_string(threads) + " threads, each computing 8x8 results of a " +
                   std::to_string(tile) + "x" + std::to_string(tile) + " tile");
  const int n = r.n, nn = (n + tile - 1) / tile * tile;
  const auto host = ShortcutInput(r);
  std::vector<float> pd(size_t(nn) * nn, HUGE_VALF), pt(size_t(nn) * nn, HUGE_VALF);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      pd[size_t(nn) * i + j] = host[size_t(n) * i + j];
      pt[size_t(nn) * j + i] = host[size_t(n) * i + j];
    }
  l.nn = nn;
  l.grid = dim3(nn / tile, nn / tile);
  l.block = dim3(threads, threads);
  l.d = b.Upload<const float>("d", "float", pd, nn, nn);
  l.t = b.Upload<const float>("t", "float", pt, nn, nn);
  l.rows_padded = rows_padded;
  const int row = rows_padded ? nn : n;
  l.out = b.Alloc<float>("r", "float", size_t(n) * row, n, row);
  return l;
}

inline Check FinishTiled(Backend& b, const RunRequest& r, const Tiled& l) {
  const auto got = b.Download(l.out);
  std::vector<float> r_n(size_t(l.n) * l.n);
  const int row = l.rows_padded ? l.nn : l.n;
  for (int i = 0; i < l.n; ++i)
    for (int j = 0; j < l.n; ++j) r_n[size_t(l.n) * i + j] = got[size_t(row) * i + j];
  return Compare(r_n, ShortcutReference(ShortcutInput(r), l.n));
}
