// The views' pure rules: where cells, lanes and banks go, how banks are counted, how stepping
// by iteration moves. Expected values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "visual/banks.h"
#include "sim/finding_text.h"
#include "visual/fault_banner.h"
#include "visual/counters.h"
#include "visual/layout.h"
#include "visual/memory_chart.h"
#include "visual/memory_grid.h"
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

TEST(Layout, OneDimensionalRowsAreOne128ByteLinePerElementSize) {
  // 128 bytes per row: 32 floats, 16 doubles, 8 float4.
  const CellMap f = MapCells(1, 1000, 1000, 4);
  EXPECT_EQ(f.shape.cols, 32u);
  EXPECT_EQ(f.shape.rows, 32u);  // ceil(1000 / 32)
  const CellMap d = MapCells(1, 100, 100, 8);
  EXPECT_EQ(d.shape.cols, 16u);
  EXPECT_EQ(d.shape.rows, 7u);  // ceil(100 / 16)
  const CellMap q = MapCells(1, 20, 20, 16);
  EXPECT_EQ(q.shape.cols, 8u);
  EXPECT_EQ(q.shape.rows, 3u);  // ceil(20 / 8)
  const CellMap small = MapCells(1, 5, 5, 4);  // shorter than a line: one row of 5
  EXPECT_EQ(small.shape.rows, 1u);
  EXPECT_EQ(small.shape.cols, 5u);
  const CellMap m = MapCells(40, 40, 1600, 4);  // matrices stay matrices
  EXPECT_EQ(m.shape.rows, 40u);
  EXPECT_EQ(m.shape.cols, 40u);
}

TEST(Layout, StructsAreDrawnAsFourBytePieces) {
  // RayState: 32 bytes = 8 pieces; a 128-byte row holds 4 structs (32 pieces); 1024 of them are
  // 1024 * 8 / 32 = 256 rows.
  const CellMap r = MapCells(1, 1024, 1024, 32);
  EXPECT_EQ(r.cell_bytes, 4u);
  EXPECT_EQ(r.cells_per_elem, 8u);
  EXPECT_EQ(r.shape.cols, 32u);
  EXPECT_EQ(r.shape.rows, 256u);
  // rays[12] piece 5 is cell 12 * 8 + 5 = 101: row 3, column 5; at 10 px from (0, 0): (50, 30).
  const GridLayout g{0, 0, 10, r.shape.rows, r.shape.cols};
  const Rect p = PieceRect(g, r, 12, 5);
  EXPECT_FLOAT_EQ(p.x, 50.0f);
  EXPECT_FLOAT_EQ(p.y, 30.0f);
  EXPECT_FLOAT_EQ(p.w, 10.0f);
  // Given as 32 rows of 32 structs (1024 bytes a row), it still wraps at 128 bytes.
  EXPECT_EQ(MapCells(32, 32, 1024, 32).shape.cols, 32u);
  EXPECT_EQ(MapCells(32, 32, 1024, 32).shape.rows, 256u);
  // A float4 is a plain element: 16 bytes is not split.
  EXPECT_EQ(MapCells(1, 64, 64, 16).cells_per_elem, 1u);
}

TEST(Plan, LargeArraysShowARegionHoldingTheFootprintWithAnOverview) {
  // Two 64x64 lesson arrays in 642x700, scale 1, 20 px labels, a step's footprint of up to 32 x 32
  // cells (a column read with its lines whole). Stacked: each gets (700 - 2 * (20 + 8)) / 2 = 322
  // px, fit min(642/64, 322/64) = 5.03 < 16 (legible at scale 1), and 32 rows of the legible 16 px
  // do not fit in 322: the cells shrink to floor(322 / 32) = 10, a region with the overview 96 px
  // wide (min(0.15 * 642, 96)) to the right, 8 px apart; the region is 538 px wide, 53 whole cells
  // (530 px), and 32 rows (320 px) tall. Side by side: floor(317 / 32) = 9 px. Stacked wins.
  const std::vector<PlanArray> arrays = {{"d", {64, 64}, true}, {"r", {64, 64}, true}};
  const auto slots = PlanMemoryView(arrays, Rect{0, 0, 642, 700}, 1.0f, 20.0f);
  ASSERT_EQ(slots.size(), 2u);
  EXPECT_FALSE(slots[0].whole);
  EXPECT_FLOAT_EQ(slots[0].cell, 10.0f);
  EXPECT_FLOAT_EQ(slots[0].view.y, 20.0f);
  EXPECT_FLOAT_EQ(slots[0].view.w, 530.0f);
  EXPECT_FLOAT_EQ(slots[0].view.h, 320.0f);
  EXPECT_FLOAT_EQ(slots[0].overview.x, 538.0f + 8.0f);
  EXPECT_FLOAT_EQ(slots[0].overview.w, 96.0f);  // square array: 1.5 px a cell
  EXPECT_FLOAT_EQ(slots[0].overview.h, 96.0f);
  EXPECT_FLOAT_EQ(slots[1].label.y, 20.0f + 322.0f + 8.0f);
  EXPECT_FLOAT_EQ(slots[1].view.y, 370.0f);
}

