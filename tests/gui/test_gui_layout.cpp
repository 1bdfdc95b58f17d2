// Lecture-hall layout rules, measured from --layout-out on every family's default pair (its first
// two variants, from the catalog) at 1280x720 and 1920x1080, UI scales 1 and 2, in the normal
// layout and in presenter mode: every text's line box is a share of the window's height (1.5 %,
// the step's headline 3 %; presenter mode 3 % and 5 %), no text is clipped or outside the window,
// no two text items overlap, no window hides content it has no scrollbar for, every cell the step
// touches is in view with its 128-byte lines whole, the cells meet the size targets, cells never
// shrink as the scale grows, the bank view draws every lane of its tallest stack, presenter mode
// draws only what the step touches, and the L1 cache tab draws each pane's L1 inside the window,
// the sets the step touches in slots of at least 16 px.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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
  bool present;
  std::string Name() const {
    std::ostringstream s;
    s << w << "x" << h << "@" << scale << (present ? "+present" : "");
    return s.str();
  }
};
const Config kConfigs[] = {{1280, 720, 1, false}, {1280, 720, 2, false}, {1920, 1080, 1, false}, {1920, 1080, 2, false},
                           {1280, 720, 1, true},  {1280, 720, 2, true},  {1920, 1080, 1, true},  {1920, 1080, 2, true}};

