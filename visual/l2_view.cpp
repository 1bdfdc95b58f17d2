// L2 view (see l2_view.h): the header as ImGui items; the step's sets and the strip of all sets
// drawn as rectangles (a few sets of 16 ways, never the whole L2's hundreds of thousands of slots).
#include "visual/l2_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "sim/geometry.h"
#include "visual/l1_view.h"
#include "visual/palette.h"
#include "visual/text_fit.h"

namespace ws::visual {
namespace {

ImVec2 V(float x, float y) { return ImVec2(x, y); }

// How long a line takes to slide into its way after a step (s), as in the L1 view.
constexpr double kArriveSeconds = 0.4;

}  // namespace

L2RowsLayout L2Rows(uint32_t sets, uint32_t ways, float label_w, float more_w, float gap, float w, float h, float min_cell,
                    float max_cell) {
  L2RowsLayout out;
  if (sets == 0 || ways == 0 || w <= 0 || h <= 0) return out;
  const float fixed = label_w + gap;  // a row's width before its first way
  // Ways at a cell: each kL1SlotAspect * cell wide and `gap` apart.
  auto ways_at = [&](float cell, float reserve) {
    return uint32_t(std::max(0.0f, std::floor((w - fixed - reserve + gap) / (kL1SlotAspect * cell + gap))));
  };
  const float cell_w = (w - fixed - float(ways - 1) * gap) / (float(ways) * kL1SlotAspect);
  const float cell_h = (h - float(sets - 1) * gap) / float(sets);
  const float cell = std::min({cell_w, cell_h, max_cell});
  if (cell >= min_cell) return {sets, ways, cell};
  // Every set at least min_cell tall: as many as fit, as large as the width lets all ways be.
  const uint32_t rows = std::min(sets, uint32_t(std::max(0.0f, std::floor((h + gap) / (min_cell + gap)))));
  if (rows == 0) return out;
  const float tall = std::min(max_cell, (h - float(rows - 1) * gap) / float(rows));
  if (cell_w >= min_cell) return {rows, ways, std::min(tall, cell_w)};
  // Too narrow for every way at min_cell: the oldest ways are left out (room kept for "+N older").
  uint32_t shown = std::min(ways, ways_at(min_cell, more_w));
  if (shown < std::min(ways, kL2LeastWays)) shown = std::min(ways, ways_at(min_cell, 0.0f));
  if (shown == 0) return out;
  return {rows, shown, min_cell};
}

float L2CacheView::LeastWidth(uint32_t last_set, float scale) {
  const float gap = SlotGap(scale);
  return SetLabelWidth(last_set) + gap + float(kL2LeastWays) * (kL1SlotAspect * LeastSlotHeight() + gap) + 1.0f;
}

// The header and the note, a row of the least slots per set, the strip of all sets.
float L2CacheView::WantedHeight(float scale) const {
  const float lines = above_sets_ > 0 ? above_sets_ : 2.0f * ImGui::GetTextLineHeightWithSpacing();
  const float gap = SlotGap(scale);
  return lines + float(std::max(step_sets_, 1u)) * (LeastSlotHeight() + gap) + std::round(std::max(8.0f * scale, 0.6f * ImGui::GetTextLineHeight())) + 2 * gap + 1.0f;
}

void L2CacheView::Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed, LitSectors lit) {
  hovered_ = {};
  if (!shown_step.trace) return;
  const sim::Trace& t = *shown_step.trace;
  const auto& c = t.caches;
  ImGui::PushID(shown_step.pane.c_str());
  ImGui::BeginChild("l2##view", ImVec2(0, height), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const size_t count = t.instructions.size();
  auto index_of = [&](const sim::WarpInstruction* ins) {
    return ins && ins >= t.instructions.data() && ins < t.instructions.data() + count ? size_t(ins - t.instructions.data()) : count;
  };
  if (c.device.empty()) {
    ImGui::TextWrapped("%s: the caches are not modelled in this run (--no-caches), so there is no L2 to show.", shown_step.pane.c_str());
  } else if (c.traced_sm < 0 || c.l2_sets == 0 || c.l2_ways == 0 || c.l2_steps.empty()) {
    ImGui::TextWrapped("%s: no block is traced, so no step's L2 lines are known.", shown_step.pane.c_str());
  } else {
    if (shown_step.Focus() != shown_) shown_ = shown_step.Focus(), changed_at_ = ImGui::GetTime();
    // The step's lines (every shown warp's, in whole-block mode) and, per set, the record of the
    // instruction served last (its set as that instruction left it).
    struct StepLine {
      uint8_t hit = 0, dram = 0, merged = 0;
    };
    std::map<uint64_t, StepLine> lines;
    std::map<uint32_t, const sim::Trace::Caches::L2Line*> set_record;
    std::map<uint32_t, uint32_t> set_served;  // the L1 log's length when the set's record was made
    std::map<uint32_t, std::set<uint64_t>> set_evicted;
    bool cut = false;
    for (const auto* ins : shown_step.current) {
      const size_t i = index_of(ins);
      if (i >= c.l2_steps.size()) continue;
      const uint32_t served = i < c.l1_events_until.size() ? c.l1_events_until[i] : 0;
      if (c.l2_lines_truncated && c.l2_steps[i].begin == c.l2_steps[i].end && ins->space == sim::Space::Global) cut = true;
      for (uint32_t k = c.l2_steps[i].begin; k < c.l2_steps[i].end; ++k) {
        const auto& r = c.l2_lines[k];
        auto& l = lines[r.line];
        l.hit |= r.hit, l.dram |= r.dram, l.merged |= r.merged;
        auto it = set_served.find(r.set);
        if (it == set_served.end() || served >= it->second) set_served[r.set] = served, set_record[r.set] = &r;
        if (r.evicted != ~0ull) set_evicted[r.set].insert(r.evicted);
      }
    }
    // The step's sectors with where they were served from (the focused warp's mark first).
    std::map<uint64_t, sim::ServedFrom> step_sectors;
    for (const auto* ins : shown_step.current) {
      sim::ServedSector sectors[sim::kWarpSize];
      const int n = sim::ServedSectors(*ins, sectors);
      for (int i = 0; i < n; ++i) step_sectors.emplace(sectors[i].sector, sectors[i].from);
    }
    std::vector<uint32_t> rows;
    for (const auto& [set, rec] : set_record) rows.push_back(set);
    auto arrived_in = [&](uint32_t set) {
      const auto* r = set_record[set];
      for (uint32_t w = 0; w < c.l2_ways; ++w) {
        const auto& way = c.l2_set_ways[r->ways_first + w];
        if (way.line != ~0ull && lines.count(way.line) && lines[way.line].dram) return true;
      }
      return false;
    };
    // The set holding what another view points at first (so that it is in view), then those DRAM
    // filled a line of.
    auto lit_in = [&](uint32_t set) {
      const auto* r = set_record[set];
      for (uint32_t w = 0; w < c.l2_ways; ++w)
        if (c.l2_set_ways[r->ways_first + w].line == lit.line && lit.sectors) return true;
      return false;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
      return lit_in(a) != lit_in(b) ? lit_in(a) : arrived_in(a) > arrived_in(b);
    });
    step_sets_ = uint32_t(rows.size());
    size_t from_dram = 0, held = 0;
    for (const auto& [line, l] : lines) (l.dram ? from_dram : held) += 1;

    // One line each: what this is, what the step did here, what the marks mean.
    const float avail_w = ImGui::GetContentRegionAvail().x;
    const std::string size = std::to_string(c.l2_bytes >> 20) + " MiB";
    const std::string did = lines.empty() ? "the step sends nothing to L2"
                                          : std::to_string(lines.size()) + (lines.size() == 1 ? " line: " : " lines: ") +
                                                std::to_string(from_dram) + " from DRAM, " + std::to_string(held) + " L2 held";
    const std::string head = FitText({shown_step.pane + ": L2 of the " + c.device + " (" + size + ", every SM's) \xc2\xb7 " + did,
                                      shown_step.pane + ": L2 \xc2\xb7 " + did,
                                      lines.empty() ? shown_step.pane + ": L2"
                                                    : shown_step.pane + ": " + std::to_string(from_dram) + " from DRAM, " +
                                                          std::to_string(held) + " held",
                                      shown_step.pane + ": L2"},
                                     avail_w);
    ImGui::TextUnformatted(head.c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The device's L2: %s on the %s, shared by every SM, %u sets of %u ways, %u-byte lines of %u\n"
                        "sectors of %u bytes. A load's L1 misses look their sectors up here, and every store and atomic\n"
                        "is written here; what L2 does not hold is read from DRAM.\n"
                        "This step: %s.",
                        size.c_str(), c.device.c_str(), c.l2_sets, c.l2_ways, sim::kLineBytes, sim::kSectorsPerLine,
                        sim::kSectorBytes, did.c_str());
    const std::string note = rows.empty() ? (lines.empty() ? "L1 served the whole step" : "")
                                          : "the step's sets, newest way first";
    // (the cache column at scale 2 has room for the rows' order alone)
    const std::string notes =
        FitText({note + " \xc2\xb7 bar: served from \xc2\xb7 yellow: from DRAM", note, rows.empty() ? note : "newest way first"}, avail_w);
    ImGui::TextDisabled("%s", notes.c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "The sets of L2 that the step looked up, one row each, as the step left them: a box per way, the most\n"
          "recently used on the left and the oldest (the next to leave) on the right, split into its %u sectors,\n"
          "filled in the colour of the array the line belongs to where L2 holds the sector. The step's lines are\n"
          "outlined in white, and under each sector the step reads, a bar in the colour of where it was served\n"
          "from (L2, DRAM; as in the memory view). A line DRAM filled for the step is outlined in yellow and slides\n"
          "in; the line it evicted slides out past the oldest way. Every SM's misses share these sets, so most of\n"
          "their lines belong to other blocks. Under the sets, the whole L2 as one strip of its %u sets, the\n"
          "step's marked.",
          sim::kSectorsPerLine, c.l2_sets);
    if (cut) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("The L2 lines of this run's steps were cut short: later steps show none.");
      ImGui::PopTextWrapPos();
    }

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    above_sets_ = origin.y - ImGui::GetWindowPos().y;
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const float side = ImGui::GetTextLineHeight();
    const float gap = SlotGap(scale);
    const float strip_h = std::round(std::max(8.0f * scale, 0.6f * side));
    const float sets_h = std::max(0.0f, room.y - strip_h - 2 * gap);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool window_hovered = ImGui::IsWindowHovered();
    auto in_rect = [&](const Rect& r) { return mouse.x >= r.x && mouse.x < r.x + r.w && mouse.y >= r.y && mouse.y < r.y + r.h; };
    struct Hover {
      uint32_t set = 0, rank = 0;
      uint64_t line = ~0ull;
      uint8_t valid = 0;
      bool any = false;
    } hover;

    // [the step's sets]
    uint32_t max_set = 0;
    for (uint32_t set : rows) max_set = std::max(max_set, set);
    const float label_w = SetLabelWidth(max_set);
    const float more_w = ImGui::CalcTextSize("+88 older").x + gap;
    const float min_cell = LeastSlotHeight(), max_cell = std::max(min_cell, 2.0f * side);
    L2RowsLayout ly = L2Rows(uint32_t(rows.size()), c.l2_ways, label_w, more_w, gap, room.x, sets_h, min_cell, max_cell);
    const float more_h = side;
    if (ly.shown_sets < rows.size())
      ly = L2Rows(uint32_t(rows.size()), c.l2_ways, label_w, more_w, gap, room.x, std::max(0.0f, sets_h - more_h - gap), min_cell, max_cell);
    if (ly.shown_sets > 0) {
      const double since = ImGui::GetTime() - changed_at_;
      const float arrive = float(std::clamp(since / kArriveSeconds, 0.0, 1.0));
      const float slot_w = kL1SlotAspect * ly.cell, sector_w = slot_w / float(sim::kSectorsPerLine);
      const float bar_h = std::max(3.0f, std::round(0.28f * ly.cell));
      const float thick = std::max(1.5f, 1.5f * scale);
      dl->PushClipRect(origin, V(origin.x + room.x, origin.y + sets_h), true);
      for (uint32_t i = 0; i < ly.shown_sets; ++i) {
        const uint32_t set = rows[i];
        const auto* rec = set_record[set];
        const float sy = origin.y + float(i) * (ly.cell + gap);
        const float x0 = origin.x + label_w + gap;
        const std::string label = "set " + std::to_string(set);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddText(V(origin.x + label_w - ts.x, sy + 0.5f * (ly.cell - ts.y)), ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
        for (uint32_t w = 0; w < ly.shown_ways; ++w) {
          const auto& way = c.l2_set_ways[rec->ways_first + w];
          const Rect r{x0 + float(w) * (slot_w + gap), sy, slot_w, ly.cell};
          dl->AddRectFilled(V(r.x, r.y), V(r.x + r.w, r.y + r.h), Pack(kBoxFill));
          if (window_hovered && in_rect(r)) hover = {set, w, way.line, way.valid, true};
          if (way.line == ~0ull) continue;
          const auto step = lines.find(way.line);
          const bool arrived = step != lines.end() && step->second.dram;
          // A line DRAM filled comes in from the set's label, the ways before it making room.
          const float dx = arrived ? -(1 - arrive) * (r.x - x0 + slot_w) : 0.0f;
          const uint8_t alpha_in = uint8_t(arrived ? 80 + 175 * arrive : 255);
          const int ai = ArrayOfLine(t, way.line);
          const Rgb col = ai >= 0 ? ArrayRgb(ai) : kFrame;
          for (int k = 0; k < int(sim::kSectorsPerLine); ++k) {
            const float a = r.x + dx + sector_w * float(k), b = a + sector_w - (k + 1 < int(sim::kSectorsPerLine) ? 1.0f : 0.0f);
            dl->AddRectFilled(V(a, r.y), V(b, r.y + r.h), Pack(col, (way.valid >> k & 1) ? alpha_in : uint8_t(alpha_in / 5)));
            const auto mark = step_sectors.find(way.line * sim::kSectorsPerLine + uint64_t(k));
            if (mark == step_sectors.end() || mark->second == sim::ServedFrom::None || mark->second == sim::ServedFrom::L1) continue;
            dl->AddRectFilled(V(a, r.y + r.h - bar_h), V(b, r.y + r.h), Pack(ServedFromRgb(mark->second)));
            // The sector the memory view or the L1 view points at: lit in its mark's colour.
            if (lit.Has(way.line * sim::kSectorsPerLine + uint64_t(k))) {
              dl->AddRect(V(a - thick, r.y - thick), V(b + thick, r.y + r.h + thick), Pack(ServedFromRgb(mark->second)), 0, 0, 2 * thick);
              if (placed) placed->push_back({shown_step.pane, "lit", "L2", Rect{a, r.y, b - a, r.h}});
            }
          }
          if (step != lines.end())
            dl->AddRect(V(r.x + dx, r.y), V(r.x + dx + r.w, r.y + r.h), Pack(arrived ? kHighlight : kLine), 0, 0, thick);
        }
        // The evicted lines leave past the oldest way shown, fading.
        const float out_x = x0 + float(ly.shown_ways) * (slot_w + gap);
        if (arrive < 1 && set_evicted.count(set)) {
          float ex = out_x + arrive * slot_w;
          for (uint64_t gone : set_evicted[set]) {
            const int ai = ArrayOfLine(t, gone);
            dl->AddRectFilled(V(ex, sy), V(ex + slot_w, sy + ly.cell), Pack(ai >= 0 ? ArrayRgb(ai) : kFrame, uint8_t(200 * (1 - arrive))));
            ex += slot_w + gap;
          }
        }
        // The older lines left out (empty ways are not counted: a set still filling has none).
        uint32_t older_held = 0;
        for (uint32_t w = ly.shown_ways; w < c.l2_ways; ++w) older_held += c.l2_set_ways[rec->ways_first + w].line != ~0ull;
        const std::string older = "+" + std::to_string(older_held) + " older";
        if (older_held > 0 && arrive >= 1 && out_x + ImGui::CalcTextSize(older.c_str()).x <= origin.x + room.x) {
          dl->AddText(V(out_x, sy + 0.5f * (ly.cell - side)), ImGui::GetColorU32(ImGuiCol_TextDisabled), older.c_str());
        }
      }
      dl->PopClipRect();
      if (placed) {
        Placed p{shown_step.pane, "l2_sets", "L2 sets",
                 Rect{origin.x, origin.y, label_w + gap + float(ly.shown_ways) * (slot_w + gap) - gap,
                      float(ly.shown_sets) * (ly.cell + gap) - gap},
                 ly.shown_sets, ly.shown_ways};
        p.cell = ly.cell;
        placed->push_back(p);
      }
    }
    if (ly.shown_sets < rows.size())
      DrawMoreSets(origin.x, origin.y + float(ly.shown_sets) * (ly.cell + gap), rows.size() - ly.shown_sets,
                   "the step looked up (marked below)", room.x);

    // [overview] Every set of the L2 along one strip, the step's sets marked where they fall.
    const Rect strip{origin.x, origin.y + room.y - strip_h, room.x, strip_h};
    if (strip.w > 0 && strip.h > 0) {
      dl->AddRectFilled(V(strip.x, strip.y), V(strip.x + strip.w, strip.y + strip.h), Pack(kBoxFill));
      const float tick = std::max(2.0f * scale, strip.w / float(c.l2_sets));
      for (uint32_t set : rows) {
        const float x = strip.x + (strip.w - tick) * float(set) / float(std::max<uint32_t>(c.l2_sets - 1, 1));
        dl->AddRectFilled(V(x, strip.y), V(x + tick, strip.y + strip.h), Pack(arrived_in(set) ? kHighlight : kLine));
      }
      if (placed) {
        Placed p{shown_step.pane, "l2", "L2", strip, 1, c.l2_sets};
        p.cell = tick;
        placed->push_back(p);
      }
      if (window_hovered && in_rect(strip))
        ImGui::SetTooltip("All %u sets of L2, set 0 on the left: the step's %zu set%s marked (yellow where DRAM filled a line).",
                          c.l2_sets, rows.size(), rows.size() == 1 ? "" : "s");
    }
    ImGui::Dummy(room);

    if (hover.any) {
      if (hover.line == ~0ull) {
        ImGui::SetTooltip("set %u, way %u of %u by use: empty", hover.set, hover.rank + 1, c.l2_ways);
      } else {
        hovered_ = {hover.line, 0xf};
        std::string step;
        if (auto it = lines.find(hover.line); it != lines.end()) {
          const auto& l = it->second;
          auto n = [](uint8_t bits) { return std::to_string(__builtin_popcount(bits)); };
          step = "; the step: ";
          if (l.hit) step += n(l.hit) + " sector(s) L2 held ";
          if (l.dram) step += n(l.dram) + " from DRAM ";
          if (l.merged) step += n(l.merged) + " with another SM's read on its way";
        }
        ImGui::SetTooltip("set %u, way %u of %u by use (1: the most recent): line %llu (%s), %d of 4 sectors held%s", hover.set,
                          hover.rank + 1, c.l2_ways, (unsigned long long)hover.line, LineElements(t, hover.line).c_str(),
                          __builtin_popcount(hover.valid), step.c_str());
      }
    }
  }
  ImGui::EndChild();
  ImGui::PopID();
}

}  // namespace ws::visual