TEST(Plan, CellsGrowWithUiScaleAsFarAsTheFootprintFits) {
  // Two 64x64 arrays read along a row (a footprint of 1 x 32 cells) in 642x700: at scale 1 the
  // region's cells are the legible 16 px (32 of them are 512 px across); at scale 2 (labels twice
  // as tall) the legible 24 px would put 768 px across 642: the cells are floor(642 / 32) = 20,
  // still up from 16, and the row stays whole.
  const std::vector<PlanArray> arrays = {{"d", {64, 64}, true, 1}, {"r", {64, 64}, true, 1}};
  const auto s1 = PlanMemoryView(arrays, Rect{0, 0, 642, 700}, 1.0f, 20.0f);
  const auto s2 = PlanMemoryView(arrays, Rect{0, 0, 642, 700}, 2.0f, 40.0f);
  EXPECT_FLOAT_EQ(s1[0].cell, 16.0f);
  EXPECT_FLOAT_EQ(s2[0].cell, 20.0f);
  EXPECT_GT(s2[0].cell, s1[0].cell);
}

TEST(Plan, TinyArraysGetASmallStripAtTheTopAndTheRestGoesToTheLesson) {
  // ans (1 element) and a, b (256 floats: 8 rows of 32) in 600x500, scale 1, 20 px labels.
  // ans first: its label at 0, a 24 px cell under it at 20; the strip ends at 20 + 24 + 8 = 52.
  // The rest, 500 - 52 = 448 px, stacks a and b: (448 - 2 * 28) / 2 = 196 px each, fit
  // min(600/32, 196/8) = 18.75 >= 16: whole, at a whole 18 px, 8 * 18 = 144 px tall.
  const std::vector<PlanArray> arrays = {{"a", {8, 32}, true}, {"b", {8, 32}, true}, {"ans", {1, 1}, true}};
  const auto slots = PlanMemoryView(arrays, Rect{0, 0, 600, 500}, 1.0f, 20.0f);
  ASSERT_EQ(slots.size(), 3u);
  EXPECT_EQ(slots[0].name, "ans");
  EXPECT_FLOAT_EQ(slots[0].cell, 24.0f);
  EXPECT_FLOAT_EQ(slots[0].label.y, 0.0f);
  EXPECT_FLOAT_EQ(slots[0].view.y, 20.0f);
  EXPECT_FLOAT_EQ(slots[0].view.w, 24.0f);
  EXPECT_EQ(slots[1].name, "a");
  EXPECT_TRUE(slots[1].whole);
  EXPECT_FLOAT_EQ(slots[1].label.y, 52.0f);
  EXPECT_FLOAT_EQ(slots[1].cell, 18.0f);
  EXPECT_FLOAT_EQ(slots[1].view.h, 144.0f);
  EXPECT_FLOAT_EQ(slots[2].view.y, 52.0f + 20.0f + 196.0f + 8.0f + 20.0f);
}

