// Fault banner (see fault_banner.h).
#include "visual/fault_banner.h"

#include <imgui.h>

#include <algorithm>

#include "sim/finding_text.h"
#include "visual/palette.h"

namespace ws::visual {
std::string FaultText(const std::string& pane, const sim::Trace& t, const sim::Finding& f) {
  return pane + ": " + sim::FindingText(t, f);
}

bool FaultBannerView::Draw(const std::string& pane, const sim::Trace& trace, const sim::Finding& f, float scale) {
  const std::string text = FaultText(pane, trace, f);
  const bool place = sim::HasPlace(f);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float button_w = place ? ImGui::CalcTextSize("go there").x + style.FramePadding.x * 2 + style.ItemSpacing.x : 0;
  const float width = ImGui::GetContentRegionAvail().x;
  const float pad = 6 * scale;
  const float wrap = std::max(width - button_w - 2 * pad, 50 * scale);
  const float text_h = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y;
  const float height = std::max(text_h, ImGui::GetFrameHeight()) + 2 * pad;
  ImGui::PushID(pane.c_str());
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(Pack(kError)));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
  ImGui::BeginChild("fault##banner", ImVec2(0, height), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_AlwaysUseWindowPadding);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  bool go = false;
  if (place) {
    ImGui::SameLine(width - button_w + style.ItemSpacing.x - pad);
    go = ImGui::SmallButton("go there");
  }
  ImGui::EndChild();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
  ImGui::PopID();
  return go;
}

}  // namespace ws::visual
