// Lecture-hall layout rules, measured from --layout-out on every family's default pair (its first
// two variants, from the catalog) at 1280x720 and 1920x1080, UI scales 1, 1.5 and 2: no text is
// clipped or outside the window, no two text items overlap, no window hides content it has no
// scrollbar for, the cells the shown warp touches meet the size targets, cells never shrink
// as the scale grows, and the L1 cache tab draws each pane's L1 inside the window. Checks that
// still fail on main are listed in layout_known_failures.txt; the test fails on any failure not
// listed (a regression) and on any listed one that now passes (so the list only shrinks).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "kernels/catalog.h"
#include "visual/layout.h"

namespace ws::visual {
namespace {

struct Config {
  int w, h;
  float scale;
  std::string Name() const {
    std::ostringstream s;
    s << w << "x" << h << "@" << scale;
    return s.str();
  }
};
const Config kConfigs[] = {{1280, 720, 1}, {1280, 720, 1.5f}, {1280, 720, 2}, {1920, 1080, 1}, {1920, 1080, 1.5f}, {1920, 1080, 2}};

// The cell-size targets of issue 7 (px): 1920x1080 scale 1 and 2, 1280x720 scale 1.
float CellTarget(const Config& c) {
  if (c.w == 1920 && c.scale == 1) return 16;
  if (c.w == 1920 && c.scale == 2) return 24;
  if (c.w == 1280 && c.scale == 1) return 10;
  return 0;
}

struct Shot {
  std::string family, cmd;
  std::string log;  // the run's exit status and output when it produced no layout
  Config config;
  nlohmann::json layout;
};

// Every family's default pair in every configuration, two processes at a time.
const std::vector<Shot>& Shots() {
  static std::vector<Shot> shots = [] {
    std::vector<Shot> out;
    const std::string dir = std::string(WARPSCOPE_TEST_OUT) + "/layout";
    std::filesystem::create_directories(dir);
    // Every family's pair with the side panel's first tab, again at its last step (where results
    // are stored, often by atomics; "FAMILY+last"), and the first family's again with the memory
    // chart's tab and with the L1 cache's (named "FAMILY+chart", "FAMILY+l1").
    std::vector<std::pair<const kernels::FamilyEntry*, std::string>> runs;
    for (const auto& f : kernels::Catalog()) runs.push_back({&f, ""}), runs.push_back({&f, "last"});
    if (!kernels::Catalog().empty()) {
      runs.push_back({&kernels::Catalog().front(), "chart"});
      runs.push_back({&kernels::Catalog().front(), "l1"});
    }
    for (const auto& [fp, side] : runs) {
      const auto& f = *fp;
      const auto& vs = f.info.variants;
      if (vs.empty()) continue;
      const std::string a = f.info.name + "/" + vs[0].name;
      std::string pair = vs.size() > 1 ? "--variant " + a + " --compare " + f.info.name + "/" + vs[1].name
                                       : "--variant " + a + " --no-compare";
      if (side == "last") pair += " --step 1000000";  // clamped to the last step
      else if (!side.empty()) pair += " --side " + side;
      for (const Config& c : kConfigs) {
        Shot s;
        s.family = f.info.name + (side.empty() ? "" : "+" + side);
        s.config = c;
        const std::string base = dir + "/" + s.family + "_" + std::to_string(c.w) + "_" + std::to_string(int(c.scale * 10));
        std::ostringstream cmd;
        cmd << WARPSCOPE_BINARY << " gui --no-settings --size " << c.w << "x" << c.h << " --scale " << c.scale << " " << pair
            << " --screenshot " << base << ".png --layout-out " << base << ".json --quit > " << base << ".log 2>&1";
        s.cmd = cmd.str();
        s.layout = base + ".json";  // the path, until it is read
        out.push_back(s);
      }
    }
    std::mutex m;
    size_t next = 0;
    auto worker = [&] {
      for (;;) {
        size_t i;
        {
          std::lock_guard<std::mutex> l(m);
          if (next == out.size()) return;
          i = next++;
        }
        const std::string path = out[i].layout.get<std::string>();
        std::filesystem::remove(path);
        const int rc = std::system(out[i].cmd.c_str());
        std::ifstream in(path);
        nlohmann::json j = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
        std::lock_guard<std::mutex> l(m);
        out[i].layout = rc == 0 && j.is_object() ? j : nlohmann::json();
        if (!out[i].layout.is_object()) {
          std::ifstream lin(path.substr(0, path.size() - 5) + ".log");
          out[i].log = "exit status " + std::to_string(rc) + ", output:\n" +
                       std::string(std::istreambuf_iterator<char>(lin), std::istreambuf_iterator<char>());
        }
      }
    };
    std::thread t1(worker), t2(worker);
    t1.join(), t2.join();
    return out;
  }();
  return shots;
}

// "check family config" lines of layout_known_failures.txt ('#' starts a comment).
std::set<std::string> Known(const std::string& check) {
  std::set<std::string> known;
  std::ifstream in(WARPSCOPE_LAYOUT_KNOWN);
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    std::istringstream s(line);
    std::string c, family, config;
    if (s >> c >> family >> config && c == check) known.insert(family + " " + config);
  }
  return known;
}

// Compares what failed (key "family config" -> details) with the known failures of `check`.
void Judge(const std::string& check, const std::map<std::string, std::string>& failed) {
  const auto known = Known(check);
  int still = 0;
  for (const auto& [key, details] : failed) {
    if (known.count(key)) {
      ++still;
      std::printf("known failure: %s %s: %s\n", check.c_str(), key.c_str(), details.c_str());
    } else {
      ADD_FAILURE() << "regression: " << check << " " << key << ": " << details;
    }
  }
  for (const auto& key : known)
    if (!failed.count(key))
      ADD_FAILURE() << check << " " << key << " now passes: remove it from tests/gui/layout_known_failures.txt";
  std::printf("%s: %d known failures still failing, %zu listed\n", check.c_str(), still, known.size());
}

std::string Key(const Shot& s) { return s.family + " " + s.config.Name(); }

Rect RectOf(const nlohmann::json& r) { return {r[0].get<float>(), r[1].get<float>(), r[2].get<float>(), r[3].get<float>()}; }

const nlohmann::json* Window(const Shot& s, const std::string& name) {
  for (const auto& w : s.layout["windows"])
    if (w["name"] == name) return &w;
  return nullptr;
}

// "warpscope##root/pane_1A2B3C4D" at (642, 60) -> "pane@642,60".
std::string WindowName(const std::string& full, const nlohmann::json& rect) {
  std::string w = full.substr(full.rfind('/') == std::string::npos ? 0 : full.rfind('/') + 1);
  if (w.size() > 9 && w[w.size() - 9] == '_') w.resize(w.size() - 9);
  w = w.substr(0, w.find("##"));
  return w + "@" + std::to_string(int(rect[0].get<float>())) + "," + std::to_string(int(rect[1].get<float>()));
}

std::string Quote(const nlohmann::json& t) {
  std::string text = t["text"].get<std::string>();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  for (char& c : text)
    if (c == '\n') c = '|';
  return "\"" + text + "\" in " + WindowName(t["window"].get<std::string>(), t["window_rect"]);
}

TEST(LayoutRules, EveryConfigurationProducedALayout) {
  ASSERT_FALSE(Shots().empty());
  for (const auto& s : Shots()) {
    EXPECT_TRUE(s.layout.is_object()) << "no layout from: " << s.cmd << "\n" << s.log;
    if (s.layout.is_object()) {
      EXPECT_FALSE(s.layout["text"].empty()) << "no text found in the frame of " << Key(s);
    }
  }
}

// Text cut by its clip rectangle. Scrolled content is exempt on the axis its window scrolls.
TEST(LayoutRules, NoTextIsClipped) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    for (const auto& t : s.layout["text"]) {
      if (!t["clipped"].get<bool>()) continue;
      const Rect r = RectOf(t["rect"]), c = RectOf(t["clip"]);
      const bool cut_x = r.x < c.x - 0.25f || r.x + r.w > c.x + c.w + 0.25f;
      const bool cut_y = r.y < c.y - 0.25f || r.y + r.h > c.y + c.h + 0.25f;
      // Scrolled content: cut only on axes its window has a scrollbar for.
      const nlohmann::json* w = Window(s, t["window"].get<std::string>());
      const bool scrolls_x = w && w->value("scrollbar_x", false), scrolls_y = w && w->value("scrollbar_y", false);
      if ((cut_x || cut_y) && (!cut_x || scrolls_x) && (!cut_y || scrolls_y)) continue;
      auto& d = failed[Key(s)];
      d += (d.empty() ? "" : "; ") + Quote(t);
    }
  }
  Judge("text_clipped", failed);
}

