// The selected block's early trace (LaunchOptions::on_selected_final, the GUI's first picture):
// its steps, captions, served-from marks and L1 log equal the whole launch's, it comes once the
// block's wave is replayed, and not at all where nothing would come before the launch's end.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "sim/caption.h"
#include "sim/device_profile.h"

using namespace ws;
using sim::Selection;

namespace {

// The H100 profile cut to 4 SMs: a launch of a few hundred blocks has several waves, so that
// small sizes (fast tests) put the selected block in a wave that is neither the first nor the
// last. Merge groups of 4 SMs as on the H100: another SM's traffic reaches the block's marks.
const sim::DeviceProfile& FourSms() {
  static const sim::DeviceProfile d = [] {
    sim::DeviceProfile p = *sim::FindDeviceProfile("H100");
    p.sms = 4;
    return p;
  }();
  return d;
}

struct Runs {
  int calls = 0;
  uint64_t blocks_done_then = 0;  // RunControl::blocks_done when the early trace came
  sim::Trace early, full;
};

Runs Both(const std::string& id, int n, uint32_t block, bool caches = true, const sim::DeviceProfile* device = &FourSms(),
          uint32_t threads = 1) {
  Runs r;
  sim::RunControl control;
  kernels::RunRequest req;
  req.n = n;
  req.seed = 11;
  sim::LaunchOptions opts;
  opts.selection = {Selection::Kind::Block, block, 0};
  opts.registers_per_thread = 32;
  opts.device = device;
  opts.caches = caches;
  opts.control = &control;
  opts.threads = threads;
  opts.on_selected_final = [&](sim::Trace t) {
    ++r.calls;
    r.blocks_done_then = control.blocks_done.load();
    r.early = std::move(t);
  };
  auto o = kernels::Simulate(kernels::FindVariant(id), req, opts);
  EXPECT_TRUE(o.check.passed) << id << ": " << o.check.detail;
  r.full = std::move(o.trace);
  return r;
}

// Every step of the early trace is the full run's: the instruction (lanes, addresses, costs),
// where each sector came from, its caption and the L1 as it stood.
void ExpectSameSteps(const std::string& what, const sim::Trace& early, const sim::Trace& full) {
  ASSERT_EQ(early.instructions.size(), full.instructions.size()) << what;
  ASSERT_FALSE(early.instructions.empty()) << what;
  size_t marked = 0;
  for (size_t i = 0; i < full.instructions.size(); ++i) {
    const auto& a = early.instructions[i];
    const auto& b = full.instructions[i];
    SCOPED_TRACE(what + ", step " + std::to_string(i));
    EXPECT_EQ(a.site, b.site);
    EXPECT_EQ(a.block, b.block);
    EXPECT_EQ(a.warp, b.warp);
    EXPECT_EQ(a.mask, b.mask);
    EXPECT_EQ(a.addr, b.addr);
    EXPECT_EQ(a.sectors, b.sectors);
    EXPECT_EQ(a.wavefronts, b.wavefronts);
    EXPECT_EQ(a.served, b.served);
    EXPECT_EQ(sim::Caption(a), sim::Caption(b));
    marked += b.served != 0;
  }
  EXPECT_EQ(early.sites.size(), full.sites.size()) << what;
  // The arrays the steps name, shared ones included, as the whole launch has them.
  ASSERT_EQ(early.arrays.size(), full.arrays.size()) << what;
  for (size_t i = 0; i < full.arrays.size(); ++i) {
    EXPECT_EQ(early.arrays[i].name, full.arrays[i].name) << what;
    EXPECT_EQ(early.arrays[i].base, full.arrays[i].base) << what;
  }
  if (!full.caches.device.empty()) {
    EXPECT_GT(marked, 0u) << what << ": a launch with caches marks its global steps";
    EXPECT_EQ(early.caches.l1_events_until, full.caches.l1_events_until) << what;
    ASSERT_EQ(early.caches.l1_events.size(), full.caches.l1_events.size()) << what;
    for (size_t i = 0; i < full.caches.l1_events.size(); ++i) {
      EXPECT_EQ(early.caches.l1_events[i].line, full.caches.l1_events[i].line) << what << " L1 event " << i;
      EXPECT_EQ(early.caches.l1_events[i].slot, full.caches.l1_events[i].slot) << what << " L1 event " << i;
      EXPECT_EQ(early.caches.l1_events[i].valid, full.caches.l1_events[i].valid) << what << " L1 event " << i;
    }
  }
  // Whole-launch figures are not in the early trace: they need every block.
  EXPECT_EQ(early.total.mem_inst, 0u) << what;
  EXPECT_GT(full.total.mem_inst, 0u) << what;
}

TEST(FirstPicture, ShortcutV0MarksAreFinalOnceTheBlocksWaveIsReplayed) {
  // n=160, 16x16 blocks: a grid of 10 x 10 = 100 blocks. 256 threads a block, 2048 an SM: 8
  // blocks per SM, 4 SMs: 32 blocks a wave, waves 0-31, 32-63, 64-95, 96-99. Block 40 (SM 0)
  // is in wave 1: its marks are final when block 64 begins, 64 blocks done.
  const Runs r = Both("shortcut/v0", 160, 40);
  ASSERT_EQ(r.calls, 1);
  EXPECT_EQ(r.full.caches.blocks_per_sm, 8u);
  EXPECT_EQ(r.full.caches.waves, 4u);
  EXPECT_EQ(r.blocks_done_then, 64u);
  ExpectSameSteps("shortcut/v0 block 40", r.early, r.full);
  // Later waves run on the same SM (blocks 44, 48, ...; 72, 76, ...): the L1 log stops at the
  // block's wave, and it has events (block 40's loads allocate).
  EXPECT_FALSE(r.early.caches.l1_events.empty());
}

TEST(FirstPicture, CatalogVariantsStepsCaptionsAndMarksEqualTheWholeLaunch) {
  // Each launch has at least three waves on 4 SMs; the selected block is the second of wave 1
  // (SM 1), so waves before and after it run.
  struct Case {
    const char* id;
    int n;
  };
  const Case cases[] = {
      {"shortcut/v1", 160},          // 100 blocks of 256 threads: 4 waves of 32
      {"shortcut/v0_transposed", 160},
      {"transpose/naive", 320},      // 100 tiles of 32x32
      {"transpose/shared_padded", 320},  // shared memory
      {"pairs/v1", 1024},
      {"pairs/v3", 1024},            // atomics, performed at L2
      {"divergence/divergent", 204800},  // 100 blocks of 256
      {"alignment/float4", 40000},
  };
  for (const auto& c : cases) {
    // Where the second block of wave 1 is: from the launch's blocks per SM.
    const Runs probe = Both(c.id, c.n, 0);
    const uint64_t per_wave = uint64_t(probe.full.caches.blocks_per_sm) * FourSms().sms;
    ASSERT_GE(probe.full.caches.waves, 3u) << c.id << " at n=" << c.n << ": too few waves to test";
    const uint32_t block = uint32_t(per_wave + 1);
    const Runs r = Both(c.id, c.n, block);
    ASSERT_EQ(r.calls, 1) << c.id;
    EXPECT_EQ(r.blocks_done_then, 2 * per_wave) << c.id << ": the early trace comes as wave 2 begins";
    ExpectSameSteps(std::string(c.id) + " block " + std::to_string(block), r.early, r.full);
    // Block 0 (wave 0) too: its L1 sees what wave 0's other blocks on SM 0 bring.
    ASSERT_EQ(probe.calls, 1) << c.id;
    ExpectSameSteps(std::string(c.id) + " block 0", probe.early, probe.full);
  }
}

TEST(FirstPicture, OnTheH100TheFirstOfFourWavesIsFinalAfterIt) {
  // alignment/float4 at n = 2^20: 4096 blocks of 256 threads, 8 per SM on 132 SMs, 1056 a wave,
  // 4 waves; block 0's early trace comes as block 1056 begins.
  const Runs r = Both("alignment/float4", 1 << 20, 0, true, nullptr);
  ASSERT_EQ(r.calls, 1);
  EXPECT_EQ(r.full.caches.waves, 4u);
  EXPECT_EQ(r.blocks_done_then, 1056u);
  ExpectSameSteps("alignment/float4 on the H100", r.early, r.full);
}

TEST(FirstPicture, WithoutCachesTheBlockIsFinalOnceItHasRun) {
  // No replay: block 40's steps are final when it has run, 41 blocks done.
  const Runs r = Both("shortcut/v0", 160, 40, false);
  ASSERT_EQ(r.calls, 1);
  EXPECT_EQ(r.blocks_done_then, 41u);
  ExpectSameSteps("shortcut/v0 without caches", r.early, r.full);
}

TEST(FirstPicture, NothingEarlyWhereTheBlockIsInTheLastWave) {
  // Block 96 is in wave 3, the last (blocks 96-99): the launch is done when its marks are.
  EXPECT_EQ(Both("shortcut/v0", 160, 96).calls, 0);
  // One wave in all (shortcut/v0 at n=64: 16 blocks): nothing comes before the end either.
  EXPECT_EQ(Both("shortcut/v0", 64, 0).calls, 0);
  // Without caches, the last block of the grid is the end of the launch.
  EXPECT_EQ(Both("shortcut/v0", 160, 99, false).calls, 0);
}

}  // namespace

