// The CLI's text reports: every finding with its kind, source line, block, thread and address,
// in `stats` and in `trace`; and the launch hook that lets the CLI refuse a traced block or
// warp outside the launch before any block runs.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/report.h"
#include "sim/dialect.h"
#include "sim/engine.h"

namespace report_test {
using namespace ::ws::dialect;
using ::ws::sim::Engine;
using ::ws::sim::FindingKind;
using ::ws::sim::LaunchShape;

constexpr unsigned kOutOfBoundsLine = __LINE__ + 3;
__global__ void ReadsOnePastTheEnd(Global<const float> in, Global<float> out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1];  // the last thread reads in[n]
}

constexpr unsigned kRaceLine = __LINE__ + 4;
__global__ void ReadsNeighbourWithoutBarrier(Global<float> out) {
  __shared__ Shared<float[64]> buf;
  buf[threadIdx.x] = float(threadIdx.x);
  out[threadIdx.x] = buf[(threadIdx.x + 32) % 64];  // the other warp's word, no __syncthreads
}

// A trace with one site (line 12) and one array ("in"), for hand-made findings.
ws::sim::Trace HandMadeTrace() {
  ws::sim::Trace t;
  t.sites.push_back({"kernels/x.cuh", 12, 5});
  ws::sim::ArrayInfo a;
  a.name = "in";
  t.arrays.push_back(a);
  return t;
}

