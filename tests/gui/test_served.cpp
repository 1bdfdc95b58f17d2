// Where sectors were served from, on screen: a kernel small enough to work out by hand, its
// caption (sim::CaptionOf, the badge's one source), its per-sector marks (sim::ServedSectors,
// the memory view's bars), with the caches modelled and without, and the L1 view's state at a
// step (visual::L1State, rebuilt from the simulator's log).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "kernels/sim_backend.h"
#include "sim/caption.h"
#include "sim/dialect.h"
#include "sim/engine.h"
#include "visual/l1_state.h"
#include "visual/l1_view.h"
#include "visual/l2_view.h"

namespace served_kernels {
using namespace ::ws::dialect;
// Warp w of the block reads in[8w .. 8w + 31] and copies it to its own 32 elements of out.
// Warp 0: bytes 0-127 of in, sectors 0-3 (one line). Warp 1: bytes 32-159, sectors 1-4 (two
// lines): three sectors warp 0 brought into the L1, and one new.
__global__ void overlapping_reads(Global<const float> in, Global<float> out) {
  const int t = threadIdx.x;
  out[t] = in[t % 32 + t / 32 * 8];
}
}  // namespace served_kernels

namespace ws::sim {
namespace {

const std::string kDot = " \xc2\xb7 ";

// One block of 64 threads (two warps) on one SM; `kind` picks what the trace keeps.
struct Launched {
  explicit Launched(Selection::Kind kind, bool caches = true, uint32_t warp = 0) : engine(Options(kind, caches, warp)) {
    std::vector<float> host(64);
    for (int i = 0; i < 64; ++i) host[i] = 0.5f + float(i * 7 % 13);  // not zeros
    auto in = b.Upload<const float>("in", "float", host, 1, 64);
    auto out = b.Alloc<float>("out", "float", 64, 1, 64);
    b.Launch(::ws::dialect::dim3(1), ::ws::dialect::dim3(64), served_kernels::overlapping_reads, in, out);
    in_base = engine.Array(in.array()).base;
  }
  static LaunchOptions Options(Selection::Kind kind, bool caches, uint32_t warp) {
    LaunchOptions o;
    o.selection = {kind, 0, warp};
    o.caches = caches;
    return o;
  }
  const Trace& trace() const { return engine.trace(); }
  // The traced instruction of `warp` with this operation.
  const WarpInstruction& Of(uint32_t warp, Op op) const {
    for (const auto& ins : trace().instructions)
      if (ins.warp == warp && ins.op == op) return ins;
    ADD_FAILURE() << "no such instruction";
    return trace().instructions.front();
  }
  Engine engine;
  kernels::SimBackend b{engine};
  uint64_t in_base = 0;
};

TEST(Served, SecondWarpFindsThreeSectorsTheFirstBroughtAndFetchesOneFromDram) {
  const Launched r(Selection::Kind::Block);
  ASSERT_EQ(r.in_base % 128, 0u);  // arrays start on a line, as cudaMalloc's do
  const uint64_t s0 = r.in_base / 32;
  // The caches start cold; both warps load in the same cycle, warp 0 first. Warp 0: its four
  // sectors s0..s0+3 miss L1; DRAM is read a 64-byte pair at a time, so s0 and s0+2 come from
  // DRAM and bring s0+1 and s0+3 into L2 (L2 hits). Warp 1: s0+1..s0+3 are in the L1 (warp 0's
  // misses allocated them: 3 hits while the data is still on its way), s0+4 (the first sector of
  // the next line) comes from DRAM.
  ServedSector got[kWarpSize];
  ASSERT_EQ(ServedSectors(r.Of(0, Op::Load), got), 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(got[i].sector, s0 + i);
    EXPECT_EQ(got[i].from, i % 2 ? ServedFrom::L2 : ServedFrom::Dram) << i;
  }
  ASSERT_EQ(ServedSectors(r.Of(1, Op::Load), got), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i].sector, s0 + 1 + i);
  EXPECT_EQ(got[0].from, ServedFrom::L1);
  EXPECT_EQ(got[1].from, ServedFrom::L1);
  EXPECT_EQ(got[2].from, ServedFrom::L1);
  EXPECT_EQ(got[3].from, ServedFrom::Dram);
  // A store writes its sectors through to L2 (the line it allocates in L1 is not where it was
  // served from).
  ASSERT_EQ(ServedSectors(r.Of(1, Op::Store), got), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i].from, ServedFrom::L2) << i;
}

