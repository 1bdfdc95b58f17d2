// Kernel bugs are findings, not crashes: small, deliberately broken kernels run through the
// simulator and must be reported with block, thread, line and address.
#include <gtest/gtest.h>

#include <vector>

#include "sim/device_profile.h"
#include "sim/dialect.h"
#include "sim/engine.h"

namespace faults {
using namespace ::ws::dialect;
using ::ws::sim::Engine;
using ::ws::sim::FindingKind;
using ::ws::sim::LaunchShape;
using ::ws::sim::Trace;

// ---- broken kernels, in the dialect ----
__global__ void ReadsOnePastTheEnd(Global<const float> in, Global<float> out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1];  // the last thread reads in[n]
}

__global__ void Float4AtOddOffset(Global<const float> in, Global<float> out) {
  Global<const float4> v = global_cast<const float4>(in + 1);  // 4 bytes past a 16-byte boundary
  float4 x = v[threadIdx.x];
  out[threadIdx.x] = x.x;
}

__global__ void ReadsNeighbourWithoutBarrier(Global<float> out) {
  __shared__ Shared<float[64]> buf;
  buf[threadIdx.x] = float(threadIdx.x);
  out[threadIdx.x] = buf[(threadIdx.x + 32) % 64];  // the other warp's word, no __syncthreads
}

__global__ void ReadsNeighbourAfterBarrier(Global<float> out) {
  __shared__ Shared<float[64]> buf;
  buf[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = buf[(threadIdx.x + 32) % 64];
}

__global__ void BarrierInsideBranch(Global<float> out) {
  if (threadIdx.x < 16) {
    __syncthreads();
    out[threadIdx.x] = 1.0f;
  } else {
    __syncthreads();
    out[threadIdx.x] = 2.0f;
  }
}

__global__ void ExitsBeforeBarrier(Global<float> out, int n) {
  if (int(threadIdx.x) >= n) return;
  __syncthreads();
  out[threadIdx.x] = 1.0f;
}

__global__ void TooMuchShared(Global<float> out) {
  __shared__ Shared<float[13000]> big;  // 52,000 bytes > 48 KiB
  big[threadIdx.x] = 1.0f;
  out[threadIdx.x] = big[threadIdx.x];
}

__global__ void ShuffleWithHalfTheWarp(Global<float> out) {
  float v = float(threadIdx.x);
  if (threadIdx.x < 16) v += __shfl_down_sync(0xffffffffu, v, 1);  // mask names absent lanes
  out[threadIdx.x] = v;
}

__global__ void Noop(Global<float> out) { out[threadIdx.x] = 0.0f; }

// ---- helpers ----
struct Arrays {
  Engine engine;
  std::vector<float> a, b;
  Global<float> in, out;
  explicit Arrays(size_t n, ::ws::sim::LaunchOptions o = {}) : engine(std::move(o)), a(n, 1.0f), b(n, 0.0f) {
    int ia = engine.BindGlobal("in", "float", 4, n, 1, n);
    int ib = engine.BindGlobal("out", "float", 4, n, 1, n);
    in = Global<float>(a.data(), ia, engine.Array(ia).base, n);
    out = Global<float>(b.data(), ib, engine.Array(ib).base, n);
  }
};

const ::ws::sim::Finding* FindKind(const Trace& t, FindingKind k) {
  for (const auto& f : t.findings)
    if (f.kind == k) return &f;
  return nullptr;
}

LaunchShape Shape(unsigned grid, unsigned block) { return {{grid, 1, 1}, {block, 1, 1}}; }

}  // namespace faults

using namespace faults;

TEST(Faults, OutOfBoundsReadIsReportedWithThreadLineAndAddress) {
  Arrays a(64);
  Global<const float> in = a.in;
  a.engine.Run(Shape(2, 32), [&] { ReadsOnePastTheEnd(in, a.out, 64); });
  const auto& t = a.engine.trace();
  const auto* f = FindKind(t, FindingKind::OutOfBounds);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->block.x, 1u);   // global thread 63 is thread 31 of block 1
  EXPECT_EQ(f->thread.x, 31u);
  EXPECT_EQ(f->index, 64);
  EXPECT_EQ(f->address, a.engine.Array(0).base + 64 * 4);
  ASSERT_GE(f->site, 0);
  EXPECT_EQ(t.sites[f->site].line, 21u);  // the line of `out[i] = in[i + 1]` in this file
  EXPECT_EQ(a.b[62], 1.0f);  // the run went on: other threads did their work
  EXPECT_EQ(a.b[63], 0.0f);  // the faulting read was skipped and read as zero
}

