// The views' pure rules beside the layout (tests/gui/test_visual_layout.cpp): how banks are counted,
// how stepping by iteration moves, timings, fault banners, the memory grid's counts, counters'
// columns, the palette, the memory chart and presenter mode's source excerpt. Expected values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "visual/banks.h"
#include "sim/finding_text.h"
#include "visual/fault_banner.h"
#include "visual/counters.h"
#include "visual/layout.h"
#include "visual/legend.h"
#include "visual/memory_chart.h"
#include "visual/memory_grid.h"
#include "visual/palette.h"
#include "visual/source_excerpt.h"
#include "visual/warp_lanes.h"
#include "visual/steps.h"

namespace ws::visual {
namespace {

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

// A shared load of 4-byte words, lane l at byte address addr(l).
template <typename F>
sim::WarpInstruction SharedLoad(F addr) {
  sim::WarpInstruction ins;
  ins.space = sim::Space::Shared;
  ins.op = sim::Op::Load;
  ins.width = 4;
  ins.mask = 0xffffffffu;
  for (int l = 0; l < 32; ++l) ins.addr[l] = addr(l);
  return ins;
}

TEST(BankView, TheTallestStackHoldsEveryLaneItsBankServes) {
  // A column of a 32x32 float tile: lane l reads word 32 l, all in bank 0: 32 words, 32 marks.
  EXPECT_EQ(StackMarks(sim::SharedBanks(SharedLoad([](int l) { return uint64_t(128 * l); }))), 32);
  // The padded tile's column: word 33 l is in bank l: one mark in each bank.
  EXPECT_EQ(StackMarks(sim::SharedBanks(SharedLoad([](int l) { return uint64_t(132 * l); }))), 1);
  // A broadcast: every lane reads word 5; one word, 32 lanes: as tall as the conflict.
  EXPECT_EQ(StackMarks(sim::SharedBanks(SharedLoad([](int) { return uint64_t(20); }))), 32);
  // Lanes 0-15 read word 0 and lanes 16-31 words 32, 64, ..., 512: bank 0 serves 17 words to
  // 16 + 16 lanes.
  EXPECT_EQ(StackMarks(sim::SharedBanks(SharedLoad([](int l) { return l < 16 ? uint64_t(0) : uint64_t(128 * (l - 15)); }))), 32);
}

// A short window's legend is one row of the entries the shown steps draw.
TEST(Legend, AShortWindowsRowNamesWhatTheShownStepsDraw) {
  // transpose's tile read down a column: lane l reads word 32 l, all in bank 0 (a 32-way conflict,
  // as the memory rules set it), every lane active, no earlier step.
  sim::WarpInstruction column = SharedLoad([](int l) { return uint64_t(128 * l); });
  column.conflict_degree = 32;
  LegendUse u = LegendUseOf({&column}, false);
  EXPECT_TRUE(u.shared && u.conflict);
  EXPECT_FALSE(u.global || u.broadcast || u.masked || u.served || u.earlier);
  std::vector<std::string> named;
  for (const auto& e : LegendEntries())
    if (Explains(e.swatch, u)) named.push_back(e.label);
  EXPECT_EQ(named, (std::vector<std::string>{"lane 0 \xe2\x80\xa6 31", "bank conflict"}));
  // shortcut v0's first load beside it: lanes 0-15 active, two lanes to each of 8 floats (a
  // broadcast), served from DRAM (sector 0's mark 3), after earlier steps: lines, sectors, where
  // they came from, broadcast, masked lanes, trail and touched before.
  sim::WarpInstruction row;
  row.space = sim::Space::Global;
  row.op = sim::Op::Load;
  row.width = 4;
  row.mask = 0xffffu;
  for (int l = 0; l < 16; ++l) row.addr[l] = uint64_t(4 * (l / 2));
  row.served = 3;
  u = LegendUseOf({&column, &row}, true);
  EXPECT_TRUE(u.global && u.shared && u.conflict && u.broadcast && u.masked && u.served && u.earlier);
  for (const auto& e : LegendEntries()) EXPECT_TRUE(Explains(e.swatch, u)) << e.label;
  // The same load with all 32 lanes on 32 floats and no cache model: no broadcast, none masked, no
  // served marks.
  row.mask = 0xffffffffu;
  for (int l = 0; l < 32; ++l) row.addr[l] = uint64_t(4 * l);
  row.served = 0;
  u = LegendUseOf({&row}, false);
  EXPECT_TRUE(u.global);
  EXPECT_FALSE(u.broadcast || u.masked || u.served || u.shared);
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
  f.scope = sim::FindingScope::Launch;
  f.message = "the launch has an empty grid or block";
  EXPECT_EQ(FaultText("A", t, f), "A: error [launch-limit] the launch has an empty grid or block");
  EXPECT_FALSE(sim::HasPlace(f));  // no thread ran: nowhere to go
}

TEST(FaultBanner, AnAccessFaultIsTheFindingsOneTextAsStatsPrintsIt) {
  sim::Trace t;
  t.sites = {{"k.cuh", 42, 7}};
  t.arrays.push_back({0, "d", "float", 4, 16, 1, 16, sim::Space::Global, 0x1000});
  sim::Finding f;
  f.kind = sim::FindingKind::OutOfBounds;
  f.message = "the thread accesses d[16], outside its 16 elements";
  f.block = {1, 0, 0};
  f.thread = {3, 2, 0};
  f.site = 0;
  f.array = 0;
  f.address = 0x1040;
  f.has_address = true;
  EXPECT_EQ(FaultText("B", t, f), "B: " + sim::FindingText(t, f));
  EXPECT_EQ(FaultText("B", t, f), "B: error [out-of-bounds] line 42, block (1,0,0), thread (3,2,0), address 0x1040: "
                                  "the thread accesses d[16], outside its 16 elements");
  EXPECT_TRUE(sim::HasPlace(f));
}

// A warp whose lanes 8k..8k+7 all read word k of `in` (in[lane / 8]): four cells, each one word
// read by eight lanes; the store of lane l to out[l] is 32 cells of one lane each. In whole-block
// mode a second warp reading the same words adds its lanes' accesses to the count (16 each), and
// the lanes are named by their number within a warp, so the mask stays the same.
TEST(MemoryGrid, ABroadcastIsOneWordManyLanesNotTheLastLanesColour) {
  const sim::ArrayInfo in{0, "in", "float", 4, 1024, 1, 1024, sim::Space::Global, 0x1000};
  const CellMap m = MapCells(in.rows, in.cols, in.count, in.elem_bytes);
  sim::WarpInstruction ld;
  ld.array = 0;
  ld.mask = 0xffffffffu;
  for (int l = 0; l < 32; ++l) ld.addr[l] = 0x1000 + 4 * (l / 8);
  auto cells = LanesByCell(in, m, 0, {&ld});
  ASSERT_EQ(cells.size(), 4u);
  for (uint64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(cells[k].count, 8u) << k;
    EXPECT_EQ(cells[k].lanes, 0xffu << (8 * k)) << k;
  }
  sim::WarpInstruction other = ld;
  other.warp = 1;
  cells = LanesByCell(in, m, 0, {&ld, &other});
  EXPECT_EQ(cells[2].count, 16u);
  EXPECT_EQ(cells[2].lanes, 0xffu << 16);
  // Another array's instruction, and lanes switched off, add nothing.
  sim::WarpInstruction st = ld;
  st.array = 1;
  ld.mask = 0x0000ffffu;  // lanes 0-15: words 0 and 1 only
  cells = LanesByCell(in, m, 0, {&ld, &st});
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1].lanes, 0xff00u);
}

