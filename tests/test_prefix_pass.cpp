// The prefix pass (sim/prefix_pass.h, LaunchOptions::on_selected_prefix): every step it declares
// final has the whole launch's served-from marks, L1 log and L2 lines, for every catalog variant,
// kernels outside the catalog (textbook ones, barriers, divergence, warps that end early), on one
// and two threads; and it gives no picture where the blocks see each other.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/sim_backend.h"
#include "sim/device_profile.h"
#include "sim/dialect.h"
#include "sim/engine.h"
#include "tests/filler_inputs.h"

namespace prefix {
using namespace ::ws::dialect;
using ::ws::sim::LaunchOptions;
using ::ws::sim::Selection;
using ::ws::sim::Trace;

#include "tests/reductions.cuh"
#include "tests/textbook.cuh"

// The H100 profile cut to 4 SMs: small launches have several waves (as in test_first_picture.cpp).
const ::ws::sim::DeviceProfile& FourSms() {
  static const ::ws::sim::DeviceProfile d = [] {
    ::ws::sim::DeviceProfile p = *::ws::sim::FindDeviceProfile("H100");
    p.sms = 4;
    return p;
  }();
  return d;
}

LaunchOptions Options(uint32_t threads, uint64_t cut, const ::ws::sim::DeviceProfile* device = &FourSms(),
                      uint32_t block = 0) {
  LaunchOptions o;
  o.selection = {Selection::Kind::Block, block, 0};
  o.registers_per_thread = 32;
  o.device = device;
  o.threads = threads;
  o.prefix_cut = cut;
  return o;
}

struct Counts {
  int pictures = 0;  // prefix pictures given
  int cut = 0;       // of them, with steps still to come
  size_t steps = 0;  // final steps checked
};

// The prefix picture's final steps against the whole launch: the steps themselves (the selected
// block ran whole), and for each final step its marks, its L2 lines and the L1 log up to it.
void ExpectFinalStepsAreTheLaunchs(const std::string& what, const Trace& early, const Trace& full, Counts& counts) {
  SCOPED_TRACE(what);
  ++counts.pictures;
  ASSERT_EQ(early.instructions.size(), full.instructions.size());
  const size_t k = early.caches.final_steps;
  ASSERT_LE(k, full.instructions.size());
  EXPECT_EQ(full.caches.final_steps, SIZE_MAX) << "the whole launch's marks are all final";
  counts.cut += k < full.instructions.size();
  counts.steps += k;
  uint32_t l1_until = 0;
  for (size_t i = 0; i < full.instructions.size(); ++i) {
    const auto& a = early.instructions[i];
    const auto& b = full.instructions[i];
    SCOPED_TRACE("step " + std::to_string(i) + " of " + std::to_string(k) + " final");
    EXPECT_EQ(a.warp, b.warp);
    EXPECT_EQ(a.mask, b.mask);
    EXPECT_EQ(a.addr, b.addr);
    EXPECT_EQ(a.sectors, b.sectors);
    EXPECT_EQ(early.sites[a.site].line, full.sites[b.site].line);
    if (i >= k) {
      EXPECT_EQ(a.served, 0u) << "a step past the final ones has no marks";
      continue;
    }
    EXPECT_EQ(a.served, b.served);
    ASSERT_LT(i, early.caches.l1_events_until.size());
    EXPECT_EQ(early.caches.l1_events_until[i], full.caches.l1_events_until[i]);
    l1_until = std::max(l1_until, early.caches.l1_events_until[i]);
    const bool early_l2 = i < early.caches.l2_steps.size(), full_l2 = i < full.caches.l2_steps.size();
    const auto re = early_l2 ? early.caches.l2_steps[i] : Trace::Caches::L2Range{};
    const auto rf = full_l2 ? full.caches.l2_steps[i] : Trace::Caches::L2Range{};
    ASSERT_EQ(re.end - re.begin, rf.end - rf.begin);
    for (uint32_t j = 0; j < re.end - re.begin; ++j) {
      const auto& x = early.caches.l2_lines[re.begin + j];
      const auto& y = full.caches.l2_lines[rf.begin + j];
      EXPECT_EQ(x.line, y.line);
      EXPECT_EQ(x.way, y.way);
      EXPECT_EQ(x.valid, y.valid);
      EXPECT_EQ(x.hit, y.hit);
      EXPECT_EQ(x.dram, y.dram);
      EXPECT_EQ(x.merged, y.merged);
      EXPECT_EQ(x.evicted, y.evicted);
    }
  }
  ASSERT_LE(l1_until, early.caches.l1_events.size());
  ASSERT_LE(l1_until, full.caches.l1_events.size());
  for (uint32_t i = 0; i < l1_until; ++i) {
    EXPECT_EQ(early.caches.l1_events[i].line, full.caches.l1_events[i].line) << "L1 event " << i;
    EXPECT_EQ(early.caches.l1_events[i].slot, full.caches.l1_events[i].slot) << "L1 event " << i;
    EXPECT_EQ(early.caches.l1_events[i].valid, full.caches.l1_events[i].valid) << "L1 event " << i;
  }
}

// A catalog variant with the pass; returns whether it gave a picture.
bool CheckVariant(const ::ws::kernels::VariantRef& ref, int n, LaunchOptions o, Counts& counts) {
  int calls = 0;
  Trace early;
  o.on_selected_prefix = [&](Trace t) {
    ++calls;
    early = std::move(t);
  };
  ::ws::kernels::RunRequest r;
  r.n = n;
  r.seed = 7;
  const auto out = ::ws::kernels::Simulate(ref, r, o);
  const std::string what = ref.Id() + " n=" + std::to_string(n) + " threads=" + std::to_string(o.threads) +
                           " cut=" + std::to_string(o.prefix_cut) + " block " + std::to_string(o.selection.block);
  EXPECT_TRUE(out.check.passed) << what << ": the pass leaves the arrays as they were: " << out.check.detail;
  EXPECT_LE(calls, 1) << what;
  if (calls) ExpectFinalStepsAreTheLaunchs(what, early, out.trace, counts);
  return calls == 1;
}

TEST(PrefixPass, EveryCatalogVariantsFinalStepsAreTheWholeLaunchs) {
  // Every variant at a size of three waves or more on 4 SMs (the sizes of test_first_picture.cpp;
  // a family not named there at 4x its teaching size), at a cut of 1 (a lane stops at its first
  // pause or chunk of accesses) and of 32, block 0 on one and two threads and the selected block 5
  // (blocks 0 and 5 run whole, the others are cut).
  const std::map<std::string, int> sizes = {
      {"shortcut", 160}, {"transpose", 320}, {"pairs", 1024}, {"divergence", 204800}, {"alignment", 40000}};
  Counts counts;
  int variants = 0;
  std::set<std::string> pictured;
  for (const auto& family : ::ws::kernels::Catalog()) {
    if (family.from_file) continue;
    const auto size = sizes.find(family.info.name);
    const int n = size != sizes.end() ? size->second : 4 * family.info.teaching_n;
    for (const auto& v : family.info.variants) {
      ++variants;
      const ::ws::kernels::VariantRef ref{&family, &v};
      for (uint64_t cut : {1u, 32u})
        for (uint32_t threads : {1u, 2u})
          if (CheckVariant(ref, n, Options(threads, cut), counts)) pictured.insert(family.info.name);
      CheckVariant(ref, n, Options(1, 1, &FourSms(), 5), counts);
    }
  }
  EXPECT_GT(variants, 20);
  // shortcut's loops and transpose's shared tiles make pictures; pairs makes none (each thread
  // ends with a global atomicAdd into one word), divergence and alignment none (a thread makes one
  // or two accesses: no cut saves half of it). Most pictures stop before the block's last step:
  // the cuts are real.
  EXPECT_EQ(pictured, (std::set<std::string>{"shortcut", "transpose"}));
  EXPECT_GT(counts.pictures, 4 * 8);
  EXPECT_GT(counts.cut, counts.pictures / 2);
  EXPECT_GT(counts.steps, 1000u);
}

TEST(PrefixPass, OnTheH100OneWaveAndFourWavesGiveTheLaunchsMarks) {
  // shortcut/v0 at n = 256: 256 blocks, one wave on 132 SMs; the default first cut (128), step 0.
  // At 512, 1024 blocks of 256 threads: 8 a SM, 1056 a wave, still one. transpose/shared at 2048:
  // 4096 tiles of 32x8 threads, several waves, a cut of 1.
  Counts counts;
  EXPECT_TRUE(CheckVariant(::ws::kernels::FindVariant("shortcut/v0"), 256, Options(1, 0, nullptr), counts));
  EXPECT_TRUE(CheckVariant(::ws::kernels::FindVariant("shortcut/v1"), 512, Options(2, 0, nullptr), counts));
  EXPECT_TRUE(CheckVariant(::ws::kernels::FindVariant("transpose/shared"), 2048, Options(1, 1, nullptr), counts));
  EXPECT_GE(counts.cut, 2) << "shortcut's 2 x n reads a thread are cut";
}

TEST(PrefixPass, TheAskedStepIsFinalTheCutDoublingUntilItIs) {
  // shortcut/v0 at n = 160 on 4 SMs: each thread reads 2 x 160 words. Step 60 of warp 0 needs more
  // than a cut of 4 (warp 0 issues one global step per access, and the other blocks start later).
  Counts counts;
  auto o = Options(1, 4);
  o.prefix_step = 60;
  Trace early;
  o.on_selected_prefix = [&](Trace t) { early = std::move(t); };
  ::ws::kernels::RunRequest r;
  r.n = 160;
  const auto out = ::ws::kernels::Simulate(::ws::kernels::FindVariant("shortcut/v0"), r, o);
  ASSERT_FALSE(early.instructions.empty());
  ExpectFinalStepsAreTheLaunchs("shortcut/v0 step 60", early, out.trace, counts);
  uint32_t warp0 = 0;
  for (size_t i = 0; i < early.caches.final_steps; ++i) warp0 += early.instructions[i].warp == 0;
  EXPECT_GT(warp0, 60u);
}

TEST(PrefixPass, ThePictureComesBeforeAnyBlockOfTheLaunchThenTheWavesMarksAndNoStepsWithout) {
  // shortcut/v0 at n = 160 on 4 SMs: 100 blocks, 4 waves of 32. The prefix picture comes before
  // the launch's first block has run; the steps without marks (on_selected_ran) would bring
  // nothing more, and do not come; the wave's marks (every step) come as block 32 begins.
  ::ws::sim::RunControl control;
  auto o = Options(2, 0);
  o.control = &control;
  std::vector<std::pair<std::string, uint64_t>> order;
  o.on_selected_prefix = [&](Trace) { order.push_back({"prefix", control.blocks_done.load()}); };
  o.on_selected_ran = [&](Trace) { order.push_back({"steps", control.blocks_done.load()}); };
  o.on_selected_final = [&](Trace) { order.push_back({"wave", control.blocks_done.load()}); };
  ::ws::kernels::RunRequest r;
  r.n = 160;
  ::ws::kernels::Simulate(::ws::kernels::FindVariant("shortcut/v0"), r, o);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], std::make_pair(std::string("prefix"), uint64_t(0)));
  EXPECT_EQ(order[1].first, "wave");
}

