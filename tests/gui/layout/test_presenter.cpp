// Layout rules of presenter mode (gui_layout): it draws only what the step touches, and leaves
// no empty band in a pane.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "layout_shots.h"

namespace ws::visual::layout_shots {
namespace {

// Presenter mode gives the room to what the step touches: an array neither pane's step touches is
// a label (no grid, no overview), and every array a step touches is a grid.
TEST(LayoutRules, PresenterModeDrawsOnlyWhatTheStepTouches) {
  JudgeEveryLayout("presenter_untouched", [](const Shot& s, Failures& failed) {
    if (!s.config.present) return;
    std::set<std::string> current;
    for (const auto& c : s.layout["current"]) current.insert(c["array"].get<std::string>());
    std::ostringstream d;
    for (const auto& p : s.layout["placed"]) {
      const std::string name = p["name"].get<std::string>();
      if ((p["kind"] == "grid" || p["kind"] == "overview") && !current.count(name) && !p.contains("touched"))
        d << p["pane"].get<std::string>() << " " << name << ": a " << p["kind"].get<std::string>() << " the step does not touch; ";
      if (p["kind"] == "label" && current.count(name)) d << p["pane"].get<std::string>() << " " << name << ": a label, yet touched; ";
    }
    if (!d.str().empty()) failed[Key(s)] = d.str();
  });
}

// At the transpose tile's read ("transpose+tile"), in every mode, the names of the arrays the step
// does not touch (in, out) sit on the tile's label line, the line right above its cells, or in the
// column at the right of its cells where the tile's label goes there (a tile whose rows the
// height limits), never on a line of their own: at 1280x720 scale 2 they took a 40 px line and a
// 16 px gap above the tile, whose 33 rows then got 4 px cells.
TEST(LayoutRules, UntouchedNamesShareTheTilesLabelLine) {
  JudgeEveryLayout("untouched_on_tile_line", [](const Shot& s, Failures& failed) {
    if (s.family != "transpose+tile") return;
    std::ostringstream d;
    for (const auto& g : s.layout["placed"]) {
      if (g["kind"] != "grid" || g["name"] != "tile") continue;
      const Rect tile = RectOf(g["rect"]);
      for (const auto& l : s.layout["placed"]) {
        if (l["kind"] != "label" || l["pane"] != g["pane"]) continue;
        const Rect r = RectOf(l["rect"]);
        const bool on_label_line = r.y + r.h <= tile.y + 0.5f && r.y >= tile.y - 1.5f * r.h;
        const bool right_of_cells = r.x >= tile.x + tile.w && r.y >= tile.y - 0.5f && r.y + r.h <= tile.y + tile.h + 0.5f;
        if (!on_label_line && !right_of_cells)
          d << l["pane"].get<std::string>() << " " << l["name"].get<std::string>() << ": label at " << r.y << "-" << r.y + r.h
            << ", the tile's cells from " << tile.y << "; ";
      }
    }
    if (!d.str().empty()) failed[Key(s)] = d.str();
  });
}

// Presenter mode leaves no empty band: in each pane, the tallest stretch of its height that none of
// its drawn items (cells, labels, lanes, banks, badge, source lines) nor its text reaches is at most
// kBandShare of the pane. A picture as wide as the pane (a warp's 32 lanes, pairs' 32-float _b, a
// row of 32 bank marks) is short, and the other pane's taller picture (a 32-mark stack) or taller
// header (a warning) decides the rows the two share: pairs v2 beside v2_diagonal at the broadcast
// left 152 of B's 605 px (25.2 %, 1280x720) under its one row of bank marks, pairs v1 beside v2 at
// step 0 21 % of A's pane under b. The room under the picture now shows the step's source lines
// (visual/source_excerpt.h): 10 % is the most left on the shots (divergence's last step, B at
// 1280x720 scale 2: 51 px, less than a row of source at that scale).
constexpr float kBandShare = 0.12f;
TEST(LayoutRules, PresenterModeLeavesNoEmptyBand) {
  JudgeEveryLayout("presenter_band", [](const Shot& s, Failures& failed) {
    if (!s.config.present) return;
    std::ostringstream d;
    for (const auto& w : s.layout["windows"]) {
      const std::string name = w["name"].get<std::string>();
      if (!IsPane(name)) continue;
      const Rect pane = RectOf(w["rect"]);
      std::vector<std::pair<float, float>> spans;  // the drawn items' extents down the pane
      auto add = [&](const Rect& r) {
        const float cx = r.x + r.w * 0.5f;
        if (cx < pane.x || cx >= pane.x + pane.w || r.y + r.h <= pane.y || r.y >= pane.y + pane.h) return;
        spans.push_back({std::max(r.y, pane.y), std::min(r.y + r.h, pane.y + pane.h)});
      };
      for (const auto& p : s.layout["placed"]) add(RectOf(p["rect"]));
      for (const auto& t : s.layout["text"]) add(RectOf(t["rect"]));
      std::sort(spans.begin(), spans.end());
      float reached = pane.y, band = 0, band_y = pane.y;
      for (const auto& [y0, y1] : spans) {
        if (y0 - reached > band) band = y0 - reached, band_y = reached;
        reached = std::max(reached, y1);
      }
      if (pane.y + pane.h - reached > band) band = pane.y + pane.h - reached, band_y = reached;
      if (band > kBandShare * pane.h)
        d << WindowName(name, w["rect"]) << ": " << band << " of " << pane.h << " px empty from y " << band_y << "; ";
    }
    if (!d.str().empty()) failed[Key(s)] = d.str();
  });
}

}  // namespace
}  // namespace ws::visual::layout_shots
