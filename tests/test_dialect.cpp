// The teaching dialect's constructs in textbook kernels (tests/textbook.cuh) through the
// simulator: the results against the CPU, counters worked out by hand, no findings where the
// code is correct, shared arrays named after their variables.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/common.h"
#include "kernels/sim_backend.h"
#include "sim/dialect.h"
#include "sim/engine.h"
#include "tests/textbook_cpu.h"

namespace textbook {
using namespace ::ws::dialect;
#include "tests/textbook.cuh"
}  // namespace textbook

// A block's slice of x into shared memory, zero past n, written two ways: a condition inside the
// statement, and a branch before it. Thread 0 then adds the slice's first and last element.
namespace split {
using namespace ::ws::dialect;
__global__ void in_statement(Global<const float> x, Global<float> out, int n) {
  __shared__ Shared<float[256]> s;
  const int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  s[tid] = (i < n) ? x[i] : 0.0f;
  __syncthreads();
  if (tid == 0) out[blockIdx.x] = s[0] + s[255];
}
__global__ void as_branch(Global<const float> x, Global<float> out, int n) {
  __shared__ Shared<float[256]> s;
  const int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  float v = 0.0f;
  if (i < n) v = x[i];
  s[tid] = v;
  __syncthreads();
  if (tid == 0) out[blockIdx.x] = s[0] + s[255];
}
}  // namespace split