// ---- kernels outside the catalog ----
// Divergent: odd lanes read twice as far; a third of the warps end early.
__global__ void DivergesAndEndsEarly(Global<const float> in, Global<float> out, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x >= 64 && threadIdx.x < 96) return;  // warp 2 has no accesses
  float s = 0.0f;
  int k = threadIdx.x % 2 == 1 ? 2 * steps : steps;
  for (int j = 0; j < k; ++j) s += in[(i * 5 + j * 33) % 4096];
  out[i] = s;
}

// Barriers in a loop, shared memory between warps.
__global__ void StagesThroughSharedWithBarriers(Global<const float> in, Global<float> out, int rounds) {
  __shared__ Shared<float[128]> t;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    t[threadIdx.x] = in[(i + r * 128) % 8192];
    __syncthreads();
    s += t[127 - threadIdx.x];
    __syncthreads();
  }
  out[i] = s;
}

// Blocks that read what others write: each reads a word the block before it writes at its end.
__global__ void ReadsWhatTheBlockBeforeWritesLast(Global<float> data, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < steps; ++j) s += data[(i + j) % 8192];
  // A value read decides an address: a block that read another's late write would differ.
  int k = int(data[(i + 32) % 8192]) & 63;
  s += data[(i + k) % 8192];
  data[i] = s;
}

