// Layout rules on cells and tiles (gui_layout): every cell the step touches is in view with its
// 128-byte lines whole and its array in sight, the cells meet the size targets, arrays of one name
// are drawn alike in A and B, a shared tile the step touches is whole, the bank view draws every
// lane of its tallest stack, and the L1 cache tab draws each pane's L1 inside the window, the sets
// the step touches in slots of at least 16 px.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <vector>
#include <sstream>
#include <string>

#include "layout_shots.h"

namespace ws::visual::layout_shots {
namespace {

// The cell-size targets of issue 7 (px) for a step whose footprint fits at them: 1280x720 scale 1.
// (At 1920x1080 the UI draws at 1.5 times the scale, and a footprint as tall as a warp's column
// takes the pane's height: its cells are what fits, which EveryCellTheStepTouchesIsInView checks.)
float CellTarget(const Config& c) { return c.w == 1280 && c.scale == 1 && !c.present ? 10 : 0; }

TEST(LayoutRules, TouchedCellsMeetTheSizeTargets) {
  JudgeEveryLayout("cell_size", [](const Shot& s, Failures& failed) {
    for (const auto& cur : s.layout["current"]) {
      const nlohmann::json* grid = GridOf(s.layout, cur["pane"], cur["array"]);
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
      Fail(failed, s, d.str());
    }
  });
}

// The array the step touches is in sight: the first row of its cells lies inside the visible part
// of its pane (a pane too short for all its views scrolls to it), not below the fold.
TEST(LayoutRules, TheArrayTheStepTouchesIsInSight) {
  JudgeEveryLayout("array_in_sight", [](const Shot& s, Failures& failed) {
    for (const auto& cur : s.layout["current"]) {
      const nlohmann::json* grid = GridOf(s.layout, cur["pane"], cur["array"]);
      if (!grid) continue;  // TouchedCellsMeetTheSizeTargets says so
      const Rect g = RectOf((*grid)["rect"]);
      const float first_row_bottom = g.y + std::min(g.h, CellSize(*grid));
      for (const auto& w : s.layout["windows"]) {
        const std::string name = w["name"].get<std::string>();
        const Rect r = RectOf(w["rect"]), c = RectOf(w["clip"]);
        if (!IsPane(name) || g.x < r.x || g.x >= r.x + r.w)
          continue;
        if (g.y >= c.y - 0.5f && first_row_bottom <= c.y + c.h + 0.5f) continue;
        std::ostringstream d;
        d << cur["pane"].get<std::string>() << " " << cur["array"].get<std::string>() << ": first row " << g.y << "-"
          << first_row_bottom << " outside the visible " << c.y << "-" << c.y + c.h;
        Fail(failed, s, d.str());
      }
    }
  });
}

// Every cell the step touches is in view, and every 128-byte line it touches in a global array is
// whole: a region of an array too large to draw whole holds the whole footprint of the step (a
// warp's 32 consecutive floats are one row of 32 cells), not a part of it cut by the slot's edge.
TEST(LayoutRules, EveryCellTheStepTouchesIsInView) {
  JudgeEveryLayout("touched_in_view", [](const Shot& s, Failures& failed) {
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
      Fail(failed, s, d.str());
    }
  });
}

// The L1 and L2 cache tabs ("FAMILY+l1", "FAMILY+l1block", "FAMILY+l2", "FAMILY+l2block" shots,
// steps that read global memory from DRAM), asked for with --side: in every window, at every scale
// and in presenter mode too (in the side panel where it fits, else in a column of their own), every
// pane with a memory view has its cache's overview and the sets its step touches drawn, inside the
// window, the sets' slots at least 16 px tall (issue 24: a hall reads them at 1280x720 and
// 1920x1080), and at least a text line tall, so that the sets' labels stay apart (16 px at 720
// lines and scale 1, 48 at 1080 lines and scale 2); in the L2's sets at least the 4
// newest ways, where the step's lines are (a line the step looked up becomes its set's most recent).
TEST(LayoutRules, CacheViewsShowEachPanesCacheInsideTheWindow) {
  JudgeEveryLayout("cache_views", [](const Shot& s, Failures& failed) {
    const bool l1 = s.family.find("+l1") != std::string::npos, l2 = s.family.find("+l2") != std::string::npos;
    if (!(l1 || l2)) return;
    std::set<std::string> panes;
    for (const auto& p : s.layout["placed"])
      if (p["kind"] == "grid") panes.insert(p["pane"].get<std::string>());
    for (const auto& pane : panes) {
      for (const std::string kind : l1 ? std::vector<std::string>{"l1", "l1_sets"} : std::vector<std::string>{"l2", "l2_sets"}) {
        const nlohmann::json* view = nullptr;
        for (const auto& p : s.layout["placed"])
          if (p["kind"] == kind && p["pane"] == pane) view = &p;
        std::ostringstream d;
        const bool sets = kind.size() > 2;
        // (the body font is 16 px at scale 1, and a text line as tall as the font)
        const float least = sets ? std::max(16.0f, 16.0f * s.layout["scale"].get<float>()) - 0.01f : 0.0f;
        if (!view) {
          d << pane << ": no " << kind << " drawn";
        } else {
          const Rect r = RectOf((*view)["rect"]);
          const float cell = (*view)["cell"].get<float>();
          const uint64_t cols = (*view)["cols"].get<uint64_t>();
          if (cell <= 0 || cell < least || (kind == "l2_sets" && cols < 4) || r.x < 0 || r.y < 0 ||
              r.x + r.w > float(s.config.w) + 0.5f || r.y + r.h > float(s.config.h) + 0.5f)
            d << pane << ": " << kind << " at " << r.x << "," << r.y << " size " << r.w << "x" << r.h << ", cells " << cell
              << " px, " << cols << " columns";
          else
            continue;
        }
        Fail(failed, s, d.str());
      }
    }
  });
}

// An array of the same name has the same cell size and rectangle in A and B, and an array cut to a
// region has its overview (formerly gui_pixels' DefaultPairsDrawLegibleCellsAlikeInAAndB).
TEST(LayoutRules, ArraysOfOneNameAreDrawnAlikeInAAndB) {
  JudgeEveryLayout("alike_in_a_and_b", [](const Shot& s, Failures& failed) {
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
  });
}

// An array drawn whole has no overview: a miniature of what is already in view takes its label
// line's room (transpose's 32x32 tile at its column read, 1280x720 scale 2: 32 rows at 4 px, the
// whole tile, with a 39 px overview at the end of its label).
TEST(LayoutRules, AnArrayShownWholeHasNoOverview) {
  JudgeEveryLayout("whole_without_overview", [](const Shot& s, Failures& failed) {
    for (const auto& p : s.layout["placed"]) {
      if (p["kind"] != "grid") continue;
      const Rect r = RectOf(p["rect"]);
      const float cell = CellSize(p);
      if (p["row0"] != 0 || p["col0"] != 0 || r.w + 0.5f < cell * p["cols"].get<float>() || r.h + 0.5f < cell * p["rows"].get<float>())
        continue;
      for (const auto& o : s.layout["placed"])
        if (o["kind"] == "overview" && o["pane"] == p["pane"] && o["name"] == p["name"])
          Fail(failed, s, p["pane"].get<std::string>() + " " + p["name"].get<std::string>() + ": whole at " + std::to_string(cell) +
                              " px, with an overview");
    }
  });
}

// The bank view draws every lane of its tallest stack and all 32 banks, inside the pane's view,
// never a "+N more": at the transpose tile's read ("transpose+tile") A's 32 lanes read one column
// of the 32x32 tile, 32 words all in bank 0 (32 marks), and B's padded tile spreads them over the
// 32 banks, one mark each. At pairs' first read of the tile ("pairs+broadcast") v2's 32 lanes read
// _b[0]: one stack of 32 marks in bank 0, marked free; v2_diagonal's read _b[(32 + l) % 32], one
// word in each bank.
TEST(LayoutRules, TheBankViewDrawsEveryLaneOfItsTallestStack) {
  JudgeEveryLayout("bank_stack", [](const Shot& s, Failures& failed) {
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
  });
}

// A shared tile the step touches is drawn whole, not a region of it: transpose's 32x32 tile (33x32
// padded) at its column read and pairs' 32-float _b, every cell in view from (0, 0).
TEST(LayoutRules, TheSharedTileTheStepTouchesIsWhole) {
  JudgeEveryLayout("tile_whole", [](const Shot& s, Failures& failed) {
    if (s.family != "transpose+tile" && s.family != "pairs+broadcast") return;
    const std::string tile = s.family == "transpose+tile" ? "tile" : "_b";
    std::ostringstream d;
    for (const std::string pane : {"A", "B"}) {
      const nlohmann::json* g = GridOf(s.layout, pane, tile);
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
  });
}


// A shared tile of many rows that the step touches (transpose's 32x32 tile, 33x32 padded, at its
// column read) is whole at kTileCell (16) px or more wherever the panes have the room: under each
// pane's lane strip, two lines (the tile's label and the spacing of the views around it) and rows
// x 16 px down to the pane's visible bottom, and across the lane strip's width cols x 16 px beside
// the banks at their least, 4 px a bank (128 px), and a gap of half the views' spacing (4 px at UI
// scale 1). One name, one plan: the room is the smaller of A's and B's, the rows the taller tile's.
// (A tile of a row or two, pairs' _b, goes above the banks, whose 32-mark stack decides its room:
// 870103e.) At 1920x1080 scale 1 the room is exactly 16 px, and the tile was drawn at 15 px in
// both modes: normal mode 646 px across (512 + 6 + 128 with the half gap), presenter mode 528 px
// down for 33 rows.
constexpr float kBankLeast = 32 * 4.0f;
inline float BesideGap(const Shot& s) { return 4.0f * s.layout["scale"].get<float>(); }
TEST(LayoutRules, ASharedTileIsAtLeast16PxWhereThePanesHaveTheRoom) {
  JudgeEveryLayout("tile_16px", [](const Shot& s, Failures& failed) {
    struct Tile {
      uint64_t rows = 0, cols = 0;
      float room_w = 1e9f, room_h = 1e9f, cell = 1e9f;
      std::string panes;
    };
    std::map<std::string, Tile> tiles;
    for (const auto& pane : s.layout["panes"]) {
      const std::string name = pane["pane"].get<std::string>(), role = pane["role"].get<std::string>();
      if (role.find(".shared ") == std::string::npos) continue;
      const std::string tile = role.substr(role.rfind(' ') + 1);
      const nlohmann::json *g = nullptr, *lanes = nullptr;
      for (const auto& p : s.layout["placed"]) {
        if (p["pane"] != name) continue;
        if (p["kind"] == "grid" && p["name"] == tile) g = &p;
        if (p["kind"] == "lanes") lanes = &p;
      }
      if (!g || !lanes || (*g)["rows"].get<uint64_t>() <= 2) continue;  // no grid: TheArrayTheStepTouchesIsInSight says so
      const Rect strip = RectOf((*lanes)["rect"]);
      const nlohmann::json *win = nullptr, *label = nullptr;
      for (const auto& w : s.layout["windows"]) {
        const Rect r = RectOf(w["rect"]);
        if (IsPane(w["name"].get<std::string>()) && strip.x >= r.x && strip.x < r.x + r.w) win = &w;
      }
      for (const auto& t : s.layout["text"]) {
        const Rect r = RectOf(t["rect"]);
        if (t["text"].get<std::string>().rfind(tile + " (shared", 0) == 0 && r.x >= strip.x - 1 && r.x < strip.x + strip.w) label = &t;
      }
      if (!win) continue;
      const Rect c = RectOf((*win)["clip"]);
      const float line = label ? (*label)["line_h"].get<float>() : 0.04f * float(s.config.h);
      Tile& t = tiles[tile];
      t.rows = std::max(t.rows, (*g)["rows"].get<uint64_t>());
      t.cols = std::max(t.cols, (*g)["cols"].get<uint64_t>());
      t.room_h = std::min(t.room_h, c.y + c.h - (strip.y + strip.h) - 2 * line);
      t.room_w = std::min(t.room_w, strip.w - kBankLeast - BesideGap(s));
      t.cell = std::min(t.cell, CellSize(*g));
      t.panes += name;
    }
    for (const auto& [tile, t] : tiles) {
      if (t.room_h < float(t.rows) * kTileCell || t.room_w < float(t.cols) * kTileCell || t.cell >= kTileCell)
        continue;
      std::ostringstream d;
      d << t.panes << " " << tile << " (" << t.rows << "x" << t.cols << ") at " << t.cell << " px, room " << t.room_w << "x"
        << t.room_h << " px holds " << kTileCell << " px";
      Fail(failed, s, d.str());
    }
  });
}


// The normal layout at a shared-memory step plans as the hall does (the arrays the step does not
// touch are their names, a tile of many rows beside the banks), so that at scale 1 a 32-mark stack
// (transpose's 32-way conflict, pairs v2's 32-lane broadcast) has marks of at least 8 px: 8.1 and
// 10.3 px at 1280x720, 12.2 and 15.5 at 1920x1080, where the banks had a third of what in, out
// (or a, b) and the tile left them: marks of 3.1 to 3.8 px.
constexpr float kReadableMark = 8.0f;
TEST(LayoutRules, AtScale1ATallBankStackHasReadableMarks) {
  JudgeEveryLayout("bank_marks", [](const Shot& s, Failures& failed) {
    if (s.config.scale != 1 || s.config.present) return;
    if (s.family != "transpose+tile" && s.family != "pairs+broadcast") return;
    for (const auto& p : s.layout["placed"]) {
      if (p["kind"] != "banks" || p["rows"].get<int>() < 32 || p["slot_h"].get<float>() >= kReadableMark) continue;
      std::ostringstream d;
      d << p["pane"].get<std::string>() << ": " << p["rows"].get<int>() << " marks of " << p["slot_h"].get<float>() << " px";
      Fail(failed, s, d.str());
    }
  });
}

// At the transpose tile's read ("transpose+tile"), A's 32-mark stack beside the tile has marks of
// at least kShortWindowMark px at every size and scale, both modes: the hall's bank header is one
// line (the n-way mark on the bank numbers' line), so that the stack gets the other. At 1280x720
// scale 2 the marks were 3.5 px (3.8 in presenter mode) under a header of two lines.
constexpr float kShortWindowMark = 4.0f;
TEST(LayoutRules, TheTileReadsStackBesideTheTileHasMarksOfAtLeast4Px) {
  JudgeEveryLayout("tile_stack_marks", [](const Shot& s, Failures& failed) {
    if (s.family != "transpose+tile") return;
    for (const auto& p : s.layout["placed"])
      if (p["kind"] == "banks" && p["rows"].get<int>() >= 32 && p["slot_h"].get<float>() < kShortWindowMark)
        Fail(failed, s, p["pane"].get<std::string>() + ": " + std::to_string(p["rows"].get<int>()) + " marks of " +
                            std::to_string(p["slot_h"].get<float>()) + " px");
  });
}

}  // namespace
}  // namespace ws::visual::layout_shots