namespace {
using namespace ::textbook_cpu;
using ::ws::dialect::dim3;
using ::ws::sim::Counters;
using ::ws::sim::FindingKind;
using ::ws::sim::Op;
using ::ws::sim::Space;
using ::ws::sim::Trace;
constexpr int kLd = int(Op::Load), kSt = int(Op::Store), kAtom = int(Op::Atomic), kRed = int(Op::Reduction);

::ws::sim::LaunchOptions WithSources() {
  ::ws::sim::LaunchOptions o;
  // The compiler may record "../tests/textbook.cuh" (a build-relative path): read it from the
  // source tree.
  o.source_text = [](const std::string& file) {
    const auto at = file.rfind("tests/");
    std::ifstream in(at == std::string::npos ? file : WARPSCOPE_SOURCE_DIR "/" + file.substr(at));
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  return o;
}

// One simulated launch: arrays through the simulator's back end, the trace afterwards.
struct Sim {
  ::ws::sim::Engine engine{WithSources()};
  ::ws::kernels::SimBackend b{engine};
  const Trace& trace() const { return engine.trace(); }
  const Counters& c() const { return engine.trace().total; }
  void ExpectNoFindings() const {
    for (const auto& f : trace().findings) ADD_FAILURE() << f.message;
  }
  // The names the shared arrays got.
  std::vector<std::string> SharedNames() const {
    std::vector<std::string> names;
    for (const auto& a : trace().arrays)
      if (a.space == Space::Shared) names.push_back(a.name);
    return names;
  }
  // Instructions of the traced warp (warp 0 of block 0) with this op and space.
  int Traced(Op op, Space space) const {
    int n = 0;
    for (const auto& ins : trace().instructions) n += ins.op == op && ins.space == space;
    return n;
  }
};

// One of the histogram kernels on n = 10000 random bytes, 4 blocks of 256 threads.
void Histogram(Sim& s, void (*kernel)(::ws::dialect::Global<const unsigned char>, long,
                                      ::ws::dialect::Global<unsigned>), unsigned seed) {
  const long n = 10000;
  std::vector<unsigned> want;
  const auto bytes = HistogramInput(n, seed, &want);
  auto buffer = s.b.Upload<const unsigned char>("buffer", "unsigned char", bytes, 1, n);
  auto histo = s.b.Upload<unsigned>("histo", "unsigned", std::vector<unsigned>(256, 0), 1, 256);
  s.b.Launch(dim3(4), dim3(256), kernel, buffer, n, histo);
  EXPECT_EQ(s.b.Download(histo), want);
}

}  // namespace

// ---- histogram ---------------------------------------------------------------------------------
// n = 10000 bytes, 4 blocks of 256 threads, stride 1024. Warp g = 0..31 of the grid reads
// 32 g + 1024 k: 10 iterations for 32 g + 9216 < 10000 (g <= 24), 9 for g = 25..31: 25 x 10 +
// 7 x 9 = 313 warp iterations, each one 1-byte load (32 bytes from a 32-byte boundary: 1
// request, 1 sector; the last, 9984..9999, half a sector) and one shared atomic. Per block:
// 8 shared stores (temp[threadIdx.x] = 0) and 8 loads (temp[threadIdx.x] into the final
// atomicAdd, whose result is unused: 8 RED). Shared: 4 x 16 + 313 = 377 instructions.
TEST(Dialect, SharedHistogramCountsWithSharedAtomicsOnALoadedSubscript) {
  Sim s;
  Histogram(s, textbook::histo_shared, 9);
  EXPECT_EQ(s.c().global_requests[kLd], 313u);
  EXPECT_EQ(s.c().global_sectors[kLd], 313u);
  EXPECT_EQ(s.c().global_requests[kRed], 32u);
  EXPECT_EQ(s.c().global_requests[kAtom], 0u);
  EXPECT_EQ(s.c().SharedInst(), 377u);
  // Warp 0 of block 0 runs 10 iterations: 10 shared atomics (ATOMS).
  EXPECT_EQ(s.Traced(Op::Atomic, Space::Shared), 10);
  EXPECT_EQ(s.SharedNames(), std::vector<std::string>{"temp"});
  s.ExpectNoFindings();
}

// The same loop with global atomics: 313 loads (as above) and 313 RED (result unused).
TEST(Dialect, GlobalHistogramTakesALoadedValueAsSubscript) {
  Sim s;
  Histogram(s, textbook::histo_global, 10);
  EXPECT_EQ(s.c().global_requests[kLd], 313u);
  EXPECT_EQ(s.c().global_sectors[kLd], 313u);
  EXPECT_EQ(s.c().global_requests[kRed], 313u);
  EXPECT_EQ(s.c().global_requests[kAtom], 0u);
  s.ExpectNoFindings();
}

// ---- 1-D stencil with extern __shared__ ------------------------------------------------------------
namespace {
constexpr int kRadius = 3;
struct Stencil {
  Sim s;
  std::vector<int> want;
  std::vector<int> got;
};
// n = 1024 (4 blocks of 256: the textbook kernel has no bounds check); `in` is padded with
// kRadius ints on each side and the kernel gets a pointer kRadius elements in.
void RunStencil(Stencil& r, size_t shared_bytes) {
  const int n = 1024;
  const auto padded = StencilInput(n, kRadius, &r.want);
  auto in = r.s.b.Upload<const int>("in", "int", padded, 1, padded.size());
  auto out = r.s.b.Alloc<int>("out", "int", n, 1, n);
  r.s.b.Launch(dim3(n / 256), dim3(256), shared_bytes, textbook::stencil_1d, in + kRadius, out);
  r.got = r.s.b.Download(out);
}
}  // namespace

// Per block of 8 warps: shared stores temp[lindex] (8) and the two halo stores of lanes 0-2 of
// warp 0 (2), 10 in all; shared loads: 7 per warp (offsets -3..3), 56; each instruction reads or
// writes consecutive words, one wavefront. Global loads: in[gindex] starts 12 bytes past a
// 128-byte line, so a warp's 128 bytes span 5 sectors (8 x 5 = 40); the halo loads of lanes 0-2
// read 12 bytes within one sector each (2). Stores: out[gindex], aligned, 4 sectors a warp.
// Four blocks: shared 224 loads / 40 stores, global 40 loads in 168 sectors, 32 stores in 128.
TEST(Dialect, StencilWindowInExternSharedSizedByTheLaunch) {
  Stencil r;
  RunStencil(r, (256 + 2 * kRadius) * sizeof(int));
  EXPECT_EQ(r.got, r.want);
  const auto& c = r.s.c();
  EXPECT_EQ(c.shared_inst[0], 224u);
  EXPECT_EQ(c.shared_wavefronts[0], 224u);
  EXPECT_EQ(c.shared_inst[1], 40u);
  EXPECT_EQ(c.shared_wavefronts[1], 40u);
  EXPECT_EQ(c.global_requests[kLd], 40u);
  EXPECT_EQ(c.global_sectors[kLd], 168u);
  EXPECT_EQ(c.global_requests[kSt], 32u);
  EXPECT_EQ(c.global_sectors[kSt], 128u);
  EXPECT_EQ(r.s.trace().barriers, 4u);
  EXPECT_EQ(r.s.SharedNames(), std::vector<std::string>{"temp"});
  for (const auto& a : r.s.trace().arrays) {
    if (a.space == Space::Shared) { EXPECT_EQ(a.count, 262u); }  // (256 + 6) ints
  }
  r.s.ExpectNoFindings();
}

// A launch without room for the halo (256 ints): the right halo and the last threads' window
// fall outside the extern array, which the simulator reports as it does for any array.
TEST(Dialect, ExternSharedTooSmallForTheWindowIsOutOfBounds) {
  Stencil r;
  RunStencil(r, 256 * sizeof(int));
  bool oob = false;
  for (const auto& f : r.s.trace().findings) oob |= f.kind == FindingKind::OutOfBounds;
  EXPECT_TRUE(oob);
}

// ---- shuffles --------------------------------------------------------------------------------

// n = 1000, 2 blocks of 128: 8 warps, stride 256; warp g reads 32 g + 256 k for k = 0..3 (the
// last, 992 + l, still has lanes 0-7): 32 loads, every element once (125 sectors). Five
// shuffles per warp move no memory; lane 0 of each warp adds with an unused result: 8 RED.
TEST(Dialect, WarpReductionWithShuffleDown) {
  double sum = 0;
  const auto host = Digits(1000, 5, &sum);
  Sim s;
  auto in = s.b.Upload<const float>("in", "float", host, 1, 1000);
  auto out = s.b.Upload<float>("out", "float", std::vector<float>{0.0f}, 1, 1);
  s.b.Launch(dim3(2), dim3(128), textbook::reduce_warp_atomic, in, out, 1000);
  EXPECT_EQ(s.b.Download(out)[0], float(sum));
  EXPECT_EQ(s.c().global_requests[kLd], 32u);
  EXPECT_EQ(s.c().global_sectors[kLd], 125u);
  EXPECT_EQ(s.c().global_requests[kRed], 8u);
  EXPECT_EQ(s.c().global_requests[kAtom], 0u);
  EXPECT_EQ(s.c().SharedInst(), 0u);
  s.ExpectNoFindings();
}

// The block reduction: its shared array, declared in the helper, is named after its variable.
// Per block of 128: 4 stores (lane 0 of each warp), 1 load (warp 0; lanes 0-3 in range); the
// loads as above: 32, 125 sectors; 2 stores of one partial sum each.
TEST(Dialect, BlockReductionNamesTheHelpersSharedArray) {
  double sum = 0;
  const auto host = Digits(1000, 6, &sum);
  Sim s;
  auto in = s.b.Upload<const float>("in", "float", host, 1, 1000);
  auto out = s.b.Alloc<float>("out", "float", 2, 1, 2);
  s.b.Launch(dim3(2), dim3(128), textbook::reduce_block, in, out, 1000);
  const auto partial = s.b.Download(out);
  EXPECT_EQ(double(partial[0]) + partial[1], sum);
  EXPECT_EQ(s.c().shared_inst[0], 2u);
  EXPECT_EQ(s.c().shared_inst[1], 8u);
  EXPECT_EQ(s.c().global_requests[kLd], 32u);
  EXPECT_EQ(s.c().global_requests[kSt], 2u);
  EXPECT_EQ(s.SharedNames(), std::vector<std::string>{"shared"});
  s.ExpectNoFindings();
}

// ---- compaction with ballot, popc, ffs and __activemask -----------------------------------------

// 8 blocks of 128: 32 warps, each with lanes in range (the last holds 992..999) and with kept
// lanes: 32 loads (125 sectors), 32 ATOM (the leader's atomicAdd, result used), 32 stores.
TEST(Dialect, BallotCompactionKeepsEveryPositiveElement) {
  const auto host = SignedInput();
  Sim s;
  auto in = s.b.Upload<const int>("in", "int", host, 1, 1000);
  auto out = s.b.Alloc<int>("out", "int", 1000, 1, 1000);
  auto count = s.b.Upload<unsigned>("count", "unsigned", std::vector<unsigned>{0}, 1, 1);
  s.b.Launch(dim3(8), dim3(128), textbook::compact_ballot, in, out, count, 1000);
  const unsigned kept = s.b.Download(count)[0];
  ASSERT_EQ(kept, 666u);
  auto got = s.b.Download(out);
  got.resize(kept);
  EXPECT_EQ(Sorted(got), Sorted(Positive(host)));
  EXPECT_EQ(s.c().global_requests[kLd], 32u);
  EXPECT_EQ(s.c().global_sectors[kLd], 125u);
  EXPECT_EQ(s.c().global_requests[kAtom], 32u);
  EXPECT_EQ(s.c().global_requests[kRed], 0u);
  EXPECT_EQ(s.c().global_requests[kSt], 32u);
  s.ExpectNoFindings();
}

// The warp-aggregated increment inside `if (i < n && src[i] > 0)`: __activemask() is the lanes
// that took the branch. Loads: src[i] for the test (32, 125 sectors) and again for the store
// (32; every 8-int sector holds a kept element: 125); one ATOM per warp; 32 stores.
TEST(Dialect, WarpAggregatedAtomicWithActivemask) {
  const auto host = SignedInput();
  Sim s;
  auto src = s.b.Upload<const int>("src", "int", host, 1, 1000);
  auto dst = s.b.Alloc<int>("dst", "int", 1000, 1, 1000);
  auto nres = s.b.Upload<int>("nres", "int", std::vector<int>{0}, 1, 1);
  s.b.Launch(dim3(8), dim3(128), textbook::filter_aggregated, dst, nres, src, 1000);
  const int kept = s.b.Download(nres)[0];
  ASSERT_EQ(kept, 666);
  auto got = s.b.Download(dst);
  got.resize(kept);
  EXPECT_EQ(Sorted(got), Sorted(Positive(host)));
  EXPECT_EQ(s.c().global_requests[kLd], 64u);
  EXPECT_EQ(s.c().global_sectors[kLd], 250u);
  EXPECT_EQ(s.c().global_requests[kAtom], 32u);
  EXPECT_EQ(s.c().global_requests[kSt], 32u);
  s.ExpectNoFindings();
}

// ---- atomics -------------------------------------------------------------------------------------
// One block of 64 (2 warps): each warp makes one global atomicAdd with its result used (ATOM)
// and one shared; thread 0 initialises and reads the counter (1 store, 1 load): 2 ATOM, 4
// shared instructions. The old values are 0..63 in some order, the counters end at 64.
template <class T>
void AtomicCounts() {
  Sim s;
  auto g = s.b.Upload<T>("g", "T", std::vector<T>{T(0)}, 1, 1);
  auto g_olds = s.b.Alloc<T>("g_olds", "T", 64, 1, 64);
  auto s_olds = s.b.Alloc<T>("s_olds", "T", 64, 1, 64);
  auto s_final = s.b.Alloc<T>("s_final", "T", 1, 1, 1);
  s.b.Launch(dim3(1), dim3(64), textbook::atomic_counts<T>, g, g_olds, s_olds, s_final);
  std::vector<T> seq(64);
  for (int i = 0; i < 64; ++i) seq[i] = T(i);
  EXPECT_EQ(Sorted(s.b.Download(g_olds)), seq);
  EXPECT_EQ(Sorted(s.b.Download(s_olds)), seq);
  EXPECT_EQ(s.b.Download(g)[0], T(64));
  EXPECT_EQ(s.b.Download(s_final)[0], T(64));
  EXPECT_EQ(s.c().global_requests[kAtom], 2u);
  EXPECT_EQ(s.c().global_requests[kRed], 0u);
  // A float or double atomicAdd on shared memory is a compare-and-swap loop: with 32 lanes of
  // a warp on one word, 32 rounds of a load and a CAS: 2 warps x 64, plus the 2 others.
  EXPECT_EQ(s.c().SharedInst(), std::is_floating_point_v<T> ? 2u + 2 * 64 : 4u);
  EXPECT_EQ(s.Traced(Op::Atomic, Space::Shared), 1);
  s.ExpectNoFindings();
}

TEST(Dialect, AtomicAddReturnsTheOldValueForEveryType) {
  AtomicCounts<int>();
  AtomicCounts<unsigned>();
  AtomicCounts<unsigned long long>();
  AtomicCounts<float>();
  AtomicCounts<double>();
}

namespace {
// Runs atomic_ops<T, ...> on one block of 64 and checks words 0-9 of global memory and 0-8 of
// shared memory against the CPU. `ops`: the atomics each thread makes on each space, for the
// RED count (2 warps x ops) and the shared instructions (2 x ops, plus the 9 initial stores
// and 9 final loads of warp 0: 1 + 1).
template <class T, bool kInts, bool kSub, bool kIncDec>
void AtomicOps(bool with_negative, int ops) {
  const auto vals = AtomicOperands<T>(with_negative);
  const auto init = AtomicInit<T, kInts>();
  Sim s;
  auto v = s.b.Upload<const T>("vals", "T", vals, 1, 64);
  auto g = s.b.Upload<T>("g", "T", init, 1, 10);
  auto out = s.b.Alloc<T>("s_out", "T", 9, 1, 9);
  s.b.Launch(dim3(1), dim3(64), textbook::atomic_ops<T, kInts, kSub, kIncDec>, v, g, out);
  const auto want = AtomicWant<T, kInts, kSub, kIncDec>(init, vals);
  ExpectAtomicWords(vals, want, s.b.Download(g), s.b.Download(out));
  EXPECT_EQ(s.c().global_requests[kRed], uint64_t(2 * ops));
  EXPECT_EQ(s.c().SharedInst(), uint64_t(2 * ops + 2));
  s.ExpectNoFindings();
}

}  // namespace

// The atomics CUDA has: sub/min/max/and/or/xor/exch for int (7), all nine for unsigned (inc
// and dec with bound 5: 64 steps from 0 end at 64 mod 6 = 4 and at 0 -> 5 -> .. -> 2), no sub
// for unsigned long long (6), only exch among these for float (1).
TEST(Dialect, EveryAtomicOnGlobalAndSharedMatchesTheCpu) {
  AtomicOps<int, true, true, false>(true, 7);
  AtomicOps<unsigned, true, true, true>(false, 9);
  AtomicOps<unsigned long long, true, false, false>(false, 6);
  AtomicOps<float, false, false, false>(true, 1);
}

// ---- integer intrinsics and votes ----------------------------------------------------------------
// Two warps of random words, with a 0 in warp 0 (lane 5) and 0x80000000 in warp 1 (lane 8).
TEST(Dialect, IntegerIntrinsicsVotesAndActivemask) {
  const auto in = BitWords();
  Sim s;
  auto g_in = s.b.Upload<const unsigned>("in", "unsigned", in, 1, 64);
  auto out = s.b.Alloc<int>("out", "int", 6 * 64, 64, 6);
  s.b.Launch(dim3(1), dim3(64), textbook::bit_intrinsics, g_in, out);
  EXPECT_EQ(s.b.Download(out), BitResults(in));
  s.ExpectNoFindings();
}

// ---- macros in kernel files ----------------------------------------------------------------------
namespace {
// "NAME" for a line `# define NAME ...` when `directive` is "define" (spaces allowed around #).
std::string Directive(const std::string& line, const std::string& directive) {
  size_t p = line.find_first_not_of(" \t");
  if (p == std::string::npos || line[p] != '#') return {};
  p = line.find_first_not_of(" \t", p + 1);
  if (p == std::string::npos || line.compare(p, directive.size(), directive) != 0) return {};
  p = line.find_first_not_of(" \t", p + directive.size());
  size_t end = p;
  while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) ++end;
  return p == std::string::npos ? std::string() : line.substr(p, end - p);
}
}  // namespace

