// divergence (seed 003): a data-dependent branch inside a warp, and the seed's branch-free
// rewrite with stride-2 loops. The lesson, its CPU reference and the launch both variants
// share; each variant is a .cuh of this folder (kernels/declare.h).
constexpr unsigned kBlock = 256;      // threads per block (the seed does not say)
constexpr unsigned kMaxBlocks = 1024; // grid-stride loop: at most 256 Ki threads in flight

WS_FAMILY(.order = 3, .title = "Branch divergence vs strided access",
          .story = "A branch on the data switches off half of a warp's lanes at a time; splitting the "
                   "work into two loops by index keeps every lane busy but reads with stride 2.",
          // Teaching 4096: 2 blocks, each thread 8 iterations of the grid-stride loop.
          // Timing 64 Mi ints, as measured in DESIGN.md. Simulation cap 16 Mi.
          .teaching_n = 4096, .timing_n = 64 << 20, .max_sim_n = 16 << 20,
          .size_meaning = "n ints (drawn 32 to a row: one 128-byte line)",
          // Each int read once and written once; one update per element.
          .work = [](double n) { return Work{2.0 * n * sizeof(int), n, "elements"}; });

// The grid: enough blocks for 8 elements per thread, at most kMaxBlocks.
inline unsigned Blocks(int n) {
  unsigned blocks = CeilDiv(n, kBlock * 8);
  return blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks);
}

// Runs kernel(array, n) over random non-zero ints whose parity is their index's (so that both
// variants do the same work: even values sit at even indices) and checks the CPU's answer: even
// values doubled, odd ones halved.
template <class K>
Check RunDivergence(Backend& b, const RunRequest& r, K kernel) {
  const int n = r.n;
  auto host = RandomInts(size_t(n), r.seed, -1000, 1000);
  for (int i = 0; i < n; ++i) host[i] = 2 * host[i] + (i % 2);
  std::vector<int> want(host);
  for (auto& v : want) v = v % 2 == 0 ? v * 2 : v / 2;
  const dim3 grid(Blocks(n));
  // 1-D: the view wraps the array at 128-byte lines.
  return RunVariant(b, r, {kBlock, 1, "the family's fixed grid-stride launch"}, grid, kernel,
                    InPlace("array", host, 1, n, want), n);
}