// The cell-size targets of issue 7 (px) for a step whose footprint fits at them: 1280x720 scale 1.
// (At 1920x1080 the UI draws at 1.5 times the scale, and a footprint as tall as a warp's column
// takes the pane's height: its cells are what fits, which EveryCellTheStepTouchesIsInView checks.)
float CellTarget(const Config& c) { return c.w == 1280 && c.scale == 1 && !c.present ? 10 : 0; }

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
    // chart's tab and with the L1 cache's (named "FAMILY+chart", "FAMILY+l1"), and the L1 cache's
    // at a whole block's third step, a read by 8 warps of 16 lines each ("FAMILY+l1block").
    // And the transpose lesson's tile read (its third step, "transpose+tile"), where a 32-way conflict
    // meets the padded tile; and pairs v1 beside v3 at v1's atomic (step 64, "pairs+atomic", at
    // 1280x720 scale 1 in both modes), which by role stands beside v3's atomic; and pairs v2 beside
    // v2_diagonal at their first read of the tile _b ("pairs+broadcast"): one word read by all 32
    // lanes beside 32 words in 32 banks.
    std::vector<std::pair<const kernels::FamilyEntry*, std::string>> runs;
    for (const auto& f : kernels::Catalog()) {
      runs.push_back({&f, ""}), runs.push_back({&f, "last"});
      if (f.info.name == "transpose") runs.push_back({&f, "tile"});
      if (f.info.name == "pairs") runs.push_back({&f, "atomic"}), runs.push_back({&f, "broadcast"});
    }
    if (!kernels::Catalog().empty()) {
      runs.push_back({&kernels::Catalog().front(), "chart"});
      runs.push_back({&kernels::Catalog().front(), "l1"});
      runs.push_back({&kernels::Catalog().front(), "l1block"});
    }
    for (const auto& [fp, side] : runs) {
      const auto& f = *fp;
      const auto& vs = f.info.variants;
      if (vs.empty()) continue;
      const std::string a = f.info.name + "/" + vs[0].name;
      std::string pair = vs.size() > 1 ? "--variant " + a + " --compare " + f.info.name + "/" + vs[1].name
                                       : "--variant " + a + " --no-compare";
      if (side == "tile") pair = "--variant transpose/shared --compare transpose/shared_padded --step 2";
      else if (side == "atomic") pair = "--variant pairs/v1 --compare pairs/v3 --step 64";
      else if (side == "broadcast") pair = "--variant pairs/v2 --compare pairs/v2_diagonal --step 2";
      else if (side == "last") pair += " --step 1000000";  // clamped to the last step
      else if (side == "l1block") pair += " --side l1 --whole-block --step 2";
      else if (!side.empty()) pair += " --side " + side;
      for (const Config& c : kConfigs) {
        if (c.present && (side == "chart" || side.rfind("l1", 0) == 0)) continue;  // presenter mode has no side panel
        if (side == "atomic" && (c.w != 1280 || c.scale != 1)) continue;
        Shot s;
        s.family = f.info.name + (side.empty() ? "" : "+" + side);
        s.config = c;
        const std::string base = dir + "/" + s.family + "_" + std::to_string(c.w) + "_" + std::to_string(int(c.scale * 10)) +
                                 (c.present ? "_present" : "");
        std::ostringstream cmd;
        cmd << WARPSCOPE_BINARY << " gui --no-settings --size " << c.w << "x" << c.h << " --scale " << c.scale << " " << pair
            << (c.present ? " --present" : "") << " --screenshot " << base << ".png --layout-out " << base << ".json --quit > "
            << base << ".log 2>&1";
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

// Every check must hold in every configuration: what failed (key "family config" -> details).
void Judge(const std::string& check, const std::map<std::string, std::string>& failed) {
  for (const auto& [key, details] : failed) ADD_FAILURE() << check << " " << key << ": " << details;
  std::printf("%s: %zu configurations fail\n", check.c_str(), failed.size());
}

std::string Key(const Shot& s) { return s.family + " " + s.config.Name(); }

Rect RectOf(const nlohmann::json& r) { return {r[0].get<float>(), r[1].get<float>(), r[2].get<float>(), r[3].get<float>()}; }

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
      // Scrolled content: cut only on axes its window, or a window it is in, has a scrollbar for
      // (a pane that scrolls its arrays into sight cuts the label above them).
      bool scrolls_x = false, scrolls_y = false;
      const std::string window = t["window"].get<std::string>();
      for (const auto& w : s.layout["windows"]) {
        const std::string name = w["name"].get<std::string>();
        if (window.compare(0, name.size(), name) != 0 || (window.size() > name.size() && window[name.size()] != '/')) continue;
        scrolls_x = scrolls_x || w.value("scrollbar_x", false);
        scrolls_y = scrolls_y || w.value("scrollbar_y", false);
      }
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
    if (!s.layout.is_object()) continue;
    for (const auto& cur : s.layout["current"]) {
      const nlohmann::json* grid = nullptr;
      for (const auto& p : s.layout["placed"])
        if (p["kind"] == "grid" && p["pane"] == cur["pane"] && p["name"] == cur["array"]) grid = &p;
      std::ostringstream d;
      if (!grid) {
        d << cur["pane"].get<std::string>() << " " << cur["array"].get<std::string>() << ": no grid drawn";
      } else {
        // The target holds for footprints of at most 16 rows: a step down a column (32 rows, with
        // its 32 lines whole a 32x32 block) needs 320 px at 10 px a cell, more than a 720-line
        // window's pane has under its title, badge, lanes and banks; every cell in view wins there.
        // (A and B share one plan for an array of one name: the taller footprint of the two counts.)
        bool tall = false;
        for (const auto& p : s.layout["placed"]) {
          if (p["kind"] != "grid" || p["name"] != cur["array"] || !p.contains("touched_lines")) continue;
          const auto& t = p["touched_lines"];
          tall = tall || t[2].get<uint64_t>() - t[0].get<uint64_t>() + 1 > 16;
        }
        const float target = tall ? 0 : CellTarget(s.config), cell = CellSize(*grid);
        if (cell >= target) continue;
        d << cur["pane"].get<std::string>() << " " << cur["array"].get<std::string>() << ": " << cell << " px < " << target;
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

// Every cell the step touches is in view, and every 128-byte line it touches in a global array is
// whole: a region of an array too large to draw whole holds the whole footprint of the step (a
// warp's 32 consecutive floats are one row of 32 cells), not a part of it cut by the slot's edge.
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
      // The cells, and in a global array the 128-byte lines they fall in, whole.
      const auto& t = p.contains("touched_lines") ? p["touched_lines"] : p["touched"];
      const uint64_t r0 = t[0].get<uint64_t>(), c0 = t[1].get<uint64_t>(), r1 = t[2].get<uint64_t>(), c1 = t[3].get<uint64_t>();
      if (r0 >= row0 && r1 < row0 + rows && c0 >= col0 && c1 < col0 + cols) continue;
      std::ostringstream d;
      d << p["pane"].get<std::string>() << " " << p["name"].get<std::string>() << ": touched (lines whole) rows " << r0 << "-" << r1
        << ", cols " << c0 << "-" << c1 << "; in view rows " << row0 << "-" << row0 + rows - 1 << ", cols " << col0 << "-"
        << col0 + cols - 1 << " (" << cell << " px cells)";
      auto& all = failed[Key(s)];
      all += (all.empty() ? "" : "; ") + d.str();
    }
  }
  Judge("touched_in_view", failed);
}

// The L1 cache tab ("FAMILY+l1" and "FAMILY+l1block" shots, steps that read global memory):
// wherever the side panel is shown (700 px of width per unit of the scale drawn at, which is the
// window's height over 720 times --scale), every pane with a memory view has its L1's overview
// and the sets its step touches drawn, inside the window, the sets' slots at least 16 px tall
// (issue 24: a hall reads them at 1280x720 and 1920x1080).
TEST(LayoutRules, L1ViewShowsEachPanesCacheInsideTheWindow) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    const bool l1 = s.family.find("+l1") != std::string::npos;
    if (!s.layout.is_object() || !l1 || float(s.config.w) < 700.0f * s.layout["scale"].get<float>()) continue;
    std::set<std::string> panes;
    for (const auto& p : s.layout["placed"])
      if (p["kind"] == "grid") panes.insert(p["pane"].get<std::string>());
    for (const auto& pane : panes) {
      for (const std::string kind : {"l1", "l1_sets"}) {
        const nlohmann::json* view = nullptr;
        for (const auto& p : s.layout["placed"])
          if (p["kind"] == kind && p["pane"] == pane) view = &p;
        std::ostringstream d;
        const float least = kind == "l1_sets" ? 16.0f : 0.0f;
        if (!view) {
          d << pane << ": no " << kind << " drawn";
        } else {
          const Rect r = RectOf((*view)["rect"]);
          const float cell = (*view)["cell"].get<float>();
          if (cell <= 0 || cell < least || r.x < 0 || r.y < 0 || r.x + r.w > float(s.config.w) + 0.5f || r.y + r.h > float(s.config.h) + 0.5f)
            d << pane << ": " << kind << " at " << r.x << "," << r.y << " size " << r.w << "x" << r.h << ", cells " << cell << " px";
          else
            continue;
        }
        auto& all = failed[Key(s)];
        all += (all.empty() ? "" : "; ") + d.str();
      }
    }
  }
  Judge("l1_view", failed);
}