// Every family's variants (.cuh) and family.inl files are compiled in one translation unit per
// back end, so a macro one kernel file defines would reach every file after it: each #define
// needs an #undef of the same name later in the same file.
TEST(Dialect, EveryKernelFileUndefinesItsMacros) {
  namespace fs = std::filesystem;
  int files = 0;
  for (const char* dir : {"kernels", "tests"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(WARPSCOPE_SOURCE_DIR) / dir)) {
      if (entry.path().extension() != ".cuh" && entry.path().extension() != ".inl") continue;
      ++files;
      std::ifstream in(entry.path());
      std::vector<std::pair<std::string, int>> open;  // macro, line
      std::string line;
      for (int no = 1; std::getline(in, line); ++no) {
        if (auto name = Directive(line, "define"); !name.empty()) open.emplace_back(name, no);
        if (auto name = Directive(line, "undef"); !name.empty())
          std::erase_if(open, [&](const auto& d) { return d.first == name; });
      }
      for (const auto& [name, no] : open)
        ADD_FAILURE() << entry.path().string() << ":" << no << ": #define " << name
                      << " without an #undef " << name << " at the end of the file";
    }
  }
  EXPECT_GT(files, 10);  // the catalog's variants and the test kernels were found
}

// LaunchShape numbers blocks and threads x fastest and cuts a block into warps of 32, the last
// one partial (CUDA C++ Programming Guide, "Thread Hierarchy"); the figures are worked by hand.
TEST(LaunchShape, WarpsPerBlockAndLinearIds) {
  ws::sim::LaunchShape s{{4, 3, 2}, {16, 16, 1}};
  EXPECT_EQ(s.WarpsPerBlock(), 8u);                  // 256 threads / 32
  EXPECT_EQ(s.BlockId({1, 2, 1}), 21u);              // 1 + 4 * (2 + 3 * 1)
  EXPECT_EQ(s.ThreadId({3, 2, 0}), 35u);             // 3 + 16 * 2
  ws::sim::LaunchShape odd{{1, 1, 1}, {33, 1, 1}};
  EXPECT_EQ(odd.WarpsPerBlock(), 2u);                // 32 + 1
}

