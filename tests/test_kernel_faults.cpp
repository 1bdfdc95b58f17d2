// Kernel faults and hangs are findings and the program survives them: small buggy kernels (as
// students write them) that overflow their stack, divide by zero, loop forever or launch
// absurdly, each checked for its finding's kind, line and message, and for a clean launch after.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

#include "sim/dialect.h"
#include "sim/engine.h"
#include "sim/finding_text.h"

namespace kernel_faults {
using namespace ::ws::dialect;
using ::ws::sim::Engine;
using ::ws::sim::Finding;
using ::ws::sim::FindingKind;
using ::ws::sim::FindingScope;
using ::ws::sim::LaunchOptions;
using ::ws::sim::LaunchShape;
using ::ws::sim::RunControl;

// ---- buggy kernels, in the dialect; each k...Line is the line its finding must name ----
constexpr int kRecurseLine = __LINE__ + 4;
__device__ float Recurse(Global<float> out, int depth) {
  volatile float pad[256];  // 1 KiB a level: 1 MiB of stack is gone after about 1000 levels
  pad[0] = float(depth);
  out[threadIdx.x] = float(pad[0]);
  if (depth > 1000000) return 0.0f;  // never reached: the stack ends long before
  return Recurse(out, depth + 1) + pad[0];
}
__global__ void RecursesForever(Global<float> out) { out[threadIdx.x] = Recurse(out, 0); }

// The 2 MiB frame is made as the kernel starts, before its first line runs.
__global__ void TwoMegabyteLocalArray(Global<float> out) {
  out[threadIdx.x] = 1.0f;
  volatile float local[512 * 1024];  // 2 MiB, more than a thread's 1 MiB
  for (int i = 0; i < 512 * 1024; i += 1024) local[i] = float(i);
  out[threadIdx.x] = float(local[threadIdx.x * 1024]);
}

// 400 KB of local memory is legal on a GPU (the limit is 512 KiB) and must simply work.
__global__ void FourHundredKilobyteLocalArray(Global<const float> in, Global<float> out) {
  volatile float local[100000];
  for (int i = 0; i < 100000; ++i) local[i] = float(i % 977);
  out[threadIdx.x] = local[threadIdx.x * 3001] + in[threadIdx.x];
}

constexpr int kDivideLine = __LINE__ + 4;
__attribute__((no_sanitize("integer-divide-by-zero")))  // the trap is what is tested
__global__ void DividesByZero(Global<int> out, int divisor) {
  const int i = threadIdx.x;
  out[i] = i;
  out[i] = (i + 7) / divisor;
}

__global__ void WritesThroughAWildPointer(Global<float> out) {
  out[threadIdx.x] = 1.0f;
  volatile uintptr_t where = 64;  // a raw address no array owns
  volatile float* wild = reinterpret_cast<volatile float*>(uintptr_t(where));
  *wild = 2.0f;
}

constexpr int kSpinLine = __LINE__ + 2;
__global__ void SpinsWithoutMemory(Global<float> out) {
  out[threadIdx.x] = 1.0f;
  while (true) {
  }
}

constexpr int kStrideLine = __LINE__ + 4;
__global__ void GridStrideWithoutIncrement(Global<const float> in, Global<float> out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) {
    out[i] = in[i] * 2.0f;  // i += blockDim.x * gridDim.x is missing
  }
}

