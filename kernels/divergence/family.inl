// divergence (seed 003): a data-dependent branch inside a warp, and the seed's branch-free
// rewrite with stride-2 loops. Included once per back end, inside that back end's namespace,
// with the dialect in scope.
namespace divergence {

#include "kernels/divergence/divergent.cuh"
#include "kernels/divergence/split.cuh"

constexpr unsigned kBlock = 256;      // threads per block (the seed does not say)
constexpr unsigned kMaxBlocks = 1024; // grid-stride loop: at most 256 Ki threads in flight

inline FamilyInfo Info() {
  return {"divergence", "Branch divergence vs strided access",
          "A branch on the data switches off half of a warp's lanes at a time; splitting the "
          "work into two loops by index keeps every lane busy but reads with stride 2.",
          // Teaching 4096: 2 blocks, each thread 8 iterations of the grid-stride loop.
          // Timing 64 Mi ints, as measured in DESIGN.md. Simulation cap 16 Mi.
          4096, 64 << 20, 16 << 20, "n ints (drawn 32 to a row: one 128-byte line)",
          {{"divergent", "Branch on the value's parity",
            "Even lanes run one branch, odd lanes the other: each branch store has 16 of 32 "
            "lanes active.",
            "kernels/divergence/divergent.cuh",
            "nvcc predicates this branch away: each iteration is one 32-lane load and one 32-lane "
            "store (a select picks *2 or /2), not two half-warp branches. The simulator shows the "
            "branch as written; divergence costs less on the GPU than the picture suggests."},
           {"split", "Two loops, by index parity",
            "No divergence; each request reads every second int: 8 sectors for 4 sectors of data.",
            "kernels/divergence/split.cuh"}}};
}

inline Work WorkFor(int n) { return {2.0 * double(n) * sizeof(int), double(n), "elements"}; }

// The grid: enough blocks for 8 elements per thread, at most kMaxBlocks.
inline unsigned Blocks(int n) {
  unsigned blocks = CeilDiv(n, kBlock * 8);
  return blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks);
}

template <class B>
Check Run(B& b, const std::string& variant, const RunRequest& r) {
  const int n = r.n;
  RequireBlock(r.block, kBlock, 1, "the family's fixed grid-stride launch");
  // Random non-zero ints whose parity is their index's, so that both variants do the same
  // work: even values sit at even indices.
  auto host = RandomInts(size_t(n), r.seed, -1000, 1000);
  for (int i = 0; i < n; ++i) host[i] = 2 * host[i] + (i % 2);
  const unsigned cols = n < 32 ? unsigned(n) : 32u;  // a row is one 128-byte line
  auto array = b.template Upload<int>("array", "int", host, CeilDiv(n, cols), cols);
  const dim3 grid(Blocks(n)), block(kBlock);
  if (variant == "divergent") b.Launch(grid, block, divergent, array, n);
  else if (variant == "split") b.Launch(grid, block, split, array, n);
  else throw BadRequest("divergence has no variant '" + variant + "'");
  std::vector<int> want(host);
  for (auto& v : want) v = v % 2 == 0 ? v * 2 : v / 2;
  return Compare(b.Download(array), want);
}

}  // namespace divergence