// An array of the same name has the same cell size and rectangle in A and B, and an array cut to a
// region has its overview (formerly gui_pixels' DefaultPairsDrawLegibleCellsAlikeInAAndB).
TEST(LayoutRules, ArraysOfOneNameAreDrawnAlikeInAAndB) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    std::ostringstream d;
    for (const auto& p : s.layout["placed"]) {
      if (p["kind"] != "grid") continue;
      const Rect r = RectOf(p["rect"]);
      const float cell = CellSize(p);
      const bool cut = r.w + 0.5f < cell * p["cols"].get<float>() || r.h + 0.5f < cell * p["rows"].get<float>();
      bool overview = false;
      for (const auto& o : s.layout["placed"])
        overview = overview || (o["kind"] == "overview" && o["pane"] == p["pane"] && o["name"] == p["name"]);
      if (cut && !overview) d << p["pane"].get<std::string>() << " " << p["name"].get<std::string>() << ": cut without an overview; ";
      if (p["pane"] != "A") continue;
      for (const auto& o : s.layout["placed"]) {
        if (o["kind"] != "grid" || o["pane"] != "B" || o["name"] != p["name"]) continue;
        // (Arrays of one name but different shapes, as a padded tile, share the cell size.)
        const Rect q = RectOf(o["rect"]);
        const bool same_shape = o["rows"] == p["rows"] && o["cols"] == p["cols"];
        if (std::abs(CellSize(o) - cell) > 0.01f || (same_shape && (std::abs(q.w - r.w) > 0.5f || std::abs(q.h - r.h) > 0.5f)))
          d << p["name"].get<std::string>() << ": A " << r.w << "x" << r.h << " at " << cell << " px, B " << q.w << "x" << q.h
            << " at " << CellSize(o) << " px; ";
      }
    }
    if (!d.str().empty()) failed[Key(s)] = d.str();
  }
  Judge("alike_in_a_and_b", failed);
}

