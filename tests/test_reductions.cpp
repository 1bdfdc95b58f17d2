// The textbook reductions (tests/reductions.cuh; reduce4 from tests/fidelity/reductions.cu)
// through the simulator: the partial sums, counters worked out by hand for blocks of 128
// threads, and the race check's findings (none where the code is correct, the lockstep warning
// where it relies on lockstep without volatile).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sim/dialect.h"
#include "sim/engine.h"
#include "tests/source_lines.h"
#include "toolchain/public/kernel_file.h"

namespace reductions {
using namespace ::ws::dialect;
#include "tests/reductions.cuh"
}  // namespace reductions

// reduce4 with and without volatile: the kernel file tests/fidelity/reductions.cu, as the loader
// compiles it (the dialect at its scope), its WS_KERNEL descriptions compiled and left unused.
#define WS_KERNEL(name, ...) \
  [[maybe_unused]] static void ws_describe_##name([[maybe_unused]] ::ws::kernels::KernelSetup<::ws::kernels::SimBackend>& k)
namespace fidelity {
using namespace ::ws::dialect;
using ::ws::kernels::CeilDiv;
#include "tests/fidelity/reductions.cu"
}  // namespace fidelity
#undef WS_KERNEL

namespace {
using ::ws::sim::Engine;
using ::ws::sim::FindingKind;
using ::ws::sim::LaunchShape;
using ::ws::sim::Trace;
using Kernel = void (*)(::ws::dialect::Global<const float>, ::ws::dialect::Global<float>, unsigned);

struct Result {
  Trace trace;
  std::vector<float> partial;
  double expected = 0;  // the CPU's sum of the input
};

// Random integers 1..9 as floats: every partial sum is exact.
Result Reduce(Kernel kernel, unsigned n, unsigned grid) {
  std::mt19937 rng(n * 31 + grid);
  std::uniform_int_distribution<int> digit(1, 9);
  std::vector<float> in(n);
  Result r;
  for (auto& x : in) { x = float(digit(rng)); r.expected += x; }
  r.partial.assign(grid, -1.0f);
  Engine engine;
  const int ia = engine.BindGlobal("in", "float", 4, n, 1, n);
  const int io = engine.BindGlobal("out", "float", 4, grid, 1, grid);
  ::ws::dialect::Global<const float> g_in(in.data(), ia, engine.Array(ia).base, n);
  ::ws::dialect::Global<float> g_out(r.partial.data(), io, engine.Array(io).base, grid);
  engine.Run(LaunchShape{{grid, 1, 1}, {reductions::kBlock, 1, 1}}, [&] { kernel(g_in, g_out, n); });
  r.trace = engine.TakeTrace();
  return r;
}

double Sum(const std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += x;
  return s;
}

unsigned Blocks(unsigned n, unsigned per_block) { return (n + per_block - 1) / per_block; }

// The shared and global counters one launch must show.
struct Expect {
  uint64_t shared_ld, shared_st;        // instructions
  uint64_t shared_ld_wf, shared_st_wf;  // wavefronts
  uint64_t barriers;                    // __syncthreads() passed, over all blocks
  uint64_t global_ld, global_ld_sectors;
};

void Check(const Result& r, const Expect& e, bool expect_findings = false) {
  const auto& c = r.trace.total;
  EXPECT_EQ(Sum(r.partial), r.expected);
  EXPECT_EQ(c.shared_inst[0], e.shared_ld);
  EXPECT_EQ(c.shared_inst[1], e.shared_st);
  EXPECT_EQ(c.shared_wavefronts[0], e.shared_ld_wf);
  EXPECT_EQ(c.shared_wavefronts[1], e.shared_st_wf);
  EXPECT_EQ(r.trace.barriers, e.barriers);
  EXPECT_EQ(c.global_requests[0], e.global_ld);
  EXPECT_EQ(c.global_sectors[0], e.global_ld_sectors);
  // One store of 4 bytes per block, by thread 0.
  EXPECT_EQ(c.global_requests[1], uint64_t(r.partial.size()));
  EXPECT_EQ(c.global_sectors[1], uint64_t(r.partial.size()));
  if (!expect_findings)
    for (const auto& f : r.trace.findings) ADD_FAILURE() << f.message;
}

// Sizes: 1000 (the last block partly filled) and 1024 (a multiple of the block).
// Global loads: every element once, 4 bytes each, contiguous from a 512-byte aligned base:
// n * 4 / 32 sectors rounded up (1000 -> 125, 1024 -> 128); one request per warp that has an
// element to read (with n = 1000 the last warp still has lanes 96-103 of its block).
uint64_t Sectors(unsigned n) { return (uint64_t(n) * 4 + 31) / 32; }

}  // namespace