TEST(LayoutRules, NoTextIsOutsideTheWindow) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    for (const auto& t : s.layout["text"])
      if (t["outside"].get<bool>()) {
        auto& d = failed[Key(s)];
        d += (d.empty() ? "" : "; ") + Quote(t);
      }
  }
  Judge("text_outside", failed);
}

TEST(LayoutRules, NoTwoTextItemsOverlap) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    for (const auto& o : s.layout["text_overlaps"]) {
      auto& d = failed[Key(s)];
      d += (d.empty() ? "" : "; ") + Quote(s.layout["text"][o[0].get<int>()]) + " over " + Quote(s.layout["text"][o[1].get<int>()]);
    }
  }
  Judge("text_overlap", failed);
}

TEST(LayoutRules, NoWindowHidesContentItCannotScrollTo) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    for (const auto& w : s.layout["windows"])
      if (w["overflow"].get<bool>()) {
        const Rect c = RectOf(w["clip"]);
        std::ostringstream d;
        d << WindowName(w["name"].get<std::string>(), w["rect"]) << " (content to " << w["content_right"].get<float>() << ","
          << w["content_bottom"].get<float>() << ", visible to " << c.x + c.w << "," << c.y + c.h << ")";
        auto& all = failed[Key(s)];
        all += (all.empty() ? "" : "; ") + d.str();
      }
  }
  Judge("window_overflow", failed);
}