// Text grows with the screen: every text's line box (its font's size as drawn) is at least 1.5 %
// of the window's height, 3 % in presenter mode, and the step's headline (the cost badge's first
// line: the text at the badge's top) at least 3 %, 5 % in presenter mode. The shares are the
// issue's (a slide's 18 pt on 540 pt is 3.3 %); at 1280x720 they are 10.8, 21.6 and 36 px.
TEST(LayoutRules, TextGrowsWithTheScreen) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    const float h = float(s.config.h);
    const float text_share = s.config.present ? 0.03f : 0.015f, head_share = s.config.present ? 0.05f : 0.03f;
    std::ostringstream d;
    for (const auto& t : s.layout["text"])
      if (t["line_h"].get<float>() < text_share * h - 0.01f) d << Quote(t) << ": " << t["line_h"].get<float>() << " px; ";
    for (const auto& b : s.layout["placed"]) {
      if (b["kind"] != "badge") continue;
      const Rect r = RectOf(b["rect"]);
      const nlohmann::json* head = nullptr;  // the topmost text inside the badge
      for (const auto& t : s.layout["text"]) {
        const Rect q = RectOf(t["rect"]);
        if (q.x >= r.x - 0.5f && q.y >= r.y - 0.5f && q.x + q.w <= r.x + r.w + 0.5f && q.y + q.h <= r.y + r.h + 0.5f &&
            (!head || q.y < RectOf((*head)["rect"]).y))
          head = &t;
      }
      if (!head) d << b["pane"].get<std::string>() << ": no headline in the badge; ";
      else if ((*head)["line_h"].get<float>() < head_share * h - 0.01f)
        d << "headline " << Quote(*head) << ": " << (*head)["line_h"].get<float>() << " px < " << head_share * h << "; ";
    }
    if (!d.str().empty()) failed[Key(s)] = d.str();
  }
  Judge("text_share", failed);
}

// The bank view draws every lane of its tallest stack and all 32 banks, inside the pane's view,
// never a "+N more": at the transpose tile's read ("transpose+tile") A's 32 lanes read one column
// of the 32x32 tile, 32 words all in bank 0 (32 marks), and B's padded tile spreads them over the
// 32 banks, one mark each. At pairs' first read of the tile ("pairs+broadcast") v2's 32 lanes read
// _b[0]: one stack of 32 marks in bank 0, marked free; v2_diagonal's read _b[(32 + l) % 32], one
// word in each bank.
TEST(LayoutRules, TheBankViewDrawsEveryLaneOfItsTallestStack) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    std::ostringstream d;
    for (const auto& p : s.layout["placed"]) {
      if (p["kind"] == "banks_more") d << "a summary row \"" << p["name"].get<std::string>() << "\"; ";
      if (p["kind"] != "banks") continue;
      const Rect r = RectOf(p["rect"]);
      if (p["cols"].get<int>() != 32) d << p["pane"].get<std::string>() << ": " << p["cols"].get<int>() << " banks; ";
      const float stack_bottom = r.y + p["header_h"].get<float>() + p["slot_h"].get<float>() * p["rows"].get<float>();
      // Inside the window, or in a pane that scrolls to it (a 720-line window at scale 2).
      bool scrolls = false;
      for (const auto& w : s.layout["windows"]) {
        const std::string name = w["name"].get<std::string>();
        const Rect wr = RectOf(w["rect"]);
        if (name.find("/pane_") != std::string::npos && r.x >= wr.x && r.x < wr.x + wr.w && w.value("scrollbar_y", false))
          scrolls = true;
      }
      if (p["slot_h"].get<float>() < 2.0f || (stack_bottom > float(s.config.h) + 0.5f && !scrolls) ||
          r.x + r.w > float(s.config.w) + 0.5f)
        d << p["pane"].get<std::string>() << ": stack of " << p["rows"].get<int>() << " at " << p["slot_h"].get<float>()
          << " px ends at " << stack_bottom << "; ";
      if (s.family == "transpose+tile" || s.family == "pairs+broadcast") {
        const int want = p["pane"] == "A" ? 32 : 1;
        if (p["rows"].get<int>() != want) d << p["pane"].get<std::string>() << ": " << p["rows"].get<int>() << " marks, not " << want << "; ";
      }
      // A broadcast is a stack like a conflict's, marked free: the word "free" under A's bank
      // header, inside the bank view (v2's 32 lanes read _b[0], bank 0).
      // (Where the pane scrolls the bank view below its visible part, nothing there is drawn.)
      bool below_fold = false;
      for (const auto& w : s.layout["windows"]) {
        const Rect wr = RectOf(w["rect"]), c = RectOf(w["clip"]);
        if (w["name"].get<std::string>().find("/pane_") != std::string::npos && r.x >= wr.x && r.x < wr.x + wr.w &&
            w.value("scrollbar_y", false) && r.y + p["header_h"].get<float>() > c.y + c.h)
          below_fold = true;
      }
      if (s.family == "pairs+broadcast" && p["pane"] == "A" && !below_fold) {
        bool free = false;
        for (const auto& t : s.layout["text"]) {
          const Rect q = RectOf(t["rect"]);
          free = free || (t["text"] == "free" && q.x >= r.x - 0.5f && q.x + q.w <= r.x + r.w + 0.5f && q.y >= r.y - 0.5f);
        }
        if (!free) d << "A: the broadcast's stack is not marked \"free\"; ";
      }
    }
    if (!d.str().empty()) failed[Key(s)] = d.str();
  }
  Judge("bank_stack", failed);
}