constexpr int kUninitLine = __LINE__ + 5;
__global__ void ReadsSharedOnlyBlockZeroWrote(Global<float> out) {
  __shared__ Shared<float[64]> buf;
  if (blockIdx.x == 0) buf[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = buf[threadIdx.x];
}

constexpr int kShuffleLine = __LINE__ + 3;
__global__ void ShufflesWithHalfAMask(Global<float> out) {
  float v = float(threadIdx.x);
  v = __shfl_sync(0x0000ffffu, v, 0);
  out[threadIdx.x] = v;
}

constexpr int kNullLine = __LINE__ + 3;
__global__ void WritesThroughANullGlobal(Global<float> out) {
  Global<float> nowhere;
  nowhere[threadIdx.x] = 1.0f;
  out[threadIdx.x] = 2.0f;
}

__global__ void ReadsRepeatedly(Global<const float> in, Global<float> out, int times) {
  float sum = 0.0f;
  for (int k = 0; k < times; ++k) sum += in[threadIdx.x];
  out[threadIdx.x] = sum;
}

__global__ void CopiesTimesTwo(Global<const float> in, Global<float> out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2.0f;
}

// ---- helpers ----
std::vector<float> RandomFloats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

struct Arrays {
  Engine engine;
  std::vector<float> a, b;
  Global<const float> in;
  Global<float> out;
  Arrays(size_t n, LaunchOptions o = {}) : engine(std::move(o)), a(RandomFloats(n, 7)), b(n, -1.0f) {
    const int ia = engine.BindGlobal("in", "float", 4, n, 1, n);
    const int ib = engine.BindGlobal("out", "float", 4, n, 1, n);
    in = Global<const float>(a.data(), ia, engine.Array(ia).base, n);
    out = Global<float>(b.data(), ib, engine.Array(ib).base, n);
  }
};

LaunchShape Shape(unsigned grid, unsigned block) { return {{grid, 1, 1}, {block, 1, 1}}; }

const Finding* Only(const Engine& e, FindingKind kind) {
  const auto& f = e.trace().findings;
  for (const auto& x : f)
    if (x.kind == kind) return &x;
  return nullptr;
}

int LineOf(const Engine& e, const Finding& f) {
  return f.site >= 0 ? int(e.trace().sites[f.site].line) : -1;
}

// After any fault, the process goes on and a clean launch computes the right result
// (n = 100, not a multiple of the 32-thread block).
void ExpectACleanLaunchWorks() {
  Arrays a(100);
  ASSERT_TRUE(a.engine.Run(Shape(4, 32), [&] { CopiesTimesTwo(a.in, a.out, 100); }));
  EXPECT_TRUE(a.engine.trace().findings.empty());
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.b[i], a.a[i] * 2.0f) << i;
}

bool Has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The finding's one text, as stats, --json and the GUI's banner say it.
std::string Text(const Engine& e, const Finding& f) { return ws::sim::FindingText(e.trace(), f); }

}  // namespace kernel_faults

using namespace kernel_faults;

TEST(KernelFaults, DeepRecursionIsAStackOverflowAtTheLastLineItReached) {
  Arrays a(64);
  EXPECT_FALSE(a.engine.Run(Shape(1, 32), [&] { RecursesForever(a.out); }));
  const Finding* f = Only(a.engine, FindingKind::StackOverflow);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(LineOf(a.engine, *f), kRecurseLine);
  EXPECT_EQ(f->thread.x, 0u);  // lane 0 runs first and overflows first
  // The place (line, block, thread, the faulting address) comes first, then what happened.
  EXPECT_TRUE(Has(Text(a.engine, *f), "error [stack-overflow] line " + std::to_string(kRecurseLine) +
                                          ", block (0,0,0), thread (0,0,0), address 0x"))
      << Text(a.engine, *f);
  EXPECT_TRUE(Has(f->message, "the thread's stack overflowed at this line or after it")) << f->message;
  EXPECT_TRUE(Has(f->message, "the simulator gives each thread 1048576 bytes")) << f->message;
  ExpectACleanLaunchWorks();
}

TEST(KernelFaults, ALocalArrayLargerThanTheStackIsAStackOverflow) {
  for (int round = 0; round < 2; ++round) {  // twice: the handler works again after the first
    Arrays a(64);
    EXPECT_FALSE(a.engine.Run(Shape(1, 32), [&] { TwoMegabyteLocalArray(a.out); }));
    const Finding* f = Only(a.engine, FindingKind::StackOverflow);
    ASSERT_NE(f, nullptr) << "round " << round;
    EXPECT_EQ(f->site, -1);
    EXPECT_TRUE(Has(Text(a.engine, *f), "error [stack-overflow] block (0,0,0), thread (0,0,0), address 0x"))
        << Text(a.engine, *f);
    EXPECT_TRUE(Has(f->message, "the thread's stack overflowed before its first memory access: it needed "
                                "more than 1048576 bytes"))
        << f->message;
  }
  ExpectACleanLaunchWorks();
}

TEST(KernelFaults, AFourHundredKilobyteLocalArrayFitsAsOnAGpu) {
  Arrays a(64);
  ASSERT_TRUE(a.engine.Run(Shape(1, 32), [&] { FourHundredKilobyteLocalArray(a.in, a.out); }));
  EXPECT_TRUE(a.engine.trace().findings.empty());
  for (int t = 0; t < 32; ++t) EXPECT_EQ(a.b[t], float(t * 3001 % 977) + a.a[t]) << t;
}

