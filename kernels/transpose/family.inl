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

// Moves a random n x n matrix `in` to `out` with kernel(in, out, width, height) on a grid of
// 32x32 tiles, block_x x block_y threads a block, and checks it against the CPU: the
// transpose, or (`copy`) the matrix itself.
template <class K>
Check RunTranspose(Backend& b, const RunRequest& r, K kernel, unsigned block_x, unsigned block_y, const char* why,
                   bool copy = false) {
  const int n = r.n;
  RequireBlock(r.block, block_x, block_y, why);
  const dim3 grid(CeilDiv(n, tile_dim), CeilDiv(n, tile_dim)), block(block_x, block_y);
  const auto host = RandomFloats(size_t(n) * n, r.seed);
  auto in = b.Upload<const float>("in", "float", host, n, n);
  auto out = b.Alloc<float>("out", "float", size_t(n) * n, n, n);
  b.Launch(grid, block, kernel, in, out, n, n);
  std::vector<float> want(size_t(n) * n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) want[size_t(x) * n + y] = copy ? host[size_t(x) * n + y] : host[size_t(y) * n + x];
  return Compare(b.Download(out), want);
}

// The block of every variant but shared_rows: one thread per element of the tile.
inline constexpr const char* kOnePerElement = "one thread per element of a 32x32 tile";