float CellSize(const nlohmann::json& g) {
  if (g.contains("cell")) return g["cell"].get<float>();  // the memory view's own cell side
  return LayoutGrid(g["rows"].get<uint64_t>(), g["cols"].get<uint64_t>(), RectOf(g["rect"]), g["zoom"].get<float>()).cell;
}

TEST(LayoutRules, TouchedCellsMeetTheSizeTargets) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    const float target = CellTarget(s.config);
    if (!s.layout.is_object() || target == 0) continue;
    for (const auto& cur : s.layout["current"]) {
      const nlohmann::json* grid = nullptr;
      for (const auto& p : s.layout["placed"])
        if (p["kind"] == "grid" && p["pane"] == cur["pane"] && p["name"] == cur["array"]) grid = &p;
      std::ostringstream d;
      if (!grid) {
        d << cur["pane"].get<std::string>() << " " << cur["array"].get<std::string>() << ": no grid drawn";
      } else if (const float cell = CellSize(*grid); cell < target) {
        d << cur["pane"].get<std::string>() << " " << cur["array"].get<std::string>() << ": " << cell << " px < " << target;
      } else {
        continue;
      }
      auto& all = failed[Key(s)];
      all += (all.empty() ? "" : "; ") + d.str();
    }
  }
  Judge("cell_size", failed);
}

// The array the step touches is in sight: the first row of its cells lies inside the visible part
// of its pane (a pane too short for all its views scrolls to it), not below the fold.
TEST(LayoutRules, TheArrayTheStepTouchesIsInSight) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    for (const auto& cur : s.layout["current"]) {
      const nlohmann::json* grid = nullptr;
      for (const auto& p : s.layout["placed"])
        if (p["kind"] == "grid" && p["pane"] == cur["pane"] && p["name"] == cur["array"]) grid = &p;
      if (!grid) continue;  // TouchedCellsMeetTheSizeTargets says so
      const Rect g = RectOf((*grid)["rect"]);
      const float first_row_bottom = g.y + std::min(g.h, CellSize(*grid));
      for (const auto& w : s.layout["windows"]) {
        const std::string name = w["name"].get<std::string>();
        const Rect r = RectOf(w["rect"]), c = RectOf(w["clip"]);
        if (name.rfind("/pane_") == std::string::npos || name.find('/', name.rfind("/pane_") + 1) != std::string::npos ||
            g.x < r.x || g.x >= r.x + r.w)
          continue;
        if (g.y >= c.y - 0.5f && first_row_bottom <= c.y + c.h + 0.5f) continue;
        std::ostringstream d;
        d << cur["pane"].get<std::string>() << " " << cur["array"].get<std::string>() << ": first row " << g.y << "-"
          << first_row_bottom << " outside the visible " << c.y << "-" << c.y + c.h;
        auto& all = failed[Key(s)];
        all += (all.empty() ? "" : "; ") + d.str();
      }
    }
  }
  Judge("array_in_sight", failed);
}