TEST(Served, CaptionSaysWhereTheSectorsCameFrom) {
  const Launched r(Selection::Kind::Block);
  // Warp 1 reads bytes 32-159: lines 0 and 1, sectors 1-4; 32 floats = 128 bytes = 4 sectors
  // ideally, all used (128 / (4 x 32) = 100%).
  EXPECT_EQ(Caption(r.Of(1, Op::Load)), "2 lines" + kDot + "4 sectors (ideal 4)" + kDot +
                                            "4 sectors: 3 L1 hits, 1 from DRAM" + kDot + "100% of bytes moved are used");
  EXPECT_EQ(CaptionOf(r.Of(0, Op::Load)).details.front(), "4 sectors: 2 L2 hits, 2 from DRAM");
  EXPECT_EQ(CaptionOf(r.Of(0, Op::Store)).details.front(),
            "4 sectors: stores allocate their line in L1 and are written through to L2");
}

TEST(Served, WholeBlockCaptionCountsEveryWarpsSectors) {
  const Launched r(Selection::Kind::Block);
  // Both loads: 4 + 4 = 8 sector requests (ideal 4 + 4), to sectors 0-3 and 1-4: 5 distinct
  // sectors in lines 0 and 1; warp 0's 2 L2 hits and 2 from DRAM and warp 1's 3 L1 hits and 1
  // from DRAM.
  const std::vector<const WarpInstruction*> step = {&r.Of(0, Op::Load), &r.Of(1, Op::Load)};
  const CaptionParts c = CaptionOf(step);
  EXPECT_EQ(c.headline, "2 warps" + kDot + "8 sector requests (ideal 8) to 5 distinct sectors in 2 distinct lines");
  ASSERT_FALSE(c.details.empty());
  EXPECT_EQ(c.details.front(), "8 sector requests: 3 L1 hits, 2 L2 hits, 3 from DRAM");
}

TEST(Served, WithoutCachesThereAreNoMarksAndTheCaptionSaysNothingOfThem) {
  const Launched r(Selection::Kind::Block, /*caches=*/false);
  ServedSector got[kWarpSize];
  ASSERT_EQ(ServedSectors(r.Of(1, Op::Load), got), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i].from, ServedFrom::None) << i;
  EXPECT_EQ(Caption(r.Of(1, Op::Load)), "2 lines" + kDot + "4 sectors (ideal 4)" + kDot + "100% of bytes moved are used");
}

TEST(L1View, StateAtAStepIsRebuiltFromTheLogForwardAndBack) {
  const Launched r(Selection::Kind::Block);
  const Trace& t = r.trace();
  const uint64_t line0 = r.in_base / 128;
  // The SM's L1 log: warp 0's load fills line0 sector by sector (4 events: valid 0001, 0011,
  // 0111, 1111); warp 1's load finds sectors 1-3 (3 events that change nothing) and brings
  // sector 0 of line0 + 1 (1 event: valid 0001). Then both stores (in the cycle their loads'
  // data arrived) allocate a line of out each, sector by sector: 8 events more.
  ASSERT_EQ(t.caches.l1_events.size(), 16u);
  auto index = [&](uint32_t warp, Op op) { return size_t(&r.Of(warp, op) - t.instructions.data()); };
  visual::L1State st(/*every=*/2);  // a checkpoint every 2 events, so going back uses them
  st.Reset(&t.caches);
  ASSERT_EQ(st.EventsAt(index(0, Op::Load)), 4u);
  ASSERT_EQ(st.EventsAt(index(1, Op::Load)), 8u);
  // The slots holding a line, as (line, valid sectors).
  auto held = [&] {
    std::vector<std::pair<uint64_t, int>> v;
    for (uint32_t s = 0; s < st.Slots(); ++s)
      if (st.Line(s) != visual::L1State::kEmpty) v.push_back({st.Line(s), st.Valid(s)});
    std::sort(v.begin(), v.end());
    return v;
  };
  using Held = std::vector<std::pair<uint64_t, int>>;
  st.Seek(8);  // at warp 1's load
  EXPECT_EQ(held(), (Held{{line0, 0xf}, {line0 + 1, 0x1}}));
  st.Seek(4);  // back to warp 0's load
  EXPECT_EQ(held(), (Held{{line0, 0xf}}));
  st.Seek(1);  // back past a checkpoint: only sector 0 of line0
  EXPECT_EQ(held(), (Held{{line0, 0x1}}));
  st.Seek(3);
  EXPECT_EQ(held(), (Held{{line0, 0x7}}));
  st.Seek(0);
  EXPECT_TRUE(held().empty());
  st.Seek(100);  // past the end: the whole log
  EXPECT_EQ(st.position(), 16u);
  EXPECT_EQ(st.Held(), 4u);
}