// Each block from block 2 on reads, 200 times (past any cut here: a lane stops after a chunk of 64
// accesses at the least), words the block before it writes only at its end,
// and a value read decides an address. In the pass block 1 is cut before it writes: block 2 would
// read the words as they were, not as block 1 left them. No block of the pass both writes a word
// and has another block touch it (block 0, whole, writes words nobody reads), so the shadow sees
// nothing; the array has words written and others only read, and that refuses it.
__global__ void ReadsWhatTheBlockBeforeWritesAtItsEnd(Global<float> data, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int from = blockIdx.x >= 2 ? i - int(blockDim.x) : i;
  float s = 0.0f;
  for (int j = 0; j < steps; ++j) s += data[from];
  int k = int(s * 1000.0f) & 63;
  s += data[(from + k) % 8192];
  data[i] = s;
}

// Every block adds into one word: a global atomic.
__global__ void AddsIntoOneWord(Global<const float> in, Global<float> sum, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < steps; ++j) s += in[(i + j * 7) % 8192];
  atomicAdd(&sum[0], s);
}

struct Launched {
  int calls = 0;
  Trace early, full;
};

template <class Body>
Launched RunWithPass(LaunchOptions o, Body body) {
  Launched r;
  o.on_selected_prefix = [&](Trace t) {
    ++r.calls;
    r.early = std::move(t);
  };
  ::ws::sim::Engine engine(o);
  ::ws::kernels::SimBackend b(engine);
  body(b);
  r.full = engine.TakeTrace();
  return r;
}

