// The views' pure rules: where cells, lanes and banks go, how banks are counted, how stepping
// by iteration moves. Expected values worked out by hand.
#include <gtest/gtest.h>

#include "visual/banks.h"
#include "visual/fault_banner.h"
#include "visual/layout.h"
#include "visual/palette.h"
#include "visual/steps.h"
#include "visual/warp_lanes.h"

namespace ws::visual {
namespace {

sim::WarpInstruction SharedLoad(uint64_t stride_words) {
  sim::WarpInstruction ins;
  ins.space = sim::Space::Shared;
  ins.mask = 0xffffffffu;
  for (int l = 0; l < 32; ++l) ins.addr[l] = uint64_t(l) * stride_words * 4;
  return ins;
}

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

TEST(Banks, ColumnReadOfA32x32TileIs32WayInBankZero) {
  // tile[lane][0]: word lane*32, bank (lane*32) % 32 = 0 for every lane.
  const auto cols = BankColumns(SharedLoad(32));
  EXPECT_EQ(cols[0].degree, 32);
  EXPECT_EQ(cols[0].words.size(), 32u);
  EXPECT_EQ(cols[1].degree, 0);
}

TEST(Banks, PaddedColumnReadSpreadsOverAllBanks) {
  // tile[lane][0] with 33 columns: word lane*33, bank lane.
  const auto cols = BankColumns(SharedLoad(33));
  for (int b = 0; b < 32; ++b) {
    EXPECT_EQ(cols[b].degree, 1);
    ASSERT_EQ(cols[b].words.size(), 1u);
    EXPECT_EQ(cols[b].words[0].lanes, std::vector<int>{b});
  }
}

TEST(Banks, SameWordIsABroadcastNotAConflict) {
  const auto cols = BankColumns(SharedLoad(0));
  EXPECT_EQ(cols[0].degree, 1);
  EXPECT_EQ(cols[0].words[0].lanes.size(), 32u);
}

TEST(Banks, Float2IsServedInTwoHalfWarpPhases) {
  // 8-byte loads, lane l at byte 8*l: each half-warp covers 32 distinct words, one per bank.
  sim::WarpInstruction ins = SharedLoad(0);
  ins.width = 8;
  for (int l = 0; l < 32; ++l) ins.addr[l] = uint64_t(l) * 8;
  const auto cols = BankColumns(ins);
  EXPECT_EQ(cols[0].degree, 1);
  EXPECT_EQ(cols[0].words.size(), 2u);  // word 0 (phase 0) and word 32 (phase 1)
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

TEST(Caption, GlobalLoadSaysLinesSectorsAndUse) {
  sim::WarpInstruction ins;
  ins.mask = 0xffffffffu;
  ins.width = 4;
  ins.sectors = 16;
  ins.lines = 16;
  ins.ideal_sectors = 4;
  // 128 bytes asked for, 16 x 32 = 512 moved: 25%.
  EXPECT_EQ(CostCaption(ins), "32 lanes \xe2\x86\x92 16 lines, 16 sectors (ideal 4), 25.0% of bytes moved are used");
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
