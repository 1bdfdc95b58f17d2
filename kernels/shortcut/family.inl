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
// i, k, j so that the inner loop walks rows (about 30x faster than walking columns), four j at a
// time (GCC's vector extension: each lane the scalar rule; -O2 leaves the loop scalar), which
// takes n = 512 from 42 to 13 ms, a few percent of the stats command that checks against it.
inline std::vector<float> ShortcutReference(const std::vector<float>& d, int n) {
  using Four = float __attribute__((vector_size(16)));
  std::vector<float> r(size_t(n) * n, HUGE_VALF);
  for (int i = 0; i < n; ++i) {
    float* row = &r[size_t(n) * i];
    for (int k = 0; k < n; ++k) {
      const float x = d[size_t(n) * i + k];
      const float* dk = &d[size_t(n) * k];
      int j = 0;
      for (; j + 4 <= n; j += 4) {
        Four y, least;
        std::memcpy(&y, dk + j, sizeof y);
        std::memcpy(&least, row + j, sizeof least);
        const Four z = x + y;
        least = z < least ? z : least;
        std::memcpy(row + j, &least, sizeof least);
      }
      for (; j < n; ++j) {
        const float z = x + dk[j];
        row[j] = z < row[j] ? z : row[j];  // inputs are finite: no NaN to care about
      }
    }
  }
  return r;
}

inline std::vector<float> ShortcutInput(const RunRequest& r) { return RandomFloats(size_t(r.n) * r.n, r.seed); }

// v0 and v1: one result per thread in the seed's 16x16 block; v0_transposed uses the same launch.
inline const BlockRule kOnePerThread{16, 16, "the seed's 16x16 block, one result per thread"};
inline dim3 OnePerThreadGrid(int n) { return dim3(CeilDiv(n, 16), CeilDiv(n, 16)); }

// kernel(r, d, n).
template <class K>
Check RunOnePerThread(Backend& b, const RunRequest& r, K kernel) {
  const int n = r.n;
  const auto host = ShortcutInput(r);
  return RunVariant(b, r, kOnePerThread, OnePerThreadGrid(n), kernel,
                    Output<float>("r", n, n, [&] { return ShortcutReference(host, n); }), Input("d", host, n, n), n);
}

// v2 to v5: kernel(r, d, t, n, nn) computes a tile x tile block of results per block, 8x8 per
// thread, from d and its transpose t, both padded to nn, a multiple of the tile, with HUGE_VALF
// (which never wins a minimum). The kernel takes r as OutElement (float, or float4 for 16-byte stores)
// and d and t as InElement (const float or const float4); with rows_padded, r's rows are nn floats long,
// so that each starts 16-byte aligned for float4 stores.
template <class OutElement, class InElement, class K>
Check RunTiled(Backend& b, const RunRequest& r, int tile, bool rows_padded, K kernel) {
  const unsigned threads = unsigned(tile / 8);
  const std::string why = std::to_string(threads) + "x" + std::to_string(threads) +
                          " threads, each computing 8x8 results of a " + std::to_string(tile) + "x" +
                          std::to_string(tile) + " tile";
  const int n = r.n, nn = (n + tile - 1) / tile * tile, row = rows_padded ? nn : n;
  const auto host = ShortcutInput(r);
  std::vector<float> pd(size_t(nn) * nn, HUGE_VALF), pt(size_t(nn) * nn, HUGE_VALF);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      pd[size_t(nn) * i + j] = host[size_t(n) * i + j];
      pt[size_t(nn) * j + i] = host[size_t(n) * i + j];
    }
  const dim3 grid(nn / tile, nn / tile);
  return RunVariant(b, r, {threads, threads, why}, grid, kernel,
                    As<OutElement>(Output<float>("r", n, row, [&] { return ShortcutReference(host, n); }).ComparingColumns(n)),
                    As<InElement>(Input("d", pd, nn, nn)), As<InElement>(Input("t", pt, nn, nn)), n, nn);
}