TEST(Plan, TheTinyArrayTheAtomicsUpdateStaysInSightInAShortPane) {
  // pairs at 1280x720, scale 2: a and b (8x32), the shared tile _b (1x32) and ans (1 element) in
  // 600x150 (48 px labels, 16 px gaps). ans takes the top: label 0-48, its 48 px cell at 48-96,
  // inside the 150 px; the big arrays start at 48 + 48 + 16 = 112 and run past the bottom.
  // (Below the others, ans used to start at 3 * (48 + 24 + 16) = 264: out of sight.)
  const std::vector<PlanArray> arrays = {{"a", {8, 32}, true, 1}, {"b", {8, 32}, true, 1}, {"_b", {1, 32}, true, 1},
                                         {"ans", {1, 1}, true, 1}};
  const auto slots = PlanMemoryView(arrays, Rect{0, 0, 600, 150}, 2.0f, 48.0f);
  ASSERT_EQ(slots.size(), 4u);
  EXPECT_EQ(slots[0].name, "ans");
  EXPECT_FLOAT_EQ(slots[0].view.y, 48.0f);
  EXPECT_LE(slots[0].view.y + slots[0].view.h, 150.0f);
  EXPECT_FLOAT_EQ(slots[1].label.y, 112.0f);
}

TEST(Plan, TooLittleRoomNeverOverlapsSlots) {
  // 100 px for two 64x64 arrays and a tiny one at scale 2 (24 px cells, 40 px labels, 16 px
  // gaps). The tiny strip first: label 0, a 48 px cell at 40, ends at 40 + 48 + 16 = 104. Each
  // big slot keeps the step's footprint (32 rows, a column read) at the least cell, 4 px: d's
  // label at 104, its 128 px of cells at 144, r's label below them at 144 + 128 + 16 = 288.
  const std::vector<PlanArray> arrays = {{"d", {64, 64}, true}, {"r", {64, 64}, true}, {"ans", {1, 1}, true}};
  const auto slots = PlanMemoryView(arrays, Rect{0, 0, 600, 100}, 2.0f, 40.0f);
  ASSERT_EQ(slots.size(), 3u);
  EXPECT_EQ(slots[0].name, "ans");
  EXPECT_FLOAT_EQ(slots[0].label.y, 0.0f);
  EXPECT_FLOAT_EQ(slots[1].view.h, 128.0f);
  EXPECT_FLOAT_EQ(slots[1].label.y, 104.0f);
  EXPECT_FLOAT_EQ(slots[2].label.y, 288.0f);
}

TEST(Plan, WholeArraysDrawWholePixelCells) {
  // A 1x32 tile across 661 px fits at 20.66 px, across 646 px (the same pane at scale 1.5, its
  // padding grown) at 20.19: both draw at 20 px (LegibleCell(1.5) = 20), so the larger scale
  // does not shrink the cells.
  const std::vector<PlanArray> tile = {{"_b", {1, 32}, true, 1}};
  const auto s1 = PlanMemoryView(tile, Rect{0, 0, 661, 400}, 1.0f, 20.0f);
  const auto s15 = PlanMemoryView(tile, Rect{0, 0, 646, 400}, 1.5f, 30.0f);
  EXPECT_TRUE(s1[0].whole);
  EXPECT_FLOAT_EQ(s1[0].cell, 20.0f);
  EXPECT_TRUE(s15[0].whole);
  EXPECT_FLOAT_EQ(s15[0].cell, 20.0f);
}