std::string Findings(const ws::sim::Trace& t) {
  std::ostringstream out;
  ws::app::PrintFindings(out, t);
  return out.str();
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace report_test

using namespace report_test;

TEST(Report, FindingLineNamesKindLineBlockThreadAndAddressOnceThenWhatHappened) {
  auto t = HandMadeTrace();
  ws::sim::Finding f;
  f.kind = FindingKind::OutOfBounds;
  f.message = "the thread reads in[4096], outside its 4096 elements";
  f.block = {3, 0, 0};
  f.thread = {5, 1, 0};
  f.site = 0;
  f.array = 0;
  f.address = 0x1040;
  f.has_address = true;
  f.occurrences = 4;
  t.findings.push_back(f);
  // The place once, in front; the message names the array with its index, so the place does not.
  EXPECT_EQ(Findings(t),
            "  error [out-of-bounds] line 12, block (3,0,0), thread (5,1,0), address 0x1040: "
            "the thread reads in[4096], outside its 4096 elements (4 times)\n");
}

TEST(Report, AnAddressIsSaidWhereTheFindingHasOneEvenAtZero) {
  auto t = HandMadeTrace();
  ws::sim::Finding f;
  f.kind = FindingKind::SharedRace;
  f.message = "m";
  f.site = 0;
  f.block = {0, 0, 0};
  f.thread = {0, 0, 0};
  f.has_address = true;  // word 0 of a shared array: address 0
  t.findings.push_back(f);
  f.has_address = false;
  f.address = 0x1040;  // an address field the finding does not stand for is not said
  t.findings.push_back(f);
  EXPECT_EQ(Findings(t),
            "  error [shared-race] line 12, block (0,0,0), thread (0,0,0), address 0x0: m\n"
            "  error [shared-race] line 12, block (0,0,0), thread (0,0,0): m\n");
}

TEST(Report, ABlockWideFindingNamesItsBlockButNoThread) {
  auto t = HandMadeTrace();
  ws::sim::Finding f;
  f.kind = FindingKind::BarrierDivergence;
  f.scope = ws::sim::FindingScope::Block;
  f.message = "threads of the block wait at different __syncthreads() calls";
  f.site = 0;
  f.block = {0, 2, 0};
  f.thread = {16, 0, 0};
  t.findings.push_back(f);
  EXPECT_EQ(Findings(t), "  error [barrier-divergence] line 12, block (0,2,0): threads of the block wait at different "
                         "__syncthreads() calls\n");
}

TEST(Report, RefusedLaunchNamesNoLineBlockOrAddress) {
  auto t = HandMadeTrace();
  ws::sim::Finding f;
  f.kind = FindingKind::LaunchLimit;
  f.scope = ws::sim::FindingScope::Launch;
  f.message = "a block of 2048 threads is over the 1024 a block may have";
  t.findings.push_back(f);
  EXPECT_EQ(Findings(t), "  error [launch-limit] a block of 2048 threads is over the 1024 a block may have\n");
}

TEST(Report, WarningIsMarkedAsAWarning) {
  auto t = HandMadeTrace();
  ws::sim::Finding f;
  f.kind = FindingKind::WarpSyncRace;
  f.message = "m";
  f.site = 0;
  f.block = {2, 0, 0};
  f.thread = {7, 0, 0};
  t.findings.push_back(f);
  EXPECT_EQ(Findings(t), "  warning [warp-synchronous-race] line 12, block (2,0,0), thread (7,0,0): m\n");
}

TEST(Report, SimulatedOutOfBoundsReadIsPrintedWithItsLineThreadAndAddress) {
  Engine engine;
  std::vector<float> a(64, 1.5f), b(64, 0.25f);
  const int ia = engine.BindGlobal("in", "float", 4, 64, 1, 64);
  const int ib = engine.BindGlobal("out", "float", 4, 64, 1, 64);
  Global<const float> in(a.data(), ia, engine.Array(ia).base, 64);
  Global<float> out(b.data(), ib, engine.Array(ib).base, 64);
  engine.Run({{2, 1, 1}, {32, 1, 1}}, [&] { ReadsOnePastTheEnd(in, out); });
  const std::string text = Findings(engine.trace());
  // Global thread 63 (thread 31 of block 1) reads in[64]: 64 floats past the base.
  char address[32];
  std::snprintf(address, sizeof address, "address 0x%llx", (unsigned long long)(engine.Array(ia).base + 64 * 4));
  EXPECT_TRUE(Has(text, "error [out-of-bounds] line " + std::to_string(kOutOfBoundsLine) +
                            ", block (1,0,0), thread (31,0,0), " + address +
                            ": the thread accesses in[64], outside its 64 elements; the access was skipped\n"))
      << text;
  // The place is said once: the message does not name the thread, block or line again.
  EXPECT_FALSE(Has(text, "of block (")) << text;
  EXPECT_FALSE(Has(text, "(line ")) << text;
}

TEST(Report, SimulatedSharedRaceIsPrintedWithItsLine) {
  Engine engine;
  std::vector<float> b(64, 0.25f);
  const int ib = engine.BindGlobal("out", "float", 4, 64, 1, 64);
  Global<float> out(b.data(), ib, engine.Array(ib).base, 64);
  engine.Run({{1, 1, 1}, {64, 1, 1}}, [&] { ReadsNeighbourWithoutBarrier(out); });
  const std::string text = Findings(engine.trace());
  EXPECT_TRUE(Has(text, "error [shared-race] line " + std::to_string(kRaceLine) + ", block (0,0,0), thread (")) << text;
}

TEST(Report, TextTraceEndsWithEveryFinding) {
  auto t = HandMadeTrace();
  ws::sim::Finding f;
  f.kind = FindingKind::BarrierDivergence;
  f.message = "threads of the block wait at different barriers";
  f.site = 0;
  f.block = {0, 2, 0};
  f.thread = {16, 0, 0};
  t.findings.push_back(f);
  ws::kernels::SimOutcome o{t, {}};
  std::ostringstream out;
  ws::app::PrintTrace(out, o, 64);  // no instructions were recorded: the findings still show
  EXPECT_EQ(out.str(),
            "findings:\n  error [barrier-divergence] line 12, block (0,2,0), thread (16,0,0): "
            "threads of the block wait at different barriers\n");
}

TEST(Report, LaunchHookRunsBeforeAnyThreadAndCanRefuseTheLaunch) {
  int threads_run = 0;
  LaunchShape seen{};
  ws::sim::LaunchOptions opt;
  opt.before_launch = [&](const LaunchShape& s) {
    seen = s;
    throw std::invalid_argument("refused");
  };
  Engine engine(opt);
  EXPECT_THROW(engine.Run({{7, 3, 1}, {32, 2, 1}}, [&] { ++threads_run; }), std::invalid_argument);
  EXPECT_EQ(threads_run, 0);
  EXPECT_EQ(seen.grid.Count(), 21u);  // 7 x 3 blocks
  EXPECT_EQ(seen.block.Count(), 64u);
}

TEST(Report, LaunchHookThatAcceptsLetsEveryThreadRun) {
  int threads_run = 0, calls = 0;
  ws::sim::LaunchOptions opt;
  opt.before_launch = [&](const LaunchShape&) { ++calls; };
  Engine engine(opt);
  engine.Run({{3, 1, 1}, {40, 1, 1}}, [&] { ++threads_run; });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(threads_run, 120);  // 3 blocks of 40
}