// Every cell the step touches is in view: a region of an array too large to draw whole holds the
// whole footprint of the step (a warp's 32 consecutive floats are one row of 32 cells), not a
// part of it cut by the slot's edge.
TEST(LayoutRules, EveryCellTheStepTouchesIsInView) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    for (const auto& p : s.layout["placed"]) {
      if (p["kind"] != "grid" || !p.contains("touched")) continue;
      const Rect r = RectOf(p["rect"]);
      const float cell = CellSize(p);
      if (cell <= 0) continue;
      const uint64_t rows = uint64_t(r.h / cell + 0.01f), cols = uint64_t(r.w / cell + 0.01f);
      const uint64_t row0 = p["row0"].get<uint64_t>(), col0 = p["col0"].get<uint64_t>();
      const auto& t = p["touched"];
      const uint64_t r0 = t[0].get<uint64_t>(), c0 = t[1].get<uint64_t>(), r1 = t[2].get<uint64_t>(), c1 = t[3].get<uint64_t>();
      if (r0 >= row0 && r1 < row0 + rows && c0 >= col0 && c1 < col0 + cols) continue;
      std::ostringstream d;
      d << p["pane"].get<std::string>() << " " << p["name"].get<std::string>() << ": touched rows " << r0 << "-" << r1
        << ", cols " << c0 << "-" << c1 << "; in view rows " << row0 << "-" << row0 + rows - 1 << ", cols " << col0 << "-"
        << col0 + cols - 1 << " (" << cell << " px cells)";
      auto& all = failed[Key(s)];
      all += (all.empty() ? "" : "; ") + d.str();
    }
  }
  Judge("touched_in_view", failed);
}

// The L1 cache tab ("FAMILY+l1" shots): wherever the side panel is shown (700 px of width per
// unit of scale), every pane with a memory view has its L1's slots drawn, inside the window.
TEST(LayoutRules, L1ViewShowsEachPanesCacheInsideTheWindow) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    const bool l1 = s.family.size() > 3 && s.family.substr(s.family.size() - 3) == "+l1";
    if (!s.layout.is_object() || !l1 || float(s.config.w) < 700.0f * s.config.scale) continue;
    std::set<std::string> panes;
    for (const auto& p : s.layout["placed"])
      if (p["kind"] == "grid") panes.insert(p["pane"].get<std::string>());
    for (const auto& pane : panes) {
      const nlohmann::json* view = nullptr;
      for (const auto& p : s.layout["placed"])
        if (p["kind"] == "l1" && p["pane"] == pane) view = &p;
      std::ostringstream d;
      if (!view) {
        d << pane << ": no L1 drawn";
      } else {
        const Rect r = RectOf((*view)["rect"]);
        if ((*view)["cell"].get<float>() <= 0 || r.x < 0 || r.y < 0 || r.x + r.w > float(s.config.w) + 0.5f ||
            r.y + r.h > float(s.config.h) + 0.5f)
          d << pane << ": L1 at " << r.x << "," << r.y << " size " << r.w << "x" << r.h;
        else
          continue;
      }
      auto& all = failed[Key(s)];
      all += (all.empty() ? "" : "; ") + d.str();
    }
  }
  Judge("l1_view", failed);
}

TEST(LayoutRules, CellsNeverShrinkAsTheScaleGrows) {
  // Per family, resolution, pane and array: the cell at each scale against the next smaller one.
  std::map<std::string, std::string> failed;
  std::map<std::string, std::map<float, float>> cells;  // "family WxH pane array" -> scale -> px
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    for (const auto& p : s.layout["placed"])
      if (p["kind"] == "grid")
        cells[s.family + " " + std::to_string(s.config.w) + "x" + std::to_string(s.config.h) + " " +
              p["pane"].get<std::string>() + " " + p["name"].get<std::string>()][s.config.scale] = CellSize(p);
  }
  for (const auto& [what, by_scale] : cells) {
    float prev = 0, prev_scale = 0;
    for (const auto& [scale, px] : by_scale) {
      if (prev_scale > 0 && px < prev - 0.01f) {
        std::istringstream w(what);
        std::string family, res, pane, array;
        w >> family >> res >> pane >> array;
        std::ostringstream key, d;
        key << family << " " << res << "@" << scale;
        d << pane << " " << array << ": " << px << " px at scale " << scale << " < " << prev << " px at " << prev_scale;
        auto& all = failed[key.str()];
        all += (all.empty() ? "" : "; ") + d.str();
      }
      prev = px, prev_scale = scale;
    }
  }
  Judge("cell_shrinks", failed);
}

}  // namespace
}  // namespace ws::visual