// reduce0, per block of 128 (4 warps): 4 stores of sdata[tid]; the loop s = 1 .. 64 issues
// 2 loads + 1 store per warp with an active lane: every warp for s <= 16 (5 x 4 warps), warps
// 0 and 2 for s = 32 (tid % 64 == 0), warp 0 for s = 64: 23 warp iterations, 46 loads and
// 23 stores; then tid 0 reads sdata[0]. Active lanes' words are distinct mod 32: no conflict.
// Barriers: 1 + 7 per block.
TEST(Reductions, Reduce0InterleavedDivergentIsConflictFree) {
  for (unsigned n : {1000u, 1024u}) {
    const unsigned b = Blocks(n, 128);  // 8 for both
    Check(Reduce(reductions::reduce0, n, b),
          {47ull * b, 27ull * b, 47ull * b, 27ull * b, 8ull * b, 4ull * b, Sectors(n)});
  }
}

// reduce1: index = 2 s tid. s = 1: tid < 64, warps 0 and 1, even words 2l (and odd 2l + 1):
// lanes l and l + 16 share a bank, 2-way. s = 2, 4, 8, 16: warp 0 alone, 32, 16, 8, 4 lanes
// on 8, 4, 2, 1 banks: 4-way each. s = 32: words 0 and 64 (and 32, 96), 2-way. s = 64: one
// lane. Loads: 2 x 2 x 2 + 4 x 2 x 4 + 2 x 2 + 2 x 1 = 46 wavefronts in 16 instructions, + 1
// for sdata[0]; stores: 2 x 2 + 4 x 4 + 2 + 1 = 23 in 8, + 4 initial stores.
TEST(Reductions, Reduce1InterleavedStridedHasBankConflicts) {
  for (unsigned n : {1000u, 1024u}) {
    const unsigned b = Blocks(n, 128);
    Check(Reduce(reductions::reduce1, n, b),
          {17ull * b, 12ull * b, 47ull * b, 27ull * b, 8ull * b, 4ull * b, Sectors(n)});
  }
}

// reduce2: s = 64 (warps 0 and 1), then 32 .. 1 (warp 0): 8 warp iterations of 2 loads and
// 1 store, contiguous words: one wavefront each. + 4 stores + 1 load.
TEST(Reductions, Reduce2SequentialIsConflictFree) {
  for (unsigned n : {1000u, 1024u}) {
    const unsigned b = Blocks(n, 128);
    Check(Reduce(reductions::reduce2, n, b),
          {17ull * b, 12ull * b, 17ull * b, 12ull * b, 8ull * b, 4ull * b, Sectors(n)});
  }
}

// reduce3: 256 elements per block, two loads per warp (both have lanes in range for n = 1000:
// the last block reads 768 + tid and 896 + tid, tid < 104). Shared work as reduce2.
TEST(Reductions, Reduce3FirstAddDuringLoadHalvesTheBlocks) {
  for (unsigned n : {1000u, 1024u}) {
    const unsigned b = Blocks(n, 256);  // 4
    Check(Reduce(reductions::reduce3, n, b),
          {17ull * b, 12ull * b, 17ull * b, 12ull * b, 8ull * b, 8ull * b, Sectors(n)});
  }
}

// reduce4: the loop runs s = 64 only (2 warps: 4 loads, 2 stores) and one barrier; the
// volatile last warp is 6 steps of 2 loads + 1 store with all 32 lanes (sdata[tid + 16] ..:
// contiguous, one wavefront). Totals as reduce3, but 2 barriers per block instead of 8, and
// no finding: the volatile warp-synchronous idiom.
TEST(Reductions, Reduce4UnrolledLastWarpWithVolatileHasNoFinding) {
  for (unsigned n : {1000u, 1024u}) {
    const unsigned b = Blocks(n, 256);
    const Result r = Reduce(fidelity::reduce4_volatile, n, b);
    Check(r, {17ull * b, 12ull * b, 17ull * b, 12ull * b, 2ull * b, 8ull * b, Sectors(n)});
    // The last warp's 18 shared instructions per block go through the volatile pointer.
    uint64_t vol = 0;
    for (const auto& ins : r.trace.instructions) vol += ins.is_volatile;
    EXPECT_EQ(vol, 18u);  // the trace keeps warp 0 of block 0 (the default selection)
  }
}

