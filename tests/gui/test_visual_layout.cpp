// The memory view's layout rules: grid and cell geometry, how a pane's room is planned between
// arrays (regions, overviews, tiny strips), lane boxes and bank slots. Expected values worked out by hand.
#include <gtest/gtest.h>

#include <map>

#include "visual/layout.h"
#include "visual/memory_grid.h"

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

TEST(Plan, TheHallDrawsTheTinyArrayTheStepTouchesLarge) {
  // pairs' atomic in presenter mode: ans (1 float) touched, a and b (8x32) not, in 600 x 400 at
  // scale 1.4. a and b are labels on one line (30 px, then an 11.2 px gap); ans's label below, its
  // cell at 71.2 px: up to twice the largest cell (2 x 56 x 1.4 = 156.8) within 600 across and the
  // 400 - 71.2 = 328.8 px left: 156 px (whole pixels). Out of the hall the strip's 24 x 1.4 =
  // 33.6 px (untouched in the hall, a label).
  PlanArray ans{"ans", {1, 1}, true, 1}, a{"a", {8, 32}, true, 1}, b{"b", {8, 32}, true, 1};
  ans.step_touches = true;
  const auto hall = PlanMemoryView({a, b, ans}, Rect{0, 0, 600, 400}, 1.4f, 30.0f, true);
  ASSERT_EQ(hall.size(), 3u);
  EXPECT_EQ(hall[2].name, "ans");
  EXPECT_FLOAT_EQ(hall[2].cell, 156.0f);
  EXPECT_FLOAT_EQ(hall[2].view.y, 30.0f + 11.2f + 30.0f);
  const auto normal = PlanMemoryView({a, b, ans}, Rect{0, 0, 600, 400}, 1.4f, 30.0f, false);
  EXPECT_FLOAT_EQ(normal[0].cell, 33.6f);
  ans.step_touches = false;
  EXPECT_TRUE(PlanMemoryView({a, b, ans}, Rect{0, 0, 600, 400}, 1.4f, 30.0f, true)[2].label_only);
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

TEST(Plan, AWholeArrayKeepsItsLineRowsUnlessNarrowerRowsAreAQuarterLarger) {
  // pairs' b, 256 floats in 8 rows of a 128-byte line (32 cells; a sector is 8), one row read, in
  // 600 x 300 at scale 1.4 (legible 19.2 px; 30 px label and 11.2 px gap: 258.8 px for the cells).
  // Whole in line rows: floor(min(600 / 32, 258.8 / 8)) = 18 px. Half-line rows (16 x 16) would
  // need 16 x 16 px = 256 px: 16 px whole, or a region holding the read's 2 rows at the legible
  // 19 px; quarter rows the same 19. 19 is not a quarter more than 18 (22.5): whole, in line rows.
  PlanArray b{"b", {8, 32}, true, 1};
  b.min_cols = 8;
  const auto slots = PlanMemoryView({b}, Rect{0, 0, 600, 300}, 1.4f, 30.0f);
  EXPECT_TRUE(slots[0].whole);
  EXPECT_FLOAT_EQ(slots[0].cell, 18.0f);
  EXPECT_EQ(slots[0].shape.rows, 8u);
  EXPECT_EQ(slots[0].shape.cols, 32u);
}

TEST(Plan, APaddedTileIsWholeWhereItsCellsLoseAtMostAnEighth) {
  // The padded transpose tile, 33 rows of 32 floats, read down a column (footprint 32 x 1), in
  // 600 x 491.2 at scale 1.4 (30 px label, 11.2 px gap): 450 px for the cells. Its first 32 rows
  // would take floor(450 / 32) = 14 px cells, the whole tile floor(450 / 33) = 13 px: 13 >= 7/8 of
  // 14 (12.25), so the whole tile, padding row and all.
  PlanArray tile{"tile", {33, 32}, true, 32};
  tile.warp_cols = 1;
  tile.tile = true;
  const auto t = PlanMemoryView({tile}, Rect{0, 0, 600, 491.2f}, 1.4f, 30.0f);
  EXPECT_TRUE(t[0].whole);
  EXPECT_FLOAT_EQ(t[0].cell, 13.0f);
  // In 130 px for the cells: 32 rows at 4 px (floor(4.06)), the whole tile at 3 px, below the
  // least cell: the footprint's rows at 4 px, the last row out of view.
  const auto s = PlanMemoryView({tile}, Rect{0, 0, 600, 171.2f}, 1.4f, 30.0f);
  EXPECT_FALSE(s[0].whole);
  EXPECT_FLOAT_EQ(s[0].cell, 4.0f);
}

TEST(Plan, AFootprintAsLargeAsTheArrayIsTheArrayWholeWithoutAnOverview) {
  // transpose's 32x32 tile read down a column (footprint 32 x 1) in 322 x 176 at scale 2 (40 px
  // label, 16 px gap: 120 px for the cells). Whole it would be floor(120 / 32) = 3 px, below the
  // least cell: the footprint's 32 rows at kLeastCell (4 px) run 8 px past the slot, and at 4 px
  // they are every row and column of the tile (128 x 128). That is the tile whole: no overview
  // beside it (there was one, 48 px wide, a miniature of what was already in view).
  PlanArray tile{"tile", {32, 32}, true, 32};
  tile.warp_cols = 1;
  tile.tile = tile.step_touches = true;
  const auto s = PlanMemoryView({tile}, Rect{0, 0, 322, 176}, 2.0f, 40.0f);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].whole);
  EXPECT_FLOAT_EQ(s[0].cell, 4.0f);
  EXPECT_FLOAT_EQ(s[0].overview.w, 0.0f);
  EXPECT_FLOAT_EQ(s[0].view.w, 128.0f);
  EXPECT_FLOAT_EQ(s[0].view.h, 128.0f);
  EXPECT_FLOAT_EQ(s[0].label.w, 322.0f);
}