// A lecturer's own files on a projector: a column is the kernel's name, the file's name joins it
// only where two would clash, and the whole path only where even those are the same.
TEST(Counters, ColumnsGoByTheKernelsNameAndTheFileOnlyWhereTwoWouldClash) {
  EXPECT_EQ(ColumnNames("shortcut/v0", "shortcut/v1"), std::make_pair(std::string("v0"), std::string("v1")));
  EXPECT_EQ(ColumnNames("shortcut/v1", "pairs/v1"), std::make_pair(std::string("shortcut/v1"), std::string("pairs/v1")));
  EXPECT_EQ(ColumnNames("/home/l/week3/mine.cu:scale", "/home/l/week3/mine.cu:copy"),
            std::make_pair(std::string("scale"), std::string("copy")));
  EXPECT_EQ(ColumnNames("/home/l/week3/mine.cu:scale", "/home/l/week3/yours.cu:scale"),
            std::make_pair(std::string("mine.cu:scale"), std::string("yours.cu:scale")));
  EXPECT_EQ(ColumnNames("/a/mine.cu:scale", "/b/mine.cu:scale"),
            std::make_pair(std::string("/a/mine.cu:scale"), std::string("/b/mine.cu:scale")));
  EXPECT_EQ(ColumnNames("/home/l/mine.cu:scale", ""), std::make_pair(std::string("scale"), std::string()));
  EXPECT_EQ(ShortName("mine.cu:scale"), "scale");  // a file named without a folder
}