namespace {

TEST(FirstPicture, TheBlocksStepsComeOnceItHasRunWithoutMarks) {
  // shortcut/v0 at n=160 (100 blocks, 4 waves of 32 on 4 SMs): block 40's steps are final once it
  // has run, and come once the block after it has too (residency known), 42 blocks done; its
  // marks only after its wave, at 64.
  sim::RunControl control;
  kernels::RunRequest req;
  req.n = 160;
  req.seed = 11;
  sim::LaunchOptions opts;
  opts.selection = {Selection::Kind::Block, 40, 0};
  opts.registers_per_thread = 32;
  opts.device = &FourSms();
  opts.control = &control;
  std::vector<std::pair<std::string, uint64_t>> order;  // which came, at how many blocks done
  sim::Trace steps;
  opts.on_selected_ran = [&](sim::Trace t) {
    order.push_back({"steps", control.blocks_done.load()});
    steps = std::move(t);
  };
  opts.on_selected_final = [&](sim::Trace) { order.push_back({"marks", control.blocks_done.load()}); };
  const auto full = kernels::Simulate(kernels::FindVariant("shortcut/v0"), req, opts).trace;
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], std::make_pair(std::string("steps"), uint64_t(42)));
  EXPECT_EQ(order[1], std::make_pair(std::string("marks"), uint64_t(64)));
  // The steps are the whole launch's but for where the sectors came from, which they leave out:
  // no cache model in the copy, and each caption is the full run's less its served-from part.
  EXPECT_TRUE(steps.caches.device.empty());
  ASSERT_EQ(steps.instructions.size(), full.instructions.size());
  for (size_t i = 0; i < full.instructions.size(); ++i) {
    sim::WarpInstruction unmarked = full.instructions[i];
    unmarked.served = 0;
    EXPECT_EQ(steps.instructions[i].served, 0u) << i;
    EXPECT_EQ(steps.instructions[i].addr, full.instructions[i].addr) << i;
    EXPECT_EQ(sim::Caption(steps.instructions[i]), sim::Caption(unmarked)) << i;
  }
  // No steps ahead where the marks come only with the launch's end (block 96: the last wave).
  int ran = 0;
  opts.selection = {Selection::Kind::Block, 96, 0};
  opts.on_selected_ran = [&](sim::Trace) { ++ran; };
  opts.on_selected_final = nullptr;
  kernels::Simulate(kernels::FindVariant("shortcut/v0"), req, opts);
  EXPECT_EQ(ran, 0);
}

}  // namespace

