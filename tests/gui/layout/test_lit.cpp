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

// shortcut v0 beside v1 at their first read of d, 1920x1080, scale 1, the cache tab `side`, the
// pointer at `pointer` ("X,Y"; empty: none): the layout written (null where none).
nlohmann::json Shoot(const std::string& name, const std::string& side, const std::string& pointer) {
  const std::string dir = std::string(WARPSCOPE_TEST_OUT) + "/lit";
  std::filesystem::create_directories(dir);
  const std::string base = dir + "/" + name;
  std::filesystem::remove(base + ".json");
  std::ostringstream cmd;
  cmd << WARPSCOPE_BINARY << " gui --no-settings --size 1920x1080 --variant shortcut/v0 --compare shortcut/v1 --step 0 --side "
      << side << (pointer.empty() ? "" : " --pointer " + pointer) << " --screenshot " << base << ".png --layout-out " << base
      << ".json --quit > " << base << ".log 2>&1";
  const int rc = std::system(cmd.str().c_str());
  std::ifstream in(base + ".json");
  nlohmann::json j = rc == 0 && in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
  if (!j.is_object()) ADD_FAILURE() << "no layout from: " << cmd.str();
  return j;
}

// The "lit" records of pane A named `name` ("d": the memory view's array; "L1", "L2": a cache view).
std::vector<Rect> LitIn(const nlohmann::json& layout, const std::string& name) {
  std::vector<Rect> out;
  if (!layout.is_object()) return out;
  for (const auto& p : layout["placed"])
    if (p["kind"] == "lit" && p["pane"] == "A" && p["name"] == name) out.push_back(RectOf(p["rect"]));
  return out;
}

std::string At(float x, float y) { return std::to_string(int(x)) + "," + std::to_string(int(y)); }

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

}  // namespace
}  // namespace ws::visual::layout_shots