TEST(Palette, NeighbouringLanesDifferAndNoneIsMaskedGrey) {
  for (int l = 0; l < 32; ++l) {
    EXPECT_FALSE(LaneRgb(l) == kMasked);
    if (l) {
      EXPECT_FALSE(LaneRgb(l) == LaneRgb(l - 1)) << l;
    }
  }
}

// Every colour one meaning: an array's colour in the L1 view (yellow was both "array t" and "arrived
// since the warp's last step") is at least 60 apart (Euclidean, 0-255 RGB) from every other colour
// palette.h names, every lane and every other array's.
TEST(Palette, ArrayHuesMeanNothingElse) {
  auto apart = [](Rgb a, Rgb b) {
    const double dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
    return std::sqrt(dr * dr + dg * dg + db * db);
  };
  const Rgb marks[] = {kBackground, kCellEmpty, kMasked, kConflict, kBankOk, kLine, kSector, kServedL1,
                       kServedL2, kServedDram, kError, kErrorText, kWarning, kWarningText, kHighlight,
                       kHeadlineFill, kHeadlineDetail, kFrame, kBoxFill, kPieceOutline, kMaskedOutline,
                       kOtherBlock, kOtherWarp[0], kOtherWarp[1], kShownWarps, kBarShown, kBarOther, kBlack};
  for (int a = 0; a < 6; ++a) {
    for (const Rgb m : marks) EXPECT_GE(apart(ArrayRgb(a), m), 60.0) << "array " << a;
    for (int l = 0; l < 32; ++l) EXPECT_GE(apart(ArrayRgb(a), LaneRgb(l)), 60.0) << "array " << a << ", lane " << l;
    for (int b = 0; b < a; ++b) EXPECT_GE(apart(ArrayRgb(a), ArrayRgb(b)), 60.0) << a << " and " << b;
  }
}

}  // namespace
}  // namespace ws::visual

// ---- memory chart ----