TEST(L1View, SlotsAreLaidOutInWholeSetsAtTheLargestCell) {
  // 4 sets of 4 ways in 160 x 40 px: 1 set a row is 4 x 4 cells (cell min(40, 10) = 10); 2 sets
  // a row 8 x 2 (min(20, 20) = 20); 3 sets 12 x 2 (13.3); 4 sets 16 x 1 (10). Best: 2, 20 px.
  const visual::L1GridLayout g = visual::L1Grid(4, 4, 160, 40);
  EXPECT_EQ(g.sets_per_row, 2u);
  EXPECT_EQ(g.cols, 8u);
  EXPECT_EQ(g.rows, 2u);
  EXPECT_FLOAT_EQ(g.cell, 20.0f);
}

TEST(L1View, StepSetsAreLargestThatShowThemAllElseSixteenPixelsAndAsManyAsFit) {
  // 4 ways, labels 40 px, gap 2 px, in 400 x 100 px, cells 16 to 48 px. A set is 40 + 2 + 3 x 2
  // = 48 px besides its 4 slots of 1.5 cells each (6 cells); sets in a row 8 px apart, rows 2 px.
  // 2 sets: one a row, width (400 - 48) / 6 = 58.7, height (100 - 2) / 2 = 49, at most 48: cell
  // 48, a set 48 + 6 x 48 = 336 px (two a row: ((400 - 8) / 2 - 48) / 6 = 24.7).
  visual::L1SetsLayout g = visual::L1Sets(2, 4, 40, 2, 400, 100, 16, 48);
  EXPECT_EQ(g.shown, 2u);
  EXPECT_EQ(g.per_row, 1u);
  EXPECT_EQ(g.rows, 2u);
  EXPECT_FLOAT_EQ(g.cell, 48.0f);
  EXPECT_FLOAT_EQ(g.set_w, 336.0f);
  // 10 sets: two a row, width 24.7, height (100 - 4 x 2) / 5 = 18.4 (one a row: 8.2 tall; three:
  // ((400 - 16) / 3 - 48) / 6 = 13.3 wide).
  g = visual::L1Sets(10, 4, 40, 2, 400, 100, 16, 48);
  EXPECT_EQ(g.shown, 10u);
  EXPECT_EQ(g.per_row, 2u);
  EXPECT_EQ(g.rows, 5u);
  EXPECT_NEAR(g.cell, 18.4f, 1e-4);
  // 20 sets: at best 12.6 px (three a row, 7 rows: (100 - 12) / 7): under 16, so 16 px cells, a
  // set 48 + 96 = 144 px, floor(408 / 152) = 2 a row, floor(102 / 18) = 5 rows: the first 10.
  g = visual::L1Sets(20, 4, 40, 2, 400, 100, 16, 48);
  EXPECT_EQ(g.shown, 10u);
  EXPECT_EQ(g.per_row, 2u);
  EXPECT_EQ(g.rows, 5u);
  EXPECT_FLOAT_EQ(g.cell, 16.0f);
  // Too narrow for one set at 16 px: nothing drawn large.
  EXPECT_EQ(visual::L1Sets(20, 4, 40, 2, 100, 100, 16, 48).shown, 0u);
}