// Presenter mode gives the room to what the step touches: an array neither pane's step touches is
// a label (no grid, no overview), and every array a step touches is a grid.
TEST(LayoutRules, PresenterModeDrawsOnlyWhatTheStepTouches) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object() || !s.config.present) continue;
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
  }
  Judge("presenter_untouched", failed);
}

// Presenter mode leaves no empty band: in each pane, the tallest stretch of its height that none of
// its drawn items (cells, labels, lanes, banks, badge) nor its text reaches is at most kBandShare of
// the pane. pairs v2 beside v2_diagonal at the broadcast ("pairs+broadcast", 1280x720) left 259 of
// B's 605 px (43 %) under the banks, beside which _b's one row of 32 cells was 10 px: the banks go
// beside the arrays only for a tile of many rows, and B's band is then 170 px (28 %), its one row
// of bank marks under _b at 18 px: all that B's step draws. (A band is still left where the
// touched array is as wide as the pane and whole: pairs' b, 8x32 at 18 px, leaves 27 % of A's pane
// at 1280x720; rows of half a line would cut the line the warp reads.)
constexpr float kBandShare = 0.30f;  // at most 28 % is left on the shots now (pairs at 1280x720: b, 8 rows of 18 px, whole)
TEST(LayoutRules, PresenterModeLeavesNoEmptyBand) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object() || !s.config.present) continue;
    std::ostringstream d;
    for (const auto& w : s.layout["windows"]) {
      const std::string name = w["name"].get<std::string>();
      const size_t at = name.rfind("/pane_");
      if (at == std::string::npos || name.find('/', at + 1) != std::string::npos) continue;  // a pane, not a child of one
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
  }
  Judge("presenter_band", failed);
}

// The frame's text with every run of spaces and line breaks made one space (wrapped lines).
std::string FrameText(const Shot& s) {
  std::string all;
  for (const auto& t : s.layout["text"]) {
    for (char c : t["text"].get<std::string>()) {
      const bool space = c == ' ' || c == '\n';
      if (!(space && (all.empty() || all.back() == ' '))) all += space ? ' ' : c;
    }
    all += ' ';
  }
  return all;
}

// Step numbers are the same in every mode: a family's pair at one window size and scale stands at
// the same steps in the normal layout and in presenter mode, and says each focused step the same
// way, from 0 ("step 2 (0-3)": the timeline's slider, presenter mode's status line).
TEST(LayoutRules, StepNumbersAreTheSameInEveryMode) {
  std::map<std::string, std::string> failed;
  std::map<std::string, const Shot*> normal;
  for (const auto& s : Shots())
    if (s.layout.is_object() && !s.config.present) normal[s.family + " " + Config{s.config.w, s.config.h, s.config.scale, false}.Name()] = &s;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object()) continue;
    std::ostringstream d;
    const std::string text = FrameText(s);
    for (const auto& p : s.layout["panes"]) {
      const std::string label = p["label"].get<std::string>();
      const int step = p["step"].get<int>(), steps = p["steps"].get<int>();
      // The label, worked out here: counted from 0, the range of the warp's steps.
      const std::string want = steps ? "step " + std::to_string(step) + " (0\xe2\x80\x93" + std::to_string(steps - 1) + ")" : "no steps";
      if (label != want) d << p["pane"].get<std::string>() << " says \"" << label << "\", not \"" << want << "\"; ";
      if (p["pane"] == s.layout["focus"] && text.find(label) == std::string::npos)
        d << "\"" << label << "\" is not on screen; ";
    }
    if (s.config.present) {
      const auto n = normal.find(s.family + " " + Config{s.config.w, s.config.h, s.config.scale, false}.Name());
      if (n != normal.end() && n->second->layout["panes"] != s.layout["panes"])
        d << "presenter " << s.layout["panes"].dump() << " vs normal " << n->second->layout["panes"].dump() << "; ";
    }
    if (!d.str().empty()) failed[Key(s)] = d.str();
  }
  Judge("step_numbers", failed);
}