TEST(Plan, AOneDimensionalArrayWrapsInHalfLinesWhenALineDoesNotFitAcross) {
  // 4096 floats wrapped at a line (128 rows of 32), a warp reading one line (footprint 1 x 32),
  // in 300 x 220 at scale 1 (legible 16 px, 20 px labels, 8 px gaps): the cells get 220 - 28 =
  // 192 px. In rows of a line the region holds floor(300 / 16) = 18 of the 32 cells: 16 * 18 / 32
  // = 9. In half lines (256 rows of 16) the footprint is 2 x 16 and fits: 16, the best, and a
  // quarter line (4 x 8) is no better, so half lines it is. Region 16 * 16 = 256 px wide, all 192
  // px tall; the overview beside it in the min(0.15 * 300, 96) = 45 px preferred, of which
  // 300 - 256 - 8 = 36 are left; its cells min(36 / 16, 192 / 256) = 0.75 px: 12 px wide.
  PlanArray line{"x", {128, 32}, true, 1};
  line.min_cols = 8;  // a sector of floats
  const auto slots = PlanMemoryView({line}, Rect{0, 0, 300, 220}, 1.0f, 20.0f);
  ASSERT_EQ(slots.size(), 1u);
  EXPECT_EQ(slots[0].shape.rows, 256u);
  EXPECT_EQ(slots[0].shape.cols, 16u);
  EXPECT_FALSE(slots[0].whole);
  EXPECT_FLOAT_EQ(slots[0].cell, 16.0f);
  EXPECT_FLOAT_EQ(slots[0].view.w, 256.0f);
  EXPECT_FLOAT_EQ(slots[0].view.h, 192.0f);
  EXPECT_FLOAT_EQ(slots[0].overview.x, 264.0f);
  EXPECT_FLOAT_EQ(slots[0].overview.w, 12.0f);
  // A matrix of the same shape keeps its rows, and its cells shrink until the warp's 32 are in
  // view: floor(300 / 32) = 9 px, 288 px across.
  PlanArray matrix{"m", {128, 32}, true, 1};
  const auto m = PlanMemoryView({matrix}, Rect{0, 0, 300, 220}, 1.0f, 20.0f);
  EXPECT_EQ(m[0].shape.cols, 32u);
  EXPECT_FLOAT_EQ(m[0].cell, 9.0f);
  EXPECT_FLOAT_EQ(m[0].view.w, 288.0f);
  // Rows of a line stay when the array fits whole in them: 256 floats (8 x 32) in 600 x 300 fit
  // at min(600 / 32, 272 / 8) = 18.75 -> 18 px.
  PlanArray small{"s", {8, 32}, true, 1};
  small.min_cols = 8;
  const auto w = PlanMemoryView({small}, Rect{0, 0, 600, 300}, 1.0f, 20.0f);
  EXPECT_TRUE(w[0].whole);
  EXPECT_EQ(w[0].shape.cols, 32u);
  EXPECT_FLOAT_EQ(w[0].cell, 18.0f);
}

TEST(Plan, OneDimensionalArraysAreArrangedForAWarpsRow) {
  // pairs at 1920x1080, scale 1.5: a, b (8x32) and _b (1x32) in 646x234 (30 px labels, 12 px
  // gaps, legible 20 px). A warp reads 32 consecutive elements: one row (warp_rows 1).
  //   stacked: 3 rows of (234 - 3 * 42) / 3 = 36 px; 8x32 does not fit whole at 20 px (8 rows
  //     are 160 px), so a shows a region: a warp's 32 cells across are 640 px, floor(646 / 20) =
  //     32 of 32, and floor(36 / 20) = 1 row of the 1 needed -> 20; _b whole at 20 -> worst 20.
  //   three columns of (646 - 24) / 3 = 207.3 px: floor(207.3 / 20) = 10 of 32 cells -> 6.25.
  // Stacked wins: every slot at x = 0, a's region 640 x 36, the whole footprint. The overview
  // cannot go beside it (646 - 640 - 12 < 0) nor below it (36 - 20 - 12 = 4 px < 18), so it
  // sits at the end of the label's line: 30 px tall, 30 * 32 / 8 = 120 px wide, at x = 526;
  // the label keeps 646 - 120 - 12 = 514 px. The region ends at its last whole row: 20 px.
  const std::vector<PlanArray> arrays = {{"a", {8, 32}, true, 1}, {"b", {8, 32}, true, 1}, {"_b", {1, 32}, true, 1}};
  const auto slots = PlanMemoryView(arrays, Rect{0, 0, 646, 234}, 1.5f, 30.0f);
  ASSERT_EQ(slots.size(), 3u);
  for (const auto& s : slots) EXPECT_FLOAT_EQ(s.view.x, 0.0f) << s.name;
  EXPECT_FALSE(slots[0].whole);
  EXPECT_FLOAT_EQ(slots[0].view.w, 640.0f);
  EXPECT_FLOAT_EQ(slots[0].view.h, 20.0f);
  EXPECT_FLOAT_EQ(slots[0].overview.x, 526.0f);
  EXPECT_FLOAT_EQ(slots[0].overview.y, slots[0].label.y);
  EXPECT_FLOAT_EQ(slots[0].overview.w, 120.0f);
  EXPECT_FLOAT_EQ(slots[0].overview.h, 30.0f);
  EXPECT_FLOAT_EQ(slots[0].label.w, 514.0f);
  EXPECT_TRUE(slots[2].whole);
  EXPECT_FLOAT_EQ(slots[2].cell, 20.0f);
}

