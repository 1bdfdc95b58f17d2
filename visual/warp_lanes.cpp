// Warp view (see warp_lanes.h).
#include "visual/warp_lanes.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "visual/palette.h"
#include "visual/steps.h"

namespace ws::visual {

std::string CostCaption(const sim::WarpInstruction& ins) {
  char buf[200];
  const int lanes = ins.ActiveLanes();
  if (ins.space == sim::Space::Global) {
    std::snprintf(buf, sizeof buf, "%d lanes \xe2\x86\x92 %u line%s, %u sector%s (ideal %u), %.1f%% of bytes moved are used",
                  lanes, ins.lines, ins.lines == 1 ? "" : "s", ins.sectors, ins.sectors == 1 ? "" : "s",
                  ins.ideal_sectors, 100.0 * UsedFraction(ins));
  } else if (ins.conflict_degree > 1) {
    std::snprintf(buf, sizeof buf, "%d lanes \xe2\x86\x92 %u wavefronts (ideal %u): %u-way bank conflict", lanes,
                  ins.wavefronts, ins.ideal_wavefronts, ins.conflict_degree);
  } else {
    std::snprintf(buf, sizeof buf, "%d lanes \xe2\x86\x92 %u wavefront%s (ideal %u): no bank conflict", lanes,
                  ins.wavefronts, ins.wavefronts == 1 ? "" : "s", ins.ideal_wavefronts);
  }
  return buf;
}

void WarpLanesView::Draw(const StepFrame& frame, float scale, std::vector<Placed>* placed) {
  const sim::WarpInstruction* ins = frame.Focus();
  if (!frame.trace || !ins) {
    ImGui::TextDisabled("no memory instruction for this warp");
    return;
  }
  const sim::Trace& trace = *frame.trace;
  const sim::ArrayInfo* a = ins->array >= 0 && ins->array < int(trace.arrays.size()) ? &trace.arrays[ins->array] : nullptr;
  const uint32_t line = ins->site < trace.sites.size() ? trace.sites[ins->site].line : 0;
  ImGui::PushID(frame.pane.c_str());
  ImGui::Text("block %u warp %u, line %u: %s.%s %s %uB", ins->block, ins->warp, line, sim::ToString(ins->op),
              sim::ToString(ins->space), a ? a->name.c_str() : "?", ins->width);
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(kHighlight.r / 255.f, kHighlight.g / 255.f, kHighlight.b / 255.f, 1), "%s",
                     CostCaption(*ins).c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(ins->space == sim::Space::Global
                          ? "A global request costs one transaction per distinct 32-byte sector its active\n"
                            "lanes touch. Ideal: the bytes asked for, rounded up to sectors. Lines are 128 bytes."
                          : "Shared memory has 32 banks of 4 bytes. Lanes reading the same word share it\n"
                            "(broadcast); distinct words in one bank are served one after another, each an\n"
                            "extra wavefront.");

  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float num_h = ImGui::GetTextLineHeight();
  const Rect strip{p.x, p.y + num_h, w, 22.0f * scale};
  if (placed) placed->push_back({frame.pane, "lanes", a ? a->name : "", strip});
  ImDrawList* dl = ImGui::GetWindowDrawList();
  int hovered = -1;
  for (int lane = 0; lane < 32; ++lane) {
    const Rect b = LaneBox(strip, lane);
    const bool on = ins->mask >> lane & 1;
    const float pad = std::max(1.0f, 0.08f * b.w);
    if (lane % 4 == 0 || b.w > ImGui::CalcTextSize("00").x + 2) {
      char num[8];
      std::snprintf(num, sizeof num, "%d", lane);
      dl->AddText(ImVec2(b.x + pad, p.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), num);
    }
    dl->AddRectFilled(ImVec2(b.x + pad, b.y), ImVec2(b.x + b.w - pad, b.y + b.h), Pack(on ? LaneRgb(lane) : kMasked));
    if (!on) dl->AddRect(ImVec2(b.x + pad, b.y), ImVec2(b.x + b.w - pad, b.y + b.h), Pack({120, 120, 120}));
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (ImGui::IsWindowHovered() && m.x >= b.x && m.x < b.x + b.w && m.y >= b.y && m.y < b.y + b.h) hovered = lane;
  }
  ImGui::Dummy(ImVec2(w, strip.h + num_h + 2 * scale));
  if (hovered >= 0) {
    ImGui::BeginTooltip();
    const bool on = ins->mask >> hovered & 1;
    ImGui::Text("lane %d (thread %u of the block)%s", hovered, ins->warp * 32 + hovered, on ? "" : ": masked off");
    if (on && a) {
      const uint64_t e = ElementOf(*a, ins->addr[hovered]);
      ImGui::Text("%s[%llu]  address 0x%llx  sector %llu  line %llu", a->name.c_str(), (unsigned long long)e,
                  (unsigned long long)ins->addr[hovered], (unsigned long long)(ins->addr[hovered] >> 5),
                  (unsigned long long)(ins->addr[hovered] >> 7));
      if (a->space == sim::Space::Shared) ImGui::Text("bank %llu", (unsigned long long)((ins->addr[hovered] / 4) % 32));
    }
    if (!on) ImGui::TextDisabled("This lane's thread took another path here (or is outside the data).");
    ImGui::EndTooltip();
  }
  // Each lane's element, as row,col of the drawn grid.
  if (show_addresses && a) {
    const GridShape s = DrawShape(a->rows, a->cols, a->count);
    std::string text;
    for (int lane = 0; lane < 32; ++lane) {
      char cell[64];
      if (ins->mask >> lane & 1) {
        const uint64_t e = ElementOf(*a, ins->addr[lane]);
        std::snprintf(cell, sizeof cell, "%2d:[%llu,%llu]", lane, (unsigned long long)(e / s.cols),
                      (unsigned long long)(e % s.cols));
      } else {
        std::snprintf(cell, sizeof cell, "%2d:off", lane);
      }
      text += cell;
      text += lane % 8 == 7 ? "\n" : "  ";
    }
    ImGui::TextUnformatted(text.c_str());
  }
  ImGui::PopID();
}

}  // namespace ws::visual