namespace ws::visual {
namespace {

// The chart's requests and sectors are the simulator's counters (through sim::Metrics): set by
// hand here, read back per op; atomics (ATOM + RED) are added together.
// Ten lines: 1 "a", 2 "", 3 "b", ..., with a blank line 2 and line 9.
const char* kTenLines = "a\n\nb\nc\nd\ne\nf\ng\n\nh\n";

TEST(SourceExcerpt, CentredOnTheStepsLineTheEvenCountsExtraLineBelow) {
  // 3 rows at line 5: 4..6. 4 rows at line 5: one above (4), two below (6, 7).
  EXPECT_EQ(ExcerptAround(kTenLines, 5, 3).first, 4u);
  EXPECT_EQ(ExcerptAround(kTenLines, 5, 3).last, 6u);
  EXPECT_EQ(ExcerptAround(kTenLines, 5, 4).first, 4u);
  EXPECT_EQ(ExcerptAround(kTenLines, 5, 4).last, 7u);
  // One row: the line alone.
  EXPECT_EQ(ExcerptAround(kTenLines, 7, 1).first, 7u);
  EXPECT_EQ(ExcerptAround(kTenLines, 7, 1).last, 7u);
}

TEST(SourceExcerpt, KeepsInsideTheTextAndDropsBlankEnds) {
  // Line 1 with 3 rows: 1..3, none before the first line.
  EXPECT_EQ(ExcerptAround(kTenLines, 1, 3).first, 1u);
  EXPECT_EQ(ExcerptAround(kTenLines, 1, 3).last, 3u);
  // Line 10 (the last; the final newline adds none) with 4 rows: 7..10, and 9 is inside.
  EXPECT_EQ(ExcerptAround(kTenLines, 10, 4).first, 7u);
  EXPECT_EQ(ExcerptAround(kTenLines, 10, 4).last, 10u);
  // Line 3 with 3 rows is 2..4, whose blank line 2 at the top goes: 3..4.
  EXPECT_EQ(ExcerptAround(kTenLines, 3, 3).first, 3u);
  EXPECT_EQ(ExcerptAround(kTenLines, 3, 3).last, 4u);
  // Line 8 with 3 rows: 7..9, blank 9 at the bottom goes.
  EXPECT_EQ(ExcerptAround(kTenLines, 8, 3).last, 8u);
  // More rows than lines: the whole text.
  EXPECT_EQ(ExcerptAround(kTenLines, 4, 40).first, 1u);
  EXPECT_EQ(ExcerptAround(kTenLines, 4, 40).last, 10u);
}

TEST(SourceExcerpt, NoLineNoRowsOrALinePastTheTextShowNothing) {
  EXPECT_EQ(ExcerptAround(kTenLines, 0, 3).first, 0u);
  EXPECT_EQ(ExcerptAround(kTenLines, 11, 3).first, 0u);
  EXPECT_EQ(ExcerptAround(kTenLines, 4, 0).first, 0u);
  EXPECT_EQ(ExcerptAround("", 1, 3).first, 0u);
}

TEST(MemoryChart, FlowCarriesTheSimulatorsRequestsAndSectorsPerOp) {
  sim::Counters c;
  c.global_requests[0] = 16384;  // ld
  c.global_requests[1] = 128;    // st
  c.global_requests[2] = 3;      // atom
  c.global_requests[3] = 4;      // red
  c.global_sectors[0] = 139264;
  c.global_sectors[1] = 2048;
  c.global_sectors[3] = 64;
  const auto f = FlowFromCounters("shortcut/v0", c);
  EXPECT_EQ(f.ld_requests, 16384);
  EXPECT_EQ(f.st_requests, 128);
  EXPECT_EQ(f.atomic_requests, 7);
  EXPECT_EQ(f.ld_sectors, 139264);
  EXPECT_EQ(f.st_sectors, 2048);
  EXPECT_EQ(f.atomic_sectors, 64);
  const auto t = ChartText(f);
  ASSERT_EQ(t.boxes.size(), 4u);
  ASSERT_EQ(t.arrows.size(), 3u);
  EXPECT_EQ(t.boxes[0], "Warps: 16384 ld, 128 st, 7 atomic requests");
  EXPECT_EQ(t.arrows[0], "139264 ld + 2048 st + 64 atomic sectors");
}

// Levels nobody counted say so; they are never drawn as zero.
TEST(MemoryChart, CacheLevelsWithoutFiguresSayNotKnownNotZero) {
  MemoryFlow f;
  f.ld_requests = 1;
  const auto t = ChartText(f);
  EXPECT_EQ(t.boxes[1], "L1: hits not known");
  EXPECT_FALSE(t.l1_hit.has_value());
  EXPECT_EQ(t.arrows[1], "reads not known");
  EXPECT_EQ(t.arrows[2], "reads not known");
}

// Measured figures alone (shortcut/v0 at n=64 on an H100: 97.25% hits, 3302 L2 sectors, 22528
// DRAM bytes, from a recording) read as a lecturer says them and labelled; 3302 sectors x 32
// bytes = 105664 bytes = 105.7 KB.
TEST(MemoryChart, MeasuredLevelsReadInBytesAndPercent) {
  MemoryFlow f;
  AddRecorded(f, {{"l1tex__t_sector_hit_rate.pct", 97.25}, {"lts__t_sectors_srcunit_tex_op_read.sum", 3302},
                  {"dram__bytes_read.sum", 22528}, {"dram__bytes_write.sum", 0}, {"gpu__time_duration.sum", 5}},
              "NVIDIA H100 80GB HBM3", 64);
  EXPECT_EQ(f.recorded_on, "NVIDIA H100 80GB HBM3 at n=64");
  const auto t = ChartText(f);
  EXPECT_EQ(t.boxes[1], "L1 hits: 97.2% measured");  // %.1f of 97.25 rounds to even
  ASSERT_TRUE(t.l1_hit.has_value());
  EXPECT_FLOAT_EQ(*t.l1_hit, 0.9725f);
  EXPECT_EQ(t.arrows[1], "read: 3302 sectors (105.7 KB) measured");
  EXPECT_EQ(t.arrows[2], "read: 22.5 KB measured; written: 0 B measured");
  EXPECT_EQ(Bytes(999), "999 B");
  EXPECT_EQ(Bytes(1054720), "1.05 MB");
  EXPECT_EQ(Bytes(2.5e9), "2.50 GB");
}

// Where the simulator counts a level and a recording exists too, both are shown, each labelled
// (shortcut v3 at n=64: the simulator's L1 found none of the sectors, Nsight Compute 43.4%). The
// simulator's L1 figure is sim::Metrics' from the counters: 0 hits of 2048 sectors = 0.0%; its L2
// reads are its L1 misses, 2048 sectors = 65536 bytes = 65.5 KB.
TEST(MemoryChart, RecordedRatesSitBesideTheSimulatorsLabelled) {
  sim::Counters c;
  c.global_requests[0] = 256;
  c.global_sectors[0] = 2048;
  c.l2_sectors[0] = 2048;
  MemoryFlow f = FlowFromCounters("shortcut/v3", c);
  ASSERT_TRUE(f.simulated.l1_hit_pct.has_value());
  EXPECT_EQ(*f.simulated.l1_hit_pct, 0.0);
  EXPECT_FALSE(f.recorded.Any());
  AddRecorded(f, {{"l1tex__t_sector_hit_rate.pct", 43.4}, {"lts__t_sectors_srcunit_tex_op_read.sum", 1160}}, "NVIDIA H200", 64);
  const auto t = ChartText(f);
  EXPECT_EQ(t.boxes[1], "L1 hits: 0.0% simulated, 43.4% measured");
  EXPECT_EQ(t.arrows[1], "read: 2048 sectors (65.5 KB) simulated, 1160 sectors (37.1 KB) measured");
  EXPECT_FLOAT_EQ(*t.l1_hit, 0.0f);  // the bar is the simulator's
  // A recording without cache figures adds nothing and names no device.
  MemoryFlow g = FlowFromCounters("shortcut/v3", c, /*caches=*/false);
  AddRecorded(g, {{"gpu__time_duration.sum", 5}}, "NVIDIA H200", 64);
  EXPECT_TRUE(g.recorded_on.empty());
  EXPECT_EQ(ChartText(g).boxes[1], "L1: hits not known");
}

}  // namespace
}  // namespace ws::visual
