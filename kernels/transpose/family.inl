// transpose (seed 004): copy, naive, shared tile, padded shared tile, and a padded tile moved
// by 32x4 threads. The lesson, its CPU reference and the launch every variant shares; each
// variant is a .cuh of this folder (kernels/declare.h).
#include "kernels/transpose/tile.cuh"

WS_FAMILY(.order = 5, .title = "Matrix transpose: coalescing and shared-memory banks",
          .story = "A transpose reads rows and writes columns, so one side is never coalesced. Staging a "
                   "tile in shared memory makes both global sides run along rows, but reads the tile down "
                   "a column, which piles every lane into one bank; one column of padding spreads them.",
          .teaching_n = 64, .timing_n = 8192, .max_sim_n = 4096, .size_meaning = "n x n matrix of floats",
          // Each float read once and written once.
          .work = [](double n) { return Work{2.0 * n * n * sizeof(float), 0, ""}; });

// The family's CPU reference: the transpose of an n x n matrix, or (`copy`) the matrix itself.
inline std::vector<float> Reference(const std::vector<float>& in, int n, bool copy) {
  std::vector<float> want(size_t(n) * n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) want[size_t(x) * n + y] = copy ? in[size_t(x) * n + y] : in[size_t(y) * n + x];
  return want;
}

// Moves a random n x n matrix `in` to `out` with kernel(in, out, width, height) on a grid of
// 32x32 tiles, block_x x block_y threads a block (`why` says why a variant needs its block).
template <class K>
Check RunTranspose(Backend& b, const RunRequest& r, K kernel, unsigned block_x, unsigned block_y, const char* why,
                   bool copy = false) {
  const int n = r.n;
  const auto host = RandomFloats(size_t(n) * n, r.seed);
  const dim3 grid(CeilDiv(n, tile_dim), CeilDiv(n, tile_dim));
  return RunVariant(b, r, {block_x, block_y, why}, grid, kernel, Input("in", host, n, n),
                    Output<float>("out", n, n, [&] { return Reference(host, n, copy); }), n, n);
}

// The block of every variant but shared_rows: one thread per element of the tile.
inline constexpr const char* kOnePerElement = "one thread per element of a 32x32 tile";
