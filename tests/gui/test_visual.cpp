// The views' pure rules: where cells, lanes and banks go, how banks are counted, how stepping
// by iteration moves. Expected values worked out by hand.
#include <gtest/gtest.h>

#include "visual/banks.h"
#include "visual/fault_banner.h"
#include "visual/counters.h"
#include "visual/layout.h"
#include "visual/palette.h"
#include "visual/warp_lanes.h"
#include "visual/steps.h"

namespace ws::visual {
namespace {

TEST(Layout, SquareGridFitsTheShorterSide) {
  // 64x64 cells in 640x320: the height limits, 5 px a cell.
  const GridLayout g = LayoutGrid(64, 64, Rect{10, 20, 640, 320});
  EXPECT_FLOAT_EQ(g.cell, 5.0f);
  const Rect c = CellRect(g, 3, 7);
  EXPECT_FLOAT_EQ(c.x, 10 + 7 * 5.0f);
  EXPECT_FLOAT_EQ(c.y, 20 + 3 * 5.0f);
}

TEST(Layout, ZoomMultipliesTheCell) {
  EXPECT_FLOAT_EQ(LayoutGrid(10, 20, Rect{0, 0, 200, 200}, 2.0f).cell, 20.0f);
}

TEST(Layout, OneDimensionalArraysWrapAt32SoARowIsALine) {
  const GridShape s = DrawShape(1, 1000, 1000);
  EXPECT_EQ(s.cols, 32u);
  EXPECT_EQ(s.rows, 32u);  // ceil(1000 / 32)
  const GridShape m = DrawShape(40, 40, 1600);
  EXPECT_EQ(m.rows, 40u);
  EXPECT_EQ(m.cols, 40u);
}

TEST(Layout, LaneBoxesSplitTheStripInto32) {
  const Rect b = LaneBox(Rect{100, 50, 640, 30}, 5);
  EXPECT_FLOAT_EQ(b.x, 100 + 5 * 20.0f);
  EXPECT_FLOAT_EQ(b.w, 20.0f);
  EXPECT_FLOAT_EQ(b.h, 20.0f);  // square: the width is the smaller side
}

TEST(Layout, BankSlotsStackUnderTheirHeader) {
  BankLayout b{Rect{0, 100, 320, 400}, 30, 10};
  EXPECT_FLOAT_EQ(BankHeader(b, 31).x, 310.0f);
  const Rect s = BankSlot(b, 2, 3);
  EXPECT_FLOAT_EQ(s.x, 20.0f);
  EXPECT_FLOAT_EQ(s.y, 100 + 30 + 3 * 10.0f);
}

TEST(BankView, NarrowColumnsLabelEveryFourthBank) {
  // 20 px columns, a 14 px two-digit label: 20 < 2 x 14, and 4 columns (80 px) hold 1.5 labels
  // (21 px): banks 0, 4, ..., 28 only, 8 labels.
  const int stride = LabelStride(20.0f, 14.0f);
  EXPECT_EQ(stride, 4);
  int shown = 0;
  for (int bank = 0; bank < 32; ++bank) shown += bank % stride == 0;
  EXPECT_EQ(shown, 8);
  // 30 px columns hold two labels' width: every bank.
  EXPECT_EQ(LabelStride(30.0f, 14.0f), 1);
  // 5 px columns: 4 x 5 = 20 < 21, 8 x 5 = 40 >= 21: every 8th.
  EXPECT_EQ(LabelStride(5.0f, 14.0f), 8);
}

TEST(BankView, StackThatDoesNotFitIsSummarised) {
  // 32 words, room for 12 slots: 11 words and a "+21 more" row.
  const BankStack s = FitBankStack(32, 12);
  EXPECT_EQ(s.shown, 11);
  EXPECT_EQ(s.more, 21);
  const BankStack all = FitBankStack(32, 32);  // exactly fits: no summary
  EXPECT_EQ(all.shown, 32);
  EXPECT_EQ(all.more, 0);
}

sim::Trace LoopTrace() {
  // Two lines in a loop of three iterations: 10, 12, 10, 12, 10, 12, then a store at line 14.
  sim::Trace t;
  t.sites = {{"k.cuh", 10, 1}, {"k.cuh", 12, 1}, {"k.cuh", 14, 1}};
  for (uint32_t e = 0; e < 3; ++e)
    for (uint32_t s = 0; s < 2; ++s) {
      sim::WarpInstruction ins;
      ins.site = s;
      ins.epoch = e;
      t.instructions.push_back(ins);
    }
  sim::WarpInstruction st;
  st.site = 2;
  st.epoch = 3;
  t.instructions.push_back(st);
  sim::WarpInstruction other;  // another warp: not one of warp 0's steps
  other.warp = 1;
  t.instructions.push_back(other);
  return t;
}

TEST(Steps, WarpStepsKeepOnlyThatWarp) {
  const auto t = LoopTrace();
  EXPECT_EQ(WarpSteps(t, 0, 0).size(), 7u);
  EXPECT_EQ(WarpSteps(t, 0, 1), std::vector<uint32_t>{7});
}

TEST(Steps, IterationMovesToTheSameLine) {
  const auto t = LoopTrace();
  const auto steps = WarpSteps(t, 0, 0);
  EXPECT_EQ(IterationStep(t, steps, 1, +1), 3);  // line 12, iteration 0 -> 1
  EXPECT_EQ(IterationStep(t, steps, 3, -1), 1);
  EXPECT_EQ(IterationStep(t, steps, 6, +1), 6);  // the store runs once: stays
}

TEST(Steps, LockstepFindsTheSamePlaceInAnIteration) {
  const auto t = LoopTrace();
  const auto steps = WarpSteps(t, 0, 0);
  EXPECT_EQ(OffsetInIteration(t, steps, 5), 1);
  EXPECT_EQ(StepAtIteration(t, steps, 2, 1), 5);
  EXPECT_EQ(StepAtIteration(t, steps, 2, 9), 5);  // clamped to the iteration
}

// A trace of one warp whose instructions have the given roles, in order: (op, space, array name).
struct Role {
  sim::Op op;
  sim::Space space;
  const char* array;
};
sim::Trace RoleTrace(std::initializer_list<Role> roles) {
  sim::Trace t;
  t.sites = {{"k.cuh", 1, 1}};
  for (const Role& r : roles) {
    int id = -1;
    for (const auto& a : t.arrays)
      if (a.name == r.array) id = a.id;
    if (id < 0) {
      id = int(t.arrays.size());
      t.arrays.push_back({id, r.array, "float", 4, 64, 1, 64, r.space, 0});
    }
    sim::WarpInstruction ins;
    ins.op = r.op;
    ins.space = r.space;
    ins.array = id;
    t.instructions.push_back(ins);
  }
  return t;
}

constexpr auto kLd = sim::Op::Load, kSt = sim::Op::Store;
constexpr auto kGlobal = sim::Space::Global, kShared = sim::Space::Shared;

// Naive transpose (load in, store out, twice) against the tiled one (load in, store tile, load
// tile, store out, twice): the two kernels' steps do not line up by index.
TEST(Follow, ByRoleTheStoreOfOutMatchesTheStoreOfOutNotTheSharedStore) {
  const auto a = RoleTrace({{kLd, kGlobal, "in"}, {kSt, kGlobal, "out"}, {kLd, kGlobal, "in"}, {kSt, kGlobal, "out"}});
  const auto b = RoleTrace({{kLd, kGlobal, "in"}, {kSt, kShared, "tile"}, {kLd, kShared, "tile"}, {kSt, kGlobal, "out"},
                            {kLd, kGlobal, "in"}, {kSt, kShared, "tile"}, {kLd, kShared, "tile"}, {kSt, kGlobal, "out"}});
  const auto as = WarpSteps(a, 0, 0), bs = WarpSteps(b, 0, 0);
  EXPECT_EQ(RoleStep(a, as, 0, b, bs, 5), 0);  // first load of in -> b's first load of in
  EXPECT_EQ(RoleStep(a, as, 1, b, bs, 0), 3);  // first store of out -> b's step 3, not its shared store at 1
  EXPECT_EQ(RoleStep(a, as, 2, b, bs, 3), 4);  // second load of in
  EXPECT_EQ(RoleStep(a, as, 3, b, bs, 4), 7);  // second store of out
  // Back from b's side: the shared load has no counterpart in a, so a stays where it is.
  EXPECT_EQ(RoleStep(b, bs, 2, a, as, 1), 1);
  EXPECT_EQ(RoleStep(b, bs, 7, a, as, 0), 3);
}

TEST(Follow, ByRoleTheArrayNameAndTheOpMustBothMatch) {
  const auto a = RoleTrace({{kLd, kGlobal, "x"}});
  const auto b = RoleTrace({{kSt, kGlobal, "x"}, {kLd, kGlobal, "y"}, {kLd, kShared, "x"}, {kLd, kGlobal, "x"}});
  const auto as = WarpSteps(a, 0, 0), bs = WarpSteps(b, 0, 0);
  EXPECT_FALSE(SameRole(a, a.instructions[0], b, b.instructions[0]));  // store, not load
  EXPECT_FALSE(SameRole(a, a.instructions[0], b, b.instructions[1]));  // another array
  EXPECT_FALSE(SameRole(a, a.instructions[0], b, b.instructions[2]));  // shared, not global
  EXPECT_EQ(RoleStep(a, as, 0, b, bs, 1), 3);
}

TEST(Follow, ByRoleClampsToTheLastWhenTheOtherHasFewer) {
  // a loads `in` three times, b twice: a's third load shows b's second (its last).
  const auto a = RoleTrace({{kLd, kGlobal, "in"}, {kLd, kGlobal, "in"}, {kLd, kGlobal, "in"}});
  const auto b = RoleTrace({{kLd, kGlobal, "in"}, {kSt, kGlobal, "out"}, {kLd, kGlobal, "in"}, {kSt, kGlobal, "out"}});
  EXPECT_EQ(RoleStep(a, WarpSteps(a, 0, 0), 2, b, WarpSteps(b, 0, 0), 0), 2);
}

TEST(Timings, ComparisonNamesTheFasterVariantAndHowMuch) {
  // shortcut v0 141.8 ms, v1 27.3 ms (assets/recorded/NVIDIA_H200.json): 141.8 / 27.3 = 5.19.
  EXPECT_EQ(SpeedComparison("shortcut/v0", 141.8, "shortcut/v1", 27.3),
            "v1 is 5.2\xc3\x97 faster than v0");
  // A slower B: said the other way round. pairs v3 0.4653 ms vs v2 14.73 ms: 14.73 / 0.4653 = 31.66.
  EXPECT_EQ(SpeedComparison("pairs/v3", 0.4653, "pairs/v2", 14.73),
            "v3 is 31.7\xc3\x97 faster than v2");
  // Within 2%: the same time (14.7346 vs 14.7337 ms).
  EXPECT_EQ(SpeedComparison("pairs/v2", 14.7346, "pairs/v2_diagonal", 14.7337),
            "v2 and v2_diagonal take the same time (14.7 ms)");
}

TEST(Timings, BarSaysTimeRateShareAndSpeedUpInTheFamilysUnit) {
  TimingRow r;
  r.variant = "pairs/v3";
  r.ms = 0.4653;
  r.rate = 1153.7;
  r.rate_unit = "Gop/s";
  r.pct_of_peak = 3.449;
  r.peak_name = "FP32 peak 33454 Gop/s";
  r.speedup = 31.66;
  EXPECT_EQ(TimingBarText(r), "v3  0.465 ms  1154 Gop/s  3.4%  31.7\xc3\x97");
  TimingRow first = r;
  first.variant = "pairs/v1";
  first.speedup = 1.0;
  // The ceiling is named once, above the bars.
  EXPECT_EQ(TimingsLegend({first, r}),
            "time \xc2\xb7 Gop/s \xc2\xb7 % of FP32 peak 33454 Gop/s \xc2\xb7 speed-up over v1");
}

TEST(FaultBanner, ARefusedLaunchSaysWhatWasRefusedWithoutLineOrAddress) {
  sim::Trace t;
  sim::Finding f;
  f.kind = sim::FindingKind::LaunchLimit;
  f.message = "the launch has an empty grid or block";
  EXPECT_EQ(FaultText("A", t, f), "A: launch refused: the launch has an empty grid or block");
  EXPECT_FALSE(HasPlace(f));  // no thread ran: nowhere to go
}

TEST(FaultBanner, AnAccessFaultNamesBlockThreadLineArrayAndAddress) {
  sim::Trace t;
  t.sites = {{"k.cuh", 42, 7}};
  t.arrays.push_back({0, "d", "float", 4, 16, 1, 16, sim::Space::Global, 0x1000});
  sim::Finding f;
  f.kind = sim::FindingKind::OutOfBounds;
  f.message = "index 16 of 16";
  f.block = {1, 0, 0};
  f.thread = {3, 2, 0};
  f.site = 0;
  f.array = 0;
  f.address = 0x1040;
  EXPECT_EQ(FaultText("B", t, f),
            "B: out-of-bounds in block (1,0,0) thread (3,2,0), line 42, array d, address 0x1040: index 16 of 16");
  EXPECT_TRUE(HasPlace(f));
}

TEST(Palette, NeighbouringLanesDifferAndNoneIsMaskedGrey) {
  for (int l = 0; l < 32; ++l) {
    EXPECT_FALSE(LaneRgb(l) == kMasked);
    if (l) EXPECT_FALSE(LaneRgb(l) == LaneRgb(l - 1)) << l;
  }
}

}  // namespace
}  // namespace ws::visual