// A region keeps its overview beside it when the room right of a warp's footprint allows: a
// 64x64 matrix read along a row (warp_rows 1) in 900x400 at scale 1 (legible 16 px) is a region
// (64 x 16 = 1024 px > 900); the footprint is 32 x 16 = 512 px, so the overview takes
// min(0.15 x 900, 96) = 96 px beside it, 8 px away: the region has 900 - 96 - 8 = 796 px, 49
// whole cells (784 px).
TEST(Plan, TheOverviewGoesBesideARegionWhenTheFootprintLeavesRoom) {
  const std::vector<PlanArray> arrays = {{"m", {64, 64}, true, 1}};
  const auto slots = PlanMemoryView(arrays, Rect{0, 0, 900, 420}, 1.0f, 20.0f);
  ASSERT_EQ(slots.size(), 1u);
  EXPECT_FALSE(slots[0].whole);
  EXPECT_FLOAT_EQ(slots[0].view.w, 784.0f);
  EXPECT_FLOAT_EQ(slots[0].overview.x, 804.0f);
  EXPECT_FLOAT_EQ(slots[0].overview.y, slots[0].view.y);
}

TEST(Plan, ASharedTileIsWholeWhereverItsCellsReach16Px) {
  // A 32x32 tile read along a row (footprint 1 x 32) in 600x600 at scale 2 (legible 24 px, 40 px
  // labels): whole it fits at min(600, 600 - 40 - 16) / 32 = 17 px >= 16: whole, at 17. The same
  // shape as a global array would be a region of 18 px cells (floor(600 / 32)) around the row.
  PlanArray tile{"tile", {32, 32}, true, 1};
  tile.tile = true;
  const auto t = PlanMemoryView({tile}, Rect{0, 0, 600, 600}, 2.0f, 40.0f);
  EXPECT_TRUE(t[0].whole);
  EXPECT_FLOAT_EQ(t[0].cell, 17.0f);
  tile.tile = false;
  const auto g = PlanMemoryView({tile}, Rect{0, 0, 600, 600}, 2.0f, 40.0f);
  EXPECT_FALSE(g[0].whole);
  EXPECT_FLOAT_EQ(g[0].cell, 18.0f);
}

TEST(Plan, TheHallGivesTheRoomToWhatTheStepTouches) {
  // Presenter mode at the transpose tile's read: in and out (64x64) untouched by the step, the
  // tile (32x32) read down a column (footprint 32 x 1), in 340x314 at scale 1.4 (30 px labels,
  // 11.2 px gaps, legible 19.2 px). in and out are labels side by side on the first line, each
  // 340 / 2 wide less a gap between them; the tile's label at 30 + 11.2 = 41.2, its cells below in
  // 314 - 41.2 - 41.2 = 231.6 px: 32 rows at floor(231.6 / 32) = 7 px, the whole tile.
  PlanArray in{"in", {64, 64}, true}, out{"out", {64, 64}, true}, tile{"tile", {32, 32}, true, 32};
  tile.warp_cols = 1;
  tile.tile = tile.step_touches = true;
  const auto slots = PlanMemoryView({in, out, tile}, Rect{0, 0, 340, 314}, 1.4f, 30.0f, true);
  ASSERT_EQ(slots.size(), 3u);
  EXPECT_TRUE(slots[0].label_only);
  EXPECT_FLOAT_EQ(slots[0].label.x, 0.0f);
  EXPECT_NEAR(slots[0].label.w, 170.0f - 11.2f, 1e-3);
  EXPECT_TRUE(slots[1].label_only);
  EXPECT_FLOAT_EQ(slots[1].label.x, 170.0f);
  EXPECT_FLOAT_EQ(slots[1].view.w, 0.0f);
  EXPECT_EQ(slots[2].name, "tile");
  EXPECT_NEAR(slots[2].label.y, 41.2f, 1e-3);
  EXPECT_TRUE(slots[2].whole);
  EXPECT_FLOAT_EQ(slots[2].cell, 7.0f);
  EXPECT_FLOAT_EQ(slots[2].overview.w, 0.0f);
}