// ---- one statement, two paths ----------------------------------------------------------------
// n = 1000 in 4 blocks of 256: 32 warps; warp 7 of block 3 holds i = 992..1023, 8 of them below
// n. Its lanes split at the condition, yet every lane reaches the one store of the statement:
// the hardware issues it once per warp, 32 shared stores (and 8 loads: s[0] and s[255] in each
// block). The load of x: one request per warp, all 32 warps have a lane below n. Written as a
// branch before the statement, the same counts.
TEST(Dialect, AConditionInsideAStatementIssuesItsStoreOncePerWarp) {
  for (auto kernel : {split::in_statement, split::as_branch}) {
    Sim s;
    const auto x = ::ws::kernels::RandomFloats(1000, 5);
    auto gx = s.b.Upload<const float>("x", "float", x, 1, 1000);
    auto out = s.b.Alloc<float>("out", "float", 4, 1, 4);
    s.b.Launch(dim3(4), dim3(256), kernel, gx, out, 1000);
    EXPECT_EQ(s.c().shared_inst[kSt], 32u) << (kernel == split::in_statement ? "in the statement" : "as a branch");
    EXPECT_EQ(s.c().shared_inst[kLd], 8u);
    EXPECT_EQ(s.c().global_requests[kLd], 32u);
    EXPECT_EQ(s.c().global_requests[kSt], 4u);
    const auto got = s.b.Download(out);
    EXPECT_EQ(got[3], x[768] + 0.0f);  // block 3: s[0] = x[768], s[255] past n: 0
    EXPECT_EQ(got[0], x[0] + x[255]);
    s.ExpectNoFindings();
  }
}

