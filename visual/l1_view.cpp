// L1 view (see l1_view.h): the header and array swatches as ImGui items, the slots drawn as
// rectangles (at most a few thousand: 256 KiB of 128-byte lines).
#include "visual/l1_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "sim/rule_text.h"
#include "visual/palette.h"
#include "visual/text_fit.h"

namespace ws::visual {
namespace {

ImVec2 V(float x, float y) { return ImVec2(x, y); }

// The global array a line belongs to (its first byte), -1 if none.
int ArrayOfLine(const sim::Trace& t, uint64_t line) {
  const uint64_t addr = line * 128;
  for (size_t i = 0; i < t.arrays.size(); ++i) {
    const auto& a = t.arrays[i];
    if (a.space == sim::Space::Global && addr + 128 > a.base && addr < a.base + a.count * a.elem_bytes) return int(i);
  }
  return -1;
}

}  // namespace

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

void L1CacheView::Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed) {
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
      state_.Seek(now);
      arrived_.assign(state_.Slots(), 0);
      for (uint32_t s = 0; s < state_.Slots(); ++s)
        arrived_[s] = state_.Line(s) != L1State::kEmpty && (state_.Line(s) != old_lines[s] || state_.Valid(s) != old_valid[s]);
      shown_ = &c, shown_now_ = now, shown_before_ = before;
    }
    // The lines the step touches (every warp of it in whole-block mode).
    std::set<uint64_t> step_lines;
    for (const auto* ins : shown_step.current) {
      sim::ServedSector sectors[sim::kWarpSize];
      const int n = sim::ServedSectors(*ins, sectors);
      for (int i = 0; i < n; ++i) step_lines.insert(sectors[i].sector / 4);
    }
    const uint32_t slots = state_.Slots();
    const uint32_t held = state_.Held();
    // One line each: what this is, the arrays' colours, what the outlines mean (the longest
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
                        "leaves of the SM's unified L1 and shared memory), %u sets of %u ways, 128-byte lines of\n"
                        "four 32-byte sectors; %s. Every warp on the SM shares it.",
                        sm.c_str(), block.c_str(), c.l1_bytes / 1024, c.device.c_str(), c.l1_sets, c.l1_ways, lines.c_str());
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
    const std::string outlines = FitText({"white: lines the step touches \xc2\xb7 yellow: arrived since the warp's last step",
                                          "white: the step's lines \xc2\xb7 yellow: just arrived", "white: step \xc2\xb7 yellow: new"},
                                         avail_w);
    ImGui::TextDisabled("%s", outlines.c_str());
    if (ImGui::IsItemHovered()) {
      const std::string tip =
          "Each box is one line slot of the L1 (a way of a set), split into its four 32-byte sectors:\n"
          "filled where the sector is held, in its array's colour. Outlined in white: lines the step\n"
          "touches; in yellow: lines that arrived or gained sectors since the warp's previous step.\n"
          "Loads allocate lines here; " + sim::StoreAllocationRule() + ";\n" + sim::AtomicRule() + ".";
      ImGui::SetTooltip("%s", tip.c_str());
    }

    // The slots.
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const L1GridLayout g = L1Grid(c.l1_sets, c.l1_ways, room.x, room.y);
    if (g.cell > 0) {
      ImDrawList* dl = ImGui::GetWindowDrawList();
      const float w = g.cell * float(g.cols), h = g.cell * float(g.rows);
      dl->AddRectFilled(origin, V(origin.x + w, origin.y + h), Pack(kBoxFill));
      const float inset = g.cell >= 6 ? 0.5f * std::max(1.0f, std::round(scale)) : 0.0f;
      auto slot_rect = [&](uint32_t s) {
        const uint32_t set = s / c.l1_ways, way = s % c.l1_ways;
        const float sx = origin.x + float((set % g.sets_per_row) * c.l1_ways + way) * g.cell;
        const float sy = origin.y + float(set / g.sets_per_row) * g.cell;
        return Rect{sx + inset, sy + inset, g.cell - 2 * inset, g.cell - 2 * inset};
      };
      for (uint32_t s = 0; s < slots; ++s) {
        if (state_.Line(s) == L1State::kEmpty) continue;
        const Rect r = slot_rect(s);
        const Rgb col = slot_array[s] >= 0 ? ArrayRgb(slot_array[s]) : kFrame;
        const uint8_t v = state_.Valid(s);
        if (v == 0xf) {
          dl->AddRectFilled(V(r.x, r.y), V(r.x + r.w, r.y + r.h), Pack(col));
        } else {
          const float q = r.w / 4;
          for (int k = 0; k < 4; ++k)
            dl->AddRectFilled(V(r.x + q * float(k), r.y), V(r.x + q * float(k + 1), r.y + r.h), Pack(col, (v >> k & 1) ? 255 : 60));
        }
      }
      // Outlines thin enough to leave the fill visible in small boxes; a line that just arrived
      // is yellow even when the step touches it (those are the step's misses).
      const float thick = std::min(std::max(1.5f, 1.5f * scale), std::max(1.0f, 0.2f * g.cell));
      for (uint32_t s = 0; s < slots; ++s) {
        const bool mine = state_.Line(s) != L1State::kEmpty && step_lines.count(state_.Line(s));
        if (!mine && !arrived_[s]) continue;
        const Rect r = slot_rect(s);
        dl->AddRect(V(r.x, r.y), V(r.x + r.w, r.y + r.h), Pack(arrived_[s] ? kHighlight : kLine), 0, 0, thick);
      }
      if (placed) {
        Placed p{shown_step.pane, "l1", "L1", Rect{origin.x, origin.y, w, h}, g.rows, g.cols};
        p.cell = g.cell;
        placed->push_back(p);
      }
      ImGui::Dummy(ImVec2(w, h));
      const ImVec2 mouse = ImGui::GetIO().MousePos;
      if (ImGui::IsItemHovered() && g.cell > 0) {
        const uint32_t col = uint32_t((mouse.x - origin.x) / g.cell), row = uint32_t((mouse.y - origin.y) / g.cell);
        const uint32_t set = row * g.sets_per_row + col / c.l1_ways, way = col % c.l1_ways;
        if (col < g.cols && set < c.l1_sets) {
          const uint32_t s = set * c.l1_ways + way;
          const uint64_t line = state_.Line(s);
          if (line == L1State::kEmpty) {
            ImGui::SetTooltip("set %u, way %u: empty", set, way);
          } else {
            const int ai = slot_array[s];
            std::string what = "outside the arrays";
            if (ai >= 0) {
              const auto& a = t.arrays[ai];
              const uint64_t lo = line * 128 > a.base ? (line * 128 - a.base) / a.elem_bytes : 0;
              const uint64_t hi = std::min<uint64_t>(a.count - 1, (line * 128 + 127 - a.base) / a.elem_bytes);
              what = a.name + "[" + std::to_string(lo) + ".." + std::to_string(hi) + "]";
            }
            ImGui::SetTooltip("set %u, way %u: line %llu (%s), %d of 4 sectors held%s%s", set, way, (unsigned long long)line,
                              what.c_str(), __builtin_popcount(state_.Valid(s)), step_lines.count(line) ? "; the step touches it" : "",
                              arrived_[s] ? "; arrived since the warp's last step" : "");
          }
        }
      }
    }
  }
  ImGui::EndChild();
  ImGui::PopID();
}

}  // namespace ws::visual
