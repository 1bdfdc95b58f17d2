// L1 view (see l1_view.h): the header and array swatches as ImGui items; the step's sets and the
// overview drawn as rectangles (the overview at most a few thousand: 256 KiB of 128-byte lines).
#include "visual/l1_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "sim/geometry.h"
#include "sim/rule_text.h"
#include "visual/palette.h"
#include "visual/text_fit.h"

namespace ws::visual {
namespace {

ImVec2 V(float x, float y) { return ImVec2(x, y); }

}  // namespace

int ArrayOfLine(const sim::Trace& t, uint64_t line) {
  const uint64_t addr = line * sim::kLineBytes;
  for (size_t i = 0; i < t.arrays.size(); ++i) {
    const auto& a = t.arrays[i];
    if (a.space == sim::Space::Global && addr + sim::kLineBytes > a.base && addr < a.base + a.count * a.elem_bytes) return int(i);
  }
  return -1;
}

std::string LineElements(const sim::Trace& t, uint64_t line) {
  const int ai = ArrayOfLine(t, line);
  if (ai < 0) return "outside the arrays";
  const auto& a = t.arrays[ai];
  const uint64_t first = line * sim::kLineBytes, last = first + sim::kLineBytes - 1;
  const uint64_t lo = first > a.base ? (first - a.base) / a.elem_bytes : 0;
  const uint64_t hi = std::min<uint64_t>(a.count - 1, (last - a.base) / a.elem_bytes);
  return a.name + "[" + std::to_string(lo) + ".." + std::to_string(hi) + "]";
}

Rgb ServedFromRgb(sim::ServedFrom from) {
  return from == sim::ServedFrom::L1 ? kServedL1 : from == sim::ServedFrom::L2 ? kServedL2 : kServedDram;
}

void DrawMoreSets(float x, float y, size_t rest, const std::string& which, float width) {
  const std::string more = "+" + std::to_string(rest) + (rest == 1 ? " more set" : " more sets");
  const std::string fit = FitText({more + " " + which, more}, width);
  ImGui::GetWindowDrawList()->AddText(V(x, y), Pack(kHighlight), fit.c_str());
}

L1GridLayout L1Grid(uint32_t sets, uint32_t ways, float w, float h) {
  L1GridLayout best;
  if (sets == 0 || ways == 0 || w <= 0 || h <= 0) return best;
  for (uint32_t per_row = 1; per_row <= sets; ++per_row) {
    const uint32_t rows = (sets + per_row - 1) / per_row;
    const float cell = std::min(w / float(per_row * ways), h / float(rows));
    if (cell > best.cell) best = {per_row, rows, per_row * ways, cell};
  }
  return best;
}

L1SetsLayout L1Sets(uint32_t sets, uint32_t ways, float label_w, float gap, float w, float h, float min_cell, float max_cell) {
  L1SetsLayout best;
  if (sets == 0 || ways == 0 || w <= 0 || h <= 0) return best;
  const float fixed = label_w + gap + float(ways - 1) * gap;  // a set's width besides its slots
  auto cell_for_width = [&](uint32_t per_row) {
    return ((w - float(per_row - 1) * 4 * gap) / float(per_row) - fixed) / (float(ways) * kL1SlotAspect);
  };
  auto set_w = [&](float cell) { return fixed + float(ways) * kL1SlotAspect * cell; };
  for (uint32_t per_row = 1; per_row <= sets; ++per_row) {
    const uint32_t rows = (sets + per_row - 1) / per_row;
    const float cell = std::min({cell_for_width(per_row), (h - float(rows - 1) * gap) / float(rows), max_cell});
    if (cell > best.cell) best = {sets, per_row, rows, cell, set_w(cell)};
  }
  if (best.cell >= min_cell) return best;
  // Not all at min_cell: as many as fit at it, row by row.
  const uint32_t per_row = uint32_t(std::max(0.0f, std::floor((w + 4 * gap) / (set_w(min_cell) + 4 * gap))));
  const uint32_t rows = uint32_t(std::max(0.0f, std::floor((h + gap) / (min_cell + gap))));
  if (per_row == 0 || rows == 0) return {};
  const uint32_t shown = std::min(sets, per_row * rows);
  return {shown, per_row, (shown + per_row - 1) / per_row, min_cell, set_w(min_cell)};
}


namespace {
// How long a line takes to slide into its slot after a step (s).
constexpr double kArriveSeconds = 0.4;
}  // namespace

// The slots' gap, a set's label and the least slot height, as Draw takes them.
float SlotGap(float scale) { return std::max(2.0f, std::round(3.0f * scale)); }
float SetLabelWidth(uint32_t last_set) {
  return ImGui::CalcTextSize(("set " + std::string(std::to_string(last_set).size(), '8')).c_str()).x;
}
float LeastSlotHeight() { return std::max(16.0f, ImGui::GetTextLineHeight()); }

float L1CacheView::LeastWidth(uint32_t last_set, uint32_t ways, float scale) {
  const float gap = SlotGap(scale);
  return SetLabelWidth(last_set) + gap + float(ways) * (kL1SlotAspect * LeastSlotHeight() + gap) - gap;
}

// The header, the swatches and the note under them (a line of their own in a narrow view), a row
// of the least slots per set (one set to a row: a narrow view's), the overview a fifth of the room.
float L1CacheView::WantedHeight(float scale) const {
  const float lines = above_sets_ > 0 ? above_sets_ : 3.0f * ImGui::GetTextLineHeightWithSpacing();
  return lines + (float(std::max(step_sets_, 1u)) * (LeastSlotHeight() + SlotGap(scale)) + SlotGap(scale)) / 0.8f + 1.0f;
}

void L1CacheView::Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed, LitSectors lit) {
  hovered_ = {};
  if (!shown_step.trace) return;
  const sim::Trace& t = *shown_step.trace;
  const auto& c = t.caches;
  ImGui::PushID(shown_step.pane.c_str());
  ImGui::BeginChild("l1##view", ImVec2(0, height), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const sim::WarpInstruction* focus = shown_step.Focus();
  const size_t count = t.instructions.size();
  auto index_of = [&](const sim::WarpInstruction* ins) {
    return ins && ins >= t.instructions.data() && ins < t.instructions.data() + count ? size_t(ins - t.instructions.data()) : count;
  };
  if (c.device.empty()) {
    ImGui::TextWrapped("%s: the caches are not modelled in this run (--no-caches), so there is no L1 to show.", shown_step.pane.c_str());
  } else if (c.traced_sm < 0 || c.l1_sets == 0 || c.l1_events_until.empty()) {
    ImGui::TextWrapped("%s: no block is traced, so there is no SM's L1 to show.", shown_step.pane.c_str());
  } else {
    // The state at the step, and what changed since the focused warp's previous step (when that
    // pair of positions changes: stepping, not every frame).
    const bool fresh = state_.Reset(&c);
    // In whole-block mode the step is every warp's instruction: the L1 once the last was served.
    uint32_t now = 0;
    for (const auto* ins : shown_step.current) now = std::max(now, state_.EventsAt(index_of(ins)));
    const uint32_t before = shown_step.trail.empty() ? 0 : state_.EventsAt(index_of(shown_step.trail.front()));
    if (fresh || &c != shown_ || now != shown_now_ || before != shown_before_) {
      state_.Seek(std::min(before, now));
      std::vector<uint64_t> old_lines(state_.Slots());
      std::vector<uint8_t> old_valid(state_.Slots());
      for (uint32_t s = 0; s < state_.Slots(); ++s) old_lines[s] = state_.Line(s), old_valid[s] = state_.Valid(s);
      before_rank_.assign(state_.Slots(), 0);
      for (uint32_t set = 0; c.l1_ways && set < state_.Slots() / c.l1_ways; ++set) {
        const std::vector<uint32_t> order = state_.WaysByRecency(set, c.l1_ways);
        for (uint32_t k = 0; k < c.l1_ways; ++k) before_rank_[set * c.l1_ways + order[k]] = uint8_t(k);
      }
      state_.Seek(now);
      arrived_.assign(state_.Slots(), 0);
      came_.assign(state_.Slots(), 0);
      evicted_.assign(state_.Slots(), L1State::kEmpty);
      for (uint32_t s = 0; s < state_.Slots(); ++s) {
        arrived_[s] = state_.Line(s) != L1State::kEmpty && (state_.Line(s) != old_lines[s] || state_.Valid(s) != old_valid[s]);
        came_[s] = state_.Line(s) != L1State::kEmpty && state_.Line(s) != old_lines[s];
        if (state_.Line(s) != old_lines[s]) evicted_[s] = old_lines[s];
      }
      shown_ = &c, shown_now_ = now, shown_before_ = before;
      changed_at_ = ImGui::GetTime();
    }
    // The sectors the step touches with where they were served from (the focused warp's mark
    // first, in whole-block mode), and their lines.
    std::map<uint64_t, sim::ServedFrom> step_sectors;
    std::set<uint64_t> step_lines;
    for (const auto* ins : shown_step.current) {
      sim::ServedSector sectors[sim::kWarpSize];
      const int n = sim::ServedSectors(*ins, sectors);
      for (int i = 0; i < n; ++i) step_sectors.emplace(sectors[i].sector, sectors[i].from), step_lines.insert(sectors[i].sector / 4);
    }
    const uint32_t slots = state_.Slots();
    const uint32_t held = state_.Held();
    // The step's sets (those holding a line it touches), sets with an arrival first, and the
    // step's lines this L1 does not hold.
    std::vector<uint32_t> step_sets;
    std::vector<uint8_t> set_has_arrival(c.l1_sets, 0), set_is_step(c.l1_sets, 0);
    size_t lines_held = 0;
    for (uint32_t s = 0; s < slots; ++s) {
      if (state_.Line(s) == L1State::kEmpty || !step_lines.count(state_.Line(s))) continue;
      ++lines_held;
      const uint32_t set = s / c.l1_ways;
      if (!set_is_step[set]) set_is_step[set] = 1, step_sets.push_back(set);
      if (arrived_[s]) set_has_arrival[set] = 1;
    }
    // The set holding what another view points at first (so that it is in view), then sets with an arrival.
    std::vector<uint8_t> set_is_lit(c.l1_sets, 0);
    for (uint32_t s = 0; lit.sectors && s < slots; ++s)
      if (state_.Line(s) == lit.line) set_is_lit[s / c.l1_ways] = 1;
    std::stable_sort(step_sets.begin(), step_sets.end(), [&](uint32_t a, uint32_t b) {
      if (set_is_lit[a] != set_is_lit[b]) return set_is_lit[a] > set_is_lit[b];
      return set_has_arrival[a] != set_has_arrival[b] ? set_has_arrival[a] > set_has_arrival[b] : a < b;
    });
    const size_t lines_not_held = step_lines.size() - lines_held;
    step_sets_ = uint32_t(step_sets.size());

    // One line each: what this is, the arrays' colours, what the marks mean (the longest
    // wording that fits; the whole in the tooltips).
    const float avail_w = ImGui::GetContentRegionAvail().x;
    const std::string sm = std::to_string(c.traced_sm), block = std::to_string(focus ? focus->block : 0u);
    const std::string lines = std::to_string(held) + " of " + std::to_string(slots) + " lines held";
    const std::string head = FitText({shown_step.pane + ": L1 of SM " + sm + " (block " + block + ") \xc2\xb7 " + lines,
                                      shown_step.pane + ": SM " + sm + " \xc2\xb7 " + lines,
                                      shown_step.pane + ": " + std::to_string(held) + "/" + std::to_string(slots) + " lines"},
                                     avail_w);
    ImGui::TextUnformatted(head.c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The L1 of SM %s, which runs block %s: %u KiB on the %s (what the launch's shared memory\n"
                        "leaves of the SM's unified L1 and shared memory), %u sets of %u ways, %u-byte lines of\n"
                        "four %u-byte sectors; %s. Every warp on the SM shares it.",
                        sm.c_str(), block.c_str(), c.l1_bytes / 1024, c.device.c_str(), c.l1_sets, c.l1_ways,
                        sim::kLineBytes, sim::kSectorBytes, lines.c_str());
    static_assert(sim::kSectorsPerLine == 4, "the tooltip above says four sectors");
    if (c.l1_events_truncated && now >= c.l1_events.size()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("The log of this L1 ends here: later steps show it as it was then.");
      ImGui::PopTextWrapPos();
    }
    // The arrays in the L1, by colour.
    std::vector<int> shown_arrays;
    std::vector<int> slot_array(slots, -1);
    for (uint32_t s = 0; s < slots; ++s) {
      if (state_.Line(s) == L1State::kEmpty) continue;
      slot_array[s] = ArrayOfLine(t, state_.Line(s));
      if (slot_array[s] >= 0 && std::find(shown_arrays.begin(), shown_arrays.end(), slot_array[s]) == shown_arrays.end())
        shown_arrays.push_back(slot_array[s]);
    }
    std::sort(shown_arrays.begin(), shown_arrays.end());
    const float side = ImGui::GetTextLineHeight();
    const ImGuiStyle& style = ImGui::GetStyle();
    float x = 0;
    for (int ai : shown_arrays) {
      const float room = avail_w - x - (x > 0 ? style.ItemSpacing.x : 0.0f) - side - style.ItemInnerSpacing.x;
      const std::string name = FitText({t.arrays[ai].name}, room);
      const float w = side + style.ItemInnerSpacing.x + ImGui::CalcTextSize(name.c_str()).x;
      if (x > 0 && !name.empty()) ImGui::SameLine();
      if (name.empty() && x > 0) break;  // no room for more names on the line: the tooltip of a slot names its array
      const ImVec2 p = ImGui::GetCursorScreenPos();
      ImGui::GetWindowDrawList()->AddRectFilled(p, V(p.x + side, p.y + side), Pack(ArrayRgb(ai)));
      ImGui::Dummy(ImVec2(side, side));
      ImGui::SameLine(0, style.ItemInnerSpacing.x);
      ImGui::TextUnformatted(name.c_str());
      x += (x > 0 ? style.ItemSpacing.x : 0.0f) + w;
    }
    // What the sets show, and what they leave out.
    std::string note = step_sets.empty() ? "the step touches no line held here" : "the step's sets, newest way first";
    if (lines_not_held > 0) note += " \xc2\xb7 " + std::to_string(lines_not_held) + (lines_not_held == 1 ? " line" : " lines") + " not held";
    // Beside the swatches, the first wording that fits whole there (the sets keep the height: the
    // cache column at scale 2 has room beside "d" for "newest way first" alone); where none does
    // (beside two arrays' swatches there), none: a line under them would cost a row of sets. With no
    // swatches, or no sets to show, under them, wrapped where it is wider than the view.
    std::vector<std::string> wordings = {note + " \xc2\xb7 bar: served from \xc2\xb7 yellow: arrived", note};
    if (!step_sets.empty()) wordings.insert(wordings.end(), {"newest way first", "newest first"});
    const float beside = avail_w - x - style.ItemSpacing.x;
    std::string notes;
    for (const std::string& w : wordings)
      if (x > 0 && notes.empty() && ImGui::CalcTextSize(w.c_str()).x <= FitWidth(beside)) notes = w;
    bool shown = true;
    if (!notes.empty()) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s", notes.c_str());
    } else if (x == 0 || step_sets.empty()) {
      for (const std::string& w : wordings)
        if (notes.empty() && ImGui::CalcTextSize(w.c_str()).x <= FitWidth(avail_w)) notes = w;
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%s", notes.empty() ? note.c_str() : notes.c_str());
      ImGui::PopTextWrapPos();
    } else {
      shown = false;
    }
    if (shown && ImGui::IsItemHovered()) {
      const std::string tip =
          "Large: the sets holding a line the step touches (sets where a line arrived first), one row each: a box\n"
          "per way, the most recently used on the left and the oldest (the next to leave) on the right, split into\n"
          "its " + std::to_string(sim::kSectorsPerLine) + " sectors of " + std::to_string(sim::kSectorBytes) +
          " bytes, filled where the sector is held, in its array's colour.\n"
          "The line the step touches is outlined in white; under each sector it reads, a bar in the colour of\n"
          "where it was served from (L1 hit, L2, DRAM, as in the memory view). A line that arrived or gained\n"
          "sectors since the warp's previous step is outlined in yellow; a new line slides in from the set's label,\n"
          "the others move to their places by use, and the line it evicted leaves from the oldest way.\n"
          "Hover a slot to light the step's sectors of its line in the memory view and the L2 tab.\n"
          "Small: the whole L1, a dot per slot, the step's sets outlined.\n"
          "Loads allocate lines here; " + sim::StoreAllocationRule() + ";\n" + sim::AtomicRule() + ".";
      ImGui::SetTooltip("%s", tip.c_str());
    }

    // The room left: the step's sets above, the overview below (a fifth of it, at least a few dots tall).
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    above_sets_ = origin.y - ImGui::GetWindowPos().y;
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const float gap = SlotGap(scale);
    const float overview_h = step_sets.empty() ? room.y : std::max(8.0f * scale, std::floor(0.2f * room.y));
    const float sets_h = std::max(0.0f, room.y - overview_h - gap);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool window_hovered = ImGui::IsWindowHovered();
    int64_t hovered_slot = -1;
    auto in_rect = [&](const Rect& r) { return mouse.x >= r.x && mouse.x < r.x + r.w && mouse.y >= r.y && mouse.y < r.y + r.h; };

    // [the step's sets]
    uint32_t max_set = 0;
    for (uint32_t set : step_sets) max_set = std::max(max_set, set);
    const float label_w = SetLabelWidth(max_set);
    // At least 16 px, and as tall as a line of text, so that the sets' labels stay apart.
    const float min_cell = LeastSlotHeight(), max_cell = std::max(min_cell, 2.0f * side);
    L1SetsLayout sl = L1Sets(uint32_t(step_sets.size()), c.l1_ways, label_w, gap, room.x, sets_h, min_cell, max_cell);
    const float more_h = ImGui::GetTextLineHeight();  // a line under the sets saying how many more there are
    if (sl.shown < step_sets.size())
      sl = L1Sets(uint32_t(step_sets.size()), c.l1_ways, label_w, gap, room.x, std::max(0.0f, sets_h - more_h - gap), min_cell, max_cell);
    if (sl.shown > 0) {
      const double since = ImGui::GetTime() - changed_at_;
      const float arrive = float(std::clamp(since / kArriveSeconds, 0.0, 1.0));
      const float slot_w = kL1SlotAspect * sl.cell, sector_w = slot_w / 4;
      const float bar_h = std::max(3.0f, std::round(0.28f * sl.cell));
      const float thick = std::max(1.5f, 1.5f * scale);
      dl->PushClipRect(origin, V(origin.x + room.x, origin.y + sets_h), true);
      for (uint32_t i = 0; i < sl.shown; ++i) {
        const uint32_t set = step_sets[i];
        const float sx = origin.x + float(i % sl.per_row) * (sl.set_w + 4 * gap);
        const float sy = origin.y + float(i / sl.per_row) * (sl.cell + gap);
        const std::string label = "set " + std::to_string(set);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddText(V(sx + label_w - ts.x, sy + 0.5f * (sl.cell - ts.y)), ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
        // The ways by use, the most recent first: a line keeps its colour as it moves to its new place.
        const std::vector<uint32_t> order = state_.WaysByRecency(set, c.l1_ways);
        const float x0 = sx + label_w + gap;
        auto way_x = [&](float rank) { return x0 + rank * (slot_w + gap); };
        for (uint32_t rank = 0; rank < c.l1_ways; ++rank)
          dl->AddRectFilled(V(way_x(float(rank)), sy), V(way_x(float(rank)) + slot_w, sy + sl.cell), Pack(kBoxFill));
        const float leaving_x = way_x(float(c.l1_ways - 1)) + arrive * 0.5f * slot_w;  // evicted lines leave from the oldest way
        for (uint32_t rank = 0; rank < c.l1_ways; ++rank) {
          const uint32_t s = set * c.l1_ways + order[rank];
          const Rect home{way_x(float(rank)), sy, slot_w, sl.cell};
          if (window_hovered && in_rect(home)) hovered_slot = s;
          if (evicted_[s] != L1State::kEmpty && arrive < 1) {
            const int ai = ArrayOfLine(t, evicted_[s]);
            dl->AddRectFilled(V(leaving_x, sy), V(leaving_x + slot_w, sy + sl.cell), Pack(ai >= 0 ? ArrayRgb(ai) : kFrame, uint8_t(200 * (1 - arrive))));
          }
          if (state_.Line(s) == L1State::kEmpty) continue;
          const uint64_t line = state_.Line(s);
          // A new line comes in from the set's label; a line that was here moves from its old place.
          const bool came = came_.size() == slots && came_[s];
          const float from_x = came ? x0 - slot_w : before_rank_.size() == slots ? way_x(float(before_rank_[s])) : home.x;
          const Rect r{from_x + (home.x - from_x) * arrive, sy, slot_w, sl.cell};
          const uint8_t alpha_in = uint8_t(came ? 80 + 175 * arrive : 255);
          const Rgb col = slot_array[s] >= 0 ? ArrayRgb(slot_array[s]) : kFrame;
          const uint8_t v = state_.Valid(s);
          for (int k = 0; k < 4; ++k) {
            const float a = r.x + sector_w * float(k), b = a + sector_w - (k < 3 ? 1.0f : 0.0f);
            dl->AddRectFilled(V(a, r.y), V(b, r.y + r.h), Pack(col, (v >> k & 1) ? alpha_in : uint8_t(alpha_in / 5)));
            const auto mark = step_sectors.find(line * 4 + uint64_t(k));
            if (mark == step_sectors.end() || mark->second == sim::ServedFrom::None) continue;
            dl->AddRectFilled(V(a, r.y + r.h - bar_h), V(b, r.y + r.h), Pack(ServedFromRgb(mark->second)));
            // The sector another view points at: lit in its mark's colour.
            if (lit.Has(line * 4 + uint64_t(k))) {
              dl->AddRect(V(a - thick, r.y - thick), V(b + thick, r.y + r.h + thick), Pack(ServedFromRgb(mark->second)), 0, 0, 2 * thick);
              if (placed) placed->push_back({shown_step.pane, "lit", "L1", Rect{a, r.y, b - a, r.h}});
            }
          }
          if (arrived_[s] || step_lines.count(line))
            dl->AddRect(V(r.x, r.y), V(r.x + r.w, r.y + r.h), Pack(arrived_[s] ? kHighlight : kLine), 0, 0, thick);
        }
      }
      dl->PopClipRect();
      if (placed) {
        Placed p{shown_step.pane, "l1_sets", "L1 sets",
                 Rect{origin.x, origin.y, float(std::min<uint32_t>(sl.per_row, sl.shown)) * (sl.set_w + 4 * gap) - 4 * gap,
                      float(sl.rows) * (sl.cell + gap) - gap},
                 sl.rows, uint64_t(std::min<uint32_t>(sl.per_row, sl.shown)) * c.l1_ways};
        p.cell = sl.cell;
        placed->push_back(p);
      }
    }
    if (sl.shown < step_sets.size())
      DrawMoreSets(origin.x, origin.y + float(sl.rows) * (sl.cell + gap), step_sets.size() - sl.shown,
                   "the step touches (outlined below)", room.x);

    // [overview] The whole L1, a dot per slot, the step's sets outlined.
    const float oy = origin.y + room.y - overview_h;
    const L1GridLayout g = L1Grid(c.l1_sets, c.l1_ways, room.x, overview_h);
    if (g.cell > 0) {
      const float w = g.cell * float(g.cols), h = g.cell * float(g.rows);
      dl->AddRectFilled(V(origin.x, oy), V(origin.x + w, oy + h), Pack(kBoxFill));
      const float inset = g.cell >= 6 ? 0.5f * std::max(1.0f, std::round(scale)) : 0.0f;
      auto set_rect = [&](uint32_t set) {
        return Rect{origin.x + float((set % g.sets_per_row) * c.l1_ways) * g.cell, oy + float(set / g.sets_per_row) * g.cell,
                    g.cell * float(c.l1_ways), g.cell};
      };
      for (uint32_t s = 0; s < slots; ++s) {
        if (state_.Line(s) == L1State::kEmpty) continue;
        const Rect sr = set_rect(s / c.l1_ways);
        const Rect r{sr.x + float(s % c.l1_ways) * g.cell + inset, sr.y + inset, g.cell - 2 * inset, g.cell - 2 * inset};
        const Rgb col = slot_array[s] >= 0 ? ArrayRgb(slot_array[s]) : kFrame;
        dl->AddRectFilled(V(r.x, r.y), V(r.x + r.w, r.y + r.h), Pack(col, state_.Valid(s) == 0xf ? 255 : 120));
      }
      const float ring = std::max(1.0f, std::round(scale));
      for (uint32_t set : step_sets) {
        const Rect r = set_rect(set);
        dl->AddRect(V(r.x - ring, r.y - ring), V(r.x + r.w + ring, r.y + r.h + ring), Pack(set_has_arrival[set] ? kHighlight : kLine), 0, 0, ring);
      }
      if (placed) {
        Placed p{shown_step.pane, "l1", "L1", Rect{origin.x, oy, w, h}, g.rows, g.cols};
        p.cell = g.cell;
        placed->push_back(p);
      }
      if (window_hovered && in_rect(Rect{origin.x, oy, w, h})) {
        const uint32_t col = uint32_t((mouse.x - origin.x) / g.cell), row = uint32_t((mouse.y - oy) / g.cell);
        const uint32_t set = row * g.sets_per_row + col / c.l1_ways;
        if (col < g.cols && set < c.l1_sets) hovered_slot = set * c.l1_ways + col % c.l1_ways;
      }
    }
    ImGui::Dummy(room);

    if (hovered_slot >= 0) {
      const uint32_t s = uint32_t(hovered_slot), set = s / c.l1_ways, way = s % c.l1_ways;
      const uint64_t line = state_.Line(s);
      if (line != L1State::kEmpty) hovered_ = {line, 0xf};
      if (line == L1State::kEmpty) {
        ImGui::SetTooltip("set %u, way %u: empty", set, way);
      } else {
        const std::string what = LineElements(t, line);
        ImGui::SetTooltip("set %u, way %u: line %llu (%s), %d of 4 sectors held%s%s", set, way, (unsigned long long)line,
                          what.c_str(), __builtin_popcount(state_.Valid(s)), step_lines.count(line) ? "; the step touches it" : "",
                          arrived_[s] ? "; arrived since the warp's last step" : "");
      }
    }
  }
  ImGui::EndChild();
  ImGui::PopID();
}

}  // namespace ws::visual
