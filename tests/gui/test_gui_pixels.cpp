// The desktop program as a lecturer drives it: every variant of the catalog opens and draws its
// first step; for each seed family, open it at a known step through
// command-line scripts, save a screenshot and check pixels that must be there. Cell positions
// come from visual/layout.h (the views' own layout functions, tested in test_visual.cpp) applied
// to the panel rectangles the program reports; the lane and element each check expects are
// worked out by hand from the kernel's index arithmetic, written beside each check.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <map>
#include <set>
#include <string>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <stb_image.h>

#include "kernels/catalog.h"
#include "visual/layout.h"
#include "visual/palette.h"

namespace ws::visual {
namespace {

struct Shot {
  std::vector<unsigned char> px;
  int w = 0, h = 0;
  nlohmann::json layout;

  Rgb At(float x, float y) const {
    const int ix = int(x), iy = int(y);
    if (ix < 0 || iy < 0 || ix >= w || iy >= h) return {1, 2, 3};
    const unsigned char* p = &px[(size_t(iy) * w + ix) * 3];
    return {p[0], p[1], p[2]};
  }
  const nlohmann::json* Find(const std::string& pane, const std::string& kind, const std::string& name = "") const {
    for (const auto& p : layout["placed"])
      if (p["pane"] == pane && p["kind"] == kind && (name.empty() || p["name"] == name)) return &p;
    return nullptr;
  }
};

Rect RectOf(const nlohmann::json& p) {
  return {p["rect"][0].get<float>(), p["rect"][1].get<float>(), p["rect"][2].get<float>(), p["rect"][3].get<float>()};
}

// Runs `warpscope gui ARGS --screenshot` and loads what it saved.
// `env`: variables set for the program ("NAME=value ...").
Shot Take(const std::string& name, const std::string& args, const std::string& size = "--size 1600x1000 --scale 1",
          const std::string& env = "") {
  const std::string dir = WARPSCOPE_TEST_OUT;
  std::filesystem::create_directories(dir);
  const std::string png = dir + "/" + name + ".png", js = dir + "/" + name + ".json";
  std::filesystem::remove(png);
  const std::string cmd = (env.empty() ? "" : "env " + env + " ") + std::string(WARPSCOPE_BINARY) + " gui --no-settings " + size + " " + args +
                          " --screenshot " + png + " --layout-out " + js + " --quit";
  Shot s;
  const int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << cmd;
  int comp = 0;
  unsigned char* data = stbi_load(png.c_str(), &s.w, &s.h, &comp, 3);
  EXPECT_NE(data, nullptr) << "no screenshot from: " << cmd;
  if (data) {
    s.px.assign(data, data + size_t(s.w) * s.h * 3);
    stbi_image_free(data);
  }
  std::ifstream in(js);
  if (in) s.layout = nlohmann::json::parse(in, nullptr, false);
  return s;
}

::testing::AssertionResult Near(Rgb got, Rgb want, const std::string& what) {
  if (std::abs(got.r - want.r) <= 3 && std::abs(got.g - want.g) <= 3 && std::abs(got.b - want.b) <= 3)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << ": got (" << int(got.r) << "," << int(got.g) << "," << int(got.b)
                                       << "), want (" << int(want.r) << "," << int(want.g) << "," << int(want.b) << ")";
}

// The colour a third of the way down cell (row, col) of `array` in `pane`'s memory view, above
// the served-from bar along its bottom. The view reports the cell size and which cell sits at its
// top-left (a region of a large array).
Rgb CellColour(const Shot& s, const std::string& pane, const std::string& array, uint64_t row, uint64_t col) {
  const nlohmann::json* p = s.Find(pane, "grid", array);
  EXPECT_NE(p, nullptr) << "no grid for " << pane << " " << array;
  if (!p) return {};
  const Rect view = RectOf(*p);
  const float cell = (*p)["cell"].get<float>();
  const GridWindow w{(*p)["row0"].get<uint64_t>(), (*p)["col0"].get<uint64_t>(), uint64_t(view.h / cell + 0.01f),
                     uint64_t(view.w / cell + 0.01f)};
  EXPECT_GE(cell, 2.0f) << "cells too small to sample";
  EXPECT_TRUE(w.Contains(row, col)) << pane << " " << array << " cell (" << row << "," << col << ") not in view";
  const Rect c = CellRect(WindowLayout(w, view, cell, {(*p)["rows"], (*p)["cols"]}), row, col);
  return s.At(c.CenterX(), c.y + c.h / 3);
}

Rgb LaneColour(const Shot& s, const std::string& pane, int lane) {
  const nlohmann::json* p = s.Find(pane, "lanes");
  EXPECT_NE(p, nullptr) << "no lane strip for " << pane;
  if (!p) return {};
  const Rect b = LaneBox(RectOf(*p), lane);
  return s.At(b.CenterX(), b.CenterY());
}

BankLayout Banks(const Shot& s, const std::string& pane) {
  const nlohmann::json* p = s.Find(pane, "banks");
  EXPECT_NE(p, nullptr) << "no bank view for " << pane;
  if (!p) return {};
  return {RectOf(*p), (*p)["header_h"].get<float>(), (*p)["slot_h"].get<float>()};
}
// The conflict mark is a band across the top of the bank's header.
Rgb BankMark(const Shot& s, const std::string& pane, int bank) {
  const Rect h = BankHeader(Banks(s, pane), bank);
  return s.At(h.CenterX(), h.y + 2);
}
Rgb BankWord(const Shot& s, const std::string& pane, int bank, int slot) {
  const Rect q = BankSlot(Banks(s, pane), bank, slot);
  return s.At(q.CenterX(), q.CenterY());
}

// ---- the seeds' lessons, one hand-worked case per family ----

void Transpose() {
  {
    // copy at n=40, block 1 = blockIdx (1,0), warp 0 = threadIdx.y 0, threadIdx.x = lane.
    // x = 32 + lane < 40 only for lanes 0..7. Step 0 is the load in[y*40 + x] = in[32 + lane]:
    // lane 3 reads row 0, column 35; lane 8 is masked off.
    const Shot s = Take("transpose_copy_masked", "--variant transpose/copy --no-compare --n 40 --block 1 --warp 0 --step 0");
    EXPECT_TRUE(Near(CellColour(s, "A", "in", 0, 35), LaneRgb(3), "in[0][35] in lane 3's colour"));
    EXPECT_TRUE(Near(CellColour(s, "A", "in", 0, 39), LaneRgb(7), "in[0][39] in lane 7's colour"));
    EXPECT_TRUE(Near(LaneColour(s, "A", 3), LaneRgb(3), "lane 3 active"));
    EXPECT_TRUE(Near(LaneColour(s, "A", 8), kMasked, "lane 8 drawn masked"));
    EXPECT_TRUE(Near(LaneColour(s, "A", 31), kMasked, "lane 31 drawn masked"));
  }
  {
    // shared vs shared_padded, n=64, block 0, warp 0 (threadIdx.y 0). Warp 0's steps: 0 load in,
    // 1 store tile[0][lane], 2 load tile[threadIdx.x][threadIdx.y] = tile[lane][0], 3 store out.
    // At step 2: 32 columns -> word 32*lane, all in bank 0 (32-way); 33 columns -> word 33*lane,
    // bank lane (conflict-free). Shared arrays are drawn 32 words to a row, so a column is a
    // bank: lane 7 reads word 224 = row 7, column 0 (A) and word 231 = row 7, column 7 (B).
    const Shot s = Take("transpose_banks", "--variant transpose/shared --compare transpose/shared_padded --n 64 --step 2");
    EXPECT_TRUE(Near(BankMark(s, "A", 0), kConflict, "A: bank 0 marked as a conflict"));
    EXPECT_FALSE(Near(BankMark(s, "A", 1), kConflict, "A: bank 1 not marked"));
    EXPECT_TRUE(Near(BankWord(s, "A", 0, 5), LaneRgb(5), "A: 6th word in bank 0 is lane 5's"));
    EXPECT_FALSE(Near(BankMark(s, "B", 0), kConflict, "B: bank 0 not marked"));
    EXPECT_TRUE(Near(BankWord(s, "B", 5, 0), LaneRgb(5), "B: bank 5 holds lane 5's word"));
    EXPECT_TRUE(Near(CellColour(s, "A", "tile", 7, 0), LaneRgb(7), "A: word 224 (row 7, bank 0) in lane 7's colour"));
    EXPECT_TRUE(Near(CellColour(s, "B", "tile", 7, 7), LaneRgb(7), "B: word 231 (row 7, bank 7) in lane 7's colour"));
  }
}

void Shortcut() {
  // v0 beside v1, n=64, 16x16 blocks: warp 0 of block 0 has threadIdx.x = lane % 16,
  // threadIdx.y = lane / 16. The k loop issues two loads per k (2 x 64 steps), so step 128 is
  // the store. v0: i = lane % 16, j = lane / 16, r[n*i + j]: lane 20 -> row 4, column 1.
  // v1 swaps them, r[n*j + i]: lane 20 -> row 1, column 4. Both panes at the same step.
  const Shot s = Take("shortcut_store", "--variant shortcut/v0 --compare shortcut/v1 --n 64 --step 128");
  EXPECT_TRUE(Near(CellColour(s, "A", "r", 4, 1), LaneRgb(20), "v0: r[4][1] in lane 20's colour"));
  EXPECT_TRUE(Near(CellColour(s, "B", "r", 1, 4), LaneRgb(20), "v1: r[1][4] in lane 20's colour"));
}

void Pairs() {
  // v1, n=256, block 0 warp 0: x = lane, y = 0. Iteration 0 reads a[x] and b[0] (the order of
  // the two call arguments is the compiler's): one of steps 0 and 1 lights a[5] (drawn wrapped
  // at 32: row 0, column 5) in lane 5's colour and a[6] in lane 6's; the other does not.
  const Shot s0 = Take("pairs_step0", "--variant pairs/v1 --no-compare --n 256 --step 0");
  const Shot s1 = Take("pairs_step1", "--variant pairs/v1 --no-compare --n 256 --step 1");
  const bool a0 = Near(CellColour(s0, "A", "a", 0, 5), LaneRgb(5), "") && Near(CellColour(s0, "A", "a", 0, 6), LaneRgb(6), "");
  const bool a1 = Near(CellColour(s1, "A", "a", 0, 5), LaneRgb(5), "") && Near(CellColour(s1, "A", "a", 0, 6), LaneRgb(6), "");
  EXPECT_NE(a0, a1) << "exactly one of the first two steps is the read of a";
}

void Divergence() {
  // divergent, n=4096, 256-thread blocks: warp 0 of block 0 has idx = lane; its first access is
  // the test array[i] with i = idx. The array is drawn 256 to a row: lane 9 -> row 0, column 9.
  const Shot s = Take("divergence_first", "--variant divergence/divergent --no-compare --n 4096 --step 0");
  EXPECT_TRUE(Near(CellColour(s, "A", "array", 0, 9), LaneRgb(9), "array[0][9] in lane 9's colour"));
  EXPECT_TRUE(Near(LaneColour(s, "A", 9), LaneRgb(9), "lane 9 active"));
}

void Alignment() {
  // scalar beside float4, n=1024: rayidx = lane. A RayState is 32 bytes, drawn as eight 4-byte
  // pieces; rows are 128 bytes = 32 pieces, so rays[12] is row 3 (cells 96..103), columns 0..7.
  // Step 0 of scalar is one of the eight 4-byte loads of rays[lane]: exactly one piece of
  // rays[12] is in lane 12's colour. Step 0 of float4 reads float4 number 2*lane, bytes 0..15 of
  // rays[lane]: pieces 0..3 lit, 4..7 not.
  // (A pane too narrow for 32 legible pieces draws rows of 16 or 8: piece p of rays[12] is cell
  // 96 + p, at row (96 + p) / cols.)
  const Shot s = Take("alignment_first", "--variant alignment/scalar --compare alignment/float4 --n 1024 --step 0");
  auto piece_colour = [&](const std::string& pane, uint64_t piece) {
    const nlohmann::json* g = s.Find(pane, "grid", "rays");
    const uint64_t cols = g ? (*g)["cols"].get<uint64_t>() : 32;
    return CellColour(s, pane, "rays", (96 + piece) / cols, (96 + piece) % cols);
  };
  int scalar_lit = 0;
  for (uint64_t piece = 0; piece < 8; ++piece) scalar_lit += Near(piece_colour("A", piece), LaneRgb(12), "") ? 1 : 0;
  EXPECT_EQ(scalar_lit, 1) << "scalar: one 4-byte piece of rays[12] per load";
  for (uint64_t piece = 0; piece < 8; ++piece)
    EXPECT_EQ(Near(piece_colour("B", piece), LaneRgb(12), "").operator bool(), piece < 4) << "float4: piece " << piece << " of rays[12]";
}

// Every variant of the catalog, found as the catalog finds it (no list here): it opens alone at
// its teaching size, and step 0 draws its arrays and at least one lane in its own colour (an
// instruction has at least one active lane).
TEST(GuiPixels, EveryVariantOpensAndDrawsItsFirstStep) {
  for (const auto& f : kernels::Catalog())
    for (const auto& v : f.info.variants) {
      const std::string id = f.info.name + "/" + v.name;
      SCOPED_TRACE(id);
      const Shot s = Take("variant_" + f.info.name + "_" + v.name, "--variant " + id + " --no-compare --step 0",
                          "--size 1280x720 --scale 1");
      ASSERT_FALSE(s.px.empty());
      EXPECT_NE(s.Find("A", "grid"), nullptr) << "no array drawn";
      bool lane_drawn = false;
      for (int lane = 0; lane < 32 && s.Find("A", "lanes"); ++lane)
        lane_drawn = lane_drawn || Near(LaneColour(s, "A", lane), LaneRgb(lane), "");
      EXPECT_TRUE(lane_drawn) << "no lane of step 0 drawn in its colour";
    }
}

// The seeds' lessons at a step worked out by hand (a family added later needs none: the test
// above covers it).
TEST(GuiPixels, SeedFamiliesShowTheirHandWorkedStep) {
  const std::map<std::string, void (*)()> cases = {{"transpose", Transpose}, {"shortcut", Shortcut}, {"pairs", Pairs},
                                                   {"divergence", Divergence}, {"alignment", Alignment}};
  for (const auto& [family, check] : cases) {
    SCOPED_TRACE(family);
    check();
  }
}

// The legend's lane swatch runs lane 0 to lane 31 left to right in the lanes' own colours.
TEST(GuiPixels, LegendShowsTheLaneColoursInOrder) {
  const Shot s = Take("legend", "--variant transpose/naive --compare transpose/shared");
  const nlohmann::json* p = s.Find("", "legend", "lanes");
  ASSERT_NE(p, nullptr) << "no legend";
  const Rect r = RectOf(*p);
  for (int lane : {0, 16, 31})
    EXPECT_TRUE(Near(s.At(r.x + r.w * (lane + 0.5f) / 32, r.y + r.h * 0.5f), LaneRgb(lane), "legend lane " + std::to_string(lane)));
}

// Presenter mode hides the source and timing panels: the two panes take the window's width,
// with the legend still under them. Out of it the side panel takes at least 20% (28% of the
// width, at least 200 px at scale 1).
TEST(GuiPixels, PresenterModeGivesTheWidthToThePanes) {
  const Shot normal = Take("normal", "--variant transpose/naive --compare transpose/shared");
  const Shot present = Take("present", "--variant transpose/naive --compare transpose/shared --present");
  const nlohmann::json* nb = normal.Find("B", "lanes");
  const nlohmann::json* pb = present.Find("B", "lanes");
  ASSERT_NE(nb, nullptr);
  ASSERT_NE(pb, nullptr);
  const Rect n = RectOf(*nb), p = RectOf(*pb);
  EXPECT_LT(n.x + n.w, 0.8f * float(normal.w));
  EXPECT_GT(p.x + p.w, 0.95f * float(present.w));
  EXPECT_NE(present.Find("", "legend", "lanes"), nullptr) << "the legend stays in presenter mode";
}

// naive vs shared transpose, n=64, block 0, warp 0 (threadIdx.y 0, threadIdx.x = lane). naive's
// steps: 0 load in, 1 store out. shared's: 0 load in, 1 store tile, 2 load tile, 3 store
// out[0*64 + lane] (row 0, column lane of out). naive's two roles are both in shared, so B
// follows by source role without a key: after one Right, A is at its store of out and B shows its
// own store of out (step 3). L twice (by role -> alone -> in lockstep): B is at step 1, the tile
// store, and has not touched out yet.
TEST(GuiPixels, FollowByRoleShowsTheOtherKernelsStoreOfTheSameArray) {
  const std::string args = "--variant transpose/naive --compare transpose/shared --n 64 --step 0 --keys ";
  const Shot role = Take("follow_role", args + "right");
  EXPECT_TRUE(Near(CellColour(role, "B", "out", 0, 5), LaneRgb(5), "B out[0][5] lit by lane 5"));
  const Shot lockstep = Take("follow_lockstep", args + "follow,follow,right");
  EXPECT_FALSE(Near(CellColour(lockstep, "B", "out", 0, 5), LaneRgb(5), "B out[0][5] in lockstep"));
}

// The cost badge on a 1280x720 projector at scales 1.5 and 2: pairs v2 against v3, each at its
// last instruction (step 200 is past both ends), the atomicAdd of the warp's sum to ans. v2: all
// 32 lanes add to ans itself, one 4-byte word in one line: the 32 float updates serialised, and
// the hardware counts each of them as a sector (docs/FIDELITY.md, Atomics): 32 sector requests to
// 1 distinct sector, ideal 1.
// v3: after the shuffle only lane 0 adds. Both: the atomic is performed at L2 on ans's one
// sector, which no warp touched before; the 64 one-warp blocks run in one wave and take turns
// block 0 first, every warp issuing the same instructions, so block 0's warp is the first to
// reach it: fetched from DRAM. The badge says so in full and stays inside its pane: within the
// pane's content width (the lane strip's) and above the legend under the panes.
TEST(GuiPixels, CostBadgeSaysTheAtomicLessonAndFitsItsPane) {
  const std::string dot = " \xc2\xb7 ";
  for (const char* scale : {"1.5", "2"}) {
    SCOPED_TRACE(scale);
    const Shot s = Take(std::string("badge_") + scale, "--variant pairs/v2 --compare pairs/v3 --step 200",
                        std::string("--size 1280x720 --scale ") + scale);
    const nlohmann::json* legend = s.Find("", "legend", "lanes");
    ASSERT_NE(legend, nullptr);
    const std::map<std::string, std::string> want = {
        {"A", "32 atomic updates to one address: serialised" + dot +
                  "32 sector requests (ideal 1) to 1 distinct sector in 1 distinct line" + dot +
                  "1 sector updated at L2: 1 from DRAM"},
        {"B", "1 of 32 lanes active" + dot + "1 atomic update: nothing to serialise" + dot + "1 line" + dot +
                  "1 sector (ideal 1)" + dot + "1 sector updated at L2: 1 from DRAM"}};
    for (const auto& [pane, text] : want) {
      const nlohmann::json* badge = s.Find(pane, "badge");
      const nlohmann::json* lanes = s.Find(pane, "lanes");
      ASSERT_NE(badge, nullptr) << "no badge in pane " << pane;
      ASSERT_NE(lanes, nullptr);
      EXPECT_EQ((*badge)["name"], text);
      const Rect b = RectOf(*badge), l = RectOf(*lanes);
      EXPECT_GE(b.x, l.x - 0.5f) << pane;
      EXPECT_LE(b.x + b.w, l.x + l.w + 0.5f) << pane;
      EXPECT_LE(b.y + b.h, RectOf(*legend).y) << pane << ": the badge runs under the legend";
    }
  }
}

// The frame is drawn in runs of textured, flat and opaque flat triangles (app/gui_render.h): the
// same pixels as Dear ImGui's own OpenGL backend, every one of them. Frames with glyphs, anti-
// aliased outlines, translucent trails and served-from marks over cells, at scales 1 and 1.5.
TEST(GuiPixels, RunsDrawThePixelsOfImGuisOwnBackend) {
  const struct {
    const char* name;
    const char* args;
    const char* size;
  } cases[] = {
      {"alignment_block", "--variant alignment/scalar --compare alignment/float4 --n 1024 --whole-block --step 3", "--size 1600x1000 --scale 1"},
      {"pairs_banks", "--variant pairs/v2 --compare pairs/v3 --step 200", "--size 1920x1080 --scale 1.5"},
      {"shortcut_trail", "--variant shortcut/v0 --compare shortcut/v1 --n 64 --step 40", "--size 1280x720 --scale 1"},
  };
  for (const auto& c : cases) {
    const Shot runs = Take(std::string("runs_") + c.name, c.args, c.size);
    const Shot imgui = Take(std::string("imgui_") + c.name, c.args, c.size, "WARPSCOPE_RENDERER=imgui");
    ASSERT_EQ(runs.w, imgui.w) << c.name;
    ASSERT_EQ(runs.h, imgui.h) << c.name;
    ASSERT_FALSE(runs.px.empty()) << c.name;
    size_t differ = 0, first = runs.px.size();
    for (size_t i = 0; i < runs.px.size(); ++i)
      if (runs.px[i] != imgui.px[i]) ++differ, first = std::min(first, i);
    EXPECT_EQ(differ, 0u) << c.name << ": first at pixel (" << first / 3 % runs.w << ", " << first / 3 / runs.w << ")";
  }
}

// Whether a text the window drew contains `part` (the layout's text runs).
bool HasText(const Shot& s, const std::string& part) {
  if (!s.layout.contains("text")) return false;
  for (const auto& t : s.layout["text"])
    if (t["text"].get<std::string>().find(part) != std::string::npos) return true;
  return false;
}

TEST(GuiPixels, TheScreenshotComesAtTheFirstPictureAndWaitCountersAfterTheWholeLaunch) {
  // transpose/naive at n=4096: 128 x 128 tiles, a block of 32x32 threads each; 2048 threads an SM:
  // 2 blocks per SM on 132 SMs, 264 a wave, 63 waves (the last of 16 blocks). Block 0's picture,
  // with where each sector came from, is final after the first wave (1.6% of the blocks): the
  // screenshot is taken then, the side panel saying how far the whole launch has got.
  const std::string args = "--variant transpose/naive --no-compare --n 4096 --step 0";
  const Shot first = Take("first_picture", args);
  ASSERT_TRUE(first.layout.is_object());
  EXPECT_TRUE(HasText(first, "of 16384 blocks")) << "no progress of the whole launch on the first picture";
  // Step 0 loads a row of 32 floats, 4 sectors, new to the caches: where they came from is in the
  // caption ("4 sectors: 2 L2 hits, 2 from DRAM": DRAM fills L2 a sector pair at a time).
  EXPECT_TRUE(HasText(first, "from DRAM"));
  EXPECT_FALSE(HasText(first, "DIFFERS")) << "the output is not checked before the whole launch has run";
  // --wait-counters: the keys and the screenshot wait for the whole launch; the counters are there.
  const Shot whole = Take("whole_launch", args + " --wait-counters");
  ASSERT_TRUE(whole.layout.is_object());
  EXPECT_FALSE(HasText(whole, "of 16384 blocks"));
  EXPECT_TRUE(HasText(whole, "from DRAM"));
  // The source line's counters are the whole launch's: line 10 (out[out_index] = in[in_index])
  // loads 4096^2 floats along rows, 4 sectors a warp (2,097,152), and stores them down columns,
  // 32 sectors a warp (16,777,216): 18,874,368 sectors; ideal 2 x 4096^2 x 4 B / 32 B = 4,194,304.
  EXPECT_TRUE(HasText(whole, "18874368 sectors (ideal 4194304)")) << "no line counters after the whole launch";
  EXPECT_FALSE(HasText(first, "sectors (ideal 4194304)")) << "line counters shown before the whole launch has run";
}

TEST(GuiPixels, TheScreenshotComesAtTheFirstPictureWithTheShownStepsMarks) {
  // shortcut/v0 at n = 512: 1024 blocks of 16x16 threads, one wave on the H100, each thread reading
  // 2 x 512 floats. The prefix pass (sim/prefix_pass.h) gives step 0's marks long before the wave
  // has run: the screenshot is taken then, the side panel saying which steps have their marks
  // and how far the launch has got. Step 0 reads 16 lines new to the caches: "16 from DRAM".
  const std::string args = "--variant shortcut/v0 --no-compare --n 512";
  const Shot first = Take("prefix_picture", args + " --step 0");
  ASSERT_TRUE(first.layout.is_object());
  EXPECT_TRUE(HasText(first, "of 1024 blocks")) << "no progress of the whole launch on the first picture";
  EXPECT_TRUE(HasText(first, "16 from DRAM")) << "step 0's marks are not on the first picture";
  EXPECT_TRUE(HasText(first, "for steps 0-")) << "the panel does not say which steps have their marks";
  // Step 900 is past what a cut of an eighth of a thread's accesses makes final (warp 0 issues
  // one step per access): the screenshot waits for the wave's marks, every step's, which the
  // panel no longer qualifies.
  const Shot later = Take("wave_picture", args + " --step 900");
  ASSERT_TRUE(later.layout.is_object());
  EXPECT_FALSE(HasText(later, "for steps 0-"));
  EXPECT_FALSE(HasText(later, "drawn after the block's wave"));
  EXPECT_TRUE(HasText(later, "sectors: ")) << "step 900's caption says nothing of where its sectors came from";
}

TEST(GuiPixels, OutOfRangeInputIsClampedNotFatal) {
  // n far over the simulator's limit and a block outside the grid: the program says so and runs.
  const Shot s = Take("clamped", "--variant transpose/naive --no-compare --n 100000000 --block 999999");
  EXPECT_GT(s.w, 0);
  EXPECT_NE(s.Find("A", "grid", "in"), nullptr);
}

}  // namespace
}  // namespace ws::visual