TEST(KernelFaults, IntegerDivisionByZeroIsAnArithmeticTrap) {
  std::vector<int> out(32, -1);
  Engine e;
  const int id = e.BindGlobal("out", "int", 4, 32, 1, 32);
  Global<int> g(out.data(), id, e.Array(id).base, 32);
  EXPECT_FALSE(e.Run(Shape(1, 32), [&] { DividesByZero(g, 0); }));
  const Finding* f = Only(e, FindingKind::ArithmeticTrap);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(LineOf(e, *f), kDivideLine);
  EXPECT_TRUE(Has(Text(e, *f), "error [arithmetic-trap] line " + std::to_string(kDivideLine) +
                                   ", block (0,0,0), thread (0,0,0): the thread divided an integer by zero at this "
                                   "line or after it"))
      << Text(e, *f);
  ExpectACleanLaunchWorks();
}

TEST(KernelFaults, AWildPointerIsAMemoryFaultNotACrash) {
  Arrays a(64);
  EXPECT_FALSE(a.engine.Run(Shape(1, 32), [&] { WritesThroughAWildPointer(a.out); }));
  const Finding* f = Only(a.engine, FindingKind::MemoryFault);
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->has_address);
  EXPECT_EQ(f->address, 64u);
  ExpectACleanLaunchWorks();
}

TEST(KernelFaults, ALoopWithoutMemoryAccessIsStoppedByTheWatchdog) {
  LaunchOptions o;
  o.watchdog_seconds = 0.3;
  Arrays a(64, o);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(a.engine.Run(Shape(2, 32), [&] { SpinsWithoutMemory(a.out); }));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Finding* f = Only(a.engine, FindingKind::NoProgress);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(LineOf(a.engine, *f), kSpinLine);
  EXPECT_TRUE(Has(Text(a.engine, *f), "line " + std::to_string(kSpinLine) +
                                          ", block (0,0,0), thread (0,0,0): no progress after 0.3 s of CPU time at "
                                          "this line or after it"))
      << Text(a.engine, *f);
  EXPECT_EQ(f->block.x, 0u);  // the first block never got past its first thread
  EXPECT_LT(s, 30.0);         // stopped, not run forever (a generous bound for a loaded machine)
  ExpectACleanLaunchWorks();
}

TEST(KernelFaults, AGridStrideLoopWithoutItsIncrementRunsOutOfSteps) {
  LaunchOptions o;
  o.progress_budget = 20000;
  Arrays a(100, o);
  EXPECT_FALSE(a.engine.Run(Shape(2, 32), [&] { GridStrideWithoutIncrement(a.in, a.out, 100); }));
  const Finding* f = Only(a.engine, FindingKind::NoProgress);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(LineOf(a.engine, *f), kStrideLine);
  EXPECT_TRUE(Has(Text(a.engine, *f), "line " + std::to_string(kStrideLine) +
                                          ", block (0,0,0), thread (0,0,0): no progress after 20000 instructions"))
      << Text(a.engine, *f);
  ExpectACleanLaunchWorks();
}

// Steps are counted per 64 buffered accesses: a thread that reads 200 times is seen at 64, 128
// and 192 steps.
TEST(KernelFaults, TheProgressBudgetCountsAThreadsAccesses) {
  LaunchOptions fits;
  fits.progress_budget = 256;
  Arrays a(32, fits);
  EXPECT_TRUE(a.engine.Run(Shape(1, 32), [&] { ReadsRepeatedly(a.in, a.out, 200); }));
  EXPECT_TRUE(a.engine.trace().findings.empty());
  EXPECT_EQ(a.b[3], [&] { float s = 0; for (int k = 0; k < 200; ++k) s += a.a[3]; return s; }());

  LaunchOptions tight;
  tight.progress_budget = 100;
  Arrays b(32, tight);
  EXPECT_FALSE(b.engine.Run(Shape(1, 32), [&] { ReadsRepeatedly(b.in, b.out, 200); }));
  ASSERT_NE(Only(b.engine, FindingKind::NoProgress), nullptr);
}

TEST(KernelFaults, CancelStopsALoopWithoutMemoryAccess) {
  RunControl control;
  LaunchOptions o;
  o.watchdog_seconds = 600;  // only the cancel can stop it
  o.control = &control;
  Arrays a(64, o);
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    control.cancel = true;
  });
  EXPECT_FALSE(a.engine.Run(Shape(2, 32), [&] { SpinsWithoutMemory(a.out); }));
  canceller.join();
  const Finding* f = Only(a.engine, FindingKind::Cancelled);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->scope, FindingScope::Launch);
  EXPECT_TRUE(Has(f->message, "cancelled after 0 of 2 blocks")) << f->message;
  // A launch-wide finding names no block, thread or line.
  EXPECT_EQ(Text(a.engine, *f), "error [cancelled] " + f->message);
  ExpectACleanLaunchWorks();
}

