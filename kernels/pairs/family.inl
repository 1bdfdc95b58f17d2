// pairs (seed 002): the sum of cal(a[i], b[j]) = |a[i] - b[j]| over all pairs. Tiling b in
// shared memory, a "diagonal" read order, and a warp-shuffle reduction before the atomic.
// The lesson, its CPU reference and the launch every variant shares; each variant is a .cuh of
// this folder (kernels/declare.h).
#include "kernels/pairs/cal.cuh"

WS_FAMILY(.order = 2, .title = "All pairs: shared-memory tiling, broadcast, warp shuffle",
          .story = "Each thread pairs one element of a with a tile of 32 elements of b. Staging the "
                   "tile in shared memory, reading it in a rotated order, and reducing inside the warp "
                   "before the atomic: the counters show which of these matter.",
          // Teaching 256: an 8x8 grid of one-warp blocks. Timing 16384, as measured in
          // DESIGN.md. Simulation cap 4096: n^2/32 threads, 16384 blocks there.
          .teaching_n = 256, .timing_n = 16384, .max_sim_n = 4096, .size_meaning = "two vectors a and b of n floats",
          // Bytes: a and b once each. Operations: per pair one subtraction and one addition (|a - b|
          // is an operand modifier of the addition, not an instruction), as the FP32 peak counts them.
          .work = [](double n) { return Work{2.0 * n * sizeof(float), 2.0 * n * n, "subtractions and additions (|a - b| summed)"}; },
          .arithmetic_bound = true);

// Runs kernel(N_ITERATIONS, n, a, b, ans) on an (n/32) x (n/32) grid of one-warp blocks and
// checks the sum against the CPU's, within the rounding the atomics' order allows.
template <class K>
Check RunPairs(Backend& b, const RunRequest& r, K kernel) {
  const int n = r.n;
  const auto ha = RandomFloats(size_t(n), r.seed);
  const auto hb = RandomFloats(size_t(n), r.seed + 1);
  const dim3 grid(CeilDiv(n, kIterations), CeilDiv(n, kIterations));
  double sum = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) sum += std::fabs(double(ha[i]) - double(hb[j]));
  // The kernels add non-negative floats in an order the atomics decide. Summing m
  // non-negative terms in float, in any order, is off by at most (m - 1) * 2^-24 of the sum
  // (Higham, Accuracy and Stability of Numerical Algorithms, 4.2), plus 2^-24 per term for
  // rounding |a - b|. The longest chain of additions is a thread's 32 terms, its 5 shuffle
  // steps, then one atomic per thread (or per warp) of the launch: m is at most
  // 32 + 5 + grid threads.
  const double m = double(kIterations + 5) + double(grid.x) * grid.y * kIterations;
  const double tol = (m + 1) * std::ldexp(1.0, -24);
  const std::vector<float> zero{0.0f};
  return RunVariant(b, r, {kIterations, 1, "one warp, one thread per element of the 32-element tile"}, grid, kernel,
                    size_t(kIterations), size_t(n), Input("a", ha, 1, n), Input("b", hb, 1, n),
                    InPlace("ans", zero, 1, 1, std::vector<float>{float(sum)}, tol));
}
