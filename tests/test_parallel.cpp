// Blocks simulated by several threads give the one-thread run's results bit for bit: the trace
// (counters, per-site counters, instructions, findings in order, cache counters and marks, as the
// trace codec writes them) and the arrays' bytes, for every catalog variant and for kernels that
// fault, race, or whose blocks see each other (those run again on one thread, and say why).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/sim_backend.h"
#include "sim/dialect.h"
#include "sim/engine.h"
#include "tests/trace_bytes.h"
#include "tests/filler_inputs.h"

namespace parallel {
using namespace ::ws::dialect;
using ::ws::sim::Engine;
using ::ws::sim::FindingKind;
using ::ws::sim::LaunchOptions;
using ::ws::sim::Selection;
using ::ws::sim::Trace;

using ::ws::test::TraceBytes;

LaunchOptions Options(uint32_t threads) {
  LaunchOptions o;
  o.selection = {Selection::Kind::All, 0, 0};  // every instruction of every block, in the trace
  o.threads = threads;
  return o;
}

// ---- the catalog ----
TEST(Parallel, EveryCatalogVariantGivesTheSameTraceOnOneTwoAndFourThreads) {
  int compared = 0, on_several = 0;
  for (const auto& family : ::ws::kernels::Catalog()) {
    if (family.from_file) continue;
    // The teaching size, and one that is not a multiple of the usual block shapes.
    for (int n : {family.info.teaching_n, family.info.teaching_n - 3}) {
      try {
        ::ws::kernels::ValidateSize(family, n);
      } catch (const ::ws::kernels::BadRequest&) {
        continue;
      }
      for (const auto& v : family.info.variants) {
        ::ws::kernels::VariantRef ref{&family, &v};
        ::ws::kernels::RunRequest r;
        r.n = n;
        const auto one = ::ws::kernels::Simulate(ref, r, Options(1));
        const std::string expected = TraceBytes(one.trace);
        for (uint32_t threads : {2u, 4u}) {
          SCOPED_TRACE(ref.Id() + " n=" + std::to_string(n) + " threads=" + std::to_string(threads));
          const auto many = ::ws::kernels::Simulate(ref, r, Options(threads));
          EXPECT_TRUE(TraceBytes(many.trace) == expected);
          EXPECT_EQ(many.check.passed, one.check.passed);
          EXPECT_EQ(many.check.mismatches, one.check.mismatches);
          EXPECT_EQ(many.check.max_abs_error, one.check.max_abs_error);
          EXPECT_EQ(many.check.detail, one.check.detail);
          EXPECT_TRUE(many.trace.threads == 1 || many.trace.threads == threads);
          if (many.trace.threads > 1) ++on_several;
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 40);
  EXPECT_GT(on_several, 0);
}

// The lessons whose blocks never share a word run on every thread asked for: each of shortcut's
// blocks writes its own tile of r, each of transpose's its own tile of the output.
TEST(Parallel, BlocksThatShareNoDataRunOnEveryThreadAsked) {
  for (const char* id : {"shortcut/v1", "shortcut/v0", "transpose/naive", "transpose/shared_padded"}) {
    SCOPED_TRACE(id);
    const auto ref = ::ws::kernels::FindVariant(id);
    ::ws::kernels::RunRequest r;
    r.n = 64;
    const auto o = ::ws::kernels::Simulate(ref, r, Options(2));
    EXPECT_EQ(o.trace.threads, 2u);
    EXPECT_EQ(o.trace.threads_note, "");
  }
}

// ---- kernels that fault, race or communicate ----
__attribute__((no_sanitize("integer-divide-by-zero")))  // the trap is what is tested
__global__ void DividesByZeroInBlock(Global<int> out, int bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  volatile int d = int(blockIdx.x) == bad ? 0 : 1;
  out[i] = 1000 / d + i;  // block `bad` traps: the launch stops there
}

__global__ void RacesOnSharedAndReadsOutOfBounds(Global<const float> in, Global<float> out, int n) {
  __shared__ Shared<float[64]> s;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  s[threadIdx.x] = s[threadIdx.x] * 2.0f;
  // No barrier: warp 1 reads words warp 0 wrote after the last one (a race).
  float v = s[(threadIdx.x + 32) % 64];
  if (blockIdx.x % 3 == 1) v += in[i + n];  // out of bounds in every third block
  out[i] = v;
}

__global__ void EachBlockAddsOneToTheLast(Global<float> chain) {
  if (threadIdx.x == 0) chain[blockIdx.x + 1] = chain[blockIdx.x] + 1.0f;  // reads the block before's word
}

__global__ void SumsWithAFloatAtomic(Global<const float> in, Global<float> sum) {
  atomicAdd(&sum[0], in[blockIdx.x * blockDim.x + threadIdx.x]);  // rounding depends on the order
}

__global__ void ReadsSharedBeforeWriting(Global<float> out) {
  __shared__ Shared<float[32]> s;
  float v = s[threadIdx.x];  // what this thread's previous block left there
  s[threadIdx.x] = v + float(blockIdx.x);
  out[blockIdx.x * 32 + threadIdx.x] = v;
}

__global__ void UsesSharedArraysInBlockOrder(Global<float> out) {
  __shared__ Shared<float[32]> a;
  __shared__ Shared<float[48]> b;
  if (blockIdx.x % 2 == 0) {
    a[threadIdx.x] = 1.0f;
    b[threadIdx.x] = 2.0f;
  } else {  // odd blocks use b first: the layout follows block 0's order, the serial run's
    b[threadIdx.x] = 3.0f;
    a[threadIdx.x] = 4.0f;
  }
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = a[(threadIdx.x + 1) % 32] + b[threadIdx.x];
}

__global__ void CopiesThroughShared(Global<const float> in, Global<float> out) {
  __shared__ Shared<float[32]> c;
  c[threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x] * 2.0f;
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = c[31 - threadIdx.x];
}

__global__ void ReducesTileInShared(Global<const float> in, Global<float> out) {
  __shared__ Shared<float[64]> t;
  t[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  for (int s = 32; s > 0; s /= 2) {
    if (int(threadIdx.x) < s) t[threadIdx.x] = t[threadIdx.x] + t[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = t[0];
}

__global__ void CopiesTheNextBlocksWords(Global<const float> from, Global<float> to) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  to[i] = from[i + blockDim.x] + 1.0f;  // the next block's word; `to` may be `from` itself
}

__global__ void WritesItsWords(Global<float> a) { a[blockIdx.x * blockDim.x + threadIdx.x] = float(blockIdx.x); }

__global__ void TakesTwoConstOneWritable(Global<float> r, Global<const float> d, Global<const float> e, int n) {}

// One kernel's launch(es) on `threads` threads: the trace and every array's bytes.
struct Outcome {
  std::string trace;
  uint32_t threads = 0;
  std::string note;
  std::vector<std::vector<float>> arrays;
  std::vector<FindingKind> findings;
};

template <class Body>
Outcome RunWith(uint32_t threads, Body body) {
  Engine engine(Options(threads));
  ::ws::kernels::SimBackend b(engine);
  Outcome r;
  body(b, r);
  r.trace = TraceBytes(engine.trace());
  r.threads = engine.trace().threads;
  r.note = engine.trace().threads_note;
  for (const auto& f : engine.trace().findings) r.findings.push_back(f.kind);
  return r;
}

std::vector<float> Inputs(size_t n) { return ::ws::test_inputs::FillerFloats(n); }

template <class Body>
void ExpectSameOnOneTwoAndFour(Body body, uint32_t expect_threads, const char* expect_note = "") {
  const Outcome one = RunWith(1, body);
  for (uint32_t threads : {2u, 4u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    const Outcome many = RunWith(threads, body);
    EXPECT_TRUE(many.trace == one.trace);
    EXPECT_EQ(many.findings, one.findings);
    ASSERT_EQ(many.arrays.size(), one.arrays.size());
    for (size_t i = 0; i < one.arrays.size(); ++i)
      EXPECT_EQ(0, std::memcmp(many.arrays[i].data(), one.arrays[i].data(), one.arrays[i].size() * sizeof(float)))
          << "array " << i;
    if (!expect_note) continue;  // either may happen
    EXPECT_EQ(many.threads, expect_threads == 1 ? 1 : threads);
    EXPECT_EQ(many.note, expect_note);
  }
}

TEST(Parallel, AFaultStopsTheLaunchAtTheSameBlockAndLaterBlocksLeaveNoWrites) {
  ExpectSameOnOneTwoAndFour([](::ws::kernels::SimBackend& b, Outcome& r) {
    auto out = b.Alloc<int>("out", "int", 64 * 16, 1, 64 * 16);
    b.Launch(dim3(16), dim3(64), DividesByZeroInBlock, out, 5);
    const auto v = b.Download(out);
    r.arrays.push_back(std::vector<float>(v.size()));
    std::memcpy(r.arrays.back().data(), v.data(), v.size() * sizeof(int));
    EXPECT_EQ(v[5 * 64 - 1], 1000 + 5 * 64 - 1);  // block 4 ran
    EXPECT_EQ(v[6 * 64], -1);                     // block 6 never did: Alloc's 0xff bytes
  }, 1, nullptr);  // on several threads when no block after block 5 had started, else again on one
}

TEST(Parallel, RacesAndOutOfBoundsReadsAreFoundInTheSameOrderWithTheSameCounts) {
  const size_t n = 64 * 12;
  ExpectSameOnOneTwoAndFour([n](::ws::kernels::SimBackend& b, Outcome& r) {
    auto in = b.Upload<const float>("in", "float", Inputs(n), 1, n);
    auto out = b.Alloc<float>("out", "float", n, 1, n);
    b.Launch(dim3(12), dim3(64), RacesOnSharedAndReadsOutOfBounds, in, out, int(n));
    r.arrays.push_back(b.Download(out));
  }, 2);
  const Outcome one = RunWith(1, [n](::ws::kernels::SimBackend& b, Outcome&) {
    auto in = b.Upload<const float>("in", "float", Inputs(n), 1, n);
    auto out = b.Alloc<float>("out", "float", n, 1, n);
    b.Launch(dim3(12), dim3(64), RacesOnSharedAndReadsOutOfBounds, in, out, int(n));
  });
  // A race in every block (block 0's first), out-of-bounds reads in blocks 1, 4, 7 and 10.
  ASSERT_EQ(one.findings.size(), 2u);
  EXPECT_EQ(one.findings[0], FindingKind::SharedRace);
  EXPECT_EQ(one.findings[1], FindingKind::OutOfBounds);
}

TEST(Parallel, BlocksThatReadAnotherBlocksWordRunOnOneThreadWithTheSerialValues) {
  ExpectSameOnOneTwoAndFour([](::ws::kernels::SimBackend& b, Outcome& r) {
    auto chain = b.Upload<float>("chain", "float", std::vector<float>(65, 0.0f), 1, 65);
    b.Launch(dim3(64), dim3(32), EachBlockAddsOneToTheLast, chain);
    r.arrays.push_back(b.Download(chain));
    EXPECT_EQ(r.arrays.back()[64], 64.0f);  // block by block, each one after the last
  }, 1, "its blocks communicate through global memory");
}

TEST(Parallel, AFloatAtomicSumRunsOnOneThreadWithTheSerialRounding) {
  ExpectSameOnOneTwoAndFour([](::ws::kernels::SimBackend& b, Outcome& r) {
    auto in = b.Upload<const float>("in", "float", Inputs(32 * 40), 1, 32 * 40);
    auto sum = b.Upload<float>("sum", "float", std::vector<float>(1, 0.0f), 1, 1);
    b.Launch(dim3(40), dim3(32), SumsWithAFloatAtomic, in, sum);
    r.arrays.push_back(b.Download(sum));
  }, 1, "its blocks use global atomics, whose order changes values");
}

TEST(Parallel, ReadingSharedMemoryTheBlockDidNotWriteRunsOnOneThread) {
  ExpectSameOnOneTwoAndFour([](::ws::kernels::SimBackend& b, Outcome& r) {
    auto out = b.Alloc<float>("out", "float", 32 * 8, 1, 32 * 8);
    b.Launch(dim3(8), dim3(32), ReadsSharedBeforeWriting, out);
    r.arrays.push_back(b.Download(out));
  }, 1, "a block reads shared memory it did not write (what the previous block left)");
}

// ---- arrays the kernel takes as const: their loads are not checked ----
TEST(Parallel, ArraysTakenOnlyAsConstParametersAreConst) {
  using ::ws::kernels::SimBackend;
  Global<float> r(nullptr, 0, 0, 1);
  Global<const float> d(nullptr, 1, 512, 1);
  EXPECT_EQ(SimBackend::ConstArrays(TakesTwoConstOneWritable, r, d, d, 4), std::vector<int>({1}));
  // r passed as e too: written through the first parameter, so not const.
  EXPECT_EQ(SimBackend::ConstArrays(TakesTwoConstOneWritable, r, d, r, 4), std::vector<int>({1}));
  // A kernel that is not a function says nothing.
  EXPECT_EQ(SimBackend::ConstArrays([](Global<const float>) {}, d), std::vector<int>());
}

TEST(Parallel, AnArrayTakenAsConstAndAsWritableIsCheckedAsWritable) {
  // Each block reads the words of the block after it, which that block overwrites: one array.
  ExpectSameOnOneTwoAndFour([](::ws::kernels::SimBackend& b, Outcome& r) {
    auto a = b.Upload<float>("a", "float", Inputs(32 * 9), 1, 32 * 9);
    b.Launch(dim3(8), dim3(32), CopiesTheNextBlocksWords, a, a);
    r.arrays.push_back(b.Download(a));
  }, 1, "its blocks communicate through global memory");
  // Two arrays: `from` is const, and its loads see no other block.
  ExpectSameOnOneTwoAndFour([](::ws::kernels::SimBackend& b, Outcome& r) {
    auto from = b.Upload<const float>("from", "float", Inputs(32 * 9), 1, 32 * 9);
    auto to = b.Alloc<float>("to", "float", 32 * 8, 1, 32 * 8);
    b.Launch(dim3(8), dim3(32), CopiesTheNextBlocksWords, from, to);
    r.arrays.push_back(b.Download(to));
  }, 2);
}

TEST(Parallel, AStoreToAnArrayGivenAsConstRunsOnOneThread) {
  // The engine told that `a` is const, and a kernel that writes it (each block its own words, which
  // would run on several threads): a store to it is found, and the launch runs again on one thread.
  std::vector<std::vector<float>> bytes;
  for (uint32_t threads : {1u, 2u, 4u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    std::vector<float> host(32 * 8, -1.0f);
    Engine engine(Options(threads));
    const int id = engine.BindGlobal("a", "float", 4, host.size(), 1, host.size(), host.data());
    Global<float> a(host.data(), id, engine.Array(id).base, host.size());
    ASSERT_TRUE(engine.Run({{8, 1, 1}, {32, 1, 1}, 0}, [=] { WritesItsWords(a); }, {id}));
    EXPECT_EQ(engine.trace().threads, 1u);
    EXPECT_EQ(engine.trace().threads_note, threads == 1 ? "" : "a block wrote an array the kernel takes as const");
    EXPECT_EQ(host[7 * 32 + 5], 7.0f);
    bytes.push_back(host);
  }
  EXPECT_EQ(bytes[1], bytes[0]);
  EXPECT_EQ(bytes[2], bytes[0]);
}

TEST(Parallel, WithAGlobalArrayIdOf64OrMoreNoArrayIsConst) {
  // The inline test reads an id modulo 64: array 64 would pass for array 0, given as const, and
  // the chain through it (each block reads the word the block before wrote) would go unseen.
  for (uint32_t threads : {1u, 2u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    std::vector<std::vector<float>> host(65, std::vector<float>(65, 0.0f));
    Engine engine(Options(threads));
    for (auto& h : host) engine.BindGlobal("a", "float", 4, h.size(), 1, h.size(), h.data());
    Global<float> chain(host[64].data(), 64, engine.Array(64).base, host[64].size());
    ASSERT_TRUE(engine.Run({{64, 1, 1}, {32, 1, 1}, 0}, [=] { EachBlockAddsOneToTheLast(chain); }, {0}));
    EXPECT_EQ(engine.trace().threads, 1u);
    EXPECT_EQ(engine.trace().threads_note, threads == 1 ? "" : "its blocks communicate through global memory");
    EXPECT_EQ(host[64][64], 64.0f);
  }
}

TEST(Parallel, SharedArraysFirstUsedInDifferentOrdersKeepTheSerialLayout) {
  const Outcome one = RunWith(1, [](::ws::kernels::SimBackend& b, Outcome& r) {
    auto out = b.Alloc<float>("out", "float", 32 * 16, 1, 32 * 16);
    b.Launch(dim3(16), dim3(32), UsesSharedArraysInBlockOrder, out);
    r.arrays.push_back(b.Download(out));
  });
  for (uint32_t threads : {2u, 4u}) {
    const Outcome many = RunWith(threads, [](::ws::kernels::SimBackend& b, Outcome& r) {
      auto out = b.Alloc<float>("out", "float", 32 * 16, 1, 32 * 16);
      b.Launch(dim3(16), dim3(32), UsesSharedArraysInBlockOrder, out);
      r.arrays.push_back(b.Download(out));
    });
    EXPECT_TRUE(many.trace == one.trace);
    EXPECT_EQ(0, std::memcmp(many.arrays[0].data(), one.arrays[0].data(), 32 * 16 * sizeof(float)));
  }
}

TEST(Parallel, LaunchesAfterTheFirstKeepTheirSharedArraysAsTheSerialRunDoes) {
  ExpectSameOnOneTwoAndFour([](::ws::kernels::SimBackend& b, Outcome& r) {
    auto in = b.Upload<const float>("in", "float", Inputs(64 * 32), 1, 64 * 32);
    auto mid = b.Alloc<float>("mid", "float", 32, 1, 32);
    auto out = b.Alloc<float>("out", "float", 32 * 16, 1, 32 * 16);
    b.Launch(dim3(32), dim3(64), ReducesTileInShared, in, mid);
    b.Launch(dim3(16), dim3(32), CopiesThroughShared, in, out);
    b.Launch(dim3(32), dim3(64), ReducesTileInShared, in, mid);  // its tile as placed at first
    r.arrays.push_back(b.Download(mid));
    r.arrays.push_back(b.Download(out));
  }, 2, nullptr);  // a worker that ran none of a launch's blocks may sit out the later ones
}

}  // namespace parallel