// Arrays bound after a launch that used shared memory: the launch's shared array took an id
// (x 0, out 1, s 2), so the second launch's arrays are ids 3 and 4 while they are the back end's
// third and fourth. Each launch's result is read from its own array: block b writes
// x[256b] + x[256b + 255] of its own x.
TEST(Dialect, ArraysBoundAfterALaunchWithSharedMemoryReadBackTheirOwnBytes) {
  Sim s;
  const auto x1 = ::ws::kernels::RandomFloats(512, 1), x2 = ::ws::kernels::RandomFloats(512, 2);
  auto g1 = s.b.Upload<const float>("x1", "float", x1, 1, 512);
  auto out1 = s.b.Alloc<float>("out1", "float", 2, 1, 2);
  s.b.Launch(dim3(2), dim3(256), split::in_statement, g1, out1, 512);
  auto g2 = s.b.Upload<const float>("x2", "float", std::vector<float>(512, 0.0f), 1, 512);
  s.b.Fill(g2, x2);
  auto out2 = s.b.Alloc<float>("out2", "float", 2, 1, 2);
  s.b.Launch(dim3(2), dim3(256), split::in_statement, g2, out2, 512);
  EXPECT_EQ(s.b.Download(out1), (std::vector<float>{x1[0] + x1[255], x1[256] + x1[511]}));
  EXPECT_EQ(s.b.Download(out2), (std::vector<float>{x2[0] + x2[255], x2[256] + x2[511]}));
  EXPECT_EQ(s.b.Download(g2), x2);
  s.ExpectNoFindings();
}