// Pairs that mean something: with two panes the follow mode is recorded and said on screen; where
// the rule chose "by role" the two panes' steps have the same role (the same operation, space and
// array name); and pairs v1 at its atomic (step 64: 32 loads each of a and b, then the atomicAdd,
// a reduction) has v3's atomic beside it (step 66: v3 first copies b into the tile, 2 steps).
TEST(LayoutRules, BFollowsAByRoleWhereTheRolesMatch) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object() || s.layout["panes"].size() != 2) continue;
    std::ostringstream d;
    const auto& f = s.layout["follow"];
    const auto& a = s.layout["panes"][0];
    const auto& b = s.layout["panes"][1];
    const std::string mode = f["mode"].get<std::string>(), words = f["words"].get<std::string>();
    const std::string why = f["why"].get<std::string>();
    const std::map<std::string, std::string> said = {{"roles match", "B follows A by role"},
                                                     {"same steps", "B follows A in lockstep: same steps"},
                                                     {"roles differ", "B follows A in lockstep: roles differ"}};
    if (!said.count(why)) d << "mode " << mode << " not by the rule (" << why << "); ";
    else if (words != said.at(why) || (mode == "role") != (why == "roles match")) d << mode << " says \"" << words << "\"; ";
    if (mode == "role" && a["role"] != b["role"]) d << "A " << a["role"] << " beside B " << b["role"] << "; ";
    // The status line says all of the sentence; the timeline's button as much of it as fits
    // ("B: in lockstep" at the least).
    const std::string text = FrameText(s);
    const std::string least = mode == "role" ? "role" : mode == "lockstep" ? "lockstep" : "alone";
    if (text.find(s.config.present ? words : least) == std::string::npos) d << "\"" << words << "\" is not on screen; ";
    if (s.family == "pairs+atomic" &&
        (mode != "role" || a["step"] != 64 || b["step"] != 66 || a["role"] != "red.global ans" || b["role"] != "red.global ans"))
      d << "A " << a.dump() << ", B " << b.dump() << "; ";
    if (!d.str().empty()) failed[Key(s)] = d.str();
  }
  Judge("follow_by_role", failed);
}

// A shared tile the step touches is drawn whole, not a region of it: transpose's 32x32 tile (33x32
// padded) at its column read and pairs' 32-float _b, every cell in view from (0, 0).
TEST(LayoutRules, TheSharedTileTheStepTouchesIsWhole) {
  std::map<std::string, std::string> failed;
  for (const auto& s : Shots()) {
    if (!s.layout.is_object() || (s.family != "transpose+tile" && s.family != "pairs+broadcast")) continue;
    const std::string tile = s.family == "transpose+tile" ? "tile" : "_b";
    std::ostringstream d;
    for (const std::string pane : {"A", "B"}) {
      const nlohmann::json* g = nullptr;
      for (const auto& p : s.layout["placed"])
        if (p["kind"] == "grid" && p["pane"] == pane && p["name"] == tile) g = &p;
      if (!g) {
        d << pane << ": no grid of " << tile << "; ";
        continue;
      }
      const Rect r = RectOf((*g)["rect"]);
      const float cell = CellSize(*g);
      const uint64_t rows = (*g)["rows"].get<uint64_t>(), cols = (*g)["cols"].get<uint64_t>();
      const uint64_t want_rows = tile == "_b" ? 1 : pane == "A" ? 32 : 33;
      // (At the least cell, 4 px, the room is too small for the footprint: the pane scrolls.)
      if (cell > 4.0f && (rows != want_rows || cols != 32 || (*g)["row0"] != 0 || (*g)["col0"] != 0 ||
                          r.h + 0.5f < cell * float(rows) || r.w + 0.5f < cell * float(cols)))
        d << pane << " " << tile << ": " << rows << "x" << cols << " from (" << (*g)["row0"] << ", " << (*g)["col0"] << "), "
          << r.w << "x" << r.h << " px at " << cell << " px; ";
    }
    if (!d.str().empty()) failed[Key(s)] = d.str();
  }
  Judge("tile_whole", failed);
}

}  // namespace
}  // namespace ws::visual