TEST(KernelFaults, CancelStopsALoopThatKeepsAccessingMemory) {
  RunControl control;
  LaunchOptions o;
  o.control = &control;  // the default progress budget would take seconds; the cancel is sooner
  Arrays a(100, o);
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    control.cancel = true;
  });
  EXPECT_FALSE(a.engine.Run(Shape(2, 32), [&] { GridStrideWithoutIncrement(a.in, a.out, 100); }));
  canceller.join();
  EXPECT_NE(Only(a.engine, FindingKind::Cancelled), nullptr);
}

TEST(KernelFaults, ProgressCountsEveryBlock) {
  RunControl control;
  LaunchOptions o;
  o.control = &control;
  Arrays a(100, o);
  ASSERT_TRUE(a.engine.Run(Shape(4, 32), [&] { CopiesTimesTwo(a.in, a.out, 100); }));
  EXPECT_EQ(control.blocks_total.load(), 4u);
  EXPECT_EQ(control.blocks_done.load(), 4u);
}

TEST(KernelFaults, AnAbsurdLaunchIsRefusedBeforeItRuns) {
  Arrays a(64);
  bool ran = false;
  EXPECT_FALSE(a.engine.Run(Shape(0x7fffffffu, 32), [&] { ran = true; }));
  EXPECT_FALSE(ran);
  const Finding* f = Only(a.engine, FindingKind::LaunchLimit);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->scope, FindingScope::Launch);
  EXPECT_EQ(f->site, -1);
  // 2^31-1 blocks of 32 threads = 68,719,476,704 threads.
  EXPECT_TRUE(Has(f->message, "grid (2147483647,1,1) x block (32,1,1) was refused")) << f->message;
  EXPECT_TRUE(Has(f->message, "68719476704 threads")) << f->message;
  EXPECT_EQ(Text(a.engine, *f), "error [launch-limit] " + f->message);
}

TEST(KernelFaults, SharedMemoryReadBeforeItsBlockWroteItIsUninitialised) {
  Arrays a(128);
  EXPECT_TRUE(a.engine.Run(Shape(2, 64), [&] { ReadsSharedOnlyBlockZeroWrote(a.out); }));
  const Finding* f = Only(a.engine, FindingKind::UninitializedShared);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->block.x, 1u);  // block 0 wrote before reading; block 1 only reads
  EXPECT_EQ(f->thread.x, 0u);
  EXPECT_EQ(LineOf(a.engine, *f), kUninitLine);
  EXPECT_EQ(f->occurrences, 64u);  // every thread of block 1
  EXPECT_EQ(f->index, 0);
  // Shared arrays start at address 0: word 0's address is 0x0, and it is said.
  EXPECT_TRUE(Has(Text(a.engine, *f), "line " + std::to_string(kUninitLine) +
                                          ", block (1,0,0), thread (0,0,0), address 0x0: the thread reads "))
      << Text(a.engine, *f);
  EXPECT_TRUE(Has(f->message, "[0] before any thread of its block wrote it")) << f->message;
}

TEST(KernelFaults, LanesOutsideAShuffleMaskThatCallItAreNamed) {
  Arrays a(32);
  a.engine.Run(Shape(1, 32), [&] { ShufflesWithHalfAMask(a.out); });
  const Finding* f = Only(a.engine, FindingKind::ShuffleMask);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(LineOf(a.engine, *f), kShuffleLine);
  EXPECT_EQ(f->thread.x, 16u);
  EXPECT_TRUE(Has(f->message, "lane(s) 16-31 of warp 0 execute __shfl_sync without being named "
                              "in its mask 0x0000ffff"))
      << f->message;
  EXPECT_FALSE(Has(f->message, "not here")) << f->message;
}

TEST(KernelFaults, AccessThroughANullGlobalIsANullPointer) {
  Arrays a(32);
  EXPECT_TRUE(a.engine.Run(Shape(1, 32), [&] { WritesThroughANullGlobal(a.out); }));
  const Finding* f = Only(a.engine, FindingKind::NullPointer);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(Only(a.engine, FindingKind::OutOfBounds), nullptr);
  EXPECT_EQ(LineOf(a.engine, *f), kNullLine);
  EXPECT_TRUE(Has(f->message, "null pointer")) << f->message;
  EXPECT_TRUE(Has(Text(a.engine, *f), "error [null-pointer] line " + std::to_string(kNullLine) + ", block (0,0,0), thread ("))
      << Text(a.engine, *f);
  EXPECT_FALSE(Has(Text(a.engine, *f), "address")) << Text(a.engine, *f);  // a null pointer has none
  EXPECT_EQ(a.b[5], 2.0f);  // the run went on
}
