// The race check's rules, one test each: a read of another thread's shared write is reported
// only when nothing orders the write before it (sim/race_check.h, "the rule"). Kernels are written
// in the dialect, one warp or a few; the expected findings are worked out from the rule.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/dialect.h"
#include "sim/engine.h"

namespace races {
using namespace ::ws::dialect;
using ::ws::sim::Engine;
using ::ws::sim::Finding;
using ::ws::sim::FindingKind;
using ::ws::sim::LaunchShape;
using ::ws::sim::Trace;

// ---- kernels, in the dialect ----
// Every lane writes its word, then reads its neighbour's (lane ^ 1): a write by another lane
// of the same warp, read with or without something in between.
__global__ void NeighbourWithSyncwarp(Global<float> out) {
  __shared__ Shared<float[32]> s;
  s[threadIdx.x] = float(threadIdx.x);
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

constexpr unsigned kNeighbourReadLine = __LINE__ + 4;
__global__ void NeighbourWithoutAnything(Global<float> out) {
  __shared__ Shared<float[32]> s;
  s[threadIdx.x] = float(threadIdx.x);
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

__global__ void NeighbourWithSyncwarpBeforeTheWrite(Global<float> out) {
  __shared__ Shared<float[32]> s;
  __syncwarp();
  s[threadIdx.x] = float(threadIdx.x);
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// Lanes 0-15 meet at a __syncwarp that names only them, then read lanes 16-31's words.
__global__ void HalfMaskSyncwarp(Global<float> out) {
  __shared__ Shared<float[32]> s;
  s[threadIdx.x] = float(threadIdx.x);
  if (threadIdx.x < 16) {
    __syncwarp(0x0000ffffu);
    out[threadIdx.x] = s[threadIdx.x + 16];
  }
}

__global__ void NeighbourWithShuffle(Global<float> out) {
  __shared__ Shared<float[32]> s;
  s[threadIdx.x] = float(threadIdx.x);
  float lane0 = __shfl_sync(0xffffffffu, float(threadIdx.x), 0);
  out[threadIdx.x] = s[threadIdx.x ^ 1] + lane0;
}

__global__ void NeighbourWithBallot(Global<float> out) {
  __shared__ Shared<float[32]> s;
  s[threadIdx.x] = float(threadIdx.x);
  unsigned b = __ballot_sync(0xffffffffu, threadIdx.x % 2 == 0);
  out[threadIdx.x] = s[threadIdx.x ^ 1] + float(b & 1u);
}

// Lane 1 writes; lanes 1 and 2 meet; lanes 2 and 3 meet; lane 3 reads lane 1's word. The
// write is ordered before the read through lane 2 (happens-before is transitive).
__global__ void OrderedThroughAThirdLane(Global<float> out, bool first_meeting) {
  __shared__ Shared<float[32]> s;
  const unsigned lane = threadIdx.x;
  if (lane == 1) s[1] = 7.0f;
  if (first_meeting && (lane == 1 || lane == 2)) __syncwarp(0x6u);
  if (lane == 2 || lane == 3) __syncwarp(0xcu);
  if (lane == 3) out[0] = s[1];
}

// The warp-synchronous idiom: write and read through a volatile pointer, inside one warp.
__global__ void NeighbourVolatile(Global<float> out) {
  __shared__ Shared<float[32]> s;
  Shared<volatile float*> vs = s;
  vs[threadIdx.x] = float(threadIdx.x);
  out[threadIdx.x] = vs[threadIdx.x ^ 1];
}

// A plain write read through a volatile pointer: the write may stay in a register.
constexpr unsigned kVolatileReadLine = __LINE__ + 5;
__global__ void PlainWriteVolatileRead(Global<float> out) {
  __shared__ Shared<float[32]> s;
  Shared<volatile float*> vs = s;
  s[threadIdx.x] = float(threadIdx.x);
  out[threadIdx.x] = vs[threadIdx.x ^ 1];
}

// Two warps: warp 1 reads warp 0's words through volatile, or after a __syncwarp. Neither
// orders across warps.
__global__ void OtherWarpVolatile(Global<float> out) {
  __shared__ Shared<float[64]> s;
  Shared<volatile float*> vs = s;
  vs[threadIdx.x] = float(threadIdx.x);
  out[threadIdx.x] = vs[(threadIdx.x + 32) % 64];
}

__global__ void OtherWarpSyncwarp(Global<float> out) {
  __shared__ Shared<float[64]> s;
  s[threadIdx.x] = float(threadIdx.x);
  __syncwarp();
  out[threadIdx.x] = s[(threadIdx.x + 32) % 64];
}

// Global volatile: each access is a real one, recorded as volatile.
__global__ void GlobalVolatileCopy(Global<const float> in, Global<volatile float> out) {
  out[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = out[threadIdx.x] + 1.0f;
}

// ---- helpers ----
struct Launch {
  Engine engine;
  std::vector<float> a, b;
  Global<float> in, out;
  explicit Launch(size_t n) : engine(Options()), a(n), b(n, 0.0f) {
    for (size_t i = 0; i < n; ++i) a[i] = float(1 + (i * 7919) % 9);
    int ia = engine.BindGlobal("in", "float", 4, n, 1, n);
    int ib = engine.BindGlobal("out", "float", 4, n, 1, n);
    in = Global<float>(a.data(), ia, engine.Array(ia).base, n);
    out = Global<float>(b.data(), ib, engine.Array(ib).base, n);
  }
  static ::ws::sim::LaunchOptions Options() {
    ::ws::sim::LaunchOptions o;
    o.selection.kind = ::ws::sim::Selection::Kind::All;
    return o;
  }
  const Trace& trace() const { return engine.trace(); }
  std::vector<const Finding*> Of(FindingKind k) const {
    std::vector<const Finding*> v;
    for (const auto& f : trace().findings)
      if (f.kind == k) v.push_back(&f);
    return v;
  }
};

LaunchShape Shape(unsigned grid, unsigned block) { return {{grid, 1, 1}, {block, 1, 1}}; }
bool Has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace races
using namespace races;

TEST(Races, SyncwarpBetweenWriteAndReadOrdersTheLanes) {
  Launch r(32);
  r.engine.Run(Shape(1, 32), [&] { NeighbourWithSyncwarp(r.out); });
  EXPECT_TRUE(r.trace().findings.empty());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(r.b[i], float(i ^ 1));
}

TEST(Races, LockstepWithoutVolatileOrSyncwarpWarnsThatValuesMayStayInRegisters) {
  Launch r(32);
  r.engine.Run(Shape(1, 32), [&] { NeighbourWithoutAnything(r.out); });
  const auto w = r.Of(FindingKind::WarpSyncRace);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(r.trace().findings.size(), 1u);
  EXPECT_EQ(r.trace().sites[w[0]->site].line, kNeighbourReadLine);
  EXPECT_EQ(w[0]->occurrences, 32u);  // every lane reads its neighbour's word
  EXPECT_TRUE(Has(w[0]->message, "without volatile the compiler may keep the values in registers"))
      << w[0]->message;
  EXPECT_TRUE(Has(w[0]->message, "add __syncwarp()")) << w[0]->message;
  EXPECT_FALSE(::ws::sim::IsError(w[0]->kind));
}

TEST(Races, SyncwarpBeforeTheWriteDoesNotOrderItAndIsNotAdvisedAgain) {
  Launch r(32);
  r.engine.Run(Shape(1, 32), [&] { NeighbourWithSyncwarpBeforeTheWrite(r.out); });
  const auto w = r.Of(FindingKind::WarpSyncRace);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_FALSE(Has(w[0]->message, "add __syncwarp()")) << w[0]->message;
  EXPECT_TRUE(Has(w[0]->message, "must come between the write and the read")) << w[0]->message;
  EXPECT_TRUE(Has(w[0]->message, "__syncwarp(0xffffffff) at line")) << w[0]->message;
}

TEST(Races, SyncwarpWhoseMaskLeavesOutTheWriterDoesNotOrderIt) {
  // Lane 0 reads word 16, written by lane 16, which the mask 0x0000ffff does not name.
  Launch r(32);
  r.engine.Run(Shape(1, 32), [&] { HalfMaskSyncwarp(r.out); });
  const auto w = r.Of(FindingKind::WarpSyncRace);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0]->occurrences, 16u);  // lanes 0-15
  EXPECT_TRUE(Has(w[0]->message, "leaves lane 16 out of its mask")) << w[0]->message;
  EXPECT_FALSE(Has(w[0]->message, "add __syncwarp()")) << w[0]->message;
  EXPECT_EQ(r.Of(FindingKind::ShuffleMask).size(), 0u);  // the mask names exactly the callers
}

TEST(Races, ShuffleNamingBothLanesOrdersThem) {
  Launch r(32);
  r.engine.Run(Shape(1, 32), [&] { NeighbourWithShuffle(r.out); });
  EXPECT_TRUE(r.trace().findings.empty());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(r.b[i], float(i ^ 1));  // + lane 0's value, 0
}

TEST(Races, VoteNamingBothLanesOrdersThem) {
  Launch r(32);
  r.engine.Run(Shape(1, 32), [&] { NeighbourWithBallot(r.out); });
  EXPECT_TRUE(r.trace().findings.empty());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(r.b[i], float(i ^ 1) + 1.0f);  // even lanes voted yes
}

TEST(Races, OrderingThroughAThirdLaneCounts) {
  Launch ordered(32);
  ordered.engine.Run(Shape(1, 32), [&] { OrderedThroughAThirdLane(ordered.out, true); });
  EXPECT_TRUE(ordered.trace().findings.empty());
  EXPECT_EQ(ordered.b[0], 7.0f);
  // Without lanes 1 and 2 meeting, lane 3's meeting with lane 2 says nothing about lane 1.
  Launch unordered(32);
  unordered.engine.Run(Shape(1, 32), [&] { OrderedThroughAThirdLane(unordered.out, false); });
  const auto w = unordered.Of(FindingKind::WarpSyncRace);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0]->thread.x, 3u);
  EXPECT_TRUE(Has(w[0]->message, "leaves lane 1 out of its mask")) << w[0]->message;
}

TEST(Races, VolatileWriteAndReadInOneWarpAreTheWarpSynchronousIdiom) {
  Launch r(32);
  r.engine.Run(Shape(1, 32), [&] { NeighbourVolatile(r.out); });
  EXPECT_TRUE(r.trace().findings.empty());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(r.b[i], float(i ^ 1));
  // Both shared instructions are real, one per warp, and recorded as volatile.
  int shared = 0;
  for (const auto& ins : r.trace().instructions)
    if (ins.space == ::ws::sim::Space::Shared) {
      ++shared;
      EXPECT_TRUE(ins.is_volatile);
      EXPECT_EQ(ins.mask, 0xffffffffu);
    }
  EXPECT_EQ(shared, 2);
  EXPECT_EQ(r.trace().total.shared_inst[0], 1u);
  EXPECT_EQ(r.trace().total.shared_inst[1], 1u);
}

TEST(Races, VolatileReadOfAPlainWriteIsReported) {
  Launch r(32);
  r.engine.Run(Shape(1, 32), [&] { PlainWriteVolatileRead(r.out); });
  const auto w = r.Of(FindingKind::WarpSyncRace);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(r.trace().sites[w[0]->site].line, kVolatileReadLine);
  EXPECT_TRUE(Has(w[0]->message, "the write is not volatile")) << w[0]->message;
}

TEST(Races, VolatileDoesNotOrderAcrossWarps) {
  Launch r(64);
  r.engine.Run(Shape(1, 64), [&] { OtherWarpVolatile(r.out); });
  EXPECT_EQ(r.Of(FindingKind::WarpSyncRace).size(), 0u);
  const auto s = r.Of(FindingKind::SharedRace);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(::ws::sim::IsError(s[0]->kind));
}

TEST(Races, SyncwarpDoesNotOrderAcrossWarps) {
  Launch r(64);
  r.engine.Run(Shape(1, 64), [&] { OtherWarpSyncwarp(r.out); });
  const auto s = r.Of(FindingKind::SharedRace);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(Has(s[0]->message, "orders only lanes of one warp")) << s[0]->message;
  EXPECT_FALSE(Has(s[0]->message, "add __syncwarp()")) << s[0]->message;
}

TEST(Races, GlobalVolatileAccessesAreRealAndRecordedAsVolatile) {
  Launch r(32);
  Global<const float> in = r.in;
  Global<volatile float> out = r.out;
  r.engine.Run(Shape(1, 32), [&] { GlobalVolatileCopy(in, out); });
  EXPECT_TRUE(r.trace().findings.empty());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(r.b[i], r.a[i] + 1.0f);
  // in: 1 load; out: store, load, store; each one request of 4 sectors (32 x 4 bytes).
  int vol = 0, plain = 0;
  for (const auto& ins : r.trace().instructions) {
    EXPECT_EQ(ins.sectors, 4);
    (ins.is_volatile ? vol : plain) += 1;
  }
  EXPECT_EQ(vol, 3);
  EXPECT_EQ(plain, 1);
  EXPECT_EQ(r.trace().total.global_requests[0], 2u);  // ld: in, out
  EXPECT_EQ(r.trace().total.global_requests[1], 2u);  // st: out twice
}