namespace {

// On several threads the blocks are merged in order into one trace (sim/parallel_run.h); the early
// copies come from the merge as the blocks reach it, and are the one-thread run's: every step,
// mark, caption, the L1 log and the arrays. pairs/v3's atomics make its blocks see each other: it
// runs again on one thread, and gives its copy once, from that run.
TEST(FirstPicture, OnSeveralThreadsTheEarlyTraceIsTheOneThreadRuns) {
  struct Case {
    const char* id;
    int n;
  };
  const Case cases[] = {
      {"shortcut/v0", 160},
      {"transpose/shared_padded", 320},  // a shared array, placed by the workers
      {"pairs/v3", 1024},                // atomics: again on one thread
      {"alignment/float4", 40000},
  };
  for (const auto& c : cases) {
    const Runs one = Both(c.id, c.n, 33);
    ASSERT_EQ(one.calls, 1) << c.id;
    for (uint32_t threads : {2u, 4u}) {
      const std::string what = std::string(c.id) + " on " + std::to_string(threads) + " threads";
      const Runs r = Both(c.id, c.n, 33, true, &FourSms(), threads);
      ASSERT_EQ(r.calls, 1) << what;
      ExpectSameSteps(what, r.early, r.full);
      ExpectSameSteps(what + " against one thread", r.early, one.full);
    }
  }
}

TEST(FirstPicture, OnSeveralThreadsTheStepsComeBeforeTheMarks) {
  // As on one thread (TheBlocksStepsComeOnceItHasRunWithoutMarks): block 40's steps, without
  // marks, once blocks 40 and 41 are merged; its marks once wave 1 is replayed.
  kernels::RunRequest req;
  req.n = 160;
  req.seed = 11;
  sim::LaunchOptions opts;
  opts.selection = {Selection::Kind::Block, 40, 0};
  opts.registers_per_thread = 32;
  opts.device = &FourSms();
  opts.threads = 3;
  std::vector<std::string> order;
  sim::Trace steps;
  opts.on_selected_ran = [&](sim::Trace t) {
    order.push_back("steps");
    steps = std::move(t);
  };
  opts.on_selected_final = [&](sim::Trace) { order.push_back("marks"); };
  const auto full = kernels::Simulate(kernels::FindVariant("shortcut/v0"), req, opts).trace;
  EXPECT_EQ(full.threads, 3u);
  ASSERT_EQ(order, (std::vector<std::string>{"steps", "marks"}));
  ASSERT_EQ(steps.instructions.size(), full.instructions.size());
  for (size_t i = 0; i < full.instructions.size(); ++i) {
    EXPECT_EQ(steps.instructions[i].served, 0u) << i;
    EXPECT_EQ(steps.instructions[i].addr, full.instructions[i].addr) << i;
    EXPECT_EQ(steps.instructions[i].sectors, full.instructions[i].sectors) << i;
  }
}

}  // namespace