TEST(Plan, LessonArraysGetTwiceTheHeight) {
  // One lesson array and one the warp never touches, 64x64 each, 642x700: 644 px of cells split
  // 2:1, 429.33 and 214.67 (the second label at 20 + 429.33 + 8); each region ends at its last
  // whole row, less than a cell short of its share.
  const std::vector<PlanArray> arrays = {{"in", {64, 64}, true}, {"other", {64, 64}, false}};
  const auto slots = PlanMemoryView(arrays, Rect{0, 0, 642, 700}, 1.0f, 20.0f);
  EXPECT_NEAR(slots[1].label.y, 20.0f + 644.0f * 2 / 3 + 8.0f, 1e-3);
  EXPECT_LE(slots[0].view.h, 644.0f * 2 / 3);
  EXPECT_GT(slots[0].view.h, 644.0f * 2 / 3 - slots[0].cell);
  EXPECT_LE(slots[1].view.h, 644.0f / 3);
  EXPECT_GT(slots[1].view.h, 644.0f / 3 - slots[1].cell);
}

TEST(Plan, SameNameSameGeometryInBothPanes) {
  // A has d (64x64); B has d (64x65) and tile. Both plan with the union, d planned at the larger
  // 64x65, and the smaller room: the two panes get one identical slot for d.
  MemoryPlanShare share;
  share.Offer("A", 10, {{"d", {64, 64}, true}}, 642, 700);
  share.Offer("B", 10, {{"d", {64, 65}, true}, {"tile", {32, 32}, true}}, 642, 520);
  const auto arrays = share.Arrays(10);
  ASSERT_EQ(arrays.size(), 2u);
  EXPECT_EQ(arrays[0].name, "d");
  EXPECT_EQ(arrays[0].shape.cols, 65u);
  EXPECT_FLOAT_EQ(share.Height(10, 700), 520.0f);
  // An offer two frames old (B closed) no longer counts.
  EXPECT_EQ(share.Arrays(12).size(), 0u);
  share.Offer("A", 12, {{"d", {64, 64}, true}}, 642, 700);
  EXPECT_EQ(share.Arrays(12).size(), 1u);
  EXPECT_FLOAT_EQ(share.Height(12, 700), 700.0f);
}

TEST(Plan, TheRegionFollowsTheStep) {
  // 64x64 at 16 px in 514x322: 32 columns, 20 rows in view.
  const GridShape s{64, 64};
  const Rect view{0, 0, 514, 322};
  // A row of 32 at row 40: centred, rows 30..49; the 32 columns fit from 0.
  GridWindow w = FollowWindow(s, view, 16, 40, 0, 40, 31, {});
  EXPECT_EQ(w.rows, 20u);
  EXPECT_EQ(w.cols, 32u);
  EXPECT_EQ(w.row0, 30u);
  EXPECT_EQ(w.col0, 0u);
  // The next row is already in view: the region stays put.
  EXPECT_EQ(FollowWindow(s, view, 16, 41, 0, 41, 31, w).row0, 30u);
  // A column of 32 rows does not fit in 20: anchored at its top (lane 0).
  EXPECT_EQ(FollowWindow(s, view, 16, 0, 5, 31, 5, w).row0, 0u);
  // Near the end the region stops at the last row: 64 - 20 = 44.
  EXPECT_EQ(FollowWindow(s, view, 16, 63, 0, 63, 31, w).row0, 44u);
  // The grid is shifted so that the window's first cell is at the view's corner.
  const GridLayout g = WindowLayout(w, view, 16, s);
  EXPECT_FLOAT_EQ(CellRect(g, 30, 0).y, 0.0f);
  EXPECT_FLOAT_EQ(CellRect(g, 31, 2).x, 32.0f);
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