TEST(L1View, ASetsWaysAreOrderedByTheirLastUseInTheLog) {
  // One set of 4 ways: lines 10, 11, 12 fill ways 0, 1, 2 (events 1-3), then a hit on line 10
  // (event 4): by use, way 0 (10), way 2 (12), way 1 (11), and the empty way 3 last. Back at
  // event 3 the order is the fill order reversed.
  Trace::Caches c;
  c.l1_sets = 1, c.l1_ways = 4;
  c.l1_events = {{10, 0, 1}, {11, 1, 1}, {12, 2, 1}, {10, 0, 3}};
  c.l1_events_until = {4};
  visual::L1State st(/*every=*/2);
  st.Reset(&c);
  st.Seek(4);
  EXPECT_EQ(st.WaysByRecency(0, 4), (std::vector<uint32_t>{0, 2, 1, 3}));
  EXPECT_EQ(st.LastUse(0), 4u);
  st.Seek(3);
  EXPECT_EQ(st.WaysByRecency(0, 4), (std::vector<uint32_t>{2, 1, 0, 3}));
}

TEST(L2View, SetsShowEveryWayWhereTheWidthAllowsElseTheNewestAtSixteenPixels) {
  // 16 ways, labels 40 px, "+N older" 60 px, gap 2 px, cells 16 to 32 px. A row is 40 + 2 px, then
  // 16 ways of 1.5 cells, 15 gaps (30 px).
  // 2 sets in 500 x 100: width (500 - 42 - 30) / 24 = 17.83, height (100 - 2) / 2 = 49: 17.83.
  visual::L2RowsLayout g = visual::L2Rows(2, 16, 40, 60, 2, 500, 100, 16, 32);
  EXPECT_EQ(g.shown_sets, 2u);
  EXPECT_EQ(g.shown_ways, 16u);
  EXPECT_NEAR(g.cell, 17.833f, 1e-3);
  // 10 sets: (100 - 18) / 10 = 8.2 tall, so floor(102 / 18) = 5 rows, each (100 - 8) / 5 = 18.4
  // tall at most; the width's 17.83 then holds every way.
  g = visual::L2Rows(10, 16, 40, 60, 2, 500, 100, 16, 32);
  EXPECT_EQ(g.shown_sets, 5u);
  EXPECT_EQ(g.shown_ways, 16u);
  EXPECT_NEAR(g.cell, 17.833f, 1e-3);
  // 350 px wide: (350 - 72) / 24 = 11.6 px, so 16 px ways, floor((350 - 42 - 60 + 2) / 26) = 9.
  g = visual::L2Rows(2, 16, 40, 60, 2, 350, 100, 16, 32);
  EXPECT_EQ(g.shown_sets, 2u);
  EXPECT_EQ(g.shown_ways, 9u);
  EXPECT_FLOAT_EQ(g.cell, 16.0f);
  // 180 px wide: "+N older" would leave floor((180 - 42 - 60 + 2) / 26) = 3 ways, under the 4 the
  // view keeps, so the row gives it up: floor((180 - 42 + 2) / 26) = 5 ways.
  g = visual::L2Rows(2, 16, 40, 60, 2, 180, 100, 16, 32);
  EXPECT_EQ(g.shown_ways, 5u);
  EXPECT_FLOAT_EQ(g.cell, 16.0f);
  // Under one row's height, or too narrow for one way (60 - 42 + 2 < 26): nothing drawn large.
  EXPECT_EQ(visual::L2Rows(2, 16, 40, 60, 2, 500, 15, 16, 32).shown_sets, 0u);
  EXPECT_EQ(visual::L2Rows(2, 16, 40, 60, 2, 60, 100, 16, 32).shown_ways, 0u);
}

}  // namespace
}  // namespace ws::sim