std::vector<float> Inputs(size_t n) { return ::ws::test_inputs::FillerFloats(n); }

TEST(PrefixPass, KernelsOutsideTheCatalogDivergingWithBarriersAndTextbookOnesAreExact) {
  Counts counts;
  for (uint32_t threads : {1u, 2u})
    for (uint64_t cut : {2u, 8u, 24u}) {
      const std::string at = " threads=" + std::to_string(threads) + " cut=" + std::to_string(cut);
      auto diverges = RunWithPass(Options(threads, cut), [](::ws::kernels::SimBackend& b) {
        auto in = b.Upload<const float>("in", "float", Inputs(4096), 1, 4096);
        auto out = b.Alloc<float>("out", "float", 128 * 80, 1, 128 * 80);
        b.Launch(dim3(80), dim3(128), DivergesAndEndsEarly, in, out, 40);
      });
      ASSERT_EQ(diverges.calls, 1) << at;
      ExpectFinalStepsAreTheLaunchs("diverges" + at, diverges.early, diverges.full, counts);
      auto staged = RunWithPass(Options(threads, cut), [](::ws::kernels::SimBackend& b) {
        auto in = b.Upload<const float>("in", "float", Inputs(8192), 1, 8192);
        auto out = b.Alloc<float>("out", "float", 128 * 80, 1, 128 * 80);
        b.Launch(dim3(80), dim3(128), StagesThroughSharedWithBarriers, in, out, 20);
      });
      ASSERT_EQ(staged.calls, 1) << at;
      ExpectFinalStepsAreTheLaunchs("barriers" + at, staged.early, staged.full, counts);
      auto reduced = RunWithPass(Options(threads, cut), [](::ws::kernels::SimBackend& b) {
        const unsigned n = kBlock * 2 * 200;
        auto in = b.Upload<const float>("in", "float", Inputs(n), 1, n);
        auto out = b.Alloc<float>("out", "float", 200, 1, 200);
        b.Launch(dim3(200), dim3(kBlock), reduce3, in, out, n);
      });
      if (reduced.calls) ExpectFinalStepsAreTheLaunchs("reduce3" + at, reduced.early, reduced.full, counts);
      auto reduced0 = RunWithPass(Options(threads, cut), [](::ws::kernels::SimBackend& b) {
        const unsigned n = kBlock * 200;
        auto in = b.Upload<const float>("in", "float", Inputs(n), 1, n);
        auto out = b.Alloc<float>("out", "float", 200, 1, 200);
        b.Launch(dim3(200), dim3(kBlock), reduce0, in, out, n);
      });
      if (reduced0.calls) ExpectFinalStepsAreTheLaunchs("reduce0" + at, reduced0.early, reduced0.full, counts);
    }
  EXPECT_GE(counts.pictures, 12);
  EXPECT_GE(counts.cut, 12) << "the cuts leave steps to come";
}

