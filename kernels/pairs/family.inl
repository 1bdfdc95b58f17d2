// pairs (seed 002): the sum of cal(a[i], b[j]) = |a[i] - b[j]| over all pairs. Tiling b in
// shared memory, a "diagonal" read order, and a warp-shuffle reduction before the atomic.
// Included once per back end, inside that back end's namespace, with the dialect in scope.
namespace pairs {

#include "kernels/pairs/cal.cuh"
#include "kernels/pairs/v1.cuh"
#include "kernels/pairs/v2.cuh"
#include "kernels/pairs/v2_diagonal.cuh"
#include "kernels/pairs/v3.cuh"

inline FamilyInfo Info() {
  return {"pairs", "All pairs: shared-memory tiling, broadcast, warp shuffle",
          "Each thread pairs one element of a with a tile of 32 elements of b. Staging the "
          "tile in shared memory, reading it in a rotated order, and reducing inside the warp "
          "before the atomic: the counters show which of these matter.",
          // Teaching 256: an 8x8 grid of one-warp blocks. Timing 16384, as measured in
          // DESIGN.md. Simulation cap 4096: n^2/32 threads, 16384 blocks there.
          256, 16384, 4096, "two vectors a and b of n floats",
          {{"v1", "V1: a from global, b from global, one atomic per thread",
            "Reads of a are coalesced; all lanes read the same b[y + i]; 32 atomics per warp "
            "to one address.",
            "kernels/pairs/v1.cuh",
            "nvcc loads a[x] once, before the loop (it is the same every iteration); the simulator "
            "counts the 32 reads as the source writes them, so ncu shows fewer requests."},
           {"v2", "V2: b tiled in shared memory (no barrier, as in the seed)",
            "All lanes read the same word of the tile: a broadcast, not a bank conflict. The "
            "missing barrier is reported as a warp-synchronous race.",
            "kernels/pairs/v2.cuh",
            "nvcc loads a[x] once, before the loop (it is the same every iteration); the simulator "
            "counts the 32 reads as the source writes them, so ncu shows fewer requests."},
           {"v2_diagonal", "V2, diagonal read order",
            "Lanes read 32 different words in 32 banks: conflict-free, exactly like v2.",
            "kernels/pairs/v2_diagonal.cuh",
            "nvcc loads a[x] once, before the loop (it is the same every iteration); the simulator "
            "counts the 32 reads as the source writes them, so ncu shows fewer requests."},
           {"v3", "V3: warp-shuffle reduction, one atomic per warp",
            "Five __shfl_down_sync steps add the warp's sums; lane 0 alone adds to ans.",
            "kernels/pairs/v3.cuh",
            "nvcc loads a[x] once, before the loop (it is the same every iteration); the simulator "
            "counts the 32 reads as the source writes them, so ncu shows fewer requests."}}};
}

// Bytes: a and b once each. Operations: per pair one subtraction and one addition (|a - b| is an
// operand modifier of the addition, not an instruction), as the FP32 peak counts them.
inline Work WorkFor(int n) {
  return {2.0 * double(n) * sizeof(float), 2.0 * double(n) * n, "subtractions and additions (|a - b| summed)"};
}

template <class B>
Check Run(B& b, const std::string& variant, const RunRequest& r) {
  const int n = r.n;
  RequireBlock(r.block, kIterations, 1, "one warp, one thread per element of the 32-element tile");
  const auto ha = RandomFloats(size_t(n), r.seed);
  const auto hb = RandomFloats(size_t(n), r.seed + 1);
  auto a = b.template Upload<const float>("a", "float", ha, 1, n);
  auto bb = b.template Upload<const float>("b", "float", hb, 1, n);
  auto ans = b.template Upload<float>("ans", "float", std::vector<float>{0.0f}, 1, 1);
  const dim3 grid(CeilDiv(n, kIterations), CeilDiv(n, kIterations)), block(kIterations);
  const size_t iters = kIterations, size = size_t(n);
  if (variant == "v1") b.Launch(grid, block, work_v1, iters, size, a, bb, ans);
  else if (variant == "v2") b.Launch(grid, block, work_v2, iters, size, a, bb, ans);
  else if (variant == "v2_diagonal") b.Launch(grid, block, work_v2_diagonal, iters, size, a, bb, ans);
  else if (variant == "v3") b.Launch(grid, block, work_v3, iters, size, a, bb, ans);
  else throw BadRequest("pairs has no variant '" + variant + "'");

  double want = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) want += std::fabs(double(ha[i]) - double(hb[j]));
  // The kernels add non-negative floats in an order the atomics decide. Summing m
  // non-negative terms in float, in any order, is off by at most (m - 1) * 2^-24 of the sum
  // (Higham, Accuracy and Stability of Numerical Algorithms, 4.2), plus 2^-24 per term for
  // rounding |a - b|. The longest chain of additions is a thread's 32 terms, its 5 shuffle
  // steps, then one atomic per thread (or per warp) of the launch: m is at most
  // 32 + 5 + grid threads.
  const double m = double(kIterations + 5) + double(grid.x) * grid.y * kIterations;
  const double tol = (m + 1) * std::ldexp(1.0, -24);
  return Compare(b.Download(ans), std::vector<float>{float(want)}, tol);
}

}  // namespace pairs