// reduce5: completely unrolled for blockSize = 128: the same instructions as reduce4.
TEST(Reductions, Reduce5CompletelyUnrolledMatchesReduce4) {
  for (unsigned n : {1000u, 1024u}) {
    const unsigned b = Blocks(n, 256);
    Check(Reduce(reductions::reduce5<128>, n, b),
          {17ull * b, 12ull * b, 17ull * b, 12ull * b, 2ull * b, 8ull * b, Sectors(n)});
  }
}

// reduce6: 2 blocks, gridSize 512. Block 0 reads tid, 128 + tid, 512 + tid, 640 + tid; block 1
// 256 + tid, 384 + tid, 768 + tid, 896 + tid (for n = 1000 only tid < 104: lanes in all 4
// warps). 4 load instructions per warp per block: 32 requests; every element once.
TEST(Reductions, Reduce6MultipleElementsPerThread) {
  for (unsigned n : {1000u, 1024u}) {
    Check(Reduce(reductions::reduce6<128>, n, 2),
          {17ull * 2, 12ull * 2, 17ull * 2, 12ull * 2, 2ull * 2, 32, Sectors(n)});
  }
}

namespace {
// The text of a file of tests/ ("tests/fidelity/reductions.cu"), by its path there. The site
// records the path the compiler was given, which may be relative to the build folder; the file is
// read from here.
std::string TestFileText(const std::string& file) {
  const size_t at = file.rfind("tests/");
  const std::string in_tests = at == std::string::npos ? std::filesystem::path(file).filename().string() : file.substr(at + 6);
  std::ifstream in(std::string(WARPSCOPE_TESTS_DIR) + "/" + in_tests);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

// reduce4 without volatile: lane l reads sdata[l + 16], written by lane l + 16 on the line
// before, with nothing between; likewise + 8, + 4, + 2, + 1. The + 32 line reads words 32-63,
// written by warp 1 before the barrier: ordered. Five warnings, the right sum in the simulator.
TEST(Reductions, UnrolledLastWarpWithoutVolatileWarnsOnEachLockstepRead) {
  const Result r = Reduce(fidelity::reduce4_plain, 1000, 4);
  EXPECT_EQ(Sum(r.partial), r.expected);  // the simulator's lockstep gives the lockstep value
  std::vector<unsigned> lines;
  std::string file;
  for (const auto& f : r.trace.findings) {
    ASSERT_EQ(f.kind, FindingKind::WarpSyncRace) << f.message;
    EXPECT_NE(f.message.find("without volatile the compiler may keep the values in registers"),
              std::string::npos) << f.message;
    file = r.trace.sites[f.site].file;
    lines.push_back(r.trace.sites[f.site].line);
  }
  std::vector<unsigned> expected;
  for (const char* s : {"sdata[tid + 16]", "sdata[tid + 8]", "sdata[tid + 4]", "sdata[tid + 2]",
                        "sdata[tid + 1]"})
    expected.push_back(ws::test::LineOf(TestFileText(file), s, "void reduce4_plain("));
  EXPECT_EQ(lines, expected);
  EXPECT_NE(expected[0], 0u);
}

// reduce4 with __syncwarp between every read and write: ordered, no finding. Shared work:
// s = 64 (4 loads, 2 stores); the last warp reads sdata[tid] once, then 6 loads and 6 stores.
TEST(Reductions, UnrolledLastWarpWithSyncwarpHasNoFinding) {
  for (unsigned n : {1000u, 1024u}) {
    const unsigned b = Blocks(n, 256);
    Check(Reduce(reductions::reduce4_syncwarp, n, b),
          {12ull * b, 12ull * b, 12ull * b, 12ull * b, 2ull * b, 8ull * b, Sectors(n)});
  }
}