TEST(Faults, Float4AtAnAddressNotAMultipleOf16IsMisaligned) {
  Arrays a(256);
  Global<const float> in = a.in;
  a.engine.Run(Shape(1, 32), [&] { Float4AtOddOffset(in, a.out); });
  const auto* f = FindKind(a.engine.trace(), FindingKind::Misaligned);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->address % 16, 4u);
  EXPECT_EQ(f->occurrences, 32u);  // every lane's access, reported once
}

TEST(Faults, CrossWarpSharedReadWithoutBarrierIsARace) {
  Arrays a(64);
  a.engine.Run(Shape(1, 64), [&] { ReadsNeighbourWithoutBarrier(a.out); });
  const auto* f = FindKind(a.engine.trace(), FindingKind::SharedRace);
  ASSERT_NE(f, nullptr);
  // Warp 0 runs first and reads words warp 1 has not written; warp 1 then reads warp 0's.
  EXPECT_GE(f->thread.x, 32u);
}

TEST(Faults, BarrierBetweenWriteAndReadIsNoRace) {
  Arrays a(64);
  a.engine.Run(Shape(1, 64), [&] { ReadsNeighbourAfterBarrier(a.out); });
  EXPECT_TRUE(a.engine.trace().findings.empty());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(a.b[i], float((i + 32) % 64));
}

TEST(Faults, ThreadsAtDifferentBarriersAreBarrierDivergence) {
  Arrays a(32);
  a.engine.Run(Shape(1, 32), [&] { BarrierInsideBranch(a.out); });
  const auto* f = FindKind(a.engine.trace(), FindingKind::BarrierDivergence);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(a.b[0], 1.0f);   // the run finished
  EXPECT_EQ(a.b[31], 2.0f);
}

TEST(Faults, ThreadsThatExitBeforeABarrierAreReported) {
  Arrays a(64);
  a.engine.Run(Shape(1, 64), [&] { ExitsBeforeBarrier(a.out, 40); });
  const auto* f = FindKind(a.engine.trace(), FindingKind::BarrierDivergence);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("24 thread(s)"), std::string::npos) << f->message;
}

TEST(Faults, MoreThan1024ThreadsPerBlockIsRefused) {
  Arrays a(2048);
  bool ran_body = false;
  EXPECT_FALSE(a.engine.Run(Shape(1, 1025), [&] { ran_body = true; }));
  EXPECT_FALSE(ran_body);
  EXPECT_NE(FindKind(a.engine.trace(), FindingKind::LaunchLimit), nullptr);
}

TEST(Faults, MoreThan48KiBOfSharedMemoryStopsTheLaunch) {
  Arrays a(64);
  EXPECT_FALSE(a.engine.Run(Shape(4, 32), [&] { TooMuchShared(a.out); }));
  EXPECT_NE(FindKind(a.engine.trace(), FindingKind::LaunchLimit), nullptr);
}

// The per-block limits are the device profile's, and the message names the device the launch was
// checked against (--device): the H100 without one. Both Hopper profiles allow 1024 threads and
// 48 KiB of static shared memory per block (CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability", 9.0); 13000 floats are 52,000 bytes.
TEST(Faults, BlockLimitMessagesNameTheProfilesDevice) {
  ::ws::sim::LaunchOptions h200;
  h200.device = ::ws::sim::FindDeviceProfile("H200");
  ASSERT_NE(h200.device, nullptr);
  Arrays big_block(2048, h200);
  EXPECT_FALSE(big_block.engine.Run(Shape(1, 1025), [] {}));
  const auto* f = FindKind(big_block.engine.trace(), FindingKind::LaunchLimit);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("a block of 1025 threads is over the 1024 a block may have on the H200"),
            std::string::npos)
      << f->message;
  Arrays big_shared(64, h200);
  EXPECT_FALSE(big_shared.engine.Run(Shape(4, 32), [&] { TooMuchShared(big_shared.out); }));
  f = FindKind(big_shared.engine.trace(), FindingKind::LaunchLimit);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("need 52000 bytes, over the 48 KiB of static shared memory a block may "
                            "have on the H200"),
            std::string::npos)
      << f->message;
  Arrays plain(2048);
  EXPECT_FALSE(plain.engine.Run(Shape(1, 1025), [] {}));
  f = FindKind(plain.engine.trace(), FindingKind::LaunchLimit);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("on the H100"), std::string::npos) << f->message;
}

TEST(Faults, ShuffleMaskNamingAbsentLanesIsReported) {
  Arrays a(32);
  a.engine.Run(Shape(1, 32), [&] { ShuffleWithHalfTheWarp(a.out); });
  EXPECT_NE(FindKind(a.engine.trace(), FindingKind::ShuffleMask), nullptr);
}

TEST(Faults, ACleanKernelHasNoFindings) {
  Arrays a(64);
  EXPECT_TRUE(a.engine.Run(Shape(2, 32), [&] { Noop(a.out); }));
  EXPECT_TRUE(a.engine.trace().findings.empty());
}
