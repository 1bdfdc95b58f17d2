// transpose (seed 004): copy, naive, shared tile, padded shared tile, and a padded tile moved
// by 32x4 threads. Included once per back end, inside that back end's namespace, with the
// dialect in scope.
namespace transpose {

#include "kernels/transpose/tile.cuh"
#include "kernels/transpose/copy.cuh"
#include "kernels/transpose/naive.cuh"
#include "kernels/transpose/shared.cuh"
#include "kernels/transpose/shared_padded.cuh"
#include "kernels/transpose/shared_rows.cuh"

inline FamilyInfo Info() {
  return {"transpose", "Matrix transpose: coalescing and shared-memory banks",
          "A transpose reads rows and writes columns, so one side is never coalesced. Staging a "
          "tile in shared memory makes both global sides run along rows, but reads the tile down "
          "a column, which piles every lane into one bank; one column of padding spreads them.",
          64, 8192, 4096, "n x n matrix of floats",
          {{"copy", "Copy (baseline, no transpose)",
            "Reads and writes along rows: the bandwidth every transpose should approach.",
            "kernels/transpose/copy.cuh"},
           {"naive", "Naive transpose",
            "Reads along rows, writes down columns: each store touches 32 sectors in 32 lines.",
            "kernels/transpose/naive.cuh"},
           {"shared", "Shared-memory tile",
            "Both global sides coalesced; the tile is read down a column: a 32-way bank conflict.",
            "kernels/transpose/shared.cuh"},
           {"shared_padded", "Shared-memory tile, padded",
            "tile[32][33]: the column read is conflict-free.",
            "kernels/transpose/shared_padded.cuh"},
           {"shared_rows", "Padded tile, 32x4 threads, 8 elements each",
            "An eighth of the threads move the same tile: eight independent loads per thread keep "
            "more bytes in flight. Every access as in the padded tile; near the copy's bandwidth.",
            "kernels/transpose/shared_rows.cuh"}}};
}

inline Work WorkFor(int n) { return {2.0 * double(n) * n * sizeof(float), 0, ""}; }

template <class B>
Check Run(B& b, const std::string& variant, const RunRequest& r) {
  const int n = r.n;
  if (variant == "shared_rows")
    RequireBlock(r.block, tile_dim, block_rows, "32x4 threads move a 32x32 tile, 8 elements each");
  else
    RequireBlock(r.block, tile_dim, tile_dim, "one thread per element of a 32x32 tile");
  auto host = RandomFloats(size_t(n) * n, r.seed);
  auto in = b.template Upload<const float>("in", "float", host, n, n);
  auto out = b.template Alloc<float>("out", "float", size_t(n) * n, n, n);
  const dim3 grid(CeilDiv(n, tile_dim), CeilDiv(n, tile_dim)), block(tile_dim, tile_dim);
  if (variant == "copy") b.Launch(grid, block, copy_kernel, in, out, n, n);
  else if (variant == "naive") b.Launch(grid, block, transpose_naive_kernel, in, out, n, n);
  else if (variant == "shared") b.Launch(grid, block, transpose_SM_kernel, in, out, n, n);
  else if (variant == "shared_padded") b.Launch(grid, block, transpose_SM_nobc_kernel, in, out, n, n);
  else if (variant == "shared_rows") b.Launch(grid, dim3(tile_dim, block_rows), transpose_rows_kernel, in, out, n, n);
  else throw BadRequest("transpose has no variant '" + variant + "'");
  std::vector<float> want(size_t(n) * n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) want[size_t(x) * n + y] = variant == "copy" ? host[size_t(x) * n + y] : host[size_t(y) * n + x];
  return Compare(b.Download(out), want);
}

}  // namespace transpose
