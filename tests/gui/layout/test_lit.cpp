// Lit together (issue 24): hovering a served-from mark in the memory view outlines its sector there,
// in the L1 slot that holds it and in its L2 line; hovering a slot of either cache view outlines the
// step's sectors of its line in the memory view. Each run holds the pointer (--pointer) where an
// earlier run's --layout-out put the thing to hover, and reads the views' "lit" records.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "layout_shots.h"

namespace ws::visual::layout_shots {
namespace {

// shortcut v0 beside v1 at their first read of d, the cache tab `side`, the pointer at `pointer`
// ("X,Y"; empty: none), at `size` and `scale` (0: the program's own), in presenter mode where `present`: the layout
// written (null where none).
nlohmann::json Shoot(const std::string& name, const std::string& side, const std::string& pointer,
                     const std::string& size = "1920x1080", int scale = 0, bool present = false) {
  const std::string dir = std::string(WARPSCOPE_TEST_OUT) + "/lit";
  std::filesystem::create_directories(dir);
  const std::string base = dir + "/" + name;
  std::filesystem::remove(base + ".json");
  std::ostringstream cmd;
  cmd << WARPSCOPE_BINARY << " gui --no-settings --size " << size << (scale ? " --scale " + std::to_string(scale) : "")
      << (present ? " --present" : "")
      << " --variant shortcut/v0 --compare shortcut/v1 --step 0 --side " << side
      << (pointer.empty() ? "" : " --pointer " + pointer) << " --screenshot " << base << ".png --layout-out " << base
      << ".json --quit > " << base << ".log 2>&1";
  const int rc = std::system(cmd.str().c_str());
  std::ifstream in(base + ".json");
  nlohmann::json j = rc == 0 && in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
  if (!j.is_object()) ADD_FAILURE() << "no layout from: " << cmd.str();
  return j;
}

// The "lit" records of pane `pane` named `name` ("d": the memory view's array; "L1", "L2": a cache view).
std::vector<Rect> LitIn(const nlohmann::json& layout, const std::string& name, const std::string& pane = "A") {
  std::vector<Rect> out;
  if (!layout.is_object()) return out;
  for (const auto& p : layout["placed"])
    if (p["kind"] == "lit" && p["pane"] == pane && p["name"] == name) out.push_back(RectOf(p["rect"]));
  return out;
}

std::string At(float x, float y) { return std::to_string(int(x)) + "," + std::to_string(int(y)); }

// Where the pointer is over pane `pane`'s first served-from mark of d in `plain` (a layout without
// the pointer): the first reads of d (v0's 16 lines, v1's 2) come from DRAM, so every sector read
// has its mark, a bar along the bottom of its cells. Empty where d has no touched cells.
std::string OverFirstMark(const nlohmann::json& plain, const std::string& pane) {
  const nlohmann::json* grid = GridOf(plain, pane, "d");
  if (!grid || !grid->contains("touched")) return "";
  const Rect g = RectOf((*grid)["rect"]);
  const float cell = CellSize(*grid);
  const auto& t = (*grid)["touched"];
  return At(g.x + (float(t[1].get<uint64_t>() - (*grid)["col0"].get<uint64_t>()) + 0.5f) * cell,
            g.y + (float(t[0].get<uint64_t>() - (*grid)["row0"].get<uint64_t>()) + 0.75f) * cell);
}

bool Overlap(const Rect& a, const Rect& b) { return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h; }

TEST(LitTogether, AServedFromMarkLightsItsSlotAndAHoveredSlotLightsItsMarks) {
  for (const std::string side : {"l1", "l2"}) {
    const std::string cache = side == "l1" ? "L1" : "L2";
    SCOPED_TRACE(side);
    // Without the pointer nothing is lit. A's first touched cell of d is over a mark: v0's first
    // read of d comes from DRAM (its 16 lines arrive), so every sector it reads has its mark.
    const nlohmann::json plain = Shoot("plain_" + side, side, "");
    ASSERT_TRUE(plain.is_object());
    EXPECT_TRUE(LitIn(plain, "d").empty() && LitIn(plain, cache).empty());
    const nlohmann::json* grid = GridOf(plain, "A", "d");
    ASSERT_TRUE(grid && grid->contains("touched"));
    const Rect g = RectOf((*grid)["rect"]);
    const float cell = CellSize(*grid);
    const auto& t = (*grid)["touched"];
    const float x = g.x + (float(t[1].get<uint64_t>() - (*grid)["col0"].get<uint64_t>()) + 0.5f) * cell;
    const float y = g.y + (float(t[0].get<uint64_t>() - (*grid)["row0"].get<uint64_t>()) + 0.75f) * cell;  // over its mark

    // The mark hovered: its sector outlined in the memory view (its first cell on the pointer's
    // row) and in the cache view's slot or line.
    const nlohmann::json mark = Shoot("mark_" + side, side, At(x, y));
    const std::vector<Rect> in_grid = LitIn(mark, "d"), in_cache = LitIn(mark, cache);
    ASSERT_EQ(in_grid.size(), 1u) << "the hovered mark's sector, outlined in the memory view";
    EXPECT_LE(in_grid[0].y, y);
    EXPECT_GT(in_grid[0].y + in_grid[0].h, y);
    ASSERT_EQ(in_cache.size(), 1u) << "the hovered mark's sector, outlined in the " << cache << " view";

    // The slot (or line) hovered where the mark lit it: the step's sectors of its line outlined in
    // the memory view (a line of d that v0's first read brought: at least that sector), and in the
    // cache view itself.
    const Rect s = in_cache[0];
    const nlohmann::json slot = Shoot("slot_" + side, side, At(s.CenterX(), s.CenterY()));
    EXPECT_GE(LitIn(slot, "d").size(), 1u) << "a hovered " << cache << " slot lights its line's marks in the memory view";
    EXPECT_GE(LitIn(slot, cache).size(), 1u);
  }
}

// A mark's tooltip (A's first, then B's) keeps off the cache view wholly, at both window sizes and
// scales, beside the side panel and in the column (scale 2, presenter mode). Where it opened at the
// pointer and ran right and down (Dear ImGui's place) it covered the cache view: at scale 2 its
// 1756 px of lines ran across the column.
TEST(LitTogether, AMarksTooltipLeavesTheLitSlotAndTheCacheViewInSight) {
  struct Case {
    std::string size;
    int scale;
    bool present;
    std::string side;
  };
  std::vector<Case> cases;
  for (const std::string size : {"1280x720", "1920x1080"})
    for (int scale : {1, 2})
      for (bool present : {false, true}) cases.push_back({size, scale, present, "l1"});
  cases.push_back({"1280x720", 2, false, "l2"});
  cases.push_back({"1920x1080", 1, true, "l2"});
  for (const Case& c : cases) {
    const std::string name = c.side + "_" + c.size + "_" + std::to_string(c.scale) + (c.present ? "_present" : "");
    SCOPED_TRACE(name);
    const std::string cache = c.side == "l1" ? "L1" : "L2";
    const nlohmann::json plain = Shoot("tip_plain_" + name, c.side, "", c.size, c.scale, c.present);
    ASSERT_TRUE(plain.is_object());
    // The cache view's lines whole: its note read "the step's sets, …" in the column at scale 2.
    for (const auto& t : plain["text"])
      if (t["window"].get<std::string>().find(c.side + "##view") != std::string::npos)
        EXPECT_EQ(t["text"].get<std::string>().find("\xe2\x80\xa6"), std::string::npos) << "cut: " << t["text"];
    for (const std::string pane : {"A", "B"}) {
      SCOPED_TRACE("pointer on " + pane + "'s mark");
      const std::string pointer = OverFirstMark(plain, pane);
      ASSERT_FALSE(pointer.empty()) << pane << "'s d has touched cells";
      const nlohmann::json mark = Shoot("tip_" + name + "_" + pane, c.side, pointer, c.size, c.scale, c.present);
      ASSERT_TRUE(mark.is_object());
      ASSERT_EQ(LitIn(mark, cache, pane).size(), 1u) << "the hovered mark's slot, lit in the " << cache << " view";
      std::vector<Rect> tips;
      for (const auto& w : mark["windows"])
        if (w["name"].get<std::string>().rfind("##Tooltip", 0) == 0) tips.push_back(RectOf(w["rect"]));
      ASSERT_EQ(tips.size(), 1u) << "the mark's tooltip";
      const Rect tip = tips[0];
      EXPECT_TRUE(tip.x >= 0 && tip.y >= 0 && tip.x + tip.w <= mark["width"].get<float>() && tip.y + tip.h <= mark["height"].get<float>())
          << "the tooltip inside the window: " << tip.x << "," << tip.y << " " << tip.w << "x" << tip.h;
      // The cache view: both panes' sets, overview strips and the lit slot.
      int cache_records = 0;
      for (const auto& p : mark["placed"]) {
        const std::string kind = p["kind"];
        if (kind.rfind(c.side, 0) != 0 && !(kind == "lit" && p["name"] == cache)) continue;
        ++cache_records;
        const Rect r = RectOf(p["rect"]);
        EXPECT_FALSE(Overlap(tip, r)) << "the tooltip " << tip.x << "," << tip.y << " " << tip.w << "x" << tip.h << " covers "
                                      << p["pane"] << "'s " << kind << " " << p["name"] << " at " << r.x << "," << r.y << " " << r.w
                                      << "x" << r.h;
      }
      EXPECT_GE(cache_records, 3) << "A's and B's " << cache << " views and the lit slot";
    }
  }
}

}  // namespace
}  // namespace ws::visual::layout_shots