TEST(Plan, TheHallGivesTheRoomToWhatTheStepTouches) {
  // Presenter mode at the transpose tile's read: in and out (64x64) untouched by the step, the
  // tile (32x32) read down a column (footprint 32 x 1), in 340x314 at scale 1.4 (30 px labels,
  // 11.2 px gaps, legible 19.2 px). in and out are labels side by side on the first line, each
  // 340 / 2 wide less a gap between them; the tile's label at 30 + 11.2 = 41.2, its cells below in
  // 314 - 41.2 - 30 = 242.8 px (no gap under the last row in the hall): 32 rows at
  // floor(242.8 / 32) = 7 px, the whole tile.
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

TEST(Plan, TheHallPutsATileItsHeightLimitsBesideItsLabels) {
  // The padded tile (33x32) read down a column, alone in the hall beside in and out, in 340x250 at
  // scale 2 (40 px label line, 16 px gap, legible 24 px); labels tile 42 px, in 28, out 48 wide.
  // Under its label line: 210 px for 33 rows, floor(6.36) = 6 px. Its label and the names in a
  // column 48 px wide at the right: 340 - 48 - 16 = 276 px across (8.6 px a column) and 250 down
  // (7.58 a row): 7 px, so the column it is: cells 224 x 231 px from the top, the labels from x =
  // 224 + 16 = 240, the tile's at y 0, in's at 40, out's at 80.
  PlanArray in{"in", {64, 64}, true}, out{"out", {64, 64}, true}, tile{"tile", {33, 32}, true, 32};
  tile.warp_cols = 1;
  tile.tile = tile.step_touches = true;
  in.label_w = 28, out.label_w = 48, tile.label_w = 42;
  auto slots = PlanMemoryView({in, out, tile}, Rect{0, 0, 340, 250}, 2.0f, 40.0f, true);
  ASSERT_EQ(slots.size(), 3u);
  std::map<std::string, ArraySlot> by;
  for (const auto& s : slots) by[s.name] = s;
  EXPECT_TRUE(by["tile"].whole);
  EXPECT_FLOAT_EQ(by["tile"].cell, 7.0f);
  EXPECT_FLOAT_EQ(by["tile"].view.y, 0.0f);
  EXPECT_FLOAT_EQ(by["tile"].view.w, 224.0f);
  EXPECT_FLOAT_EQ(by["tile"].view.h, 231.0f);
  EXPECT_FLOAT_EQ(by["tile"].label.x, 240.0f);
  EXPECT_FLOAT_EQ(by["tile"].label.y, 0.0f);
  EXPECT_TRUE(by["in"].label_only && by["out"].label_only);
  EXPECT_FLOAT_EQ(by["in"].label.x, 240.0f);
  EXPECT_FLOAT_EQ(by["in"].label.y, 40.0f);
  EXPECT_FLOAT_EQ(by["out"].label.y, 80.0f);
  // 400 px down: under the label line 360 / 33 = 10.9 a row, 340 / 32 = 10.6 a column: 10 px;
  // in the column's 276 px across 8 px, not whole (its footprint alone would get 12): the label
  // stays above the cells.
  slots = PlanMemoryView({in, out, tile}, Rect{0, 0, 340, 400}, 2.0f, 40.0f, true);
  by.clear();
  for (const auto& s : slots) by[s.name] = s;
  EXPECT_FLOAT_EQ(by["tile"].cell, 10.0f);
  EXPECT_FLOAT_EQ(by["tile"].label.x, 0.0f);
  EXPECT_FLOAT_EQ(by["tile"].view.y, 40.0f);
}

TEST(Plan, TheHallDrawsTheStepsFootprintUpToTwiceTheLegibleCell) {
  // pairs' b, 256 floats in rows of a line (8x32, rows down to a sector's 8 cells), the step
  // reading its first line, alone in 600x300 at scale 1.4 (30 px label, 11.2 px gap, legible 19.2).
  // The cells get 300 - 30 = 270 px down in the hall (no gap under the last row). Whole it is
  // min(600 / 32, 270 / 8) = 18.75 -> 18 px. In rows of half a line (16x16, the line two rows) its
  // footprint alone gets min(2 x 19.2, 600 / 16, 270 / 2) -> 37 px, more than a quarter over 18:
  // a region of 16 columns at 37 px, floor(270 / 37) = 7 rows of it (592 x 259 px). Rows of a
  // quarter line would get 38, not a quarter over 37. Outside the hall the footprint stays at the
  // legible size (19, not a quarter over 18): b whole at 18 px.
  PlanArray b{"b", {8, 32}, true, 1};
  b.warp_cols = 32;
  b.min_cols = 8;
  b.step_touches = true;
  auto slots = PlanMemoryView({b}, Rect{0, 0, 600, 300}, 1.4f, 30.0f, true);
  ASSERT_EQ(slots.size(), 1u);
  EXPECT_FALSE(slots[0].whole);
  EXPECT_FLOAT_EQ(slots[0].cell, 37.0f);
  EXPECT_EQ(slots[0].shape.cols, 16u);
  EXPECT_EQ(slots[0].shape.rows, 16u);
  EXPECT_FLOAT_EQ(slots[0].view.w, 592.0f);
  EXPECT_FLOAT_EQ(slots[0].view.h, 259.0f);
  slots = PlanMemoryView({b}, Rect{0, 0, 600, 300}, 1.4f, 30.0f, false);
  ASSERT_EQ(slots.size(), 1u);
  EXPECT_TRUE(slots[0].whole);
  EXPECT_FLOAT_EQ(slots[0].cell, 18.0f);
  EXPECT_EQ(slots[0].shape.cols, 32u);
}

TEST(Plan, TheHallPutsUntouchedLabelsAtTheEndOfTheTouchedArraysLine) {
  // The same tile read with the labels' widths known: the tile's label needs 150 px, in's 20 and
  // out's 30. 150 + 11.2 + 20 + 11.2 + 30 = 222.4 <= 340: in and out sit at the right end of the
  // tile's label line (out at 340 - 30 = 310, in at 310 - 11.2 - 20 = 278.8), the tile's label
  // ends a gap before them (278.8 - 11.2 = 267.6 wide), and the line of their own is the tile's:
  // its cells get 314 - 30 = 284 px, 32 rows at floor(284 / 32) = 8 px.
  PlanArray in{"in", {64, 64}, true}, out{"out", {64, 64}, true}, tile{"tile", {32, 32}, true, 32};
  tile.warp_cols = 1;
  tile.tile = tile.step_touches = true;
  in.label_w = 20, out.label_w = 30, tile.label_w = 150;
  auto slots = PlanMemoryView({in, out, tile}, Rect{0, 0, 340, 314}, 1.4f, 30.0f, true);
  ASSERT_EQ(slots.size(), 3u);
  std::map<std::string, ArraySlot> by;
  for (const auto& s : slots) by[s.name] = s;
  EXPECT_TRUE(by["in"].label_only && by["out"].label_only);
  EXPECT_NEAR(by["out"].label.x, 310.0f, 1e-3);
  EXPECT_NEAR(by["in"].label.x, 278.8f, 1e-3);
  EXPECT_FLOAT_EQ(by["in"].label.y, 0.0f);
  EXPECT_FLOAT_EQ(by["in"].label.w, 20.0f);
  EXPECT_FLOAT_EQ(by["tile"].label.y, 0.0f);
  EXPECT_NEAR(by["tile"].label.w, 267.6f, 1e-3);
  EXPECT_FLOAT_EQ(by["tile"].view.y, 30.0f);
  EXPECT_FLOAT_EQ(by["tile"].cell, 8.0f);
  // A tile label of 260 px: 260 + 11.2 + 61.2 = 332.4 still fits; of 280 px (352.4) it does not,
  // and the labels take their own line as before (the tile's label at 41.2).
  tile.label_w = 280;
  slots = PlanMemoryView({in, out, tile}, Rect{0, 0, 340, 314}, 1.4f, 30.0f, true);
  ASSERT_EQ(slots.size(), 3u);
  EXPECT_FLOAT_EQ(slots[0].label.x, 0.0f);
  EXPECT_NEAR(slots[2].label.y, 41.2f, 1e-3);
  EXPECT_FLOAT_EQ(slots[2].cell, 7.0f);
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

// A tooltip beside the pointer's box (x - 16 .. x + 24, y - 8 .. y + 24 at scale 1), clear of the
// cache view (keep_clear) where some side has room. Screen 1000x800, the cache view its right 400 px.
TEST(Layout, ATooltipKeepsClearOfTheViewItsHoverLights) {
  const Rect screen{0, 0, 1000, 800}, cache{600, 0, 400, 800};
  const auto at = [](const Rect& r, float x, float y) { return r.x == x && r.y == y; };
  // Nothing to keep clear of: right of the box, at the pointer's height (Dear ImGui's place).
  EXPECT_TRUE(at(PlaceTooltip(100, 100, 200, 50, screen, Rect{}, 1), 124, 100));
  // Right would reach the cache view (524 + 200 > 600): left of the box, 500 - 16 - 200.
  EXPECT_TRUE(at(PlaceTooltip(500, 100, 200, 50, screen, cache, 1), 284, 100));
  // 450x300 at (300, 700): right reaches the cache view, left leaves the screen, below too (724 +
  // 300 > 800); above the box (692 - 300), slid left to end at the cache view (600 - 450).
  EXPECT_TRUE(at(PlaceTooltip(300, 700, 450, 300, screen, cache, 1), 150, 392));
  // 500x700 has no side: over the pointer, beside the cache view (its right edge at 600), and as
  // low as the screen lets it (800 - 700).
  EXPECT_TRUE(at(PlaceTooltip(300, 400, 500, 700, screen, cache, 1), 100, 100));
  // 800 px wide cannot miss a cache view 600 px from the left: it covers the least of it, 200 px.
  const Rect wide = PlaceTooltip(300, 400, 800, 100, screen, cache, 1);
  EXPECT_EQ(wide.x, 0.0f);
  EXPECT_TRUE(wide.y >= 0 && wide.y + wide.h <= 800);
  // The room a tooltip may take: left of the cache view from a pointer there, right of it from
  // one there, the screen's width from one inside it.
  EXPECT_EQ(TooltipRoom(300, screen, cache), 600.0f);
  EXPECT_EQ(TooltipRoom(300, screen, Rect{0, 0, 200, 800}), 800.0f);
  EXPECT_EQ(TooltipRoom(700, screen, cache), 1000.0f);
}

}  // namespace
}  // namespace ws::visual