TEST(PrefixPass, BlocksThatSeeEachOtherGiveNoPicture) {
  // Through a global word (the shadow of sim/parallel_run.h, or an array written and read), through
  // a global atomic, through shared memory a block did not write.
  for (uint64_t cut : {2u, 8u, 64u}) {
    SCOPED_TRACE("cut=" + std::to_string(cut));
    EXPECT_EQ(RunWithPass(Options(1, cut), [](::ws::kernels::SimBackend& b) {
                auto data = b.Upload<float>("data", "float", Inputs(8192), 1, 8192);
                b.Launch(dim3(64), dim3(128), ReadsWhatTheBlockBeforeWritesLast, data, 40);
              }).calls, 0);
    EXPECT_EQ(RunWithPass(Options(1, cut), [](::ws::kernels::SimBackend& b) {
                auto data = b.Upload<float>("data", "float", Inputs(8192), 1, 8192);
                b.Launch(dim3(64), dim3(128), ReadsWhatTheBlockBeforeWritesAtItsEnd, data, 200);
              }).calls, 0) << "words read that a cut block writes later";
    EXPECT_EQ(RunWithPass(Options(1, cut), [](::ws::kernels::SimBackend& b) {
                auto in = b.Upload<const float>("in", "float", Inputs(8192), 1, 8192);
                auto sum = b.Upload<float>("sum", "float", std::vector<float>(1, 0.0f), 1, 1);
                b.Launch(dim3(64), dim3(128), AddsIntoOneWord, in, sum, 40);
              }).calls, 0);
  }
}

TEST(PrefixPass, TheLaunchAfterThePassLeavesTheArraysItLeavesWithout) {
  // The pass writes (its cut blocks' first stores, blocks 0 and 5 whole) and puts each word back
  // before the launch: the arrays after it are those of the launch alone, in place or not, with a
  // picture or refused.
  auto run = [](bool with_pass, auto kernel_body) {
    auto o = Options(1, 2, &FourSms(), 5);
    int calls = 0;
    if (with_pass) o.on_selected_prefix = [&](Trace) { ++calls; };
    ::ws::sim::Engine engine(o);
    ::ws::kernels::SimBackend b(engine);
    std::vector<std::vector<float>> out = kernel_body(b);
    return std::make_pair(out, calls);
  };
  auto in_place = [](::ws::kernels::SimBackend& b) {
    auto data = b.Upload<float>("data", "float", Inputs(8192), 1, 8192);
    b.Launch(dim3(64), dim3(128), ReadsWhatTheBlockBeforeWritesLast, data, 40);
    return std::vector<std::vector<float>>{b.Download(data)};
  };
  auto diverges = [](::ws::kernels::SimBackend& b) {
    auto in = b.Upload<const float>("in", "float", Inputs(4096), 1, 4096);
    auto out = b.Upload<float>("out", "float", Inputs(128 * 80), 1, 128 * 80);
    b.Launch(dim3(80), dim3(128), DivergesAndEndsEarly, in, out, 40);
    return std::vector<std::vector<float>>{b.Download(out)};
  };
  const auto a = run(false, in_place), b = run(true, in_place);
  EXPECT_EQ(b.second, 0);
  EXPECT_TRUE(a.first == b.first) << "an array written in place";
  const auto c = run(false, diverges), d = run(true, diverges);
  EXPECT_EQ(d.second, 1);
  EXPECT_TRUE(c.first == d.first) << "an output array";
}

}  // namespace prefix
